//! `init`'s baseline: every test run once on the unpatched program in the workers' JVMs, its
//! result, time and timeout recorded; a failing test run again (flaky ones left out); only a
//! harness's declared trigger tests may fail.

use super::passes::spread;
use super::warm_baseline::{mark_warm, warm_first, BaselineMode, BaselineRun};
use super::Options;
use crate::model::{TestId, TestResult};
use crate::pool::protocol::Request;
use crate::pool::Worker;
use crate::workdir::coverage::Coverage;
use crate::workdir::{timeout_for, State, TestRecord, WorkDir};
use std::path::Path;
use std::time::{Duration, Instant};

/// One run of a test on the unpatched program: its result and milliseconds.
fn run_unpatched(
    worker: &mut Worker,
    classpath: &[String],
    id: &TestId,
    timeout: Duration,
    warm: bool,
) -> Result<(TestResult, f64), crate::pool::PoolError> {
    run_covered(worker, classpath, id, timeout, warm, None).map(|(r, ms, _)| (r, ms))
}

/// As [`run_unpatched`]; with `coverage` (a warm run), also the agent's coverage lines for the
/// classes of that directory.
fn run_covered(
    worker: &mut Worker,
    classpath: &[String],
    id: &TestId,
    timeout: Duration,
    warm: bool,
    coverage: Option<&Path>,
) -> Result<(TestResult, f64, Vec<String>), crate::pool::PoolError> {
    let req = Request::RunTest {
        classpath: classpath.to_vec(),
        test: id.clone(),
        patch: crate::protocol::select::NONE,
        warm,
        coverage: coverage.map(|d| d.display().to_string()),
    };
    let mut resp = worker.call(&req, Some(timeout))?;
    let first = if resp.lines.is_empty() {
        String::new()
    } else {
        resp.lines.remove(0)
    };
    let result = TestResult::parse_agent_line(&first);
    Ok((result, resp.micros as f64 / 1000.0, resp.lines))
}

/// Runs the baseline over `workers`: each test once on the unpatched program (warm first, with
/// coverage probes; in fresh loaders where warm and fresh differ, see `warm_baseline`), a failing
/// test once more (a test that passes then is flaky and left out), and records each test's
/// result, time and timeout in `state.tests`. Returns the coverage recorded.
pub fn run(
    wd: &WorkDir,
    state: &mut State,
    workers: &mut [Worker],
    ids: Vec<TestId>,
    options: &Options,
) -> Option<Coverage> {
    let classpath = wd.test_classpath(state, None);
    let bar = indicatif::ProgressBar::new(ids.len() as u64).with_style(
        indicatif::ProgressStyle::with_template("baseline {bar:30} {pos}/{len} tests {elapsed}")
            .expect("valid template"),
    );
    let (ids_run, baseline_started) = (ids.len(), Instant::now());
    let run_one = |worker: &mut Worker, id: &TestId, timeout, warm, coverage: Option<&Path>| {
        run_covered(worker, &classpath, id, timeout, warm, coverage)
    };
    let (runs, mut coverage) = match options.mode {
        BaselineMode::Warm => {
            let (runs, coverage) = warm_first(
                workers,
                &run_one,
                &wd.classes(),
                &ids,
                options.baseline_timeout,
                &bar,
            );
            (runs, Some(coverage))
        }
        BaselineMode::Fresh | BaselineMode::Checked => {
            let (runs, _) = spread(
                workers,
                &ids,
                |id| id.class.as_str(),
                |index, worker, _: &mut (), id| {
                    bar.inc(1);
                    (
                        index,
                        run_unpatched(worker, &classpath, id, options.baseline_timeout, false),
                    )
                },
            );
            let runs = ids
                .into_iter()
                .zip(runs)
                .map(|(id, (worker, run))| BaselineRun {
                    id,
                    run,
                    worker,
                    warm: false,
                    confirmed: false,
                    flaky: false,
                })
                .collect();
            (runs, None)
        }
    };
    bar.finish_and_clear();
    tracing::info!(
        "baseline: {} tests on {} workers in {:.1}s",
        ids_run,
        workers.len(),
        baseline_started.elapsed().as_secs_f64()
    );
    // A test that fails once is run again (the same way, on the worker that ran it, in the same
    // project copy: a test may leave files behind that decide how it runs next time), unless a
    // second run already failed the same way: one that passes then is flaky (timing, order, the
    // machine's load) and would make verdicts flip between runs, so it is left out. A failure by
    // the test's own clock (`rules::own_timeout`: a socket's read timeout, a JUnit timeout) is the
    // machine's load as often as not, and twice in a row under a load that lasts: it runs up to
    // `wall_clock::ATTEMPTS` + 1 times more, confirmed or not, and a pass then records the test as
    // passing, since at `run` such a failure is checked against the unpatched program before it
    // counts. Recorded as failing, it would make every patch that meets the same load `F` without
    // that check (jsoup's `ConnectTest#handlesWrongContentLengthDuringBufferedRead` at a load
    // average of 10: the seeded set's plausible patches came out `F`).
    for r in runs {
        let (mut result, mut millis) = match r.run {
            Ok((TestResult::Error(why), _)) => {
                state.excluded.push((r.id.to_string(), why));
                continue;
            }
            Ok(run) => run,
            Err(e) => {
                state
                    .excluded
                    .push((r.id.to_string(), format!("baseline: {e}")));
                continue;
            }
        };
        let own_clock = crate::rules::own_timeout(&result);
        if own_clock {
            let again = (0..=crate::protocol::wall_clock::ATTEMPTS)
                .map(|_| {
                    run_unpatched(
                        &mut workers[r.worker],
                        &classpath,
                        &r.id,
                        options.baseline_timeout,
                        r.warm,
                    )
                })
                .find(|run| matches!(run, Ok((TestResult::Pass, _))));
            if let Some(Ok((pass, ms))) = again {
                tracing::warn!(
                    "{}: failed by its own clock in the baseline ({}), passed when run again: the machine's load; kept as passing",
                    r.id,
                    result.describe()
                );
                (result, millis) = (pass, ms);
            }
        }
        if !result.passed() && !r.confirmed {
            let flaky = r.flaky
                || (!own_clock && {
                    let again = run_unpatched(
                        &mut workers[r.worker],
                        &classpath,
                        &r.id,
                        options.baseline_timeout,
                        r.warm,
                    );
                    matches!(again, Ok((TestResult::Pass, _)))
                });
            if flaky {
                tracing::warn!("{}: flaky (failed, then passed): left out", r.id);
                state.excluded.push((
                    r.id.to_string(),
                    format!(
                        "flaky: failed in the baseline ({}), passed when run again",
                        result.describe()
                    ),
                ));
                continue;
            }
        }
        state.tests.push(TestRecord {
            warm: r.warm,
            passed: result.passed(),
            failure: (!result.passed()).then(|| result.describe()),
            id: r.id,
            millis,
            timeout_ms: timeout_for(millis),
        });
    }
    // Before the declared triggers: under surefire a class that passes whole has no failing test.
    super::whole::join(
        |id, limit| run_unpatched(&mut workers[0], &classpath, id, limit, false),
        &mut state.tests,
        coverage.as_mut(),
    );
    if !options.declared_triggers.is_empty() {
        // Like `defects4j test`: only the declared trigger tests may fail on the unpatched program.
        let (keep, drop): (Vec<TestRecord>, Vec<TestRecord>) = std::mem::take(&mut state.tests)
            .into_iter()
            .partition(|t| t.passed || options.declared_triggers.contains(&t.id.to_string()));
        state.tests = keep;
        for t in drop {
            state.excluded.push((
                t.id.to_string(),
                format!(
                    "fails on the unpatched program but is not a declared trigger test ({})",
                    t.failure.unwrap_or_default()
                ),
            ));
        }
        for d in &options.declared_triggers {
            if state
                .tests
                .iter()
                .any(|t| t.passed && t.id.to_string() == *d)
            {
                tracing::warn!("declared trigger test {d} passes on the unpatched program");
            }
        }
    }
    if options.mode == BaselineMode::Checked && !state.tests.is_empty() {
        let started = Instant::now();
        coverage = Some(mark_warm(
            workers,
            &run_one,
            &wd.classes(),
            &mut state.tests,
        ));
        tracing::info!("warm pass: {:.1}s", started.elapsed().as_secs_f64());
    }
    coverage
}

#[cfg(test)]
mod tests {
    #[test]
    fn timeout_formula() {
        assert_eq!(crate::workdir::timeout_for(0.0), 5000);
        assert_eq!(crate::workdir::timeout_for(100.0), 5150);
    }
}
