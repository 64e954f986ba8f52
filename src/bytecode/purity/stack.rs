//! Which calls may read the call stack while they run: a patch's isolation unit is a generated
//! method, so a stack read during the patch sees a frame plain validation does not have. The
//! seeds are the JDK's stack readers; the readers are every class-path method that may reach one
//! (over the same call graph as purity, so overrides and callbacks count).

use super::classfile::{self, ClassFile};
use super::jdk::simple_name;
use super::Graph;

/// JDK methods that read the stack (or a throwable's frames) by name, whatever the receiver:
/// `Throwable`/`Thread`/`StackWalker` readers, and the JDK logger, which infers its caller.
pub const JDK_READERS: &[&str] = &[
    "getStackTrace",
    "printStackTrace",
    "dumpStack",
    "getAllStackTraces",
    "getCallerClass",
    "getClassContext",
    "getSourceClassName",
    "getSourceMethodName",
];

/// `java.util.logging.Logger` methods that log, each inferring the caller's class and method.
const LOGGER: &[&str] = &[
    "log", "logp", "logrb", "severe", "warning", "info", "config", "fine", "finer", "finest",
    "entering", "exiting", "throwing",
];

/// Whether invoking `owner.name` is a JDK stack read.
fn is_jdk_reader(owner: &str, name: &str) -> bool {
    match owner {
        "java/lang/StackWalker" => name != "getInstance",
        "java/util/logging/Logger" => LOGGER.contains(&name),
        _ => JDK_READERS.contains(&name) && !owner.starts_with('['),
    }
}

/// Per graph node: whether the method itself calls a JDK stack reader.
pub(super) fn seeds(g: &Graph, total: usize) -> Vec<bool> {
    let mut seed = vec![false; total];
    for (ci, c) in g.classes.iter().enumerate() {
        for (mi, m) in c.methods.iter().enumerate() {
            seed[g.first[ci] + mi] = m.code.as_ref().is_some_and(|code| {
                code.invokes
                    .iter()
                    .any(|(_, t)| is_jdk_reader(&t.owner, &t.name))
            });
        }
    }
    seed
}

/// The `(name, arity)` under which source code calls each reader: the method's name, or for a
/// constructor the simple name of its class (as `new Name(..)` writes it). Sorted and distinct.
pub(super) fn summarise(
    classes: &[ClassFile],
    first: &[usize],
    readers: &[bool],
) -> Vec<(String, u16)> {
    let mut out = Vec::new();
    for (ci, c) in classes.iter().enumerate() {
        for (mi, m) in c.methods.iter().enumerate() {
            if !readers[first[ci] + mi] || m.name == "<clinit>" {
                continue;
            }
            let arity = classfile::arity(&m.descriptor).map_or(u16::MAX, |a| a.min(255) as u16);
            let name = if m.name == "<init>" {
                simple_name(&c.name).to_string()
            } else {
                m.name.clone()
            };
            out.push((name, arity));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
