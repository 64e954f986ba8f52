//! A location in the initialiser of a local variable: the declaration is split in place
//! (`int mid = E;` → `int mid; mid = E;`, on the same line) so that the location becomes an
//! assignment statement the schemata can weave, while the variable stays declared for the code
//! after it. See docs/weaving.md for why no verdict changes.

use super::text;
use std::ops::Range;
use tree_sitter::Node;

/// The file with the declaration holding `range` split, and where `range` is then; `None` when
/// the location is not inside the initialiser of the last declarator of a local declaration
/// that may be split (directly in a block, not `final`, not `var`, not an array initialiser).
pub fn split_declaration(src: &str, range: Range<usize>) -> Option<(String, Range<usize>)> {
    let tree = super::parser().parse(src, None)?;
    let (declarator, _) = initialiser_at(tree.root_node(), &range)?;
    let declaration = declarator.parent()?;
    if declaration.kind() != "local_variable_declaration"
        || !declaration
            .parent()
            .is_some_and(|b| matches!(b.kind(), "block" | "switch_block_statement_group"))
        || splits_badly(src, declaration, declarator)
    {
        return None;
    }
    let name = text(src, declarator.child_by_field_name("name")?);
    let after = declarator
        .child_by_field_name("dimensions")
        .unwrap_or(declarator.child_by_field_name("name")?)
        .end_byte();
    let insert = format!("; {name}");
    let out = format!("{}{insert}{}", &src[..after], &src[after..]);
    let shift = insert.len();
    Some((out, range.start + shift..range.end + shift))
}

/// The variable declarator whose initialiser holds all of `range`, and that initialiser, when it
/// is an expression (an array initialiser `{1, 2}` initialises but is no expression).
pub(super) fn initialiser_at<'t>(
    root: Node<'t>,
    range: &Range<usize>,
) -> Option<(Node<'t>, Node<'t>)> {
    let mut n = root.descendant_for_byte_range(range.start, range.end)?;
    let declarator = loop {
        if n.kind() == "variable_declarator" {
            break n;
        }
        n = n.parent()?;
    };
    let value = declarator.child_by_field_name("value")?;
    if value.start_byte() > range.start
        || range.end > value.end_byte()
        || value.kind() == "array_initializer"
    {
        return None;
    }
    Some((declarator, value))
}

/// A declaration that must keep its initialiser: `final` (a constant variable, a blank final
/// elsewhere), `var` (the type comes from it), or a declarator that is not the last (the ones
/// after it would move past the assignment).
fn splits_badly(src: &str, declaration: Node, declarator: Node) -> bool {
    let mut c = declaration.walk();
    let is_final = declaration
        .children(&mut c)
        .filter(|k| k.kind() == "modifiers")
        .any(|m| text(src, m).split_whitespace().any(|w| w == "final"));
    let is_var = declaration
        .child_by_field_name("type")
        .is_some_and(|t| text(src, t) == "var");
    let mut c = declaration.walk();
    let last = declaration
        .children_by_field_name("declarator", &mut c)
        .last()
        .is_some_and(|d| d.id() == declarator.id());
    is_final || is_var || !last
}

/// When the unpatched text is a whole local or field declaration (`String text = E;`), the
/// range of its last declarator's initialiser, and for each patch that keeps everything around
/// that initialiser (`String text = E2;`), the new initialiser `E2` (`None` for the others).
pub fn narrow(
    src: &str,
    range: Range<usize>,
    patches: &[String],
) -> Option<(Range<usize>, Vec<Option<String>>)> {
    let tree = super::parser().parse(src, None)?;
    let stmt = tree
        .root_node()
        .descendant_for_byte_range(range.start, range.end)?;
    let stmt = std::iter::successors(Some(stmt), |n| n.parent()).find(|n| {
        n.byte_range() == range
            && matches!(n.kind(), "local_variable_declaration" | "field_declaration")
    })?;
    let mut c = stmt.walk();
    let value = stmt
        .children_by_field_name("declarator", &mut c)
        .last()?
        .child_by_field_name("value")?;
    let prefix = &src[range.start..value.start_byte()];
    let suffix = &src[value.end_byte()..range.end];
    let inner = patches
        .iter()
        .map(|p| {
            let inner = p.strip_prefix(prefix)?.strip_suffix(suffix)?;
            (!inner.trim().is_empty()).then(|| inner.to_string())
        })
        .collect();
    Some((value.byte_range(), inner))
}

/// Why patch text `patch` cannot be the right-hand side of an assignment although it can
/// initialise a declaration: an array initialiser (`{1, 2}`).
pub fn unassignable(patch: &str) -> Option<String> {
    patch.trim_start().starts_with('{').then(|| {
        "an array initialiser initialises a declaration but cannot be assigned: validated alone"
            .to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(src: &str, unpatched: &str) -> Option<String> {
        let start = src.find(unpatched).unwrap();
        let (out, range) = split_declaration(src, start..start + unpatched.len())?;
        assert_eq!(&out[range], unpatched);
        Some(out)
    }

    const SRC: &str = "class A {\n  int f(int lo, int hi, int[] xs) {\n    int mid = (lo + hi) >>> 1;\n    int a = 1, b = a + 2;\n    int c[] = new int[3];\n    final int k = 4;\n    var v = 5;\n    int[] d = {1, 2};\n    for (int i = lo; i < hi; i++) { }\n    return mid + b + c.length + k + v + d.length;\n  }\n}\n";

    #[test]
    fn splits_a_plain_declaration_on_its_line() {
        let out = split(SRC, "(lo + hi) >>> 1").unwrap();
        assert!(
            out.contains("    int mid; mid = (lo + hi) >>> 1;\n"),
            "{out}"
        );
        assert_eq!(out.lines().count(), SRC.lines().count());
        let out = split(SRC, "a + 2").unwrap();
        assert!(out.contains("int a = 1, b; b = a + 2;"), "{out}");
        let out = split(SRC, "new int[3]").unwrap();
        assert!(out.contains("int c[]; c = new int[3];"), "{out}");
        // Part of an initialiser.
        let out = split(SRC, "lo + hi").unwrap();
        assert!(out.contains("int mid; mid = (lo + hi) >>> 1;"), "{out}");
    }

    #[test]
    fn a_whole_declaration_narrows_to_its_initialiser() {
        let stmt = "int a = 1, b = a + 2;";
        let start = SRC.find(stmt).unwrap();
        let patches = [
            "int a = 1, b = a - 2;".to_string(),
            "int a = 1, b = a;".to_string(),
            "long a = 1, b = a + 2;".to_string(),
            "int a = 1, b = ;".to_string(),
        ];
        let (value, inner) = narrow(SRC, start..start + stmt.len(), &patches).unwrap();
        assert_eq!(&SRC[value], "a + 2");
        assert_eq!(
            inner,
            [Some("a - 2".to_string()), Some("a".to_string()), None, None]
        );
        // Part of a statement is no whole declaration.
        assert!(narrow(SRC, start..start + 9, &patches).is_none());
    }

    #[test]
    fn leaves_what_must_keep_its_initialiser() {
        for unpatched in ["4", "5", "{1, 2}", "1, b"] {
            assert_eq!(split(SRC, unpatched), None, "{unpatched}");
        }
        // `int a = 1` is not the last declarator.
        let start = SRC.find("= 1,").unwrap() + 2;
        assert!(split_declaration(SRC, start..start + 1).is_none());
        // A `for` loop's own declaration.
        let start = SRC.find("int i = lo").unwrap() + 8;
        assert!(split_declaration(SRC, start..start + 2).is_none());
        assert!(unassignable(" {3}").is_some() && unassignable("new int[] {3}").is_none());
    }
}
