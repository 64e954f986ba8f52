//! Reruns that decide whether an event counts against a patch. A request that failed for reasons
//! of the worker (it died, broke the protocol, a native panicked) is retried once in the fresh
//! worker: only a death that repeats for the same patch is the patch's `F`, any other repeated
//! fault is `E` with the reason. A timeout is confirmed by running the test again with a budget
//! for the machine's current load ([`super::load`]). A failure by the test's own clock that
//! repeated is checked against the unpatched program ([`check_own_timeout`]).

use super::Telemetry;
use crate::model::TestResult;
use crate::model::Verdict;
use crate::pool::plain::{run_from, Ended, PlainRun};
use crate::pool::protocol::Request;
use crate::pool::{PoolError, Worker};
use crate::protocol::select;
use crate::rules::load::{contention, Budget};
use crate::workdir::TestRecord;
use std::time::{Duration, Instant};

/// What a failed request says about the patch it ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The request ran past its time; the worker was restarted.
    Timeout,
    /// The worker process died during the request: the patch may have ended the JVM (plain
    /// validation's JVM would end too) or something else killed it (the OS, an operator).
    Crash(String),
    /// The worker failed in a way a patch does not cause in plain validation: a line that is not a
    /// response, a panic inside a native, an agent call that failed, a worker that cannot start.
    Infrastructure(String),
}

/// Sorts a request's error into what it means for the patch.
pub fn classify(e: &PoolError) -> Fault {
    match e {
        PoolError::Timeout(_) => Fault::Timeout,
        PoolError::Died(why) => Fault::Crash(why.clone()),
        other => Fault::Infrastructure(other.to_string()),
    }
}

/// For tree rounds (`RunTree`): whether a tree that ended with `e` should run once more, in the
/// fresh worker, over the patches it had not decided — true for a death or an infrastructure fault,
/// false for a timeout (charged by the timeout rule) and for a worker that cannot be started
/// (nothing to retry in). A tree that faults again leaves its undecided patches to sequential
/// rounds, where [`run_test`] decides between the patch's `F` and `E`.
pub fn retry_tree(e: &PoolError) -> bool {
    !matches!(e, PoolError::Timeout(_) | PoolError::Spawn(_))
}

/// One `RunTest` request: the test's result, or why the request failed.
pub fn request(
    worker: &mut Worker,
    classpath: &[String],
    test: &TestRecord,
    patch: i32,
    timeout: Duration,
) -> Result<(TestResult, f64), PoolError> {
    let req = Request::RunTest {
        classpath: classpath.to_vec(),
        test: test.id.clone(),
        patch,
        warm: test.warm,
        coverage: None,
    };
    let resp = worker.call(&req, Some(timeout))?;
    let result = TestResult::parse_agent_line(resp.lines.first().map(String::as_str).unwrap_or(""));
    Ok((result, resp.micros as f64 / 1000.0))
}

/// Runs `test` with `patch` selected within `timeout`. A death or an infrastructure fault is
/// retried once in the fresh worker (the failed request restarted it), with a note in
/// `telemetry.faults`. A death that repeats is the patch's failure (`JVM exit`), as plain validation would
/// see it; any other fault that repeats is an error with both reasons; a timeout is a timeout.
pub fn run_test(
    worker: &mut Worker,
    classpath: &[String],
    test: &TestRecord,
    patch: i32,
    timeout: Duration,
    telemetry: &mut Telemetry,
) -> TestResult {
    let first = match request(worker, classpath, test, patch, timeout) {
        Ok((result, _)) => return result,
        Err(e) => e,
    };
    let first_fault = classify(&first);
    if first_fault == Fault::Timeout {
        telemetry.sequential_timeouts += 1;
        return TestResult::Timeout;
    }
    let who = if patch >= 0 {
        format!("{} (patch {patch})", test.id)
    } else {
        test.id.to_string()
    };
    tracing::warn!("{who}: {first}; running the test again in a fresh worker");
    let again = request(worker, classpath, test, patch, timeout);
    let (result, then) = match (&first_fault, again) {
        (_, Ok((result, _))) => {
            let then = format!("ran again in a fresh worker: {}", result.describe());
            (result, then)
        }
        (_, Err(PoolError::Timeout(t))) => {
            telemetry.sequential_timeouts += 1;
            (
                TestResult::Timeout,
                format!(
                    "ran again in a fresh worker: timed out after {} ms",
                    t.as_millis()
                ),
            )
        }
        (Fault::Crash(why), Err(PoolError::Died(again))) => (
            crate::rules::crashed_twice(why, &again),
            "died again in a fresh worker: the patch's failure".into(),
        ),
        (_, Err(e)) => (
            TestResult::Error(format!("{first}; run again in a fresh worker: {e}")),
            format!("failed again in a fresh worker ({e}): not validated"),
        ),
    };
    telemetry.faults.push(format!("{who}: {first}; {then}"));
    result
}

/// What the check of a repeated failure by the test's own clock found ([`check_own_timeout`]).
#[derive(Debug, Clone, PartialEq)]
pub enum OwnTimeout {
    /// The unpatched program passed the test on every attempt, the patch on none: the patch's.
    Stands,
    /// The patch passed the test on a later attempt: flaky, as a failure that did not repeat.
    Passed(TestResult, Duration),
    /// The patch passed on no attempt, the unpatched program failed one too: the machine's load,
    /// not held against the patch.
    Load,
}

/// Checks a failure by the test's own clock ([`crate::rules::own_timeout`]) that repeated for
/// `patch`: `protocol::wall_clock::ATTEMPTS` times, the unpatched program runs the test
/// (`classpath` without the overlay), then the patch again. The patch's pass makes the failure
/// flaky; it stands only when the unpatched program passed on every attempt, since a load that
/// fails the test at random lets the unpatched program pass one attempt often (docs/execution.md,
/// "Failures by the test's own clock"). The plain technique's PlainMain decides the same way.
pub fn check_own_timeout(
    worker: &mut Worker,
    classpath: &[String],
    test: &TestRecord,
    patch: i32,
    telemetry: &mut Telemetry,
) -> OwnTimeout {
    let unpatched = crate::workdir::without_overlay(classpath);
    let timeout = Duration::from_millis(test.timeout_ms);
    let mut unpatched_failed = false;
    for _ in 0..crate::protocol::wall_clock::ATTEMPTS {
        telemetry.rounds += 2;
        let before = run_test(worker, &unpatched, test, select::NONE, timeout, telemetry);
        let t = std::time::Instant::now();
        let again = run_test(worker, classpath, test, patch, timeout, telemetry);
        tracing::debug!(
            "{}: own clock: the unpatched program {}, the patch {}",
            test.id,
            before.describe(),
            again.describe()
        );
        if again.passed() {
            return OwnTimeout::Passed(again, t.elapsed());
        }
        unpatched_failed |= !before.passed();
    }
    if unpatched_failed {
        OwnTimeout::Load
    } else {
        OwnTimeout::Stands
    }
}

/// The unpatched program ran past its allowance too: the machine is too slow to tell a timeout
/// from load.
#[derive(Debug, Clone, thiserror::Error)]
#[error(
    "{test}: the unpatched program ran past {allowed_ms} ms on this test too: the machine is too \
     slow to tell a timeout from load"
)]
pub struct TooSlow {
    pub test: String,
    pub allowed_ms: u128,
}

/// Measures how slow the machine is for `test` right now, before a timeout of it is confirmed:
/// the test runs once on the unpatched program (`unpatched` class path, no patch selected), which
/// also warms the JVM the timeout restarted as the tests before it had in the baseline, and the
/// CPU contention is sampled. `Err` when even the unpatched program runs past
/// [`Budget::for_unpatched`]: the machine is too slow to tell a timeout from load.
pub fn measure(
    worker: &mut Worker,
    unpatched: &[String],
    test: &TestRecord,
    telemetry: &mut Telemetry,
) -> Result<Budget, TooSlow> {
    let allowance = Budget::for_unpatched(test.timeout_ms);
    telemetry.rounds += 1;
    let unpatched_ms = match request(worker, unpatched, test, select::NONE, allowance) {
        Ok((_, ms)) => Some(ms),
        Err(PoolError::Timeout(_)) => {
            telemetry.sequential_timeouts += 1;
            return Err(TooSlow {
                test: test.id.to_string(),
                allowed_ms: allowance.as_millis(),
            });
        }
        Err(e) => {
            tracing::warn!("{}: timing the unpatched program: {e}", test.id);
            None
        }
    };
    Ok(Budget::new(test.timeout_ms, unpatched_ms, contention()))
}

/// What a plain JVM found when it confirmed a timeout ([`confirm_plainly`]).
pub struct Plainly {
    /// The test's result in the confirming run: `Timeout`, a pass, or a failure already
    /// confirmed there as the plain technique confirms one.
    pub result: TestResult,
    /// The confirming run's time.
    pub took: Duration,
    /// The run's notes: a timeout that repeated (`timeouts`), one that did not (`slow`), a
    /// failure that did not repeat (`flaky`).
    pub timeouts: Vec<String>,
    pub slow: Vec<String>,
    pub flaky: Vec<String>,
}

/// Confirms a timeout (or a failure by a stack overflow) of a patch's own compile
/// (`Phase::Fallback`: no patch selected, the class path's overlay holding the plainly patched
/// classes) by the very procedure of plain
/// validation ([`crate::pool::plain`]): a fresh JVM as the plain technique starts one runs the
/// test on the unpatched program, then for the patch with the budget plain validation would
/// give it. Near its timeout, whether a patch's run counts as `T` turns on that budget (the
/// unpatched program's time in a cold JVM, the load sampled before it), so a `T` the worker
/// confirmed its own way could be an `F` for plain validation, or the reverse.
///
/// `Some(Err(_))` when even the unpatched program ran past its allowance; `None` when the plain
/// JVM gave no answer (it could not start, it died, it hung outside the test): the worker's own
/// confirmation decides then.
pub fn confirm_plainly(
    worker: &Worker,
    classpath: &[String],
    test: &TestRecord,
    telemetry: &mut Telemetry,
) -> Option<Result<Plainly, TooSlow>> {
    let unpatched = crate::workdir::without_overlay(classpath);
    let jvm = worker.plain_jvm(&unpatched, classpath, std::slice::from_ref(test));
    let mut run = PlainRun::new();
    let t = Instant::now();
    let ended = run_from(&jvm, 0, true, &mut run);
    telemetry.rounds += run.rounds;
    telemetry.plain_confirmations += 1;
    let took = run
        .runs
        .last()
        .map(|r| Duration::from_secs_f64(r.ms / 1000.0))
        .unwrap_or_else(|| t.elapsed());
    let result = match ended {
        Ended::Timeout(Some(_)) => TestResult::Timeout,
        Ended::Outcome(o) if run.budget.is_none() => {
            // The unpatched program's run did not end within its allowance (or the JVM did not
            // start at all, which names no test).
            o.test.as_ref()?;
            return Some(Err(TooSlow {
                test: test.id.to_string(),
                allowed_ms: Budget::for_unpatched(test.timeout_ms).as_millis(),
            }));
        }
        Ended::Outcome(o) if o.verdict == Verdict::Plausible => TestResult::Pass,
        Ended::Outcome(_) => run.last.clone()?,
        Ended::Timeout(None) | Ended::Crash(..) => return None,
    };
    Some(Ok(Plainly {
        result,
        took,
        timeouts: run.timeouts,
        slow: run.slow,
        flaky: run.flaky,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_deaths_and_worker_faults_are_retried() {
        assert_eq!(
            classify(&PoolError::Timeout(Duration::from_secs(1))),
            Fault::Timeout
        );
        assert_eq!(
            classify(&PoolError::Died("signal: 9 (SIGKILL)".into())),
            Fault::Crash("signal: 9 (SIGKILL)".into())
        );
        assert!(matches!(
            classify(&PoolError::Protocol("bad response".into())),
            Fault::Infrastructure(_)
        ));
        assert!(retry_tree(&PoolError::Died("x".into())));
        assert!(retry_tree(&PoolError::Fault("x".into())));
        assert!(!retry_tree(&PoolError::Timeout(Duration::from_secs(1))));
        assert!(!retry_tree(&PoolError::Spawn("x".into())));
    }
}
