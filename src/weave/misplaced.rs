//! A statement where a class body expects a member: javac's syntax error, known without a
//! compile. A location that is a whole member (a field's declaration, a method) takes no
//! statement, so a patch there that begins with a keyword only a statement can begin with is
//! `C` however the rest of the file reads (JLS 8.1.7: no class body declaration begins with
//! one).

use std::ops::Range;

/// Keywords that begin a statement and never a class body declaration, nor anything else a class
/// body may hold. Not `synchronized` and `default` (modifiers too), `assert` and `yield` (an
/// identifier before Java 1.4 and 14), `this`, `super`, `new` (a field's type never, but kept out
/// as no patch generator was seen to write them there).
const STATEMENT_ONLY: &[&str] = &[
    "return", "throw", "if", "while", "for", "do", "try", "break", "continue", "switch", "else",
    "case",
];

/// Bodies whose direct content is class members.
const MEMBER_BODIES: &[&str] = &[
    "class_body",
    "interface_body",
    "enum_body_declarations",
    "annotation_type_body",
];

/// javac's error, with its line, when `patch` replaces `range` of `src` at a member boundary of
/// a class body and begins (after comments) with a statement-only keyword. `None` wherever that
/// is not certain: the location inside a member, a file or patch that does not parse cleanly or
/// holds a `\u` escape (javac translates those before it reads tokens), a patch beginning with
/// anything else.
pub fn statement_in_class_body(src: &str, range: Range<usize>, patch: &str) -> Option<String> {
    if src.contains("\\u") || patch.contains("\\u") {
        return None;
    }
    let tree = super::parser().parse(src, None)?;
    let root = tree.root_node();
    if root.has_error() {
        return None;
    }
    let mut node = root.descendant_for_byte_range(range.start, range.end)?;
    // The innermost member body around the location, met before any code around it.
    let body = loop {
        if MEMBER_BODIES.contains(&node.kind()) && node.start_byte() < range.start {
            break node;
        }
        if matches!(
            node.kind(),
            "block" | "constructor_body" | "switch_block" | "lambda_expression" | "program"
        ) {
            return None;
        }
        node = node.parent()?;
    };
    // At a member boundary: no child of the body straddles the location's start, and only
    // white space lies between the child before it (the opening brace at least) and the start.
    let mut cursor = body.walk();
    let mut before = body.start_byte();
    for child in body.children(&mut cursor) {
        if child.start_byte() < range.start && range.start < child.end_byte() {
            return None;
        }
        if child.end_byte() <= range.start {
            before = child.end_byte();
        }
    }
    if !src[before..range.start].trim().is_empty() || range.end > body.end_byte() {
        return None;
    }
    let blanked = super::tokens::blank_comments(patch)?;
    let start = blanked.len() - blanked.trim_start().len();
    let word: String = blanked[start..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
        .collect();
    if !STATEMENT_ONLY.contains(&word.as_str()) {
        return None;
    }
    let line = src[..range.start].matches('\n').count() + patch[..start].matches('\n').count() + 1;
    let message = if word == "switch" {
        "<identifier> expected"
    } else {
        "illegal start of type"
    };
    Some(format!("line {line}: {message}"))
}

#[cfg(test)]
mod tests {
    use super::statement_in_class_body as rule;

    const SRC: &str = "class A {\n    private static final int N = 1;\n    int f() {\n        return N;\n    }\n    static { int k = 0; }\n}\n";

    fn at(what: &str) -> std::ops::Range<usize> {
        let start = SRC.find(what).unwrap();
        start..start + what.len()
    }

    #[test]
    fn a_statement_in_place_of_a_field_is_a_syntax_error() {
        let field = at("private static final int N = 1;");
        assert_eq!(
            rule(SRC, field.clone(), "return;").as_deref(),
            Some("line 2: illegal start of type")
        );
        assert_eq!(
            rule(
                SRC,
                field.clone(),
                "// gone\nif (true) { throw new Error(); } int N = 1;"
            )
            .as_deref(),
            Some("line 3: illegal start of type")
        );
        assert_eq!(
            rule(SRC, field.clone(), "switch (N) {}").as_deref(),
            Some("line 2: <identifier> expected")
        );
        // A method in place of the field is not one.
        assert_eq!(
            rule(
                SRC,
                at("int f() {\n        return N;\n    }"),
                "for (;;) {}"
            )
            .as_deref(),
            Some("line 3: illegal start of type")
        );
    }

    #[test]
    fn anything_a_member_may_begin_with_or_a_location_in_code_is_left_to_javac() {
        let field = at("private static final int N = 1;");
        for patch in [
            "",
            "// removed",
            "int N = 2;",
            "returnValue = 1;",
            "synchronized void g() {}",
            "default void g() {}",
            "yield x;",
            "String s = \"\\u0022\"; return;",
        ] {
            assert_eq!(rule(SRC, field.clone(), patch), None, "{patch}");
        }
        // Inside a method body, an initialiser block, or a member's own text.
        assert_eq!(rule(SRC, at("return N;"), "return 2;"), None);
        assert_eq!(rule(SRC, at("int k = 0;"), "return;"), None);
        assert_eq!(rule(SRC, at("N = 1;"), "return;"), None);
        assert_eq!(rule(SRC, at("static final int N = 1;"), "return;"), None);
    }
}
