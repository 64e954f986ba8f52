//! A location in the initialiser of a local variable: the declaration is split in place
//! (`int mid = E;` → `int mid; mid = E;`, on the same line) so that the location becomes an
//! assignment statement the schemata can weave, while the variable stays declared for the code
//! after it. See docs/weaving.md for why no verdict changes.

use super::text;
use std::ops::Range;
use tree_sitter::Node;

/// A local declaration split in place (`int mid = E;` → `int mid; mid = E;`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The file with the declaration split.
    pub src: String,
    /// Where the range asked for is in `src`.
    pub range: Range<usize>,
    /// The assignment statement the split made (`mid = E;`) in `src`.
    pub statement: Range<usize>,
    /// The initialiser (`E`) in `src`.
    pub value: Range<usize>,
    /// The declaration is `final` with a type a constant variable may have: a patch whose
    /// initialiser may be a constant expression must keep it ([`may_be_constant`]).
    pub constant_final: bool,
}

/// The file with the declaration holding `range` split; `None` when the location is not inside
/// the initialiser of the last declarator of a local declaration that may be split (directly in
/// a block, not `var`, not an array initialiser, not `final` where it may be a constant
/// variable).
pub fn split_declaration(src: &str, range: Range<usize>) -> Option<Split> {
    let tree = super::parser().parse(src, None)?;
    let (declarator, value) = initialiser_at(tree.root_node(), &range)?;
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
    Some(Split {
        src: out,
        range: range.start + shift..range.end + shift,
        statement: after + 2..declaration.end_byte() + shift,
        value: value.start_byte() + shift..value.end_byte() + shift,
        constant_final: constant_final(src, declaration),
    })
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

/// A declaration that must keep its initialiser: `final` when it may be a constant variable
/// (a primitive or `String` whose initialiser may be a constant expression, which `switch`
/// labels, constant folding and narrowing see; a blank final is none), `var` (the type comes
/// from it), or a declarator that is not the last (the ones after it would move past the
/// assignment).
fn splits_badly(src: &str, declaration: Node, declarator: Node) -> bool {
    let is_var = declaration
        .child_by_field_name("type")
        .is_some_and(|t| text(src, t) == "var");
    let mut c = declaration.walk();
    let last = declaration
        .children_by_field_name("declarator", &mut c)
        .last()
        .is_some_and(|d| d.id() == declarator.id());
    let constant = constant_final(src, declaration)
        && declarator
            .child_by_field_name("value")
            .is_none_or(|v| may_be_constant(text(src, v)));
    constant || is_var || !last
}

/// Whether a local declaration is `final` with a type a constant variable may have (a
/// primitive or `String`): its initialiser decides whether it is one.
fn constant_final(src: &str, declaration: Node) -> bool {
    let mut c = declaration.walk();
    let is_final = declaration
        .children(&mut c)
        .filter(|k| k.kind() == "modifiers")
        .any(|m| text(src, m).split_whitespace().any(|w| w == "final"));
    let ty = declaration
        .child_by_field_name("type")
        .map(|t| text(src, t).trim())
        .unwrap_or("");
    let constant_type = matches!(
        ty,
        "boolean"
            | "byte"
            | "short"
            | "char"
            | "int"
            | "long"
            | "float"
            | "double"
            | "String"
            | "java.lang.String"
    );
    is_final && constant_type
}

/// Why a `final` declaration's patch whose initialiser may be constant is not split (the start of
/// the reason; `widen` may hold it).
pub const CONSTANT_FINAL: &str =
    "the declaration is `final` and the new initialiser may be a constant expression";

/// Whether expression text `expr` may be a constant expression (JLS 15.29): it holds nothing a
/// constant expression cannot (a call, `new`, an array access, an assignment, `++`, a lambda,
/// `this`, `instanceof`, a class literal, `null`, a `switch`). A name may be a constant
/// variable, so an expression of names and literals may be one; text that does not parse may.
pub fn may_be_constant(expr: &str) -> bool {
    const NEVER: &[&str] = &[
        "method_invocation",
        "object_creation_expression",
        "array_creation_expression",
        "array_access",
        "assignment_expression",
        "update_expression",
        "lambda_expression",
        "method_reference",
        "this",
        "super",
        "instanceof_expression",
        "class_literal",
        "null_literal",
        "switch_expression",
        "array_initializer",
    ];
    let wrapped = format!("class __PV {{ Object __v = ({expr}\n); }}");
    let Some(tree) = super::parser().parse(&wrapped, None) else {
        return true;
    };
    if tree.root_node().has_error() {
        return true;
    }
    let mut todo = vec![tree.root_node()];
    while let Some(n) = todo.pop() {
        if NEVER.contains(&n.kind()) {
            return false;
        }
        let mut c = n.walk();
        todo.extend(n.named_children(&mut c));
    }
    true
}

/// The initialiser of a declaration statement's last declarator (`T a = 1, b = E;` → `E`).
pub fn last_initialiser(stmt: Node) -> Option<Node> {
    let mut c = stmt.walk();
    let last = stmt.children_by_field_name("declarator", &mut c).last()?;
    last.child_by_field_name("value")
}

/// What a patch of a whole declaration keeps of it: the declaration with a new initialiser,
/// maybe with statements before or after it (`if (c) return; T x = E2;`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// Statements before the declaration (empty for none).
    pub before: String,
    /// The new initialiser.
    pub init: String,
    /// Statements after the declaration (empty for none).
    pub after: String,
}

impl Kept {
    /// The patch changes only the initialiser.
    pub fn is_initialiser(&self) -> bool {
        self.before.trim().is_empty() && self.after.trim().is_empty()
    }
}

/// When the unpatched text is a whole local or field declaration (`String text = E;`), the
/// range of its last declarator's initialiser, and for each patch that keeps everything around
/// that initialiser (`String text = E2;`), what it keeps (`None` for the others). Only a local
/// declaration keeps statements around it, and only when those before it do not name the
/// variable (docs/weaving.md, "Statements around a declaration").
pub fn narrow(
    src: &str,
    range: Range<usize>,
    patches: &[String],
) -> Option<(Range<usize>, Vec<Option<Kept>>)> {
    let tree = super::parser().parse(src, None)?;
    let stmt = tree
        .root_node()
        .descendant_for_byte_range(range.start, range.end)?;
    let stmt = std::iter::successors(Some(stmt), |n| n.parent()).find(|n| {
        n.byte_range() == range
            && matches!(n.kind(), "local_variable_declaration" | "field_declaration")
    })?;
    let value = last_initialiser(stmt)?;
    let name = text(src, value.parent()?.child_by_field_name("name")?);
    let local = stmt.kind() == "local_variable_declaration";
    let prefix = &src[range.start..value.start_byte()];
    let suffix = &src[value.end_byte()..range.end];
    let initialiser = |p: &str| {
        let inner = p.strip_prefix(prefix)?.strip_suffix(suffix)?;
        (!inner.trim().is_empty()).then(|| inner.to_string())
    };
    // A one-line patch that keeps the declaration with a comment before or after it
    // (`/* … */ int x = 2;`, `int x = 2; // …`): the comment changes no line and no token.
    let commented = |p: &str| {
        if p.contains('\n') || p.contains('\r') {
            return None;
        }
        initialiser(super::tokens::blank_comments(p)?.trim())
    };
    let kept = patches
        .iter()
        .map(|p| match initialiser(p).or_else(|| commented(p)) {
            Some(init) => Some(Kept {
                before: String::new(),
                init,
                after: String::new(),
            }),
            None if local => around(p, name, &initialiser),
            None => None,
        })
        .collect();
    Some((value.byte_range(), kept))
}

/// Patch text `patch` as statements around the declaration of `name` it keeps (`initialiser`
/// gives the new initialiser of a statement that is that declaration): the first top-level
/// statement that is, when the statements before it do not name `name` (there they would name
/// the split declaration's variable, not a field or an error) nor hold a `\u` escape.
fn around(patch: &str, name: &str, initialiser: &dyn Fn(&str) -> Option<String>) -> Option<Kept> {
    const OPEN: &str = "class __PV { void __m() {\n";
    let wrapped = format!("{OPEN}{patch}\n}} }}");
    let tree = super::parser().parse(&wrapped, None)?;
    if tree.root_node().has_error() {
        return None;
    }
    let body = tree
        .root_node()
        .named_child(0)?
        .child_by_field_name("body")?
        .named_child(0)?
        .child_by_field_name("body")?;
    let mut c = body.walk();
    let (decl, init) = body
        .named_children(&mut c)
        .filter(|s| s.kind() == "local_variable_declaration")
        .find_map(|s| Some((s, initialiser(text(&wrapped, s))?)))?;
    let at = |b: usize| b - OPEN.len();
    let before = &patch[..at(decl.start_byte())];
    if before.contains("\\u") || super::tokens::scan(before).names.contains(name) {
        return None;
    }
    Some(Kept {
        before: before.to_string(),
        init,
        after: patch[at(decl.end_byte())..].to_string(),
    })
}

/// The patches as the weave takes them on the split (or hoisted) file `src`, where `range` is
/// the location: the range to replace, each patch's text there, and whether that range is the
/// split's assignment `statement` (`x = E;`, when some patch keeps statements around the
/// declaration) rather than the location in the initialiser. A patch that keeps nothing
/// (`None`) gets the unpatched text; the caller excludes it.
pub fn apply(
    src: &str,
    range: Range<usize>,
    statement: Option<Range<usize>>,
    kept: &[Option<Kept>],
) -> (Range<usize>, Vec<String>, bool) {
    match statement.filter(|_| kept.iter().flatten().any(|k| !k.is_initialiser())) {
        Some(stmt) => {
            let (head, tail) = (&src[stmt.start..range.start], &src[range.end..stmt.end]);
            let texts = kept
                .iter()
                .map(|k| match k {
                    Some(k) => format!("{}{head}{}{tail}{}", k.before, k.init, k.after),
                    None => src[stmt.clone()].to_string(),
                })
                .collect();
            (stmt, texts, true)
        }
        None => {
            let texts = kept
                .iter()
                .map(|k| match k {
                    Some(k) if k.is_initialiser() => k.init.clone(),
                    _ => src[range.clone()].to_string(),
                })
                .collect();
            (range, texts, false)
        }
    }
}

/// Why patch `k` of a `final` declaration that may be a constant variable
/// ([`Split::constant_final`], initialiser `value` in `src`) keeps it whole: its new
/// initialiser (`k.init`, or, `around` false, the initialiser with the `location` replaced by
/// it) may be a constant expression.
pub fn constant_initialiser(
    src: &str,
    value: &Range<usize>,
    location: &Range<usize>,
    around: bool,
    k: &Kept,
) -> Option<String> {
    let init = if around {
        k.init.clone()
    } else {
        let (head, tail) = (
            &src[value.start..location.start],
            &src[location.end..value.end],
        );
        format!("{head}{}{tail}", k.init)
    };
    may_be_constant(&init).then(|| {
        format!("{CONSTANT_FINAL}, which makes a constant variable; split, it would not be one")
    })
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
        let s = split_declaration(src, start..start + unpatched.len())?;
        assert_eq!(&s.src[s.range.clone()], unpatched);
        let stmt = &s.src[s.statement.clone()];
        assert!(stmt.ends_with(';') && stmt.contains(unpatched), "{stmt}");
        Some(s.src)
    }

    const SRC: &str = "class A {\n  int f(int lo, int hi, int[] xs) {\n    int mid = (lo + hi) >>> 1;\n    int a = 1, b = a + 2;\n    int c[] = new int[3];\n    final int k = 4;\n    var v = 5;\n    int[] d = {1, 2};\n    for (int i = lo; i < hi; i++) { }\n    final int n = xs[0];\n    final long m = lo + hi;\n    final Object o = \"o\";\n    return mid + b + c.length + k + v + d.length;\n  }\n}\n";

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
        let (value, kept) = narrow(SRC, start..start + stmt.len(), &patches).unwrap();
        assert_eq!(&SRC[value], "a + 2");
        let inits: Vec<Option<String>> = kept
            .iter()
            .map(|k| {
                k.as_ref()
                    .filter(|k| k.is_initialiser())
                    .map(|k| k.init.clone())
            })
            .collect();
        assert_eq!(
            inits,
            [Some("a - 2".to_string()), Some("a".to_string()), None, None]
        );
        // Part of a statement is no whole declaration.
        assert!(narrow(SRC, start..start + 9, &patches).is_none());
    }

    #[test]
    fn statements_around_a_declaration_keep_it() {
        let stmt = "int mid = (lo + hi) >>> 1;";
        let start = SRC.find(stmt).unwrap();
        let patches = [
            "if (lo > hi) { return 0; } int mid = (lo + hi) / 2;",
            "int mid = (lo + hi) >>> 1; if (mid < 0) return -1;",
            // The statement before names the variable: a field's name there.
            "mid = 3; int mid = lo;",
            "if (lo > hi) { int mid = 2; } int mid = lo;",
            // `\u006did` is `mid`.
            "\\u006did = 3; int mid = lo;",
            "if (lo > hi) return 0; long mid = lo;",
            "if (lo > hi) return 0; int mid = lo",
        ]
        .map(String::from);
        let (_, kept) = narrow(SRC, start..start + stmt.len(), &patches).unwrap();
        let k = kept[0].as_ref().unwrap();
        assert_eq!(
            (k.before.as_str(), k.init.as_str(), k.after.as_str()),
            ("if (lo > hi) { return 0; } ", "(lo + hi) / 2", "")
        );
        assert!(!k.is_initialiser());
        // Text after the initialiser is read as part of it: split, the patched text is the same
        // (`mid = (lo + hi) >>> 1; if (mid < 0) return -1;`).
        let k = kept[1].as_ref().unwrap();
        assert_eq!(k.init, "(lo + hi) >>> 1; if (mid < 0) return -1");
        assert!(kept[2..].iter().all(Option::is_none), "{kept:?}");
        // A field's declaration keeps no statements around it.
        let src = "class A { int x = 1; }";
        let at = src.find("int x = 1;").unwrap();
        let fp = ["int y; int x = 2;".to_string(), "int x = 3;".to_string()];
        let (_, kept) = narrow(src, at..at + 10, &fp).unwrap();
        assert!(kept[0].is_none() && kept[1].as_ref().is_some_and(Kept::is_initialiser));
        // A comment on the declaration's line changes no token; over lines it moves them.
        let fp = [
            "/* same */ int x = 2;",
            "int x = 3; // kept",
            "// gone\nint x = 4;",
            "int x = 5; /* \\u000a */",
        ]
        .map(String::from);
        let (_, kept) = narrow(src, at..at + 10, &fp).unwrap();
        let inits: Vec<_> = kept
            .iter()
            .map(|k| k.as_ref().map(|k| k.init.trim()))
            .collect();
        assert_eq!(inits, [Some("2"), Some("3"), None, None]);
    }

    #[test]
    fn patches_apply_to_the_assignment_when_one_keeps_statements_around_it() {
        let start = SRC.find("(lo + hi) >>> 1").unwrap();
        let s = split_declaration(SRC, start..start + 15).unwrap();
        let kept = |before: &str, init: &str| {
            Some(Kept {
                before: before.into(),
                init: init.into(),
                after: String::new(),
            })
        };
        let patches = [kept("", "lo"), kept("if (lo < 0) return 0; ", "hi"), None];
        let (range, texts, around) =
            apply(&s.src, s.range.clone(), Some(s.statement.clone()), &patches);
        assert!(around && range == s.statement);
        assert_eq!(
            texts,
            [
                "mid = lo;",
                "if (lo < 0) return 0; mid = hi;",
                "mid = (lo + hi) >>> 1;"
            ]
        );
        let (range, texts, around) = apply(
            &s.src,
            s.range.clone(),
            Some(s.statement.clone()),
            &patches[..1],
        );
        assert!(!around && range == s.range && texts == ["lo"]);
    }

    #[test]
    fn a_final_declaration_splits_unless_it_may_be_a_constant_variable() {
        let at = |unpatched: &str| {
            let start = SRC.find(unpatched).unwrap();
            split_declaration(SRC, start..start + unpatched.len())
        };
        let n = at("xs[0]").unwrap();
        assert!(n.src.contains("final int n; n = xs[0];") && n.constant_final);
        assert_eq!(&n.src[n.value.clone()], "xs[0]");
        // `lo + hi` is no constant (parameters), but names may be constant variables.
        assert!(at("lo + hi;").is_none() && at("4").is_none());
        // An `Object` is never a constant variable, whatever its initialiser.
        let o = at("\"o\"").unwrap();
        assert!(o.src.contains("final Object o; o = \"o\";") && !o.constant_final);
        for (expr, constant) in [
            ("4", true),
            ("MAX - 1", true),
            ("\"a\" + B", true),
            ("(int) 3L", true),
            ("xs.length", true),
            ("s.length()", false),
            ("xs[0]", false),
            ("new int[2].length", false),
            ("i++", false),
            ("null", false),
            ("x instanceof String ? 1 : 2", false),
            ("A.class.getName()", false),
            ("1 +", true),
        ] {
            assert_eq!(may_be_constant(expr), constant, "{expr}");
        }
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
