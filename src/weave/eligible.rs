//! Tree eligibility: a woven patch may be deduplicated through the state-transition tree only when
//! its change scope is small and comparable — it writes only locals and fields of this class of
//! allowlisted types (primitives, boxed primitives, `String`), calls only pure and closed methods
//! (explicitly, or implicitly through string conversion), creates no objects, initialises no
//! class whose initialiser has effects and holds no loops. Every other patch runs sequentially,
//! one round per patch.

use super::names::{
    is_variable_read, kind_of, receiver_type, thrown_exception, to_string_is_pure, Names,
};
use super::scope::Site;
use super::text;
use tree_sitter::Node;

pub use super::sequential::{is_value_type, Field, Oracle, PurityOracle, Sequential};

/// A field declarator declared directly in the class body holding the enclosing method.
pub struct Declarator<'t> {
    /// The declaration's modifiers, word by word.
    pub modifiers: Vec<String>,
    /// The declaration's type node.
    pub ty: Node<'t>,
    /// The `variable_declarator` node (its `name`, `dimensions`, `value`).
    pub node: Node<'t>,
}

/// Every field declarator in the class body holding the enclosing method, in order.
pub fn field_declarators<'t>(src: &str, root: Node<'t>, site: &Site) -> Vec<Declarator<'t>> {
    let Some(body) = root
        .descendant_for_byte_range(site.method.start, site.method.end)
        .and_then(|m| m.parent())
    else {
        return vec![];
    };
    let mut out = Vec::new();
    let mut c = body.walk();
    for decl in body.named_children(&mut c) {
        if decl.kind() != "field_declaration" {
            continue;
        }
        let modifiers: Vec<String> = decl
            .named_child(0)
            .filter(|m| m.kind() == "modifiers")
            .map(|m| {
                text(src, m)
                    .split_whitespace()
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let Some(ty) = decl.child_by_field_name("type") else {
            continue;
        };
        let mut dc = decl.walk();
        for node in decl.children_by_field_name("declarator", &mut dc) {
            out.push(Declarator {
                modifiers: modifiers.clone(),
                ty,
                node,
            });
        }
    }
    out
}

/// Fields declared directly in the class body holding the enclosing method, with whether each
/// is `final`.
pub fn class_fields(src: &str, root: Node, site: &Site) -> Vec<(Field, bool)> {
    field_declarators(src, root, site)
        .into_iter()
        .filter_map(|d| {
            let name = d.node.child_by_field_name("name")?;
            let dims = d.node.child_by_field_name("dimensions").is_some();
            let has = |w: &str| d.modifiers.iter().any(|m| m == w);
            Some((
                Field {
                    name: text(src, name).to_string(),
                    ty: if dims {
                        format!("{}[]", text(src, d.ty))
                    } else {
                        text(src, d.ty).to_string()
                    },
                    is_static: has("static"),
                },
                has("final"),
            ))
        })
        .collect()
}

/// Decides one patched statement: `Ok(fields it may assign)` or why it runs sequentially.
pub fn check(
    stmt: &str,
    site: &Site,
    fields: &[(Field, bool)],
    class_name: Option<&str>,
    pure: PurityOracle,
) -> Result<Vec<Field>, Sequential> {
    let super::Wrapped {
        text: wrapped,
        tree,
    } = super::Wrapped::parse(&mut super::parser(), stmt).ok_or(Sequential::DoesNotParse)?;
    let mut names = Names {
        site,
        fields,
        declared: Vec::new(),
        class_name,
        returns_primitive: None,
    };
    let mut all = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
        if n.kind() == "variable_declarator" {
            if let Some(name) = n.child_by_field_name("name") {
                names.declared.push(text(&wrapped, name).to_string());
            }
        }
        all.push(n);
    }
    let src = wrapped.as_str();
    let mut assigned: Vec<Field> = Vec::new();
    for n in all {
        match n.kind() {
            "while_statement" | "for_statement" | "enhanced_for_statement" | "do_statement" => {
                return Err(Sequential::Loop)
            }
            "object_creation_expression"
                if n.parent().is_some_and(|p| p.kind() == "throw_statement") =>
            {
                thrown_exception(src, n, &names, pure)?
            }
            "object_creation_expression" | "array_creation_expression" => {
                return Err(Sequential::CreatesObject)
            }
            "lambda_expression" | "method_reference" | "class_body"
                if n.parent().is_some_and(|p| p.kind() != "class_declaration") =>
            {
                return Err(Sequential::LambdaOrClass)
            }
            "synchronized_statement" | "try_statement" | "try_with_resources_statement" => {
                return Err(Sequential::TryOrSynchronized)
            }
            "method_invocation" => {
                let name = n
                    .child_by_field_name("name")
                    .map(|x| text(src, x))
                    .unwrap_or("");
                let arity = n
                    .child_by_field_name("arguments")
                    .map(|a| a.named_child_count())
                    .unwrap_or(0);
                let qualifier = receiver_type(src, n.child_by_field_name("object"), &names, pure)?;
                if !pure.call_is_pure(Some(&qualifier), name, arity) {
                    return Err(Sequential::ImpureCall(name.to_string()));
                }
            }
            "field_access" => {
                if let Some(o) = n.child_by_field_name("object") {
                    receiver_type(src, Some(o), &names, pure)?;
                }
            }
            "identifier" if is_variable_read(n) => {
                let id = text(src, n);
                if !names.is_variable(id) && !pure.static_read_is_safe(id) {
                    return Err(Sequential::StaticRead(id.to_string()));
                }
            }
            "binary_expression"
                if n.child_by_field_name("operator").map(|o| text(src, o)) == Some("+") =>
            {
                let (Some(a), Some(b)) = (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ) else {
                    continue;
                };
                let (ka, kb) = (kind_of(src, a, &names), kind_of(src, b, &names));
                for (this, other) in [(&ka, &kb), (&kb, &ka)] {
                    if this.may_call_to_string() && other.may_be_string() {
                        to_string_is_pure(this, pure)?;
                    }
                }
            }
            "assert_statement" => {
                if let Some(detail) = n.named_child(1) {
                    to_string_is_pure(&kind_of(src, detail, &names), pure)?;
                }
            }
            "assignment_expression" | "update_expression" => {
                let target = match n.kind() {
                    "assignment_expression" => n.child_by_field_name("left"),
                    _ => n.named_child(0),
                };
                let Some(target) = target else { continue };
                let compound = n.child_by_field_name("operator").map(|o| text(src, o));
                if let (Some("+="), Some(right)) = (compound, n.child_by_field_name("right")) {
                    if kind_of(src, target, &names).may_be_string() {
                        to_string_is_pure(&kind_of(src, right, &names), pure)?;
                    }
                }
                let field = match target.kind() {
                    "identifier" => {
                        let id = text(src, target);
                        if let Some(l) = site.locals.iter().find(|l| l.name == id) {
                            if !is_value_type(&l.ty) {
                                return Err(Sequential::AssignsReference {
                                    name: id.to_string(),
                                    ty: l.ty.clone(),
                                });
                            }
                            continue;
                        }
                        id
                    }
                    "field_access" => {
                        let obj = target.child_by_field_name("object").map(|o| text(src, o));
                        let own = obj == Some("this") || (obj.is_some() && obj == class_name);
                        if !own {
                            return Err(Sequential::ForeignField);
                        }
                        target
                            .child_by_field_name("field")
                            .map(|f| text(src, f))
                            .unwrap_or("")
                    }
                    _ => return Err(Sequential::OtherTarget),
                };
                match fields.iter().find(|(f, _)| f.name == field) {
                    Some((f, false)) if is_value_type(&f.ty) => {
                        if !assigned.contains(f) {
                            assigned.push(f.clone());
                        }
                    }
                    Some((f, true)) => return Err(Sequential::FinalField(f.name.clone())),
                    Some((f, _)) => {
                        return Err(Sequential::AssignsReference {
                            name: f.name.clone(),
                            ty: f.ty.clone(),
                        })
                    }
                    None => return Err(Sequential::NotAField(field.to_string())),
                }
            }
            "return_statement"
                if n.named_child_count() > 0 && !is_value_type(&site.return_type) =>
            {
                return Err(Sequential::Returns(site.return_type.clone()));
            }
            _ => {}
        }
    }
    Ok(assigned)
}

#[cfg(test)]
#[path = "eligible_tests.rs"]
mod tests;
