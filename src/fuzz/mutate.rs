//! Mutation operators on the text of one statement: relational, arithmetic and logical operator
//! replacement, constant perturbation, condition negation, swapping a variable for another of the
//! same type, statement deletion and inserted jumps; then the choice of up to M distinct patches,
//! round-robin over the operators (the dedup-hazard operators are in `hazard.rs`).

use super::locate::ExceptionClass;
use super::rng::Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use tree_sitter::Node;

/// A local variable that a patch may read (definitely assigned, passable).
#[derive(Debug, Clone)]
pub struct Var {
    pub name: String,
    pub ty: String,
}

/// A field of the enclosing class.
#[derive(Debug, Clone)]
pub struct Member {
    pub name: String,
    pub ty: String,
    pub is_static: bool,
    pub is_final: bool,
}

/// A method of the enclosing class (generic methods are left out).
#[derive(Debug, Clone)]
pub struct MethodSig {
    pub name: String,
    pub ret: String,
    pub params: Vec<String>,
    pub is_static: bool,
}

/// One location and what the operators may use there.
pub struct Spot<'t> {
    pub src: &'t str,
    /// The statement replaced by every patch.
    pub stmt: Node<'t>,
    pub locals: Vec<Var>,
    /// Names of every visible local, usable or not (they shadow fields).
    pub all_locals: BTreeSet<String>,
    pub fields: Vec<Member>,
    pub methods: Vec<MethodSig>,
    pub class_name: String,
    /// The enclosing method is static.
    pub is_static: bool,
    /// `void` for constructors.
    pub return_type: String,
    pub in_loop: bool,
    pub breakable: bool,
    pub in_lambda: bool,
    pub exceptions: &'t [ExceptionClass],
}

/// A generated patch and the operator that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutant {
    pub text: String,
    pub op: &'static str,
}

const RELATIONAL: &[&str] = &["<", "<=", ">", ">=", "==", "!="];
const ARITHMETIC: &[&str] = &["+", "-", "*", "/", "%"];
const SHIFTS: &[&str] = &["<<", ">>", ">>>"];
const LOGICAL: &[&str] = &["&&", "||"];
const BITWISE: &[&str] = &["&", "|", "^"];
const COMPOUND: &[&str] = &["+=", "-=", "*=", "="];
const INTEGRAL: &[&str] = &["int", "long", "short", "byte", "char"];
const NUMERIC: &[&str] = &["int", "long", "short", "byte", "char", "float", "double"];

impl<'t> Spot<'t> {
    pub fn text(&self, n: Node) -> &'t str {
        &self.src[n.byte_range()]
    }

    /// The unpatched statement.
    pub fn orig(&self) -> &'t str {
        self.text(self.stmt)
    }

    /// The statement with the absolute byte range `r` replaced.
    pub fn replace(&self, r: Range<usize>, with: &str) -> String {
        let base = self.stmt.start_byte();
        let o = self.orig();
        format!("{}{with}{}", &o[..r.start - base], &o[r.end - base..])
    }

    /// Every node of the statement, in source order.
    pub fn nodes(&self) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        let mut stack = vec![self.stmt];
        while let Some(n) = stack.pop() {
            out.push(n);
            let mut c = n.walk();
            let kids: Vec<Node> = n.children(&mut c).collect();
            stack.extend(kids.into_iter().rev());
        }
        out
    }

    /// The declared type of a simple name used at the location: a visible local, else a field
    /// (unless an unusable local shadows it).
    pub fn type_of(&self, name: &str) -> Option<&str> {
        if let Some(l) = self.locals.iter().find(|l| l.name == name) {
            return Some(&l.ty);
        }
        if self.all_locals.contains(name) {
            return None;
        }
        self.fields
            .iter()
            .find(|f| f.name == name && (f.is_static || !self.is_static))
            .map(|f| f.ty.as_str())
    }

    /// How the code at the location names a field explicitly: `Class.f` or `this.f`.
    pub fn qualified(&self, f: &Member) -> Option<String> {
        if f.is_static {
            Some(format!("{}.{}", self.class_name, f.name))
        } else if !self.is_static {
            Some(format!("this.{}", f.name))
        } else {
            None
        }
    }

    /// An identifier that names a variable (not a method, a member after `.`, a label or a
    /// declared name) and whose type is known.
    pub fn var_ref(&self, n: Node) -> Option<&str> {
        if n.kind() != "identifier" {
            return None;
        }
        let p = n.parent()?;
        let is = |field: &str| p.child_by_field_name(field).map(|c| c.id()) == Some(n.id());
        let excluded = match p.kind() {
            "method_invocation" => is("name"),
            "field_access" => is("field"),
            "variable_declarator" | "formal_parameter" | "catch_formal_parameter" => is("name"),
            "labeled_statement" | "break_statement" | "continue_statement" => true,
            "lambda_expression" | "inferred_parameters" => true,
            _ => false,
        };
        if excluded {
            return None;
        }
        self.type_of(self.text(n))
    }

    /// The identifier is read, not assigned.
    pub fn is_read(&self, n: Node) -> bool {
        let Some(p) = n.parent() else { return true };
        match p.kind() {
            "assignment_expression" => {
                p.child_by_field_name("left").map(|l| l.id()) != Some(n.id())
            }
            "update_expression" => false,
            _ => true,
        }
    }

    /// Variables readable at the location (locals, then fields not shadowed), as expressions.
    pub fn readable(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .locals
            .iter()
            .map(|l| (l.name.clone(), l.ty.clone()))
            .collect();
        for f in &self.fields {
            if !f.is_static && self.is_static {
                continue;
            }
            let expr = if self.all_locals.contains(&f.name) {
                match self.qualified(f) {
                    Some(q) => q,
                    None => continue,
                }
            } else {
                f.name.clone()
            };
            out.push((expr, f.ty.clone()));
        }
        out
    }

    /// Expressions of type `ty`: variables of that type first, then a few literals.
    pub fn values_of(&self, ty: &str) -> Vec<String> {
        let mut out: Vec<String> = self
            .readable()
            .into_iter()
            .filter(|(_, t)| t == ty)
            .map(|(e, _)| e)
            .collect();
        let lits: &[&str] = match ty {
            "int" | "long" | "short" | "byte" | "Integer" | "Long" => &["0", "1", "(-1)", "2"],
            "char" | "Character" => &["'a'", "' '"],
            "boolean" | "Boolean" => &["true", "false"],
            "double" | "float" | "Double" | "Float" => &["0.0", "1.5"],
            "String" => &["\"\"", "\"fuzz\"", "null"],
            "Throwable" | "Exception" | "RuntimeException" => &[
                "new IllegalStateException(\"cause\")",
                "new IllegalArgumentException(\"other cause\")",
                "null",
            ],
            _ => &["null"],
        };
        let lits = lits.iter().map(|l| match ty {
            "float" | "Float" => format!("{l}f"),
            "long" | "Long" if !l.starts_with('(') => format!("{l}L"),
            _ => l.to_string(),
        });
        out.extend(lits);
        out
    }

    /// Boolean guards for inserted jumps and throws, built from the visible locals.
    pub fn guards(&self) -> Vec<String> {
        let mut out = Vec::new();
        for l in &self.locals {
            match l.ty.as_str() {
                "int" | "long" | "short" | "byte" if out.len() < 3 => {
                    out.push(format!("{} > 0", l.name));
                    out.push(format!("{} == 2", l.name));
                }
                "boolean" if out.len() < 3 => out.push(l.name.clone()),
                "String" if out.len() < 3 => out.push(format!("{}.isEmpty()", l.name)),
                _ => {}
            }
        }
        out.push("true".into());
        out
    }

    /// The statement is one whose successor is reachable (so text may follow it).
    pub fn completes(&self) -> bool {
        matches!(
            self.stmt.kind(),
            "expression_statement" | "local_variable_declaration" | "assert_statement"
        )
    }
}

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
    out
}

/// Is `ty` a primitive numeric type (or `char`)?
pub fn is_numeric(ty: &str) -> bool {
    NUMERIC.contains(&ty)
}

/// Is `ty` an integral primitive type?
pub fn is_integral(ty: &str) -> bool {
    INTEGRAL.contains(&ty)
}

/// Up to `max` distinct patches (none equal to the original statement), chosen round-robin over
/// the operators in a seeded order so that every operator that applies is represented.
pub fn generate(s: &Spot, rng: &mut Rng, max: usize) -> Vec<Mutant> {
    let orig = s.orig();
    let mut all = classic(s);
    all.extend(super::hazard::hazards(s));
    let mut seen: BTreeSet<String> = BTreeSet::new();
    seen.insert(orig.to_string());
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
    let mut out = Vec::new();
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
