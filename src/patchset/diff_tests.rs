//! Property tests of diffs read into edits: a diff written in any of the shapes tools write
//! (git headers with or without `index`, `diff -u` timestamps, CRLF, no final newline, `\ No
//! newline at end of file`, line numbers off by a few lines) and read back gives edits that turn
//! the file into exactly the new file.

use super::parse;
use proptest::prelude::*;

/// A change: old lines `a..b` become `lines`.
#[derive(Debug, Clone)]
struct Op {
    a: usize,
    b: usize,
    lines: Vec<String>,
}

/// A file before and after some changes.
#[derive(Debug, Clone)]
struct Case {
    old: Vec<String>,
    ops: Vec<Op>,
    old_newline: bool,
    new_newline: bool,
}

impl Case {
    fn new_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut k = 0;
        for op in &self.ops {
            out.extend_from_slice(&self.old[k..op.a]);
            out.extend(op.lines.iter().cloned());
            k = op.b;
        }
        out.extend_from_slice(&self.old[k..]);
        out
    }
}

fn text(lines: &[String], newline: bool, crlf: bool) -> String {
    let end = if crlf { "\r\n" } else { "\n" };
    let mut t = lines.join(end);
    if newline && !lines.is_empty() {
        t.push_str(end);
    }
    t
}

/// Files of unique lines (so a hunk can be found away from the line it names) and changes
/// that keep the end-of-file newline cases a diff can express.
fn case() -> impl Strategy<Value = Case> {
    (1usize..25, any::<bool>(), any::<bool>())
        .prop_flat_map(|(n, old_newline, new_newline)| {
            let old: Vec<String> = (0..n)
                .map(|i| format!("{}line{i} = f({i});", " ".repeat(i % 5)))
                .collect();
            let ops = prop::collection::vec((0..=n, 0usize..3, 0usize..3), 1..4);
            (Just(old), ops, Just(old_newline), Just(new_newline))
        })
        .prop_map(|(old, raw, old_newline, mut new_newline)| {
            let n = old.len();
            let mut ops: Vec<Op> = Vec::new();
            let mut next_free = 0;
            let mut fresh = 0;
            let mut sorted = raw;
            sorted.sort();
            for (a, del, add) in sorted {
                let a = a.max(next_free);
                if a > n {
                    break;
                }
                let b = (a + del).min(n);
                let lines = (0..add)
                    .map(|_| {
                        fresh += 1;
                        format!("\tadded{fresh}();")
                    })
                    .collect::<Vec<_>>();
                if a == b && lines.is_empty() {
                    continue;
                }
                next_free = b + 1;
                ops.push(Op { a, b, lines });
            }
            if ops.is_empty() {
                ops.push(Op {
                    a: 0,
                    b: 1,
                    lines: vec!["\tadded0();".into()],
                });
            }
            // What a diff can say about the end of the file: a change there decides the new
            // file's final newline; otherwise it stays as it was.
            let at_end = ops.last().filter(|op| op.b == n);
            match at_end {
                Some(op) if !op.lines.is_empty() && op.a < n => {}
                Some(op) if op.lines.is_empty() && op.a > 0 => {
                    new_newline = old_newline;
                    if !old_newline {
                        // Deleting the last lines of a file without a final newline moves it.
                        new_newline = true;
                    }
                }
                _ => new_newline = old_newline,
            }
            let mut c = Case {
                old,
                ops,
                old_newline,
                new_newline,
            };
            if !c.old_newline || !c.new_newline {
                // Keep the cases simple: the end is either untouched or replaced with lines.
                let touches_end = c.ops.last().is_some_and(|op| op.b == n);
                let ok = !touches_end
                    || c.ops
                        .last()
                        .is_some_and(|op| op.a < n && !op.lines.is_empty());
                if !ok {
                    c.old_newline = true;
                    c.new_newline = true;
                }
            }
            c
        })
}

/// The diff of `c` as a tool writes it: hunks with `ctx` lines of context, headers in one of
/// several shapes, each hunk's old start moved by `shift` lines.
fn write_diff(c: &Case, path: &str, ctx: usize, shape: u8, shift: i64) -> String {
    let n = c.old.len();
    let mut out = String::new();
    match shape % 4 {
        0 => out.push_str(&format!("diff --git a/{path} b/{path}\nindex 1234567..89abcde 100644\n--- a/{path}\n+++ b/{path}\n")),
        1 => out.push_str(&format!("diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n")),
        2 => out.push_str(&format!("--- {path}\t2024-01-01 10:00:00 +0100\n+++ {path}\t2024-01-02 10:00:00 +0100\n")),
        _ => out.push_str(&format!("Subject: [PATCH] fix\n\n---\n--- a/{path}\n+++ b/{path}\n")),
    }
    // Changes whose contexts touch share a hunk.
    let mut groups: Vec<Vec<&Op>> = Vec::new();
    for op in &c.ops {
        match groups.last_mut() {
            Some(g) if op.a <= g.last().map_or(0, |p| p.b) + 2 * ctx => g.push(op),
            _ => groups.push(vec![op]),
        }
    }
    let mut delta: i64 = 0;
    for g in groups {
        let start = g[0].a.saturating_sub(ctx);
        let end = (g.last().map_or(0, |p| p.b) + ctx).min(n);
        let mut body = String::new();
        let (mut old_count, mut new_count) = (0usize, 0usize);
        let mut k = start;
        let last_old = |k: usize| k + 1 == n;
        for op in &g {
            while k < op.a {
                body.push_str(&format!(" {}\n", c.old[k]));
                if last_old(k) && !c.old_newline {
                    body.push_str("\\ No newline at end of file\n");
                }
                old_count += 1;
                new_count += 1;
                k += 1;
            }
            while k < op.b {
                body.push_str(&format!("-{}\n", c.old[k]));
                if last_old(k) && !c.old_newline {
                    body.push_str("\\ No newline at end of file\n");
                }
                old_count += 1;
                k += 1;
            }
            for (j, l) in op.lines.iter().enumerate() {
                body.push_str(&format!("+{l}\n"));
                if op.b == n && j + 1 == op.lines.len() && !c.new_newline {
                    body.push_str("\\ No newline at end of file\n");
                }
                new_count += 1;
            }
        }
        while k < end {
            body.push_str(&format!(" {}\n", c.old[k]));
            if last_old(k) && !c.old_newline {
                body.push_str("\\ No newline at end of file\n");
            }
            old_count += 1;
            new_count += 1;
            k += 1;
        }
        let old_start = if old_count == 0 { start } else { start + 1 };
        let new_start = (start as i64 + delta) as usize + usize::from(new_count != 0);
        let shown = (old_start as i64 + shift).max(0);
        out.push_str(&format!(
            "@@ -{shown},{old_count} +{new_start},{new_count} @@\n{body}"
        ));
        delta += new_count as i64 - old_count as i64;
    }
    out
}

/// Applies a patch's edits to the texts they name.
fn apply(edits: &[crate::model::FileEdit], file: &str, text: &str) -> String {
    let mut mine: Vec<_> = edits.iter().filter(|e| e.filename == file).collect();
    mine.sort_by_key(|e| std::cmp::Reverse(e.start));
    let mut t = text.to_string();
    for e in mine {
        assert_eq!(&t[e.range()], e.unpatched, "the edit reads the file");
        t.replace_range(e.range(), &e.patched);
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn a_diff_read_back_gives_the_new_file(
        c in case(),
        d in case(),
        ctx in 0usize..4,
        shape: u8,
        crlf_file: bool,
        crlf_diff: bool,
        cut_final_newline: bool,
        shift in -3i64..=3,
    ) {
        // A file without a line break has no line-end style: added lines get LF.
        let crlf_file = crlf_file && c.old.len() + usize::from(c.old_newline) > 1;
        let (a_old, b_old) = (text(&c.old, c.old_newline, crlf_file), text(&d.old, d.old_newline, false));
        let a_new = text(&c.new_lines(), c.new_newline, crlf_file);
        let b_new = text(&d.new_lines(), d.new_newline, false);
        // A hunk with no old line (an insertion without context) is only found at its line.
        let shift_a = if ctx == 0 && c.ops.iter().any(|op| op.a == op.b) { 0 } else { shift };
        let mut diff = write_diff(&c, "src/A.java", ctx, shape, shift_a);
        diff.push_str(&write_diff(&d, "src/B.java", ctx, shape.wrapping_add(1), 0));
        if crlf_diff {
            diff = diff.replace('\n', "\r\n");
        }
        if cut_final_newline {
            diff.truncate(diff.trim_end_matches(['\r', '\n']).len());
        }
        let read = |p: &str| match p {
            "src/A.java" => Some(a_old.clone()),
            "src/B.java" => Some(b_old.clone()),
            _ => None,
        };
        let p = parse("p.diff", &diff, &read).map_err(|e| TestCaseError::fail(format!("{e}\n{diff}")))?;
        prop_assert_eq!(apply(&p.edits, "src/A.java", &a_old), a_new, "{}", diff);
        prop_assert_eq!(apply(&p.edits, "src/B.java", &b_old), b_new, "{}", diff);
    }
}
