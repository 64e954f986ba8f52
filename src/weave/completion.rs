//! Whether a statement of an initialiser block, with a patch in place, is judged by javac in the
//! method `weave::hoist` moves it into as it would be in the block: an initialiser must be able to
//! complete normally (JLS 8.6, 8.7) and may not hold `return`, where a method may end abruptly or
//! return. "Can complete normally" follows JLS 14.22, answered yes only where it is certain.
//!
//! Every statement of a method that compiles is reachable (an unreachable one is an error), and a
//! patch whose method does not compile is validated alone, so the rules below take every
//! statement as reachable: a `break` in a loop's body exits the loop.

use super::reach::{is_final, never_completes, statements, Flow};
use std::collections::BTreeSet;
use std::ops::Range;
use tree_sitter::Node;

/// The hoisted method of one location, ready to be judged with each patch in place.
#[derive(Debug)]
pub struct BlockCompletion {
    /// The method found around the location, or `None` (every patch is then validated alone).
    method: Option<Method>,
}

#[derive(Debug)]
struct Method {
    /// The method's body before the location, and after it.
    before: String,
    after: String,
    /// The fields of the class holding the block that are not `final`: never constant.
    mutable_fields: BTreeSet<String>,
}

impl BlockCompletion {
    /// `src` is the file with the block's statement moved into `method`, `range` the location
    /// inside that method's body.
    pub fn new(src: &str, range: Range<usize>, method: &str) -> BlockCompletion {
        BlockCompletion {
            method: Method::find(src, range, method),
        }
    }

    /// A compile error javac gives `patch` in the block whatever the rest of the file, where
    /// javac reports it and its message: a `return` of the patch's own (JLS 8.6 and 8.7: an
    /// error anywhere in an initialiser), at its byte offset in the patch, or a last statement
    /// that surely cannot complete normally ([`never_completes`]), at the block's opening line.
    /// `None` when there is none or the block does not parse with the patch. Only for a
    /// location planned on the whole block (`weave::in_place`), whose last statement is the
    /// block's.
    pub fn certain_error(&self, patch: &str) -> Option<(ErrorAt, &'static str)> {
        self.method.as_ref()?.certain_error(patch)
    }

    /// Why `patch` in place makes javac judge the block's statement otherwise than the method's
    /// body (it is then validated alone), or `None`.
    pub fn check(&self, patch: &str) -> Option<String> {
        let Some(m) = &self.method else {
            return Some("the hoisted method is not found: validated alone".to_string());
        };
        m.check(patch)
    }
}

impl Method {
    /// The hoisted method around `range` in `src`, `None` when it is not found.
    fn find(src: &str, range: Range<usize>, method: &str) -> Option<Method> {
        let tree = super::parser().parse(src, None)?;
        let mut n = tree
            .root_node()
            .descendant_for_byte_range(range.start, range.end)?;
        let declaration = loop {
            if n.kind() == "method_declaration"
                && n.child_by_field_name("name")
                    .is_some_and(|k| super::text(src, k) == method)
            {
                break n;
            }
            n = n.parent()?;
        };
        let body = declaration.child_by_field_name("body")?;
        let class_body = declaration.parent()?;
        let mut mutable_fields = BTreeSet::new();
        let mut c = class_body.walk();
        for field in class_body
            .named_children(&mut c)
            .filter(|m| m.kind() == "field_declaration")
        {
            if is_final(src, field) {
                continue;
            }
            let mut c = field.walk();
            for d in field.children_by_field_name("declarator", &mut c) {
                if let Some(name) = d.child_by_field_name("name") {
                    mutable_fields.insert(super::text(src, name).to_string());
                }
            }
        }
        Some(Method {
            before: src[body.start_byte()..range.start].to_string(),
            after: src[range.end..body.end_byte()].to_string(),
            mutable_fields,
        })
    }

    /// The method's text with `patch` in place, and where the patch starts in it. A line break
    /// after the patch: a `//` comment ending it must not swallow the block's rest (the
    /// statement-moving hoist puts the method on one line).
    fn text(&self, patch: &str) -> (String, usize) {
        let head = format!("class __PV {{ void __m() {}", self.before);
        let at = head.len();
        (format!("{head}{patch}\n{} }}", self.after), at)
    }

    fn certain_error(&self, patch: &str) -> Option<(ErrorAt, &'static str)> {
        let (text, at) = self.text(patch);
        let tree = super::parser().parse(&text, None)?;
        let body = body_of(&tree).filter(|b| !b.has_error())?;
        if let Some(r) = returns(body).filter(|r| (at..at + patch.len()).contains(&r.start_byte()))
        {
            return Some((ErrorAt::Patch(r.start_byte() - at), "return outside method"));
        }
        // The original block completes: it is the patch that makes it not.
        let last = statements(body).pop()?;
        never_completes(last).then_some((
            ErrorAt::Block,
            "initializer must be able to complete normally",
        ))
    }

    fn check(&self, patch: &str) -> Option<String> {
        let (text, _) = self.text(patch);
        let tree = super::parser().parse(&text, None);
        let body = tree.as_ref().and_then(body_of);
        let Some(body) = body.filter(|b| !b.has_error()) else {
            return Some(
                "the initialiser block's statement does not parse with the patch: validated alone"
                    .to_string(),
            );
        };
        let flow = Flow {
            src: &text,
            fields: &self.mutable_fields,
        };
        if let Some(r) = returns(body) {
            return Some(format!(
                "the patch leaves `{}` in an initialiser block, an error there and not in a \
                 method: validated alone",
                flow.word(r)
            ));
        }
        (!flow.completes(body)).then(|| {
            "with the patch, the initialiser block's statement may not complete normally (JLS \
             14.22), an error in an initialiser and not in a method: validated alone"
                .to_string()
        })
    }
}

/// The body of the one method of the text [`Method::text`] makes.
fn body_of(tree: &tree_sitter::Tree) -> Option<Node<'_>> {
    let root = tree.root_node();
    let class_body = root.named_child(0)?.child_by_field_name("body")?;
    if root.named_child_count() != 1 || class_body.named_child_count() != 1 {
        return None;
    }
    class_body.named_child(0)?.child_by_field_name("body")
}

/// Where javac reports a certain error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorAt {
    /// At this byte offset in the patch.
    Patch(usize),
    /// At the initialiser block's opening brace.
    Block,
}

/// A `return` of the statement's own (not of a lambda or of a class, interface, enum or
/// annotation type declared in it, whose methods may return).
fn returns(n: Node) -> Option<Node> {
    if n.kind() == "return_statement" {
        return Some(n);
    }
    if matches!(
        n.kind(),
        "lambda_expression"
            | "class_body"
            | "interface_body"
            | "enum_body"
            | "annotation_type_body"
    ) {
        return None;
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.named_children(&mut c).collect();
    children.into_iter().find_map(returns)
}

#[cfg(test)]
#[path = "completion_tests.rs"]
mod tests;
