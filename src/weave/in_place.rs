//! An initialiser block woven where plain runs it: planned as the body of a method declared in
//! place on the block's first line, then put back after each weave, so the stub and inline
//! patches are code of `<clinit>` or `<init>` (docs/weaving.md, "A location in a static
//! initialiser block"), with the blank finals the block assigns stood for, in the context
//! copies, by `final` locals.

use super::hoist::{around, Around, Hoisted};
use super::text;
use std::collections::BTreeSet;
use std::ops::Range;
use tree_sitter::Node;

/// The whole initialiser block around `range` made, for planning and weaving, the body of a
/// method declared in place: its opening brace `{` becomes `{ __pv_static_N(); } private static
/// void __pv_static_N() {` on the same line, so every byte after it keeps its line and the block's
/// statements, its locals among them, are one method body. The weave is then put back
/// ([`Unhoist`]): the stub and the inline patches run in the initialiser itself, with plain's
/// frames (`<clinit>`, `<init>`), and only the generated units are methods. `None` where
/// [`around`] finds no block or the block names a blank final of its kind (a method may not
/// assign it); the guarded names are as for [`super::hoist::block`].
pub fn in_place(src: &str, range: Range<usize>) -> Option<(Hoisted, Unhoist)> {
    let tree = super::parser().parse(src, None)?;
    let a = around(src, tree.root_node(), &range)?;
    // `this.b` names the field too (and assigns it, in an instance block).
    let scan = super::tokens::scan(text(src, a.block));
    let names: BTreeSet<String> = scan.names.union(&scan.this_names).cloned().collect();
    let mut shadows = Vec::new();
    let mut guarded = a.guarded.clone();
    for b in a.blank.iter().filter(|b| names.contains(*b)) {
        shadows.push((shadowable(src, &a, b)?, b.clone()));
        guarded.remove(b);
    }
    let (method, modifier) = a.method(src, a.block.start_byte())?;
    let at = a.block.start_byte();
    let header = format!("{{ {method}(); }} private {modifier}void {method}() {{");
    let out = format!("{}{header}{}", &src[..at], &src[at + 1..]);
    let shift = header.len() - 1;
    let hoisted = Hoisted {
        src: out,
        range: range.start + shift..range.end + shift,
        method,
        what: a.what(),
        guarded,
    };
    let unhoist = Unhoist {
        at,
        header,
        frame: if a.is_static { "<clinit>" } else { "<init>" },
        shadows,
    };
    Some((hoisted, unhoist))
}

/// The declared type of blank final `b`, which the block names, when a local `final` of that
/// type in the context copies judges every use of `b` there as javac judges the field's in the
/// block (JLS 16 gives both the same definite (un)assignment, and a copy's read of the local at
/// its end stands for the field's being assigned when the initialiser ends): `b` is declared
/// before the block, no initialiser of its kind before the block names it (so it is unassigned
/// where the block starts), the block never qualifies it (`this.b`, `C.b` name the field) and
/// holds no lambda, method reference or class body (which read a field unassigned where they
/// may not read a local).
fn shadowable(src: &str, a: &Around, b: &str) -> Option<String> {
    let ty = a.blank_types.get(b)?.clone()?;
    let named = |r: &Range<usize>| {
        let scan = super::tokens::scan(&src[r.clone()]);
        scan.names.contains(b) || scan.this_names.contains(b)
    };
    if a.earlier.iter().any(named)
        || qualified(text(src, a.block), b)
        || has_closure(a.block)
        || declares(src, a.block, b)
    {
        return None;
    }
    Some(ty)
}

/// Whether `n` declares a local, parameter or resource named `name` (the copy's local of that
/// name would make it a second declaration, where in the block it hides the field).
fn declares(src: &str, n: Node, name: &str) -> bool {
    let declaring = matches!(
        n.kind(),
        "variable_declarator"
            | "catch_formal_parameter"
            | "formal_parameter"
            | "enhanced_for_statement"
            | "resource"
            | "local_class_declaration"
    );
    if declaring
        && n.child_by_field_name("name")
            .is_some_and(|k| text(src, k) == name)
    {
        return true;
    }
    let mut c = n.walk();
    let found = n.named_children(&mut c).any(|k| declares(src, k, name));
    found
}

/// Why a patch of a block whose blank final `name` a copy's local stands for ([`Unhoist`])
/// cannot be judged there: it declares something of that name (a second declaration in the
/// copy), names it in a lambda, method reference or class body (which may read the field where
/// the local could not be captured), or does not parse as statements.
pub fn declares_shadowed(patch: &str, shadows: &[(String, String)]) -> Option<String> {
    if shadows.is_empty() {
        return None;
    }
    let text = format!("class __PV {{ void __m() {{\n{patch}\n}} }}");
    let tree = super::parser().parse(&text, None)?;
    let root = tree.root_node();
    let scan = super::tokens::scan(patch);
    // The wrapper's own class body is no closure of the patch's.
    let body = (|| {
        let class = root.named_child(0)?.child_by_field_name("body")?;
        class.named_child(0)?.child_by_field_name("body")
    })();
    let closure = body.is_none_or(has_closure);
    let (_, name) = shadows.iter().find(|(_, b)| {
        let named = scan.names.contains(b) || scan.this_names.contains(b);
        root.has_error() || declares(&text, root, b) || named && closure
    })?;
    Some(format!(
        "the patch declares `{name}`, or names it in a lambda or class body, beside the blank \
         final field of that name, for which its context copy has a local: validated alone"
    ))
}

/// Whether `text` holds `name` after a `.` (comments and strings too: an answer on the safe side).
fn qualified(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(i, _)| {
        let word_end = text[i + name.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '$'));
        word_end && text[..i].trim_end().ends_with('.')
    })
}

/// Whether a lambda, a method reference or a class body lies in `n`.
fn has_closure(n: Node) -> bool {
    if matches!(
        n.kind(),
        "lambda_expression" | "method_reference" | "class_body"
    ) {
        return true;
    }
    let mut c = n.walk();
    let found = n.named_children(&mut c).any(has_closure);
    found
}

/// How to put an in-place hoist ([`in_place`]) back into a woven text: the header at byte `at`
/// (before the location, so a weave keeps it at the same offset) becomes `{` again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unhoist {
    pub at: usize,
    pub header: String,
    /// The JVM method the block's code runs in: `<clinit>`, or `<init>` for an instance block.
    pub frame: &'static str,
    /// The blank finals of the block's kind the block names (type, name), declared as `final`
    /// locals of the context copies ([`Unhoist::shadow`]); a location that may assign one has
    /// every patch inline (`weave::finals`).
    pub shadows: Vec<(String, String)>,
}

impl Unhoist {
    /// A context copy (`emit::context_copy`: a method whose body is the block, patched) with a
    /// `final` local per shadowed blank final declared where its body opens and read where it
    /// ends, on the lines they open and end: javac then judges the patch's assignments and reads
    /// of the field as in the initialiser. The copy unchanged when there are none.
    pub fn shadow(&self, copy: &str) -> String {
        if self.shadows.is_empty() {
            return copy.to_string();
        }
        let (Some(open), Some(close)) = (copy.find('{'), copy.rfind('}')) else {
            return copy.to_string();
        };
        let decls: String = self
            .shadows
            .iter()
            .map(|(ty, name)| format!(" final {ty} {name};"))
            .collect();
        let reads: String = self
            .shadows
            .iter()
            .map(|(_, name)| format!(" Object __pv_read_{name} = {name};"))
            .collect();
        format!(
            "{}{decls}{}{reads} {}",
            &copy[..=open],
            &copy[open + 1..close],
            &copy[close..]
        )
    }

    /// `woven` with the initialiser block back in place; `None` when the header is not where it
    /// was put (a weave that wrote before the location).
    pub fn apply(&self, woven: &str) -> Option<String> {
        let end = self.at + self.header.len();
        (woven.get(self.at..end)? == self.header)
            .then(|| format!("{}{{{}", &woven[..self.at], &woven[end..]))
    }
}
