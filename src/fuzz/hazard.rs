//! Mutation operators aimed at known deduplication hazards (issue 8): fields written through
//! `Class.f` / `this.f` while a local of the same name is in scope, thrown exceptions whose
//! arguments and causes vary, boxed values and strings that are equal but not identical, and
//! constants or variables replaced by calls to methods of the class (which a test may override),
//! comments in the patch (blanked by the weave), and writes to locals after the statement
//! (dead or not, which dependency-based equivalence tells apart), and arguments of calls
//! rewritten to the same value, to a value of a wider type, or to a division by zero (value holes,
//! `weave::value`), and the slips a careless tool makes that javac's parser rejects.

use super::spot::{is_integral, is_numeric, Member, Mutant, Spot};

/// JDK exceptions thrown by the `throw` operator, with their constructors' parameter types.
const JDK_EXCEPTIONS: &[(&str, &[&str])] = &[
    ("IllegalStateException", &["String"]),
    ("IllegalArgumentException", &["String"]),
    ("RuntimeException", &["String", "Throwable"]),
    ("ArithmeticException", &["String"]),
    ("UnsupportedOperationException", &[]),
];

/// Boxed type → (its primitive, the unboxing method).
const BOXES: &[(&str, &str, &str)] = &[
    ("Integer", "int", "intValue"),
    ("Long", "long", "longValue"),
    ("Short", "short", "shortValue"),
    ("Byte", "byte", "byteValue"),
    ("Character", "char", "charValue"),
    ("Boolean", "boolean", "booleanValue"),
    ("Double", "double", "doubleValue"),
    ("Float", "float", "floatValue"),
];

fn boxed(ty: &str) -> Option<(&'static str, &'static str, &'static str)> {
    let ty = ty.strip_prefix("java.lang.").unwrap_or(ty);
    BOXES.iter().copied().find(|(b, _, _)| *b == ty)
}

fn is_string(ty: &str) -> bool {
    ty == "String" || ty == "java.lang.String"
}

/// Writes to fields named explicitly, above all fields shadowed by a local of the same name.
fn field_writes(s: &Spot, out: &mut Vec<Mutant>) {
    let orig = s.orig();
    let writable: Vec<(&Member, String)> = s
        .fields
        .iter()
        .filter(|f| !f.is_final)
        .filter_map(|f| s.qualified(f).map(|q| (f, q)))
        .collect();
    let mut push = |text: String| {
        out.push(Mutant {
            text,
            op: "field-write",
        })
    };
    // `x = e;` where a field `x` exists: write the field instead.
    for n in s.nodes() {
        if n.kind() != "assignment_expression" {
            continue;
        }
        let Some(left) = n.child_by_field_name("left") else {
            continue;
        };
        if left.kind() != "identifier" {
            continue;
        }
        if let Some((_, q)) = writable.iter().find(|(f, _)| f.name == s.text(left)) {
            push(s.replace(left.byte_range(), q));
        }
    }
    for (f, q) in &writable {
        let shadowed = s.all_locals.contains(&f.name);
        let local_ty = s.locals.iter().find(|l| l.name == f.name).map(|l| &l.ty);
        if shadowed && local_ty == Some(&f.ty) {
            // The hazard: `Limits.max = max;` reads the local, writes the field.
            push(format!("{q} = {}; {orig}", f.name));
            if is_numeric(&f.ty) {
                push(format!("{q} = {} - 1; {orig}", f.name));
            }
            if s.completes() {
                push(format!("{orig} {q} = {};", f.name));
            }
        }
        for l in s.locals.iter().filter(|l| l.ty == f.ty && l.name != f.name) {
            push(format!("{q} = {}; {orig}", l.name));
        }
        if is_integral(&f.ty) && f.ty != "char" {
            push(format!("{q} += 1; {orig}"));
        }
    }
}

/// Argument lists for a constructor, varied so that equal classes get unequal arguments.
fn argument_lists(s: &Spot, params: &[String], wanted: usize) -> Vec<String> {
    let values: Vec<Vec<String>> = params
        .iter()
        .map(|p| {
            let mut v = s.values_of(p);
            if is_string(p) {
                // Messages that differ only through a variable, and constant ones.
                let ints: Vec<String> = s
                    .readable()
                    .into_iter()
                    .filter(|(_, t)| is_integral(t))
                    .map(|(e, _)| e)
                    .collect();
                for i in ints.iter().take(2) {
                    v.push(format!("\"fuzz \" + {i}"));
                    v.push(format!("\"fuzz \" + ({i} + 2)"));
                }
            }
            if is_integral(p) {
                let more: Vec<String> = v
                    .iter()
                    .filter(|e| e.chars().all(|c| c.is_alphanumeric() || c == '_'))
                    .map(|e| format!("{e} + 2"))
                    .collect();
                v.extend(more);
            }
            v
        })
        .collect();
    if values.is_empty() {
        return vec![String::new()];
    }
    let most = values.iter().map(Vec::len).max().unwrap_or(1);
    (0..wanted.min(most.max(1)))
        .map(|k| {
            values
                .iter()
                .enumerate()
                .map(|(j, v)| v[(k + j) % v.len()].clone())
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect()
}

/// `throw new E(args)` in place of the statement or guarded before it.
fn throws(s: &Spot, out: &mut Vec<Mutant>) {
    let orig = s.orig();
    let mut ctors: Vec<(String, Vec<String>)> = s
        .exceptions
        .iter()
        .flat_map(|e| e.ctors.iter().map(|c| (e.name.clone(), c.clone())))
        .collect();
    for (name, params) in JDK_EXCEPTIONS {
        ctors.push((
            name.to_string(),
            params.iter().map(|p| p.to_string()).collect(),
        ));
    }
    let guards = s.guards();
    for (name, params) in &ctors {
        for (k, args) in argument_lists(s, params, 4).into_iter().enumerate() {
            let t = format!("throw new {name}({args});");
            out.push(Mutant {
                text: t.clone(),
                op: "throw",
            });
            let g = &guards[k % guards.len()];
            out.push(Mutant {
                text: format!("if ({g}) {{ {t} }} {orig}"),
                op: "throw",
            });
        }
    }
}

/// Values equal by `equals` but not by `==`: re-boxed numbers, copied and concatenated strings.
fn identity(s: &Spot, out: &mut Vec<Mutant>) {
    let mut push = |text: String| {
        out.push(Mutant {
            text,
            op: "identity",
        })
    };
    for n in s.nodes() {
        let r = n.byte_range();
        if let Some(ty) = s.var_ref(n).map(str::to_string) {
            if !s.is_read(n) {
                continue;
            }
            let v = s.text(n);
            if let Some((b, _, unbox)) = boxed(&ty) {
                push(s.replace(r.clone(), &format!("{b}.valueOf({v}.{unbox}())")));
                push(s.replace(r.clone(), &format!("new {b}({v}.{unbox}())")));
            } else if is_string(&ty) {
                push(s.replace(r.clone(), &format!("({v} + \"\")")));
                push(s.replace(r.clone(), &format!("new String({v})")));
                push(s.replace(r.clone(), &format!("{v}.intern()")));
            } else if let Some((b, _, _)) = BOXES.iter().find(|(_, p, _)| *p == ty) {
                // A primitive read where a boxed value may be expected.
                if assigned_type(s, n).is_some_and(|t| boxed(&t).is_some()) {
                    push(s.replace(r.clone(), &format!("{b}.valueOf({v})")));
                    push(s.replace(r.clone(), &format!("new {b}({v})")));
                }
            }
        }
        match n.kind() {
            "string_literal" => push(s.replace(r.clone(), &format!("new String({})", s.text(n)))),
            "method_invocation" => {
                let obj = n.child_by_field_name("object").map(|o| s.text(o));
                let name = n.child_by_field_name("name").map(|o| s.text(o));
                let args = n.child_by_field_name("arguments");
                if obj == Some("String") && name == Some("valueOf") {
                    if let Some(a) = args.and_then(|a| a.named_child(0)) {
                        let a = s.text(a);
                        push(s.replace(r.clone(), &format!("(\"\" + {a})")));
                        push(s.replace(r.clone(), &format!("new String(String.valueOf({a}))")));
                    }
                }
            }
            _ => {}
        }
    }
}

/// The declared type of the variable a right-hand side `n` is assigned to, if it is one.
fn assigned_type(s: &Spot, n: tree_sitter::Node) -> Option<String> {
    let p = n.parent()?;
    if p.kind() != "assignment_expression"
        || p.child_by_field_name("right").map(|r| r.id()) != Some(n.id())
    {
        return None;
    }
    let left = p.child_by_field_name("left")?;
    let name = match left.kind() {
        "identifier" => s.text(left),
        "field_access" => s.text(left.child_by_field_name("field")?),
        _ => return None,
    };
    s.type_of(name).map(str::to_string).or_else(|| {
        s.fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.ty.clone())
    })
}

/// A constant or variable replaced by a call to a method of the class returning that type.
fn calls(s: &Spot, out: &mut Vec<Mutant>) {
    let callable: Vec<(String, String)> = s
        .methods
        .iter()
        .filter(|m| m.is_static || !s.is_static)
        .flat_map(|m| {
            let prefix = if m.is_static {
                format!("{}.", s.class_name)
            } else {
                String::new()
            };
            argument_lists(s, &m.params, 2)
                .into_iter()
                .map(move |args| (m.ret.clone(), format!("{prefix}{}({args})", m.name)))
        })
        .collect();
    for n in s.nodes() {
        let ty = match n.kind() {
            "decimal_integer_literal" if !s.text(n).ends_with(['l', 'L']) => {
                Some("int".to_string())
            }
            "decimal_integer_literal" => Some("long".to_string()),
            "true" | "false" => Some("boolean".to_string()),
            "string_literal" => Some("String".to_string()),
            "decimal_floating_point_literal" => Some("double".to_string()),
            _ if s.is_read(n) => s.var_ref(n).map(str::to_string),
            _ => None,
        };
        let Some(ty) = ty else { continue };
        for (ret, call) in &callable {
            if *ret == ty {
                out.push(Mutant {
                    text: s.replace(n.byte_range(), call),
                    op: "call",
                });
            }
        }
    }
}

/// Comments in the patch (which weaving blanks in place: a `//` comment must not swallow what
/// the weave writes after the statement): the statement with a trailing line comment, with a
/// block comment before it, with a line comment inside its first brace, and deleted leaving a
/// line comment.
fn comments(s: &Spot, out: &mut Vec<Mutant>) {
    let orig = s.orig();
    let mut push = |text: String| {
        out.push(Mutant {
            text,
            op: "comment",
        })
    };
    push(format!("{orig} // kept as it was"));
    push(format!("/* the same, \"quoted\" */ {orig}"));
    if let Some(brace) = orig.find('{') {
        push(format!(
            "{}\n// a note inside */ {}",
            &orig[..=brace],
            &orig[brace + 1..]
        ));
    }
    push("// removed".into());
}

/// What a careless repair tool writes and javac's parser rejects wherever it stands
/// (`weave::syntax` decides it `C` without a compile): the statement without its last `;`, and
/// an integer literal made 2147483648 (an error unless negated) beside the two that compile,
/// `(-2147483648)` and 2147483647.
fn slips(s: &Spot, out: &mut Vec<Mutant>) {
    let orig = s.orig();
    let mut push = |text: String| out.push(Mutant { text, op: "slip" });
    if let Some(bare) = orig.trim_end().strip_suffix(';') {
        push(bare.to_string());
    }
    let literal = s
        .nodes()
        .into_iter()
        .find(|n| n.kind() == "decimal_integer_literal" && !s.text(*n).ends_with(['l', 'L']));
    if let Some(n) = literal {
        for lit in ["2147483648", "(-2147483648)", "2147483647"] {
            push(s.replace(n.byte_range(), lit));
        }
    }
}

/// Writes to a local after the statement (or before it): where nothing reads the local again
/// the change is dead and the tree leaves it out of the key (`weave::scope::read_after`); where
/// something does (later code, the loop's next visit, the patch's own text there) it must not.
fn dead_writes(s: &Spot, out: &mut Vec<Mutant>) {
    // After a whole declaration the writes are woven on the split declaration
    // (`weave::split::narrow`).
    if !s.completes() {
        return;
    }
    let orig = s.orig();
    let mut push = |text: String| {
        out.push(Mutant {
            text,
            op: "dead-write",
        })
    };
    for l in s.locals.iter().filter(|l| !l.is_final).take(4) {
        let n = &l.name;
        if is_numeric(&l.ty) {
            push(format!("{orig} {n} = 0;"));
            push(format!("{orig} {n} += 1;"));
            push(format!("{n} = {n}; {orig} {n} = 1;"));
        } else if l.ty == "boolean" {
            push(format!("{orig} {n} = !{n};"));
        } else if is_string(&l.ty) {
            push(format!("{orig} {n} = \"\";"));
        } else if boxed(&l.ty).is_some() {
            push(format!("{orig} {n} = null;"));
        }
    }
}

/// The numeric arguments of calls, each the hole `weave::value` may compute ahead of the
/// statement: an identifier of a numeric type, or a binary expression with one as an operand.
fn numeric_arguments<'t>(s: &Spot<'t>) -> Vec<tree_sitter::Node<'t>> {
    let mut out = Vec::new();
    for n in s.nodes() {
        if n.kind() != "argument_list" {
            continue;
        }
        let mut c = n.walk();
        for arg in n.named_children(&mut c) {
            let numeric = arg.kind() == "identifier" && s.var_ref(arg).is_some_and(is_numeric)
                || arg.kind() == "binary_expression"
                    && [
                        arg.child_by_field_name("left"),
                        arg.child_by_field_name("right"),
                    ]
                    .into_iter()
                    .flatten()
                    .any(|k| s.var_ref(k).is_some_and(is_numeric));
            if numeric {
                out.push(arg);
            }
        }
    }
    out
}

/// The condition of the location when it is an `if` on one line: a `boolean` hole
/// `weave::value` may compute ahead of the statement (its branches stay as they are).
fn condition<'t>(s: &Spot<'t>) -> Option<tree_sitter::Node<'t>> {
    if s.stmt.kind() != "if_statement" {
        return None;
    }
    let c = s.stmt.child_by_field_name("condition")?.named_child(0)?;
    (!s.text(c).contains('\n')).then_some(c)
}

/// One argument's hole family: the same value by another expression (`hole-value`, which the
/// tree must put with the original), other values (`hole-value`), a `long` (`hole-retype`, which
/// may pick another overload and must not join the original's hole), and a division by zero
/// (`hole-throw`, thrown from the hole: from the statement's line, after nothing else of it ran).
/// For an `if`'s condition: the same truth value twice, its negation, and a division by zero
/// when it holds.
fn hole_family(s: &Spot, hole: tree_sitter::Node) -> Vec<Mutant> {
    let t = s.text(hole);
    let family = if Some(hole.id()) == condition(s).map(|c| c.id()) {
        [
            ("hole-value", format!("!(!({t}))")),
            ("hole-value", format!("({t}) == true")),
            ("hole-value", format!("!({t})")),
            ("hole-value", format!("({t}) != ({t})")),
            ("hole-throw", format!("({t}) && 1 / 0 == 0")),
        ]
    } else {
        [
            ("hole-value", format!("({t}) * 2 - ({t})")),
            ("hole-value", format!("({t}) + 1")),
            ("hole-value", format!("-({t})")),
            ("hole-retype", format!("({t}) + 0L")),
            ("hole-throw", format!("({t}) / 0")),
        ]
    };
    family
        .into_iter()
        .map(|(op, with)| Mutant {
            text: s.replace(hole.byte_range(), &with),
            op,
        })
        .collect()
}

/// The expressions a hole family may rewrite: the numeric call arguments and an `if`'s
/// condition.
fn hole_sites<'t>(s: &Spot<'t>) -> Vec<tree_sitter::Node<'t>> {
    let mut out: Vec<_> = condition(s).into_iter().collect();
    out.extend(numeric_arguments(s));
    out
}

/// Every hole site's family.
fn holes(s: &Spot, out: &mut Vec<Mutant>) {
    for site in hole_sites(s) {
        out.extend(hole_family(s, site));
    }
}

/// The hole family of one site chosen by `pick` (from the count of them), whole: a value hole
/// forms from three patches at one expression, which the round-robin choice of operators
/// seldom gives (`mutate::generate` starts some locations with it).
pub fn hole_burst(s: &Spot, pick: impl FnOnce(usize) -> usize) -> Vec<Mutant> {
    let sites = hole_sites(s);
    if sites.is_empty() {
        return Vec::new();
    }
    hole_family(s, sites[pick(sites.len())])
}

/// Every mutant of the hazard operators, in a deterministic order.
pub fn hazards(s: &Spot) -> Vec<Mutant> {
    let mut out = Vec::new();
    holes(s, &mut out);
    field_writes(s, &mut out);
    throws(s, &mut out);
    identity(s, &mut out);
    calls(s, &mut out);
    comments(s, &mut out);
    dead_writes(s, &mut out);
    slips(s, &mut out);
    out
}
