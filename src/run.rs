//! `patchval run`, a front end over the core: opens a `Validator` on the work dir, submits the
//! arguments, prints each set's human line as it is done, stops taking new sets at the first
//! SIGINT (the sets in flight finish and are written), and closes the validator.

use crate::core::{self, CoreError, Event, Next, Totals, Validator};
use crate::model::SetResult;
use crate::patchset::inputs::Format;
use crate::report::{disagreement_line, human_line, reused_line};
use crate::workdir::WorkDir;
use std::time::Duration;

/// How `run` validates.
#[derive(Debug, Clone)]
pub struct Options {
    pub core: core::Options,
    /// What the arguments are (`patchset::inputs`).
    pub format: Format,
    /// Validate only this shard of the sets (`shard`).
    pub shard: Option<crate::shard::Shard>,
}

/// What a run did.
#[derive(Debug, Default)]
pub struct Summary {
    pub totals: Totals,
    /// Sets left unvalidated because a SIGINT stopped the run (`stop`); `None` when the run was
    /// not stopped.
    pub not_validated: Option<usize>,
    pub results: Vec<SetResult>,
}

impl Summary {
    pub fn all_validated(&self) -> bool {
        self.totals.unusable == 0 && self.totals.errors == 0
    }
}

/// Validates every patch set named by `args`.
pub fn run(wd: &WorkDir, args: &[String], options: &Options) -> Result<Summary, CoreError> {
    let validator = Validator::open(wd, options.core.clone(), std::env::args().collect())?;
    let _active = crate::stop::watch(&validator.record_dir());
    let submission = match options.shard {
        None => validator.submit(args, options.format)?,
        Some(shard) => {
            let plan = validator.plan(args, options.format, true)?;
            let all = plan.sets.len();
            let submission = validator.submit_plan(plan, Some(shard))?;
            tracing::info!(
                "shard {shard}: {} of the run's {all} patch sets",
                submission.sets()
            );
            submission
        }
    };
    let mut summary = Summary::default();
    loop {
        if summary.not_validated.is_none() && crate::stop::requested() {
            // No set is taken from now on; those in flight finish and are written.
            summary.not_validated = Some(submission.cancel());
        }
        match submission.next(Duration::from_millis(200)) {
            Next::Event(e) => {
                if let Event::Done {
                    result,
                    resumed_from,
                } = *e
                {
                    validator.println(&match &resumed_from {
                        Some(run) => reused_line(&result, run),
                        None => human_line(&result),
                    });
                    for d in result
                        .extra
                        .confirmation
                        .iter()
                        .flat_map(|c| &c.disagreements)
                    {
                        validator.println(&disagreement_line(&result, d));
                    }
                    summary.results.push(*result);
                }
            }
            Next::Waiting => {}
            Next::Over => break,
        }
    }
    let results = validator.results_file();
    summary.totals = validator.close()?;
    if let Some(left) = summary.not_validated {
        tracing::warn!(
            "stopped by SIGINT: {left} patch set(s) not validated; `patchval run --resume` with \
             the same arguments validates them"
        );
    }
    let counts: Vec<String> = summary
        .totals
        .verdicts
        .iter()
        .map(|(v, n)| format!("{n} {v}"))
        .collect();
    let t = &summary.totals;
    if options.core.confirm_plausible {
        let say = format!(
            "--confirm-plausible: {} plausible patch(es) validated again by plain validation in \
             {:.1} s: {} disagreement(s)",
            t.confirmed, t.confirm_seconds, t.disagreements
        );
        if t.disagreements > 0 {
            tracing::error!("{say}");
        } else {
            tracing::info!("{say}");
        }
    }
    tracing::info!(
        "{} patch sets ({} resumed from earlier runs): {}; results in {}",
        summary.totals.sets,
        summary.totals.resumed,
        counts.join(", "),
        results.display()
    );
    Ok(summary)
}
