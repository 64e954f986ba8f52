//! Per-run records, written here and nowhere else: every run gets `WORK/runs/NNNN/` (`run.json`,
//! `result.jsonl`, `details.jsonl`, each set's lines also appended to the work dir's own) and
//! `WORK/runs/latest` names the newest; each set's lines carry a key (patchval's version,
//! technique, work-dir state, patch-set content) by which `run --resume` reuses what an earlier
//! run decided.

use crate::model::{fnv, Extra, Outcome, SetResult, Technique, FNV_START};
use crate::workdir::WorkDir;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

fn unix_seconds() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// What a set's result depends on besides the set itself: patchval's version, how it validates,
/// and the work dir's state (`state.json`: project, baseline, timeouts; `coverage.json`).
pub fn run_key(
    wd: &WorkDir,
    technique: Technique,
    dedup: bool,
    all_tests: bool,
    matrix: bool,
    confirm_plausible: bool,
) -> u64 {
    // (Confirmation is written only when asked, so keys without it stay what they were.)
    let confirm = if confirm_plausible {
        " confirm_plausible"
    } else {
        ""
    };
    let flags = format!(
        "{} {:?} dedup={dedup} all_tests={all_tests} matrix={matrix}{confirm}\n",
        env!("CARGO_PKG_VERSION"),
        technique
    );
    let mut h = fnv(flags.bytes(), FNV_START);
    for file in [wd.state(), wd.coverage()] {
        let bytes = std::fs::read(&file).unwrap_or_default();
        h = fnv((bytes.len() as u64).to_le_bytes(), h);
        h = fnv(bytes, h);
    }
    h
}

/// The key of one set: the run key and the patch-set file's content (None when unreadable).
pub fn set_key(run_key: u64, set_file: &Path) -> Option<String> {
    let bytes = std::fs::read(set_file).ok()?;
    Some(format!("{:016x}", fnv(bytes, run_key)))
}

/// One run's directory.
pub struct RunRecord {
    pub id: String,
    pub dir: PathBuf,
    started: Instant,
    meta: Value,
}

impl RunRecord {
    /// Makes the next run's directory (numbered after the highest so far), writes `run.json`
    /// with `meta` and the start time, and points `runs/latest` at it.
    pub fn create(wd: &WorkDir, mut meta: Value) -> std::io::Result<RunRecord> {
        let runs = wd.runs();
        std::fs::create_dir_all(&runs)?;
        let mut next = std::fs::read_dir(&runs)?
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .max()
            .unwrap_or(0)
            + 1;
        let (id, dir) = loop {
            let id = format!("{next:04}");
            let dir = runs.join(&id);
            match std::fs::create_dir(&dir) {
                Ok(()) => break (id, dir),
                // Another run took this number at the same moment.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => next += 1,
                Err(e) => return Err(e),
            }
        };
        meta["id"] = json!(id);
        meta["started_unix"] = json!(unix_seconds());
        let record = RunRecord {
            id,
            dir,
            started: Instant::now(),
            meta,
        };
        record.write_meta()?;
        let link = runs.join(format!(".latest.{}", std::process::id()));
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&record.id, &link)?;
        std::fs::rename(&link, runs.join("latest"))?;
        Ok(record)
    }

    pub fn results(&self) -> PathBuf {
        self.dir.join("result.jsonl")
    }

    pub fn details(&self) -> PathBuf {
        self.dir.join("details.jsonl")
    }

    fn write_meta(&self) -> std::io::Result<()> {
        let path = self.dir.join("run.json");
        let tmp = self.dir.join("run.json.tmp");
        std::fs::write(&tmp, serde_json::to_string_pretty(&self.meta)?)?;
        std::fs::rename(tmp, path)
    }

    /// Adds `value` under `key` to `run.json` now.
    pub fn note(&mut self, key: &str, value: Value) -> std::io::Result<()> {
        self.meta[key] = value;
        self.write_meta()
    }

    /// Completes `run.json`: end time, wall time and the run's totals.
    pub fn finish(&mut self, totals: Value) -> std::io::Result<()> {
        self.meta["ended_unix"] = json!(unix_seconds());
        self.meta["wall_seconds"] = json!(self.started.elapsed().as_secs_f64());
        self.meta["totals"] = totals;
        self.write_meta()
    }
}

/// Writes results as they come, to the run's own files and appended to the work dir's
/// `result.jsonl` and `details.jsonl` (every line names its run).
pub struct Reporter {
    run: String,
    /// (results, details) pairs: the run's, then the work dir's.
    files: Vec<(std::fs::File, std::fs::File)>,
}

impl Reporter {
    /// `pairs`: (result file, details file) to append to.
    pub fn open(run: &str, pairs: &[(&Path, &Path)]) -> std::io::Result<Reporter> {
        let open = |p: &Path| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
        };
        let mut files = Vec::new();
        for (r, d) in pairs {
            files.push((open(r)?, open(d)?));
        }
        Ok(Reporter {
            run: run.to_string(),
            files,
        })
    }

    /// Writes and flushes one set's lines: its detail lines first, then its result line, so a
    /// result line always comes after the whole set's details (what `--resume` relies on).
    pub fn write(&mut self, r: &SetResult, key: Option<&str>) -> std::io::Result<()> {
        let details = crate::report::detail_lines(r)?;
        let line = crate::report::result_line(r, &self.run, key)?;
        self.append(&details, &line)
    }

    /// Writes a set's lines reused from an earlier run for the set file `path` (same key), marked
    /// with that run (`resumed_from`).
    pub fn write_reused(&mut self, path: &Path, reused: &Reusable) -> std::io::Result<()> {
        let path = path.display().to_string();
        let mut details = Vec::new();
        for d in &reused.details {
            let mut d = d.clone();
            d["patches_path"] = path.clone().into();
            details.push(serde_json::to_string(&d)?);
        }
        let mut line = reused.line.clone();
        line["patches_path"] = path.into();
        line["run"] = self.run.clone().into();
        line["resumed_from"] = reused.run.clone().into();
        self.append(&details, &serde_json::to_string(&line)?)
    }

    fn append(&mut self, details: &[String], line: &str) -> std::io::Result<()> {
        for (results, detail_file) in &mut self.files {
            for d in details {
                writeln!(detail_file, "{d}")?;
            }
            detail_file.flush()?;
            writeln!(results, "{line}")?;
            results.flush()?;
        }
        Ok(())
    }
}

/// A set's lines from an earlier run, reusable for a set with the same key.
#[derive(Debug, Clone)]
pub struct Reusable {
    pub run: String,
    pub line: Value,
    pub details: Vec<Value>,
}

impl Reusable {
    /// The result as the run reports it, for set file `path` (the path may differ from the
    /// earlier run's: the key is the content).
    pub fn to_set_result(&self, path: &Path) -> SetResult {
        let outcomes: Vec<Outcome> = self
            .details
            .iter()
            .filter_map(|d| serde_json::from_value(d.clone()).ok())
            .collect();
        let mut r = SetResult {
            patches_path: path.display().to_string(),
            technique: self.line["technique"].as_str().map(str::to_string),
            outcomes,
            names: self
                .details
                .iter()
                .filter_map(|d| d["name"].as_str().map(str::to_string))
                .collect(),
            error: None,
            extra: Extra::default(),
        };
        r.finish_counts();
        r
    }
}

/// What earlier runs decided, by set key: complete sets only (a result line, which is written
/// after the set's detail lines, and one detail line per patch), without an error or an `E`
/// verdict (those are decided again); the latest run wins.
pub fn earlier(wd: &WorkDir, except: &str) -> HashMap<String, Reusable> {
    let mut out = HashMap::new();
    let Ok(entries) = std::fs::read_dir(wd.runs()) else {
        return out;
    };
    let mut ids: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().to_str().map(str::to_string))
        .filter(|n| n.parse::<u32>().is_ok() && n != except)
        .collect();
    ids.sort();
    for id in ids {
        let dir = wd.runs().join(&id);
        let lines = read_lines(&dir.join("result.jsonl"));
        if lines.is_empty() {
            continue;
        }
        let mut details: HashMap<String, Vec<Value>> = HashMap::new();
        for d in read_lines(&dir.join("details.jsonl")) {
            if let Some(p) = d["patches_path"].as_str() {
                details.entry(p.to_string()).or_default().push(d);
            }
        }
        for line in lines {
            let (Some(key), Some(path), Some(succ)) = (
                line["key"].as_str(),
                line["patches_path"].as_str(),
                line["succlist"].as_str(),
            ) else {
                continue;
            };
            if !line["error"].is_null() || succ.contains('E') {
                continue;
            }
            let mut d = details.get(path).cloned().unwrap_or_default();
            d.sort_by_key(|v| v["patch"].as_u64());
            let patches: Vec<u64> = d.iter().filter_map(|v| v["patch"].as_u64()).collect();
            if patches != (0..succ.len() as u64).collect::<Vec<_>>() {
                continue;
            }
            let key = key.to_string();
            out.insert(
                key,
                Reusable {
                    run: id.clone(),
                    line,
                    details: d,
                },
            );
        }
    }
    out
}

/// The JSON lines of a file; a line that does not parse (the last one, when a run was killed
/// while writing it) is skipped.
fn read_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}
