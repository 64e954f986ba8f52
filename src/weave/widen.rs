//! Locations widened to the code around them, for patches the location itself cannot hold: a
//! body without braces given several statements, a declaration changed beyond its initialiser,
//! a local that later statements would see. Each patch's text grows by the same original text
//! on either side, so every plainly patched file is byte for byte what it was; only the unit
//! holding the patch grows (docs/weaving.md, "Widened locations").

use super::parser;
use std::ops::Range;
use tree_sitter::Node;

/// How far a location is widened.
/// Ordered by width: the rest of a block holds the statement that starts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reach {
    /// To the statement of a block (or switch group) that holds it: a body without braces
    /// becomes the `if` or loop around it.
    Statement,
    /// From that statement to the end of its block: the scope of every local the location
    /// declares then ends inside it.
    RestOfBlock,
}

impl Reach {
    pub fn as_str(self) -> &'static str {
        match self {
            Reach::Statement => "the statement around it",
            Reach::RestOfBlock => "the rest of its block",
        }
    }
}

/// Kinds whose children are the statements of a block.
const BLOCK_LIKE: &[&str] = &["block", "constructor_body", "switch_block_statement_group"];

/// The byte range `range` of `src` widened as `reach` says, or `None` when it cannot be (not
/// inside a method's block, already as wide, a parse with errors).
pub fn widen(src: &str, range: Range<usize>, reach: Reach) -> Option<Range<usize>> {
    let tree = parser().parse(src, None)?;
    let root = tree.root_node();
    if root.has_error() || range.is_empty() {
        return None;
    }
    let mut n = root.named_descendant_for_byte_range(range.start, range.end)?;
    while n.start_byte() > range.start || n.end_byte() < range.end {
        n = n.parent()?;
    }
    // The statement of a block around the location: the location itself may be a run of a
    // block's statements (then the covering node is the block).
    let (first, last) = if BLOCK_LIKE.contains(&n.kind())
        && (range.start > n.start_byte() && range.end < n.end_byte()
            || n.kind() == "switch_block_statement_group")
    {
        let mut c = n.walk();
        let kids: Vec<Node> = n
            .named_children(&mut c)
            .filter(|k| k.end_byte() > range.start && k.start_byte() < range.end)
            .collect();
        (*kids.first()?, *kids.last()?)
    } else {
        let mut s = n;
        while !s.parent().is_some_and(|p| BLOCK_LIKE.contains(&p.kind())) {
            s = s.parent()?;
            if matches!(s.kind(), "class_body" | "lambda_expression" | "program") {
                return None;
            }
        }
        (s, s)
    };
    let block = last.parent()?;
    // A declaration's unit needs the rest of its block, where its scope ends.
    let declares = super::scope::siblings_between(first, last)
        .iter()
        .any(|s| s.kind() == "local_variable_declaration");
    let reach = if declares { Reach::RestOfBlock } else { reach };
    let end = match reach {
        Reach::Statement => last.end_byte(),
        Reach::RestOfBlock => {
            if !matches!(block.kind(), "block" | "constructor_body") {
                return None;
            }
            let mut tail = last;
            while let Some(next) = tail.next_named_sibling() {
                tail = next;
            }
            // A comment closing the block stays outside (a unit cannot hold one).
            while tail.kind().ends_with("comment") && tail.id() != last.id() {
                tail = tail.prev_named_sibling()?;
            }
            tail.end_byte()
        }
    };
    let widened = first.start_byte().min(range.start)..end.max(range.end);
    (widened != range).then_some(widened)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "class A {\n  int f(int a) {\n    int x = a + 1;\n    if (a > 0) x++;\n    else x--;\n    { int y = x; x += y; }\n    return x; // done\n  }\n}\n";

    fn at(s: &str) -> Range<usize> {
        let i = SRC.find(s).unwrap();
        i..i + s.len()
    }

    #[test]
    fn a_body_without_braces_widens_to_its_if() {
        let w = widen(SRC, at("x++;"), Reach::Statement).unwrap();
        assert_eq!(&SRC[w], "if (a > 0) x++;\n    else x--;");
        let w = widen(SRC, at("x--;"), Reach::Statement).unwrap();
        assert_eq!(&SRC[w], "if (a > 0) x++;\n    else x--;");
    }

    #[test]
    fn a_declaration_widens_to_the_end_of_its_block() {
        let w = widen(SRC, at("int x = a + 1;"), Reach::RestOfBlock).unwrap();
        assert!(SRC[w.clone()].starts_with("int x = a + 1;"));
        assert!(
            SRC[w].ends_with("return x;"),
            "the closing comment stays out"
        );
        let w = widen(SRC, at("int y = x;"), Reach::RestOfBlock).unwrap();
        assert_eq!(&SRC[w], "int y = x; x += y;");
        // An expression inside the declaration widens from the declaration's start.
        let w = widen(SRC, at("a + 1"), Reach::RestOfBlock).unwrap();
        assert!(SRC[w].starts_with("int x = a + 1;"));
    }

    #[test]
    fn nothing_to_widen_or_a_declaration_to_its_block_end() {
        assert_eq!(widen(SRC, at("x += y;"), Reach::RestOfBlock), None);
        // A declaration's statement is the rest of its block.
        let w = widen(SRC, at("int x = a + 1;"), Reach::Statement).unwrap();
        assert!(SRC[w].ends_with("return x;"));
        assert_eq!(widen(SRC, at("int f"), Reach::Statement), None);
    }

    #[test]
    fn switch_groups_widen_to_a_statement_only() {
        let src = "class A { void f(int k) { switch (k) { case 1: int z = 2; k += z; break; default: } } }";
        let i = src.find("int z = 2;").unwrap();
        assert_eq!(widen(src, i..i + 10, Reach::RestOfBlock), None);
    }
}
