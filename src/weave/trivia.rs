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
    let tree = p.parse(text, None)?;
    let mut out = Vec::new();
    let mut gaps_ok = true;
    let mut last_end = 0;
    let mut cursor = tree.walk();
    'walk: loop {
        let n = cursor.node();
        let whole = n.child_count() == 0
            || matches!(n.kind(), "string_literal" | "character_literal")
            || is_comment(n.kind());
        if whole {
            if !is_comment(n.kind()) {
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
#[derive(Clone)]
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

/// `range` of `src` narrowed to where the patches' tokens change, with each patch's text there
/// and its lines mapped back; `None` when no patch has an edit that changes no token away from
/// the others' changes (nothing to narrow), or the original does not read as tokens.
pub fn reduce(src: &str, range: Range<usize>, patches: &[String]) -> Option<Reduced> {
    let mut p = super::parser();
    let o = tokens(&mut p, src)?;
    let mut changes = Vec::new();
    for patch in patches {
        let full = format!("{}{patch}{}", &src[..range.start], &src[range.end..]);
        let whole = Change {
            original: range.clone(),
            patched: range.start..range.start + patch.len(),
        };
        let c = match tokens(&mut p, &full) {
            Some(f) if may_drop(patch) && may_drop(&src[range.clone()]) => {
                change(&o, src, &f, &full).map(|c| tight(src, &full, c))
            }
            _ => Some(whole),
        };
        changes.push((full, c));
    }
    // The narrowed location: whole lines around every patch's change.
    let lo = changes
        .iter()
        .flat_map(|(_, c)| c)
        .map(|c| c.original.start)
        .min()?;
    let hi = changes
        .iter()
        .flat_map(|(_, c)| c)
        .map(|c| c.original.end)
        .max()?;
    let lo = src[..lo].rfind('\n').map_or(0, |i| i + 1);
    let hi = if hi > lo && src.as_bytes()[hi - 1] == b'\n' {
        hi
    } else {
        src[hi..].find('\n').map_or(src.len(), |i| hi + i + 1)
    };
    let mut reduced_files = Vec::new();
    let mut texts = Vec::new();
    for (full, c) in &changes {
        // The reduced file: the original but for the change.
        let reduced = match c {
            Some(c) => format!(
                "{}{}{}",
                &src[..c.original.start],
                &full[c.patched.clone()],
                &src[c.original.end..]
            ),
            None => src.to_string(),
        };
        let tail = reduced.len().checked_sub(src.len() - hi)?;
        if tail < lo || reduced[..lo] != src[..lo] || reduced[tail..] != src[hi..] {
            return None;
        }
        texts.push(reduced[lo..tail].to_string());
        reduced_files.push(reduced);
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
    let range_out = lo + lead..hi - trail;
    if range_out.is_empty() || range_out == range {
        return None;
    }
    let mut out = Reduced {
        range: range_out,
        patches: Vec::new(),
        remaps: Vec::new(),
        reduced: 0,
    };
    for ((reduced, text), (full, _)) in reduced_files.iter().zip(&texts).zip(&changes) {
        let map = if reduced == full {
            Remap::default()
        } else {
            match (tokens(&mut p, reduced), tokens(&mut p, full)) {
                (Some(r), Some(f)) if same_tokens(&r, reduced, &f, full) => {
                    out.reduced += 1;
                    remap(&r, reduced, &f, full)
                }
                // The tokens do not read alike: no narrowing is sure for this set.
                _ => return None,
            }
        };
        out.patches.push(text[lead..text.len() - trail].to_string());
        out.remaps.push(map);
    }
    (out.reduced > 0).then_some(out)
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
mod tests {
    use super::*;

    const SRC: &str = "class A {\n    /**\n     * Sum.\n     */\n    int f(int x) {\n        int y = x + 1;\n        return y;\n    }\n\n    int g() { return 2; }\n}\n";

    fn location(src: &str, from: &str, to: &str) -> Range<usize> {
        let s = src.find(from).unwrap();
        s..src.find(to).unwrap() + to.len()
    }

    #[test]
    fn a_reworded_javadoc_is_left_out_and_the_lines_after_it_move() {
        let range = location(SRC, "    /**", "    }\n");
        let patch = "    /**\n     * Sum,\n     * plus two.\n     */\n    int f(int x) {\n        int y = x + 2;\n        return y;\n    }\n";
        let r = reduce(SRC, range, &[patch.to_string()]).unwrap();
        assert_eq!(&SRC[r.range.clone()], "int y = x + 1;");
        assert_eq!(r.patches, vec!["int y = x + 2;".to_string()]);
        // The javadoc gained a line: every line after it is one further down.
        assert_eq!(r.remaps[0].apply(1), 1);
        assert_eq!(r.remaps[0].apply(5), 6);
        assert_eq!(r.remaps[0].apply(6), 7);
        assert_eq!(r.remaps[0].apply(10), 11);
        assert_eq!(r.reduced, 1);
    }

    #[test]
    fn reindented_lines_and_a_comment_are_left_out_of_a_body() {
        let range = location(SRC, "    int f", "    }\n");
        let patch = "    int f(int x) {\n      // keep y\n      int y = x + 1;\n      return y - 1;\n    }\n";
        let r = reduce(SRC, range, &[patch.to_string()]).unwrap();
        assert_eq!(&SRC[r.range.clone()], "return y;");
        assert_eq!(r.patches, vec!["return y - 1;".to_string()]);
        assert_eq!(r.remaps[0].apply(7), 8);
    }

    #[test]
    fn patches_with_no_edit_to_leave_out_are_not_narrowed() {
        let range = location(SRC, "    int f", "    }\n");
        for patch in [
            "    long f(int x) {\n        int y = x + 1;\n        return y;\n    }\n",
            "    int f(int x) {\n        int y = x + 1;\n        return -y;\n    }\n",
        ] {
            assert_eq!(reduce(SRC, range.clone(), &[patch.to_string()]), None);
        }
    }

    #[test]
    fn deprecated_tags_escapes_and_other_characters_keep_the_patch_whole() {
        let range = location(SRC, "    /**", "    }\n");
        for javadoc in [" * @deprecated", " * \\u002a/ int z;", " * Summe über x"] {
            let patch = format!(
                "    /**\n    {javadoc}\n     */\n    int f(int x) {{\n        int y = x + 2;\n        return y;\n    }}\n"
            );
            assert_eq!(reduce(SRC, range.clone(), &[patch]), None, "{javadoc}");
        }
    }

    #[test]
    fn a_line_commented_out_is_left_out_and_a_comment_that_hides_nothing_changes_nothing() {
        let range = location(SRC, "    int f", "    }\n");
        let patch = "    int f(int x) {\n        int y = x + 1;\n        // return y;\n        return 0;\n    }\n";
        let r = reduce(SRC, range.clone(), &[patch.to_string()]).unwrap();
        assert_eq!(r.patches, vec!["return 0;".to_string()]);
        assert_eq!(r.remaps[0].apply(7), 8);
        // `*/` moved past a copy of the header: the same tokens, nothing to weave.
        let range = location(SRC, "    /**", "    }\n");
        let patch = "    /**\n     * Sum.\n    int f(int x) {\n     */\n    int f(int x) {\n        int y = x + 1;\n        return y;\n    }\n";
        assert_eq!(reduce(SRC, range, &[patch.to_string()]), None);
    }

    #[test]
    fn several_patches_share_the_narrowed_location() {
        let range = location(SRC, "    /**", "    }\n");
        let a = "    /**\n     * Sum.\n     */\n    int f(int x) {\n        int y = x + 1;\n        return y + 1;\n    }\n";
        let b = "    /** Sum. */\n    int f(int x) {\n        int y = x * 1;\n        return y;\n    }\n";
        let r = reduce(SRC, range, &[a.to_string(), b.to_string()]).unwrap();
        assert_eq!(&SRC[r.range.clone()], "int y = x + 1;\n        return y;");
        assert_eq!(
            r.patches,
            vec![
                "int y = x + 1;\n        return y + 1;".to_string(),
                "int y = x * 1;\n        return y;".to_string()
            ]
        );
        assert!(r.remaps[0].is_identity());
        assert_eq!(r.remaps[1].apply(6), 4);
        assert_eq!(r.reduced, 1);
    }
}
