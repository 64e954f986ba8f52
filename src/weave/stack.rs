//! Patches that can see the call stack stay out of the schemata: a patch runs inside its
//! isolation unit, a generated method, so a stack read during the patch, or a throwable made by
//! it that outlives it without being thrown out of the unit (whose frames `Rt.framed` rewrites),
//! shows a frame plain validation never has. Such a patch is validated on its own, unwoven.

use super::names::{call_receiver, kind_of, Kind, Names};
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

    /// Whether a call on a receiver of this declared type, with arguments of these types, runs
    /// JDK code alone, whatever class-path methods share its name. By default none is known to.
    fn runs_jdk_alone(&self, _receiver: &str, _name: &str, _args: &[Arg]) -> bool {
        false
    }

    /// Whether a call may hand an object (an argument of a type the statement does not show)
    /// to JDK code that may call it back through a method that may read the stack
    /// (`on_object`: the call names its receiver; `receiver`: its declared type and whether the
    /// call is static). By default it may not.
    fn may_call_back_handed(
        &self,
        _on_object: bool,
        _receiver: Option<(&str, bool)>,
        _name: &str,
        _args: &[Arg],
    ) -> bool {
        false
    }

    /// Whether an object of this declared (simple) type, handed to JDK code, gives it nothing
    /// to call back that may read the stack. By default none is known to.
    fn hands_nothing(&self, _ty: &str) -> bool {
        false
    }

    /// The same for an object `new` made of exactly this class (no subclass can be it). By
    /// default none is known to.
    fn made_hands_nothing(&self, _ty: &str) -> bool {
        false
    }

    /// Whether a call of this name and arity on a receiver of this declared type returns a
    /// primitive. By default none is known to.
    fn returns_primitive(&self, _receiver: &str, _name: &str, _arity: usize) -> bool {
        false
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

    fn runs_jdk_alone(&self, receiver: &str, name: &str, args: &[Arg]) -> bool {
        crate::bytecode::purity::Purity::runs_jdk_alone(self, receiver, name, args)
    }

    fn returns_primitive(&self, receiver: &str, name: &str, arity: usize) -> bool {
        self.call_returns_primitive(receiver, name, arity)
    }

    fn hands_nothing(&self, ty: &str) -> bool {
        crate::bytecode::purity::Purity::hands_nothing(self, ty)
    }

    fn made_hands_nothing(&self, ty: &str) -> bool {
        crate::bytecode::purity::Purity::made_hands_nothing(self, ty)
    }

    fn may_call_back_handed(
        &self,
        on_object: bool,
        receiver: Option<(&str, bool)>,
        name: &str,
        args: &[Arg],
    ) -> bool {
        crate::bytecode::purity::Purity::may_call_back_handed(self, on_object, receiver, name, args)
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
    class_name: Option<&str>,
    oracle: &dyn StackOracle,
) -> Option<String> {
    let super::Wrapped {
        text: wrapped,
        tree,
    } = super::Wrapped::parse(&mut super::parser(), stmt)?;
    let src = wrapped.as_str();
    let returns = |ty: &str, name: &str, arity: usize| oracle.returns_primitive(ty, name, arity);
    let mut names = Names {
        site,
        fields,
        declared: Vec::new(),
        class_name,
        returns_primitive: Some(&returns),
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

/// [`args`] as the hand-over rule reads them: a lambda or method reference the statement writes
/// is checked where it is written (its body is the patch's text, a method reference's name is
/// asked), so handing it over hands nothing else; nor does an object of a declared type whose
/// callbacks read no stack ([`StackOracle::hands_nothing`]).
fn handed_args(src: &str, n: Node, names: &Names, oracle: &dyn StackOracle) -> Option<Vec<Arg>> {
    let list = n.child_by_field_name("arguments")?;
    let mut c = list.walk();
    let nothing: Vec<bool> = list
        .named_children(&mut c)
        .map(|a| {
            matches!(a.kind(), "lambda_expression" | "method_reference")
                || made_by_new(src, a).is_some_and(|ty| oracle.made_hands_nothing(ty))
                || matches!(kind_of(src, a, names), Kind::Ref(ty) if oracle.hands_nothing(&ty))
        })
        .collect();
    let mut out = args(src, n, names)?;
    for (a, w) in out.iter_mut().zip(nothing) {
        if w {
            *a = Arg::Value;
        }
    }
    Some(out)
}

/// The simple name of the class a `new` expression makes an object of exactly, when it does:
/// not an anonymous class (a class body), not a qualified or generic type (`new Box<>(..)`).
fn made_by_new<'s>(src: &'s str, n: Node) -> Option<&'s str> {
    if n.kind() != "object_creation_expression" {
        return None;
    }
    let mut c = n.walk();
    if n.named_children(&mut c).any(|k| k.kind() == "class_body") {
        return None;
    }
    let ty = n.child_by_field_name("type")?;
    (ty.kind() == "type_identifier").then(|| text(src, ty))
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

fn exposure_at(src: &str, n: Node, names: &Names, oracle: &dyn StackOracle) -> Option<String> {
    match n.kind() {
        "method_invocation" => {
            let name = text(src, n.child_by_field_name("name")?);
            let arity = arity(n);
            let typed = call_receiver(src, n, names);
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
                        let args = args(src, n, names);
                        let alone = !is_static
                            && args
                                .as_deref()
                                .is_some_and(|args| oracle.runs_jdk_alone(ty, name, args));
                        !alone
                            && oracle.may_read_stack_on(ty, is_static, name, a)
                            && with_args(args)
                    }
                    _ => with_args(args(src, n, names)),
                };
            if reads {
                return Some(format!(
                    "it calls `{name}`, which may read the call stack or keep a stack trace"
                ));
            }
            let handed = handed_args(src, n, names, oracle)
                .is_some_and(|a| oracle.may_call_back_handed(on_object, typed, name, &a));
            if handed {
                return Some(handed_reason(name));
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
            let handed = handed_args(src, n, names, oracle)
                .is_some_and(|a| oracle.may_call_back_handed(true, Some((ty, true)), ty, &a));
            if handed {
                return Some(handed_reason(ty));
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

fn handed_reason(name: &str) -> String {
    format!("it hands an object to `{name}`, JDK code that may call it back, and its methods may read the call stack")
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
#[path = "stack_tests.rs"]
mod tests;
