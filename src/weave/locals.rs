//! Locals visible at a location, read from the tree-sitter tree: block declarations (with a
//! conservative definite-assignment rule), loop variables, catch and resource variables,
//! parameters, and the exception types caught around the location.

use super::text;
use tree_sitter::Node;

/// A local variable (or parameter) visible at the location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Local {
    pub name: String,
    /// Declared type as written, with declarator dimensions appended (`int[]`).
    pub ty: String,
    pub is_final: bool,
    /// Definitely assigned at the location (so its value can be passed in).
    pub assigned: bool,
    /// Set when the local cannot be passed to a generated method (e.g. `var`, a union type).
    pub unusable: Option<String>,
}

pub(super) fn has_final(src: &str, decl: Node) -> bool {
    let mut c = decl.walk();
    let found = decl
        .children(&mut c)
        .any(|k| k.kind() == "modifiers" && text(src, k).split_whitespace().any(|w| w == "final"));
    found
}

pub(super) fn declared(
    src: &str,
    ty: &str,
    is_final: bool,
    declarator: Node,
    assigned: bool,
) -> Option<Local> {
    let name = text(src, declarator.child_by_field_name("name")?).to_string();
    let dims = declarator
        .child_by_field_name("dimensions")
        .map(|d| text(src, d).to_string())
        .unwrap_or_default();
    let unusable = (ty == "var").then(|| format!("`{name}` is declared with `var`"));
    Some(Local {
        name,
        ty: format!("{ty}{dims}"),
        is_final,
        assigned,
        unusable,
    })
}

/// Locals declared by statements of `block` that precede `child` (`at`: where the target starts).
///
/// `inner` holds the statements that precede the location's path in the blocks nested inside
/// `child` (the caller walks outwards and passes them along); `block`'s own statements before
/// `child` are appended to it for the next block out. A local declared without a value is
/// definitely assigned at the location when one of the statements after its declaration, in its
/// block or in `inner`, is a plain `name = ...;`: every one of them runs to completion before
/// control reaches the location (statements of a block run in order, and the location lies inside
/// the next statement of each), which is also javac's rule (JLS 16: assigned after a statement,
/// assigned before the next, and before any statement nested in it). StaxUtil's
/// `StringBuilder sb; if (...) { sb = new StringBuilder(name); <location> } else ...` in
/// jackson-dataformat-xml.
pub(super) fn collect_block_locals<'t>(
    src: &str,
    block: Node<'t>,
    child: Node<'t>,
    at: usize,
    inner: &mut Vec<Node<'t>>,
    out: &mut Vec<Local>,
) {
    let mut c = block.walk();
    let before: Vec<Node> = block
        .named_children(&mut c)
        .take_while(|s| s.id() != child.id())
        .collect();
    for (i, s) in before.iter().enumerate().rev() {
        if s.kind() != "local_variable_declaration" {
            continue;
        }
        let Some(ty) = s.child_by_field_name("type") else {
            continue;
        };
        let ty = text(src, ty).to_string();
        let fin = has_final(src, *s);
        let mut dc = s.walk();
        for d in s.children_by_field_name("declarator", &mut dc) {
            let name = d
                .child_by_field_name("name")
                .map(|n| text(src, n))
                .unwrap_or("");
            let assigned = d.child_by_field_name("value").is_some()
                || before[i + 1..]
                    .iter()
                    .chain(inner.iter())
                    .any(|later| assigns_plainly(src, *later, name));
            // Assigned somewhere before the location, but not plainly: javac may or may not
            // consider it definitely assigned, so its value can be neither passed nor replaced.
            let maybe = !assigned
                && super::tokens::scan(&src[s.end_byte().min(at)..at])
                    .assigned
                    .contains(name);
            if let Some(mut l) = declared(src, &ty, fin, d, assigned) {
                if maybe && l.unusable.is_none() {
                    l.unusable = Some(format!(
                        "`{name}` may or may not be assigned at the location"
                    ));
                }
                out.push(l);
            }
        }
    }
    inner.extend(before);
}

/// `name = ...;` as a whole statement (a conservative definite-assignment rule).
pub(super) fn assigns_plainly(src: &str, stmt: Node, name: &str) -> bool {
    if stmt.kind() != "expression_statement" {
        return false;
    }
    let Some(e) = stmt.named_child(0) else {
        return false;
    };
    e.kind() == "assignment_expression"
        && e.child_by_field_name("left")
            .is_some_and(|l| l.kind() == "identifier" && text(src, l) == name)
        && e.child_by_field_name("operator")
            .is_some_and(|o| text(src, o) == "=")
}

pub(super) fn collect_loop_locals(src: &str, lp: Node, child: Node, out: &mut Vec<Local>) {
    match lp.kind() {
        "for_statement" => {
            let mut c = lp.walk();
            for init in lp.children_by_field_name("init", &mut c) {
                if init.kind() == "local_variable_declaration" && init.id() != child.id() {
                    let Some(ty) = init.child_by_field_name("type") else {
                        continue;
                    };
                    let ty = text(src, ty).to_string();
                    let fin = has_final(src, init);
                    let mut dc = init.walk();
                    for d in init.children_by_field_name("declarator", &mut dc) {
                        let assigned = d.child_by_field_name("value").is_some();
                        if let Some(l) = declared(src, &ty, fin, d, assigned) {
                            out.push(l);
                        }
                    }
                }
            }
        }
        "enhanced_for_statement"
            if lp
                .child_by_field_name("body")
                .is_some_and(|b| b.id() == child.id()) =>
        {
            let ty = lp
                .child_by_field_name("type")
                .map(|t| text(src, t).to_string());
            let name = lp
                .child_by_field_name("name")
                .map(|t| text(src, t).to_string());
            if let (Some(ty), Some(name)) = (ty, name) {
                let dims = lp
                    .child_by_field_name("dimensions")
                    .map(|d| text(src, d).to_string())
                    .unwrap_or_default();
                out.push(Local {
                    unusable: (ty == "var").then(|| format!("`{name}` is declared with `var`")),
                    name,
                    ty: format!("{ty}{dims}"),
                    is_final: has_final(src, lp),
                    assigned: true,
                });
            }
        }
        _ => {}
    }
}

pub(super) fn collect_catch_local(src: &str, clause: Node, out: &mut Vec<Local>) {
    let mut c = clause.walk();
    for p in clause.named_children(&mut c) {
        if p.kind() != "catch_formal_parameter" {
            continue;
        }
        let name = p
            .child_by_field_name("name")
            .map(|n| text(src, n).to_string());
        let mut tc = p.walk();
        let ty = p.named_children(&mut tc).find(|k| k.kind() == "catch_type");
        if let (Some(name), Some(ty)) = (name, ty) {
            let t = text(src, ty).to_string();
            out.push(Local {
                unusable: t
                    .contains('|')
                    .then(|| format!("`{name}` has a union type")),
                name,
                ty: t,
                is_final: has_final(src, p),
                assigned: true,
            });
        }
    }
}

pub(super) fn collect_caught(src: &str, stmt: Node, out: &mut Vec<String>) {
    let mut c = stmt.walk();
    for clause in stmt.named_children(&mut c) {
        if clause.kind() != "catch_clause" {
            continue;
        }
        let mut k = clause.walk();
        for p in clause.named_children(&mut k) {
            let mut tc = p.walk();
            let ty = p.named_children(&mut tc).find(|t| t.kind() == "catch_type");
            for t in ty.iter().flat_map(|t| text(src, *t).split('|')) {
                let t = t.trim().to_string();
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
    }
}

pub(super) fn collect_resources(src: &str, stmt: Node, child: Node, out: &mut Vec<Local>) {
    if stmt
        .child_by_field_name("body")
        .is_none_or(|b| b.id() != child.id())
    {
        return;
    }
    let Some(spec) = stmt.child_by_field_name("resources") else {
        return;
    };
    let mut c = spec.walk();
    for r in spec.named_children(&mut c) {
        let ty = r
            .child_by_field_name("type")
            .map(|t| text(src, t).to_string());
        let name = r
            .child_by_field_name("name")
            .map(|t| text(src, t).to_string());
        if let (Some(ty), Some(name)) = (ty, name) {
            out.push(Local {
                unusable: (ty == "var").then(|| format!("`{name}` is declared with `var`")),
                name,
                ty,
                is_final: true,
                assigned: true,
            });
        }
    }
}

pub(super) fn collect_params(src: &str, params: Node, out: &mut Vec<Local>) {
    let mut c = params.walk();
    for p in params.named_children(&mut c) {
        match p.kind() {
            "formal_parameter" => {
                let Some(ty) = p.child_by_field_name("type") else {
                    continue;
                };
                let ty = text(src, ty).to_string();
                if let Some(l) = declared(src, &ty, has_final(src, p), p, true) {
                    out.push(l);
                }
            }
            "spread_parameter" => {
                let mut k = p.walk();
                let kids: Vec<Node> = p.named_children(&mut k).collect();
                let ty = kids
                    .iter()
                    .find(|n| n.kind() != "modifiers" && n.kind() != "variable_declarator")
                    .map(|n| text(src, *n).to_string());
                let decl = kids.iter().find(|n| n.kind() == "variable_declarator");
                if let (Some(ty), Some(d)) = (ty, decl) {
                    if let Some(l) = declared(src, &format!("{ty}[]"), has_final(src, p), *d, true)
                    {
                        out.push(l);
                    }
                }
            }
            _ => {}
        }
    }
}
