//! `run`: validate patch sets with a pool of worker threads (each driving one worker process for
//! the schemata, or fresh JVMs for plain), streaming results as each set finishes.

use crate::model::Technique;
use crate::patchset;
use crate::pool::Worker;
use crate::progress::{self, Progress};
use crate::project::baseline::spawn_worker;
use crate::project::coverage::Coverage;
use crate::records::{self, Reusable, RunRecord};
use crate::report::{human_line, Reporter, SetResult};
use crate::schedule::ordered_tests;
use crate::schedule::share::Board;
use crate::validate::{self, RunContext};
use crate::workdir::WorkDir;
use anyhow::Context;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Totals of a run.
#[derive(Debug, Default)]
pub struct Summary {
    pub sets: usize,
    /// Sets whose result an earlier run had decided (`--resume`).
    pub resumed: usize,
    /// Sets that could not be validated at all (bad JSON, context mismatch, ...).
    pub unusable: usize,
    /// Patches with verdict `E`.
    pub errors: usize,
    /// Sets left unvalidated because a SIGINT stopped the run ([`crate::stop`]); `None` when
    /// the run was not stopped.
    pub not_validated: Option<usize>,
    pub results: Vec<SetResult>,
}

impl Summary {
    pub fn all_validated(&self) -> bool {
        self.unusable == 0 && self.errors == 0
    }
}

/// How `run` validates.
#[derive(Debug, Clone)]
pub struct Options {
    /// Worker processes (threads, for plain).
    pub jobs: usize,
    pub technique: Technique,
    /// Deduplicate test-equivalent patches through the state-transition tree.
    pub dedup: bool,
    /// Spread a set's remaining tests over idle workers in chunks of at least this baseline time
    /// (schedule::share); None: never.
    pub split_ms: Option<f64>,
    /// Run every test for every set (no selection by coverage, schedule::select).
    pub all_tests: bool,
    /// Print each set's human line on stdout (the fuzzer keeps stdout for its own report).
    pub echo: bool,
    /// Reuse what an earlier run decided for a set with the same key (`records`).
    pub resume: bool,
    /// Run every selected test for every patch, recording each run (`schedule::Mode::matrix`).
    pub matrix: bool,
    /// What the arguments are (`patchset::inputs`).
    pub format: patchset::inputs::Format,
}

/// Validates every patch set named by `args`.
pub fn run(wd: &WorkDir, args: &[String], options: &Options) -> anyhow::Result<Summary> {
    let Options {
        jobs,
        technique,
        dedup,
        split_ms,
        all_tests,
        echo,
        resume,
        matrix,
        format,
    } = options.clone();
    let state = wd.load()?;
    let coverage = match (technique, all_tests) {
        (Technique::Schemata, false) => Coverage::load(&wd.coverage()).unwrap_or_else(|why| {
            tracing::warn!("coverage unreadable, every set runs every test: {why}");
            None
        }),
        _ => None,
    };
    let prepared = patchset::inputs::prepare(
        &wd.inputs(),
        &state.project.root,
        &state.project.source_dirs,
        args,
        format,
    )?;
    let paths = prepared.sets;
    let tests = ordered_tests(&state);
    let agent_jar =
        crate::agent::extract(&wd.runtime()).with_context(|| wd.runtime().display().to_string())?;
    // Schemata: a thread per job even when there are fewer sets, since a thread without a set
    // of its own helps with the others' tests (schedule::share). Plain validates each patch in
    // one JVM of its own, the reference, and is not split.
    let jobs = match technique {
        Technique::Schemata => jobs.max(1),
        Technique::Plain => jobs.min(paths.len()).max(1),
    };
    let board = Board::new(jobs, split_ms.unwrap_or(0.0));
    let ctx = RunContext {
        wd,
        state: &state,
        tests: &tests,
        agent_jar,
        dedup,
        board: (technique == Technique::Schemata && jobs > 1 && split_ms.is_some())
            .then_some(&board),
        coverage: coverage.as_ref(),
        matrix,
    };
    let run_key = records::run_key(wd, technique, dedup, all_tests, matrix);
    let mut record = RunRecord::create(
        wd,
        serde_json::json!({
            "argv": std::env::args().collect::<Vec<_>>(),
            "version": env!("CARGO_PKG_VERSION"),
            "technique": format!("{technique:?}").to_lowercase(),
            "dedup": dedup,
            "all_tests": all_tests,
            "matrix": matrix,
            "jobs": jobs,
            "split_ms": split_ms,
            "resume": resume,
            "java_home": state.tools.java_home,
            "patch_sets": paths.len(),
            "unreadable_patches": prepared.unreadable.len(),
        }),
    )
    .with_context(|| format!("creating a run directory in {}", wd.runs().display()))?;
    let _active = crate::stop::watch(&record.dir);
    let reusable = if resume {
        records::earlier(wd, &record.id)
    } else {
        Default::default()
    };
    let mut reporter = Reporter::open(
        &record.id,
        &[
            (&record.results(), &record.details()),
            (&wd.results(), &wd.details()),
        ],
    )
    .with_context(|| format!("opening {}", record.results().display()))?;
    let queue: Mutex<VecDeque<PathBuf>> = Mutex::new(paths.iter().cloned().collect());
    let progress = Progress::new(paths.len(), jobs);
    let mut summary = Summary::default();
    let mut write_error = None;
    // Patches that could not be read into a set: an `E` each, with why.
    for bad in &prepared.unreadable {
        let r = validate::unusable(Path::new(&bad.source), 1, bad.why.clone());
        if let Err(e) = reporter.write(&r, None) {
            write_error.get_or_insert(e);
        }
        if echo {
            progress.println(&human_line(&r));
        }
        summary.unusable += 1;
        summary.errors += 1;
        summary.results.push(r);
    }
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel::<Decided>();
        for id in 0..jobs {
            let tx = tx.clone();
            let (ctx, queue, board, reusable) = (&ctx, &queue, &board, &reusable);
            s.spawn(move || {
                progress::enter(id);
                let mut worker: Option<Result<Worker, String>> = None;
                // The plain technique's tests run in the same fresh copy of the project as the
                // schemata's worker, made once per worker and run.
                let mut copy: Option<Result<(), String>> = None;
                loop {
                    let Some(path) = queue.lock().expect("queue lock").pop_front() else {
                        break;
                    };
                    let key = records::set_key(run_key, &path);
                    if let Some(earlier) = key.as_ref().and_then(|k| reusable.get(k)) {
                        if tx.send(Decided::Reused(path, earlier.clone())).is_err() {
                            break;
                        }
                        continue;
                    }
                    // A panic in validating one set (a bug of ours) costs that set, not the run.
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        validate_set(ctx, technique, id, &path, &mut worker, &mut copy)
                    }))
                    .unwrap_or_else(|panic| {
                        // The worker may be mid-request: the next set starts a fresh one.
                        worker = None;
                        let why = panic
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_default();
                        let why = format!("internal error (a bug of patchval's): {why}");
                        tracing::error!("{}: {why}", path.display());
                        validate::unusable(&path, patchset::patch_count(&path), why)
                    });
                    if tx.send(Decided::Now(Box::new(result), key)).is_err() {
                        break;
                    }
                }
                // No set left: help the others with their tests until every set is done.
                if ctx.board.is_some() {
                    progress::set_started("(no set left)", 0);
                    progress::phase("helping with the other sets' tests");
                    board.serve(|job| {
                        let w = worker.get_or_insert_with(|| spawn(ctx, id));
                        match w {
                            Ok(w) => Ok(job.run(w)),
                            Err(e) => Err(format!("cannot start a worker: {e}")),
                        }
                    });
                }
            });
        }
        drop(tx);
        loop {
            if summary.not_validated.is_none() && crate::stop::requested() {
                // No set is taken from now on; those in flight finish and are written.
                let left = queue.lock().expect("queue lock").drain(..).count();
                summary.not_validated = Some(left);
            }
            let decided = match rx.recv_timeout(std::time::Duration::from_millis(200)) {
                Ok(d) => d,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    progress.refresh();
                    continue;
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            };
            let (r, written) = match decided {
                Decided::Now(r, key) => {
                    let r = *r;
                    let written = reporter.write(&r, key.as_deref());
                    if echo {
                        progress.println(&human_line(&r));
                    }
                    (r, written)
                }
                Decided::Reused(path, earlier) => {
                    let r = earlier.to_set_result(&path);
                    let written = reporter.write_reused(&path, &earlier);
                    if echo {
                        progress.println(&reused_line(&r, &earlier.run));
                    }
                    summary.resumed += 1;
                    (r, written)
                }
            };
            progress.set_done();
            if let Err(e) = written {
                write_error.get_or_insert(e);
            }
            summary.sets += 1;
            summary.unusable += usize::from(r.error.is_some());
            summary.errors += r
                .outcomes
                .iter()
                .filter(|o| o.verdict == crate::model::Verdict::Error)
                .count();
            summary.results.push(r);
        }
    });
    progress.finish();
    if let Some(e) = write_error {
        return Err(e).with_context(|| format!("writing {}", record.results().display()));
    }
    let mut counts = std::collections::BTreeMap::<char, usize>::new();
    for r in &summary.results {
        for (v, n) in &r.extra.counts {
            *counts.entry(*v).or_default() += n;
        }
    }
    record
        .finish(serde_json::json!({
            "sets": summary.sets,
            "resumed": summary.resumed,
            "unusable": summary.unusable,
            "verdicts": counts,
            "interrupted": summary.not_validated.map(|left| serde_json::json!({
                "signal": "SIGINT",
                "not_validated": left,
            })),
        }))
        .with_context(|| format!("writing {}", record.dir.join("run.json").display()))?;
    let counts: Vec<String> = counts.iter().map(|(v, n)| format!("{n} {v}")).collect();
    if let Some(left) = summary.not_validated {
        tracing::warn!(
            "stopped by SIGINT: {left} patch set(s) not validated; `patchval run --resume` with \
             the same arguments validates them"
        );
    }
    tracing::info!(
        "{} patch sets ({} resumed from earlier runs): {}; results in {}",
        summary.sets,
        summary.resumed,
        counts.join(", "),
        record.results().display()
    );
    Ok(summary)
}

/// Validates the set file `path` on worker thread `id`: its worker process (schemata) or its
/// copy of the project (plain) is made the first time it is needed.
fn validate_set(
    ctx: &RunContext,
    technique: Technique,
    id: usize,
    path: &Path,
    worker: &mut Option<Result<Worker, String>>,
    copy: &mut Option<Result<(), String>>,
) -> SetResult {
    let (set, context) = match validate::load_set(ctx, path) {
        Ok(loaded) => loaded,
        Err(why) => return validate::unusable(path, patchset::patch_count(path), why),
    };
    let mut result = match technique {
        Technique::Plain => {
            let copied = copy.get_or_insert_with(|| {
                let root = &ctx.state.project.root;
                ctx.wd
                    .copy_project(id, root)
                    .map(|_| ())
                    .map_err(|e| format!("{}: {e}", ctx.wd.worker_project(id).display()))
            });
            match copied {
                Ok(()) => crate::plain::plain(ctx, id, path, &set),
                Err(e) => validate::unusable(
                    path,
                    set.patches.len(),
                    format!("cannot copy the project: {e}"),
                ),
            }
        }
        Technique::Schemata => match worker.get_or_insert_with(|| spawn(ctx, id)) {
            Ok(w) => validate::schemata(ctx, w, id, path, &set),
            Err(e) => validate::unusable(
                path,
                set.patches.len(),
                format!("cannot start a worker: {e}"),
            ),
        },
    };
    result.extra.context = context;
    result
}

/// A set's result, decided by this run (with the set's key) or reused from an earlier one.
enum Decided {
    Now(Box<SetResult>, Option<String>),
    Reused(PathBuf, Reusable),
}

/// The human line of a set whose result an earlier run decided.
fn reused_line(r: &SetResult, run: &str) -> String {
    let name = validate::set_name(std::path::Path::new(&r.patches_path));
    format!(
        "{name}: {} ({} patches, {} plausible, resumed from run {run})",
        crate::model::succlist(&r.verdicts()),
        r.outcomes.len(),
        r.extra.counts.get(&'s').copied().unwrap_or(0)
    )
}

/// Starts worker `id` of the schemata.
fn spawn(ctx: &RunContext, id: usize) -> Result<Worker, String> {
    let t = std::time::Instant::now();
    let w =
        spawn_worker(ctx.wd, &ctx.state.project, &ctx.state.tools, id).map_err(|e| e.to_string());
    tracing::debug!("worker {id} started in {:.2} s", t.elapsed().as_secs_f64());
    w
}
