//! Patches that can see the call stack stay out of the schemata: a patch runs inside its
//! isolation unit, a generated method, so a stack read during the patch, or a throwable made by
//! it that outlives it without being thrown out of the unit (whose frames `Rt.framed` rewrites),
//! shows a frame plain validation never has. Such a patch is validated on its own, unwoven.

use super::names::{kind_of, Kind, Names};
use super::scope::Site;
use super::sequential::Field;
use super::text;
use crate::bytecode::purity::{is_throwable_name, Arg};
use tree_sitter::Node;

/// What the stack rule asks of the class-path analysis (`project::purity::Purity`).
pub trait StackOracle {
    /// Whether a call of this name (`arity` `None`: a method reference; a constructor is asked
    /// under its class's simple name) may read the call stack while it runs.
    fn may_read_stack(&self, name: &str, arity: Option<usize>) -> bool;

    /// The same for a call on a receiver of this declared type (`is_static`: a static call on
    /// this class), which may rule out the class-path methods of that name. By default it does
    /// not.
    fn may_read_stack_on(
        &self,
        _receiver: &str,
        _is_static: bool,
        name: &str,
        arity: usize,
    ) -> bool {
        self.may_read_stack(name, Some(arity))
    }

    /// [`Self::may_read_stack`] for a call (a constructor: under its class's simple name) with
    /// arguments of these types, which may rule out readers whose parameters cannot take them.
    /// By default they do not.
    fn may_read_stack_with(&self, name: &str, args: &[Arg]) -> bool {
        self.may_read_stack(name, Some(args.len()))
    }

    /// Whether a call of this name may return a throwable made under the call, unthrown (a
    /// factory): a patch that keeps the result keeps its stack trace. By default none does.
    fn may_return_fresh_throwable(&self, _name: &str, _arity: Option<usize>) -> bool {
        false
    }
}

impl StackOracle for crate::bytecode::purity::Purity {
    fn may_read_stack(&self, name: &str, arity: Option<usize>) -> bool {
        crate::bytecode::purity::Purity::may_read_stack(self, name, arity)
    }

    fn may_read_stack_on(&self, receiver: &str, is_static: bool, name: &str, arity: usize) -> bool {
        crate::bytecode::purity::Purity::may_read_stack_on(self, receiver, is_static, name, arity)
    }

    fn may_read_stack_with(&self, name: &str, args: &[Arg]) -> bool {
        crate::bytecode::purity::Purity::may_read_stack_with(self, name, args)
    }

    fn may_return_fresh_throwable(&self, name: &str, arity: Option<usize>) -> bool {
        crate::bytecode::purity::Purity::may_return_fresh_throwable(self, name, arity)
    }
}

impl<F: Fn(&str, Option<usize>) -> bool> StackOracle for F {
    fn may_read_stack(&self, name: &str, arity: Option<usize>) -> bool {
        self(name, arity)
    }
}

/// Why the patched statement `stmt` could observe its isolation unit on the stack, if it could.
/// `site` and `fields` give the declared types of the names it uses, for the calls it makes
/// without naming them (a reference converted to a string calls its `toString()`).
pub fn stack_exposure(
    stmt: &str,
    site: &Site,
    fields: &[(Field, bool)],
    oracle: &dyn StackOracle,
) -> Option<String> {
    let wrapped = format!("class __PV {{ void __m() {{\n{stmt}\n}} }}");
    let tree = super::parser().parse(&wrapped, None)?;
    let src = wrapped.as_str();
    let mut names = Names {
        site,
        fields,
        declared: Vec::new(),
        class_name: None,
    };
    let mut all = Vec::new();
    let mut todo = vec![tree.root_node()];
    while let Some(n) = todo.pop() {
        // Every name the statement declares (locals, parameters of its lambdas and catches,
        // loop variables), so that none is mistaken for a field of that name.
        let declarer = matches!(
            n.kind(),
            "variable_declarator"
                | "formal_parameter"
                | "catch_formal_parameter"
                | "enhanced_for_statement"
        );
        if let Some(name) = n.child_by_field_name("name").filter(|_| declarer) {
            names.declared.push(text(src, name).to_string());
        }
        if n.kind() == "identifier"
            && n.parent()
                .is_some_and(|p| matches!(p.kind(), "lambda_expression" | "inferred_parameters"))
            && n.next_sibling().is_some()
        {
            names.declared.push(text(src, n).to_string());
        }
        all.push(n);
        let mut c = n.walk();
        todo.extend(n.named_children(&mut c));
    }
    all.into_iter().find_map(|n| {
        exposure_at(src, n, &names, oracle).or_else(|| implicit_call(src, n, &names, oracle))
    })
}

/// A stack read in a call the statement makes without naming it: `toString()` of a reference
/// converted to a string (`+` with a string, `+=` on one, an `assert` message), `iterator()`,
/// `hasNext()` and `next()` of an enhanced `for` over an `Iterable`, `close()` of a resource.
fn implicit_call(src: &str, n: Node, names: &Names, oracle: &dyn StackOracle) -> Option<String> {
    let reads = |name: &str| oracle.may_read_stack(name, Some(0));
    let kind = |f: &str| {
        n.child_by_field_name(f)
            .map_or(Kind::Unknown, |e| kind_of(src, e, names))
    };
    let converted = match n.kind() {
        "binary_expression"
            if n.child_by_field_name("operator").map(|o| text(src, o)) == Some("+") =>
        {
            let (a, b) = (kind("left"), kind("right"));
            (a.may_call_to_string() && b.may_be_string())
                || (b.may_call_to_string() && a.may_be_string())
        }
        "assignment_expression"
            if n.child_by_field_name("operator").map(|o| text(src, o)) == Some("+=") =>
        {
            kind("left").may_be_string() && kind("right").may_call_to_string()
        }
        "assert_statement" => n
            .named_child(1)
            .is_some_and(|d| kind_of(src, d, names).may_call_to_string()),
        "enhanced_for_statement" => {
            let value = n.child_by_field_name("value")?;
            let array = value.kind() == "identifier"
                && names
                    .type_of(text(src, value))
                    .is_some_and(|t| t.trim_end().ends_with(']'));
            let name = ["iterator", "hasNext", "next"]
                .into_iter()
                .find(|m| reads(m))
                .filter(|_| !array)?;
            return Some(format!(
                "its `for` calls `{name}`, which may read the call stack"
            ));
        }
        "try_with_resources_statement" => {
            return reads("close")
                .then(|| "its `try` calls `close`, which may read the call stack".to_string());
        }
        _ => false,
    };
    (converted && reads("toString")).then(|| {
        "it converts a reference to a string: its `toString` may read the call stack".to_string()
    })
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

/// What a call's arguments are known to be, from their text and the names' declared types.
fn args(src: &str, n: Node, names: &Names) -> Option<Vec<Arg>> {
    let list = n.child_by_field_name("arguments")?;
    let mut c = list.walk();
    let out = list
        .named_children(&mut c)
        .map(|a| match kind_of(src, a, names) {
            Kind::String => Arg::String,
            Kind::Value => Arg::Value,
            _ => Arg::Unknown,
        })
        .collect();
    Some(out)
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

/// The declared type of a call's receiver where the statement says it, and whether the call is
/// static (the receiver names a class): a string literal, a local or field, a class name.
fn receiver<'s>(src: &'s str, call: Node, names: &'s Names) -> Option<(&'s str, bool)> {
    let object = call.child_by_field_name("object")?;
    match object.kind() {
        "string_literal" => Some(("String", false)),
        "identifier" => {
            let id = text(src, object);
            // A name the statement declares may hide a field of another type.
            if names.declared.iter().any(|d| d == id) {
                return None;
            }
            match names.type_of(id) {
                Some(ty) => Some((ty, false)),
                None if names.is_variable(id) => None,
                None => id.starts_with(char::is_uppercase).then_some((id, true)),
            }
        }
        _ => None,
    }
}

fn exposure_at(src: &str, n: Node, names: &Names, oracle: &dyn StackOracle) -> Option<String> {
    match n.kind() {
        "method_invocation" => {
            let name = text(src, n.child_by_field_name("name")?);
            let arity = arity(n);
            let typed = receiver(src, n, names);
            // A call on some object: a `java.util.logging.Logger` or a `StackWalker` read the
            // stack under names anything may have (`info`, `walk`).
            let on_object = n
                .child_by_field_name("object")
                .is_some_and(|o| !matches!(o.kind(), "this" | "super"));
            let jdk = on_object
                && crate::bytecode::purity::may_be_jdk_reader(typed.map(|(t, _)| t), name);
            let with_args = |args: Option<Vec<Arg>>| match args {
                Some(args) => oracle.may_read_stack_with(name, &args),
                None => oracle.may_read_stack(name, arity),
            };
            let reads = jdk
                || match (typed, arity) {
                    (Some((ty, is_static)), Some(a)) => {
                        oracle.may_read_stack_on(ty, is_static, name, a)
                            && with_args(args(src, n, names))
                    }
                    _ => with_args(args(src, n, names)),
                };
            if reads {
                return Some(format!(
                    "it calls `{name}`, which may read the call stack or keep a stack trace"
                ));
            }
            let thrown_at_once = n.parent().is_some_and(|p| p.kind() == "throw_statement");
            (!thrown_at_once && oracle.may_return_fresh_throwable(name, arity)).then(|| {
                format!("it keeps what `{name}` returns, a throwable whose stack trace would show the isolation unit")
            })
        }
        "method_reference" => {
            let mut c = n.walk();
            let name = n
                .named_children(&mut c)
                .last()
                .filter(|k| k.kind() == "identifier")
                .map(|k| text(src, k))?;
            oracle.may_read_stack(name, None).then(|| {
                format!(
                    "it refers to `{name}`, which may read the call stack or keep a stack trace"
                )
            })
        }
        "identifier" | "type_identifier" if text(src, n) == "StackWalker" => {
            Some("it uses a `StackWalker`, which reads the call stack".to_string())
        }
        "object_creation_expression" => {
            let ty = simple(text(src, n.child_by_field_name("type")?));
            let reads = match args(src, n, names) {
                Some(args) => oracle.may_read_stack_with(ty, &args),
                None => oracle.may_read_stack(ty, arity(n)),
            };
            if reads {
                return Some(format!(
                    "it creates a `{ty}`, which may read the call stack or keep a stack trace"
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
    use super::{stack_exposure, Arg, Site, StackOracle};

    fn readers(name: &str, _arity: Option<usize>) -> bool {
        matches!(
            name,
            "getStackTrace" | "printStackTrace" | "whereAmI" | "Tracer"
        )
    }

    /// A location with locals of a reference, an iterable, an array and a string type.
    fn site() -> Site {
        let src = "class A { int f(Mark mark, Items items, int[] counts, String s) { int y = 0; y += 1; return y; } }";
        let t = crate::weave::parser().parse(src, None).unwrap();
        let start = src.find("y += 1;").unwrap();
        crate::weave::scope::analyse(src, t.root_node(), start..start + 7).unwrap()
    }

    fn exposed_with(stmt: &str, oracle: &dyn StackOracle) -> bool {
        stack_exposure(stmt, &site(), &[], oracle).is_some()
    }

    fn exposed(stmt: &str) -> bool {
        exposed_with(stmt, &readers)
    }

    #[test]
    fn implicit_calls_that_may_read_the_stack_are_exposed() {
        let implicit =
            |name: &str, _arity: Option<usize>| matches!(name, "toString" | "iterator" | "close");
        let with = |stmt: &str| exposed_with(stmt, &implicit);
        assert!(with("s = \"at \" + mark;"));
        assert!(with("s += mark;"));
        assert!(
            with("s = s + mark.peer();"),
            "a call's result of unknown type"
        );
        assert!(with("assert y > 0 : mark;"));
        assert!(with("for (Object o : items) { y++; }"));
        assert!(with("try (Items i = items) { y++; }"));
        assert!(!with("y = y + 1;"), "no string");
        assert!(!with("s = s + y + \"!\";"), "strings and values only");
        assert!(!with("for (int c : counts) { y += c; }"), "an array");
        // The same statements when those methods cannot read the stack.
        assert!(!exposed("s = \"at \" + mark;"));
        assert!(!exposed("for (Object o : items) { y++; }"));
        assert!(!exposed("try (Items i = items) { y++; }"));
    }

    /// `equals` may read the stack, except on a `String` (as a final JDK class whose `equals`
    /// calls nothing back).
    struct Typed;
    impl StackOracle for Typed {
        fn may_read_stack(&self, name: &str, _arity: Option<usize>) -> bool {
            name == "equals"
        }
        fn may_read_stack_on(&self, receiver: &str, _: bool, name: &str, a: usize) -> bool {
            receiver != "String" && self.may_read_stack(name, Some(a))
        }
    }

    #[test]
    fn a_receiver_of_a_declared_type_is_asked_with_it() {
        let with = |stmt: &str| exposed_with(stmt, &Typed);
        assert!(!with("y = \"x\".equals(s) ? 1 : 0;"), "a string literal");
        assert!(!with("y = s.equals(\"x\") ? 1 : 0;"), "a local `String`");
        assert!(with("y = mark.equals(s) ? 1 : 0;"), "a local `Mark`");
        assert!(with("y = s.trim().equals(s) ? 1 : 0;"), "a call's result");
        assert!(
            with("{ Mark s2 = mark; y = s2.equals(mark) ? 1 : 0; }"),
            "declared by the statement: its type is not looked up"
        );
        assert!(
            with("items.forEach(s2 -> s2.equals(mark));"),
            "a lambda's parameter"
        );
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
    fn jdk_loggers_and_stack_walkers_are_exposed_whatever_their_method_names() {
        let none = |_: &str, _: Option<usize>| false;
        let with = |stmt: &str| exposed_with(stmt, &none);
        assert!(with("java.util.logging.Logger.getLogger(\"x\").info(s);"));
        assert!(with(
            "{ java.util.logging.Logger log = make(); log.warning(s); }"
        ));
        assert!(with("y = StackWalker.getInstance().walk(f -> 1);"));
        assert!(!with("mark.info(s);"), "a `Mark` is no logger");
        assert!(!with("info(s);"), "a method of the enclosing class");
        assert!(!with("this.config(s);"));
    }

    /// A factory of throwables (`error()`): its result kept is exposed, thrown at once is not.
    struct Factory;

    impl StackOracle for Factory {
        fn may_read_stack(&self, _name: &str, _arity: Option<usize>) -> bool {
            false
        }

        fn may_return_fresh_throwable(&self, name: &str, arity: Option<usize>) -> bool {
            name == "error" && arity == Some(1)
        }
    }

    #[test]
    fn a_kept_result_of_a_throwable_factory_is_exposed() {
        let with = |stmt: &str| exposed_with(stmt, &Factory);
        assert!(with("last = error(s);"));
        assert!(with("list.add(error(s));"));
        assert!(!with("throw error(s);"));
        assert!(!with("if (y < 0) throw error(s);"));
        assert!(!with("y = error();"), "another arity");
    }

    /// `Oops(Throwable)` reads the stack, `Oops(String)` does not.
    struct Overloads;

    impl StackOracle for Overloads {
        fn may_read_stack(&self, name: &str, _arity: Option<usize>) -> bool {
            name == "Oops"
        }

        fn may_read_stack_with(&self, name: &str, args: &[Arg]) -> bool {
            name == "Oops" && args != [Arg::String]
        }
    }

    #[test]
    fn a_call_is_asked_with_its_arguments_types() {
        let with = |stmt: &str| exposed_with(stmt, &Overloads);
        assert!(!with("y = new Oops(\"x\").hashCode();"));
        assert!(!with("y = new Oops(s).hashCode();"), "a `String` local");
        assert!(with("y = new Oops(mark).hashCode();"));
        assert!(with("y = new Oops(null).hashCode();"));
        assert!(!with("y = Oops(\"a\" + y);"), "a method, a concatenation");
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
