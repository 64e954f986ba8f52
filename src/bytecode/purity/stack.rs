//! Which calls may read the call stack while they run: a patch's isolation unit is a generated
//! method, so a stack read during the patch sees a frame plain validation does not have. The
//! seeds are the JDK's stack readers; the readers are every class-path method that may reach one
//! over a call graph of its own ([`graph`]: overrides, callbacks and lambdas count).

use super::classfile::{self, InvokeKind, ACC_ABSTRACT, ACC_INTERFACE, ACC_STATIC, ACC_VARARGS};
use super::handed::{self, Handed};
use super::jdk::{callbacks, jdk_verdict, simple_name};
use super::Graph;
use std::collections::{HashMap, HashSet};

/// JDK methods that read the stack (or a throwable's frames) by name, whatever the receiver:
/// `Throwable`/`Thread`/`StackWalker` readers, and the JDK logger, which infers its caller.
/// The agent's `StackReads.java` holds the same lists (its reset keeps a static initialiser that
/// reads the stack the JVM's own).
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

/// Whether a source-level call of `name` on a receiver of this declared type (`None`: a type
/// the statement does not say) may be a JDK stack read the call's name alone does not show: a
/// `java.util.logging.Logger` logging method, or any method of a `StackWalker`.
pub fn may_be_jdk_reader(receiver: Option<&str>, name: &str) -> bool {
    match receiver.map(super::jdk::qualifier_simple_name) {
        Some("StackWalker") => name != "getInstance",
        Some("Logger") | None => LOGGER.contains(&name),
        Some(_) => false,
    }
}

/// Whether a class of this name (simple, qualified or internal) is taken to be a throwable
/// where its ancestry is not known: `…Exception`, `…Error`, `…Throwable`.
pub fn is_throwable_name(name: &str) -> bool {
    ["Exception", "Error", "Throwable"]
        .iter()
        .any(|s| name.ends_with(s))
}

/// Whether invoking `owner.name` is a JDK stack read.
fn is_jdk_reader(owner: &str, name: &str) -> bool {
    match owner {
        "java/lang/StackWalker" => name != "getInstance",
        "java/util/logging/Logger" => LOGGER.contains(&name),
        _ => JDK_READERS.contains(&name) && !owner.starts_with('['),
    }
}

/// The hooks serialization calls on the objects it writes or reads: `(name, arity)`.
pub(super) const SERIALIZATION_HOOKS: &[(&str, usize)] = &[
    ("writeObject", 1),
    ("readObject", 1),
    ("readObjectNoData", 0),
    ("writeReplace", 0),
    ("readResolve", 0),
];

/// A lambda (or method reference): its functional interface, the functional method's arity and
/// the nodes of its body.
type Lambda<'a> = (&'a str, usize, Vec<usize>);

/// The call graph of the stack analysis. Not purity's: purity stops at a method's first effect
/// and sends a call of an abstract or JDK method to unknown (impure) code, while a stack read
/// needs every call of every method, and where lambdas can run:
/// - a call on a JDK type dispatches to the overrides in the class path's subtypes of that type
///   only (the JDK's hierarchy from `jdk_types`), not to every method of that name;
/// - a call of an interface method of the class path, or of a JDK type, may run every lambda
///   whose functional method has that name (`LambdaMetafactory` says which);
/// - the JDK calls back (`Callback::Functions`) only the functional methods purity's callback
///   lists name, so the function-callback node depends on those lambdas, not on every one: a
///   test's `assertThrows(…, () -> printStackTrace())` is not reached through `Stream.map`;
/// - a method that makes a lambda or method reference depends on its body: it may run it, or
///   hand it to JDK code that does, whose calls the graph does not see;
/// - a call of JDK code outside the allowlist depends on what it may call back of what it is
///   handed ([`handed`]), and the `held` node on what JDK code may call on any object it holds
///   (object callbacks, overrides of JDK methods, serialization hooks);
/// - reflection may run any method ([`seeds`]).
///
/// A handle used otherwise than as a lambda's body counts under every name.
fn graph(g: &Graph) -> Vec<Vec<usize>> {
    // Per functional method name: the lambdas implementing it.
    let mut by_sam: HashMap<&str, Vec<Lambda>> = HashMap::new();
    let mut any_name: Vec<usize> = Vec::new();
    let mut typed: Vec<(&str, Vec<usize>)> = Vec::new();
    let mut out = vec![Vec::new(); g.methods + 4];
    out[g.held()].push(g.callbacks());
    let mut fn_callbacks = vec![g.callbacks()];
    let callback_name = |n: &str| callbacks().iter().flatten().any(|(c, _)| *c == n);
    for c in g.classes {
        for (handle, sams) in c.handles.iter().zip(&c.handle_sams) {
            let mut targets = Vec::new();
            match handle {
                Some((kind, target)) => g.invoke(*kind, target, &mut targets),
                None => targets.push(g.unknown()),
            }
            match sams {
                Some(sams) => {
                    for s in sams {
                        typed.push((s.interface.as_str(), targets.clone()));
                        let entry = (s.interface.as_str(), s.arity, targets.clone());
                        by_sam.entry(&s.name).or_default().push(entry);
                    }
                    if sams.iter().any(|s| callback_name(&s.name)) {
                        fn_callbacks.extend(&targets);
                    }
                }
                None => {
                    any_name.extend(&targets);
                    fn_callbacks.extend(&targets);
                }
            }
        }
    }
    any_name.sort_unstable();
    any_name.dedup();
    // The lambda bodies a call of `owner.name` with `arity` arguments may run.
    let lambdas = |owner: &str, name: &str, arity: usize| -> Vec<usize> {
        let mut d = any_name.clone();
        for (interface, a, targets) in by_sam.get(name).into_iter().flatten() {
            let fits = *a == arity || *a == usize::MAX;
            if fits && g.may_subtype(interface, owner) {
                d.extend(targets);
            }
        }
        d
    };
    let mut handed = Handed::new(g, typed);
    let mut cache: HashMap<(InvokeKind, &classfile::MemberRef), Vec<usize>> = HashMap::new();
    for (ci, c) in g.classes.iter().enumerate() {
        let interface = c.access & ACC_INTERFACE != 0;
        for (mi, m) in c.methods.iter().enumerate() {
            let node = g.first[ci] + mi;
            let arity = classfile::arity(&m.descriptor).unwrap_or(usize::MAX);
            if m.access & ACC_STATIC == 0 {
                if callbacks()[0].contains(&(m.name.as_str(), arity)) {
                    out[g.callbacks()].push(node);
                }
                if callbacks()[1].contains(&(m.name.as_str(), arity)) {
                    fn_callbacks.push(node);
                }
                // JDK code holding an object may call any override of a JDK method on it, and
                // serialization its own hooks.
                let hook = SERIALIZATION_HOOKS.contains(&(m.name.as_str(), arity));
                if hook || handed.overrides(node) {
                    out[g.held()].push(node);
                }
            }
            if interface && m.access & ACC_ABSTRACT != 0 {
                out[node].extend(lambdas(&c.name, &m.name, arity));
            }
            let Some(code) = &m.code else { continue };
            // A method that makes a lambda or method reference may run it, or hand it to JDK
            // code that does (`forEach`, an executor), which is not analysed.
            for &b in &code.bootstraps {
                for &h in c
                    .bootstrap_handles
                    .get(usize::from(b))
                    .into_iter()
                    .flatten()
                {
                    match &c.handles[h] {
                        Some((kind, target)) => g.invoke(*kind, target, &mut out[node]),
                        None => out[node].push(g.unknown()),
                    }
                }
            }
            for (kind, t) in &code.invokes {
                let d = cache.entry((*kind, t)).or_insert_with(|| {
                    let mut d = Vec::new();
                    g.invoke(*kind, t, &mut d);
                    let dynamic = matches!(kind, InvokeKind::Interface | InvokeKind::Virtual);
                    let arity = classfile::arity(&t.descriptor).unwrap_or(usize::MAX);
                    let outside = !g.by_name.contains_key(t.owner.as_str());
                    if dynamic && outside {
                        d.extend(lambdas(&t.owner, &t.name, arity));
                    }
                    // JDK code outside the allowlist calls back what it is handed.
                    if outside
                        && !t.owner.starts_with('[')
                        && jdk_verdict(&t.owner, &t.name, arity).is_none()
                    {
                        let types = handed::handed_types(*kind, t);
                        for &(ty, objects) in &types {
                            d.extend_from_slice(handed.callbacks_of(ty, objects));
                        }
                        if !types.is_empty() {
                            d.extend(&any_name);
                        }
                    }
                    d.sort_unstable();
                    d.dedup();
                    d
                });
                out[node].extend_from_slice(d);
            }
            if m.name == "<init>" {
                // A JDK exception constructor calls `fillInStackTrace()`, which the class
                // being constructed (or a subclass) may override.
                let fill_in = ("fillInStackTrace", "()Ljava/lang/Throwable;");
                g.in_hierarchy(ci, fill_in, &mut out[node]);
            }
        }
    }
    fn_callbacks.sort_unstable();
    fn_callbacks.dedup();
    out[g.fn_callbacks()] = fn_callbacks;
    out
}

/// Per graph node: whether the method itself calls a JDK stack reader, or may keep a throwable
/// (`Code::kept`: one it made or caught, or the result of a call that returns one it made,
/// [`fresh`]): its stack trace, fixed when it was made, is read later.
fn seeds(g: &Graph, total: usize, fresh: &[bool]) -> Vec<bool> {
    let fresh_names: HashSet<&str> = methods(g)
        .filter(|(node, _, _)| fresh[*node])
        .map(|(_, m, _)| m.name.as_str())
        .collect();
    let mut seed = vec![false; total];
    for (node, _, code) in methods(g) {
        seed[node] = code
            .invokes
            .iter()
            .any(|(_, t)| is_jdk_reader(&t.owner, &t.name))
            || code.kept.iter().any(|k| g.may_be_throwable(k))
            || code
                .invokes
                .iter()
                .zip(&code.result_kept)
                .any(|((kind, t), &kept)| {
                    kept && fresh_names.contains(t.name.as_str()) && {
                        let mut targets = Vec::new();
                        g.invoke(*kind, t, &mut targets);
                        targets.iter().any(|&n| fresh.get(n) == Some(&true))
                    }
                });
    }
    // Reflection may run any method: a reader, if the class path has one.
    if seed.iter().any(|&s| s) {
        for (node, _, code) in methods(g) {
            if code
                .invokes
                .iter()
                .any(|(_, t)| handed::is_reflective(&t.owner, &t.name))
            {
                seed[node] = true;
            }
        }
    }
    seed
}

/// Every method of the class path with code: (node, method, code).
fn methods<'g>(
    g: &'g Graph,
) -> impl Iterator<Item = (usize, &'g classfile::Method, &'g classfile::Code)> + 'g {
    g.classes.iter().enumerate().flat_map(move |(ci, c)| {
        c.methods
            .iter()
            .enumerate()
            .filter_map(move |(mi, m)| Some((g.first[ci] + mi, m, m.code.as_ref()?)))
    })
}

/// Per graph node: whether the method may return a throwable made under its call, unthrown
/// (`throw error(..)` keeps nothing; `last = error(..)` does): one it makes, or the result of a
/// call of such a method.
pub(super) fn fresh(g: &Graph, total: usize) -> Vec<bool> {
    let mut fresh = vec![false; total];
    for (node, _, code) in methods(g) {
        fresh[node] = code.returned.iter().any(|c| g.may_be_throwable(c));
    }
    let mut cache: HashMap<(InvokeKind, &classfile::MemberRef), Vec<usize>> = HashMap::new();
    loop {
        let mut changed = false;
        for (node, _, code) in methods(g) {
            if fresh[node] {
                continue;
            }
            let returns_fresh =
                code.invokes
                    .iter()
                    .zip(&code.result_returned)
                    .any(|((kind, t), &returned)| {
                        returned
                            && cache
                                .entry((*kind, t))
                                .or_insert_with(|| {
                                    let mut d = Vec::new();
                                    g.invoke(*kind, t, &mut d);
                                    d
                                })
                                .iter()
                                .any(|&n| fresh.get(n) == Some(&true))
                    });
            if returns_fresh {
                fresh[node] = true;
                changed = true;
            }
        }
        if !changed {
            return fresh;
        }
    }
}

/// The `(name, arity)` under which source code calls each reader: the method's name, or for a
/// constructor the simple name of its class (as `new Name(..)` writes it); and for a lambda or
/// method reference that may read the stack, its functional method, which source code calls on a
/// functional interface that may be the JDK's (`Supplier.get`). Sorted and distinct.
pub(super) fn summarise(g: &Graph, readers: &[bool]) -> Vec<(String, u16)> {
    split(signatures(g, readers)).0
}

/// `(name, arity)` and `(name, parameters)` lists, as persisted.
type Arities = Vec<(String, u16)>;
type Params = Vec<(String, String)>;

/// [`signatures`] as `(name, arity)` and `(name, parameters)`, each sorted and distinct.
pub(super) fn split(sigs: Vec<(String, u16, String)>) -> (Arities, Params) {
    let mut arities = Vec::with_capacity(sigs.len());
    let mut params = Vec::with_capacity(sigs.len());
    for (name, arity, p) in sigs {
        arities.push((name.clone(), arity));
        params.push((name, p));
    }
    arities.sort_unstable();
    arities.dedup();
    params.sort_unstable();
    params.dedup();
    (arities, params)
}

/// [`summarise`] with each reader's parameter types: the descriptor's `(..)` part, or `*` where
/// the types do not say which calls it takes (a lambda's functional method, a method of variable
/// arity). `(name, arity, parameters)`, sorted and distinct.
pub(super) fn signatures(g: &Graph, readers: &[bool]) -> Vec<(String, u16, String)> {
    let mut out = Vec::new();
    // An arity not read (`usize::MAX`) is kept as `u16::MAX`, which any call matches.
    let arity16 = |a: usize| {
        if a == usize::MAX {
            u16::MAX
        } else {
            a.min(255) as u16
        }
    };
    for (ci, c) in g.classes.iter().enumerate() {
        for (handle, sams) in c.handles.iter().zip(&c.handle_sams) {
            let mut targets = Vec::new();
            if let Some((kind, target)) = handle {
                g.invoke(*kind, target, &mut targets);
            }
            if targets.iter().any(|&t| readers[t]) {
                for s in sams.iter().flatten() {
                    out.push((s.name.clone(), arity16(s.arity), "*".to_string()));
                }
            }
        }
        for (mi, m) in c.methods.iter().enumerate() {
            if !readers[g.first[ci] + mi] || m.name == "<clinit>" {
                continue;
            }
            // A variable-arity method may be called with any number of arguments.
            let varargs = m.access & ACC_VARARGS != 0;
            let arity = match classfile::arity(&m.descriptor) {
                _ if varargs => u16::MAX,
                a => a.map_or(u16::MAX, arity16),
            };
            let params = match m.descriptor.find(')') {
                Some(end) if !varargs && arity != u16::MAX => m.descriptor[..=end].to_string(),
                _ => "*".to_string(),
            };
            let name = if m.name == "<init>" {
                simple_name(&c.name).to_string()
            } else {
                m.name.clone()
            };
            out.push((name, arity, params));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Every method that may read the stack: the seeds and whatever reaches them over [`graph`].
pub(super) fn readers(g: &Graph, total: usize, fresh: &[bool]) -> Vec<bool> {
    let mut dependents = vec![Vec::new(); total];
    for (node, ds) in graph(g).iter().enumerate() {
        for &d in ds {
            dependents[d].push(node);
        }
    }
    super::reaching(seeds(g, total, fresh), &dependents)
}

impl Graph<'_> {
    /// Whether an object of class `t` may be a throwable. A class whose ancestry leaves what is
    /// known is judged by its name where it is the JDK's (`ct.sym` unread), else taken to be one.
    pub(super) fn may_be_throwable(&self, t: &str) -> bool {
        let mut t = t;
        for _ in 0..64 {
            if t == "java/lang/Throwable" {
                return true;
            }
            let supers = match self.by_name.get(t) {
                Some(&k) => self.classes[k].super_name.as_deref(),
                None => match self.jdk_types.and_then(|types| types.get(t)) {
                    Some(s) => s.first().map(String::as_str),
                    None if super::is_jdk(t) => return is_throwable_name(t),
                    None => return true,
                },
            };
            match supers {
                Some(s) => t = s,
                None => return false,
            }
        }
        true
    }

    /// Whether an object of type `t` (class path or JDK) may be a `target`: its ancestry reaches
    /// it, or leaves what is known (class path and `jdk_types`) before it could.
    pub(super) fn may_subtype(&self, t: &str, target: &str) -> bool {
        self.ancestry_reaches(t, target, true)
    }

    /// Whether type `t`'s known ancestry reaches `target`: where it leaves what is known, not.
    pub(super) fn known_subtype(&self, t: &str, target: &str) -> bool {
        self.ancestry_reaches(t, target, false)
    }

    fn ancestry_reaches(&self, t: &str, target: &str, unknown: bool) -> bool {
        let mut todo = vec![t];
        let mut seen = HashSet::new();
        while let Some(t) = todo.pop() {
            if t == target {
                return true;
            }
            if !seen.insert(t) {
                continue;
            }
            match self.by_name.get(t) {
                Some(&k) => {
                    let c = &self.classes[k];
                    todo.extend(c.super_name.iter().chain(&c.interfaces).map(String::as_str));
                }
                None => match self.jdk_types.and_then(|types| types.get(t)) {
                    Some(s) => todo.extend(s.iter().map(String::as_str)),
                    None if unknown => return true,
                    None => {}
                },
            }
        }
        false
    }
}
