//! Edits that change no token left out of a set: each patch reduced to the part of its text
//! where its tokens differ from the original's (a javadoc reworded, lines re-indented or a
//! comment added away from the code are not woven), the location narrowed to what those parts
//! span, and each patch's lines mapped back to its whole patched file's.
//!
//! javac reads a file as its sequence of tokens: comments and whitespace between them change
//! nothing it writes but line numbers (which the `Remap`s carry to the class files' line
//! tables, `frames::Shift`), with three exceptions a patch's left-out text must not touch: a
//! javadoc `@deprecated` tag (it marks the member deprecated), a `\u` escape (javac translates
//! it before it reads tokens, so a comment can hold code) and a character outside ASCII (javac
//! refuses one its source encoding cannot map, wherever it stands). docs/weaving.md ("Edits
//! that change no token").

use super::frames::{line_at, line_starts, Remap};
use std::ops::Range;

/// A set's location narrowed to the patches' token changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reduced {
    /// The narrowed location in the original file.
    pub range: Range<usize>,
    /// Each patch's text for it.
    pub patches: Vec<String>,
    /// Each patch's lines of the file so patched, moved to its whole patched file's.
    pub remaps: Vec<Remap>,
    /// How many patches lost an edit (the others' texts are as they were, cut to the range).
    pub reduced: usize,
    /// Per patch: the methods it adds beside its code, woven as members of their own.
    pub helpers: Vec<Vec<Helper>>,
    /// Per patch: why it is left whole (its text here is the original's: it is not woven).
    pub left: Vec<Option<String>>,
}

/// A method a patch adds (`added`): its declaration and the line of the whole patched file it
/// starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Helper {
    pub name: String,
    pub text: String,
    pub line: usize,
}

/// One token of a file: its grammar kind and where it is. String and character literals are
/// one token each (their inside is not comments and whitespace between tokens).
#[derive(Debug, Clone)]
struct Token {
    kind: u16,
    range: Range<usize>,
}

fn is_comment(kind: &str) -> bool {
    matches!(kind, "line_comment" | "block_comment")
}

/// The tokens of `text` in order, or `None` when it does not parse or something other than
/// whitespace and comments lies between two of them.
fn tokens(p: &mut tree_sitter::Parser, text: &str) -> Option<Vec<Token>> {
    tokens_but(p, text, &[])
}

/// [`tokens`], the nodes within `hidden` (methods a patch adds, woven apart) read as comments.
fn tokens_but(
    p: &mut tree_sitter::Parser,
    text: &str,
    hidden: &[Range<usize>],
) -> Option<Vec<Token>> {
    let tree = p.parse(text, None)?;
    let mut out = Vec::new();
    let mut gaps_ok = true;
    let mut last_end = 0;
    let mut cursor = tree.walk();
    'walk: loop {
        let n = cursor.node();
        let unseen = is_comment(n.kind())
            || hidden
                .iter()
                .any(|h| h.start <= n.start_byte() && n.end_byte() <= h.end);
        let whole = n.child_count() == 0
            || matches!(n.kind(), "string_literal" | "character_literal")
            || unseen;
        if whole {
            if !unseen {
                out.push(Token {
                    kind: n.kind_id(),
                    range: n.byte_range(),
                });
            }
            // Between the previous token or comment and this one: whitespace only.
            if n.start_byte() >= last_end {
                gaps_ok &= text[last_end..n.start_byte()].trim().is_empty();
                last_end = n.end_byte();
            }
        } else if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    gaps_ok &= text[last_end.min(text.len())..].trim().is_empty();
    gaps_ok.then_some(out)
}

/// Whether two token lists read the same, token for token.
fn same_tokens(a: &[Token], a_text: &str, b: &[Token], b_text: &str) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.kind == y.kind && a_text[x.range.clone()] == b_text[y.range.clone()])
}

/// One patch's token change: the byte range of the original it replaces and the range of the
/// whole patched file that replaces it.
#[derive(Clone, Debug)]
struct Change {
    original: Range<usize>,
    patched: Range<usize>,
}

/// Where the tokens of `patched` differ from `original`'s: from the end of their common first
/// tokens to the start of their common last ones, in both; `None` when they are the same.
fn change(o: &[Token], src: &str, f: &[Token], full: &str) -> Option<Change> {
    let eq =
        |x: &Token, y: &Token| x.kind == y.kind && src[x.range.clone()] == full[y.range.clone()];
    let prefix = o.iter().zip(f).take_while(|(x, y)| eq(x, y)).count();
    if prefix == o.len() && prefix == f.len() {
        return None;
    }
    let room = o.len().min(f.len()) - prefix;
    let suffix = o
        .iter()
        .rev()
        .zip(f.iter().rev())
        .take(room)
        .take_while(|(x, y)| eq(x, y))
        .count();
    let start = |t: &[Token]| {
        if prefix == 0 {
            0
        } else {
            t[prefix - 1].range.end
        }
    };
    let end = |t: &[Token], text: &str| {
        if suffix == 0 {
            text.len()
        } else {
            t[t.len() - suffix].range.start
        }
    };
    Some(Change {
        original: start(o)..end(o, src),
        patched: start(f)..end(f, full),
    })
}

/// The remap from the lines of `reduced` to those of `full`, token for token (the two hold
/// the same tokens).
fn remap(r: &[Token], reduced: &str, f: &[Token], full: &str) -> Remap {
    let (rs, fs) = (line_starts(reduced), line_starts(full));
    let points = r
        .iter()
        .zip(f)
        .map(|(x, y)| {
            let (a, b) = (line_at(&rs, x.range.start), line_at(&fs, y.range.start));
            (a, b as isize - a as isize)
        })
        .collect();
    Remap::new(points)
}

/// Whether a patch may lose the text of `dropped` (see the module's doc).
fn may_drop(dropped: &str) -> bool {
    dropped.is_ascii() && !dropped.contains("\\u") && !dropped.contains("@deprecated")
}

/// One patch as `reduce` reads it.
struct Read {
    full: String,
    change: Option<Change>,
    hidden: Vec<Range<usize>>,
    helpers: Vec<Helper>,
    left: Option<String>,
    reduced: String,
    remap: Remap,
}

/// `range` of `src` narrowed to where the patches' tokens change, with each patch's text there,
/// its lines mapped back and the methods it adds (`added`) apart; `None` when no patch has an
/// edit to leave out (nothing to narrow) or the original does not read as tokens. A patch that
/// cannot be narrowed so is left whole (`Reduced::left`).
pub fn reduce(src: &str, range: Range<usize>, patches: &[String]) -> Option<Reduced> {
    let mut p = super::parser();
    let o = tokens(&mut p, src)?;
    let mut read: Vec<Read> = patches
        .iter()
        .map(|patch| read_patch(&mut p, src, &o, &range, patch))
        .collect();
    // A method one patch adds must be named by no other patch (it would reach it, woven).
    for (i, r) in read.iter_mut().enumerate() {
        let clash = r.helpers.iter().find(|h| {
            patches
                .iter()
                .enumerate()
                .any(|(j, t)| j != i && mentions(t, &h.name))
        });
        if let Some(h) = clash {
            r.left = Some(format!(
                "the patch adds the method `{}`, a name another patch of the set uses",
                h.name
            ));
        }
    }
    // One location holds the changes of one member: the member most patches change is the
    // set's, the patches changing another (or several) left whole.
    let tree = p.parse(src, None)?;
    let members: Vec<Option<usize>> = read
        .iter()
        .map(|r| {
            let c = r.change.as_ref()?;
            member_of(tree.root_node(), &c.original)
        })
        .collect();
    let mut counts: Vec<(usize, usize)> = Vec::new();
    for m in members.iter().zip(&read).filter(|(_, r)| r.left.is_none()) {
        if let (Some(m), _) = m {
            match counts.iter_mut().find(|(k, _)| k == m) {
                Some((_, n)) => *n += 1,
                None => counts.push((*m, 1)),
            }
        }
    }
    let chosen = counts
        .iter()
        .max_by_key(|(k, n)| (*n, std::cmp::Reverse(*k)))?
        .0;
    for (r, m) in read.iter_mut().zip(&members) {
        if r.left.is_none() && r.change.is_some() && *m != Some(chosen) {
            r.left = Some(
                match m {
                    Some(_) => "the patch changes another member than the one the set is woven in",
                    None => "the patch changes several members",
                }
                .to_string(),
            );
        }
    }
    // The narrowed location: whole lines around every patch's change.
    let kept = || {
        read.iter()
            .filter(|r| r.left.is_none())
            .flat_map(|r| &r.change)
    };
    let lo = kept().map(|c| c.original.start).min()?;
    let hi = kept().map(|c| c.original.end).max()?;
    let lo = src[..lo].rfind('\n').map_or(0, |i| i + 1);
    let hi = if hi > lo && src.as_bytes()[hi - 1] == b'\n' {
        hi
    } else {
        src[hi..].find('\n').map_or(src.len(), |i| hi + i + 1)
    };
    let mut texts = Vec::new();
    for r in &read {
        if r.left.is_some() {
            texts.push(src[lo..hi].to_string());
            continue;
        }
        let tail = r.reduced.len().checked_sub(src.len() - hi)?;
        if tail < lo || r.reduced[..lo] != src[..lo] || r.reduced[tail..] != src[hi..] {
            return None;
        }
        texts.push(r.reduced[lo..tail].to_string());
    }
    // The whitespace every text starts and ends with stays in the file (the weaver takes a
    // location from its first token to its last).
    let unpatched = &src[lo..hi];
    let lead = texts
        .iter()
        .map(|t| common_prefix(unpatched, t, true))
        .min()
        .unwrap_or(0);
    let trail = texts
        .iter()
        .map(|t| common_prefix(&unpatched[lead..], &t[lead.min(t.len())..], false))
        .min()
        .unwrap_or(0);
    let narrowed = lo + lead..hi - trail;
    if narrowed.is_empty() {
        return None;
    }
    let mut out = Reduced {
        range: narrowed,
        patches: Vec::new(),
        remaps: Vec::new(),
        reduced: 0,
        helpers: Vec::new(),
        left: Vec::new(),
    };
    for (r, text) in read.into_iter().zip(&texts) {
        if r.left.is_none() && r.reduced != r.full {
            out.reduced += 1;
        }
        out.patches.push(text[lead..text.len() - trail].to_string());
        let kept = r.left.is_none();
        out.remaps
            .push(if kept { r.remap } else { Remap::default() });
        out.helpers.push(if kept { r.helpers } else { Vec::new() });
        out.left.push(r.left);
    }
    (out.reduced > 0).then_some(out)
}

/// The start of the innermost method, constructor or initialiser of `root` holding `range`.
fn member_of(root: tree_sitter::Node, range: &Range<usize>) -> Option<usize> {
    let mut n = root.descendant_for_byte_range(range.start, range.end)?;
    loop {
        let holds = n.start_byte() <= range.start && range.end <= n.end_byte();
        if holds
            && matches!(
                n.kind(),
                "method_declaration"
                    | "constructor_declaration"
                    | "static_initializer"
                    | "field_declaration"
            )
        {
            return Some(n.start_byte());
        }
        if n.kind() == "class_body" && holds {
            // Between members (an instance initialiser's block is one, below).
            return None;
        }
        if n.kind() == "block" && holds && n.parent().is_some_and(|p| p.kind() == "class_body") {
            return Some(n.start_byte());
        }
        n = n.parent()?;
    }
}

/// One patch read: its whole patched file, its token change with the methods it adds hidden,
/// the file it reduces to and that file's lines mapped to the whole one's, or why it is left.
fn read_patch(
    p: &mut tree_sitter::Parser,
    src: &str,
    o: &[Token],
    range: &Range<usize>,
    patch: &str,
) -> Read {
    let full = format!("{}{patch}{}", &src[..range.start], &src[range.end..]);
    let mut r = Read {
        change: None,
        hidden: Vec::new(),
        helpers: Vec::new(),
        left: None,
        reduced: src.to_string(),
        remap: Remap::default(),
        full,
    };
    if !may_drop(patch) || !may_drop(&src[range.clone()]) {
        r.left = Some(LEFT_TEXT.to_string());
        return r;
    }
    let region = range.start..range.start + patch.len();
    let added = match super::added::added_methods(src, &r.full, region) {
        Ok(added) => added,
        Err(why) => {
            r.left = Some(why.to_string());
            return r;
        }
    };
    r.hidden = added.iter().map(|a| a.range.clone()).collect();
    let starts = line_starts(&r.full);
    r.helpers = added
        .iter()
        .map(|a| Helper {
            name: a.name.clone(),
            text: r.full[a.range.clone()].to_string(),
            line: line_at(&starts, a.range.start),
        })
        .collect();
    let Some(f) = tokens_but(p, &r.full, &r.hidden) else {
        r.left = Some(LEFT_TOKENS.to_string());
        return r;
    };
    r.change = change(o, src, &f, &r.full).map(|c| tight(src, &r.full, c));
    if let Some(c) = &r.change {
        r.reduced = format!(
            "{}{}{}",
            &src[..c.original.start],
            &r.full[c.patched.clone()],
            &src[c.original.end..]
        );
    }
    match tokens(p, &r.reduced) {
        Some(t) if same_tokens(&t, &r.reduced, &f, &r.full) => {
            r.remap = remap(&t, &r.reduced, &f, &r.full);
        }
        _ => r.left = Some(LEFT_TOKENS.to_string()),
    }
    r
}

/// Why a patch is left whole: text javac reads otherwise than its tokens.
const LEFT_TEXT: &str =
    "the patch's text outside its code holds `@deprecated`, a `\\u` escape or a character outside ASCII";

/// Why a patch is left whole: its tokens without its edits outside its code are not its own.
const LEFT_TOKENS: &str = "the patch's code does not read the same without its other edits";

/// Whether `text` holds `name` as a word (a conservative reading: comments and strings count).
fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// A change without the whitespace its two sides start or end with alike.
fn tight(src: &str, full: &str, c: Change) -> Change {
    let (o, f) = (&src[c.original.clone()], &full[c.patched.clone()]);
    let lead = common_prefix(o, f, true);
    let trail = common_prefix(&o[lead..], &f[lead..], false);
    Change {
        original: c.original.start + lead..c.original.end - trail,
        patched: c.patched.start + lead..c.patched.end - trail,
    }
}

/// Bytes of whitespace `a` and `b` start with alike (`start`), or end with alike.
fn common_prefix(a: &str, b: &str, start: bool) -> usize {
    let same = |x: char, y: char| x == y && x.is_whitespace();
    if start {
        a.chars()
            .zip(b.chars())
            .take_while(|&(x, y)| same(x, y))
            .map(|(x, _)| x.len_utf8())
            .sum()
    } else {
        a.chars()
            .rev()
            .zip(b.chars().rev())
            .take_while(|&(x, y)| same(x, y))
            .map(|(x, _)| x.len_utf8())
            .sum()
    }
}

#[cfg(test)]
#[path = "trivia_tests.rs"]
mod tests;
