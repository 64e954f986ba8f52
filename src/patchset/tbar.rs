//! TBar's patch files (`Patch_N.txt`, `Patch_N_M.txt` in its `FixedBugs/<bug>/` result
//! directories): a `git diff` (read by `diff`), or, when TBar had no diff, a block naming the
//! suspicious file and line with the buggy code and the code that replaces it:
//!
//! ```text
//! //**********************************************************
//! //org/apache/commons/math/stat/Frequency.java ------ 313
//! //**********************************************************
//! ===Buggy Code===
//! addValue((Comparable<?>) v);
//!
//! ===Patch Code===
//! if (v instanceof Comparable<?>) { … }
//! ```

use super::edits::EditPatch;
use super::{line_of, NotInProject};
use crate::model::FileEdit;

/// Why a TBar block cannot be read into a patch of the project.
#[derive(Debug, thiserror::Error)]
pub enum BlockError {
    #[error("no `===Buggy Code===` line")]
    NoBuggyCode,
    #[error("no `===Patch Code===` line after the buggy code")]
    NoPatchCode,
    #[error("no `//FILE ------ LINE` header naming the buggy file and line")]
    NoHeader,
    #[error("the buggy code is empty")]
    EmptyBuggyCode,
    #[error(transparent)]
    File(#[from] NotInProject),
    #[error("{filename}: the buggy code is not in the file (looked near line {line})")]
    NotInFile { filename: String, line: usize },
}

const BUGGY: &str = "===Buggy Code===";
const PATCH: &str = "===Patch Code===";

/// Whether `text` is TBar's block form.
pub fn is_block(text: &str) -> bool {
    text.contains(BUGGY) && text.contains(PATCH)
}

/// Reads TBar's block form into a patch. `resolve` finds the project file a name means (TBar
/// names it below a source directory) and gives its path and text.
pub fn parse_block(
    name: &str,
    text: &str,
    resolve: super::Resolve,
) -> Result<EditPatch, BlockError> {
    let text = text.replace("\r\n", "\n");
    let (head, rest) = text.split_once(BUGGY).ok_or(BlockError::NoBuggyCode)?;
    let (buggy, patch) = rest.split_once(PATCH).ok_or(BlockError::NoPatchCode)?;
    // `//FILE ------ LINE` (TBar puts `//` and sometimes spaces before the name).
    let (file, line) = head
        .lines()
        .find_map(|l| {
            let (f, n) = l.trim().trim_start_matches('/').split_once("------")?;
            Some((f.trim().to_string(), n.trim().parse::<usize>().ok()?))
        })
        .ok_or(BlockError::NoHeader)?;
    let buggy = strip_newlines(buggy);
    let patch = strip_newlines(patch);
    if buggy.trim().is_empty() {
        return Err(BlockError::EmptyBuggyCode);
    }
    let (filename, original) = resolve(&file)?;
    let start = locate(&original, buggy, line).ok_or_else(|| BlockError::NotInFile {
        filename: filename.clone(),
        line,
    })?;
    Ok(EditPatch {
        name: name.to_string(),
        edits: vec![FileEdit {
            filename,
            start,
            unpatched: original[start..start + buggy.len()].to_string(),
            patched: patch.to_string(),
        }],
    })
}

/// The text between the markers without the line breaks TBar writes around it.
fn strip_newlines(s: &str) -> &str {
    s.strip_prefix('\n').unwrap_or(s).trim_end_matches('\n')
}

/// Where `code` is in `text`: the occurrence starting on `line`, else the nearest one.
fn locate(text: &str, code: &str, line: usize) -> Option<usize> {
    text.match_indices(code)
        .map(|(at, _)| at)
        .min_by_key(|&at| line_of(text, at).abs_diff(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "class F {\n    void add(Object v) {\n            addValue((Comparable<?>) v);\n    }\n    void g() {\n            addValue((Comparable<?>) v);\n    }\n}\n";

    fn resolve(name: &str) -> Result<(String, String), NotInProject> {
        match name {
            "org/x/F.java" => Ok(("src/java/org/x/F.java".into(), FILE.into())),
            _ => Err(NotInProject {
                name: name.into(),
                root: ".".into(),
            }),
        }
    }

    #[test]
    fn a_block_replaces_the_buggy_code_on_its_line() {
        let block = "//**********************************************************\n//org/x/F.java ------ 6\n//**********************************************************\n===Buggy Code===\naddValue((Comparable<?>) v);\n\n===Patch Code===\nif (v != null) addValue((Comparable<?>) v);";
        assert!(is_block(block));
        let p = parse_block("Patch_3.txt", block, &resolve).unwrap();
        let e = &p.edits[0];
        assert_eq!(e.filename, "src/java/org/x/F.java");
        assert_eq!(
            line_of(FILE, e.start),
            6,
            "the occurrence on the line TBar names"
        );
        assert_eq!(e.unpatched, "addValue((Comparable<?>) v);");
        assert_eq!(e.patched, "if (v != null) addValue((Comparable<?>) v);");
        let crlf = block.replace('\n', "\r\n").replace("------ 6", "------ 3");
        let p = parse_block("p", &crlf, &resolve).unwrap();
        assert_eq!(line_of(FILE, p.edits[0].start), 3);
    }

    #[test]
    fn what_is_missing_is_named() {
        let e = parse_block("p", "===Buggy Code===\nx;\n===Patch Code===\ny;", &resolve)
            .unwrap_err()
            .to_string();
        assert!(e.contains("FILE ------ LINE"), "{e}");
        let e = parse_block(
            "p",
            "//org/x/G.java ------ 3\n===Buggy Code===\nx;\n===Patch Code===\ny;",
            &resolve,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("org/x/G.java"), "{e}");
        let e = parse_block(
            "p",
            "//org/x/F.java ------ 3\n===Buggy Code===\nnothing(like, this);\n===Patch Code===\ny;",
            &resolve,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("not in the file"), "{e}");
    }
}
