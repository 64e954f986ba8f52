//! TBar's fix-pattern families on one statement (a `fuzz::spot::Spot`): the families the fuzzer's
//! operators already make (operators, literals, negated conditions, variables, removal, inserted
//! jumps), renamed, and those a repair tool adds: null-pointer, range and cast checks, condition
//! expansion and removal, method-invocation replacement, return mutation, numeric cast types.

use super::classes::{Classes, UNKNOWN};
use super::types::Typer;
use crate::fuzz::mutate;
use crate::fuzz::spot::{is_numeric, Member, Spot};
use std::collections::{BTreeSet, HashMap};
use tree_sitter::Node;

/// A candidate patch: the statement's new text and the family that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub text: String,
    pub family: &'static str,
}

/// The families, in the order candidates are written (the fixes TBar finds most often first).
pub const FAMILIES: &[&str] = &[
    "null-check",
    "condition",
    "operator",
    "literal",
    "variable",
    "invocation",
    "return",
    "range-check",
    "cast-check",
    "data-type",
    "insert",
    "remove",
];

const PRIMITIVES: &[&str] = &[
    "int", "long", "short", "byte", "char", "float", "double", "boolean",
];

/// Every candidate at the statement, grouped by family in [`FAMILIES`]' order, without duplicates
/// and without the statement itself.
pub fn candidates(s: &Spot, t: &Typer) -> Vec<Candidate> {
    let mut out = Vec::new();
    for m in mutate::classic(s) {
        let family = match m.op {
            "relational" | "arithmetic" | "logical" => "operator",
            "constant" => "literal",
            "negate" => "condition",
            "swap" => "variable",
            "delete" => "remove",
            "jump" => "insert",
            _ => continue,
        };
        out.push(Candidate {
            text: m.text,
            family,
        });
    }
    null_checks(s, &mut out);
    conditions(s, &mut out);
    invocations(s, t, &mut out);
    returns(s, &mut out);
    range_checks(s, &mut out);
    cast_checks(s, &mut out);
    data_types(s, &mut out);
    throws(s, &mut out);
    let mut seen: BTreeSet<String> = BTreeSet::from([s.orig().to_string()]);
    let mut ordered = Vec::with_capacity(out.len());
    for family in FAMILIES {
        for c in out.iter().filter(|c| c.family == *family) {
            if seen.insert(c.text.clone()) {
                ordered.push(c.clone());
            }
        }
    }
    ordered
}

/// The statement run only when `cond` holds. A statement whose successor needs it (a
/// declaration, a `return` or `throw`) is kept and preceded by an early exit instead.
fn guarded(s: &Spot, cond: &str) -> Option<String> {
    let orig = s.orig();
    if wraps(s) {
        Some(format!("if ({cond}) {{ {orig} }}"))
    } else {
        let exit = early_exit(s)?;
        Some(format!("if (!({cond})) {{ {exit} }} {orig}"))
    }
}

/// The statement may be wrapped in an `if` (nothing after it needs it to have run).
fn wraps(s: &Spot) -> bool {
    !matches!(
        s.stmt.kind(),
        "local_variable_declaration" | "return_statement" | "throw_statement" | "field_declaration"
    )
}

/// `return` with the return type's default value (`None` inside a lambda or an initialiser).
fn early_exit(s: &Spot) -> Option<String> {
    if s.in_lambda || s.stmt.kind() == "field_declaration" {
        return None;
    }
    let ty = s.return_type.as_str();
    Some(match ty {
        "void" => "return;".into(),
        "boolean" => "return false;".into(),
        t if is_numeric(t) => "return 0;".into(),
        _ => "return null;".into(),
    })
}

/// FP2: a receiver of a call or field access that may be null: the statement guarded by
/// `x != null`, or preceded by an exit when it is null.
fn null_checks(s: &Spot, out: &mut Vec<Candidate>) {
    for r in receivers(s) {
        if wraps(s) {
            out.push(Candidate {
                text: format!("if ({r} != null) {{ {} }}", s.orig()),
                family: "null-check",
            });
        }
        if let Some(exit) = early_exit(s) {
            out.push(Candidate {
                text: format!("if ({r} == null) {{ {exit} }} {}", s.orig()),
                family: "null-check",
            });
        }
    }
}

/// Receivers of calls, field and array accesses in the statement that are visible variables of
/// a reference type (what may be null).
fn receivers(s: &Spot) -> BTreeSet<String> {
    let mut receivers = BTreeSet::new();
    for n in s.nodes() {
        let object = match n.kind() {
            "method_invocation" | "field_access" => n.child_by_field_name("object"),
            "array_access" => n.child_by_field_name("array"),
            _ => None,
        };
        let Some(o) = object else { continue };
        if s.var_ref(o).is_some_and(|t| !PRIMITIVES.contains(&t)) {
            receivers.insert(s.text(o).to_string());
        }
    }
    receivers
}

/// Statement insertion, `throw`: an unchecked exception thrown before the statement when a
/// receiver is null or one of the location's guards holds (TBar's inserted throws; unchecked so
/// that no `throws` clause is needed).
fn throws(s: &Spot, out: &mut Vec<Candidate>) {
    if matches!(
        s.stmt.kind(),
        "field_declaration" | "explicit_constructor_invocation"
    ) {
        return;
    }
    let mut conds: Vec<(String, &str)> = receivers(s)
        .into_iter()
        .map(|r| (format!("{r} == null"), "NullPointerException"))
        .collect();
    for g in s.guards() {
        conds.push((g.clone(), "IllegalArgumentException"));
        conds.push((g, "IllegalStateException"));
    }
    for (cond, ex) in conds.into_iter().take(6) {
        out.push(Candidate {
            text: format!("if ({cond}) {{ throw new {ex}(); }} {}", s.orig()),
            family: "insert",
        });
    }
}

/// FP6: a condition's clauses removed (`a && b` → `a`, `b`) and the condition expanded with the
/// location's boolean guards (`c && g`, `c || g`).
fn conditions(s: &Spot, out: &mut Vec<Candidate>) {
    let guards: Vec<String> = s.guards().into_iter().filter(|g| g != "true").collect();
    for n in s.nodes() {
        if n.kind() == "binary_expression"
            && n.child_by_field_name("operator")
                .is_some_and(|o| matches!(s.text(o), "&&" | "||"))
        {
            for side in ["left", "right"] {
                if let Some(c) = n.child_by_field_name(side) {
                    out.push(Candidate {
                        text: s.replace(n.byte_range(), &format!("({})", s.text(c))),
                        family: "condition",
                    });
                }
            }
        }
        let cond = match n.kind() {
            "if_statement" | "while_statement" | "ternary_expression" | "for_statement" => {
                n.child_by_field_name("condition")
            }
            _ => None,
        };
        let Some(c) = cond.map(unparenthesised) else {
            continue;
        };
        for g in guards.iter().take(3) {
            for op in ["&&", "||"] {
                out.push(Candidate {
                    text: s.replace(c.byte_range(), &format!("({}) {op} ({g})", s.text(c))),
                    family: "condition",
                });
            }
        }
    }
}

fn unparenthesised(n: Node) -> Node {
    if n.kind() == "parenthesized_expression" {
        n.named_child(0).unwrap_or(n)
    } else {
        n
    }
}

/// Methods of `Object` no repair calls instead of another.
const OBJECT_ONLY: &[&str] = &[
    "getClass",
    "notify",
    "notifyAll",
    "wait",
    "finalize",
    "clone",
];

/// FP10: a called method replaced by another of the receiver's class (the enclosing class for
/// an unqualified call), inherited ones included, as the compiled classes list them: same
/// parameter types, same return type, visible here, static when called through a type name,
/// throwing no checked exception the call's context does not handle. Without compiled classes,
/// the enclosing class's methods as the source declares them.
fn invocations(s: &Spot, t: &Typer, out: &mut Vec<Candidate>) {
    let none = HashMap::new();
    for n in s.nodes() {
        if n.kind() != "method_invocation" {
            continue;
        }
        let Some(name) = n.child_by_field_name("name") else {
            continue;
        };
        let called = s.text(name);
        let compiled = t
            .callee(s, s.src, &none, n)
            .zip(t.call_owner(s, s.src, &none, n));
        let Some((m, (owner, via_type))) = compiled else {
            source_invocations(s, n, out);
            continue;
        };
        let own = t.this_class() == Some(owner.as_str());
        let here = t.this_class().map(Classes::package);
        let unqualified_in_static = n.child_by_field_name("object").is_none() && s.is_static;
        let alternatives = t.classes().methods(&owner).into_iter().filter(|o| {
            o.name != called
                && o.params == m.params
                && o.ret == m.ret
                && o.ret != UNKNOWN
                && !o.params.iter().any(|p| p == UNKNOWN)
                && (!o.is_private || own)
                && (!o.is_package || here == Some(Classes::package(&owner)))
                && (o.is_static || !(via_type || unqualified_in_static))
                && !OBJECT_ONLY.contains(&o.name.as_str())
                && t.classes().throws_within(o, &m)
        });
        for o in alternatives.take(6) {
            out.push(Candidate {
                text: s.replace(name.byte_range(), &o.name),
                family: "invocation",
            });
        }
    }
}

/// FP10 from the source alone: a call of a method of the enclosing class replaced by another of
/// its methods with the same return type and parameter types.
fn source_invocations(s: &Spot, n: Node, out: &mut Vec<Candidate>) {
    let own = match n.child_by_field_name("object") {
        None => true,
        Some(o) => o.kind() == "this" || s.text(o) == s.class_name,
    };
    let Some(name) = n.child_by_field_name("name") else {
        return;
    };
    let arity = n
        .child_by_field_name("arguments")
        .map_or(0, |a| a.named_child_count());
    if !own {
        return;
    }
    let called = s.text(name);
    let Some(sig) = s
        .methods
        .iter()
        .find(|m| m.name == called && m.params.len() == arity)
    else {
        return;
    };
    for other in &s.methods {
        if other.name != called
            && other.ret == sig.ret
            && other.params == sig.params
            && (other.is_static || !s.is_static)
        {
            out.push(Candidate {
                text: s.replace(name.byte_range(), &other.name),
                family: "invocation",
            });
        }
    }
}

/// The spot's fields with those its class inherits from compiled superclasses (visible here,
/// named by a type the file resolves to the same class), so that variable replacement can use
/// them.
pub fn inherit(s: &mut Spot, t: &Typer) {
    let Some(this) = t.this_class() else { return };
    let here = Classes::package(this).to_string();
    for c in t.classes().lineage(this).iter().skip(1) {
        if c.name.starts_with("java.") {
            continue;
        }
        for f in &c.fields {
            if f.is_private
                || f.is_package && Classes::package(&c.name) != here
                || f.ty == UNKNOWN
                || s.fields.iter().any(|g| g.name == f.name)
            {
                continue;
            }
            let Some(ty) = source_name(t, &f.ty) else {
                continue;
            };
            s.fields.push(Member {
                name: f.name.clone(),
                ty,
                is_static: f.is_static,
                is_final: f.is_final,
            });
        }
    }
}

/// A type's name as this file may write it: primitives as they are, a class by its simple name
/// when that resolves to it here.
fn source_name(t: &Typer, ty: &str) -> Option<String> {
    let base = ty.trim_end_matches("[]");
    let dims = &ty[base.len()..];
    let simple = base.rsplit(['.', '$']).next()?;
    if base == simple || t.resolve(simple).as_deref() == Some(base) {
        Some(format!("{simple}{dims}"))
    } else {
        None
    }
}

/// FP12: a returned value replaced by another value of the return type.
fn returns(s: &Spot, out: &mut Vec<Candidate>) {
    if s.stmt.kind() != "return_statement" || s.in_lambda {
        return;
    }
    let Some(value) = s.stmt.named_child(0) else {
        return;
    };
    let text = s.text(value);
    for v in s
        .values_of(&s.return_type)
        .into_iter()
        .filter(|v| v != text)
        .take(4)
    {
        out.push(Candidate {
            text: s.replace(value.byte_range(), &v),
            family: "return",
        });
    }
}

/// FP3: an array access guarded by its index's range.
fn range_checks(s: &Spot, out: &mut Vec<Candidate>) {
    let mut seen = BTreeSet::new();
    for n in s.nodes() {
        if n.kind() != "array_access" {
            continue;
        }
        let (Some(a), Some(i)) = (
            n.child_by_field_name("array"),
            n.child_by_field_name("index"),
        ) else {
            continue;
        };
        // Both must be visible where the check goes (not a loop's own index inside its body).
        let visible = |n: Node| s.var_ref(n).is_some() || n.kind() == "decimal_integer_literal";
        if !visible(a) || !visible(i) || !seen.insert((s.text(a), s.text(i))) {
            continue;
        }
        let (a, i) = (s.text(a), s.text(i));
        for cond in [
            format!("{i} >= 0 && {i} < {a}.length"),
            format!("{i} < {a}.length"),
        ] {
            if let Some(text) = guarded(s, &cond) {
                out.push(Candidate {
                    text,
                    family: "range-check",
                });
            }
        }
    }
}

/// FP1: a cast to a reference type guarded by `instanceof`.
fn cast_checks(s: &Spot, out: &mut Vec<Candidate>) {
    for n in s.nodes() {
        if n.kind() != "cast_expression" {
            continue;
        }
        let (Some(ty), Some(value)) = (
            n.child_by_field_name("type"),
            n.child_by_field_name("value"),
        ) else {
            continue;
        };
        let ty = s.text(ty);
        if PRIMITIVES.contains(&ty) || ty.contains('<') {
            continue;
        }
        if let Some(text) = guarded(s, &format!("{} instanceof {ty}", s.text(value))) {
            out.push(Candidate {
                text,
                family: "cast-check",
            });
        }
    }
}

/// FP7: a numeric cast to the wider or narrower type of its kind.
fn data_types(s: &Spot, out: &mut Vec<Candidate>) {
    for n in s.nodes() {
        if n.kind() != "cast_expression" {
            continue;
        }
        let Some(ty) = n.child_by_field_name("type") else {
            continue;
        };
        let others: &[&str] = match s.text(ty) {
            "int" => &["long", "double"],
            "long" => &["int", "double"],
            "float" => &["double"],
            "double" => &["float", "long", "int"],
            _ => &[],
        };
        for o in others {
            out.push(Candidate {
                text: s.replace(ty.byte_range(), o),
                family: "data-type",
            });
        }
    }
}
