//! Patches javac's parser rejects whatever the rest of the file holds, decided `C` with its
//! message and no compile: a statement where a class body expects a member (no class body
//! declaration begins with `return`, JLS 8.1.6), a statement whose `;` is missing before a token
//! no statement's end can take next (JLS 14.8: `mark()` where `mark();` stood, before `}` or the
//! next statement), and an `int` literal past 32 bits (JLS 3.10.1).

use std::ops::Range;
use tree_sitter::Node;

/// A file parsed once for the checks of every patch of a set.
pub struct Parsed<'a> {
    src: &'a str,
    /// `None` where no check can be certain: the file does not parse cleanly or holds a `\u`
    /// escape (javac translates those before it reads a token).
    tree: Option<tree_sitter::Tree>,
}

impl<'a> Parsed<'a> {
    pub fn new(src: &'a str) -> Parsed<'a> {
        let tree = (!src.contains("\\u"))
            .then(|| super::parser().parse(src, None))
            .flatten()
            .filter(|t| !t.root_node().has_error());
        Parsed { src, tree }
    }

    /// javac's error for `patch` in place of `range`, when its parser rejects it wherever the
    /// file is otherwise right: `line N: message`.
    pub fn certain_error(&self, range: Range<usize>, patch: &str) -> Option<String> {
        let root = self.tree.as_ref()?.root_node();
        if patch.contains("\\u") {
            return None;
        }
        statement_in_class_body(self.src, root, range.clone(), patch)
            .or_else(|| unterminated(self.src, root, range.clone(), patch))
            .or_else(|| too_large(self.src, range, patch))
    }
}

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
/// is not certain: the location inside a member, a patch beginning with anything else. (The
/// caller has left out files and patches that do not parse cleanly or hold a `\u` escape, which
/// javac translates before it reads a token.)
fn statement_in_class_body(
    src: &str,
    root: Node,
    range: Range<usize>,
    patch: &str,
) -> Option<String> {
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

/// Expressions that may stand as a statement (JLS 14.8), and so end one the patch leaves
/// without its `;`.
const STATEMENT_EXPRESSIONS: &[&str] = &[
    "assignment_expression",
    "update_expression",
    "method_invocation",
    "object_creation_expression",
];

/// javac's `';' expected` when `patch` in place of the whole statements `range` of `src` (or
/// whole members of a class body, the last a field's declaration) lacks only the `;` of its last
/// statement and the file's next token after the location is one no
/// statement's end can take next: `}`, a word (an identifier or keyword) or a literal. Only
/// where that holds of the patch's text: the patch with `;` added parses cleanly as statements;
/// the statement that `;` ends (the innermost: `if (c) x = 1` ends `x = 1`) is an expression
/// statement of a statement expression, a local variable declaration, a `break`, a `continue`,
/// or a `return` or `throw` of a value (a bare `return` takes the next statement's words as its
/// value, `return x = 1;`; an `if` or loop header, an `else`, the next statement as its body);
/// and its last token closes no parenthesised expression (`(T)` before a word is a cast) nor an
/// `instanceof` type (a word after it binds a pattern).
fn unterminated(src: &str, root: Node, range: Range<usize>, patch: &str) -> Option<String> {
    // The location is whole statements, or whole members of a class body: one beginning where
    // it begins, one ending where it ends, with one parent.
    let whole = |at: usize, edge: usize, start: bool, fits: &dyn Fn(Node) -> bool| {
        let mut n = root.descendant_for_byte_range(at, at)?;
        loop {
            let e = if start { n.start_byte() } else { n.end_byte() };
            if e == edge && fits(n) {
                return Some(n);
            }
            n = n.parent()?;
        }
    };
    let span = |fits: &dyn Fn(Node) -> bool| {
        let first = whole(range.start, range.start, true, fits)?;
        let last = whole(range.end.checked_sub(1)?, range.end, false, fits)?;
        (first.parent()?.id() == last.parent()?.id()).then_some(())
    };
    let member = |n: Node| {
        n.parent()
            .is_some_and(|p| MEMBER_BODIES.contains(&p.kind()))
    };
    let members = match (span(&is_statement), span(&member)) {
        (Some(()), _) => false,
        (None, Some(())) => true,
        (None, None) => return None,
    };
    // The file's next token.
    let rest = super::tokens::blank_comments(&src[range.end..])?;
    let next = rest.trim_start().chars().next()?;
    if !(next == '}' || next.is_alphanumeric() || matches!(next, '_' | '$' | '"' | '\'')) {
        return None;
    }
    // The patch, its comments blanked, with the last statement's `;` put back, as statements of
    // a method or members of a class.
    let body = super::tokens::blank_comments(patch)?;
    let body = body.trim_end();
    let added = format!("{body};");
    let (tree, open) = if members {
        const OPEN: &str = "class __PV {\n";
        let tree = super::parser().parse(format!("{OPEN}{added}\n}}"), None)?;
        (tree, OPEN.len())
    } else {
        let w = super::Wrapped::parse(&mut super::parser(), &added)?;
        (w.tree, super::Wrapped::OPEN.len())
    };
    if tree.root_node().has_error() {
        return None;
    }
    let end = open + body.len();
    let class_body = tree
        .root_node()
        .named_child(0)?
        .child_by_field_name("body")?;
    let block = if members {
        class_body
    } else {
        class_body.named_child(0)?.child_by_field_name("body")?
    };
    let mut c = block.walk();
    let stmt = block
        .named_children(&mut c)
        .filter(|n| !n.kind().ends_with("comment"))
        .last()?;
    if stmt.end_byte() != end + 1 {
        return None;
    }
    // The statement the added `;` ends (the innermost: `if (c) x = 1` ends `x = 1`).
    let semicolon = tree.root_node().descendant_for_byte_range(end, end + 1)?;
    let ended = semicolon.parent().filter(|_| semicolon.kind() == ";")?;
    let ends_a_statement = match ended.kind() {
        _ if members => ended.kind() == "field_declaration",
        "expression_statement" => STATEMENT_EXPRESSIONS.contains(&ended.named_child(0)?.kind()),
        "local_variable_declaration" | "break_statement" | "continue_statement" => true,
        "return_statement" | "throw_statement" => ended.named_child(0).is_some(),
        _ => false,
    };
    let token = tree.root_node().descendant_for_byte_range(end - 1, end)?;
    let closes_parentheses = token.kind() == ")"
        && token
            .parent()
            .is_some_and(|p| p.kind() == "parenthesized_expression");
    let ends_instanceof = std::iter::successors(Some(token), |n| n.parent())
        .take_while(|n| n.end_byte() == end)
        .any(|n| n.kind() == "instanceof_expression");
    if !ends_a_statement || closes_parentheses || ends_instanceof {
        return None;
    }
    let line = src[..range.start].matches('\n').count() + body.matches('\n').count() + 1;
    Some(format!("line {line}: ';' expected"))
}

/// javac's `integer number too large` for an `int` literal of the patch's statements past 32
/// bits (JLS 3.10.1: a decimal one past 2147483648, or 2147483648 itself where it is not the
/// operand of a unary minus; a hexadecimal, octal or binary one past 32 bits). javac's lexer
/// and parser report it wherever the literal stands, reached or not.
fn too_large(src: &str, range: Range<usize>, patch: &str) -> Option<String> {
    let super::Wrapped { text, tree } = super::Wrapped::parse(&mut super::parser(), patch)?;
    if tree.root_node().has_error() {
        return None;
    }
    let literal = first(tree.root_node(), &|n: Node| {
        let text = text[n.byte_range()].replace('_', "");
        let lower = text.to_ascii_lowercase();
        if lower.ends_with('l') {
            return false;
        }
        let (digits, radix) = match n.kind() {
            "decimal_integer_literal" => (lower.as_str(), 10),
            "hex_integer_literal" => (&lower[2..], 16),
            "binary_integer_literal" => (&lower[2..], 2),
            "octal_integer_literal" => (&lower[1..], 8),
            _ => return false,
        };
        let Ok(value) = u128::from_str_radix(digits, radix) else {
            // More digits than 128 bits hold.
            return digits.chars().all(|c| c.is_digit(radix));
        };
        let negated = n.parent().is_some_and(|p| {
            p.kind() == "unary_expression" && p.child(0).is_some_and(|o| o.kind() == "-")
        });
        match radix {
            10 => value > 2_147_483_648 || (value == 2_147_483_648 && !negated),
            _ => value > 0xFFFF_FFFF,
        }
    })?;
    let open = super::Wrapped::OPEN.len();
    let (at, end) = (literal.start_byte() - open, literal.end_byte() - open);
    // A literal at an end of the patch meets the file's text: a `-` before 2147483648 may negate
    // it, a letter, digit or `.` after it continue it (`2147483648L`, `2147483648.5`).
    let smallest = patch[at..end].replace('_', "") == "2147483648";
    if smallest && patch[..at].trim().is_empty() {
        let before = src[..range.start].trim_end().chars().last()?;
        if !";{}(,=[?:+*<>!&|^%".contains(before) {
            return None;
        }
    }
    if patch[end..].trim().is_empty() {
        let after = src[range.end..].chars().next()?;
        if after.is_alphanumeric() || matches!(after, '_' | '$' | '.') {
            return None;
        }
    }
    let line = src[..range.start].matches('\n').count() + patch[..at].matches('\n').count() + 1;
    Some(format!("line {line}: integer number too large"))
}

/// The first node under `n`, in document order, for which `hit` holds.
fn first<'t>(n: Node<'t>, hit: &dyn Fn(Node) -> bool) -> Option<Node<'t>> {
    if hit(n) {
        return Some(n);
    }
    let mut c = n.walk();
    let children: Vec<Node<'t>> = n.named_children(&mut c).collect();
    children.into_iter().find_map(|k| first(k, hit))
}

/// A statement node of tree-sitter-java's grammar.
fn is_statement(n: Node) -> bool {
    n.kind().ends_with("_statement")
        || matches!(
            n.kind(),
            "local_variable_declaration" | "block" | "labeled_statement"
        )
}

#[cfg(test)]
mod tests {
    fn rule(src: &str, range: std::ops::Range<usize>, patch: &str) -> Option<String> {
        super::Parsed::new(src).certain_error(range, patch)
    }

    const SRC: &str = "class A {\n    private static final int N = 1;\n    int f() {\n        return N;\n    }\n    static { int k = 0; }\n}\n";

    /// Where `what` stands in `src`.
    fn span(src: &str, what: &str) -> std::ops::Range<usize> {
        let start = src.find(what).unwrap();
        start..start + what.len()
    }

    fn at(what: &str) -> std::ops::Range<usize> {
        span(SRC, what)
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

    const CODE: &str = "class B {\n    int cost;\n    void mark() {}\n    int f(int units) {\n        cost = units * 3;\n        mark();\n        if (units > 0) cost++; else cost--;\n        return cost;\n    }\n    int g(int a) {\n        a = a + 1;\n        (this).mark();\n        return a;\n    }\n}\n";

    fn in_code(what: &str) -> std::ops::Range<usize> {
        span(CODE, what)
    }

    #[test]
    fn a_statement_without_its_semicolon_before_a_word_or_a_brace_is_a_syntax_error() {
        let expected = "';' expected";
        for (location, patch, line) in [
            ("cost = units * 3;", "cost = units * 3", 5),
            ("cost = units * 3;", "cost = units * 3 // the same", 5),
            ("cost = units * 3;", "cost = 1;\nmark()", 6),
            ("cost = units * 3;", "int k = units", 5),
            ("cost = units * 3;", "new StringBuilder()", 5),
            ("mark();", "mark()", 6),
            ("return cost;", "return cost", 8),
            ("return cost;", "throw new IllegalStateException()", 8),
            ("cost++;", "cost += 2", 7),
            // The innermost statement ends where the patch does; a cast ends with its operand.
            ("cost = units * 3;", "if (units > 0) cost = 1", 5),
            ("cost = units * 3;", "cost = (int) (long) units", 5),
            ("mark();", "while (cost > 0) cost--", 6),
            ("mark();", "break", 6),
            // A field's declaration.
            ("int cost;", "long cost = 1L << 40", 2),
            ("int cost;", "int cost", 2),
            ("int cost;", "static final int[][] GRID = new int[3][]", 2),
        ] {
            assert_eq!(
                rule(CODE, in_code(location), patch),
                Some(format!("line {line}: {expected}")),
                "{patch}"
            );
        }
    }

    #[test]
    fn what_the_next_token_may_continue_or_a_word_may_follow_is_left_to_javac() {
        for (location, patch) in [
            // `(this).mark();` after `a = a + 1` calls `1(this)`: an error, but `a = f` would call.
            ("a = a + 1;", "a = a + 1"),
            // A parenthesised type before a word is a cast, a type after `instanceof` a pattern.
            ("cost = units * 3;", "cost = (units)"),
            ("cost = units * 3;", "boolean b = this instanceof Object"),
            // Not a statement expression (`units x = …` would declare), a bare `return`, a header.
            ("cost = units * 3;", "units"),
            ("return cost;", "return"),
            ("mark();", "if (cost > 0)"),
            ("mark();", "if (cost > 0) mark(); else"),
            ("cost = units * 3;", "cost = (int) (units)"),
            // A method in place of a field is no field's declaration.
            ("int cost;", "int cost() { return 0; } void f()"),
            // Complete already, or not one statement short of it.
            ("cost = units * 3;", "cost = units * 3; // kept"),
            ("cost = units * 3;", "cost = units *"),
            // Not whole statements.
            ("units * 3", "units * 4"),
        ] {
            assert_eq!(rule(CODE, in_code(location), patch), None, "{patch}");
        }
    }

    #[test]
    fn an_int_literal_past_32_bits_is_an_error_wherever_it_stands() {
        let at = in_code("cost = units * 3;");
        for patch in [
            "cost = units * 2147483648;",
            "cost = -(2147483648);",
            "if (units > 0) {\n    cost = 0x1_FFFF_FFFF;\n}",
            "cost = (int) 99999999999999999999999999999999999999999999;",
            "cost = 047777777777;",
        ] {
            let line = 5 + patch.lines().position(|l| l.contains("cost")).unwrap();
            assert_eq!(
                rule(CODE, at.clone(), patch),
                Some(format!("line {line}: integer number too large")),
                "{patch}"
            );
        }
        for patch in [
            "cost = -2147483648;",
            "cost = (int) 2147483648L;",
            "cost = 0xFFFFFFFF;",
            "cost = 037777777777;",
            "String s = \"2147483648\"; // 2147483648",
        ] {
            assert_eq!(rule(CODE, at.clone(), patch), None, "{patch}");
        }
        // The file's text meets a literal at the patch's start: a `-` before it negates it.
        let src = "class C {\n    long f() {\n        long a = -5;\n        return a;\n    }\n}\n";
        let start = src.find("5;").unwrap();
        assert_eq!(rule(src, start..start + 2, "2147483648;"), None);
        assert_eq!(
            rule(src, start..start + 2, "2147483649;").as_deref(),
            Some("line 3: integer number too large")
        );
    }
}
