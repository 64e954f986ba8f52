//! A validator's worker thread: takes a set from the board (or, with none queued, a chunk of
//! another set's tests), validates it with its technique, streams each patch's outcome to the
//! set's submission and writes the set's result; a panic in validating one set (a bug of ours)
//! costs that set, not the run.

use super::{Event, SetJob, Shared};
use crate::model::SetResult;
use crate::schedule::share::{Helpers, Work};
use crate::technique::plain::Plain;
use crate::technique::{self, RunContext, Technique};
use std::path::Path;
use std::sync::atomic::Ordering;

/// The body of worker thread `id`, until the validator closes.
pub(super) fn serve(shared: &Shared, id: usize) {
    crate::progress::enter(id);
    let mut tech = technique::new(shared.options.technique, id);
    // `--confirm-plausible`: plain validation in a project copy of its own (plain's scratch
    // copies are per thread id; the technique's worker runs in this thread's).
    let mut confirm = (shared.options.confirm_plausible
        && shared.options.technique != crate::model::Technique::Plain)
        .then(|| Plain::new(shared.options.jobs + id));
    if shared.options.warm_up {
        crate::progress::between_sets(false);
        tech.warm_up(&context(shared));
    }
    loop {
        match shared.board.take() {
            Work::Set(job) => {
                if !job.submission.cancelled.load(Ordering::SeqCst) {
                    set(shared, tech.as_mut(), confirm.as_mut(), &job);
                }
                crate::progress::between_sets(false);
            }
            Work::Chunk(job) => {
                crate::progress::between_sets(true);
                let ctx = context(shared);
                let result = tech.help(&ctx, &job);
                job.finish(result);
                crate::progress::between_sets(false);
            }
            Work::Closed => return,
        }
    }
}

/// The run context of `shared`'s sets.
fn context(shared: &Shared) -> RunContext<'_> {
    let o = &shared.options;
    let split = o.technique != crate::model::Technique::Plain && o.jobs > 1 && o.split_ms.is_some();
    RunContext {
        wd: &shared.wd,
        state: &shared.state,
        tests: &shared.tests,
        agent_jar: shared.agent_jar.clone(),
        dedup: o.dedup,
        board: split.then_some(&shared.board as &dyn Helpers),
        coverage: shared.coverage.as_ref(),
        matrix: o.matrix,
    }
}

/// Validates one set (or reuses an earlier run's result for it) and records it.
fn set(shared: &Shared, tech: &mut dyn Technique, confirm: Option<&mut Plain>, job: &SetJob) {
    let path = &job.path;
    if let Some(earlier) = job.key.as_ref().and_then(|k| shared.reusable.get(k)) {
        let r = earlier.to_set_result(path);
        shared.record(&r, None, Some((path, earlier)));
        job.submission.send(Event::Done {
            result: Box::new(r),
            resumed_from: Some(earlier.run.clone()),
        });
        return;
    }
    let ctx = context(shared);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        validate(&ctx, tech, confirm, path, job)
    }))
    .unwrap_or_else(|panic| {
        // The worker may be mid-request: the next set starts a fresh one.
        tech.reset();
        let why = format!(
            "internal error (a bug of patchval's): {}",
            crate::patchset::inputs::panic_text(&panic)
        );
        tracing::error!("{}: {why}", path.display());
        technique::unusable(path, crate::patchset::patch_count(path), why)
    });
    shared.record(&result, job.key.as_deref(), None);
    job.submission.send(Event::Done {
        result: Box::new(result),
        resumed_from: None,
    });
}

/// Loads the set at `path` and validates it with `tech`, each outcome streamed as decided; with
/// `confirm`, its plausible patches once more by plain validation (`technique::confirm`).
fn validate(
    ctx: &RunContext,
    tech: &mut dyn Technique,
    confirm: Option<&mut Plain>,
    path: &Path,
    job: &SetJob,
) -> SetResult {
    let (set, context) = match technique::load_set(ctx.state, path) {
        Ok(loaded) => loaded,
        Err(why) => {
            return technique::unusable(path, crate::patchset::patch_count(path), why.to_string())
        }
    };
    let sink = |patch: usize, outcome: &crate::model::Outcome| {
        job.submission.send(Event::Decided {
            set: path.to_path_buf(),
            patch,
            name: set.names.get(patch).cloned(),
            outcome: outcome.clone(),
        });
    };
    let mut result = tech.validate(ctx, path, &set, &sink);
    if let Some(plain) = confirm {
        technique::confirm::confirm_plausible(ctx, plain, path, &set, &mut result);
    }
    result.extra.context = context;
    result
}
