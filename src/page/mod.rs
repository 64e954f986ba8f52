//! `patchval report`, a front end over records: a run (`WORK/runs/NNNN`) or a bench (`OUT/`)
//! read back and written as one self-contained HTML page (inline CSS and SVG, no script, nothing
//! fetched) and a Markdown summary. `mod.rs`: what is read and what is computed from it;
//! `html.rs`: the page and the summary; `svg.rs`: the charts.

mod html;
mod svg;

use crate::bench::Record;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
#[error("{path}: {why}")]
pub struct PageError {
    pub path: PathBuf,
    pub why: String,
}

impl PageError {
    pub fn exit_code(&self) -> crate::exit::ExitCode {
        crate::exit::ExitCode::Usage
    }
}

fn err(path: &Path, why: impl std::fmt::Display) -> PageError {
    PageError {
        path: path.to_path_buf(),
        why: why.to_string(),
    }
}

/// HTML-escapes text.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[derive(Deserialize)]
struct ResultIn {
    patches_path: String,
    #[serde(default)]
    technique: Option<String>,
    succlist: String,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    extra: serde_json::Value,
}

#[derive(Deserialize)]
struct DetailIn {
    patches_path: String,
    patch: usize,
    verdict: String,
    #[serde(default)]
    test: Option<String>,
    #[serde(default)]
    runs: Vec<RunIn>,
}

#[derive(Deserialize)]
struct RunIn {
    test: String,
    ms: f64,
    #[serde(default = "one")]
    shared: usize,
}

fn one() -> usize {
    1
}

/// One set of a run, as the page shows it.
pub struct SetView {
    pub name: String,
    /// `file:line` of the location (from the manifest), when its file can be read.
    pub place: String,
    pub technique: String,
    pub succlist: String,
    pub error: Option<String>,
    pub compile_ms: f64,
    /// Test time spent on trigger tests, on the other tests of patches that failed, and on the
    /// full-suite passes of plausible patches (a shared run counted once per class).
    pub trigger_ms: f64,
    pub other_ms: f64,
    pub full_suite_ms: f64,
    /// The plausible patches as unified diffs, by index.
    pub plausible: Vec<(usize, String)>,
}

/// A run read back.
pub struct RunView {
    pub dir: PathBuf,
    pub meta: serde_json::Value,
    pub sets: Vec<SetView>,
    /// Tests by the number of patches they rejected (`F` or `T`), most first.
    pub rejecting: Vec<(String, usize)>,
}

/// The run directory of `path`: itself when it holds `run.json`, else `path/runs/latest` (a
/// work dir).
fn run_dir(path: &Path) -> Result<PathBuf, PageError> {
    if path.join("run.json").is_file() {
        return Ok(path.to_path_buf());
    }
    let latest = path.join("runs").join("latest");
    if latest.join("run.json").is_file() {
        return Ok(latest);
    }
    Err(err(
        path,
        "neither a run directory (run.json) nor a work dir with a run (runs/latest)",
    ))
}

fn jsonl<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>, PageError> {
    let text = std::fs::read_to_string(path).map_err(|e| err(path, e))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            serde_json::from_str(l).map_err(|e| err(path, format!("line {}: {e}", n + 1)))
        })
        .collect()
}

/// Reads the run at `path` (a run directory or a work dir, for its latest run).
pub fn read_run(path: &Path) -> Result<RunView, PageError> {
    let dir = run_dir(path)?;
    let meta_path = dir.join("run.json");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&meta_path).map_err(|e| err(&meta_path, e))?)
            .map_err(|e| err(&meta_path, e))?;
    let results: Vec<ResultIn> = jsonl(&dir.join("result.jsonl"))?;
    let details: Vec<DetailIn> = jsonl(&dir.join("details.jsonl"))?;
    // The work dir is two levels up (WORK/runs/NNNN): its baseline names the trigger tests.
    let triggers: BTreeSet<String> = dir
        .parent()
        .and_then(Path::parent)
        .and_then(|w| crate::workdir::WorkDir::new(w).load().ok())
        .map(|s| {
            s.tests
                .iter()
                .filter(|t| !t.passed)
                .map(|t| t.id.to_string())
                .collect()
        })
        .unwrap_or_default();
    let mut rejected: BTreeMap<String, usize> = BTreeMap::new();
    let mut sets = Vec::new();
    for r in &results {
        let set: Option<crate::model::PatchSet> = std::fs::read_to_string(&r.patches_path)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok());
        let mut view = SetView {
            name: crate::report::set_name(&r.patches_path),
            place: set.as_ref().map_or(String::new(), |s| {
                format!(
                    "{}:{}",
                    s.filename,
                    crate::patchset::line_of(&s.context_above, s.context_above.len())
                )
            }),
            technique: r.technique.clone().unwrap_or_default(),
            succlist: r.succlist.clone(),
            error: r.error.clone(),
            compile_ms: r.extra["compile_ms"].as_f64().unwrap_or(0.0),
            trigger_ms: 0.0,
            other_ms: 0.0,
            full_suite_ms: 0.0,
            plausible: Vec::new(),
        };
        for d in details.iter().filter(|d| d.patches_path == r.patches_path) {
            if matches!(d.verdict.as_str(), "F" | "T") {
                if let Some(t) = &d.test {
                    *rejected.entry(t.clone()).or_default() += 1;
                }
            }
            for run in &d.runs {
                let ms = run.ms / run.shared.max(1) as f64;
                if triggers.contains(&run.test) {
                    view.trigger_ms += ms;
                } else if d.verdict == "s" {
                    view.full_suite_ms += ms;
                } else {
                    view.other_ms += ms;
                }
            }
            if d.verdict == "s" {
                if let Some(s) = &set {
                    view.plausible.push((d.patch, diff(s, d.patch)));
                }
            }
        }
        sets.push(view);
    }
    let mut rejecting: Vec<(String, usize)> = rejected.into_iter().collect();
    rejecting.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(RunView {
        dir,
        meta,
        sets,
        rejecting,
    })
}

/// Patch `i` of `set` as a unified diff of its file, with three lines of context.
fn diff(set: &crate::model::PatchSet, i: usize) -> String {
    let Some(patch) = set.patches.get(i) else {
        return String::new();
    };
    let before = format!(
        "{}{}{}",
        set.context_above, set.unpatched, set.context_below
    );
    let after = format!("{}{}{}", set.context_above, patch, set.context_below);
    similar::TextDiff::from_lines(&before, &after)
        .unified_diff()
        .context_radius(3)
        .header(
            &format!("a/{}", set.filename),
            &format!("b/{}", set.filename),
        )
        .to_string()
}

/// Reads a bench's record (`OUT/bench.json`).
pub fn read_bench(dir: &Path) -> Result<Record, PageError> {
    let path = dir.join("bench.json");
    let text = std::fs::read_to_string(&path).map_err(|e| err(&path, e))?;
    serde_json::from_str(&text).map_err(|e| err(&path, format!("not a bench record: {e}")))
}

/// What to report on.
pub enum Subject {
    Run(PathBuf),
    Bench(PathBuf),
}

/// Writes `report.html` and `report.md` for `subject` into `out` (default: the run's or the
/// bench's directory); returns their paths.
pub fn report(subject: &Subject, out: Option<&Path>) -> Result<(PathBuf, PathBuf), PageError> {
    let (dir, page, summary) = match subject {
        Subject::Run(path) => {
            let run = read_run(path)?;
            let (page, summary) = (html::run_page(&run), html::run_markdown(&run));
            (run.dir, page, summary)
        }
        Subject::Bench(path) => {
            let record = read_bench(path)?;
            (
                path.clone(),
                html::bench_page(&record),
                html::bench_markdown(&record),
            )
        }
    };
    let out = out.map_or(dir, Path::to_path_buf);
    std::fs::create_dir_all(&out).map_err(|e| err(&out, e))?;
    let (h, m) = (out.join("report.html"), out.join("report.md"));
    std::fs::write(&h, page).map_err(|e| err(&h, e))?;
    std::fs::write(&m, summary).map_err(|e| err(&m, e))?;
    Ok((h, m))
}
