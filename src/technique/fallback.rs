//! The per-patch fallback: each patch written into its file on its own (with the other files it
//! edits), compiled by the worker's in-process javac into an overlay, and its selected tests run
//! in the same worker JVM, patch after patch. The schemata hand it the patches they cannot weave;
//! `--technique fallback` validates every patch this way.

use super::validation::{SetValidation, Slot};
use super::{unusable, RunContext, Sink, Technique};
use crate::model::{Outcome, PatchSet, Phase, SetResult, Verdict};
use crate::pool::Worker;
use crate::schedule::share::{Executed, HelpError, Job};
use std::path::Path;
use std::time::Instant;

/// The fallback on one worker thread.
pub struct Fallback {
    slot: Slot,
}

impl Fallback {
    pub fn new(id: usize) -> Fallback {
        Fallback {
            slot: Slot::new(id),
        }
    }
}

impl Technique for Fallback {
    fn validate(
        &mut self,
        ctx: &RunContext,
        path: &Path,
        set: &PatchSet,
        sink: &dyn Sink,
    ) -> SetResult {
        let id = self.slot.id;
        let worker = match self.slot.worker(ctx) {
            Ok(w) => w,
            Err(why) => return unusable(path, set.patches.len(), why.to_string()),
        };
        let mut v = SetValidation::new(ctx, worker.jvm_starts, id, path, set, sink);
        let why = "validated one by one (--technique fallback)".to_string();
        v.fallback
            .extend((0..set.patches.len()).map(|i| (i, why.clone())));
        one_by_one(&mut v, ctx, worker, id, set);
        v.finish(worker, path, set, "fallback")
    }

    fn help(&mut self, ctx: &RunContext, job: &Job) -> Result<Executed, HelpError> {
        Ok(job.run(self.slot.worker(ctx)?))
    }

    fn warm_up(&mut self, ctx: &RunContext) {
        if let Err(why) = self.slot.worker(ctx) {
            tracing::warn!("{why}");
        }
    }

    fn reset(&mut self) {
        self.slot.reset();
    }
}

/// Validates the patches in `v.fallback` one by one: each its own compile (with the other files
/// it edits) and its own rounds, in the same JVM.
pub(super) fn one_by_one(
    v: &mut SetValidation,
    ctx: &RunContext,
    worker: &mut Worker,
    worker_id: usize,
    set: &PatchSet,
) {
    let mut fallback = std::mem::take(&mut v.fallback);
    fallback.sort();
    v.extra.fallback = fallback.len();
    let setup = ctx.setup(worker_id, "single", set);
    let cp = ctx.wd.test_classpath(ctx.state, Some(&setup.overlay));
    for (i, why) in fallback {
        if !v.extra.fallback_reasons.contains(&why) {
            v.extra.fallback_reasons.push(why.clone());
        }
        let t = Instant::now();
        v.extra.fallback_compiles += 1;
        let diags = set
            .other_texts(i, &ctx.state.project.root)
            .map_err(|e| crate::pool::PoolError::Agent(e.to_string()))
            .and_then(|others| setup.compile_with(worker, &set.patched_text(i), &others));
        v.extra.compile_ms += t.elapsed().as_secs_f64() * 1000.0;
        let outcome = match diags {
            Err(e) => {
                Outcome::new(Verdict::Error, Phase::Fallback).with_detail(format!("compiling: {e}"))
            }
            Ok(d) if !d.is_empty() => Outcome::new(Verdict::CompileError, Phase::Fallback)
                .with_detail(format!("line {}: {}", d[0].line, d[0].message)),
            Ok(_) => {
                let t = Instant::now();
                // A patch that timed out in the schemata is likely to time out here too, and a
                // timeout after a test selection left out is decided again over every test:
                // every test at once then, for one timeout and one confirmation, not two.
                let expect_timeout =
                    v.timed_out_woven.contains(&i) && v.selection.first_skipped.is_some();
                let mut done = if expect_timeout {
                    v.execute_over_every_test(ctx, worker, &cp, &[i], Phase::Fallback)
                } else {
                    v.execute(ctx, worker, &cp, &[i], &[], Phase::Fallback)
                };
                v.extra.run_ms += t.elapsed().as_secs_f64() * 1000.0;
                done.remove(&i).unwrap_or_else(|| {
                    Outcome::new(Verdict::Error, Phase::Fallback)
                        .with_detail("no outcome for the patch")
                })
            }
        };
        v.decide(
            i,
            Outcome {
                one_by_one: Some(why),
                ..outcome
            },
        );
    }
}
