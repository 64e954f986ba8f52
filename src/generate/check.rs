//! The candidates `generate` drops before writing them, each for a reason javac would give: an
//! operator on operands of the wrong type, an argument, assigned, initial or returned value that
//! does not convert, a condition that is not boolean (types from `types.rs`), and the statement
//! shapes that cannot compile whatever the types (a jump before reachable statements, a removed
//! declaration still used, a removed final `return`).

use super::types::{is_numeric, unbox, Ty, Typer};
use crate::fuzz::spot::Spot;
use std::collections::HashMap;
use std::ops::Range;
use tree_sitter::Node;

/// Why javac would refuse the candidate occupying `range` of the patched file (`src`, parsed
/// as `root`) in place of the location's statement `s`; `None` when nothing is known against it.
pub fn refused(t: &Typer, s: &Spot, src: &str, root: Node, range: Range<usize>) -> Option<String> {
    if let Some(why) = shape(s, &src[range.clone()]) {
        return Some(why);
    }
    let nodes = within(root, &range);
    let inner = declared_inside(t, src, &nodes);
    let ty = |n: Node| t.type_of(s, src, &inner, n);
    let text = |n: Node| &src[n.byte_range()];
    for &n in &nodes {
        let field = |f: &str| n.child_by_field_name(f);
        match n.kind() {
            "binary_expression" => {
                let (Some(op), Some(l), Some(r)) =
                    (field("operator"), field("left"), field("right"))
                else {
                    continue;
                };
                let (Some(lt), Some(rt)) = (ty(l), ty(r)) else {
                    continue;
                };
                if let Some(why) = operands(text(op), &lt, &rt) {
                    return Some(why);
                }
            }
            "unary_expression" => {
                let (Some(op), Some(x)) = (field("operator"), field("operand")) else {
                    continue;
                };
                let Some(xt) = ty(x) else { continue };
                let ok = match text(op) {
                    "!" => unbox(&xt) == "boolean",
                    _ => is_numeric(&xt),
                };
                if !ok {
                    return Some(format!("`{}` on a `{xt}`", text(op)));
                }
            }
            "if_statement" | "while_statement" | "do_statement" | "for_statement"
            | "ternary_expression" => {
                if let Some(ct) = field("condition").and_then(ty) {
                    if unbox(&ct) != "boolean" {
                        return Some(format!("a `{ct}` condition"));
                    }
                }
            }
            "method_invocation" => {
                let Some(m) = t.callee(s, src, &inner, n) else {
                    continue;
                };
                let Some(args) = field("arguments") else {
                    continue;
                };
                let mut c = args.walk();
                for (a, p) in args.named_children(&mut c).zip(&m.params) {
                    if let Some(at) = ty(a) {
                        if t.assignable(&at, p, is_constant(a)) == Some(false) {
                            return Some(format!(
                                "`{}` passes a `{at}` for a `{p}` of `{}`",
                                text(a),
                                m.name
                            ));
                        }
                    }
                }
            }
            "object_creation_expression" if field("class_body").is_none() => {
                let (Some(class), Some(args)) = (
                    field("type").and_then(|c| t.resolve(text(c))),
                    field("arguments"),
                ) else {
                    continue;
                };
                let Some(c) = t.classes().get(&class) else {
                    continue;
                };
                let arity = args.named_child_count();
                let mut fit = c
                    .ctors
                    .iter()
                    .filter(|(p, varargs)| *varargs || p.len() == arity);
                let (Some((params, false)), None) = (fit.next(), fit.next()) else {
                    continue;
                };
                // An inner class's constructor takes its outer instance first.
                let params = &params[params.len().saturating_sub(arity)..];
                let mut cur = args.walk();
                for (a, p) in args.named_children(&mut cur).zip(params) {
                    if let Some(at) = ty(a) {
                        if t.assignable(&at, p, is_constant(a)) == Some(false) {
                            return Some(format!(
                                "`{}` passes a `{at}` for a `{p}` of `new {}`",
                                text(a),
                                text(field("type").expect("resolved above"))
                            ));
                        }
                    }
                }
            }
            "assignment_expression" => {
                let (Some(op), Some(l), Some(r)) =
                    (field("operator"), field("left"), field("right"))
                else {
                    continue;
                };
                if text(op) != "=" {
                    continue;
                }
                if let (Some(lt), Some(rt)) = (ty(l), ty(r)) {
                    if t.assignable(&rt, &lt, is_constant(r)) == Some(false) {
                        return Some(format!("a `{rt}` assigned to a `{lt}`"));
                    }
                }
            }
            "local_variable_declaration" => {
                let Some(decl) = field("type").and_then(|d| t.resolve(text(d))) else {
                    continue;
                };
                let mut c = n.walk();
                for d in n.children_by_field_name("declarator", &mut c) {
                    let dims = d
                        .child_by_field_name("dimensions")
                        .map_or(0, |x| text(x).matches('[').count());
                    let to = format!("{decl}{}", "[]".repeat(dims));
                    let Some(v) = d.child_by_field_name("value") else {
                        continue;
                    };
                    if let Some(vt) = ty(v) {
                        if t.assignable(&vt, &to, is_constant(v)) == Some(false) {
                            return Some(format!("a `{vt}` initialises a `{to}`"));
                        }
                    }
                }
            }
            "return_statement" if !s.in_lambda && !in_lambda(n, &range) => {
                let Some(ret) = t.resolve(&s.return_type) else {
                    continue;
                };
                match n.named_child(0) {
                    None if ret != "void" => {
                        return Some("`return;` in a method with a value".into())
                    }
                    Some(_) if ret == "void" => {
                        return Some("a value returned from a `void` method".into())
                    }
                    Some(v) => {
                        if let Some(vt) = ty(v) {
                            if t.assignable(&vt, &ret, is_constant(v)) == Some(false) {
                                return Some(format!("a `{vt}` returned for a `{ret}`"));
                            }
                        }
                    }
                    None => {}
                }
            }
            _ => {}
        }
    }
    None
}

/// An operator javac refuses on operands of types `l` and `r` (both known).
fn operands(op: &str, l: &Ty, r: &Ty) -> Option<String> {
    let num = |t: &Ty| is_numeric(t);
    let boolean = |t: &Ty| unbox(t) == "boolean";
    let string = |t: &Ty| t == "java.lang.String";
    let ok = match op {
        "-" | "*" | "/" | "%" | "<" | "<=" | ">" | ">=" => num(l) && num(r),
        "+" => string(l) || string(r) || num(l) && num(r),
        "&&" | "||" => boolean(l) && boolean(r),
        "==" | "!=" => {
            let prim = |t: &Ty| is_primitive(t);
            if prim(l) || prim(r) {
                // A primitive compares with a primitive or a box of the same kind.
                (num(l) && num(r)) || (boolean(l) && boolean(r))
            } else {
                true
            }
        }
        _ => true,
    };
    (!ok).then(|| format!("`{op}` on a `{l}` and a `{r}`"))
}

fn is_primitive(t: &str) -> bool {
    matches!(
        t,
        "int" | "long" | "short" | "byte" | "char" | "float" | "double" | "boolean"
    )
}

/// A literal (possibly negated or parenthesised): a constant an `int` may narrow from.
fn is_constant(n: Node) -> bool {
    match n.kind() {
        "decimal_integer_literal"
        | "hex_integer_literal"
        | "octal_integer_literal"
        | "binary_integer_literal"
        | "character_literal" => true,
        "parenthesized_expression" => n.named_child(0).is_some_and(is_constant),
        "unary_expression" => n.child_by_field_name("operand").is_some_and(is_constant),
        _ => false,
    }
}

/// Shapes that cannot compile whatever the types: the statement replaced by a bare jump while
/// statements follow it (unreachable), a declaration removed or replaced while its variables
/// are used after it, a method's final `return` removed.
fn shape(s: &Spot, candidate: &str) -> Option<String> {
    let c = candidate.trim();
    let next = next_statement(s.stmt);
    let jump = ["return", "break", "continue", "throw"]
        .iter()
        .any(|j| c.starts_with(j) && c[j.len()..].starts_with([' ', ';', '(']));
    if jump && next.is_some() {
        return Some("a jump before reachable statements".into());
    }
    if s.stmt.kind() == "local_variable_declaration" {
        let mut cur = s.stmt.walk();
        for d in s.stmt.children_by_field_name("declarator", &mut cur) {
            let Some(name) = d.child_by_field_name("name").map(|n| s.text(n)) else {
                continue;
            };
            if !has_word(c, name) && used_after(s, name) {
                return Some(format!("`{name}` is used after its declaration is gone"));
            }
        }
    }
    if c.is_empty()
        && s.stmt.kind() == "return_statement"
        && next.is_none()
        && s.return_type != "void"
        && s.stmt
            .parent()
            .and_then(|b| b.parent())
            .is_some_and(|m| m.kind() == "method_declaration")
    {
        return Some("the method's final `return` removed".into());
    }
    None
}

/// Does `text` name `word` (as a whole identifier)?
fn has_word(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(word).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(ident)
            && !text[i + word.len()..].chars().next().is_some_and(ident)
    })
}

/// The statement after `n` in its block or switch group (comments skipped); none where `n` is
/// not in a sequence of statements (an `if`'s branch, a loop's body).
fn next_statement(n: Node) -> Option<Node> {
    let in_sequence = n.parent().is_some_and(|p| {
        matches!(
            p.kind(),
            "block" | "constructor_body" | "switch_block_statement_group"
        )
    });
    if !in_sequence {
        return None;
    }
    let mut next = n.next_named_sibling();
    while let Some(k) = next {
        if !k.kind().contains("comment") {
            return Some(k);
        }
        next = k.next_named_sibling();
    }
    None
}

/// Is `name` read or written by a statement after the location's, in its block?
fn used_after(s: &Spot, name: &str) -> bool {
    let mut next = next_statement(s.stmt);
    while let Some(k) = next {
        let mut stack = vec![k];
        while let Some(n) = stack.pop() {
            if n.kind() == "identifier" && s.text(n) == name {
                return true;
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        next = next_statement(k);
    }
    false
}

/// Every node of `root` inside `range`, outermost first.
fn within<'t>(root: Node<'t>, range: &Range<usize>) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.end_byte() <= range.start || n.start_byte() >= range.end {
            continue;
        }
        if n.start_byte() >= range.start && n.end_byte() <= range.end {
            out.push(n);
        }
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).collect();
        stack.extend(kids.into_iter().rev());
    }
    out
}

/// Is `n` inside a lambda that is itself inside `range`?
fn in_lambda(n: Node, range: &Range<usize>) -> bool {
    let mut p = n.parent();
    while let Some(q) = p {
        if q.start_byte() < range.start {
            return false;
        }
        if q.kind() == "lambda_expression" {
            return true;
        }
        p = q.parent();
    }
    false
}

/// Variables the candidate declares itself (locals, loop variables, catch and lambda
/// parameters), with their types when written and known.
fn declared_inside(t: &Typer, src: &str, nodes: &[Node]) -> HashMap<String, Option<Ty>> {
    let text = |n: Node| &src[n.byte_range()];
    let mut out = HashMap::new();
    for &n in nodes {
        match n.kind() {
            "local_variable_declaration" => {
                let ty = n.child_by_field_name("type").map(text);
                let mut c = n.walk();
                for d in n.children_by_field_name("declarator", &mut c) {
                    if let Some(name) = d.child_by_field_name("name") {
                        let dims = d.child_by_field_name("dimensions").is_some();
                        let resolved = ty.filter(|_| !dims).and_then(|ty| t.resolve(ty));
                        out.insert(text(name).to_string(), resolved);
                    }
                }
            }
            "formal_parameter" | "catch_formal_parameter" | "enhanced_for_statement" => {
                let name = n.child_by_field_name("name").map(text);
                let ty = n.child_by_field_name("type").map(text);
                if let Some(name) = name {
                    out.insert(name.to_string(), ty.and_then(|ty| t.resolve(ty)));
                }
            }
            "lambda_expression" => {
                if let Some(p) = n.child_by_field_name("parameters") {
                    let mut stack = vec![p];
                    while let Some(k) = stack.pop() {
                        if k.kind() == "identifier" {
                            out.insert(text(k).to_string(), None);
                        }
                        let mut c = k.walk();
                        stack.extend(k.named_children(&mut c));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{classes::Classes, spot_at};
    use super::*;
    use crate::fuzz::locate::parse_source;

    const SRC: &str = r#"package p;
import java.util.List;
class A {
    String name; int count; char mode;
    static int twice(int x) { return 2 * x; }
    void take(char c) {}
    int f(String s, int n, List<String> l, Integer boxed) {
        n = s.length() + n;
        take(mode);
        if (n > 0) { n++; }
        String t = s.trim();
        n = t.length();
        if (n > 2)
            n--;
        else
            n++;
        return n;
    }
}
"#;

    /// Why the candidate replacing the statement on `line` is refused.
    fn refuses(line: u32, candidate: &str) -> Option<String> {
        let classes = Classes::new(&[], &crate::toolchain::find_jdk().expect("a JDK"));
        let file = parse_source("p/A.java", SRC.to_string(), false).expect("parses");
        let (range, spot) = spot_at(&file, line, &[]).expect("a statement");
        let typer = Typer::new(&classes, &file.text, file.tree.root_node(), spot.stmt);
        let patched = format!("{}{candidate}{}", &SRC[..range.start], &SRC[range.end..]);
        let parsed = parse_source("p/A.java", patched, false).expect("the candidate parses");
        let at = range.start..range.start + candidate.len();
        refused(&typer, &spot, &parsed.text, parsed.tree.root_node(), at)
    }

    #[test]
    fn operators_on_the_wrong_types_are_refused() {
        assert!(refuses(8, r#"n = s.length() - "x";"#).is_some());
        assert!(refuses(8, "n = s.length() < s;").is_some());
        assert!(refuses(8, "n = s + n;").unwrap().contains("assigned"));
        assert_eq!(refuses(8, "n = s.length() * n;"), None);
        assert_eq!(refuses(8, "n = boxed + 1;"), None, "unboxing");
        assert_eq!(
            refuses(8, "n = l.get(0).length();"),
            None,
            "a type variable is unknown"
        );
        assert_eq!(refuses(8, r#"name = s + 1 + "x";"#), None, "concatenation");
    }

    #[test]
    fn arguments_must_convert_to_the_parameters() {
        assert!(refuses(9, "take(mode + 1);").unwrap().contains("passes"));
        assert_eq!(refuses(9, "take('x');"), None);
        assert_eq!(refuses(9, "take(65);"), None, "an int constant narrows");
        assert!(refuses(8, "n = twice(s);").is_some());
        assert_eq!(refuses(8, "n = twice(boxed);"), None);
    }

    #[test]
    fn conditions_are_boolean() {
        assert!(refuses(10, "if (s) { n++; }").is_some());
        assert!(refuses(10, "if (n) { n++; }").is_some());
        assert_eq!(refuses(10, "if (n > 0 && s != null) { n++; }"), None);
        assert_eq!(refuses(10, "if (n > 0 || s.isEmpty()) { n++; }"), None);
    }

    #[test]
    fn shapes_that_cannot_compile_are_refused() {
        assert!(refuses(11, "").unwrap().contains("used after"));
        assert_eq!(refuses(11, "String t = s.strip();"), None);
        assert!(refuses(12, "return 0;").unwrap().contains("jump"));
        assert_eq!(
            refuses(12, "if (n > 0) { return 0; } n = t.length();"),
            None
        );
        assert_eq!(
            refuses(14, "return 0;"),
            None,
            "a branch of an if: its else follows"
        );
        assert!(refuses(17, "return s;").unwrap().contains("returned"));
        assert!(refuses(17, "return;").is_some());
        assert_eq!(refuses(17, "return boxed;"), None);
        assert!(refuses(17, "").unwrap().contains("final"));
    }
}
