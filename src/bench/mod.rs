//! `patchval bench`, a front end over many bugs: for each bug of a list (`bugs.rs`), `init` when
//! it has no initialised work dir, `locate` and `generate`, then the techniques asked for side by
//! side on the same patches (`measure.rs`); each row is written as soon as it is measured to
//! `OUT/bench.json` and `OUT/bench.csv`, so a bench run again goes on where it stopped.

pub mod bugs;
pub mod external;
pub mod measure;

use crate::generate::GenerateArgs;
use crate::locate::Formula;
use crate::workdir::WorkDir;
use bugs::{Bug, Source};
use external::External;
use measure::Row;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What to bench.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Techniques by name ([`measure::TECHNIQUES`]), plain first when asked for.
    pub techniques: Vec<String>,
    pub jobs: usize,
    /// `generate`'s budgets and `locate`'s formula.
    pub top: usize,
    pub per_location: usize,
    pub max_patches: usize,
    pub formula: Formula,
    /// `generate --order` and `--max-pairs` (records from before them read as order 1).
    #[serde(default = "order_one")]
    pub order: usize,
    #[serde(default)]
    pub max_pairs: usize,
    /// External validators (`--external NAME=COMMAND`), measured after the built-in techniques.
    #[serde(default)]
    pub external: Vec<External>,
}

fn order_one() -> usize {
    1
}

/// The record `OUT/bench.json` holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Record {
    pub rows: Vec<Row>,
    /// Bugs that could not be benched, and why (the others go on).
    pub failed: Vec<(String, String)>,
    /// Per bug, the configuration its sets were generated with (sets are made again, and the
    /// bug's rows dropped, when it changes).
    pub generated: Vec<(String, Config)>,
    /// A SIGINT stopped this run before every row was measured (a run again goes on).
    #[serde(skip)]
    pub interrupted: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Bugs(#[from] bugs::BugsError),
    #[error("{path}: {why}")]
    Out { path: PathBuf, why: String },
    #[error("technique `{0}` is not one of plain, no-dedup, default, nor an --external name")]
    Technique(String),
}

impl BenchError {
    pub fn exit_code(&self) -> crate::exit::ExitCode {
        use crate::exit::ExitCode;
        match self {
            BenchError::Bugs(_) | BenchError::Technique(_) => ExitCode::Usage,
            BenchError::Out { .. } => ExitCode::Environment,
        }
    }
}

/// Why one bug could not be benched; recorded in [`Record::failed`], and the other bugs go on.
#[derive(Debug, thiserror::Error)]
pub enum BugError {
    #[error("{0}: not an initialised work dir")]
    NotInitialised(PathBuf),
    #[error("cannot find patchval's own executable")]
    NoExecutable,
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("init: {0}")]
    Spawn(std::io::Error),
    #[error("init failed ({status}; {}): {last}", log.display())]
    Init {
        status: std::process::ExitStatus,
        log: PathBuf,
        last: String,
    },
    #[error("generate: {0}")]
    Generate(#[from] crate::generate::GenerateError),
    #[error("no patch could be generated (see generate's skipped locations)")]
    NoPatches,
    #[error(transparent)]
    External(#[from] external::ExternalError),
    #[error("{technique}: {source}")]
    Measure {
        technique: String,
        source: crate::core::CoreError,
    },
    #[error("validating disagreements again with plain: {0}")]
    PlainAgain(crate::core::CoreError),
    #[error(transparent)]
    Record(#[from] BenchError),
}

fn io_at(path: &Path) -> impl Fn(std::io::Error) -> BugError + '_ {
    move |source| BugError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn out_err(path: &Path) -> impl Fn(String) -> BenchError + '_ {
    move |why| BenchError::Out {
        path: path.to_path_buf(),
        why,
    }
}

/// Benches every bug of `list` into `out`; the record as it stands at the end.
pub fn bench(list: &Path, out: &Path, config: &Config) -> Result<Record, BenchError> {
    let external = |t: &str| config.external.iter().any(|e| e.name == t);
    if let Some(t) = config
        .techniques
        .iter()
        .find(|t| !measure::TECHNIQUES.contains(&t.as_str()) && !external(t))
    {
        return Err(BenchError::Technique(t.clone()));
    }
    let bugs = bugs::read(list)?;
    std::fs::create_dir_all(out).map_err(|e| out_err(out)(e.to_string()))?;
    let json = out.join("bench.json");
    let mut record: Record = match std::fs::read(&json) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map_err(|e| out_err(&json)(format!("not a bench record ({e}); move it away")))?,
        Err(_) => Record::default(),
    };
    record.failed.clear();
    let mut techniques = config.techniques.clone();
    for e in &config.external {
        if !techniques.contains(&e.name) {
            techniques.push(e.name.clone());
        }
    }
    techniques.sort_by_key(|t| (t != "plain", external(t)));
    for bug in &bugs {
        if record.interrupted {
            break;
        }
        if let Err(why) = one_bug(bug, out, config, &techniques, &mut record) {
            tracing::warn!("bench: {}: {why}", bug.name);
            record.failed.push((bug.name.clone(), why.to_string()));
        }
        save(out, &record)?;
    }
    Ok(record)
}

/// Init (when needed), generation (when the sets are not there for this configuration) and the
/// techniques not measured yet, for one bug; an error says why the bug could not go on.
fn one_bug(
    bug: &Bug,
    out: &Path,
    config: &Config,
    techniques: &[String],
    record: &mut Record,
) -> Result<(), BugError> {
    let dir = out.join(&bug.name);
    let work = match &bug.source {
        Source::WorkDir(w) => w.clone(),
        Source::Init { .. } => dir.join("work"),
    };
    if !work.join("state.json").is_file() {
        let Source::Init { kind, path } = &bug.source else {
            return Err(BugError::NotInitialised(work.clone()));
        };
        init(kind, path, &work, &dir.join("init.log"))?;
    }
    let wd = WorkDir::new(&work);
    let sets_dir = dir.join("sets");
    let same = record
        .generated
        .iter()
        .any(|(b, c)| b == &bug.name && generation(c) == generation(config));
    if !same || !sets_dir.is_dir() {
        record.rows.retain(|r| r.bug != bug.name);
        record.generated.retain(|(b, _)| b != &bug.name);
        let args = GenerateArgs {
            top: config.top,
            max_patches: config.max_patches,
            per_location: config.per_location,
            locations: None,
            formula: config.formula,
            out: sets_dir.clone(),
            order: config.order,
            max_pairs: config.max_pairs,
        };
        let g = crate::generate::generate(&wd, &args)?;
        tracing::info!(
            "bench: {}: {} patches in {} sets",
            bug.name,
            g.sets.iter().map(|s| s.patches).sum::<usize>(),
            g.sets.len()
        );
        record.generated.push((bug.name.clone(), config.clone()));
    }
    let mut sets: Vec<PathBuf> = std::fs::read_dir(&sets_dir)
        .map_err(io_at(&sets_dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    sets.sort();
    if sets.is_empty() {
        return Err(BugError::NoPatches);
    }
    for t in techniques {
        let done = |r: &Row| r.bug == bug.name && &r.technique == t && r.jobs == config.jobs;
        if record.rows.iter().any(done) {
            continue;
        }
        tracing::info!("bench: {}: {t}", bug.name);
        let measured = match config.external.iter().find(|e| &e.name == t) {
            Some(e) => {
                let log = dir.join(format!("{t}.log"));
                external::measure(&wd, &bug.name, e, config.jobs, &sets, &log)?
            }
            None => measure::measure(&wd, &bug.name, t, config.jobs, &sets).map_err(|source| {
                BugError::Measure {
                    technique: t.clone(),
                    source,
                }
            })?,
        };
        let Some(mut row) = measured else {
            record.interrupted = true;
            return Ok(());
        };
        if t != "plain" {
            let plain = record
                .rows
                .iter()
                .find(|r| r.bug == bug.name && r.technique == "plain" && r.jobs == config.jobs);
            if let Some(plain) = plain {
                let differing = row.compare(plain);
                plain_again(&wd, &sets_dir, &mut row, &differing, config.jobs)?;
            }
        }
        record.rows.push(row);
        save(out, record)?;
    }
    Ok(())
}

/// Each patch whose letter differs from plain's validated again by plain, `PLAIN_AGAIN` times:
/// where plain does not repeat its verdict, the disagreement is plain's instability, not counted
/// (`rules::instability`). Patches of sets not in `sets_dir` (pairs grouped below the work dir)
/// stay counted.
fn plain_again(
    wd: &WorkDir,
    sets_dir: &Path,
    row: &mut Row,
    differing: &[(String, usize, char, char)],
    jobs: usize,
) -> Result<(), BugError> {
    use crate::core::recheck::{judge, plain_again, PLAIN_AGAIN};
    use crate::model::{Outcome, Phase, Verdict};
    let mut by_set: std::collections::BTreeMap<&str, Vec<(usize, char, char)>> = Default::default();
    for (set, patch, mine, theirs) in differing {
        by_set
            .entry(set)
            .or_default()
            .push((*patch, *mine, *theirs));
    }
    for (name, patches) in by_set {
        let path = sets_dir.join(name);
        let Ok(set) = crate::patchset::load(&path) else {
            continue;
        };
        let indices: Vec<usize> = patches.iter().map(|p| p.0).collect();
        let again =
            plain_again(wd, &set, &indices, PLAIN_AGAIN, jobs).map_err(BugError::PlainAgain)?;
        for ((patch, mine, theirs), again) in patches.into_iter().zip(again) {
            let (Some(mine), Some(theirs)) =
                (Verdict::from_letter(mine), Verdict::from_letter(theirs))
            else {
                continue;
            };
            let judged = judge(mine, &Outcome::new(theirs, Phase::Plain), &again);
            if !judged.is_real() {
                row.judged(name, patch, &judged.describe());
            }
        }
    }
    Ok(())
}

/// What decides the generated sets (not the techniques or the workers).
fn generation(c: &Config) -> (usize, usize, usize, Formula, usize, usize) {
    (
        c.top,
        c.per_location,
        c.max_patches,
        c.formula,
        c.order,
        c.max_pairs,
    )
}

/// `patchval init --KIND PATH -w WORK`, its output in `log`.
fn init(kind: &str, path: &Path, work: &Path, log: &Path) -> Result<(), BugError> {
    let exe = crate::pool::spawn::self_exe().ok_or(BugError::NoExecutable)?;
    std::fs::create_dir_all(log.parent().unwrap_or(Path::new("."))).map_err(io_at(log))?;
    let file = std::fs::File::create(log).map_err(io_at(log))?;
    let err = file.try_clone().map_err(io_at(log))?;
    tracing::info!("bench: init --{kind} {}", path.display());
    let status = std::process::Command::new(exe)
        .arg("init")
        .arg(format!("--{kind}"))
        .arg(path)
        .arg("--work-dir")
        .arg(work)
        .stdout(file)
        .stderr(err)
        .status()
        .map_err(BugError::Spawn)?;
    if status.success() {
        Ok(())
    } else {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let last = text
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .to_string();
        Err(BugError::Init {
            status,
            log: log.to_path_buf(),
            last,
        })
    }
}

/// Writes `bench.json` and `bench.csv` (each through a temporary file renamed into place).
fn save(out: &Path, record: &Record) -> Result<(), BenchError> {
    let json = out.join("bench.json");
    let text = serde_json::to_string_pretty(record).expect("a bench record serialises");
    write(&json, text.as_bytes())?;
    let csv = out.join("bench.csv");
    write(
        &csv,
        &csv_of(record).map_err(|e| out_err(&csv)(e.to_string()))?,
    )
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), BenchError> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| out_err(path)(e.to_string()))
}

/// Plain's wall over this row's, for the same bug and workers.
pub fn speedup(record: &Record, row: &Row) -> Option<f64> {
    let plain = record
        .rows
        .iter()
        .find(|r| r.bug == row.bug && r.technique == "plain" && r.jobs == row.jobs)?;
    (row.wall_seconds > 0.0).then(|| plain.wall_seconds / row.wall_seconds)
}

const COLUMNS: [&str; 19] = [
    "bug",
    "technique",
    "jobs",
    "sets",
    "patches",
    "plausible",
    "compile_errors",
    "test_failures",
    "timeouts",
    "errors",
    "before_first_plausible",
    "first_plausible_seconds",
    "test_executions",
    "wall_seconds",
    "core_seconds",
    "core_seconds_per_patch",
    "patches_per_hour",
    "speedup_over_plain",
    "disagreements_with_plain",
];

fn csv_of(record: &Record) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(COLUMNS)?;
    for r in &record.rows {
        let n = |c: char| r.counts.get(&c).copied().unwrap_or(0).to_string();
        let opt = |v: Option<String>| v.unwrap_or_default();
        w.write_record([
            r.bug.clone(),
            r.technique.clone(),
            r.jobs.to_string(),
            r.sets.to_string(),
            r.patches.to_string(),
            n('s'),
            n('C'),
            n('F'),
            n('T'),
            n('E'),
            opt(r.before_first_plausible.map(|v| v.to_string())),
            opt(r.first_plausible_seconds.map(|v| format!("{v:.2}"))),
            r.test_executions.to_string(),
            format!("{:.2}", r.wall_seconds),
            format!("{:.2}", r.core_seconds),
            format!("{:.3}", r.core_seconds_per_patch()),
            format!("{:.0}", r.patches_per_hour()),
            opt(speedup(record, r).map(|v| format!("{v:.2}"))),
            opt(r.disagreements.map(|v| v.to_string())),
        ])?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

/// The record as a Markdown table for people (stdout).
pub fn table(record: &Record) -> String {
    let mut out = String::from(
        "| bug | technique | patches | s | C | before 1st s | 1st s at | test runs | wall | core s/patch | patches/h | speed-up | disagree |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in &record.rows {
        let n = |c: char| r.counts.get(&c).copied().unwrap_or(0);
        out += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.1} s | {:.3} | {:.0} | {} | {} |\n",
            r.bug,
            r.technique,
            r.patches,
            n('s'),
            n('C'),
            r.before_first_plausible
                .map_or("–".into(), |v| v.to_string()),
            r.first_plausible_seconds
                .map_or("–".into(), |v| format!("{v:.1} s")),
            r.test_executions,
            r.wall_seconds,
            r.core_seconds_per_patch(),
            r.patches_per_hour(),
            speedup(record, r).map_or("–".into(), |v| format!("{v:.1}x")),
            r.disagreements.map_or("–".into(), |v| v.to_string()),
        );
    }
    for (bug, why) in &record.failed {
        out += &format!("\n{bug}: not benched: {why}\n");
    }
    out
}
