//! Edit-list manifests: a JSON object whose `patches` are objects `{"name", "edits": [{
//! "filename", "line"?, "unpatched", "patched"}]}`, each edit found in its file by its text (on
//! its line when given, else where it occurs once).

use super::edits::EditPatch;
use super::line_of;
use super::Unreadable;
use crate::model::FileEdit;
use std::path::Path;

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
) -> Result<Listed, String> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let list: EditList = serde_path_to_error::deserialize(de)
        .map_err(|e| format!("invalid edit list at field `{}`: {}", e.path(), e.inner()))?;
    let shown = file.display().to_string();
    let bug = list.bug.unwrap_or_else(|| super::stem(file));
    let (mut patches, mut bad) = (Vec::new(), Vec::new());
    for (i, p) in list.patches.into_iter().enumerate() {
        let name = p.name.unwrap_or_else(|| format!("patch {i}"));
        let located: Result<Vec<FileEdit>, String> = p
            .edits
            .into_iter()
            .enumerate()
            .map(|(j, e)| locate(e, read).map_err(|why| format!("edits[{j}]: {why}")))
            .collect();
        match located {
            Ok(edits) => patches.push(EditPatch { name, edits }),
            Err(why) => bad.push(Unreadable {
                source: format!("{shown} ({name})"),
                why: format!("patches[{i}].{why}"),
            }),
        }
    }
    Ok((bug, patches, bad))
}

/// Finds an edit's text in its file.
fn locate(e: ListedEdit, read: &dyn Fn(&str) -> Option<String>) -> Result<FileEdit, String> {
    if let Some(why) = super::filename_problem(&e.filename) {
        return Err(format!("filename: {why}"));
    }
    let text = read(&e.filename).ok_or_else(|| format!("{}: no such file", e.filename))?;
    let found: Vec<usize> = text.match_indices(&e.unpatched).map(|(i, _)| i).collect();
    let start = match e.line {
        _ if e.unpatched.is_empty() && e.line.is_none() => {
            return Err("an insertion (empty `unpatched`) needs its `line`".into())
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
                    return Err(format!(
                        "{}: line {line} does not contain the edit's `unpatched` text",
                        e.filename
                    ))
                }
            }
        }
        None => match found.as_slice() {
            [i] => *i,
            [] => return Err(format!("{}: `unpatched` is not in the file", e.filename)),
            many => {
                return Err(format!(
                    "{}: `unpatched` occurs {} times (lines {}); give its `line`",
                    e.filename,
                    many.len(),
                    many.iter()
                        .map(|&i| line_of(&text, i).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
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
