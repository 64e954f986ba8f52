//! What `run` is given, made into patch set files: ExpressAPR manifests as they are; patches
//! as repair tools write them (edit-list manifests, unified diffs, TBar's `Patch_N.txt` files
//! and result directories, Recoder's candidate records, LLM repairers' whole methods,
//! SEARCH/REPLACE blocks and method-relative diffs) read into patches, grouped into sets by
//! location (`edits::group`) and written below the work dir's `inputs/`. Each input file is
//! read on its own: whatever it holds, it costs at most its own patches an `E` with the file
//! named and why, never the run (a panic in a reader included).

use super::edits::{group, EditPatch, GroupError};
use super::llm_records::{self, Kind};
use super::recoder::RecordError;
use super::{line_of, stem, NotInProject, PatchSetError, ReadError, Unreadable};
use crate::model::PatchSet;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The set files to validate and the patches that could not be used.
#[derive(Debug, Default)]
pub struct Prepared {
    pub sets: Vec<PathBuf>,
    pub unreadable: Vec<Unreadable>,
}

/// What the input files are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Told apart by extension and content (below).
    #[default]
    Auto,
    /// ExpressAPR manifest-v3 patch sets (`interface` may be left out) or edit-list manifests.
    Manifest,
    /// Unified diffs, one patch each (`.diff`, `.patch`, `.txt`, or `.jsonl` lines).
    Diff,
    /// TBar's `Patch_N.txt` files (a diff, or its `===Buggy Code===` block) and result
    /// directories.
    Tbar,
    /// Recoder's candidate records (a JSON array or JSON lines).
    Recoder,
    /// Whole new methods, as function-level LLM repairers write them: JSON records
    /// `{"file", "method"?, "line"?, "text", "patch"?}` (JSON lines or a JSON array).
    Methods,
    /// SEARCH/REPLACE edit blocks, as aider and agentic repairers write them: one patch per
    /// file, any extension.
    SearchReplace,
    /// Method-relative diffs, as RepairBench and elle-elle-aime write them, in JSON records
    /// naming the file: `{"file", "diff", "method"?, "line"?, "patch"?}`.
    MethodDiff,
}

/// The project's files as patches name them.
pub struct Files<'a> {
    root: &'a Path,
    /// Source directories, relative to the root.
    sources: Vec<PathBuf>,
    texts: RefCell<HashMap<String, Option<String>>>,
}

impl<'a> Files<'a> {
    pub fn new(root: &'a Path, sources: &[PathBuf]) -> Files<'a> {
        let sources = sources
            .iter()
            .map(|s| s.strip_prefix(root).unwrap_or(s).to_path_buf())
            .collect();
        Files {
            root,
            sources,
            texts: RefCell::default(),
        }
    }

    /// The text of the file at `rel` below the root (each file read once).
    pub fn read(&self, rel: &str) -> Option<String> {
        self.texts
            .borrow_mut()
            .entry(rel.to_string())
            .or_insert_with(|| {
                let path = self.root.join(rel);
                path.is_file().then(|| std::fs::read_to_string(path).ok())?
            })
            .clone()
    }

    /// The project file a tool's name means, with its text: the name below the root or below a
    /// source directory (TBar names files below the source directory), or a part of the name
    /// that ends it (Recoder names them inside its own checkout, `buggy/src/…`; git's `a/`).
    pub fn resolve(&self, name: &str) -> Result<(String, String), NotInProject> {
        let clean = name.trim().trim_start_matches("./");
        let parts: Vec<&str> = clean.split('/').filter(|p| !p.is_empty()).collect();
        for k in 0..parts.len() {
            let tail = parts[k..].join("/");
            let mut tries = vec![tail.clone()];
            tries.extend(
                self.sources
                    .iter()
                    .map(|s| s.join(&tail).to_string_lossy().into_owned()),
            );
            for t in tries {
                if super::filename_problem(&t).is_none() {
                    if let Some(text) = self.read(&t) {
                        return Ok((t, text));
                    }
                }
            }
        }
        Err(NotInProject {
            name: name.to_string(),
            root: self.root.to_path_buf(),
        })
    }
}

/// Reads `args` (files, directories, globs) as `format` says. Manifests are used as they are;
/// everything else is read into patches, grouped into sets and written to a directory of
/// `inputs` named by their content. `root` is the project the patches were made against,
/// `sources` its source directories.
pub fn prepare(
    inputs: &Path,
    root: &Path,
    sources: &[PathBuf],
    args: &[String],
    format: Format,
) -> Result<Prepared, PatchSetError> {
    let files = Files::new(root, sources);
    let mut out = Prepared::default();
    // Patches read from the inputs, by the name their sets get.
    let mut pools: BTreeMap<String, Vec<EditPatch>> = BTreeMap::new();
    for file in expand_inputs(args, format)? {
        let shown = file.display().to_string();
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            read_input(&file, format, &files)
        }))
        .unwrap_or_else(|panic| {
            Input::Bad(vec![Unreadable {
                source: shown.clone(),
                why: ReadError::ReadPanic(panic_text(&panic)),
            }])
        });
        match read {
            Input::Manifest => out.sets.push(file),
            Input::Patches { bug, patches, bad } => {
                pools.entry(bug).or_default().extend(patches);
                out.unreadable.extend(bad);
            }
            Input::Bad(bad) => out.unreadable.extend(bad),
        }
    }
    for (bug, patches) in pools {
        write_groups(inputs, root, &bug, patches, &mut out)?;
    }
    Ok(out)
}

/// What one input file held.
enum Input {
    /// A manifest-v3 set, validated as it is (errors in it are the set's `E`).
    Manifest,
    Patches {
        bug: String,
        patches: Vec<EditPatch>,
        bad: Vec<Unreadable>,
    },
    Bad(Vec<Unreadable>),
}

/// The message of a caught panic.
pub(crate) fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// The files `args` name: files as given, directories walked (all levels) for the files of the
/// format, glob patterns expanded; in order, without duplicates.
fn expand_inputs(args: &[String], format: Format) -> Result<Vec<PathBuf>, PatchSetError> {
    let wanted = |p: &Path| -> bool {
        let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
        let tbar_file = ext == "txt"
            && p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("Patch"));
        // SEARCH/REPLACE blocks are told from notes and READMEs by their content.
        let blocks =
            || std::fs::read_to_string(p).is_ok_and(|t| super::search_replace::is_blocks(&t));
        p.file_name().is_none_or(|n| n != "expected.json")
            && match format {
                Format::Auto => {
                    matches!(ext, "json" | "jsonl" | "diff" | "patch")
                        || tbar_file
                        || (matches!(ext, "txt" | "md") && blocks())
                }
                Format::Manifest => ext == "json",
                Format::Diff => matches!(ext, "diff" | "patch" | "jsonl" | "txt"),
                Format::Tbar => tbar_file,
                Format::Recoder | Format::Methods | Format::MethodDiff => {
                    matches!(ext, "json" | "jsonl")
                }
                Format::SearchReplace => blocks(),
            }
    };
    let mut out: Vec<PathBuf> = Vec::new();
    for arg in args {
        let p = Path::new(arg);
        let mut found: Vec<PathBuf> = Vec::new();
        if p.is_dir() {
            for e in walkdir::WalkDir::new(p).sort_by_file_name() {
                let e = e.map_err(|_| PatchSetError::NoMatch(arg.clone()))?;
                if e.file_type().is_file() && wanted(e.path()) {
                    found.push(e.into_path());
                }
            }
        } else if p.is_file() {
            found.push(p.to_path_buf());
        } else if let Ok(paths) = glob::glob(arg) {
            found.extend(paths.flatten().filter(|p| p.is_file()));
            found.sort();
        }
        if found.is_empty() {
            return Err(PatchSetError::NoMatch(arg.clone()));
        }
        for f in found {
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    Ok(out)
}

/// Reads one input file.
fn read_input(file: &Path, format: Format, files: &Files) -> Input {
    let shown = file.display().to_string();
    let bad = |why: ReadError| {
        Input::Bad(vec![Unreadable {
            source: shown.clone(),
            why,
        }])
    };
    let text = match std::fs::read(file) {
        Err(e) => return bad(ReadError::Io(e)),
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => return bad(ReadError::NotText(e.utf8_error())),
        },
    };
    if text.trim().is_empty() {
        return bad(ReadError::Empty);
    }
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    let json = || serde_json::from_str::<serde_json::Value>(&text);
    match (format, ext) {
        (Format::Methods, _) => llm(file, &text, ext == "jsonl", Some(Kind::Method), files),
        (Format::MethodDiff, _) => llm(file, &text, ext == "jsonl", Some(Kind::Diff), files),
        (Format::SearchReplace, _) => search_replace(file, &text, files),
        (Format::Diff, "jsonl") => jsonl(file, &text, files, false),
        (Format::Recoder, "jsonl") => jsonl(file, &text, files, true),
        (Format::Auto, "jsonl") if llm_records::lines_are_records(&text) => {
            llm(file, &text, true, None, files)
        }
        (Format::Auto, "jsonl") => jsonl(file, &text, files, looks_like_records(&text)),
        (Format::Diff, _) => one_diff(file, &text, files),
        (Format::Tbar, _) => tbar(file, &text, files),
        (Format::Recoder, _) => match json() {
            Ok(v) => records(file, v, files),
            Err(e) => bad(ReadError::Json(e)),
        },
        (Format::Manifest, _) => manifest_or_list(file, &text, files),
        (Format::Auto, "json") => match json() {
            Ok(v) if super::recoder::is_records(&v) => records(file, v, files),
            Ok(v) if llm_records::is_records(&v) => llm(file, &text, false, None, files),
            _ => manifest_or_list(file, &text, files),
        },
        (Format::Auto, _) if super::search_replace::is_blocks(&text) => {
            search_replace(file, &text, files)
        }
        (Format::Auto, _) if super::tbar::is_block(&text) => tbar(file, &text, files),
        (Format::Auto, _) => one_diff(file, &text, files),
    }
}

/// A manifest as it is, or an edit-list manifest's patches.
fn manifest_or_list(file: &Path, text: &str, files: &Files) -> Input {
    let is_list = serde_json::from_str::<serde_json::Value>(text)
        .is_ok_and(|v| super::editlist::is_edit_list(&v));
    if !is_list {
        return Input::Manifest;
    }
    match super::editlist::read(file, text, &|f| files.read(f)) {
        Ok((bug, patches, bad)) => Input::Patches { bug, patches, bad },
        Err(why) => Input::Bad(vec![Unreadable {
            source: file.display().to_string(),
            why: ReadError::EditList(why),
        }]),
    }
}

/// One file holding one unified diff.
fn one_diff(file: &Path, text: &str, files: &Files) -> Input {
    let shown = file.display().to_string();
    one_patch(
        "diff".into(),
        super::diff::parse(&shown, text, &|f| files.read(f)).map_err(ReadError::from),
        shown,
    )
}

/// LLM repairers' JSON records (whole methods, method-relative diffs): one per line when
/// `lines`, else a JSON array.
fn llm(file: &Path, text: &str, lines: bool, kind: Option<Kind>, files: &Files) -> Input {
    let shown = file.display().to_string();
    let read = llm_records::read(&shown, text, lines, kind, &|f| files.resolve(f));
    Input::Patches {
        bug: stem(file),
        patches: read.patches,
        bad: read
            .bad
            .into_iter()
            .map(|(source, why)| Unreadable {
                source,
                why: ReadError::LlmRecord(why),
            })
            .collect(),
    }
}

/// One file of SEARCH/REPLACE blocks: one patch.
fn search_replace(file: &Path, text: &str, files: &Files) -> Input {
    let shown = file.display().to_string();
    one_patch(
        "search-replace".into(),
        super::search_replace::parse(&shown, text, &|f| files.resolve(f)).map_err(ReadError::from),
        shown,
    )
}

/// One TBar patch file: a diff, or its block form.
fn tbar(file: &Path, text: &str, files: &Files) -> Input {
    let shown = file.display().to_string();
    // TBar's result directories hold a directory per bug.
    let bug = file
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "tbar".into());
    let read = if super::tbar::is_block(text) {
        super::tbar::parse_block(&shown, text, &|f| files.resolve(f)).map_err(ReadError::from)
    } else {
        super::diff::parse(&shown, text, &|f| files.read(f)).map_err(ReadError::from)
    };
    one_patch(bug, read, shown)
}

fn one_patch(bug: String, read: Result<EditPatch, ReadError>, shown: String) -> Input {
    match read {
        Ok(p) => Input::Patches {
            bug,
            patches: vec![p],
            bad: Vec::new(),
        },
        Err(why) => Input::Bad(vec![Unreadable { source: shown, why }]),
    }
}

/// Whether the first non-empty line of a JSON-lines text is a Recoder record.
fn looks_like_records(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .is_some_and(|v| super::recoder::is_records(&v))
}

/// Recoder's records: a JSON array (or one record).
fn records(file: &Path, v: serde_json::Value, files: &Files) -> Input {
    let items = match v {
        serde_json::Value::Array(a) => a,
        o => vec![o],
    };
    let shown = file.display().to_string();
    let mut bug = None;
    let (mut patches, mut bad) = (Vec::new(), Vec::new());
    for (k, item) in items.into_iter().enumerate() {
        match record(&shown, k, item, files) {
            Ok((idss, p)) => {
                bug = bug.or(idss);
                patches.push(p);
            }
            Err(why) => bad.push(Unreadable {
                source: format!("{shown}[{k}]"),
                why: ReadError::Record(why),
            }),
        }
    }
    Input::Patches {
        bug: bug.unwrap_or_else(|| stem(file)),
        patches,
        bad,
    }
}

/// Record `k` of `source`, with its bug (`idss`).
fn record(
    source: &str,
    k: usize,
    item: serde_json::Value,
    files: &Files,
) -> Result<(Option<String>, EditPatch), RecordError> {
    let r: super::recoder::Record =
        serde_path_to_error::deserialize(item).map_err(|e| RecordError::Invalid {
            field: e.path().to_string(),
            source: e.into_inner(),
        })?;
    let name = super::recoder::record_name(source, k, &r);
    let p = super::recoder::parse_record(&name, &r, &|f| files.resolve(f))?;
    Ok((r.idss.clone(), p))
}

/// A JSON-lines file: one diff per line (a JSON string, or an object with `diff` and
/// optionally `name` or `id`), or one Recoder record per line.
fn jsonl(file: &Path, text: &str, files: &Files, recoder: bool) -> Input {
    let shown = file.display().to_string();
    let (mut patches, mut bad) = (Vec::new(), Vec::new());
    let mut bug = None;
    for (k, l) in text.lines().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        let at = format!("{shown}:{}", k + 1);
        let entry = match serde_json::from_str::<serde_json::Value>(l) {
            Err(e) => Err(ReadError::Json(e)),
            Ok(v) if recoder => record(&shown, k, v, files)
                .map(|(idss, p)| {
                    bug = bug.clone().or(idss);
                    p
                })
                .map_err(ReadError::from),
            Ok(serde_json::Value::String(d)) => {
                super::diff::parse(&at, &d, &|f| files.read(f)).map_err(ReadError::from)
            }
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
                    super::diff::parse(&name, d, &|f| files.read(f)).map_err(ReadError::from)
                }
                None => Err(ReadError::NoDiff),
            },
            Ok(_) => Err(ReadError::NotAnEntry),
        };
        match entry {
            Ok(p) => patches.push(p),
            Err(why) => bad.push(Unreadable { source: at, why }),
        }
    }
    Input::Patches {
        bug: bug.unwrap_or_else(|| if recoder { stem(file) } else { "diff".into() }),
        patches,
        bad,
    }
}

/// Groups patches into sets and writes them to `inputs/<bug>-<content hash>/`.
fn write_groups(
    inputs: &Path,
    root: &Path,
    bug: &str,
    patches: Vec<EditPatch>,
    out: &mut Prepared,
) -> Result<(), PatchSetError> {
    let read = |f: &str| -> Result<String, GroupError> {
        let path = root.join(f);
        match std::fs::read_to_string(&path) {
            Ok(t) => Ok(t),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
            Err(e) => Err(GroupError::Read {
                path,
                source: Arc::new(e),
            }),
        }
    };
    let names: Vec<String> = patches.iter().map(|p| p.name.clone()).collect();
    let grouped =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| group(bug, patches, &read)));
    let (sets, failed): (Vec<PatchSet>, Vec<(String, ReadError)>) = match grouped {
        Ok((sets, failed)) => (
            sets,
            failed
                .into_iter()
                .map(|(n, why)| (n, ReadError::Group(why)))
                .collect(),
        ),
        Err(panic) => {
            let why = panic_text(&panic);
            (
                Vec::new(),
                names
                    .into_iter()
                    .map(|n| (n, ReadError::GroupPanic(why.clone())))
                    .collect(),
            )
        }
    };
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
    let hash = crate::model::fnv(
        texts.iter().flat_map(|t| t.bytes()),
        crate::model::FNV_START,
    );
    let safe = safe_name(bug);
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
        write_once(&path, text).map_err(io)?;
        out.sets.push(path);
    }
    Ok(())
}

/// Writes `text` to `path` unless the file holds it already, through a temporary file renamed into
/// place: runs that share a work dir (the shards of one run over a network file system) write the
/// same sets to the same names, and none may read another's half-written file.
pub fn write_once(path: &Path, text: &str) -> std::io::Result<()> {
    if std::fs::read(path).is_ok_and(|b| b == text.as_bytes()) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let host = hostname();
    let tmp = path.with_extension(format!("tmp-{}-{}", safe_name(&host), std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

/// This machine's name (empty when it cannot be read): with the process id it tells apart the
/// temporary files of processes on several machines sharing a directory.
fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most `buf.len()` bytes into the buffer it is given.
    if unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } != 0 {
        return String::new();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// `name` with every character other than ASCII letters, digits and `-` turned into `_`, for a
/// file or directory name.
pub fn safe_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
