//! Other methods a patch changes beside its set's location: found among its token changes (each
//! change grouped by the member it lies in), and woven inline in their own method, whose body
//! becomes a dispatch on the chosen patch running that patch's version of the body or the
//! original one. No frame is added and every line is the patched file's (docs/weaving.md,
//! "Patches that change several methods").

use super::emit::fill;
use super::frames::{line_at, line_starts, Layout};
use super::lexed::{Change, Hunks, Token};
use super::UnitKind;
use crate::protocol;
use std::ops::Range;
use std::sync::LazyLock;
use tree_sitter::Node;

static DISPATCH: LazyLock<String> = LazyLock::new(|| {
    protocol::fill_values(include_str!("../../templates/site_dispatch.java").trim_end())
});
static SPLIT: LazyLock<String> = LazyLock::new(|| {
    protocol::fill_values(include_str!("../../templates/site_split.java").trim_end())
});

/// A patch's version of another method's body than its set's location: woven inline in that
/// method beside the original body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// The method's declaration in the original file.
    pub method: Range<usize>,
    /// Its body block in the original file.
    pub body: Range<usize>,
    /// Its name, and its annotations, in the original file (for its context copy).
    pub name: Range<usize>,
    pub annotations: Vec<Range<usize>>,
    /// The patch's body block, as its whole patched file has it.
    pub text: String,
    /// Where `text` stands in the whole patched file, and the line it starts on there.
    pub at: Range<usize>,
    pub line: usize,
}

/// Why a patch's change of another member cannot be woven as that method's branch.
pub(super) const NOT_A_BODY: &str =
    "the patch changes another member than its set's location beyond a method's body";
const DECLARES_CLASS: &str =
    "the patch changes another method whose body declares a class (its binary name would move)";

/// Patch's change `c` of the member starting at `member` (not the set's location) as a branch
/// of that method: it must lie inside the body of a method (not a constructor or initialiser),
/// neither body may declare a class (anonymous or local: numbered by position), and the
/// patched file's text between the body's braces must be its body there.
#[allow(clippy::too_many_arguments)]
pub(super) fn branch(
    root: Node,
    o: &[Token],
    member: usize,
    c: &Change,
    hunks: &Hunks,
    f: &[Token],
    full: &str,
    full_root: Node,
) -> Result<Branch, &'static str> {
    let mut n = root
        .descendant_for_byte_range(member, member)
        .ok_or(NOT_A_BODY)?;
    while n.start_byte() != member || n.kind() != "method_declaration" {
        n = n.parent().ok_or(NOT_A_BODY)?;
        if n.start_byte() < member {
            return Err(NOT_A_BODY);
        }
    }
    let body = n.child_by_field_name("body").ok_or(NOT_A_BODY)?;
    let b = body.byte_range();
    if !(b.start < c.original.start && c.original.end < b.end) {
        return Err(NOT_A_BODY);
    }
    if declares_class(body) {
        return Err(DECLARES_CLASS);
    }
    let open = o.iter().position(|t| t.range.start == b.start);
    let close = o.iter().position(|t| t.range.end == b.end);
    let (Some(open), Some(close)) = (
        open.and_then(|i| hunks.partner(i)),
        close.and_then(|i| hunks.partner(i)),
    ) else {
        return Err(NOT_A_BODY);
    };
    let (Some(open), Some(close)) = (f.get(open), f.get(close)) else {
        return Err(NOT_A_BODY);
    };
    let range = open.range.start..close.range.end;
    let new_body = full_root
        .descendant_for_byte_range(range.start, range.end)
        .filter(|k| k.kind() == "block" && k.byte_range() == range)
        .filter(|k| k.parent().is_some_and(|m| m.kind() == "method_declaration"))
        .ok_or(NOT_A_BODY)?;
    if declares_class(new_body) {
        return Err(DECLARES_CLASS);
    }
    let (_, annotations) = super::scope::modifiers(n);
    Ok(Branch {
        method: n.byte_range(),
        body: b,
        name: n
            .child_by_field_name("name")
            .ok_or(NOT_A_BODY)?
            .byte_range(),
        annotations,
        text: full[range.clone()].to_string(),
        line: line_at(&line_starts(full), range.start),
        at: range,
    })
}

/// Whether `n` holds a class body (an anonymous or local class).
fn declares_class(n: Node) -> bool {
    let mut c = n.walk();
    let mut stack = vec![n];
    while let Some(k) = stack.pop() {
        if matches!(
            k.kind(),
            "class_body" | "enum_body" | "interface_body" | "record_declaration"
        ) {
            return true;
        }
        stack.extend(k.children(&mut c));
    }
    false
}

impl super::Plan {
    /// Each patch's versions of other methods' bodies (`trivia::reduce`), woven in those
    /// methods. They are found in `original`: a plan made on a file rewritten to be planned
    /// (a declaration split, an initialiser hoisted) leaves such a patch unwoven, and so does a
    /// plan whose method holds one of those methods. Call before `inline_stack_exposed`.
    pub fn add_branches(&mut self, original: &str, branches: &[Vec<Branch>]) {
        let method = self.site.method.clone();
        for (i, theirs) in branches.iter().enumerate().take(self.branches.len()) {
            if theirs.is_empty() || self.excluded[i].is_some() {
                continue;
            }
            let inside = theirs
                .iter()
                .any(|b| b.method.start < method.end && method.start < b.method.end);
            self.excluded[i] = if self.src != original || self.unhoist.is_some() {
                Some(
                    "the patch changes another method, and its location's file is rewritten \
                     to be planned"
                        .to_string(),
                )
            } else if inside {
                Some("the patch changes a method inside or around its location's".to_string())
            } else {
                self.branches[i] = theirs.clone();
                None
            };
        }
    }

    /// Bytes patch `i`'s versions of other methods add to a weave: each body, and its method's
    /// context copy.
    pub fn branch_bytes(&self, i: usize) -> usize {
        self.branches[i]
            .iter()
            .map(|b| 2 * b.text.len() + b.method.len())
            .sum()
    }

    /// How many woven patches change other methods' bodies too (`add_branches`).
    pub fn with_branches(&self) -> usize {
        (0..self.branches.len())
            .filter(|&i| !self.branches[i].is_empty() && self.excluded[i].is_none())
            .count()
    }
}

/// The other methods one weave changes: per method, in the file's order, the included patches'
/// branches in order of the patch.
pub(super) struct Sites<'a> {
    methods: Vec<Vec<(usize, &'a Branch)>>,
    site: u32,
    with_context: bool,
}

impl<'a> Sites<'a> {
    pub(super) fn new(
        branches: &'a [Vec<Branch>],
        include: &[usize],
        site: u32,
        with_context: bool,
    ) -> Sites<'a> {
        let mut methods: Vec<Vec<(usize, &Branch)>> = Vec::new();
        let mut sorted = include.to_vec();
        sorted.sort_unstable();
        for &i in &sorted {
            for b in branches.get(i).into_iter().flatten() {
                match methods.iter_mut().find(|m| m[0].1.body == b.body) {
                    Some(m) => m.push((i, b)),
                    None => methods.push(vec![(i, b)]),
                }
            }
        }
        methods.sort_by_key(|m| m[0].1.body.start);
        Sites {
            methods,
            site,
            with_context,
        }
    }

    /// Appends `src[range]` to `text`, every method of these sites inside it woven as a
    /// dispatch (with its context copies after it when the weave has them).
    pub(super) fn copy(
        &self,
        text: &mut String,
        layout: &mut Layout,
        spans: &mut Vec<(usize, UnitKind, Range<usize>)>,
        src: &str,
        range: Range<usize>,
    ) {
        let mut at = range.start;
        for (k, m) in self.methods.iter().enumerate() {
            let first = m[0].1;
            if first.method.start < range.start || range.end < first.method.end {
                continue;
            }
            layout.copy(text, src, at..first.body.start);
            let parts: Vec<&str> = split_at_holes(&DISPATCH, &["original", "patches"]);
            let indices: Vec<usize> = m.iter().map(|(i, _)| *i).collect();
            let values = [
                ("k", k.to_string()),
                ("site", self.site.to_string()),
                ("none", none(k, &indices)),
            ];
            let values: Vec<(&str, &str)> = values.iter().map(|(a, b)| (*a, b.as_str())).collect();
            text.push_str(&fill(parts[0], &values));
            layout.copy(text, src, first.body.clone());
            text.push_str(&fill(parts[1], &values));
            self.tree(text, layout, spans, k, m);
            text.push_str(&fill(parts[2], &values));
            text.push('\n');
            layout.copy(text, src, first.body.end - 1..first.body.end);
            layout.copy(text, src, first.body.end..first.method.end);
            at = first.method.end;
            if self.with_context {
                for (i, b) in m {
                    // On lines of its own: an error javac reports at the method's closing brace
                    // (a dispatch that may complete normally) is no copy's.
                    text.push('\n');
                    let start = text.len();
                    text.push_str(&context_copy(src, b, *i, k));
                    spans.push((*i, UnitKind::Context, start..text.len()));
                }
            }
        }
        layout.copy(text, src, at..range.end);
    }

    /// The branches of one method, a balanced tree of `if`s on the chosen patch (a chain of a
    /// thousand `else if`s overflows javac's recursion), each patch's body at its leaf.
    fn tree(
        &self,
        text: &mut String,
        layout: &mut Layout,
        spans: &mut Vec<(usize, UnitKind, Range<usize>)>,
        k: usize,
        branches: &[(usize, &Branch)],
    ) {
        if let [(i, b)] = branches {
            // On a line of its own: every line of the body is the patched file's.
            text.push('\n');
            let start = text.len();
            layout.exact(text, *i, &b.text, b.line);
            spans.push((*i, UnitKind::Branch, start..text.len()));
            return;
        }
        let (low, high) = branches.split_at(branches.len() / 2);
        let parts = split_at_holes(&SPLIT, &["low", "high"]);
        let values = [("k", k.to_string()), ("middle", high[0].0.to_string())];
        let values: Vec<(&str, &str)> = values.iter().map(|(a, b)| (*a, b.as_str())).collect();
        text.push_str(&fill(parts[0], &values));
        self.tree(text, layout, spans, k, low);
        text.push_str(&fill(parts[1], &values));
        self.tree(text, layout, spans, k, high);
        text.push_str(&fill(parts[2], &values));
    }
}

/// `template` cut at each of `holes` (`{{name}}`, in order): the text around them.
fn split_at_holes<'t>(template: &'t str, holes: &[&str]) -> Vec<&'t str> {
    let mut out = Vec::new();
    let mut rest = template;
    for h in holes {
        let mark = format!("{{{{{h}}}}}");
        let at = rest.find(&mark).expect("the template has the hole");
        out.push(&rest[..at]);
        rest = &rest[at + mark.len()..];
    }
    out.push(rest);
    out
}

/// `__pv_s<k>` is none of `indices`, as a balanced tree of `&&`.
fn none(k: usize, indices: &[usize]) -> String {
    match indices {
        [i] => format!("__pv_s{k} != {i}"),
        _ => {
            let (low, high) = indices.split_at(indices.len() / 2);
            format!("({} && {})", none(k, low), none(k, high))
        }
    }
}

/// The method of `b` with patch `index`'s body, renamed beside it and its annotations left out:
/// never run, it lets javac judge that body in its method as the patched file has it.
fn context_copy(src: &str, b: &Branch, index: usize, k: usize) -> String {
    let base = b.method.start;
    let mut edits: Vec<(Range<usize>, String)> = b
        .annotations
        .iter()
        .map(|a| (a.clone(), String::new()))
        .collect();
    let name = &src[b.name.clone()];
    edits.push((b.name.clone(), format!("__pv_ctx{index}_{k}_{name}")));
    edits.push((b.body.clone(), b.text.clone()));
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut text = src[b.method.clone()].to_string();
    for (r, with) in edits {
        text.replace_range(r.start - base..r.end - base, &with);
    }
    format!("    // patchval: context copy of `{name}` for patch {index}\n    {text}\n")
}
