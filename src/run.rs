//! `run`: validate patch sets with a pool of worker threads (each driving one worker process for
//! the schemata, or fresh JVMs for plain), streaming results as each set finishes.

use crate::cli::Technique;
use crate::patchset;
use crate::pool::Worker;
use crate::project::baseline::worker_config;
use crate::report::{human_line, Reporter, SetResult};
use crate::schedule::ordered_tests;
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

/// Validates every patch set named by `args`.
pub fn run(
    wd: &WorkDir,
    args: &[String],
    jobs: usize,
    technique: Technique,
    dedup: bool,
) -> anyhow::Result<Summary> {
    run_with(wd, args, jobs, technique, dedup, true)
}

/// `run`, printing each set's human line on stdout only when `echo` (the fuzzer keeps stdout
/// for its own report).
pub fn run_with(
    wd: &WorkDir,
    args: &[String],
    jobs: usize,
    technique: Technique,
    dedup: bool,
    echo: bool,
) -> anyhow::Result<Summary> {
    let state = wd.load()?;
    let paths = patchset::expand(args)?;
    let tests = ordered_tests(&state);
    let agent_jar =
        crate::agent::extract(&wd.runtime()).with_context(|| wd.runtime().display().to_string())?;
    let ctx = RunContext {
        wd,
        state: &state,
        tests: &tests,
        agent_jar,
        dedup,
    };
    let mut reporter = Reporter::open(&wd.results(), &wd.details())
        .with_context(|| format!("opening {}", wd.results().display()))?;
    let jobs = jobs.min(paths.len()).max(1);
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
            let (ctx, queue) = (&ctx, &queue);
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
                                let w = worker.get_or_insert_with(|| {
                                    worker_config(ctx.wd, &ctx.state.project, &ctx.state.tools, id)
                                        .map_err(|e| e.to_string())
                                        .and_then(|c| Worker::spawn(c).map_err(|e| e.to_string()))
                                });
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
