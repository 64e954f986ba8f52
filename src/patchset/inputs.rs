//! What `run` is given, made into patch set files: ExpressAPR manifests as they are; edit-list
//! manifests and unified diffs (`--diff`) read into patches, grouped into sets by location
//! (`edits::group`) and written below the work dir's `inputs/`.

use super::edits::{group, EditPatch};
use super::{expand_with, line_of, PatchSetError};
use crate::model::{FileEdit, PatchSet};
use std::path::{Path, PathBuf};

/// A patch that could not be read into edits, reported as an `E` of its own.
#[derive(Debug, Clone)]
pub struct Unreadable {
    /// The input file (with `:LINE` for a JSON-lines entry).
    pub source: String,
    pub why: String,
}

/// The set files to validate and the patches that could not be used.
#[derive(Debug, Default)]
pub struct Prepared {
    pub sets: Vec<PathBuf>,
    pub unreadable: Vec<Unreadable>,
}

/// Reads `args` (files, directories, globs). Without `diff`, they are patch set manifests: an
/// ExpressAPR one is used as it is, an edit-list one is grouped into sets. With `diff`, they are
/// unified diffs (`.diff`/`.patch` files, directories of them, or `.jsonl` files with one diff
/// per line), grouped together. `root` is the project the patches were made against; grouped
/// sets are written to a directory of `inputs` named by their content.
pub fn prepare(
    inputs: &Path,
    root: &Path,
    args: &[String],
    diff: bool,
) -> Result<Prepared, PatchSetError> {
    let mut out = Prepared::default();
    // Every diff reads the files it names (and tries git's prefixes): each is read once.
    let texts = std::cell::RefCell::new(std::collections::HashMap::<String, Option<String>>::new());
    let read = |f: &str| {
        texts
            .borrow_mut()
            .entry(f.to_string())
            .or_insert_with(|| std::fs::read_to_string(root.join(f)).ok())
            .clone()
    };
    if diff {
        let mut patches = Vec::new();
        for file in expand_with(args, &["diff", "patch", "jsonl"])? {
            for entry in diff_entries(&file) {
                match entry.and_then(|(name, text)| {
                    super::diff::parse(&name, &text, &read).map_err(|why| (name, why))
                }) {
                    Ok(p) => patches.push(p),
                    Err((source, why)) => out.unreadable.push(Unreadable { source, why }),
                }
            }
        }
        write_groups(inputs, root, "diff", patches, &mut out)?;
        return Ok(out);
    }
    for file in expand_with(args, &["json"])? {
        let Ok(text) = std::fs::read_to_string(&file) else {
            out.sets.push(file);
            continue;
        };
        if !is_edit_list(&text) {
            out.sets.push(file);
            continue;
        }
        match edit_list(&file, &text, &read) {
            Ok((bug, patches, bad)) => {
                out.unreadable.extend(bad);
                write_groups(inputs, root, &bug, patches, &mut out)?;
            }
            Err(why) => out.unreadable.push(Unreadable {
                source: file.display().to_string(),
                why,
            }),
        }
    }
    Ok(out)
}

/// The diffs in one input file: the file itself, or each line of a `.jsonl` file (a JSON string,
/// or an object with `diff` and optionally `name` or `id`). Each is (name, text) or
/// (source, why not).
fn diff_entries(file: &Path) -> Vec<Result<(String, String), (String, String)>> {
    let shown = file.display().to_string();
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => return vec![Err((shown, format!("cannot read: {e}")))],
    };
    if file.extension().is_none_or(|e| e != "jsonl") {
        return vec![Ok((shown, text))];
    }
    let mut out = Vec::new();
    for (k, l) in text.lines().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        let at = format!("{shown}:{}", k + 1);
        let entry = match serde_json::from_str::<serde_json::Value>(l) {
            Ok(serde_json::Value::String(d)) => Ok((at.clone(), d)),
            Ok(serde_json::Value::Object(o)) => match o.get("diff").and_then(|d| d.as_str()) {
                Some(d) => {
                    let name = ["name", "id"]
                        .iter()
                        .find_map(|k| match o.get(*k) {
                            Some(serde_json::Value::String(s)) => Some(s.clone()),
                            Some(v @ serde_json::Value::Number(_)) => Some(v.to_string()),
                            _ => None,
                        })
                        .map(|n| format!("{at} ({n})"))
                        .unwrap_or_else(|| at.clone());
                    Ok((name, d.to_string()))
                }
                None => Err((at.clone(), "no string field `diff`".to_string())),
            },
            Ok(_) => Err((at.clone(), "expected a string or an object".to_string())),
            Err(e) => Err((at.clone(), format!("invalid JSON: {e}"))),
        };
        out.push(entry);
    }
    out
}

/// Whether a JSON text is an edit-list manifest: `patches` holds objects.
fn is_edit_list(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| v.get("patches")?.as_array()?.first().map(|p| p.is_object()))
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

type Listed = (String, Vec<EditPatch>, Vec<Unreadable>);

/// Reads an edit-list manifest: its bug, its usable patches and the others with why.
fn edit_list(
    file: &Path,
    text: &str,
    read: &dyn Fn(&str) -> Option<String>,
) -> Result<Listed, String> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let list: EditList = serde_path_to_error::deserialize(de)
        .map_err(|e| format!("invalid edit list at field `{}`: {}", e.path(), e.inner()))?;
    let shown = file.display().to_string();
    let bug = list.bug.unwrap_or_else(|| stem(file));
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

fn stem(file: &Path) -> String {
    file.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "patches".into())
}

/// Groups patches into sets and writes them to `inputs/<bug>-<content hash>/`.
fn write_groups(
    inputs: &Path,
    root: &Path,
    bug: &str,
    patches: Vec<EditPatch>,
    out: &mut Prepared,
) -> Result<(), PatchSetError> {
    let read = |f: &str| -> Result<String, String> {
        let path = root.join(f);
        match std::fs::read_to_string(&path) {
            Ok(t) => Ok(t),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    };
    let (sets, failed): (Vec<PatchSet>, _) = group(bug, patches, &read);
    out.unreadable.extend(
        failed
            .into_iter()
            .map(|(source, why)| Unreadable { source, why }),
    );
    if sets.is_empty() {
        return Ok(());
    }
    let texts: Vec<String> = sets
        .iter()
        .map(|s| serde_json::to_string_pretty(s).expect("a patch set serializes"))
        .collect();
    let hash = crate::records::fnv(
        texts.iter().flat_map(|t| t.bytes()),
        crate::records::FNV_START,
    );
    let safe: String = bug
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let dir = inputs.join(format!("{safe}-{hash:016x}"));
    let io = |source: std::io::Error| PatchSetError::Read {
        path: dir.clone(),
        source,
    };
    std::fs::create_dir_all(&dir).map_err(io)?;
    for (k, (set, text)) in sets.iter().zip(&texts).enumerate() {
        let file = stem(Path::new(&set.filename));
        let line = line_of(&set.context_above, set.context_above.len());
        let path = dir.join(format!("{:03}-{file}-L{line}.json", k + 1));
        std::fs::write(&path, text).map_err(io)?;
        out.sets.push(path);
    }
    Ok(())
}
