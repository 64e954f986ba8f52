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
use super::lexed::{
    change, common_prefix, edited, member_of, same_tokens, tight, tokens_of, Change, Hunks, Token,
};
use super::sites::Branch;
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
    /// Per patch: its versions of other methods' bodies (`sites`), woven in those methods.
    pub branches: Vec<Vec<Branch>>,
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
    /// Its token changes, each with the member of the original it lies in (`None`: several).
    parts: Vec<(Option<usize>, Change)>,
    /// The token runs it changes, where its changes lie in several members.
    hunks: Option<Hunks>,
    hidden: Vec<Range<usize>>,
    helpers: Vec<Helper>,
    branches: Vec<Branch>,
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
    let tree = p.parse(src, None)?;
    let o = tokens_of(&tree, src, &[])?;
    let mut read: Vec<Read> = patches
        .iter()
        .map(|patch| read_patch(&mut p, src, &tree, &o, &range, patch))
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
    // set's; a patch's changes of other methods' bodies are woven in those methods (`sites`),
    // any other change leaves it whole.
    let mut counts: Vec<(usize, usize)> = Vec::new();
    for r in read.iter().filter(|r| r.left.is_none()) {
        for m in r.parts.iter().filter_map(|(m, _)| *m) {
            match counts.iter_mut().find(|(k, _)| *k == m) {
                Some((_, n)) => *n += 1,
                None => counts.push((m, 1)),
            }
        }
    }
    let chosen = counts
        .iter()
        .max_by_key(|(k, n)| (*n, std::cmp::Reverse(*k)))?
        .0;
    for r in read.iter_mut().filter(|r| r.left.is_none()) {
        settle(&mut p, src, &tree, &o, r, chosen, &range);
    }
    // The narrowed location: whole lines around every patch's change.
    let kept = || {
        read.iter()
            .filter(|r| r.left.is_none())
            .flat_map(|r| r.parts.iter().filter(|(m, _)| *m == Some(chosen)))
            .map(|(_, c)| c)
    };
    let lo = kept().map(|c| c.original.start).min()?;
    let hi = kept().map(|c| c.original.end).max()?;
    let lo = src[..lo].rfind('\n').map_or(0, |i| i + 1);
    let line_end = |at: usize| {
        if at > lo && src.as_bytes()[at - 1] == b'\n' {
            at
        } else {
            src[at..].find('\n').map_or(src.len(), |i| at + i + 1)
        }
    };
    let mut hi = line_end(hi);
    // Lines holding no token (a statement inserted before a comment, where a block opens)
    // are no statement to weave at: the location takes the line of the next token with them,
    // unless that token closes the block.
    let mut took_line = false;
    if !o.iter().any(|t| lo <= t.range.start && t.range.end <= hi) {
        match o.iter().find(|t| t.range.start >= hi) {
            Some(t) if &src[t.range.clone()] != "}" => {
                hi = line_end(t.range.end);
                took_line = true;
            }
            _ => {}
        }
    }
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
        branches: Vec::new(),
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
        out.branches
            .push(if kept { r.branches } else { Vec::new() });
        out.left.push(r.left);
    }
    // Worth planning when a patch lost an edit, or the location took a statement's line.
    (out.reduced > 0 || took_line).then_some(out)
}

/// One patch read: its whole patched file, its token changes by member with the methods it
/// adds hidden, or why it is left.
fn read_patch(
    p: &mut tree_sitter::Parser,
    src: &str,
    tree: &tree_sitter::Tree,
    o: &[Token],
    range: &Range<usize>,
    patch: &str,
) -> Read {
    let full = format!("{}{patch}{}", &src[..range.start], &src[range.end..]);
    let mut r = Read {
        parts: Vec::new(),
        hunks: None,
        hidden: Vec::new(),
        helpers: Vec::new(),
        branches: Vec::new(),
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
    let Some(full_tree) = edited(p, tree, src, range.clone(), &r.full) else {
        r.left = Some(LEFT_TOKENS.to_string());
        return r;
    };
    let root = tree.root_node();
    let added = match super::added::added_in(src, tree, &r.full, &full_tree, region) {
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
    let Some(f) = tokens_of(&full_tree, &r.full, &r.hidden) else {
        r.left = Some(LEFT_TOKENS.to_string());
        return r;
    };
    let Some(c) = change(o, src, &f, &r.full).map(|c| tight(src, &r.full, c)) else {
        return r;
    };
    if let Some(m) = member_of(root, &c.original) {
        r.parts = vec![(Some(m), c)];
        return r;
    }
    // Changes in several members: each run of changed tokens given its member.
    match Hunks::of(o, src, &f, &r.full).by_member(root, o, src, &f, &r.full) {
        Some((parts, hunks)) => {
            r.parts = parts.into_iter().map(|(m, c)| (Some(m), c)).collect();
            r.hunks = Some(hunks);
        }
        None => r.parts = vec![(None, c)],
    }
    r
}

/// Patch `r` against the set's member `chosen`: its change there kept, its changes of other
/// methods' bodies made branches of them (`sites`), the file it reduces to and that file's lines
/// mapped to the whole one's, or why it is left whole.
fn settle(
    p: &mut tree_sitter::Parser,
    src: &str,
    tree: &tree_sitter::Tree,
    o: &[Token],
    r: &mut Read,
    chosen: usize,
    range: &Range<usize>,
) {
    let root = tree.root_node();
    if r.parts.iter().any(|(m, _)| m.is_none()) {
        r.left = Some("the patch changes several members".to_string());
        return;
    }
    let others: Vec<&Change> = r
        .parts
        .iter()
        .filter(|(m, _)| *m != Some(chosen))
        .map(|(_, c)| c)
        .collect();
    let mut hidden_full = r.hidden.clone();
    let Some(full_tree) = edited(p, tree, src, range.clone(), &r.full) else {
        r.left = Some(LEFT_TOKENS.to_string());
        return;
    };
    if !others.is_empty() {
        let Some(f) = tokens_of(&full_tree, &r.full, &r.hidden) else {
            r.left = Some(LEFT_TOKENS.to_string());
            return;
        };
        let hunks = match r.hunks.take() {
            Some(h) => h,
            None => match Hunks::of(o, src, &f, &r.full).by_member(root, o, src, &f, &r.full) {
                Some((_, h)) => h,
                None => {
                    r.left = Some(super::sites::NOT_A_BODY.to_string());
                    return;
                }
            },
        };
        let hunks = &hunks;
        let full_root = full_tree.root_node();
        for (m, c) in r.parts.iter().filter(|(m, _)| *m != Some(chosen)) {
            let member = m.unwrap_or_default();
            let made = super::sites::branch(root, o, member, c, hunks, &f, &r.full, full_root);
            match made {
                Ok(b) => r.branches.push(b),
                Err(why) => {
                    r.left = Some(why.to_string());
                    r.branches.clear();
                    return;
                }
            }
        }
    }
    let primary = r
        .parts
        .iter()
        .find(|(m, _)| *m == Some(chosen))
        .map(|(_, c)| c);
    let mut hidden_reduced = Vec::new();
    if let Some(c) = primary {
        r.reduced = format!(
            "{}{}{}",
            &src[..c.original.start],
            &r.full[c.patched.clone()],
            &src[c.original.end..]
        );
    }
    let grown = r.reduced.len() as isize - src.len() as isize;
    for b in &r.branches {
        let moved = |x: usize| match primary {
            Some(c) if x >= c.original.end => (x as isize + grown) as usize,
            _ => x,
        };
        hidden_reduced.push(moved(b.body.start)..moved(b.body.end));
        hidden_full.push(b.at.clone());
    }
    let reduced_tree = match primary {
        Some(c) => edited(p, tree, src, c.original.clone(), &r.reduced),
        None => Some(tree.clone()),
    };
    match (
        reduced_tree.and_then(|t| tokens_of(&t, &r.reduced, &hidden_reduced)),
        tokens_of(&full_tree, &r.full, &hidden_full),
    ) {
        (Some(t), Some(f)) if same_tokens(&t, &r.reduced, &f, &r.full) => {
            r.remap = remap(&t, &r.reduced, &f, &r.full);
        }
        _ => {
            r.left = Some(LEFT_TOKENS.to_string());
            r.branches.clear();
        }
    }
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

#[cfg(test)]
#[path = "trivia_tests.rs"]
mod tests;
