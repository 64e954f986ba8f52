//! Mutation operators on the text of one statement: relational, arithmetic and logical operator
//! replacement, constant perturbation, condition negation, swapping a variable for another of the
//! same type, statement deletion, inserted jumps, changed completion and a local of the patch's
//! own; then the choice
//! of up to M distinct patches, round-robin over the operators (the dedup-hazard operators are in
//! `hazard.rs`).

use super::rng::Rng;
use super::spot::{is_numeric, Mutant, Spot};
use std::collections::{BTreeMap, BTreeSet};
use tree_sitter::Node;

const RELATIONAL: &[&str] = &["<", "<=", ">", ">=", "==", "!="];
const ARITHMETIC: &[&str] = &["+", "-", "*", "/", "%"];
const SHIFTS: &[&str] = &["<<", ">>", ">>>"];
const LOGICAL: &[&str] = &["&&", "||"];
const BITWISE: &[&str] = &["&", "|", "^"];
const COMPOUND: &[&str] = &["+=", "-=", "*=", "="];

fn binary_variants(s: &Spot, ops: &[&[&str]], name: &'static str, out: &mut Vec<Mutant>) {
    for n in s.nodes() {
        let Some(op) = (match n.kind() {
            "binary_expression" => n.child_by_field_name("operator"),
            "assignment_expression" if ops.contains(&COMPOUND) => n.child_by_field_name("operator"),
            _ => None,
        }) else {
            continue;
        };
        let t = s.text(op);
        for group in ops {
            if group.contains(&t) {
                for other in group.iter().filter(|o| **o != t) {
                    out.push(Mutant {
                        text: s.replace(op.byte_range(), other),
                        op: name,
                    });
                }
            }
        }
    }
}

fn relational(s: &Spot, out: &mut Vec<Mutant>) {
    binary_variants(s, &[RELATIONAL], "relational", out);
}

fn arithmetic(s: &Spot, out: &mut Vec<Mutant>) {
    binary_variants(s, &[ARITHMETIC, SHIFTS, COMPOUND], "arithmetic", out);
    for n in s.nodes() {
        if n.kind() != "update_expression" {
            continue;
        }
        let mut c = n.walk();
        let ops: Vec<Node> = n
            .children(&mut c)
            .filter(|k| matches!(k.kind(), "++" | "--"))
            .collect();
        for op in ops {
            let other = if s.text(op) == "++" { "--" } else { "++" };
            out.push(Mutant {
                text: s.replace(op.byte_range(), other),
                op: "arithmetic",
            });
        }
    }
}

fn logical(s: &Spot, out: &mut Vec<Mutant>) {
    binary_variants(s, &[LOGICAL, BITWISE], "logical", out);
    for n in s.nodes() {
        if n.kind() == "unary_expression"
            && n.child_by_field_name("operator")
                .is_some_and(|o| s.text(o) == "!")
        {
            if let Some(operand) = n.child_by_field_name("operand") {
                out.push(Mutant {
                    text: s.replace(n.byte_range(), &format!("({})", s.text(operand))),
                    op: "logical",
                });
            }
        }
    }
}

fn integer_value(t: &str) -> Option<(i64, &'static str)> {
    let (digits, suffix) = match t.strip_suffix(['l', 'L']) {
        Some(d) => (d, "L"),
        None => (t, ""),
    };
    let v = digits.replace('_', "").parse::<i64>().ok()?;
    Some((v, suffix))
}

fn constants(s: &Spot, out: &mut Vec<Mutant>) {
    let mut push = |text: String| {
        out.push(Mutant {
            text,
            op: "constant",
        })
    };
    for n in s.nodes() {
        let t = s.text(n);
        let r = n.byte_range();
        match n.kind() {
            "decimal_integer_literal" => {
                let Some((v, suffix)) = integer_value(t) else {
                    continue;
                };
                for w in [v + 1, v - 1, 0] {
                    if w != v {
                        let lit = if w < 0 {
                            format!("({w}{suffix})")
                        } else {
                            format!("{w}{suffix}")
                        };
                        push(s.replace(r.clone(), &lit));
                    }
                }
            }
            "decimal_floating_point_literal" => {
                push(s.replace(r.clone(), &format!("({t} + 1)")));
                push(s.replace(r.clone(), &format!("({t} - 1)")));
                push(s.replace(r.clone(), "0.0"));
            }
            "true" => push(s.replace(r.clone(), "false")),
            "false" => push(s.replace(r.clone(), "true")),
            "string_literal" => {
                if t != "\"\"" {
                    push(s.replace(r.clone(), "\"\""));
                }
                push(s.replace(r.clone(), "\"fuzz\""));
            }
            "character_literal" => push(s.replace(r.clone(), "'x'")),
            _ => {}
        }
        // A numeric variable read, off by one.
        if s.var_ref(n).is_some_and(is_numeric) && s.is_read(n) {
            push(s.replace(r.clone(), &format!("({t} + 1)")));
            push(s.replace(r.clone(), &format!("({t} - 1)")));
        }
    }
}

fn negate(s: &Spot, out: &mut Vec<Mutant>) {
    for n in s.nodes() {
        let cond = match n.kind() {
            "if_statement" | "while_statement" | "do_statement" | "for_statement"
            | "ternary_expression" => n.child_by_field_name("condition"),
            _ => None,
        };
        let target = match cond {
            Some(c) if c.kind() == "parenthesized_expression" => c.named_child(0),
            other => other,
        };
        if let Some(c) = target {
            out.push(Mutant {
                text: s.replace(c.byte_range(), &format!("!({})", s.text(c))),
                op: "negate",
            });
        }
        if n.kind() == "binary_expression"
            && n.child_by_field_name("operator")
                .is_some_and(|o| RELATIONAL.contains(&s.text(o)) || LOGICAL.contains(&s.text(o)))
        {
            out.push(Mutant {
                text: s.replace(n.byte_range(), &format!("!({})", s.text(n))),
                op: "negate",
            });
        }
    }
}

fn swap(s: &Spot, out: &mut Vec<Mutant>) {
    let readable = s.readable();
    for n in s.nodes() {
        let Some(ty) = s.var_ref(n) else { continue };
        let name = s.text(n);
        for (expr, t) in &readable {
            if t == ty && expr != name && !expr.ends_with(&format!(".{name}")) {
                out.push(Mutant {
                    text: s.replace(n.byte_range(), expr),
                    op: "swap",
                });
            }
        }
    }
}

fn delete(out: &mut Vec<Mutant>) {
    out.push(Mutant {
        text: String::new(),
        op: "delete",
    });
}

fn jumps(s: &Spot, out: &mut Vec<Mutant>) {
    let mut jumps: Vec<String> = Vec::new();
    if s.in_loop {
        jumps.push("continue;".into());
    }
    if s.breakable {
        jumps.push("break;".into());
    }
    if !s.in_lambda {
        if s.return_type == "void" {
            jumps.push("return;".into());
        } else {
            jumps.extend(
                s.values_of(&s.return_type)
                    .into_iter()
                    .take(3)
                    .map(|v| format!("return {v};")),
            );
        }
    }
    let orig = s.orig();
    for j in &jumps {
        out.push(Mutant {
            text: j.clone(),
            op: "jump",
        });
        for g in s.guards() {
            out.push(Mutant {
                text: format!("if ({g}) {{ {j} }} {orig}"),
                op: "jump",
            });
        }
    }
}

/// Patches that change whether a statement can complete normally (JLS 14.22) without any jump
/// keyword of their own, as a repairer's dropped `break` or endless loop does: a `break` made an
/// empty statement or a `continue`, a loop's condition made `true`, and the statement wrapped in a
/// loop that runs it once. In a method, the code after the statement may become unreachable; in
/// an initialiser block, the block itself may no longer compile.
fn completion(s: &Spot, out: &mut Vec<Mutant>) {
    let mut push = |text: String| {
        out.push(Mutant {
            text,
            op: "completion",
        })
    };
    // Whether a `continue` at `n` has a loop to go to.
    let in_loop = |n: Node| {
        let mut cur = n.parent();
        while let Some(p) = cur {
            if LOOP_KINDS.contains(&p.kind()) {
                return true;
            }
            if p.kind() == "lambda_expression" {
                return false;
            }
            if p.id() == s.stmt.id() {
                return s.in_loop;
            }
            cur = p.parent();
        }
        s.in_loop
    };
    for n in s.nodes() {
        match n.kind() {
            "break_statement" if n.named_child(0).is_none() => {
                push(s.replace(n.byte_range(), ";"));
                if in_loop(n) {
                    push(s.replace(n.byte_range(), "continue;"));
                }
            }
            "while_statement" | "do_statement" | "for_statement" => {
                let cond = n.child_by_field_name("condition");
                let inner = match cond {
                    Some(c) if c.kind() == "parenthesized_expression" => c.named_child(0),
                    other => other,
                };
                if let Some(c) = inner.filter(|c| s.text(*c) != "true") {
                    push(s.replace(c.byte_range(), "true"));
                }
            }
            _ => {}
        }
    }
    if s.stmt.kind() != "local_variable_declaration" && s.stmt.kind() != "field_declaration" {
        let orig = s.orig();
        push(format!("do {{ {orig} }} while (false);"));
        push(format!("while (true) {{ {orig} break; }}"));
    }
}

const LOOP_KINDS: &[&str] = &[
    "for_statement",
    "enhanced_for_statement",
    "while_statement",
    "do_statement",
];

/// A local of the patch's own before the statement, as repairers add helpers (`int pvLocal = n;
/// …`): kept unused, and read by a guard around the statement (`if (pvLocal > 0) { … }`). The
/// weaver keeps such a patch in the schemata when nothing after the location names the local.
fn declare(s: &Spot, out: &mut Vec<Mutant>) {
    let orig = s.orig();
    for (expr, ty) in s.readable().into_iter().take(4) {
        let guard = match ty.as_str() {
            "int" | "long" | "short" | "byte" => "pvLocal > 0",
            "boolean" => "pvLocal",
            "String" => "!pvLocal.isEmpty()",
            _ => continue,
        };
        out.push(Mutant {
            text: format!("{ty} pvLocal = {expr}; {orig}"),
            op: "declare",
        });
        out.push(Mutant {
            text: format!("{ty} pvLocal = {expr}; if ({guard}) {{ {orig} }}"),
            op: "declare",
        });
    }
}

/// Every mutant of the classic operators, in a deterministic order.
pub fn classic(s: &Spot) -> Vec<Mutant> {
    let mut out = Vec::new();
    relational(s, &mut out);
    arithmetic(s, &mut out);
    logical(s, &mut out);
    constants(s, &mut out);
    negate(s, &mut out);
    swap(s, &mut out);
    delete(&mut out);
    jumps(s, &mut out);
    completion(s, &mut out);
    declare(s, &mut out);
    out
}

/// Up to `max` distinct patches (none equal to the original statement), chosen round-robin over
/// the operators in a seeded order so that every operator that applies is represented; one
/// location in three with a numeric call argument starts with that argument's whole hole family
/// (`hazard::hole_burst`), so that value holes form.
/// Patches for the location from `first`'s start to `second`'s end of `text`, made of mutants of
/// either statement (`a` of the first, `b` of the second): each patch changes the first, the
/// second or both, the text between them as it is; as many as the longer list, each text once.
pub fn pair(
    text: &str,
    first: &std::ops::Range<usize>,
    a: &[Mutant],
    second: &std::ops::Range<usize>,
    b: &[Mutant],
    rng: &mut Rng,
) -> Vec<Mutant> {
    let between = &text[first.end..second.start];
    let (orig_a, orig_b) = (&text[first.clone()], &text[second.clone()]);
    let mut seen = BTreeSet::new();
    seen.insert(format!("{orig_a}{between}{orig_b}"));
    let mut out = Vec::new();
    for i in 0..a.len().max(b.len()) {
        let (ma, mb) = (a.get(i), b.get(i));
        let (x, y, op) = match (ma, mb, rng.below(3)) {
            (Some(ma), Some(mb), 0) => (ma.text.as_str(), mb.text.as_str(), "pair"),
            (Some(ma), _, 1) | (Some(ma), None, _) => (ma.text.as_str(), orig_b, ma.op),
            (_, Some(mb), _) => (orig_a, mb.text.as_str(), mb.op),
            (None, None, _) => continue,
        };
        let patch = format!("{x}{between}{y}");
        if seen.insert(patch.clone()) {
            out.push(Mutant { text: patch, op });
        }
    }
    out
}

pub fn generate(s: &Spot, rng: &mut Rng, max: usize) -> Vec<Mutant> {
    let orig = s.orig();
    let mut all = classic(s);
    all.extend(super::hazard::hazards(s));
    all.extend(super::stackread::stack_reads(s));
    let mut seen: BTreeSet<String> = BTreeSet::new();
    seen.insert(orig.to_string());
    let mut out = Vec::new();
    if rng.below(3) == 0 {
        for m in super::hazard::hole_burst(s, |n| rng.below(n)) {
            if out.len() < max && seen.insert(m.text.clone()) {
                out.push(m);
            }
        }
    }
    let mut by_op: BTreeMap<&'static str, Vec<Mutant>> = BTreeMap::new();
    for m in all {
        if seen.insert(m.text.clone()) {
            by_op.entry(m.op).or_default().push(m);
        }
    }
    let mut queues: Vec<Vec<Mutant>> = by_op.into_values().collect();
    for q in &mut queues {
        rng.shuffle(q);
    }
    rng.shuffle(&mut queues);
    while out.len() < max && queues.iter().any(|q| !q.is_empty()) {
        for q in &mut queues {
            if out.len() >= max {
                break;
            }
            if let Some(m) = q.pop() {
                out.push(m);
            }
        }
    }
    out
}
