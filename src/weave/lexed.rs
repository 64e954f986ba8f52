//! A Java file read as javac reads it, its tokens (tree-sitter's leaves, comments left out, a
//! string or character literal one token), and where two files' tokens differ: one change from
//! the first differing token to the last, or runs of changed tokens grouped by the member of the
//! original they lie in (`Hunks`, for patches that change several methods).

use std::ops::Range;
use tree_sitter::Node;

/// One token of a file: its grammar kind and where it is. String and character literals are
/// one token each (their inside is not comments and whitespace between tokens).
#[derive(Debug, Clone)]
pub(super) struct Token {
    pub(super) kind: u16,
    pub(super) range: Range<usize>,
}

pub(super) fn is_comment(kind: &str) -> bool {
    matches!(kind, "line_comment" | "block_comment")
}

/// The tokens of `text` in order, or `None` when it does not parse or something other than
/// whitespace and comments lies between two of them.
#[cfg(test)]
pub(super) fn tokens(p: &mut tree_sitter::Parser, text: &str) -> Option<Vec<Token>> {
    tokens_but(p, text, &[])
}

/// [`tokens`], the nodes within `hidden` (methods a patch adds, woven apart) read as comments.
#[cfg(test)]
pub(super) fn tokens_but(
    p: &mut tree_sitter::Parser,
    text: &str,
    hidden: &[Range<usize>],
) -> Option<Vec<Token>> {
    tokens_of(&p.parse(text, None)?, text, hidden)
}

/// `text` parsed again from `old`, the tree of `old_text`, which `text` is but for `at` of it:
/// tree-sitter's incremental parse, which reads again only what the edit touches (a patched
/// file costs a fraction of a whole parse).
pub(super) fn edited(
    p: &mut tree_sitter::Parser,
    old: &tree_sitter::Tree,
    old_text: &str,
    at: Range<usize>,
    text: &str,
) -> Option<tree_sitter::Tree> {
    let new_end = (at.end + text.len()).checked_sub(old_text.len())?;
    let point = |t: &str, byte: usize| {
        let row = t[..byte].matches('\n').count();
        let column = byte - t[..byte].rfind('\n').map_or(0, |i| i + 1);
        tree_sitter::Point { row, column }
    };
    let mut tree = old.clone();
    tree.edit(&tree_sitter::InputEdit {
        start_byte: at.start,
        old_end_byte: at.end,
        new_end_byte: new_end,
        start_position: point(old_text, at.start),
        old_end_position: point(old_text, at.end),
        new_end_position: point(text, new_end),
    });
    p.parse(text, Some(&tree))
}

/// [`tokens_but`] of a parsed text.
pub(super) fn tokens_of(
    tree: &tree_sitter::Tree,
    text: &str,
    hidden: &[Range<usize>],
) -> Option<Vec<Token>> {
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
pub(super) fn same_tokens(a: &[Token], a_text: &str, b: &[Token], b_text: &str) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.kind == y.kind && a_text[x.range.clone()] == b_text[y.range.clone()])
}

/// One patch's token change: the byte range of the original it replaces and the range of the
/// whole patched file that replaces it.
#[derive(Clone, Debug)]
pub(super) struct Change {
    pub(super) original: Range<usize>,
    pub(super) patched: Range<usize>,
}

/// Where the tokens of `patched` differ from `original`'s: from the end of their common first
/// tokens to the start of their common last ones, in both; `None` when they are the same.
pub(super) fn change(o: &[Token], src: &str, f: &[Token], full: &str) -> Option<Change> {
    let eq =
        |x: &Token, y: &Token| x.kind == y.kind && src[x.range.clone()] == full[y.range.clone()];
    let (prefix, suffix) = common_ends(o, f, eq);
    if prefix == o.len() && prefix == f.len() {
        return None;
    }
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

/// The start of the innermost method, constructor or initialiser of `root` holding `range`.
pub(super) fn member_of(root: tree_sitter::Node, range: &Range<usize>) -> Option<usize> {
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

/// How many items `a` and `b` start with alike, and end with alike after those.
fn common_ends<T, U>(a: &[T], b: &[U], eq: impl Fn(&T, &U) -> bool) -> (usize, usize) {
    let prefix = a.iter().zip(b).take_while(|(x, y)| eq(x, y)).count();
    let room = a.len().min(b.len()) - prefix;
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| eq(x, y))
        .count();
    (prefix, suffix)
}

/// A change without the whitespace its two sides start or end with alike.
///
/// Then each side without the whitespace spanning a line end it still starts or ends with:
/// whitespace around a change is no token's, and the reduced file keeps the original's there (a statement deleted
/// with its line leaves the line's indentation and newline, not the patched file's, so the
/// location ends where the statement does).
pub(super) fn tight(src: &str, full: &str, c: Change) -> Change {
    let (o, f) = (&src[c.original.clone()], &full[c.patched.clone()]);
    let lead = common_prefix(o, f, true);
    let trail = common_prefix(&o[lead..], &f[lead..], false);
    // Only whitespace that spans a line end: a space between tokens on a line stays with them.
    let trim = |text: &str, r: Range<usize>| {
        let t = &text[r.clone()];
        let lead = t.len() - t.trim_start().len();
        let trail = t.len() - t.trim_end().len();
        let lead = if t[..lead].contains('\n') { lead } else { 0 };
        let trail = if t[t.len() - trail..].contains('\n') {
            trail
        } else {
            0
        };
        let start = r.start + lead;
        start..start.max(r.end - trail)
    };
    Change {
        original: trim(src, c.original.start + lead..c.original.end - trail),
        patched: trim(full, c.patched.start + lead..c.patched.end - trail),
    }
}

/// Bytes of whitespace `a` and `b` start with alike (`start`), or end with alike.
pub(super) fn common_prefix(a: &str, b: &str, start: bool) -> usize {
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

/// A patch's token changes as runs of tokens: each the original's tokens `.0` the patched
/// file's `.1` replace, in order, between tokens both share.
pub(super) struct Hunks(pub(super) Vec<(Range<usize>, Range<usize>)>);

impl Hunks {
    /// The hunks of `f` (the patched file's tokens) against `o` (the original's), aligned by
    /// patience (tokens found once on each side, a method's name, anchor the rest).
    pub(super) fn of(o: &[Token], src: &str, f: &[Token], full: &str) -> Hunks {
        let key = |t: &Token, text: &str| (t.kind, text[t.range.clone()].to_string());
        let (ok, fk): (Vec<_>, Vec<_>) = (
            o.iter().map(|t| key(t, src)).collect(),
            f.iter().map(|t| key(t, full)).collect(),
        );
        let (prefix, suffix) = common_ends(&ok, &fk, |a, b| a == b);
        let (om, fm) = (
            &ok[prefix..ok.len() - suffix],
            &fk[prefix..fk.len() - suffix],
        );
        let ops = similar::capture_diff_slices(similar::Algorithm::Patience, om, fm);
        let mut out = Vec::new();
        for op in ops {
            let (tag, a, b) = op.as_tag_tuple();
            if tag != similar::DiffTag::Equal {
                out.push((
                    a.start + prefix..a.end + prefix,
                    b.start + prefix..b.end + prefix,
                ));
            }
        }
        Hunks(out)
    }

    /// The patched file's token standing for the original's token `i`, when no hunk holds it.
    pub(super) fn partner(&self, i: usize) -> Option<usize> {
        let mut shift = 0isize;
        for (a, b) in &self.0 {
            if a.contains(&i) {
                return None;
            }
            if a.end <= i {
                shift += b.len() as isize - a.len() as isize;
            }
        }
        Some((i as isize + shift) as usize)
    }

    /// The hunks grouped by the member of the original they lie in (`trivia::member_of`), each
    /// group one change from its first hunk to its last, less the tokens it starts or ends with
    /// alike on both sides; with those groups as the hunks (`partner` reads them). `None` when a
    /// hunk lies in no single member, or a group reaches past its member or into another's
    /// (tokens aligned across members).
    pub(super) fn by_member(
        &self,
        root: Node,
        o: &[Token],
        src: &str,
        f: &[Token],
        full: &str,
    ) -> Option<(Vec<(usize, Change)>, Hunks)> {
        let gap = |t: &[Token], text: &str, r: &Range<usize>| {
            let start = r.start.checked_sub(1).map_or(0, |k| t[k].range.end);
            let end = t.get(r.end).map_or(text.len(), |k| k.range.start);
            start..end
        };
        let mut groups: Vec<(usize, Range<usize>, Range<usize>)> = Vec::new();
        for (a, b) in &self.0 {
            let bytes = match a.is_empty() {
                true => gap(o, src, a),
                false => o[a.start].range.start..o[a.end - 1].range.end,
            };
            let m = member_of(root, &bytes)?;
            match groups.iter_mut().find(|(k, ..)| *k == m) {
                Some((_, ga, gb)) => {
                    ga.end = a.end;
                    gb.end = b.end;
                }
                None => groups.push((m, a.clone(), b.clone())),
            }
        }
        let same = |i: usize, j: usize| {
            o[i].kind == f[j].kind && src[o[i].range.clone()] == full[f[j].range.clone()]
        };
        for (_, a, b) in &mut groups {
            while a.start < a.end && b.start < b.end && same(a.end - 1, b.end - 1) {
                a.end -= 1;
                b.end -= 1;
            }
            while a.start < a.end && b.start < b.end && same(a.start, b.start) {
                a.start += 1;
                b.start += 1;
            }
        }
        let changes: Vec<(usize, Change)> = groups
            .iter()
            .map(|(m, a, b)| {
                let c = Change {
                    original: gap(o, src, a),
                    patched: gap(f, full, b),
                };
                (*m, tight(src, full, c))
            })
            .collect();
        let overlap = changes.iter().enumerate().any(|(i, (_, x))| {
            changes[i + 1..].iter().any(|(_, y)| {
                x.original.start < y.original.end && y.original.start < x.original.end
            })
        });
        let past = changes
            .iter()
            .any(|(m, c)| member_of(root, &c.original) != Some(*m));
        if overlap || past {
            return None;
        }
        let mut spans: Vec<(Range<usize>, Range<usize>)> =
            groups.into_iter().map(|(_, a, b)| (a, b)).collect();
        spans.sort_by_key(|(a, _)| a.start);
        Some((changes, Hunks(spans)))
    }
}
