//! One set's validation in a worker, as the schemata and the fallback share it: the tests the set
//! selects, the outcomes decided so far (each reported to the sink as it is decided), the
//! telemetry, the execution of the selected tests (spread over idle workers) with the redo over
//! every test that selection's rules ask for, and the worker thread's lazily started worker.

use super::{RunContext, Sink};
use crate::model::{Extra, Outcome, PatchSet, Phase, SetResult, Verdict};
use crate::pool::spawn::{NoWorker, SpawnError};
use crate::pool::PoolError;
use crate::pool::Worker;
use crate::schedule::select::{select, Selection};
use crate::schedule::share::execute_shared;
use crate::schedule::{Mode, Telemetry};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Instant;

/// The worker process of a worker thread, started the first time it is needed (or in the
/// background a little before, [`Slot::start`]) and kept for the thread's life (or why it would
/// not start).
pub(super) struct Slot {
    pub id: usize,
    worker: Option<Result<Worker, NoWorker>>,
    starting: Option<std::thread::JoinHandle<Result<Worker, NoWorker>>>,
}

impl Slot {
    pub fn new(id: usize) -> Slot {
        Slot {
            id,
            worker: None,
            starting: None,
        }
    }

    /// Starts the thread's worker in the background when it is not started yet, so that its JVM
    /// starts while the caller goes on (planning the set); [`Slot::worker`] waits for it.
    pub fn start(&mut self, ctx: &RunContext) {
        if self.worker.is_some() || self.starting.is_some() {
            return;
        }
        let (wd, id) = (ctx.wd.clone(), self.id);
        let (project, tools) = (ctx.state.project.clone(), ctx.state.tools.clone());
        let started = std::thread::Builder::new()
            .name(format!("patchval-start-{id}"))
            .spawn(move || start_worker(&wd, &project, &tools, id));
        match started {
            Ok(h) => self.starting = Some(h),
            // No thread to start it in: `worker` starts it in this one.
            Err(e) => tracing::debug!("worker {id} starts in its own thread: {e}"),
        }
    }

    /// The thread's worker, started now if it is not yet (or awaited, when `start` began it).
    pub fn worker(&mut self, ctx: &RunContext) -> Result<&mut Worker, NoWorker> {
        if self.worker.is_none() {
            let w = match self.starting.take() {
                Some(h) => h.join().unwrap_or_else(|_| {
                    Err(NoWorker(std::sync::Arc::new(SpawnError::Pool(
                        PoolError::Spawn("starting the worker panicked".to_string()),
                    ))))
                }),
                None => start_worker(ctx.wd, &ctx.state.project, &ctx.state.tools, self.id),
            };
            self.worker = Some(w);
        }
        let w = self.worker.as_mut().expect("the worker was just set");
        w.as_mut().map_err(|e| e.clone())
    }

    /// The JVM starts of the thread's worker so far, counting one for a worker not yet started
    /// (the start that validating a set implies).
    pub fn starts_so_far(&self) -> u32 {
        match &self.worker {
            Some(Ok(w)) => w.jvm_starts,
            _ => 1,
        }
    }

    /// Drops the worker (the next set starts a fresh one).
    pub fn reset(&mut self) {
        self.worker = None;
        // A worker still starting is awaited and dropped (its JVM killed): the next start copies
        // the project into the same directory.
        if let Some(h) = self.starting.take() {
            let _ = h.join();
        }
    }
}

/// Starts worker `id` of `wd`, timed in the log.
fn start_worker(
    wd: &crate::workdir::WorkDir,
    project: &crate::project::Project,
    tools: &crate::toolchain::Toolchain,
    id: usize,
) -> Result<Worker, NoWorker> {
    let t = Instant::now();
    let w = crate::pool::spawn::spawn_worker(wd, project, tools, id)
        .map_err(|e| NoWorker(std::sync::Arc::new(e)));
    tracing::debug!("worker {id} started in {:.2} s", t.elapsed().as_secs_f64());
    w
}

/// What validating one set has found so far.
pub(super) struct SetValidation<'s> {
    pub extra: Extra,
    outcomes: Vec<Option<Outcome>>,
    /// Patches to validate one by one, with the reason.
    pub fallback: Vec<(usize, String)>,
    /// Patches whose woven run timed out: validated one by one, each runs every test at once.
    pub timed_out_woven: BTreeSet<usize>,
    /// The tests this set runs.
    pub selection: Selection,
    sink: &'s dyn Sink,
    started: Instant,
    starts_before: u32,
}

impl<'s> SetValidation<'s> {
    /// Starts validating `set` (named `path` in progress lines) in `worker`: its tests are
    /// selected now.
    pub fn new(
        ctx: &RunContext,
        starts_before: u32,
        worker_id: usize,
        path: &Path,
        set: &PatchSet,
        sink: &'s dyn Sink,
    ) -> SetValidation<'s> {
        crate::progress::set_started(
            &crate::report::set_name(&path.display().to_string()),
            set.patches.len(),
        );
        let selection = select(ctx.wd, ctx.state, ctx.coverage, ctx.tests, set);
        let mut extra = Extra {
            worker: worker_id,
            ..Extra::default()
        };
        extra.tests_selected = selection.tests.len();
        extra.tests_skipped = selection.skipped;
        extra.all_tests_because = selection.all_because.clone();
        SetValidation {
            extra,
            outcomes: vec![None; set.patches.len()],
            fallback: Vec::new(),
            timed_out_woven: BTreeSet::new(),
            selection,
            sink,
            started: Instant::now(),
            starts_before,
        }
    }

    /// Patch `i` is decided: kept, and reported to the sink.
    pub fn decide(&mut self, i: usize, o: Outcome) {
        self.sink.decided(i, &o);
        self.outcomes[i] = Some(o);
    }

    fn absorb(&mut self, t: &Telemetry) {
        self.extra.rounds += t.rounds;
        self.extra.tree_rounds += t.tree_rounds;
        self.extra.captures += t.captures;
        for (test, rounds, classes) in &t.trees {
            self.extra.tree_tests += 1;
            self.extra.classes += classes;
            if *classes > 1 {
                self.extra
                    .split_tests
                    .insert(test.clone(), [*rounds, *classes as u64]);
            }
        }
        self.extra
            .tree_fallbacks
            .extend(t.fallbacks.iter().cloned());
        self.extra.flaky.extend(t.flaky.iter().cloned());
        self.extra.slow.extend(t.slow.iter().cloned());
        self.extra.timeouts.extend(t.timeouts.iter().cloned());
        self.extra.sequential_timeouts += t.sequential_timeouts;
        self.extra.plain_confirmations += t.plain_confirmations;
        self.extra.faults.extend(t.faults.iter().cloned());
        self.extra.chunks_by_helpers += t.chunks_by_helpers;
        self.extra.redone_after_chunks += t.redone;
    }

    /// Runs the selected tests for `patches`; an outcome that may owe something to the tests
    /// left out ([`Selection::must_redo`]) is decided again over every test.
    pub fn execute(
        &mut self,
        ctx: &RunContext,
        worker: &mut Worker,
        cp: &[String],
        patches: &[usize],
        tree: &[usize],
        phase: Phase,
    ) -> BTreeMap<usize, Outcome> {
        let tests = &self.selection.tests;
        let mode = Mode {
            phase,
            matrix: ctx.matrix,
            provisional: false,
        };
        crate::progress::phase(&format!(
            "running the selected tests for {} patches",
            patches.len()
        ));
        crate::progress::tests_begin(tests.len(), tests.iter().map(|t| t.millis).sum());
        let (mut done, telemetry) =
            execute_shared(worker, ctx.board, cp, tests, patches, tree, mode);
        self.absorb(&telemetry);
        // Woven code's `T` is decided again with the plainly patched file (`schemata`), over
        // every test there if need be: running it over every test here first would only add a
        // timeout.
        let again: Vec<usize> = patches
            .iter()
            .copied()
            .filter(|i| {
                done.get(i).is_some_and(|o| {
                    !(phase == Phase::Execute && o.verdict == Verdict::Timeout)
                        && self.selection.must_redo(o, ctx.tests)
                })
            })
            .collect();
        if again.is_empty() {
            return done;
        }
        self.extra.redone_over_every_test += again.len() as u64;
        crate::progress::phase(&format!(
            "{} patches decided again over every test",
            again.len()
        ));
        let tree: Vec<usize> = tree.iter().copied().filter(|i| again.contains(i)).collect();
        done.extend(self.every_test(ctx, worker, cp, &again, &tree, mode));
        done
    }

    /// Runs every test, not only the selected ones, for `patches` (none on a tree): for a patch
    /// that is expected to time out ([`Selection::must_redo`] would ask for every test after a
    /// timeout over the selected tests, and a timeout, its confirmation included, would then be
    /// paid twice).
    pub fn execute_over_every_test(
        &mut self,
        ctx: &RunContext,
        worker: &mut Worker,
        cp: &[String],
        patches: &[usize],
        phase: Phase,
    ) -> BTreeMap<usize, Outcome> {
        self.extra.over_every_test_at_once += patches.len() as u64;
        crate::progress::phase(&format!("running every test for {} patches", patches.len()));
        let mode = Mode {
            phase,
            matrix: ctx.matrix,
            provisional: false,
        };
        self.every_test(ctx, worker, cp, patches, &[], mode)
    }

    fn every_test(
        &mut self,
        ctx: &RunContext,
        worker: &mut Worker,
        cp: &[String],
        patches: &[usize],
        tree: &[usize],
        mode: Mode,
    ) -> BTreeMap<usize, Outcome> {
        crate::progress::tests_begin(ctx.tests.len(), ctx.tests.iter().map(|t| t.millis).sum());
        // On this worker alone, not shared out in chunks: these patches owe their outcome so far
        // to time (a timeout, mostly), which most repeat, and whatever a chunk does not pass is
        // run once more over the rest of the order (`execute_shared`): a looping patch would pay
        // its timeout twice.
        let (done, telemetry) =
            crate::schedule::execute(worker, cp, ctx.tests, patches, tree, mode);
        self.absorb(&telemetry);
        done
    }

    /// The set's result, `technique` naming how it was validated.
    pub fn finish(
        self,
        worker: &Worker,
        path: &Path,
        set: &PatchSet,
        technique: &str,
    ) -> SetResult {
        let mut extra = self.extra;
        extra.worker_jvm_starts = worker.jvm_starts;
        extra.jvm_starts = worker.jvm_starts - self.starts_before;
        extra.total_ms = self.started.elapsed().as_secs_f64() * 1000.0;
        let mut r = SetResult {
            patches_path: path.display().to_string(),
            technique: Some(technique.to_string()),
            outcomes: self
                .outcomes
                .into_iter()
                .map(|o| {
                    o.unwrap_or_else(|| {
                        Outcome::new(Verdict::Error, Phase::Execute).with_detail("not validated")
                    })
                })
                .collect(),
            names: set.names.clone(),
            error: None,
            extra,
        };
        r.finish_counts();
        r
    }
}
