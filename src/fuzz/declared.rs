//! What the project's sources declare that the mutation operators can name: the exception classes
//! with their constructors' parameter types, and a class body's fields and methods (read by
//! `locate` for a `Spot`, and by `generate`).

use super::spot::{ExceptionClass, Member, MethodSig, SourceFile};
use tree_sitter::Node;

/// Exception classes declared at the top level of the project's files.
pub fn exceptions(files: &[SourceFile]) -> Vec<ExceptionClass> {
    let mut out = Vec::new();
    for f in files {
        let root = f.tree.root_node();
        let mut c = root.walk();
        for decl in root.named_children(&mut c) {
            if decl.kind() != "class_declaration" {
                continue;
            }
            let src = f.text.as_str();
            let sup = decl
                .child_by_field_name("superclass")
                .map(|s| &src[s.byte_range()])
                .unwrap_or("");
            let abstract_ = decl
                .named_child(0)
                .filter(|m| m.kind() == "modifiers")
                .is_some_and(|m| src[m.byte_range()].contains("abstract"));
            if abstract_ || !(sup.contains("Exception") || sup.contains("Error")) {
                continue;
            }
            let Some(name) = decl.child_by_field_name("name") else {
                continue;
            };
            let name = &src[name.byte_range()];
            let mut ctors = Vec::new();
            if let Some(body) = decl.child_by_field_name("body") {
                let mut bc = body.walk();
                for m in body.named_children(&mut bc) {
                    if m.kind() != "constructor_declaration"
                        || src[m.byte_range()].starts_with("private")
                    {
                        continue;
                    }
                    if let Some(params) = m.child_by_field_name("parameters") {
                        ctors.push(param_types(src, params));
                    }
                }
            }
            if ctors.is_empty() {
                ctors.push(vec![]);
            }
            out.push(ExceptionClass {
                name: if f.package.is_empty() {
                    name.to_string()
                } else {
                    format!("{}.{name}", f.package)
                },
                ctors,
            });
        }
    }
    out
}

fn param_types(src: &str, params: Node) -> Vec<String> {
    let mut c = params.walk();
    let types = params
        .named_children(&mut c)
        .filter(|p| p.kind() == "formal_parameter")
        .filter_map(|p| p.child_by_field_name("type"))
        .map(|t| src[t.byte_range()].to_string())
        .collect();
    types
}

pub(super) fn modifiers_have(src: &str, decl: Node, word: &str) -> bool {
    decl.named_child(0)
        .filter(|m| m.kind() == "modifiers")
        .is_some_and(|m| src[m.byte_range()].split_whitespace().any(|w| w == word))
}

/// The fields and methods declared in a class body.
pub(super) fn members(src: &str, body: Node) -> (Vec<Member>, Vec<MethodSig>) {
    let (mut fields, mut methods) = (Vec::new(), Vec::new());
    let mut c = body.walk();
    for decl in body.named_children(&mut c) {
        match decl.kind() {
            "field_declaration" => {
                let Some(ty) = decl.child_by_field_name("type") else {
                    continue;
                };
                let mut dc = decl.walk();
                for d in decl.children_by_field_name("declarator", &mut dc) {
                    let Some(name) = d.child_by_field_name("name") else {
                        continue;
                    };
                    let dims = d
                        .child_by_field_name("dimensions")
                        .map_or("", |x| &src[x.byte_range()]);
                    fields.push(Member {
                        name: src[name.byte_range()].to_string(),
                        ty: format!("{}{dims}", &src[ty.byte_range()]),
                        is_static: modifiers_have(src, decl, "static"),
                        is_final: modifiers_have(src, decl, "final"),
                    });
                }
            }
            "method_declaration" => {
                let (Some(name), Some(ty), Some(params)) = (
                    decl.child_by_field_name("name"),
                    decl.child_by_field_name("type"),
                    decl.child_by_field_name("parameters"),
                ) else {
                    continue;
                };
                if decl.child_by_field_name("type_parameters").is_some() {
                    continue;
                }
                methods.push(MethodSig {
                    name: src[name.byte_range()].to_string(),
                    ret: src[ty.byte_range()].to_string(),
                    params: param_types(src, params),
                    is_static: modifiers_have(src, decl, "static"),
                });
            }
            _ => {}
        }
    }
    (fields, methods)
}
