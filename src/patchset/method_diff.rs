//! Method-relative diffs as RepairBench and elle-elle-aime write them: a unified diff between two
//! temporary files holding the buggy and the fixed method (`--- /tmp/<uuid>_buggy.java`), whose
//! hunk line numbers count from the method's first line. The record names the project file; each
//! hunk is located there by its context and removed lines, compared line by line with runs of
//! whitespace collapsed, nearest to where the record's `method` or `line` puts it.

use super::unified::{self, Line};
use super::whole_method::{declarations, find};
use super::NotInProject;
use crate::model::FileEdit;
use serde::Deserialize;

/// Why a method-relative diff cannot be read into edits of its file.
#[derive(Debug, thiserror::Error)]
pub enum MethodDiffError {
    #[error(transparent)]
    NotInProject(#[from] NotInProject),
    #[error(transparent)]
    Syntax(#[from] unified::DiffError),
    #[error("diff line {line}: a binary change: only text hunks can be validated")]
    Binary { line: usize },
    #[error("the diff changes nothing")]
    NothingChanged,
    #[error(
        "{file}: hunk {hunk} (diff line {line}): its {count} context and removed line(s) are \
         nowhere in the file (after the previous hunk), even with whitespace ignored"
    )]
    Unlocated {
        file: String,
        hunk: usize,
        line: usize,
        count: usize,
    },
    #[error(
        "{file}: hunk {hunk} (diff line {line}) matches at lines {at}: give `method` or `line` \
         to say which"
    )]
    Ambiguous {
        file: String,
        hunk: usize,
        line: usize,
        at: String,
    },
    #[error(
        "{file}: hunk {hunk} (diff line {line}) has no context or removed line to locate it by, \
         and no `method` or `line` says where it goes"
    )]
    NoContext {
        file: String,
        hunk: usize,
        line: usize,
    },
}

/// One record: `{"patch"?, "file", "diff", "method"?, "line"?}`; other fields are ignored.
#[derive(Debug, Deserialize)]
pub struct DiffRecord {
    pub file: String,
    pub diff: String,
    #[serde(default)]
    pub method: Option<String>,
    #[serde(default)]
    pub line: Option<usize>,
}

/// A line compared as the diff's: runs of whitespace as one space, none at the ends.
fn loose(l: &str) -> String {
    l.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The 0-based file line a method-relative line 1 stands for, from the record's hints: the
/// first line of the method they name (its javadoc's when it has one), else the hinted line.
fn anchor(file: &str, text: &str, r: &DiffRecord) -> Option<usize> {
    let decls = declarations(text).unwrap_or_default();
    let found = find(file, &decls, r.method.as_deref(), r.line).ok();
    match found {
        Some(d) => {
            let first = match &d.javadoc {
                // Counted on bytes: no slice of the text, whatever tree-sitter's offsets.
                Some(doc) => {
                    let before = text.as_bytes().get(..doc.start).unwrap_or_default();
                    before.iter().filter(|&&b| b == b'\n').count() + 1
                }
                None => d.lines.0,
            };
            Some(first.saturating_sub(1))
        }
        None => r.line.map(|l| l.saturating_sub(1)),
    }
}

/// The edits record `r` makes on its file (found by `resolve`).
pub fn edits(r: &DiffRecord, resolve: super::Resolve) -> Result<Vec<FileEdit>, MethodDiffError> {
    let files = match unified::parse(&r.diff) {
        // Hunks alone, without the temporary files' header.
        Err(unified::DiffError::NoFile | unified::DiffError::HunkWithoutFile { .. })
            if r.diff.contains("@@") =>
        {
            unified::parse(&format!("--- a\n+++ b\n{}", r.diff))?
        }
        read => read?,
    };
    let (filename, text) = resolve(&r.file)?;
    let hinted = anchor(&filename, &text, r);
    let end_line = if text.contains("\r\n") { "\r\n" } else { "\n" };
    // Line starts, and one past the last line.
    let mut starts: Vec<usize> = vec![0];
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    if starts.last() != Some(&text.len()) {
        starts.push(text.len());
    }
    let lines = starts.len() - 1;
    let file_lines: Vec<String> = (0..lines)
        .map(|k| loose(text.get(starts[k]..starts[k + 1]).unwrap_or("")))
        .collect();
    let mut edits = Vec::new();
    let mut not_before = 0;
    let mut h = 0;
    for f in &files {
        if f.binary {
            return Err(MethodDiffError::Binary { line: f.line });
        }
        for hunk in &f.hunks {
            h += 1;
            let expected: Vec<String> = hunk
                .lines
                .iter()
                .filter_map(|l| match l {
                    Line::Context(s) | Line::Remove(s) => Some(loose(s)),
                    Line::Add(_) => None,
                })
                .collect();
            // Where the hunk's first line is by the hints (0-based).
            let first_old = match hunk.old_count {
                0 => hunk.old_start,
                _ => hunk.old_start.saturating_sub(1),
            };
            let wanted = hinted.map(|a| a.saturating_add(first_old));
            let at = if expected.is_empty() {
                match wanted {
                    Some(w) if w >= not_before && w <= lines => w,
                    _ => {
                        return Err(MethodDiffError::NoContext {
                            file: filename.clone(),
                            hunk: h,
                            line: hunk.line,
                        })
                    }
                }
            } else {
                let matches: Vec<usize> = (not_before..(lines + 1).saturating_sub(expected.len()))
                    .filter(|&at| {
                        expected
                            .iter()
                            .enumerate()
                            .all(|(j, l)| file_lines[at + j] == *l)
                    })
                    .collect();
                match (matches.as_slice(), wanted) {
                    ([], _) => {
                        return Err(MethodDiffError::Unlocated {
                            file: filename.clone(),
                            hunk: h,
                            line: hunk.line,
                            count: expected.len(),
                        })
                    }
                    ([one], _) => *one,
                    (several, Some(w)) => *several
                        .iter()
                        .min_by_key(|&&m| m.abs_diff(w))
                        .unwrap_or(&several[0]),
                    (several, None) => {
                        let at: Vec<String> = several
                            .iter()
                            .take(8)
                            .map(|m| (m + 1).to_string())
                            .collect();
                        return Err(MethodDiffError::Ambiguous {
                            file: filename.clone(),
                            hunk: h,
                            line: hunk.line,
                            at: at.join(", "),
                        });
                    }
                }
            };
            not_before = at + expected.len();
            edits.extend(super::diff::hunk_edits(
                hunk, at, &starts, &text, &filename, end_line,
            ));
        }
    }
    if edits.is_empty() {
        return Err(MethodDiffError::NothingChanged);
    }
    Ok(edits)
}

#[cfg(test)]
#[path = "method_diff_tests.rs"]
mod tests;
