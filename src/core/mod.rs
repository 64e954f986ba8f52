//! The validation core every front end drives (`run`, `fuzz`, `warm-check`, and the coming
//! `serve`, `--shard` and `bench`): a `Validator` opens a work dir once, starts its worker
//! threads (each with its technique and, for the schemata, a worker process whose JVM lives as
//! long as the validator), takes submissions of patch files (or sets held in memory), streams
//! each patch's outcome as it is decided and each set's result as it is done, lets a submission
//! be cancelled, and on `close` ends the workers. Records (`WORK/runs/NNNN/`), resume keys and
//! progress are written here and nowhere else.

mod memory;
pub mod recheck;
mod stream;
mod threads;

use stream::Submitted;
pub use stream::{Event, Next, Submission};

use crate::model::{SetResult, Technique, Verdict};
use crate::patchset::inputs::{self, Format};
use crate::progress::Progress;
use crate::records::{self, Reporter, Reusable, RunRecord};
use crate::schedule::share::Board;
use crate::shard::{Planned, Shard};
use crate::workdir::coverage::Coverage;
use crate::workdir::{State, TestRecord, WorkDir, WorkDirError};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use std::sync::{mpsc, Arc, Mutex};

/// How a validator validates.
#[derive(Debug, Clone)]
pub struct Options {
    /// Worker threads (and worker processes, for the schemata).
    pub jobs: usize,
    pub technique: Technique,
    /// Deduplicate test-equivalent patches through the state-transition tree.
    pub dedup: bool,
    /// A thread without a set of its own runs chunks of another set's remaining tests, of at
    /// least this much baseline time (`schedule::share`); None: never.
    pub split_ms: Option<f64>,
    /// Run every test for every set (no selection by coverage, `schedule::select`).
    pub all_tests: bool,
    /// Run every selected test for every patch, recording each run (`schedule::Mode::matrix`).
    pub matrix: bool,
    /// Reuse what an earlier run decided for a set with the same key (`records`).
    pub resume: bool,
    /// Show progress bars on stderr (a log line per set when stderr is not a terminal).
    pub progress: bool,
    /// The project checkout is here, not where `init` read it (a work dir copied to another
    /// machine): `State::relocate`.
    pub project_root: Option<PathBuf>,
    /// Start every worker (and its JVM) when the validator opens, not with its first set (a
    /// long-lived validator answers its first request as fast as the next).
    pub warm_up: bool,
    /// Validate every plausible patch once more by plain validation (`technique::confirm`).
    pub confirm_plausible: bool,
}

impl Default for Options {
    /// The product's defaults: one worker, the schemata with deduplication, chunks of other
    /// sets' tests of at least `schedule::share::MIN_CHUNK_MS`, selection by coverage.
    fn default() -> Options {
        Options {
            jobs: 1,
            technique: Technique::Schemata,
            dedup: true,
            split_ms: Some(crate::schedule::share::MIN_CHUNK_MS),
            all_tests: false,
            matrix: false,
            resume: false,
            progress: false,
            project_root: None,
            warm_up: false,
            confirm_plausible: false,
        }
    }
}

/// Why a validator cannot open, or a submission cannot be taken.
#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    #[error(transparent)]
    WorkDir(#[from] WorkDirError),
    #[error(transparent)]
    Inputs(#[from] crate::patchset::PatchSetError),
    #[error(transparent)]
    Toolchain(#[from] crate::toolchain::ToolchainError),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl CoreError {
    /// The exit status of a front end that stops on this error.
    pub fn exit_code(&self) -> crate::exit::ExitCode {
        use crate::exit::ExitCode;
        match self {
            CoreError::WorkDir(_) | CoreError::Io { .. } | CoreError::Toolchain(_) => {
                ExitCode::Environment
            }
            // Writing the grouped sets below the work dir failed (full disk, read-only).
            CoreError::Inputs(crate::patchset::PatchSetError::Read { source, .. })
                if matches!(
                    source.kind(),
                    std::io::ErrorKind::StorageFull
                        | std::io::ErrorKind::ReadOnlyFilesystem
                        | std::io::ErrorKind::PermissionDenied
                ) =>
            {
                ExitCode::Environment
            }
            CoreError::Inputs(_) => ExitCode::Usage,
        }
    }
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> CoreError + '_ {
    move |source| CoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The sets a submission would hold (`Validator::plan`).
#[derive(Debug)]
pub struct Plan {
    pub sets: Vec<Planned>,
    /// Inputs that could not be read into a set: an `E` each.
    pub unreadable: Vec<crate::patchset::Unreadable>,
}

/// What a validator did over its life, for `run.json` and the front ends.
#[derive(Debug, Default, Clone)]
pub struct Totals {
    pub sets: usize,
    /// Sets whose result an earlier run had decided (`--resume`).
    pub resumed: usize,
    /// Sets that could not be validated at all (bad JSON, context mismatch, ...).
    pub unusable: usize,
    /// Patches with verdict `E`.
    pub errors: usize,
    /// Patches that could not be read into a set (each counted as a set and an `E`).
    pub unreadable: usize,
    /// Sets taken back from the queue by a cancelled submission.
    pub not_validated: usize,
    pub verdicts: BTreeMap<char, usize>,
    /// `--confirm-plausible`: plausible patches validated again by plain validation, what that
    /// took, and the patches plain validation did not find plausible.
    pub confirmed: usize,
    pub confirm_seconds: f64,
    pub disagreements: usize,
}

/// One set file waiting for a worker thread.
struct SetJob {
    path: PathBuf,
    key: Option<String>,
    submission: Arc<Submitted>,
}

/// The run's record and its totals, written by one thread at a time.
struct Recording {
    record: RunRecord,
    reporter: Reporter,
    totals: Totals,
    write_error: Option<std::io::Error>,
}

/// What the validator's threads share.
struct Shared {
    wd: WorkDir,
    state: State,
    /// Tests in execution order (`schedule::ordered_tests`).
    tests: Vec<TestRecord>,
    coverage: Option<Coverage>,
    agent_jar: PathBuf,
    options: Options,
    run_key: u64,
    reusable: HashMap<String, Reusable>,
    board: Board<SetJob>,
    recording: Mutex<Recording>,
    progress: Option<Progress>,
    next_id: AtomicUsize,
}

impl Shared {
    fn lock_record(&self) -> std::sync::MutexGuard<'_, Recording> {
        self.recording.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes a set's lines and counts it.
    fn record(&self, r: &SetResult, key: Option<&str>, reused: Option<(&Path, &Reusable)>) {
        let mut rec = self.lock_record();
        let written = match reused {
            Some((path, earlier)) => rec.reporter.write_reused(path, earlier),
            None => rec.reporter.write(r, key),
        };
        if let Err(e) = written {
            rec.write_error.get_or_insert(e);
        }
        let t = &mut rec.totals;
        t.sets += 1;
        t.resumed += usize::from(reused.is_some());
        t.unusable += usize::from(r.error.is_some());
        t.errors += r
            .outcomes
            .iter()
            .filter(|o| o.verdict == Verdict::Error)
            .count();
        for (v, n) in &r.extra.counts {
            *t.verdicts.entry(*v).or_default() += n;
        }
        if let Some(c) = &r.extra.confirmation {
            t.confirmed += c.patches;
            t.confirm_seconds += c.seconds;
            t.disagreements += c.disagreements.len();
        }
        if let Some(p) = &self.progress {
            p.set_done();
        }
    }
}

/// The validation core on one work dir.
pub struct Validator {
    shared: Arc<Shared>,
    threads: Vec<std::thread::JoinHandle<()>>,
    /// The progress bars' refresher: it ends as soon as its sender is dropped (a sleep would
    /// hold `close` up to a tick after the last set).
    ticker: Option<(mpsc::Sender<()>, std::thread::JoinHandle<()>)>,
}

impl Validator {
    /// Opens the work dir `wd` (initialised by `init`), makes this run's record
    /// (`WORK/runs/NNNN/`) and starts the worker threads; their workers start with their first
    /// set. `argv` goes into `run.json`.
    pub fn open(wd: &WorkDir, options: Options, argv: Vec<String>) -> Result<Validator, CoreError> {
        let mut state = wd.load()?;
        if let Some(root) = &options.project_root {
            let root = std::path::absolute(root).map_err(io_err(root))?;
            state.relocate(&root)?;
        }
        let coverage = match (options.technique, options.all_tests) {
            (Technique::Plain, _) | (_, true) => None,
            _ => Coverage::load(&wd.coverage()).unwrap_or_else(|why| {
                tracing::warn!("coverage unreadable, every set runs every test: {why}");
                None
            }),
        };
        let agent_jar = crate::agent::extract(&wd.runtime()).map_err(io_err(&wd.runtime()))?;
        let mut options = options;
        options.jobs = options.jobs.max(1);
        let run_key = records::run_key(
            wd,
            options.technique,
            options.dedup,
            options.all_tests,
            options.matrix,
            options.confirm_plausible,
        );
        let record = RunRecord::create(
            wd,
            serde_json::json!({
                "argv": argv,
                "version": env!("CARGO_PKG_VERSION"),
                "technique": format!("{:?}", options.technique).to_lowercase(),
                "dedup": options.dedup,
                "all_tests": options.all_tests,
                "matrix": options.matrix,
                "confirm_plausible": options.confirm_plausible,
                "jobs": options.jobs,
                "split_ms": options.split_ms,
                "resume": options.resume,
                "java_home": state.tools.java_home,
                "run_key": format!("{run_key:016x}"),
            }),
        )
        .map_err(io_err(&wd.runs()))?;
        let reusable = if options.resume {
            records::earlier(wd, &record.id)
        } else {
            HashMap::new()
        };
        let reporter = Reporter::open(
            &record.id,
            &[
                (&record.results(), &record.details()),
                (&wd.results(), &wd.details()),
            ],
        )
        .map_err(io_err(&record.results()))?;
        let progress = options.progress.then(|| Progress::new(0, options.jobs));
        let shared = Arc::new(Shared {
            wd: wd.clone(),
            tests: crate::schedule::ordered_tests(&state),
            state,
            coverage,
            agent_jar,
            board: Board::new(options.split_ms.unwrap_or(0.0)),
            options,
            run_key,
            reusable,
            recording: Mutex::new(Recording {
                record,
                reporter,
                totals: Totals::default(),
                write_error: None,
            }),
            progress,
            next_id: AtomicUsize::new(0),
        });
        let threads = (0..shared.options.jobs)
            .map(|id| {
                let shared = shared.clone();
                std::thread::Builder::new()
                    .name(format!("patchval-{id}"))
                    .spawn(move || threads::serve(&shared, id))
                    .map_err(io_err(Path::new("(thread)")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let ticker = shared.progress.is_some().then(|| {
            let (stop, stopped) = mpsc::channel::<()>();
            let s = shared.clone();
            let h = std::thread::spawn(move || loop {
                if let Some(p) = &s.progress {
                    p.refresh();
                }
                match stopped.recv_timeout(std::time::Duration::from_millis(200)) {
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    _ => return,
                }
            });
            (stop, h)
        });
        Ok(Validator {
            shared,
            threads,
            ticker,
        })
    }

    /// This run's directory (`WORK/runs/NNNN/`).
    pub fn record_dir(&self) -> PathBuf {
        self.shared.lock_record().record.dir.clone()
    }

    /// The run's `result.jsonl`.
    pub fn results_file(&self) -> PathBuf {
        self.shared.lock_record().record.results()
    }

    /// The work dir's state, as `init` left it.
    pub fn state(&self) -> &State {
        &self.shared.state
    }

    /// Sets queued and not yet taken by a worker thread.
    pub fn queued(&self) -> usize {
        self.shared.board.queued()
    }

    /// What the validator did so far.
    pub fn totals(&self) -> Totals {
        self.shared.lock_record().totals.clone()
    }

    /// Worker threads.
    pub fn jobs(&self) -> usize {
        self.shared.options.jobs
    }

    /// Prints a line on stdout above the progress bars.
    pub fn println(&self, line: &str) {
        match &self.shared.progress {
            Some(p) => p.println(line),
            None => println!("{line}"),
        }
    }

    /// Submits the patch files `args` name (files, directories, glob patterns) read as `format`
    /// says (`patchset::inputs`): manifests as they are, other formats grouped into sets below
    /// `WORK/inputs/`. Inputs that cannot be read are done at once, an `E` each.
    pub fn submit(&self, args: &[String], format: Format) -> Result<Submission, CoreError> {
        let plan = self.plan(args, format, false)?;
        self.submit_plan(plan, None)
    }

    /// The sets `args` make (as `submit` reads them), each with its identity and, with `costs`,
    /// its predicted cost (`shard::cost`), and the inputs that cannot be read.
    pub fn plan(&self, args: &[String], format: Format, costs: bool) -> Result<Plan, CoreError> {
        let s = &self.shared;
        let prepared = inputs::prepare(
            &s.wd.inputs(),
            &s.state.project.root,
            &s.state.project.source_dirs,
            args,
            format,
        )?;
        let sets = prepared
            .sets
            .into_iter()
            .map(|path| Planned {
                id: crate::shard::set_id(&path).unwrap_or_default(),
                cost: if costs {
                    crate::shard::cost(&s.wd, &s.state, s.coverage.as_ref(), &s.tests, &path)
                } else {
                    0.0
                },
                part: None,
                path,
            })
            .collect();
        Ok(Plan {
            sets,
            unreadable: prepared.unreadable,
        })
    }

    /// Submits a plan's sets, or with `shard` only those of that shard (`shard::partition`; the
    /// inputs that cannot be read go with shard 0); `run.json` records the shard and the whole
    /// partition, by which `merge` checks that every set was validated exactly once.
    pub fn submit_plan(&self, plan: Plan, shard: Option<Shard>) -> Result<Submission, CoreError> {
        let Plan { sets, unreadable } = plan;
        let bad = |unreadable: &[crate::patchset::Unreadable]| -> Vec<SetResult> {
            unreadable
                .iter()
                .map(|u| crate::technique::unusable(Path::new(&u.source), 1, u.why.to_string()))
                .collect()
        };
        let Some(shard) = shard else {
            return Ok(self.queue(sets.into_iter().map(|p| p.path).collect(), bad(&unreadable)));
        };
        // By the key its result line carries (`records::set_key`), which `merge` reads.
        let key_of = |path: &Path| records::set_key(self.shared.run_key, path).unwrap_or_default();
        let parts_dir = self.shared.wd.inputs().join("parts");
        let assigned = crate::shard::assign(sets, shard, &parts_dir, unreadable.len(), &key_of)
            .map_err(|e| CoreError::Io {
                path: e.path,
                source: e.source,
            })?;
        {
            let mut rec = self.shared.lock_record();
            let dir = rec.record.dir.clone();
            rec.record
                .note("shard", assigned.record)
                .map_err(io_err(&dir.join("run.json")))?;
        }
        let done = if shard.index == 0 {
            bad(&unreadable)
        } else {
            Vec::new()
        };
        Ok(self.queue(assigned.mine, done))
    }

    /// Queues set files (and records results already known) as one submission.
    fn queue(&self, paths: Vec<PathBuf>, done: Vec<SetResult>) -> Submission {
        let s = &self.shared;
        let id = s.next_id.fetch_add(1, Ordering::SeqCst);
        let (tx, rx) = std::sync::mpsc::channel();
        let cancelled = Arc::new(AtomicBool::new(false));
        let submitted = Arc::new(Submitted {
            id,
            events: Mutex::new(tx),
            cancelled: cancelled.clone(),
        });
        let sets = paths.len() + done.len();
        if let Some(p) = &s.progress {
            p.add_sets(sets);
        }
        for r in done {
            s.record(&r, None, None);
            s.lock_record().totals.unreadable += 1;
            submitted.send(Event::Done {
                result: Box::new(r),
                resumed_from: None,
            });
        }
        for path in paths {
            let key = records::set_key(s.run_key, &path);
            s.board.push_set(
                id,
                SetJob {
                    path,
                    key,
                    submission: submitted.clone(),
                },
            );
        }
        Submission {
            events: Mutex::new(rx),
            cancelled,
            id,
            sets,
            shared: s.clone(),
        }
    }

    /// Ends the workers (after every queued set is done) and completes the run's record; returns
    /// what the validator did. An error writing the results is returned here.
    pub fn close(mut self) -> Result<Totals, CoreError> {
        self.shared.board.close();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
        if let Some((stop, h)) = self.ticker.take() {
            drop(stop);
            let _ = h.join();
        }
        if let Some(p) = &self.shared.progress {
            p.finish();
        }
        let mut rec = self.shared.lock_record();
        if let Some(e) = rec.write_error.take() {
            let path = rec.record.results();
            return Err(CoreError::Io { path, source: e });
        }
        let t = rec.totals.clone();
        let interrupted = (t.not_validated > 0 || crate::stop::requested()).then(|| {
            serde_json::json!({
                "signal": "SIGINT",
                "not_validated": t.not_validated,
            })
        });
        let dir = rec.record.dir.clone();
        rec.record
            .finish(serde_json::json!({
                "sets": t.sets,
                "resumed": t.resumed,
                "unusable": t.unusable,
                "unreadable_patches": t.unreadable,
                "verdicts": t.verdicts,
                "interrupted": interrupted,
                "confirm_plausible": self.shared.options.confirm_plausible.then(|| {
                    serde_json::json!({
                        "patches": t.confirmed,
                        "seconds": t.confirm_seconds,
                        "disagreements": t.disagreements,
                    })
                }),
            }))
            .map_err(io_err(&dir.join("run.json")))?;
        Ok(t)
    }
}

/// `warm-check` over the work dir `wd`: its passing tests (those matching `only`) in fresh class
/// loaders and in a warm loader reset before each test, `rounds` times each way
/// (`warm_check::check`).
pub fn warm_check(
    wd: &WorkDir,
    only: &[glob::Pattern],
    rounds: u32,
    reset: bool,
) -> Result<crate::warm_check::WarmReport, crate::warm_check::WarmError> {
    let state = wd.load()?;
    crate::warm_check::check(wd, &state, only, rounds, reset)
}

impl Drop for Validator {
    /// A validator dropped without `close` (an error in a front end) still lets its threads end.
    fn drop(&mut self) {
        self.shared.board.drain_sets(|_| true);
        self.shared.board.close();
        // Dropping the sender ends the ticker.
        self.ticker.take();
    }
}
