//! The JVM members a set's patches change when its location spans several members of one class
//! (a method rewritten with a helper added, two methods changed together), for test selection:
//! each patch's members compared with the original's, text for text.

use super::member::{member_at, Member};
use std::ops::Range;
use tree_sitter::Node;

/// Why the members a set's patches change cannot be listed (their tests are then every test).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unlisted {
    #[error("the location is not among the members of one class body")]
    NotAmongMembers,
    #[error("the file does not parse cleanly")]
    Unparsed,
    /// javac reads `\u` escapes before names: a name could be spelled otherwise.
    #[error("the file holds a `\\u` escape")]
    Escape,
    #[error("a patch changes the class body's bounds")]
    Bounds,
    #[error("a patch changes a `{0}`")]
    Changes(String),
    #[error("a changed member is {0}")]
    ChangedMember(String),
    #[error("a patch adds a `{0}`")]
    Adds(String),
    #[error("a patch adds the method `{0}`, not private")]
    NotPrivate(String),
    #[error("a patch adds the method `{0}`, a name the rest of the file uses")]
    NamedElsewhere(String),
}

/// `None` when `range` lies inside one member's body or declaration (`member::member_at`
/// answers). Else the members of the class whose body holds `range` that some patch of
/// `patches` changes or removes, as (internal class name, method name as javac names it), each
/// once; or why no such list can stand for what the patches change (their tests are then every
/// test).
///
/// A member every patch leaves byte for byte as it is changes nothing. A patch may add a method
/// only where nothing but its own text can run it: `private` (so no override, no call from
/// another class) and named nowhere in the file outside the location (so no unchanged caller's
/// overload resolution can pick it). Any other change — a field, an initialiser, a nested type,
/// a constructor added, a method's header changed to one the class did not have — gives no
/// list: a field initialiser may be a constant other code inlines, a new overload or override
/// may be picked by callers elsewhere. A patch whose file does not parse selects nothing of its
/// own (javac rejects it).
pub fn changed_members(
    src: &str,
    range: Range<usize>,
    patches: &[String],
) -> Option<Result<Vec<(String, String)>, Unlisted>> {
    let tree = super::parser().parse(src, None)?;
    match place(tree.root_node(), &range) {
        Place::InsideOne => None,
        Place::Elsewhere => Some(Err(Unlisted::NotAmongMembers)),
        Place::Among(body) => Some(among(src, tree.root_node(), body, range, patches)),
    }
}

/// [`changed_members`] for a location among the members of `body`.
fn among(
    src: &str,
    root: Node,
    body: Node,
    range: Range<usize>,
    patches: &[String],
) -> Result<Vec<(String, String)>, Unlisted> {
    if root.has_error() {
        return Err(Unlisted::Unparsed);
    }
    if src.contains("\\u") {
        return Err(Unlisted::Escape);
    }
    let original = members_in(body, &range);
    let outside_names = names_outside(root, src, &range);
    let mut changed: Vec<(String, String)> = Vec::new();
    for patch in patches {
        let text = format!("{}{patch}{}", &src[..range.start], &src[range.end..]);
        let Some(tree) = super::parser().parse(&text, None) else {
            continue;
        };
        if tree.root_node().has_error() {
            continue;
        }
        let region = range.start..range.start + patch.len();
        let body2 = match place(tree.root_node(), &region) {
            Place::Among(b) if b.start_byte() == body.start_byte() => b,
            _ => return Err(Unlisted::Bounds),
        };
        let patched = members_in(body2, &region);
        let same = |a: &Node, b: &Node| src[a.byte_range()] == text[b.byte_range()];
        // The original's members this patch changes or removes.
        let gone: Vec<Node> = original
            .iter()
            .filter(|o| !patched.iter().any(|p| same(o, p)))
            .copied()
            .collect();
        for o in &gone {
            match o.kind() {
                "method_declaration" | "constructor_declaration" => {}
                k => return Err(Unlisted::Changes(k.to_string())),
            }
            let (class, method) = match member_at(src, o.byte_range()) {
                Member::Method { class, method } => (class, method),
                Member::Unknown(why) => return Err(Unlisted::ChangedMember(why)),
            };
            if !changed.contains(&(class.clone(), method.clone())) {
                changed.push((class, method));
            }
        }
        // The members this patch writes anew: a changed one keeps its header, an added one
        // runs only through the patch's own code.
        for p in patched
            .iter()
            .filter(|p| !original.iter().any(|o| same(o, p)))
        {
            let keeps = gone
                .iter()
                .any(|o| o.kind() == p.kind() && header(o, src) == header(p, &text));
            if keeps {
                continue;
            }
            if p.kind() != "method_declaration" {
                return Err(Unlisted::Adds(p.kind().to_string()));
            }
            let name = p
                .child_by_field_name("name")
                .map(|n| &text[n.byte_range()])
                .unwrap_or_default();
            if !is_private(*p, &text) {
                return Err(Unlisted::NotPrivate(name.to_string()));
            }
            if outside_names.contains(name) || name.is_empty() {
                return Err(Unlisted::NamedElsewhere(name.to_string()));
            }
        }
    }
    Ok(changed)
}

/// Where `range` lies: inside one member (a method's or constructor's body, an initialiser, a
/// field's declaration: `member::member_at` answers), or among the members of a class body,
/// strictly inside its braces, touching a member's header or several members.
enum Place<'t> {
    InsideOne,
    Among(Node<'t>),
    Elsewhere,
}

fn place<'t>(root: Node<'t>, range: &Range<usize>) -> Place<'t> {
    let Some(mut n) = root.descendant_for_byte_range(range.start, range.end.max(range.start))
    else {
        return Place::Elsewhere;
    };
    let holds = |n: Node| n.start_byte() <= range.start && range.end <= n.end_byte();
    loop {
        let body_of_member = matches!(n.kind(), "block" | "constructor_body")
            && n.parent().is_some_and(|p| {
                matches!(
                    p.kind(),
                    "method_declaration"
                        | "constructor_declaration"
                        | "static_initializer"
                        | "class_body"
                        | "enum_body_declarations"
                )
            });
        if (body_of_member || n.kind() == "field_declaration") && holds(n) {
            return Place::InsideOne;
        }
        if matches!(
            n.kind(),
            "class_body" | "interface_body" | "enum_body_declarations"
        ) && n.start_byte() < range.start
            && range.end < n.end_byte()
        {
            return Place::Among(n);
        }
        match n.parent() {
            Some(p) => n = p,
            None => return Place::Elsewhere,
        }
    }
}

/// Every identifier of the file outside `range`.
fn names_outside(
    root: Node,
    src: &str,
    range: &Range<usize>,
) -> std::collections::BTreeSet<String> {
    let mut names = std::collections::BTreeSet::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if range.start <= n.start_byte() && n.end_byte() <= range.end {
            continue;
        }
        if n.kind().ends_with("identifier") && n.child_count() == 0 {
            names.insert(src[n.byte_range()].to_string());
        }
        let mut cur = n.walk();
        stack.extend(n.children(&mut cur));
    }
    names
}

/// The members of `body` (comments left out) that overlap `range`.
fn members_in<'t>(body: Node<'t>, range: &Range<usize>) -> Vec<Node<'t>> {
    let mut cur = body.walk();
    body.named_children(&mut cur)
        .filter(|c| !c.kind().ends_with("comment"))
        .filter(|c| c.start_byte() < range.end && range.start < c.end_byte())
        .collect()
}

/// A method's or constructor's text up to its body: modifiers, annotations, type parameters,
/// result, name, parameters and `throws`, whitespace-normalised.
pub(super) fn header(n: &Node, text: &str) -> String {
    let end = n
        .child_by_field_name("body")
        .map_or(n.end_byte(), |b| b.start_byte());
    text[n.start_byte()..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

pub(super) fn is_private(n: Node, text: &str) -> bool {
    let mut cur = n.walk();
    let modifiers = n.children(&mut cur).find(|c| c.kind() == "modifiers");
    modifiers.is_some_and(|m| {
        let mut cur = m.walk();
        let private = m
            .children(&mut cur)
            .any(|k| &text[k.byte_range()] == "private");
        private
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"package org.x;
public class Calc {
    static int k;

    /** Sums. */
    static int sum(int[] xs) {
        int s = 0;
        for (int x : xs) s += x;
        return s;
    }

    static int mean(int[] xs) {
        return sum(xs) / xs.length;
    }

    static int max(int[] xs) {
        int m = xs[0];
        for (int x : xs) m = Math.max(m, x);
        return m;
    }
}
"#;

    /// The range from `from`'s start to `to`'s end in SRC, and each patch as that range's text
    /// with `edits` (old, new) applied.
    fn set(from: &str, to: &str, patches: &[&[(&str, &str)]]) -> (Range<usize>, Vec<String>) {
        let start = SRC.find(from).unwrap();
        let end = SRC.find(to).unwrap() + to.len();
        let patches = patches
            .iter()
            .map(|edits| {
                let mut t = SRC[start..end].to_string();
                for (old, new) in *edits {
                    assert!(t.contains(old), "{old}");
                    t = t.replacen(old, new, 1);
                }
                t
            })
            .collect();
        (start..end, patches)
    }

    fn m(name: &str) -> (String, String) {
        ("org/x/Calc".into(), name.into())
    }

    #[test]
    fn two_methods_changed_are_both_and_only_the_changed_ones() {
        let (r, p) = set(
            "/** Sums. */",
            "return m;\n    }",
            &[
                &[
                    ("int s = 0;", "int s = 1;"),
                    ("m = Math.max(m, x)", "m = x"),
                ],
                &[
                    ("/** Sums. */", "/** Sums all. */"),
                    ("xs.length", "(xs.length + 1)"),
                ],
            ],
        );
        assert_eq!(
            changed_members(SRC, r, &p),
            Some(Ok(vec![m("sum"), m("max"), m("mean")]))
        );
    }

    #[test]
    fn a_private_helper_added_runs_only_through_the_patch() {
        let helper = "static int mean(int[] xs) {\n        return half(sum(xs), xs.length);\n    }\n\n    private static int half(int a, int n) {\n        return a / n;\n    }";
        let (r, p) = set(
            "static int mean",
            "xs.length;\n    }",
            &[&[(
                "static int mean(int[] xs) {\n        return sum(xs) / xs.length;\n    }",
                helper,
            )]],
        );
        assert_eq!(
            changed_members(SRC, r.clone(), &p),
            Some(Ok(vec![m("mean")]))
        );
        // Not private: a subclass or another class could call it.
        let public = p[0].replace("private static int half", "static int half");
        let e = refused(changed_members(SRC, r.clone(), &[public]));
        assert!(e.contains("not private"), "{e}");
        // Named elsewhere in the file: an unchanged caller's overload could become it.
        let named = p[0].replace("half", "sum");
        let e = refused(changed_members(SRC, r, &[named]));
        assert!(e.contains("a name the rest of the file uses"), "{e}");
    }

    #[test]
    fn fields_headers_and_single_members_give_no_list() {
        let (r, p) = set(
            "static int k;",
            "xs.length;\n    }",
            &[&[("static int k;", "static int k = 2;"), ("xs.length", "2")]],
        );
        assert!(refused(changed_members(SRC, r, &p)).contains("field"));
        // A header changed: the old method removed, a new one (not private) added.
        let (r, p) = set(
            "static int mean",
            "return m;\n    }",
            &[&[(
                "static int max(int[] xs)",
                "public static int max(int... xs)",
            )]],
        );
        assert!(refused(changed_members(SRC, r, &p)).contains("not private"));
        // Inside one method: `member_at` answers.
        let (r, p) = set("int s = 0;", "return s;", &[&[("0", "1")]]);
        assert_eq!(changed_members(SRC, r, &p), None);
    }

    #[test]
    fn a_patch_that_does_not_parse_selects_nothing_of_its_own() {
        let (r, mut p) = set(
            "static int mean",
            "return m;\n    }",
            &[&[("xs.length", "xs.length + 1")]],
        );
        p.push(p[0].replace("return m;", "return m"));
        assert_eq!(changed_members(SRC, r, &p), Some(Ok(vec![m("mean")])));
    }

    fn refused(r: Option<Result<Vec<(String, String)>, Unlisted>>) -> String {
        r.expect("among members").expect_err("no list").to_string()
    }
}
