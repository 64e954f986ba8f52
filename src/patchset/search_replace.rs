//! SEARCH/REPLACE edit blocks as aider and agentic repairers write them: the file's path on the
//! line before `<<<<<<< SEARCH` (a Markdown fence, ```` ```java ````, may stand between), the
//! exact old lines, `=======`, the new lines, `>>>>>>> REPLACE`. Every block of one input makes
//! one patch; each SEARCH text is located on the original file, exactly, else with the spaces at
//! each line's ends ignored, and must be found once.

use super::edits::EditPatch;
use super::NotInProject;
use crate::model::FileEdit;

/// Why an input's blocks cannot be read into a patch; each names the block (1-based).
#[derive(Debug, thiserror::Error)]
pub enum BlockError {
    #[error("no `<<<<<<< SEARCH` block")]
    NoBlock,
    #[error("block {block} (line {line}): no file named on the line before `<<<<<<< SEARCH`")]
    NoFile { block: usize, line: usize },
    #[error("block {block} (line {line}): no `=======` after `<<<<<<< SEARCH`")]
    NoDivider { block: usize, line: usize },
    #[error("block {block} (line {line}): no `>>>>>>> REPLACE` after `=======`")]
    NoEnd { block: usize, line: usize },
    #[error("block {block} (line {line}): {source}")]
    NotInProject {
        block: usize,
        line: usize,
        #[source]
        source: NotInProject,
    },
    #[error("block {block} (line {line}): the SEARCH text is empty and {file} exists")]
    EmptySearch {
        block: usize,
        line: usize,
        file: String,
    },
    #[error(
        "block {block} (line {line}): the SEARCH text ({count} line(s)) is not in {file}, even \
         with the spaces at each line's ends ignored"
    )]
    NotFound {
        block: usize,
        line: usize,
        file: String,
        count: usize,
    },
    #[error(
        "block {block} (line {line}): the SEARCH text is in {file} {matches} times (lines \
         {at}): it must say which by being found once"
    )]
    Several {
        block: usize,
        line: usize,
        file: String,
        matches: usize,
        at: String,
    },
}

const SEARCH: &str = "<<<<<<< SEARCH";
const DIVIDER: &str = "=======";
const REPLACE: &str = ">>>>>>> REPLACE";

/// Whether `text` holds a SEARCH/REPLACE block (a line that is `<<<<<<< SEARCH`).
pub fn is_blocks(text: &str) -> bool {
    text.lines().any(|l| l.trim() == SEARCH)
}

/// One block as written.
struct Block<'t> {
    /// 1-based line of its `<<<<<<< SEARCH`.
    line: usize,
    path: String,
    search: Vec<&'t str>,
    replace: Vec<&'t str>,
}

/// A path line as written: without backticks, bold marks, a `File:` label or a final colon.
fn clean_path(l: &str) -> String {
    let mut p = l.trim();
    for label in ["File:", "file:", "FILE:", "Path:", "path:"] {
        p = p.strip_prefix(label).unwrap_or(p).trim();
    }
    let marks = |c: char| matches!(c, '`' | '*' | '#' | '"' | '\'' | ':') || c.is_whitespace();
    p.trim_matches(marks).to_string()
}

fn blocks(text: &str) -> Result<Vec<Block<'_>>, BlockError> {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut out: Vec<Block> = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        if lines[k].trim() != SEARCH {
            k += 1;
            continue;
        }
        let (n, line) = (out.len() + 1, k + 1);
        // The path: the nearest line before that is not blank or a fence; after a block's
        // `>>>>>>> REPLACE`, that block's file.
        let mut path = None;
        for prev in lines[..k].iter().rev() {
            let t = prev.trim();
            if t.is_empty() || t.starts_with("```") {
                continue;
            }
            path = if t == REPLACE {
                out.last().map(|b: &Block| b.path.clone())
            } else {
                Some(clean_path(t)).filter(|p| !p.is_empty())
            };
            break;
        }
        let path = path.ok_or(BlockError::NoFile { block: n, line })?;
        let divider = (k + 1..lines.len())
            .find(|&j| lines[j].trim() == DIVIDER)
            .ok_or(BlockError::NoDivider { block: n, line })?;
        let end = (divider + 1..lines.len())
            .find(|&j| lines[j].trim() == REPLACE)
            .ok_or(BlockError::NoEnd { block: n, line })?;
        out.push(Block {
            line,
            path,
            search: lines[k + 1..divider].to_vec(),
            replace: lines[divider + 1..end].to_vec(),
        });
        k = end + 1;
    }
    if out.is_empty() {
        return Err(BlockError::NoBlock);
    }
    Ok(out)
}

/// Where `search` is among `file` (lines without their ends), compared by `same`.
fn find_all(file: &[&str], search: &[&str], same: impl Fn(&str, &str) -> bool) -> Vec<usize> {
    if search.is_empty() || search.len() > file.len() {
        return Vec::new();
    }
    (0..=file.len() - search.len())
        .filter(|&at| {
            search
                .iter()
                .enumerate()
                .all(|(j, s)| same(file[at + j], s))
        })
        .collect()
}

/// Reads input `name`'s blocks into one patch named `name`. `resolve` finds the project file a
/// path means (below the root or a source directory).
pub fn parse(name: &str, text: &str, resolve: super::Resolve) -> Result<EditPatch, BlockError> {
    let mut edits = Vec::new();
    for (b, block) in blocks(text)?.into_iter().enumerate() {
        let (n, line) = (b + 1, block.line);
        // A SEARCH that is only blank lines finds nothing to replace.
        let search: &[&str] = if block.search.iter().all(|l| l.trim().is_empty()) {
            &[]
        } else {
            &block.search
        };
        let found = resolve(&block.path);
        let (filename, original) = match (found, search.is_empty()) {
            (Ok((f, _)), true) => {
                return Err(BlockError::EmptySearch {
                    block: n,
                    line,
                    file: f,
                })
            }
            // An empty SEARCH on a file the project does not have creates it.
            (Err(e), true) => match super::filename_problem(block.path.trim_start_matches("./")) {
                None => (
                    block.path.trim_start_matches("./").to_string(),
                    String::new(),
                ),
                Some(_) => {
                    return Err(BlockError::NotInProject {
                        block: n,
                        line,
                        source: e,
                    })
                }
            },
            (Err(source), false) => {
                return Err(BlockError::NotInProject {
                    block: n,
                    line,
                    source,
                })
            }
            (Ok(found), false) => found,
        };
        let end_line = if original.contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        let mut patched = String::new();
        for l in &block.replace {
            patched.push_str(l);
            patched.push_str(end_line);
        }
        if search.is_empty() {
            edits.push(FileEdit {
                filename,
                start: 0,
                unpatched: String::new(),
                patched,
            });
            continue;
        }
        // The file's lines and where each starts (one past the last line at the end).
        let mut starts: Vec<usize> = vec![0];
        starts.extend(original.match_indices('\n').map(|(i, _)| i + 1));
        if starts.last() != Some(&original.len()) {
            starts.push(original.len());
        }
        let file_lines: Vec<&str> = (0..starts.len() - 1)
            .map(|k| {
                let l = original.get(starts[k]..starts[k + 1]).unwrap_or("");
                l.trim_end_matches('\n').trim_end_matches('\r')
            })
            .collect();
        let mut at = find_all(&file_lines, search, |a, b| a == b);
        if at.is_empty() {
            at = find_all(&file_lines, search, |a, b| a.trim() == b.trim());
        }
        let first = match at.as_slice() {
            [] => {
                return Err(BlockError::NotFound {
                    block: n,
                    line,
                    file: filename,
                    count: search.len(),
                })
            }
            [one] => *one,
            several => {
                let shown: Vec<String> = several
                    .iter()
                    .take(8)
                    .map(|m| (m + 1).to_string())
                    .collect();
                return Err(BlockError::Several {
                    block: n,
                    line,
                    file: filename,
                    matches: several.len(),
                    at: shown.join(", "),
                });
            }
        };
        let (s, e) = (starts[first], starts[first + search.len()]);
        let unpatched = original.get(s..e).unwrap_or("").to_string();
        // The file's last line without a newline stays without one.
        if !unpatched.ends_with('\n') {
            patched.truncate(patched.trim_end_matches(['\r', '\n']).len());
        }
        edits.push(FileEdit {
            filename,
            start: s,
            unpatched,
            patched,
        });
    }
    Ok(EditPatch {
        name: name.to_string(),
        edits,
    })
}

#[cfg(test)]
#[path = "search_replace_tests.rs"]
mod tests;
