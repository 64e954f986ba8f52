//! Private methods a patch adds beside its code (a function-level repairer's helper), found in
//! its patched file to be woven as members of their own: methods nothing but the patch's own
//! code can run, so that every other patch of the set runs as if they were not there.

use std::collections::BTreeSet;
use std::ops::Range;
use tree_sitter::Node;

/// A method a patch adds: where its declaration stands in the whole patched file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Added {
    pub name: String,
    pub range: Range<usize>,
}

/// Why a patch's added member cannot be woven beside the others' code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the patched file does not parse cleanly")]
    Unparsed,
    #[error("the patch adds a method that is not private (`{0}`)")]
    NotPrivate(String),
    #[error("the patch adds an annotated method (`{0}`)")]
    Annotated(String),
    #[error("the patch adds `{0}`, a method serialization calls by its name")]
    Hook(String),
    #[error("the patch adds the method `{0}`, a name the file already uses")]
    NameInFile(String),
    #[error("the patch adds a method outside a class body (`{0}`)")]
    NotMember(String),
}

/// Methods serialization finds by name, private or not.
const HOOKS: [&str; 5] = [
    "writeObject",
    "readObject",
    "readObjectNoData",
    "writeReplace",
    "readResolve",
];

/// The methods `patched` (the whole patched file, whose patched text is `region`) declares
/// where they overlap `region` (a helper may end in the original's text: a patch that closes
/// its method early and opens the helper, whose body the original's ends) that `src` has no
/// method of the same header for: each must be a `private`
/// method of a class body, without annotations, not a serialization hook, and named by no
/// token of `src` (so no call the original file makes, and no overload it resolves, can reach
/// it). Nested declarations (a local or anonymous class's methods) are the patch's code.
pub fn added_methods(
    src: &str,
    patched: &str,
    region: Range<usize>,
) -> Result<Vec<Added>, Refused> {
    let mut p = super::parser();
    let (Some(orig), Some(new)) = (p.parse(src, None), p.parse(patched, None)) else {
        return Err(Refused::Unparsed);
    };
    added_in(src, &orig, patched, &new, region)
}

/// [`added_methods`] of parsed files.
pub(super) fn added_in(
    src: &str,
    orig: &tree_sitter::Tree,
    patched: &str,
    new: &tree_sitter::Tree,
    region: Range<usize>,
) -> Result<Vec<Added>, Refused> {
    if new.root_node().has_error() {
        return Err(Refused::Unparsed);
    }
    let mut headers = BTreeSet::new();
    let mut names = BTreeSet::new();
    walk(orig.root_node(), &mut |n| {
        if n.kind() == "method_declaration" {
            headers.insert(super::members::header(&n, src));
        }
        if n.kind().ends_with("identifier") && n.child_count() == 0 {
            names.insert(src[n.byte_range()].to_string());
        }
        true
    });
    let mut out = Vec::new();
    let mut refused = None;
    walk(new.root_node(), &mut |n| {
        let overlaps = n.start_byte() < region.end && region.start < n.end_byte();
        if n.kind() != "method_declaration" || !overlaps {
            // Into the nodes that may hold a member declared in the region.
            return overlaps;
        }
        if headers.contains(&super::members::header(&n, patched)) {
            return false;
        }
        let name = n
            .child_by_field_name("name")
            .map(|k| patched[k.byte_range()].to_string())
            .unwrap_or_default();
        let why = if n.parent().is_none_or(|b| b.kind() != "class_body") {
            Some(Refused::NotMember(name.clone()))
        } else if !super::members::is_private(n, patched) {
            Some(Refused::NotPrivate(name.clone()))
        } else if annotated(n) {
            Some(Refused::Annotated(name.clone()))
        } else if HOOKS.contains(&name.as_str()) {
            Some(Refused::Hook(name.clone()))
        } else if names.contains(&name) || name.is_empty() {
            Some(Refused::NameInFile(name.clone()))
        } else {
            None
        };
        match why {
            Some(why) => {
                refused.get_or_insert(why);
            }
            None => out.push(Added {
                name,
                range: n.byte_range(),
            }),
        }
        false
    });
    match refused {
        Some(why) => Err(why),
        None => Ok(out),
    }
}

/// Calls `f` on `n` and, while it answers `true`, on the children of each node, in order.
fn walk<'t>(n: Node<'t>, f: &mut impl FnMut(Node<'t>) -> bool) {
    if f(n) {
        let mut c = n.walk();
        for k in n.children(&mut c).collect::<Vec<_>>() {
            walk(k, f);
        }
    }
}

fn annotated(n: Node) -> bool {
    let mut c = n.walk();
    let modifiers = n.children(&mut c).find(|k| k.kind() == "modifiers");
    modifiers.is_some_and(|m| {
        let mut c = m.walk();
        let any = m.children(&mut c).any(|k| k.kind().ends_with("annotation"));
        any
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str =
        "class A {\n    private int n;\n    int f(int x) {\n        return x + n;\n    }\n}\n";

    fn patched(with: &str) -> (String, Range<usize>) {
        let at = SRC.find("    int f").unwrap();
        let end = SRC.find("}\n}").unwrap() + 2;
        let text = format!("{}{with}{}", &SRC[..at], &SRC[end..]);
        (text, at..at + with.len())
    }

    #[test]
    fn a_private_helper_is_added_and_the_changed_method_is_not() {
        let (text, region) = patched(
            "    int f(int x) {\n        return twice(x) + n;\n    }\n\n    private static int twice(int x) {\n        return 2 * x;\n    }\n",
        );
        let added = added_methods(SRC, &text, region).unwrap();
        assert_eq!(added.len(), 1);
        assert_eq!(added[0].name, "twice");
        assert!(text[added[0].range.clone()].starts_with("private static int twice"));
        assert!(text[added[0].range.clone()].ends_with("}"));
    }

    #[test]
    fn helpers_that_other_code_could_reach_are_refused() {
        for (helper, why) in [
            ("int twice(int x) { return 2 * x; }", "not private"),
            (
                "@Deprecated private int twice(int x) { return 2 * x; }",
                "annotated",
            ),
            (
                "private void readObject(java.io.ObjectInputStream in) {}",
                "serialization",
            ),
            ("private int n(int x) { return x; }", "already uses"),
        ] {
            let (text, region) = patched(&format!(
                "    int f(int x) {{\n        return x + n;\n    }}\n    {helper}\n"
            ));
            let err = added_methods(SRC, &text, region).unwrap_err().to_string();
            assert!(err.contains(why), "{helper}: {err}");
        }
    }

    #[test]
    fn a_local_class_s_methods_are_the_patch_s_code() {
        let (text, region) = patched(
            "    int f(int x) {\n        class L { int g() { return 1; } }\n        return new L().g() + x + n;\n    }\n",
        );
        assert_eq!(added_methods(SRC, &text, region), Ok(vec![]));
    }
}
