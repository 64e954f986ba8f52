//! Unified diffs (as `git diff` or `diff -u` write them, one or several files) read into a
//! patch's edits, each hunk located on the project's file by its lines.

use super::edits::EditPatch;
use super::unified::{self, Line};
use super::FilenameProblem;
use crate::model::FileEdit;

/// Why a unified diff cannot be read into a patch of the project.
#[derive(Debug, thiserror::Error)]
pub enum DiffReadError {
    /// Not a diff this reader can use.
    #[error(transparent)]
    Syntax(#[from] unified::DiffError),
    #[error("diff line {line}: a binary change to {file}: only text hunks can be validated")]
    Binary { line: usize, file: String },
    #[error(
        "diff line {line}: the diff deletes {file}: a patch that deletes a file cannot be \
         validated (its compiled classes would stay on the class path)"
    )]
    Deletes { line: usize, file: String },
    #[error("file `{filename}`: {problem}")]
    Filename {
        filename: String,
        #[source]
        problem: FilenameProblem,
    },
    #[error("the diff creates {0}, which exists")]
    CreatesExisting(String),
    #[error("{0}: no such file in the project")]
    NoSuchFile(String),
    /// Hunk `hunk` (1-based) is nowhere in the file with all its lines (fuzz 0).
    #[error(
        "{filename}: hunk {hunk} (@@ -{old_start},{old_count} @@, diff line {line}) does not \
         match the file's lines"
    )]
    HunkMismatch {
        filename: String,
        hunk: usize,
        old_start: usize,
        old_count: usize,
        line: usize,
    },
    #[error("the diff changes nothing")]
    NothingChanged,
}

/// The path a diff names, relative to the project root: `a/`/`b/` prefixes (git's) are dropped
/// unless the path with them exists.
fn project_path(name: &str, exists: &dyn Fn(&str) -> bool) -> String {
    let name = name.trim();
    for prefix in ["a/", "b/"] {
        if let Some(rest) = name.strip_prefix(prefix) {
            if !exists(name) {
                return rest.to_string();
            }
        }
    }
    name.strip_prefix("./").unwrap_or(name).to_string()
}

/// The edits of one hunk located at line `at` (0-based) of `original` (whose line starts are
/// `starts`): each run of removed and added lines between context lines is one edit, added
/// lines ending in `end_line`, the new file's last line without its newline where the diff says.
pub(super) fn hunk_edits(
    hunk: &unified::Hunk,
    at: usize,
    starts: &[usize],
    original: &str,
    filename: &str,
    end_line: &str,
) -> Vec<FileEdit> {
    let mut edits = Vec::new();
    let mut k = at;
    let mut block: Option<(usize, usize, String)> = None;
    let mut flush = |block: &mut Option<(usize, usize, String)>| {
        if let Some((from, to, mut patched)) = block.take() {
            let at = |l: usize| starts.get(l).copied().unwrap_or(original.len());
            let (s, e) = (at(from), at(to));
            if e == original.len() && hunk.new_missing_newline {
                patched.truncate(patched.trim_end_matches(['\r', '\n']).len());
            }
            edits.push(FileEdit {
                filename: filename.to_string(),
                start: s,
                unpatched: original.get(s..e).unwrap_or("").to_string(),
                patched,
            });
        }
    };
    for l in &hunk.lines {
        match l {
            Line::Context(_) => {
                flush(&mut block);
                k += 1;
            }
            Line::Remove(_) => {
                block.get_or_insert((k, k, String::new())).1 += 1;
                k += 1;
            }
            Line::Add(s) => {
                let b = block.get_or_insert((k, k, String::new()));
                b.2.push_str(s);
                b.2.push_str(end_line);
            }
        }
    }
    flush(&mut block);
    edits
}

/// Lines of `text` with the byte offset each starts at (and one past the end).
fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    if text.is_empty() {
        return starts;
    }
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    // The offset after a final newline starts no line of its own.
    if starts.last() != Some(&text.len()) {
        starts.push(text.len());
    }
    starts
}

/// A line of the file without its line end.
fn line<'t>(text: &'t str, starts: &[usize], k: usize) -> &'t str {
    text[starts[k]..starts[k + 1]]
        .trim_end_matches('\n')
        .trim_end_matches('\r')
}

/// Reads diff `text` (named `name`) into a patch. `read` gives a project file's text by its
/// relative path (None: no such file). A hunk whose lines are not at the line it names is looked
/// for nearby, as `patch` does with fuzz 0 (every context line must match); the error names the
/// file, the hunk and the line.
pub fn parse(
    name: &str,
    text: &str,
    read: &dyn Fn(&str) -> Option<String>,
) -> Result<EditPatch, DiffReadError> {
    let files = unified::parse(text)?;
    let exists = |p: &str| read(p).is_some();
    let mut edits = Vec::new();
    for f in &files {
        let shown = f.old.as_deref().or(f.new.as_deref()).unwrap_or("?");
        if f.binary {
            return Err(DiffReadError::Binary {
                line: f.line,
                file: shown.to_string(),
            });
        }
        if f.hunks.is_empty() {
            // A mode change or a rename without a change of content: nothing to compile.
            continue;
        }
        let (old, new) = match (&f.old, &f.new) {
            (_, None) => {
                return Err(DiffReadError::Deletes {
                    line: f.line,
                    file: shown.to_string(),
                })
            }
            (old, Some(new)) => (old.as_deref(), new.as_str()),
        };
        let created = old.is_none();
        let filename = project_path(old.unwrap_or(new), &exists);
        if let Some(problem) = super::filename_problem(&filename) {
            return Err(DiffReadError::Filename { filename, problem });
        }
        let original = match (read(&filename), created) {
            (Some(t), false) => t,
            (None, true) => String::new(),
            (Some(_), true) => return Err(DiffReadError::CreatesExisting(filename)),
            (None, false) => return Err(DiffReadError::NoSuchFile(filename)),
        };
        let crlf = original.contains("\r\n");
        let starts = line_starts(&original);
        let lines = starts.len() - 1;
        let mut not_before = 0;
        for (h, hunk) in f.hunks.iter().enumerate() {
            let expected: Vec<&str> = hunk
                .lines
                .iter()
                .filter_map(|l| match l {
                    Line::Context(s) | Line::Remove(s) => Some(s.as_str()),
                    Line::Add(_) => None,
                })
                .collect();
            let named = match hunk.old_count {
                0 => hunk.old_start,
                _ => hunk.old_start.saturating_sub(1),
            };
            // Fuzz 0: every line matches, and hunks stay in order without overlapping.
            let fits = |at: usize| {
                at >= not_before
                    && at + expected.len() <= lines
                    && expected
                        .iter()
                        .enumerate()
                        .all(|(j, l)| line(&original, &starts, at + j) == *l)
            };
            let at = (0..=lines.max(named))
                .flat_map(|d| [named.checked_add(d), named.checked_sub(d)])
                .flatten()
                .find(|&at| fits(at))
                .ok_or_else(|| DiffReadError::HunkMismatch {
                    filename: filename.clone(),
                    hunk: h + 1,
                    old_start: hunk.old_start,
                    old_count: hunk.old_count,
                    line: hunk.line,
                })?;
            not_before = at + expected.len();
            let end_line = if crlf { "\r\n" } else { "\n" };
            edits.extend(hunk_edits(
                hunk, at, &starts, &original, &filename, end_line,
            ));
        }
    }
    if edits.is_empty() {
        return Err(DiffReadError::NothingChanged);
    }
    Ok(EditPatch {
        name: name.to_string(),
        edits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "class A {\n  int f(int x) {\n    int y = x + 1;\n    return y;\n  }\n}\n";

    fn read(p: &str) -> Option<String> {
        (p == "src/A.java").then(|| A.to_string())
    }

    #[test]
    fn git_diff_hunks_become_edits_on_the_file() {
        let diff = "diff --git a/src/A.java b/src/A.java\nindex 1..2 100644\n--- a/src/A.java\n+++ b/src/A.java\n@@ -2,3 +2,4 @@ class A {\n   int f(int x) {\n-    int y = x + 1;\n+    int y = x + 2;\n+    y++;\n     return y;\n";
        let p = parse("p.diff", diff, &read).unwrap();
        assert_eq!(p.edits.len(), 1);
        let e = &p.edits[0];
        assert_eq!(e.filename, "src/A.java");
        assert_eq!(e.unpatched, "    int y = x + 1;\n");
        assert_eq!(e.patched, "    int y = x + 2;\n    y++;\n");
        assert_eq!(&A[e.start..e.start + e.unpatched.len()], e.unpatched);
    }

    #[test]
    fn a_hunk_off_by_some_lines_is_found_and_a_wrong_one_is_named() {
        let diff =
            "--- src/A.java\n+++ src/A.java\n@@ -1,1 +1,1 @@\n-    return y;\n+    return -y;\n";
        let p = parse("p.diff", diff, &read).unwrap();
        assert_eq!(p.edits[0].unpatched, "    return y;\n");
        let wrong = diff.replace("-    return y;", "-    return z;");
        let e = parse("p.diff", &wrong, &read).unwrap_err().to_string();
        assert!(e.contains("src/A.java") && e.contains("hunk 1"), "{e}");
        let e = parse("p.diff", "not a diff", &read)
            .unwrap_err()
            .to_string();
        assert!(e.contains("unified diff"), "{e}");
        let e = parse("p.diff", &diff.replace("src/A.java", "src/Z.java"), &read)
            .unwrap_err()
            .to_string();
        assert!(e.contains("src/Z.java"), "{e}");
    }

    #[test]
    fn a_new_file_is_an_edit_of_an_empty_text() {
        let diff = "--- /dev/null\n+++ b/src/N.java\n@@ -0,0 +1,2 @@\n+class N {\n+}\n";
        let p = parse("n.diff", diff, &read).unwrap();
        assert_eq!(p.edits[0].filename, "src/N.java");
        assert_eq!(p.edits[0].start, 0);
        assert_eq!(p.edits[0].patched, "class N {\n}\n");
    }
}

#[cfg(test)]
#[path = "diff_tests.rs"]
mod roundtrip;
