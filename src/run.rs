//! `run`: validate patch sets with a pool of worker threads (each driving one worker process for
//! the schemata, or fresh JVMs for plain), streaming results as each set finishes.

use crate::model::Technique;
use crate::patchset;
use crate::pool::Worker;
use crate::project::baseline::spawn_worker;
use crate::project::coverage::Coverage;
use crate::report::{human_line, Reporter, SetResult};
use crate::schedule::ordered_tests;
use crate::schedule::share::Board;
use crate::validate::{self, RunContext};
use crate::workdir::WorkDir;
use anyhow::Context;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Mutex;

/// Totals of a run.
#[derive(Debug, Default)]
pub struct Summary {
    pub sets: usize,
    /// Sets that could not be validated at all (bad JSON, context mismatch, ...).
    pub unusable: usize,
    /// Patches with verdict `E`.
    pub errors: usize,
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
    } = options.clone();
    let state = wd.load()?;
    let coverage = match (technique, all_tests) {
        (Technique::Schemata, false) => Coverage::load(&wd.coverage()).unwrap_or_else(|why| {
            tracing::warn!("coverage unreadable, every set runs every test: {why}");
            None
        }),
        _ => None,
    };
    let paths = patchset::expand(args)?;
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
    };
    let mut reporter = Reporter::open(&wd.results(), &wd.details())
        .with_context(|| format!("opening {}", wd.results().display()))?;
    let queue: Mutex<VecDeque<PathBuf>> = Mutex::new(paths.iter().cloned().collect());
    let bar = indicatif::ProgressBar::new(paths.len() as u64).with_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} patch sets, ETA {eta}")
            .expect("valid template"),
    );
    let mut summary = Summary::default();
    let mut write_error = None;
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel::<SetResult>();
        for id in 0..jobs {
            let tx = tx.clone();
            let (ctx, queue, board) = (&ctx, &queue, &board);
            s.spawn(move || {
                let mut worker: Option<Result<Worker, String>> = None;
                // The plain technique's tests run in the same fresh copy of the project as the
                // schemata's worker, made once per worker and run.
                let mut copy: Option<Result<(), String>> = None;
                loop {
                    let Some(path) = queue.lock().expect("queue lock").pop_front() else {
                        break;
                    };
                    let result = match validate::load_set(ctx, &path) {
                        Err(why) => validate::unusable(&path, patchset::patch_count(&path), why),
                        Ok(set) => match technique {
                            Technique::Plain => {
                                let copied = copy.get_or_insert_with(|| {
                                    let root = &ctx.state.project.root;
                                    ctx.wd.copy_project(id, root).map(|_| ()).map_err(|e| {
                                        format!("{}: {e}", ctx.wd.worker_project(id).display())
                                    })
                                });
                                match copied {
                                    Ok(()) => crate::plain::plain(ctx, id, &path, &set),
                                    Err(e) => validate::unusable(
                                        &path,
                                        set.patches.len(),
                                        format!("cannot copy the project: {e}"),
                                    ),
                                }
                            }
                            Technique::Schemata => {
                                let w = worker.get_or_insert_with(|| spawn(ctx, id));
                                match w {
                                    Ok(w) => validate::schemata(ctx, w, id, &path, &set),
                                    Err(e) => validate::unusable(
                                        &path,
                                        set.patches.len(),
                                        format!("cannot start a worker: {e}"),
                                    ),
                                }
                            }
                        },
                    };
                    if tx.send(result).is_err() {
                        break;
                    }
                }
                // No set left: help the others with their tests until every set is done.
                if ctx.board.is_some() {
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
        for r in rx {
            if echo {
                bar.suspend(|| println!("{}", human_line(&r)));
            }
            bar.inc(1);
            if let Err(e) = reporter.write(&r) {
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
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e).with_context(|| format!("writing {}", wd.results().display()));
    }
    tracing::info!(
        "{} patch sets, results in {}",
        summary.sets,
        wd.results().display()
    );
    Ok(summary)
}

/// Starts worker `id` of the schemata.
fn spawn(ctx: &RunContext, id: usize) -> Result<Worker, String> {
    spawn_worker(ctx.wd, &ctx.state.project, &ctx.state.tools, id).map_err(|e| e.to_string())
}
