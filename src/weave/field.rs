//! A location in the initialiser of an instance field: the initialiser moves into a private
//! method of its own, called where it stood (`List<T> items = E;` → `List<T> items =
//! __pv_init_items(); private List<T> __pv_init_items() { return E; }`, the lines kept), so that
//! the location is in a method body the schemata can weave. Done only where a method returning
//! the value judges every patch as the initialiser would (DESIGN.md, "Weaving", "Field
//! initialisers"): the names a patch must not mention for that are returned with the file.

use super::text;
use std::collections::BTreeSet;
use std::ops::Range;
use tree_sitter::Node;

/// The file with the initialiser moved, where the location is then, and the fields a patch may
/// not name to be woven.
#[derive(Debug)]
pub struct Hoisted {
    pub src: String,
    pub range: Range<usize>,
    /// The field itself, the instance fields declared at or after it in its class (a forward
    /// reference is an error in an initialiser and not in a method) and the instance blank
    /// finals (read before their assignment, an error in an initialiser only). Static fields
    /// are initialised before any instance initialiser runs, which may name them all.
    pub guarded: BTreeSet<String>,
}

/// Types whose `final` fields can be constant variables (whose initialiser javac folds).
const CONSTANT_TYPES: &[&str] = &[
    "byte",
    "short",
    "char",
    "int",
    "long",
    "float",
    "double",
    "boolean",
    "String",
    "java.lang.String",
];

/// `None` unless `range` lies in the initialiser of an instance field of a named class
/// (not an enum, interface or anonymous class, whose instances or initialisers differ), none
/// of whose constructors declares exceptions, the initialiser being an expression (not an array
/// initialiser) and the field not a possible constant (`final` of a primitive or `String`).
pub fn hoist(src: &str, range: Range<usize>) -> Option<Hoisted> {
    let tree = super::parser().parse(src, None)?;
    let mut n = tree
        .root_node()
        .descendant_for_byte_range(range.start, range.end)?;
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
        || declarator.child_by_field_name("dimensions").is_some()
    {
        return None;
    }
    let declaration = declarator.parent()?;
    let body = declaration.parent()?;
    if declaration.kind() != "field_declaration"
        || body.kind() != "class_body"
        || body.parent()?.kind() != "class_declaration"
    {
        return None;
    }
    let modifiers = modifier_words(src, declaration);
    let ty = text(src, declaration.child_by_field_name("type")?);
    if modifiers.contains(&"static")
        || (modifiers.contains(&"final") && CONSTANT_TYPES.contains(&ty))
    {
        return None;
    }
    let mut c = body.walk();
    let members: Vec<Node> = body.named_children(&mut c).collect();
    let throws = |m: &Node| {
        let mut c = m.walk();
        let found = m.children(&mut c).any(|k| k.kind() == "throws");
        found
    };
    if members
        .iter()
        .any(|m| m.kind() == "constructor_declaration" && throws(m))
    {
        return None;
    }
    let name = text(src, declarator.child_by_field_name("name")?);
    let method = format!("__pv_init_{name}");
    if src.contains(&method) {
        return None;
    }
    let mut guarded = BTreeSet::new();
    for m in members.iter().filter(|m| m.kind() == "field_declaration") {
        let words = modifier_words(src, *m);
        if words.contains(&"static") {
            continue;
        }
        let at_or_after = m.start_byte() >= declaration.start_byte();
        let blank_final = words.contains(&"final");
        let mut c = m.walk();
        for d in m.children_by_field_name("declarator", &mut c) {
            let no_value = d.child_by_field_name("value").is_none();
            if at_or_after || (blank_final && no_value) {
                if let Some(n) = d.child_by_field_name("name") {
                    guarded.insert(text(src, n).to_string());
                }
            }
        }
    }
    // `T f = E;` → `T f = __pv_init_f(); private T __pv_init_f() { return E; }`: the call takes
    // one line where E took its lines, and the method adds them back after the declaration.
    let call = format!("{method}()");
    let head = format!(" private {ty} {method}() {{ return ");
    let end = declaration.end_byte();
    let out = format!(
        "{}{call}{}{head}{}; }}{}",
        &src[..value.start_byte()],
        &src[value.end_byte()..end],
        text(src, value),
        &src[end..]
    );
    // Where the value now starts: after everything before the declaration's end, shifted by
    // the call replacing the value, and the method's head.
    let moved = end - value.byte_range().len() + call.len() + head.len();
    let offset = moved - value.start_byte();
    Some(Hoisted {
        src: out,
        range: range.start + offset..range.end + offset,
        guarded,
    })
}

/// The words of a declaration's modifiers (`private`, `final`, annotations as written).
fn modifier_words<'a>(src: &'a str, declaration: Node) -> Vec<&'a str> {
    let mut c = declaration.walk();
    let words: Vec<&str> = declaration
        .children(&mut c)
        .filter(|k| k.kind() == "modifiers")
        .flat_map(|m| text(src, m).split_whitespace())
        .collect();
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "import java.util.*;\nclass Cart<T> {\n    private final List<T> items = new ArrayList<>(\n        4);\n    private int max = Integer.MIN_VALUE, min = 0;\n    private final int k = 3;\n    private static List<T> all = null;\n    private final String name;\n    private int[] xs = {1, 2};\n    Cart(String n) { name = n; }\n    int size() { return items.size(); }\n}\n";

    fn hoisted(src: &str, unpatched: &str) -> Option<Hoisted> {
        let start = src.find(unpatched).unwrap();
        let h = hoist(src, start..start + unpatched.len())?;
        assert_eq!(&h.src[h.range.clone()], unpatched);
        assert_eq!(super::super::syntax_errors(&h.src), 0, "{}", h.src);
        assert_eq!(h.src.lines().count(), src.lines().count(), "{}", h.src);
        Some(h)
    }

    #[test]
    fn an_instance_field_s_initialiser_moves_into_a_method_on_the_same_lines() {
        let h = hoisted(SRC, "new ArrayList<>(\n        4)").unwrap();
        assert!(h.src.contains(
            "items = __pv_init_items(); private List<T> __pv_init_items() { return new ArrayList<>(\n        4); }\n"
        ), "{}", h.src);
        // Itself, the later instance fields and the blank final `name`; not the static `all`.
        let names: Vec<&str> = h.guarded.iter().map(String::as_str).collect();
        assert_eq!(names, ["items", "k", "max", "min", "name", "xs"]);
        let h = hoisted(SRC, "MIN_VALUE").unwrap();
        assert!(h.src.contains("int max = __pv_init_max(), min = 0; private int __pv_init_max() { return Integer.MIN_VALUE; }"), "{}", h.src);
        assert!(!h.guarded.contains("items"));
    }

    #[test]
    fn what_a_method_would_judge_otherwise_stays_put() {
        // A possible constant, a static field, an array initialiser.
        for unpatched in ["3;", "null;", "{1, 2}"] {
            let u = unpatched.trim_end_matches(';');
            assert!(hoisted(SRC, u).is_none(), "{u}");
        }
        // A constructor that declares exceptions; an enum; an anonymous class.
        let throws = SRC.replace("Cart(String n) {", "Cart(String n) throws Exception {");
        assert!(hoisted(&throws, "MIN_VALUE").is_none());
        let en = "enum E { A; private int v = 1 + 2; }\n";
        assert!(hoisted(en, "1 + 2").is_none());
        let anon = "class A { Object o = new Object() { int v = 1 + 2; }; }\n";
        assert!(hoisted(anon, "1 + 2").is_none());
    }
}
