//! Value-based equivalence at expression level: the patches of one statement that differ only
//! in one expression (the hole) rewritten so that the hole's value is computed by a statement of
//! its own, `__pv_hv = e;`, ahead of the rest of the statement, which reads `__pv_hv`. That
//! statement is the location the tree captures, so patches whose holes evaluate to the same value
//! share their test runs even when the statement around the hole calls a method that may change
//! state. `docs/deduplication.md` argues why the rewritten program behaves as the patched one.

use super::locals::Local;
use super::scope::Site;
use super::{error_nodes, parser, text, Wrapped};
use std::collections::BTreeMap;
use std::ops::Range;

/// What a patch's statement is beside the unpatched one: the same, or the same but for the
/// expression at a path (with that expression's text).
enum Found {
    Same,
    Hole(Vec<usize>, String),
}

/// The local that carries the hole's value; `__pv_` names are the weaver's own.
pub const HOLE: &str = "__pv_hv";

/// The patches of a set whose statements are one context around one hole, rewritten.
#[derive(Debug, Clone)]
pub struct Holes {
    /// The file with the location's statement rewritten, `{ T __pv_hv = d; __pv_hv = e0;
    /// S[__pv_hv] }`, on the statement's own lines.
    pub src: String,
    /// The byte range of `__pv_hv = e0;` in `src`.
    pub range: Range<usize>,
    /// Per patch of the set: `__pv_hv = e;` for the patches of the group, `None` for the others.
    pub patches: Vec<Option<String>>,
    /// The static type every hole of the group has.
    pub ty: String,
}

/// The group of `patches` (each replacing `range` of `src`, whose location `site` analysed)
/// that differ from the unpatched statement only in one expression that can be computed ahead
/// of the statement without changing what the statement does, when there are at least `min`.
pub fn holes(
    src: &str,
    range: Range<usize>,
    site: &Site,
    patches: &[String],
    min: usize,
) -> Option<Holes> {
    let stmt = site.target.clone();
    if range.start < stmt.start || range.end > stmt.end || site.braceless_parent.is_some() {
        return None;
    }
    let mut p = parser();
    let original = Wrapped::parse(&mut p, &src[stmt.clone()])?;
    let s0 = single(&original)?;
    // A local declaration is no location of its own (`weave::split` takes it).
    if !matches!(
        s0.kind(),
        "expression_statement" | "return_statement" | "if_statement"
    ) {
        return None;
    }
    let (before, after) = (&src[stmt.start..range.start], &src[range.end..stmt.end]);
    // Per patch: the hole's path in the statement and its text (`None` for the unpatched
    // statement itself), or `None`.
    let found: Vec<Option<Found>> = patches
        .iter()
        .map(|patch| {
            let w = Wrapped::parse(&mut p, &format!("{before}{patch}{after}"))?;
            let s = single(&w)?;
            if error_nodes(w.tree.root_node()) > 0 {
                return None;
            }
            let Some(path) = diff(s0, &original.text, s, &w.text) else {
                return Some(Found::Same);
            };
            let path = widen(s0, path);
            let hole = at(s, &path)?;
            Some(Found::Hole(path, text(&w.text, hole).to_string()))
        })
        .collect();
    // The patches per path of a hole (patches equal to the original join every group).
    let mut by_path: BTreeMap<&[usize], usize> = BTreeMap::new();
    for f in found.iter().flatten() {
        if let Found::Hole(path, _) = f {
            *by_path.entry(path).or_default() += 1;
        }
    }
    // Names a hole may read: the visible locals, then the fields the class declares itself.
    let mut names = site.locals.clone();
    for f in own_fields(src, site) {
        if !names.iter().any(|l| l.name == f.name) {
            names.push(f);
        }
    }
    let line = |t: &str| !t.contains('\n') && !t.contains('\r');
    // The members of the hole at `path`, when it may be one: (its type, their texts).
    let mut group = |path: &[usize]| -> Option<(String, Vec<Option<String>>)> {
        let hole0 = at(s0, path)?;
        let h0 = text(&original.text, hole0);
        // On the statement's first line: computed ahead, it throws from the same line.
        if !line(&original.text[s0.start_byte()..hole0.end_byte()]) {
            return None;
        }
        let ty = type_of(&original.text, hole0, &names)?;
        if !context_ok(&original.text, s0, path, &ty, site) {
            return None;
        }
        let mut texts = vec![None; patches.len()];
        let mut n = 0;
        for (i, f) in found.iter().enumerate() {
            let h = match f {
                Some(Found::Hole(q, h)) if q == path && line(h) => h,
                Some(Found::Same) => h0,
                _ => continue,
            };
            let w = Wrapped::parse(&mut p, &format!("{before}{}{after}", patches[i]))?;
            let hole = at(single(&w)?, path)?;
            if type_of(&w.text, hole, &names).as_deref() != Some(ty.as_str()) {
                continue;
            }
            texts[i] = Some(format!("{HOLE} = {h};"));
            n += 1;
        }
        (n >= min).then_some((ty, texts))
    };
    // The largest group that may be a hole (a branch's holes may outnumber the condition's).
    let mut paths: Vec<(&[usize], usize)> = by_path.into_iter().collect();
    paths.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    let (path, (ty, texts)) = paths
        .into_iter()
        .find_map(|(path, _)| Some((path.to_vec(), group(path)?)))?;
    let hole0 = at(s0, &path)?;
    let h0 = text(&original.text, hole0);
    // The rewritten statement, in the wrapper's coordinates shifted back to the file's.
    let off = s0.start_byte();
    let s0_text = text(&original.text, s0);
    let (hs, he) = (hole0.start_byte() - off, hole0.end_byte() - off);
    let rest = format!("{}{HOLE}{}", &s0_text[..hs], &s0_text[he..]);
    let decl = format!("{ty} {HOLE} = {}; ", super::emit::default_value(&ty));
    let assign = format!("{HOLE} = {h0};");
    let (open, close) = ("{ ", " }");
    let lead = &src[stmt.start..stmt.start + (s0.start_byte() - wrapped_start(&original))];
    let trail_from = stmt.start + (s0.end_byte() - wrapped_start(&original));
    let mut out = String::with_capacity(src.len() + 64);
    out.push_str(&src[..stmt.start]);
    out.push_str(lead);
    out.push_str(open);
    out.push_str(&decl);
    let start = out.len();
    out.push_str(&assign);
    let range = start..out.len();
    out.push(' ');
    out.push_str(&rest);
    out.push_str(close);
    out.push_str(&src[trail_from..]);
    if super::syntax_errors(&out) > 0 {
        return None;
    }
    Some(Holes {
        src: out,
        range,
        patches: texts,
        ty,
    })
}

/// The fields declared in the class that holds the location's method, as locals are: a name no
/// local takes there means that class's own field when it declares one (its own fields hide
/// inherited and enclosing classes' ones). Reading one in the hole has no effect: the class is
/// initialised, since its code runs.
fn own_fields(src: &str, site: &Site) -> Vec<Local> {
    let Some(tree) = parser().parse(src, None) else {
        return Vec::new();
    };
    super::eligible::class_fields(src, tree.root_node(), site)
        .into_iter()
        .map(|(f, is_final)| Local {
            name: f.name,
            ty: f.ty,
            is_final,
            assigned: true,
            unusable: None,
        })
        .collect()
}

/// Where the statement's text starts in its wrapper (`class __PV { void __m() {\n`).
fn wrapped_start(w: &Wrapped) -> usize {
    w.text.find('\n').map_or(0, |i| i + 1)
}

/// The one statement a wrapper holds.
fn single(w: &Wrapped) -> Option<tree_sitter::Node<'_>> {
    match w.statements()?.as_slice() {
        [s] => Some(*s),
        _ => None,
    }
}

/// The path (child indices) from `a` to the smallest node where `b` differs from it; `None`
/// when they are alike, the empty path when they differ in kind or shape at the top.
fn diff(a: tree_sitter::Node, at: &str, b: tree_sitter::Node, bt: &str) -> Option<Vec<usize>> {
    if a.kind() == b.kind() && text(at, a) == text(bt, b) {
        return None;
    }
    if a.kind() != b.kind() || a.child_count() != b.child_count() {
        return Some(Vec::new());
    }
    let differing: Vec<usize> = (0..a.child_count() as usize)
        .filter(|&i| {
            let (x, y) = (a.child(i as u32), b.child(i as u32));
            match (x, y) {
                (Some(x), Some(y)) => x.kind() != y.kind() || text(at, x) != text(bt, y),
                _ => true,
            }
        })
        .collect();
    match differing.as_slice() {
        [i] => {
            let (x, y) = (a.child(*i as u32)?, b.child(*i as u32)?);
            if !x.is_named() || !y.is_named() {
                return Some(Vec::new());
            }
            let mut rest = diff(x, at, y, bt).unwrap_or_default();
            rest.insert(0, *i);
            Some(rest)
        }
        _ => Some(Vec::new()),
    }
}

/// The node at `path` below `n`.
fn at<'t>(n: tree_sitter::Node<'t>, path: &[usize]) -> Option<tree_sitter::Node<'t>> {
    path.iter().try_fold(n, |n, &i| n.child(i as u32))
}

/// Operators whose operands' being constant makes them constant: a hole below one is widened
/// to it, so the hole's value is never folded into a constant around it.
fn constant_forming(kind: &str) -> bool {
    matches!(
        kind,
        "parenthesized_expression" | "unary_expression" | "binary_expression" | "cast_expression"
    )
}

/// The parentheses of an `if`'s condition, which belong to the statement.
fn if_condition(n: tree_sitter::Node) -> bool {
    n.kind() == "parenthesized_expression"
        && n.parent().is_some_and(|p| {
            p.kind() == "if_statement"
                && p.child_by_field_name("condition").map(|c| c.id()) == Some(n.id())
        })
}

/// `path` shortened while its node's parent is [`constant_forming`] (but for an `if`'s own
/// parentheses).
fn widen(s0: tree_sitter::Node, mut path: Vec<usize>) -> Vec<usize> {
    while let Some((_, parent)) = path.split_last() {
        match at(s0, parent) {
            Some(p) if constant_forming(p.kind()) && !if_condition(p) => {
                path.pop();
            }
            _ => break,
        }
    }
    path
}

/// Whether the statement around the hole at `path` evaluates the hole exactly once, before
/// anything that could have an effect, throw, or be told from a constant.
fn context_ok(src: &str, s0: tree_sitter::Node, path: &[usize], ty: &str, site: &Site) -> bool {
    if path.is_empty() {
        return false;
    }
    let local = |n: tree_sitter::Node| {
        n.kind() == "identifier" && site.locals.iter().any(|l| l.name == text(src, n))
    };
    // Evaluated before the hole: nothing that can throw, have an effect or initialise a class.
    let safe = |n: tree_sitter::Node| {
        local(n)
            || matches!(
                n.kind(),
                "this"
                    | "decimal_integer_literal"
                    | "hex_integer_literal"
                    | "octal_integer_literal"
                    | "binary_integer_literal"
                    | "decimal_floating_point_literal"
                    | "character_literal"
                    | "string_literal"
                    | "true"
                    | "false"
                    | "null_literal"
            )
    };
    // `this.f` as an assignment's target: nothing is evaluated that can throw.
    let own_field = |n: tree_sitter::Node| {
        n.kind() == "field_access"
            && n.child_by_field_name("object")
                .is_some_and(|o| o.kind() == "this")
    };
    let mut node = s0;
    for (depth, &i) in path.iter().enumerate() {
        let Some(child) = node.child(i as u32) else {
            return false;
        };
        let field = node.field_name_for_child(i as u32);
        let last = depth + 1 == path.len();
        let ok = match (node.kind(), field) {
            ("expression_statement", _) => i == 0,
            ("return_statement", _) => child.is_named(),
            // The condition is evaluated first, once; the branches after it.
            ("if_statement", Some("condition")) => if_condition(child),
            ("parenthesized_expression", _) => if_condition(node) && child.is_named(),
            ("assignment_expression", Some("right")) => node
                .child_by_field_name("left")
                .is_some_and(|l| local(l) || own_field(l)),
            ("method_invocation", Some("object")) => true,
            ("method_invocation", Some("arguments")) => node
                .child_by_field_name("object")
                .is_none_or(|o| safe(o) || type_name(src, o, site)),
            ("argument_list", _) => (0..i).all(|k| {
                node.child(k as u32)
                    .is_some_and(|c| !c.is_named() || safe(c))
            }),
            ("array_access", Some("array")) => true,
            ("array_access", Some("index")) => node.child_by_field_name("array").is_some_and(safe),
            ("field_access", Some("object")) => true,
            _ => false,
        };
        if !ok {
            return false;
        }
        if last && narrows(src, node, ty, site) {
            return false;
        }
        node = child;
    }
    true
}

/// An identifier written as a class name (capitalised) that names no local: a static call's
/// class, evaluated to nothing before the arguments (its class is initialised at the call).
fn type_name(src: &str, n: tree_sitter::Node, site: &Site) -> bool {
    let name = text(src, n);
    n.kind() == "identifier"
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && !site.locals.iter().any(|l| l.name == name)
}

/// Whether the hole directly under `parent` is in an assignment context that converts a
/// constant of type `ty` by narrowing (`byte b = 5;`), which a variable's value cannot take.
fn narrows(src: &str, parent: tree_sitter::Node, ty: &str, site: &Site) -> bool {
    if !matches!(ty, "int" | "short" | "char" | "byte") {
        return false;
    }
    let wide = |t: &str| matches!(t.trim(), "int" | "long" | "float" | "double");
    match parent.kind() {
        "return_statement" => !wide(&site.return_type),
        "assignment_expression" => {
            let op = parent
                .child_by_field_name("operator")
                .map(|o| text(src, o))
                .unwrap_or("=");
            let left = parent.child_by_field_name("left");
            let target = left.and_then(|l| {
                site.locals
                    .iter()
                    .find(|loc| l.kind() == "identifier" && loc.name == text(src, l))
            });
            op == "=" && !target.is_some_and(|l| wide(&l.ty))
        }
        _ => false,
    }
}

const PRIMITIVES: [&str; 8] = [
    "byte", "short", "char", "int", "long", "float", "double", "boolean",
];

/// The primitive a boxed type unboxes to.
fn unboxed(ty: &str) -> &str {
    match ty {
        "Byte" | "java.lang.Byte" => "byte",
        "Short" | "java.lang.Short" => "short",
        "Character" | "java.lang.Character" => "char",
        "Integer" | "java.lang.Integer" => "int",
        "Long" | "java.lang.Long" => "long",
        "Float" | "java.lang.Float" => "float",
        "Double" | "java.lang.Double" => "double",
        "Boolean" | "java.lang.Boolean" => "boolean",
        other => other,
    }
}

fn numeric(ty: &str) -> bool {
    matches!(
        ty,
        "byte" | "short" | "char" | "int" | "long" | "float" | "double"
    )
}

fn integral(ty: &str) -> bool {
    matches!(ty, "byte" | "short" | "char" | "int" | "long")
}

/// Unary numeric promotion.
fn promote(ty: &str) -> &str {
    match ty {
        "byte" | "short" | "char" => "int",
        other => other,
    }
}

/// Binary numeric promotion.
fn promote2<'a>(a: &'a str, b: &'a str) -> &'a str {
    for wide in ["double", "float", "long"] {
        if a == wide || b == wide {
            return wide;
        }
    }
    "int"
}

/// The static type of an expression built of literals, names in `locals` (visible locals, and the
/// class's own fields) of a primitive, boxed or `String` type, and operators, exactly as javac
/// gives it; `None` for anything else (a call, `this.f`, an assignment, `null`), or when an
/// operand's type does not fit its operator.
pub fn type_of(src: &str, n: tree_sitter::Node, locals: &[Local]) -> Option<String> {
    let ty = |n| type_of(src, n, locals);
    let t = match n.kind() {
        "decimal_integer_literal"
        | "hex_integer_literal"
        | "octal_integer_literal"
        | "binary_integer_literal" => {
            if text(src, n).ends_with(['l', 'L']) {
                "long".into()
            } else {
                "int".into()
            }
        }
        "decimal_floating_point_literal" => {
            if text(src, n).ends_with(['f', 'F']) {
                "float".into()
            } else {
                "double".into()
            }
        }
        "character_literal" => "char".into(),
        "string_literal" => "String".into(),
        "true" | "false" => "boolean".into(),
        "identifier" => {
            let l = locals.iter().find(|l| l.name == text(src, n))?;
            let t = l.ty.trim();
            let known = PRIMITIVES.contains(&t) || unboxed(t) != t || t == "String";
            if !known || l.unusable.is_some() {
                return None;
            }
            t.to_string()
        }
        "parenthesized_expression" => ty(n.named_child(0)?)?,
        "cast_expression" => {
            let target = text(src, n.child_by_field_name("type")?).trim().to_string();
            let from = ty(n.child_by_field_name("value")?)?;
            let from = unboxed(&from);
            let fits =
                (numeric(&target) && numeric(from)) || (target == "boolean" && from == "boolean");
            if !fits {
                return None;
            }
            target
        }
        "unary_expression" => {
            let op = text(src, n.child_by_field_name("operator")?);
            let operand = ty(n.child_by_field_name("operand")?)?;
            let operand = unboxed(&operand);
            match op {
                "!" if operand == "boolean" => "boolean".into(),
                "-" | "+" if numeric(operand) => promote(operand).into(),
                "~" if integral(operand) => promote(operand).into(),
                _ => return None,
            }
        }
        "binary_expression" => {
            let op = text(src, n.child_by_field_name("operator")?);
            let l = ty(n.child_by_field_name("left")?)?;
            let r = ty(n.child_by_field_name("right")?)?;
            if op == "+" && (l == "String" || r == "String") {
                return Some("String".into());
            }
            let (lu, ru) = (unboxed(&l), unboxed(&r));
            match op {
                "+" | "-" | "*" | "/" | "%" if numeric(lu) && numeric(ru) => {
                    promote2(lu, ru).into()
                }
                "<<" | ">>" | ">>>" if integral(lu) && integral(ru) => promote(lu).into(),
                "<" | ">" | "<=" | ">=" if numeric(lu) && numeric(ru) => "boolean".into(),
                "==" | "!="
                    if (numeric(lu) && numeric(ru)) || (lu == "boolean" && ru == "boolean") =>
                {
                    // Two boxes compare by identity, not value: left to javac's rules elsewhere.
                    if unboxed(&l) != l && unboxed(&r) != r {
                        return None;
                    }
                    "boolean".into()
                }
                "&" | "|" | "^" if lu == "boolean" && ru == "boolean" => "boolean".into(),
                "&" | "|" | "^" if integral(lu) && integral(ru) => promote2(lu, ru).into(),
                "&&" | "||" if lu == "boolean" && ru == "boolean" => "boolean".into(),
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(t)
}

#[cfg(test)]
#[path = "value_tests.rs"]
mod tests;
