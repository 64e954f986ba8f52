//! Edit-list manifests: a JSON object whose `patches` are objects `{"name", "edits": [{
//! "filename", "line"?, "unpatched", "patched"}]}`, each edit found in its file by its text (on
//! its line when given, else where it occurs once).

use super::edits::EditPatch;
use super::line_of;
use super::{FilenameProblem, ReadError, Unreadable};
use crate::model::FileEdit;
use std::path::Path;

/// Why an edit list, or one of its patches, cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum EditListError {
    /// The JSON is not an edit list (`field`: where it is not); the whole file is unreadable.
    #[error("invalid edit list at field `{field}`: {source}")]
    Invalid {
        field: String,
        source: serde_json::Error,
    },
    /// Edit `edit` of patch `patch` is not in its file; that patch is unreadable.
    #[error("patches[{patch}].edits[{edit}]: {source}")]
    Edit {
        patch: usize,
        edit: usize,
        source: EditError,
    },
}

/// Why one edit of an edit list cannot be found in its file.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    #[error("filename: {0}")]
    Filename(#[source] FilenameProblem),
    #[error("{0}: no such file")]
    NoSuchFile(String),
    #[error("an insertion (empty `unpatched`) needs its `line`")]
    InsertionWithoutLine,
    #[error("{filename}: line {line} does not contain the edit's `unpatched` text")]
    NotOnLine { filename: String, line: usize },
    #[error("{0}: `unpatched` is not in the file")]
    NotInFile(String),
    /// `unpatched` is at several places (their lines) and the edit gives no `line`.
    #[error(
        "{filename}: `unpatched` occurs {} times (lines {}); give its `line`",
        lines.len(),
        lines.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
    )]
    Ambiguous { filename: String, lines: Vec<usize> },
}

/// Whether a JSON value is an edit-list manifest: `patches` holds objects.
pub fn is_edit_list(v: &serde_json::Value) -> bool {
    v.get("patches")
        .and_then(|p| p.as_array()?.first().map(|p| p.is_object()))
        .unwrap_or(false)
}

/// An edit-list manifest.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct EditList {
    #[serde(default)]
    bug: Option<String>,
    patches: Vec<ListedPatch>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ListedPatch {
    #[serde(default)]
    name: Option<String>,
    edits: Vec<ListedEdit>,
}

/// One edit: `unpatched` as it reads in `filename` (on line `line` when given, else the only
/// place it occurs) becomes `patched`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ListedEdit {
    filename: String,
    #[serde(default)]
    line: Option<usize>,
    unpatched: String,
    patched: String,
}

/// A list's bug, its usable patches and the others with why.
pub type Listed = (String, Vec<EditPatch>, Vec<Unreadable>);

/// Reads an edit-list manifest: its bug, its usable patches and the others with why.
pub fn read(
    file: &Path,
    text: &str,
    read: &dyn Fn(&str) -> Option<String>,
) -> Result<Listed, EditListError> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let list: EditList =
        serde_path_to_error::deserialize(de).map_err(|e| EditListError::Invalid {
            field: e.path().to_string(),
            source: e.into_inner(),
        })?;
    let shown = file.display().to_string();
    let bug = list.bug.unwrap_or_else(|| super::stem(file));
    let (mut patches, mut bad) = (Vec::new(), Vec::new());
    for (i, p) in list.patches.into_iter().enumerate() {
        let name = p.name.unwrap_or_else(|| format!("patch {i}"));
        let located: Result<Vec<FileEdit>, EditListError> = p
            .edits
            .into_iter()
            .enumerate()
            .map(|(j, e)| {
                locate(e, read).map_err(|source| EditListError::Edit {
                    patch: i,
                    edit: j,
                    source,
                })
            })
            .collect();
        match located {
            Ok(edits) => patches.push(EditPatch { name, edits }),
            Err(why) => bad.push(Unreadable {
                source: format!("{shown} ({name})"),
                why: ReadError::EditList(why),
            }),
        }
    }
    Ok((bug, patches, bad))
}

/// Finds an edit's text in its file.
fn locate(e: ListedEdit, read: &dyn Fn(&str) -> Option<String>) -> Result<FileEdit, EditError> {
    if let Some(problem) = super::filename_problem(&e.filename) {
        return Err(EditError::Filename(problem));
    }
    let text = read(&e.filename).ok_or_else(|| EditError::NoSuchFile(e.filename.clone()))?;
    let found: Vec<usize> = text.match_indices(&e.unpatched).map(|(i, _)| i).collect();
    let start = match e.line {
        _ if e.unpatched.is_empty() && e.line.is_none() => {
            return Err(EditError::InsertionWithoutLine)
        }
        Some(line) => {
            let begins = text
                .split_inclusive('\n')
                .take(line.saturating_sub(1))
                .map(str::len)
                .sum::<usize>();
            match found
                .iter()
                .find(|&&i| i >= begins && line_of(&text, i) == line)
            {
                Some(&i) => i,
                None if e.unpatched.is_empty() => begins,
                None => {
                    return Err(EditError::NotOnLine {
                        filename: e.filename,
                        line,
                    })
                }
            }
        }
        None => match found.as_slice() {
            [i] => *i,
            [] => return Err(EditError::NotInFile(e.filename)),
            many => {
                return Err(EditError::Ambiguous {
                    filename: e.filename,
                    lines: many.iter().map(|&i| line_of(&text, i)).collect(),
                })
            }
        },
    };
    Ok(FileEdit {
        filename: e.filename,
        start,
        unpatched: e.unpatched,
        patched: e.patched,
    })
}
