//! Mutation operators that read the call stack while the patch runs (issue 26): the patched
//! statement guarded by a check that the frame running it is the enclosing method, read from a
//! new throwable, from the thread, from a throwable made first and read later, and from a JDK
//! logger inferring its caller. Under plain validation every check passes, so each mutant's
//! verdict is the original statement's; a technique that shows the patch another frame (a
//! generated isolation method) makes it throw instead.

use super::spot::{Mutant, Spot};
use tree_sitter::Node;

/// The name the stack gives the code around the statement: the method's name, `<init>` in a
/// constructor or an instance initialiser, `<clinit>` in a static one. `None` inside a lambda
/// (whose frame has a generated name) or where no method is found.
fn frame_name(s: &Spot) -> Option<String> {
    if s.in_lambda {
        return None;
    }
    let mut cur: Option<Node> = s.stmt.parent();
    while let Some(n) = cur {
        match n.kind() {
            "lambda_expression" => return None,
            "method_declaration" => {
                return n.child_by_field_name("name").map(|m| s.text(m).to_string())
            }
            "constructor_declaration" | "compact_constructor_declaration" => {
                return Some("<init>".into())
            }
            "static_initializer" => return Some("<clinit>".into()),
            "block" if n.parent().is_some_and(|p| p.kind() == "class_body") => {
                return Some("<init>".into())
            }
            _ => cur = n.parent(),
        }
    }
    None
}

/// A local name for the kept throwable that no visible local takes.
fn fresh_local(s: &Spot, base: &str) -> String {
    (0..)
        .map(|i| format!("{base}{i}"))
        .find(|n| !s.all_locals.contains(n))
        .unwrap_or_default()
}

/// Every mutant of the stack operators, in a deterministic order.
pub fn stack_reads(s: &Spot) -> Vec<Mutant> {
    let Some(frame) = frame_name(s) else {
        return Vec::new();
    };
    let orig = s.orig();
    let fail = "throw new IllegalStateException(\"seen from another frame\");";
    let guarded = |read: &str| format!("if (!\"{frame}\".equals({read})) {fail} {orig}");
    let kept = fresh_local(s, "kept");
    let seen = fresh_local(s, "seenIn");
    vec![
        Mutant {
            text: guarded("new Throwable().getStackTrace()[0].getMethodName()"),
            op: "stack-read",
        },
        Mutant {
            text: guarded("Thread.currentThread().getStackTrace()[1].getMethodName()"),
            op: "stack-read",
        },
        Mutant {
            text: format!(
                "Throwable {kept} = new Throwable(); \
                 if (!\"{frame}\".equals({kept}.getStackTrace()[0].getMethodName())) {fail} {orig}"
            ),
            op: "stack-kept",
        },
        Mutant {
            text: format!(
                "final String[] {seen} = new String[1]; \
                 java.util.logging.Logger {seen}Log = java.util.logging.Logger.getAnonymousLogger(); \
                 {seen}Log.setUseParentHandlers(false); \
                 {seen}Log.addHandler(new java.util.logging.Handler() {{ \
                 public void publish(java.util.logging.LogRecord r) {{ {seen}[0] = r.getSourceMethodName(); }} \
                 public void flush() {{}} public void close() {{}} }}); \
                 {seen}Log.info(\"patched\"); \
                 if (!\"{frame}\".equals({seen}[0])) {fail} {orig}"
            ),
            op: "stack-log",
        },
    ]
}
