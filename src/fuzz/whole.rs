//! Function-level shapes: each patch the whole method around a location, as a function-level
//! repairer writes it back (its javadoc with it), the location's statement replaced by one of
//! the operators' patches and the rest reshaped the way such a repairer does: a local renamed
//! throughout, the body re-indented, a comment added, the javadoc reworded, a private helper
//! added and called.

use super::rng::Rng;
use super::spot::{Mutant, Spot};
use std::ops::Range;
use tree_sitter::Node;

/// The shapes, each an operator of its own, in the order they are applied (those inserting at
/// the location first, while its offset is known).
const SHAPES: [&str; 5] = [
    "whole-helper",
    "whole-comment",
    "whole-javadoc",
    "whole-rename",
    "whole-indent",
];

/// The method around `s` (with its javadoc) and, for each of `muts`, that method rewritten
/// whole with the mutant at the location and one or two shapes applied; `None` outside a
/// method or constructor.
pub fn rewrite(s: &Spot, muts: &[Mutant], rng: &mut Rng) -> Option<(Range<usize>, Vec<Mutant>)> {
    let method = enclosing(s.stmt)?;
    let range = with_javadoc(s.src, method);
    let text = &s.src[range.clone()];
    let at = s.stmt.start_byte() - range.start..s.stmt.end_byte() - range.start;
    let local = locals(method, s.src);
    let mut out = Vec::new();
    for (k, m) in muts.iter().enumerate() {
        let mut patched = format!("{}{}{}", &text[..at.start], m.text, &text[at.end..]);
        let mut start = at.start;
        let mut op = "whole";
        let mut shapes: Vec<&str> = (0..1 + rng.below(2))
            .map(|_| SHAPES[rng.below(SHAPES.len())])
            .collect();
        shapes.sort_by_key(|s| SHAPES.iter().position(|t| t == s));
        shapes.dedup();
        for shape in shapes {
            let done = match shape {
                "whole-helper" => {
                    let name = format!("pvHelper{k}");
                    (!s.src.contains(&name)).then(|| {
                        format!(
                            "{}{name}();\n        {}\n\n    private static boolean {name}() {{\n        return true;\n    }}",
                            &patched[..start],
                            &patched[start..]
                        )
                    })
                }
                "whole-comment" => {
                    let line = patched[..start].rfind('\n').map_or(0, |i| i + 1);
                    let pad: String = patched[line..start]
                        .chars()
                        .take_while(|c| c.is_whitespace())
                        .collect();
                    let comment = format!("{pad}// rewritten\n");
                    start += comment.len();
                    Some(format!("{}{comment}{}", &patched[..line], &patched[line..]))
                }
                "whole-javadoc" => patched
                    .starts_with("/**")
                    .then(|| patched.replacen("/**", "/**\n     * Rewritten.", 1)),
                "whole-rename" => local
                    .get(rng.below(local.len().max(1)))
                    .and_then(|name| rename(&patched, name, s.src)),
                _ => indent(&patched),
            };
            if let Some(p) = done {
                patched = p;
                op = shape;
            }
        }
        if patched != text && !out.iter().any(|o: &Mutant| o.text == patched) {
            out.push(Mutant { text: patched, op });
        }
    }
    Some((range, out))
}

/// The method or constructor declaring `n`.
fn enclosing(n: Node) -> Option<Node> {
    let mut m = n.parent()?;
    while !matches!(m.kind(), "method_declaration" | "constructor_declaration") {
        if matches!(m.kind(), "class_body" | "lambda_expression") {
            return None;
        }
        m = m.parent()?;
    }
    Some(m)
}

/// `method`'s range, from its javadoc when whitespace alone lies between them.
fn with_javadoc(src: &str, method: Node) -> Range<usize> {
    match method.prev_sibling() {
        Some(c)
            if c.kind() == "block_comment"
                && src[c.byte_range()].starts_with("/**")
                && src[c.end_byte()..method.start_byte()].trim().is_empty() =>
        {
            c.start_byte()..method.end_byte()
        }
        _ => method.byte_range(),
    }
}

/// Names of the locals `method`'s body declares.
fn locals(method: Node, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![method];
    let mut c = method.walk();
    while let Some(n) = stack.pop() {
        if n.kind() == "variable_declarator"
            && n.parent()
                .is_some_and(|p| p.kind() == "local_variable_declaration")
        {
            if let Some(name) = n.child_by_field_name("name") {
                out.push(src[name.byte_range()].to_string());
            }
        }
        stack.extend(n.children(&mut c));
    }
    out.sort();
    out.dedup();
    out
}

/// `method` (a whole method's text) with every identifier `name` that is not a member
/// selected after a `.` renamed; `None` when it does not parse or the new name is taken.
fn rename(method: &str, name: &str, src: &str) -> Option<String> {
    let new = format!("pv{name}");
    if src.contains(&new) {
        return None;
    }
    let wrapped = format!("class PvWhole {{\n{method}\n}}");
    let offset = "class PvWhole {\n".len();
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_java::LANGUAGE.into()).ok()?;
    let tree = p.parse(&wrapped, None)?;
    if tree.root_node().has_error() {
        return None;
    }
    let mut hits = Vec::new();
    let mut stack = vec![tree.root_node()];
    let mut c = tree.walk();
    while let Some(n) = stack.pop() {
        if n.kind() == "identifier" && &wrapped[n.byte_range()] == name {
            let selected = n.prev_sibling().is_some_and(|s| s.kind() == ".");
            let called = n.parent().is_some_and(|p| {
                p.kind() == "method_invocation"
                    && p.child_by_field_name("name")
                        .is_some_and(|k| k.id() == n.id())
            });
            if !selected && !called {
                hits.push(n.byte_range());
            }
        }
        stack.extend(n.children(&mut c));
    }
    hits.sort_by_key(|r| std::cmp::Reverse(r.start));
    let mut out = method.to_string();
    for r in hits {
        out.replace_range(r.start - offset..r.end - offset, &new);
    }
    Some(out)
}

/// Every line but the first two spaces further in; `None` when a text block could hold one.
fn indent(method: &str) -> Option<String> {
    (!method.contains("\"\"\"")).then(|| method.replace('\n', "\n  "))
}

#[cfg(test)]
mod tests {
    use super::super::{declared, locate, mutate};
    use super::*;

    const SRC: &str = "package p;\n\npublic class W {\n    private int total;\n\n    /** Twice. */\n    static int twice(int x) {\n        int y = x * 2;\n        return y;\n    }\n}\n";

    #[test]
    fn every_shape_rewrites_the_method_whole_and_parses() {
        let files = vec![locate::parse_source("src/p/W.java", SRC.into(), true).unwrap()];
        let exceptions = declared::exceptions(&files);
        let stmt = "int y = x * 2;";
        let start = SRC.find(stmt).unwrap();
        let spot = locate::spot(&files[0], &(start..start + stmt.len()), &exceptions).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let mut rng = Rng::new(seed);
            for k in mutate::generate(&spot, &mut rng, 6) {
                let base = SRC.replacen(stmt, &k.text, 1);
                let (range, whole) = rewrite(&spot, std::slice::from_ref(&k), &mut rng).unwrap();
                assert!(SRC[range.clone()].starts_with("/** Twice. */"));
                assert!(SRC[range.clone()].ends_with("return y;\n    }"));
                for m in whole {
                    let file = format!("{}{}{}", &SRC[..range.start], m.text, &SRC[range.end..]);
                    // The shapes never break a mutant that parses where it stands.
                    if crate::weave::syntax_errors(&base) == 0 {
                        assert_eq!(crate::weave::syntax_errors(&file), 0, "{}\n{file}", m.op);
                    }
                    if m.op == "whole-rename" {
                        assert!(
                            m.text.contains("pvy") || m.text.contains("pvx"),
                            "{}",
                            m.text
                        );
                    }
                    seen.insert(m.op);
                }
            }
        }
        for shape in SHAPES {
            assert!(seen.contains(shape), "{shape} never made: {seen:?}");
        }
    }
}
