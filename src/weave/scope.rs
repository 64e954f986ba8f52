//! Static facts about a patch location, read from the tree-sitter tree: the statement(s) to
//! replace, the enclosing method and class body, the locals in scope, enclosing labels and loops.

use super::locals::{
    collect_block_locals, collect_catch_local, collect_caught, collect_loop_locals, collect_params,
    collect_resources, Local,
};
use super::text;
use std::ops::Range;
use tree_sitter::Node;

/// Why a location cannot be woven (its patches are then validated one by one); the message goes
/// to `extra.fallback_reasons`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unsupported {
    #[error("tree-sitter could not parse the file")]
    Unparsed,
    #[error("the original file does not parse cleanly")]
    SyntaxErrors,
    /// The unpatched text's bytes reach past those of the statements that hold it.
    #[error(
        "the unpatched text (bytes {range:?}) reaches past the code it is part of (bytes \
         {target:?})"
    )]
    PastTarget {
        range: Range<usize>,
        target: Range<usize>,
    },
    #[error("the unpatched text is empty (insertion patches are validated one by one)")]
    Insertion,
    #[error("location not found in the parse tree")]
    NotFound,
    #[error("location is outside every statement")]
    OutsideStatements,
    #[error("the unpatched text covers no statement")]
    NoStatement,
    /// The unpatched text covers a node of this kind, which is not a statement.
    #[error("the unpatched text covers a `{0}`, not only statements")]
    NotStatement(String),
    #[error("the unpatched text is not inside a statement of a method body")]
    NotInStatement,
    #[error("the location declares a local variable")]
    Declaration,
    #[error("the location is a super(...)/this(...) call")]
    ConstructorCall,
    #[error("the location is not inside a method or constructor")]
    NoMethod,
    #[error("the location is inside a compact record constructor")]
    CompactConstructor,
    #[error("the location is not inside a method or constructor body")]
    NotInBody,
    #[error("method without a parameter list")]
    NoParameters,
    #[error("method without a name")]
    NoName,
}

/// An enclosing labelled statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub name: String,
    pub is_loop: bool,
}

/// Everything the weaver needs to know about one location.
#[derive(Debug, Clone)]
pub struct Site {
    /// Byte range of the statement(s) replaced by the stub (covers the unpatched range).
    pub target: Range<usize>,
    /// Byte range of the enclosing method or constructor declaration.
    pub method: Range<usize>,
    pub is_constructor: bool,
    pub is_static: bool,
    /// The enclosing type is an interface (generated members cannot be `private` there at release 8).
    pub in_interface: bool,
    /// `<T, U>` or empty.
    pub type_params: String,
    /// Return type as written; `void` for constructors.
    pub return_type: String,
    /// `throws A, B` or empty.
    pub throws: String,
    /// Method name (the class name for constructors).
    pub name: String,
    /// Byte range of the method's name identifier.
    pub name_range: Range<usize>,
    /// Byte range of the formal parameter list, parentheses included.
    pub params_range: Range<usize>,
    /// Byte ranges of annotations among the method's modifiers.
    pub annotations: Vec<Range<usize>>,
    /// Visible locals, innermost first, without shadowed duplicates.
    pub locals: Vec<Local>,
    /// Enclosing labels, innermost first.
    pub labels: Vec<Label>,
    pub in_loop: bool,
    pub breakable: bool,
    /// The target is the last statement of its block (a stub there may need to end abruptly).
    pub last_in_block: bool,
    /// The target ends the body of a non-void method: the stub must not complete normally,
    /// and every patch that could would fail javac's missing-return check in its context copy.
    pub ends_method: bool,
    /// When the target is the body of an `if`/loop without braces: the start byte and kind of
    /// that statement (a patch there must stay exactly one statement of the same parent).
    pub braceless_parent: Option<(usize, String)>,
    /// Exception types caught around the location (`catch` clauses of enclosing `try` bodies),
    /// which a generated method may throw at its call in the stub.
    pub caught: Vec<String>,
    /// Names a later statement of the method may read ([`read_after`]): a local outside it is
    /// dead after the location, and a change to it is no change a test can see.
    pub read_after: std::collections::BTreeSet<String>,
    /// The JVM method the site's code runs in when that is not the declared method: `<clinit>`
    /// or `<init>` for an initialiser block hoisted in place (`weave::in_place`).
    pub frame: Option<&'static str>,
}

impl Site {
    /// The name a JVM frame of the site's code shows: `<init>` for a constructor.
    pub fn frame_method(&self) -> &str {
        match self.frame {
            Some(f) => f,
            None if self.is_constructor => "<init>",
            None => &self.name,
        }
    }
}

const STATEMENTS: &[&str] = &[
    "expression_statement",
    "if_statement",
    "while_statement",
    "for_statement",
    "enhanced_for_statement",
    "do_statement",
    "break_statement",
    "continue_statement",
    "return_statement",
    "throw_statement",
    "try_statement",
    "try_with_resources_statement",
    "synchronized_statement",
    "labeled_statement",
    "assert_statement",
    "yield_statement",
    "local_variable_declaration",
    "block",
];
const BLOCKS: &[&str] = &["block", "constructor_body", "switch_block_statement_group"];
const LOOPS: &[&str] = &[
    "for_statement",
    "enhanced_for_statement",
    "while_statement",
    "do_statement",
];
const STATEMENT_PARENTS: &[&str] = &[
    "block",
    "constructor_body",
    "switch_block_statement_group",
    "labeled_statement",
    "if_statement",
    "while_statement",
    "for_statement",
    "enhanced_for_statement",
    "do_statement",
];

fn is_statement(n: Node) -> bool {
    if STATEMENTS.contains(&n.kind()) {
        // A block is a statement only in statement position (not a method body).
        return n.kind() != "block"
            || n.parent()
                .is_some_and(|p| STATEMENT_PARENTS.contains(&p.kind()));
    }
    n.kind() == "switch_expression"
        && n.parent()
            .is_some_and(|p| STATEMENT_PARENTS.contains(&p.kind()))
}

/// Finds the statement(s) covering `range` and analyses their surroundings.
pub fn analyse(src: &str, root: Node, range: Range<usize>) -> Result<Site, Unsupported> {
    if range.is_empty() {
        return Err(Unsupported::Insertion);
    }
    let mut n = root
        .named_descendant_for_byte_range(range.start, range.end)
        .ok_or(Unsupported::NotFound)?;
    // Trim whitespace-only edges: the covering node must actually contain the range.
    while n.start_byte() > range.start || n.end_byte() < range.end {
        n = match n.parent() {
            Some(p) => p,
            None => return Err(Unsupported::OutsideStatements),
        };
    }
    // Inside a lambda the statement to replace is the one around the outermost lambda, in the
    // enclosing method: the lambda moves into the unit whole, its body patched, where its
    // parameters and locals keep the types javac infers for them (docs/weaving.md, "A location
    // inside a lambda").
    if let Some(lambda) = outermost_lambda(n) {
        n = lambda;
    }
    let (target, first, last) = if BLOCKS.contains(&n.kind())
        && range.start > n.start_byte()
        && range.end < n.end_byte()
        && n.kind() != "switch_block_statement_group"
        || n.kind() == "switch_block_statement_group"
    {
        // A run of sibling statements inside a block.
        let mut cur = n.walk();
        let kids: Vec<Node> = n
            .named_children(&mut cur)
            .filter(|c| c.end_byte() > range.start && c.start_byte() < range.end)
            .collect();
        // Comments between and around the statements go into the unit with them: they are
        // the patches' text to replace like any other (a whole method body's patches span its
        // comments), and no statement reads them.
        if let Some(k) = kids.iter().find(|k| !is_statement(**k) && !is_comment(**k)) {
            return Err(Unsupported::NotStatement(k.kind().to_string()));
        }
        let statements: Vec<Node> = kids.iter().copied().filter(|k| is_statement(*k)).collect();
        let (Some(first), Some(last)) = (statements.first().copied(), statements.last().copied())
        else {
            return Err(Unsupported::NoStatement);
        };
        let (from, to) = (kids[0].start_byte(), kids[kids.len() - 1].end_byte());
        (from..to, first, last)
    } else {
        let mut s = n;
        while !is_statement(s) {
            s = match s.parent() {
                Some(p) => p,
                None => return Err(Unsupported::NotInStatement),
            };
            if matches!(
                s.kind(),
                "class_body" | "interface_body" | "enum_body" | "program"
            ) {
                return Err(Unsupported::NotInStatement);
            }
        }
        while let Some(p) = s.parent() {
            if p.kind() == "labeled_statement" {
                s = p;
            } else {
                break;
            }
        }
        (s.byte_range(), s, s)
    };
    // Declarations cannot move into another method: later statements use them, unless the
    // location runs to the end of its block, where their scope ends (`weave::widen`; a switch
    // group's locals reach the later groups).
    let ends_block = next_code_sibling(last).is_none()
        && last
            .parent()
            .is_some_and(|p| matches!(p.kind(), "block" | "constructor_body"));
    for stmt in siblings_between(first, last) {
        if stmt.kind() == "local_variable_declaration" && !ends_block {
            return Err(Unsupported::Declaration);
        }
        if stmt.kind() == "explicit_constructor_invocation" {
            return Err(Unsupported::ConstructorCall);
        }
    }
    let braceless_parent = last
        .parent()
        .filter(|p| !BLOCKS.contains(&p.kind()))
        .map(|p| (p.start_byte(), p.kind().to_string()));
    let last_in_block = next_code_sibling(last).is_none()
        && last.parent().is_some_and(|p| BLOCKS.contains(&p.kind()));
    let body_of_method = last.parent().and_then(|b| b.parent()).filter(|m| {
        m.kind() == "method_declaration"
            && m.child_by_field_name("body").map(|b| b.id()) == last.parent().map(|p| p.id())
    });

    // Walk up to the enclosing method, collecting labels, loops and scopes.
    let mut labels = Vec::new();
    let mut in_loop = false;
    let mut breakable = false;
    let mut locals: Vec<Local> = Vec::new();
    let mut caught = Vec::new();
    // The outermost loop around the location: its code may run again after it. (A location in a
    // lambda is the statement around the outermost lambda, above.)
    let mut repeats: Option<usize> = None;
    let mut child = first;
    let mut cur = first.parent();
    // Statements before the location's path in the blocks walked so far (collect_block_locals).
    let mut inner = Vec::new();
    let method = loop {
        let Some(p) = cur else {
            return Err(Unsupported::NoMethod);
        };
        match p.kind() {
            "method_declaration" | "constructor_declaration" => break p,
            "compact_constructor_declaration" => return Err(Unsupported::CompactConstructor),
            "static_initializer" | "field_declaration" | "class_body" | "interface_body"
            | "enum_body" | "program" => return Err(Unsupported::NotInBody),
            "labeled_statement" => {
                let name = p
                    .named_child(0)
                    .map(|l| text(src, l).to_string())
                    .unwrap_or_default();
                let is_loop = p.named_child(1).is_some_and(|s| LOOPS.contains(&s.kind()));
                labels.push(Label { name, is_loop });
            }
            k if LOOPS.contains(&k) => {
                if p.child_by_field_name("body")
                    .is_some_and(|b| b.id() == child.id())
                {
                    in_loop = true;
                    breakable = true;
                    repeats = Some(p.start_byte());
                }
                collect_loop_locals(src, p, child, &mut locals);
            }
            "switch_block_statement_group" | "switch_block" | "switch_rule" => breakable = true,
            "catch_clause" => collect_catch_local(src, p, &mut locals),
            "try_with_resources_statement" => collect_resources(src, p, child, &mut locals),
            _ => {}
        }
        if matches!(p.kind(), "try_statement" | "try_with_resources_statement")
            && p.child_by_field_name("body")
                .is_some_and(|b| b.id() == child.id())
        {
            collect_caught(src, p, &mut caught);
        }
        if BLOCKS.contains(&p.kind()) {
            collect_block_locals(src, p, child, target.start, &mut inner, &mut locals);
        }
        child = p;
        cur = p.parent();
    };
    let is_constructor = method.kind() == "constructor_declaration";
    let params = method
        .child_by_field_name("parameters")
        .ok_or(Unsupported::NoParameters)?;
    collect_params(src, params, &mut locals);

    let (is_static, annotations) = modifiers(method);
    let mut throws = String::new();
    let mut tc = method.walk();
    for c in method.children(&mut tc) {
        if c.kind() == "throws" {
            throws = text(src, c).to_string();
        }
    }
    let type_params = method
        .child_by_field_name("type_parameters")
        .map(|t| text(src, t).to_string())
        .unwrap_or_default();
    let name_node = method
        .child_by_field_name("name")
        .ok_or(Unsupported::NoName)?;
    let return_type = if is_constructor {
        "void".to_string()
    } else {
        let t = method
            .child_by_field_name("type")
            .map(|t| text(src, t).to_string())
            .unwrap_or_else(|| "void".into());
        let dims = method
            .child_by_field_name("dimensions")
            .map(|d| text(src, d).to_string())
            .unwrap_or_default();
        format!("{t}{dims}")
    };
    let return_type_text = return_type.clone();
    let in_interface = method
        .parent()
        .is_some_and(|p| p.kind() == "interface_body");

    // Drop shadowed duplicates (innermost wins).
    let mut seen = std::collections::HashSet::new();
    locals.retain(|l| seen.insert(l.name.clone()));
    let read_after = read_after(src, target.end, repeats, method.end_byte());
    Ok(Site {
        target,
        method: method.byte_range(),
        is_constructor,
        is_static,
        in_interface,
        type_params,
        return_type,
        throws,
        name: text(src, name_node).to_string(),
        name_range: name_node.byte_range(),
        params_range: params.byte_range(),
        annotations,
        locals,
        labels,
        in_loop,
        breakable,
        last_in_block,
        ends_method: last_in_block
            && body_of_method.is_some()
            && return_type_is_value(&return_type_text),
        braceless_parent,
        caught,
        read_after,
        frame: None,
    })
}

/// Names that code running after the location may read: every identifier (not after a `.`) of
/// the method from the location's end, or, when the location is in a loop, from the outermost
/// loop's start (its code before the location runs again), but the targets of plain `x = …`
/// assignments and declarators. Conservative: a compound assignment, a field of the same name,
/// a label or a method named alike counts as a read. A local the patches write that is not
/// among them is dead after the location: no path of the method reads it again (a lambda or
/// class body reading it would need it effectively final, which a patch writing it is not), so
/// patches whose changes differ only there are test-equivalent (dependency-based equivalence,
/// docs/deduplication.md); in a loop, only if no patch's own text reads it either
/// (`weave::emit`).
fn read_after(
    src: &str,
    end: usize,
    repeats: Option<usize>,
    method_end: usize,
) -> std::collections::BTreeSet<String> {
    let from = repeats.unwrap_or(end);
    super::tokens::scan(&src[from..method_end]).read
}

fn is_comment(n: Node) -> bool {
    matches!(n.kind(), "line_comment" | "block_comment")
}

/// The next named sibling of `n` that is not a comment.
fn next_code_sibling(n: Node) -> Option<Node> {
    let mut s = n.next_named_sibling();
    while let Some(c) = s.filter(|c| is_comment(*c)) {
        s = c.next_named_sibling();
    }
    s
}

fn return_type_is_value(t: &str) -> bool {
    t != "void"
}

pub(super) fn siblings_between<'t>(first: Node<'t>, last: Node<'t>) -> Vec<Node<'t>> {
    let mut out = vec![first];
    let mut n = first;
    while n.id() != last.id() {
        match n.next_named_sibling() {
            Some(s) => {
                out.push(s);
                n = s;
            }
            None => break,
        }
    }
    out
}

/// The outermost lambda expression around `n` within its method, constructor or initialiser.
fn outermost_lambda(n: Node) -> Option<Node> {
    let mut found = None;
    let mut cur = Some(n);
    while let Some(p) = cur {
        match p.kind() {
            "lambda_expression" => found = Some(p),
            "method_declaration"
            | "constructor_declaration"
            | "compact_constructor_declaration"
            | "static_initializer"
            | "class_body"
            | "interface_body"
            | "enum_body"
            | "program" => break,
            _ => {}
        }
        cur = p.parent();
    }
    found
}

/// Whether a method, constructor or initialiser is `static`, and the byte ranges of its
/// annotations among its modifiers.
pub(super) fn modifiers(method: Node) -> (bool, Vec<Range<usize>>) {
    let mut is_static = false;
    let mut annotations = Vec::new();
    let mut mc = method.walk();
    for c in method.children(&mut mc) {
        if c.kind() == "modifiers" {
            let mut m = c.walk();
            for k in c.children(&mut m) {
                match k.kind() {
                    "static" => is_static = true,
                    "marker_annotation" | "annotation" => annotations.push(k.byte_range()),
                    _ => {}
                }
            }
        }
    }
    (is_static, annotations)
}

#[cfg(test)]
#[path = "scope_tests.rs"]
mod tests;
