//! Patches that can see the call stack stay out of the schemata: a patch runs inside its
//! isolation unit, a generated method, so a stack read during the patch, or a throwable made by
//! it that outlives it without being thrown out of the unit (whose frames `Rt.framed` rewrites),
//! shows a frame plain validation never has. Such a patch is validated on its own, unwoven.

use super::text;
use tree_sitter::Node;

/// What the stack rule asks of the class-path analysis (`project::purity::Purity`).
pub trait StackOracle {
    /// Whether a call of this name (`arity` `None`: a method reference; a constructor is asked
    /// under its class's simple name) may read the call stack while it runs.
    fn may_read_stack(&self, name: &str, arity: Option<usize>) -> bool;
}

impl StackOracle for crate::bytecode::purity::Purity {
    fn may_read_stack(&self, name: &str, arity: Option<usize>) -> bool {
        crate::bytecode::purity::Purity::may_read_stack(self, name, arity)
    }
}

impl<F: Fn(&str, Option<usize>) -> bool> StackOracle for F {
    fn may_read_stack(&self, name: &str, arity: Option<usize>) -> bool {
        self(name, arity)
    }
}

/// Why the patched statement `stmt` could observe its isolation unit on the stack, if it could.
pub fn stack_exposure(stmt: &str, oracle: &dyn StackOracle) -> Option<String> {
    let wrapped = format!("class __PV {{ void __m() {{\n{stmt}\n}} }}");
    let tree = super::parser().parse(&wrapped, None)?;
    let src = wrapped.as_str();
    let mut todo = vec![tree.root_node()];
    while let Some(n) = todo.pop() {
        if let Some(why) = exposure_at(src, n, oracle) {
            return Some(why);
        }
        let mut c = n.walk();
        todo.extend(n.named_children(&mut c));
    }
    None
}

/// `java.util.List<String>` → `List`.
fn simple(ty: &str) -> &str {
    let ty = ty.split('<').next().unwrap_or(ty).trim();
    ty.rsplit('.').next().unwrap_or(ty)
}

fn arity(n: Node) -> Option<usize> {
    n.child_by_field_name("arguments")
        .map(|a| a.named_child_count())
}

/// Whether `n` is (inside) the expression of a `throw` statement.
fn thrown(n: Node) -> bool {
    let mut cur = n.parent();
    while let Some(p) = cur {
        match p.kind() {
            "throw_statement" => return true,
            // A lambda or class body inside the thrown expression runs later, elsewhere.
            "lambda_expression" | "class_body" | "block" => return false,
            _ => cur = p.parent(),
        }
    }
    false
}

fn is_throwable_name(ty: &str) -> bool {
    ["Exception", "Error", "Throwable"]
        .iter()
        .any(|s| ty.ends_with(s))
}

fn exposure_at(src: &str, n: Node, oracle: &dyn StackOracle) -> Option<String> {
    match n.kind() {
        "method_invocation" => {
            let name = text(src, n.child_by_field_name("name")?);
            oracle
                .may_read_stack(name, arity(n))
                .then(|| format!("it calls `{name}`, which may read the call stack"))
        }
        "method_reference" => {
            let mut c = n.walk();
            let name = n
                .named_children(&mut c)
                .last()
                .filter(|k| k.kind() == "identifier")
                .map(|k| text(src, k))?;
            oracle
                .may_read_stack(name, None)
                .then(|| format!("it refers to `{name}`, which may read the call stack"))
        }
        "object_creation_expression" => {
            let ty = simple(text(src, n.child_by_field_name("type")?));
            if oracle.may_read_stack(ty, arity(n)) {
                return Some(format!(
                    "it creates a `{ty}`, which may read the call stack"
                ));
            }
            (is_throwable_name(ty) && !thrown(n)).then(|| {
                format!("it creates a `{ty}` it does not throw: its stack trace would show the isolation unit")
            })
        }
        "catch_clause" => {
            let param = n
                .named_child(0)
                .filter(|p| p.kind() == "catch_formal_parameter")?;
            let name = text(src, param.child_by_field_name("name")?);
            let body = n.child_by_field_name("body")?;
            escapes(src, body, name).then(|| {
                format!("it keeps or passes on the caught `{name}`: its stack trace would show the isolation unit")
            })
        }
        _ => None,
    }
}

/// Whether the caught exception `name` is used in `body` other than as the receiver of a call
/// (whose name the call rule checks) or in a `throw`.
fn escapes(src: &str, body: Node, name: &str) -> bool {
    let mut todo = vec![body];
    while let Some(n) = todo.pop() {
        if n.kind() == "identifier" && text(src, n) == name {
            let receiver = n.parent().is_some_and(|p| {
                matches!(p.kind(), "method_invocation" | "field_access")
                    && p.child_by_field_name("object") == Some(n)
            });
            if !receiver && !thrown(n) {
                return true;
            }
        }
        let mut c = n.walk();
        todo.extend(n.named_children(&mut c));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::stack_exposure;

    fn readers(name: &str, _arity: Option<usize>) -> bool {
        matches!(
            name,
            "getStackTrace" | "printStackTrace" | "whereAmI" | "Tracer"
        )
    }

    fn exposed(stmt: &str) -> bool {
        stack_exposure(stmt, &readers).is_some()
    }

    #[test]
    fn stack_reads_are_exposed() {
        assert!(exposed(
            "x = new Throwable().getStackTrace()[0].getMethodName();"
        ));
        assert!(exposed("caller = whereAmI();"));
        assert!(exposed("t = new Tracer(1);"));
        assert!(exposed("names.forEach(Log::whereAmI);"));
    }

    #[test]
    fn throwables_that_outlive_the_patch_unthrown_are_exposed() {
        assert!(exposed("last = new IllegalStateException(\"x\");"));
        assert!(exposed(
            "try { f(); } catch (RuntimeException e) { last = e; }"
        ));
        assert!(exposed(
            "try { f(); } catch (RuntimeException e) { record(e); }"
        ));
    }

    #[test]
    fn ordinary_patches_are_not() {
        assert!(!exposed(
            "if (x < 0) throw new IllegalArgumentException(\"neg \" + x);"
        ));
        assert!(!exposed(
            "throw new ParseError(i, new IllegalStateException());"
        ));
        assert!(!exposed(
            "try { f(); } catch (RuntimeException e) { throw new Wrapped(e); }"
        ));
        assert!(!exposed(
            "try { f(); } catch (RuntimeException e) { msg = e.getMessage(); }"
        ));
        assert!(!exposed(
            "try { f(); } catch (RuntimeException e) { throw e; }"
        ));
        assert!(!exposed("y = x * factor() + list.size();"));
        assert!(!exposed("return;"));
    }
}
