//! Which JVM member holds a source location: the binary name of its class and the name javac
//! gives the method whose code the location becomes part of (for test selection by coverage).

use std::ops::Range;
use tree_sitter::Node;

/// Where a location's code ends up after javac.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Member {
    /// In the body of `method` (`<init>` for constructors and instance initialisers, `<clinit>`
    /// for static initialisers) of the class with this internal name (`pkg/Outer$Inner`).
    Method { class: String, method: String },
    /// Somewhere coverage cannot name (an anonymous or local class, a field initialiser, ...).
    Unknown(String),
}

/// The member holding the byte range `range` of the compilation unit `src`.
pub fn member_at(src: &str, range: Range<usize>) -> Member {
    let mut p = super::parser();
    let Some(tree) = p.parse(src, None) else {
        return Member::Unknown("the file does not parse".into());
    };
    let root = tree.root_node();
    let Some(mut node) = root.descendant_for_byte_range(range.start, range.end.max(range.start))
    else {
        return Member::Unknown("no syntax node at the location".into());
    };
    let text = |n: Node| src[n.byte_range()].to_string();
    let mut method: Option<String> = None;
    let mut classes: Vec<String> = Vec::new();
    loop {
        match node.kind() {
            "method_declaration" if method.is_none() && classes.is_empty() => {
                match node.child_by_field_name("name") {
                    Some(n) => method = Some(text(n)),
                    None => return Member::Unknown("a method without a name".into()),
                }
            }
            "constructor_declaration" | "compact_constructor_declaration"
                if method.is_none() && classes.is_empty() =>
            {
                method = Some("<init>".into())
            }
            "static_initializer" if method.is_none() && classes.is_empty() => {
                method = Some("<clinit>".into())
            }
            "block"
                if method.is_none()
                    && classes.is_empty()
                    && node.parent().is_some_and(|p| {
                        matches!(p.kind(), "class_body" | "enum_body_declarations")
                    }) =>
            {
                method = Some("<init>".into())
            }
            "field_declaration" | "constant_declaration" if method.is_none() => {
                return Member::Unknown("a field initialiser".into())
            }
            "object_creation_expression" | "enum_constant"
                if node.child_by_field_name("body").is_some()
                    || node
                        .children(&mut node.walk())
                        .any(|c| c.kind() == "class_body") =>
            {
                return Member::Unknown("inside an anonymous class".into());
            }
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "annotation_type_declaration" => {
                let Some(name) = node.child_by_field_name("name") else {
                    return Member::Unknown("a type without a name".into());
                };
                let parent = node.parent().map(|p| p.kind()).unwrap_or("program");
                if !matches!(
                    parent,
                    "program"
                        | "class_body"
                        | "interface_body"
                        | "enum_body_declarations"
                        | "annotation_type_body"
                ) {
                    return Member::Unknown("inside a local class".into());
                }
                classes.push(text(name));
            }
            "program" => break,
            _ => {}
        }
        match node.parent() {
            Some(p) => node = p,
            None => break,
        }
    }
    let Some(method) = method else {
        return Member::Unknown("not inside a method, constructor or initialiser".into());
    };
    if classes.is_empty() {
        return Member::Unknown("not inside a class".into());
    }
    classes.reverse();
    let package = root
        .children(&mut root.walk())
        .find(|c| c.kind() == "package_declaration")
        .and_then(|p| {
            p.children(&mut p.walk())
                .find(|c| matches!(c.kind(), "scoped_identifier" | "identifier"))
        })
        .map(|n| {
            text(n)
                .split_whitespace()
                .collect::<String>()
                .replace('.', "/")
        });
    let class = match package {
        Some(pkg) => format!("{pkg}/{}", classes.join("$")),
        None => classes.join("$"),
    };
    Member::Method { class, method }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"package org.x;
public class Outer {
    static int k;
    static { k = 1; }
    { k = 2; }
    int f = 3;
    Outer() { k = 4; }
    int m(int a) {
        Runnable r = () -> { k = 5; };
        Object o = new Object() { public String toString() { k = 6; return ""; } };
        class Local { void g() { k = 7; } }
        return a + 8;
    }
    static class In {
        void n() { k = 9; }
        enum E { A { void p() { k = 10; } }; E() { k = 11; } }
    }
    interface I { default void d() { k = 12; } }
}
"#;

    fn at(needle: &str) -> Member {
        let start = SRC.find(needle).unwrap();
        member_at(SRC, start..start + needle.len())
    }

    fn method(class: &str, method: &str) -> Member {
        Member::Method {
            class: class.into(),
            method: method.into(),
        }
    }

    #[test]
    fn methods_constructors_and_initialisers_get_javac_names() {
        assert_eq!(at("k = 1;"), method("org/x/Outer", "<clinit>"));
        assert_eq!(at("k = 2;"), method("org/x/Outer", "<init>"));
        assert_eq!(at("k = 4;"), method("org/x/Outer", "<init>"));
        assert_eq!(at("return a + 8;"), method("org/x/Outer", "m"));
        assert_eq!(
            at("k = 5;"),
            method("org/x/Outer", "m"),
            "a lambda is its method's"
        );
        assert_eq!(at("k = 9;"), method("org/x/Outer$In", "n"));
        assert_eq!(at("k = 11;"), method("org/x/Outer$In$E", "<init>"));
        assert_eq!(at("k = 12;"), method("org/x/Outer$I", "d"));
    }

    #[test]
    fn anonymous_local_and_field_locations_are_unknown() {
        for needle in ["k = 6;", "k = 7;", "k = 10;", "int f = 3;"] {
            assert!(matches!(at(needle), Member::Unknown(_)), "{needle}");
        }
    }

    #[test]
    fn a_file_without_a_package_gives_the_bare_name() {
        let src = "class A { void f() { int x = 1; } }";
        let s = src.find("int x").unwrap();
        assert_eq!(
            member_at(src, s..s + 10),
            Member::Method {
                class: "A".into(),
                method: "f".into()
            }
        );
    }
}
