//! What a test's result means for a patch, written once for every technique: the verdict of a
//! result, the failure of a JVM that died twice, and the notes a run records when a failure did
//! not repeat (flaky), a failure by the test's own clock that the unpatched program shared (the
//! machine's load), or a timeout did or did not repeat with a budget for the machine's load
//! (`load`). The schemata's scheduler (`schedule`) and plain validation (`technique::plain`)
//! confirm failures and timeouts by these rules.

pub mod clock;
pub mod instability;
pub mod load;

use crate::model::{Outcome, Phase, TestResult, Verdict};
use crate::workdir::TestRecord;

/// The verdict a test's result gives a patch (`None`: the test passed).
pub fn verdict_of(result: &TestResult) -> Option<Verdict> {
    match result {
        TestResult::Pass | TestResult::Skip => None,
        TestResult::Error(_) => Some(Verdict::Error),
        TestResult::Timeout => Some(Verdict::Timeout),
        TestResult::Fail { .. } => Some(Verdict::TestFailure),
    }
}

/// How one test ended for one patch; `None` means it passed.
pub fn failure(result: &TestResult, test: &TestRecord, phase: Phase) -> Option<Outcome> {
    let verdict = verdict_of(result)?;
    let detail = match result {
        TestResult::Error(why) => format!("test could not run: {why}"),
        other => other.describe(),
    };
    Some(
        Outcome::new(verdict, phase)
            .with_test(test.id.to_string())
            .with_detail(detail),
    )
}

/// Logs and describes a failure of `test` that did not repeat when the test ran once more (both
/// techniques record these in `extra.flaky`).
pub fn flaky_note(test: &str, first: &TestResult) -> String {
    let note = format!(
        "{test}: failed ({}), passed when run again",
        first.describe()
    );
    tracing::warn!("flaky: {note}");
    note
}

/// Whether a failure is one the test's own wall clock decided (`protocol::wall_clock`): a socket's
/// read timeout, a JUnit timeout. A load on the machine makes these whatever the patch, so one
/// that repeats is checked against the unpatched program before it counts (both techniques; the
/// plain technique's copy of this test is in PlainMain).
pub fn own_timeout(result: &TestResult) -> bool {
    use crate::protocol::wall_clock;
    match result {
        TestResult::Fail { exception, message } => {
            wall_clock::EXCEPTIONS.split(' ').any(|e| e == exception)
                || wall_clock::MESSAGES.split('|').any(|m| message.contains(m))
        }
        _ => false,
    }
}

/// Logs and describes a failure by the test's own clock (`own_timeout`) that the unpatched
/// program showed too, on one attempt or more, while the patch passed on none: the machine's, not
/// held against the patch (both techniques record these in `extra.slow`).
pub fn loaded_note(test: &str, first: &TestResult) -> String {
    let note = format!(
        "{test}: failed by its own clock ({}) on all {} attempts, and the unpatched program did too on one or more: the machine's load, not the patch's",
        first.describe(),
        crate::protocol::wall_clock::ATTEMPTS
    );
    tracing::warn!("load: {note}");
    note
}

/// The failure of a test whose JVM died during it twice, for the same patch (both techniques).
pub fn crashed_twice(first: &str, again: &str) -> TestResult {
    TestResult::Fail {
        exception: "JVM exit".into(),
        message: format!("the JVM died during the test, twice ({first}; then {again})"),
    }
}

/// What of the worker's JVM, rather than of the patch, a failure may show ([`jvm_bound`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JvmBound {
    /// A `StackOverflowError`: how deep a recursion gets before the stack is full depends on the
    /// size of its frames, and the worker's are not plain's (woven code, loaders that mark caught
    /// overflows and reset statics, a JIT that has compiled other tests). A run that caught one
    /// and failed otherwise is named an overflow by the agent (`TestRunner.watched`).
    Overflow,
    /// `NoClassDefFoundError: Could not initialize class`: a class whose initialiser failed
    /// before. In a worker, that may have been an earlier run's, at the end of its stack (an
    /// overflow there fails the initialiser), and a JDK class stays failed for the life of the
    /// JVM; plain validation's JVM is fresh for each patch.
    FailedInitialiser,
}

/// Whether a failure, as a result's detail reads (`exception: message`, its causes after
/// `caused by `), may be the worker JVM's rather than the patch's ([`JvmBound`]): the failure
/// itself or a cause.
pub fn jvm_bound(failure: &str) -> Option<JvmBound> {
    const OVERFLOW: &str = "java.lang.StackOverflowError";
    const FAILED_INITIALISER: &str = "java.lang.NoClassDefFoundError: Could not initialize class ";
    let names = |d: &str| {
        if d.strip_prefix(OVERFLOW)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(':'))
        {
            Some(JvmBound::Overflow)
        } else if d.starts_with(FAILED_INITIALISER) {
            Some(JvmBound::FailedInitialiser)
        } else {
            None
        }
    };
    names(failure).or_else(|| failure.split("caused by ").skip(1).find_map(names))
}

/// [`jvm_bound`] of a test's result: its failure, if it failed.
pub fn result_jvm_bound(result: &TestResult) -> Option<JvmBound> {
    match result {
        TestResult::Fail { exception, message } => jvm_bound(&format!("{exception}: {message}")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fail(exception: &str, message: &str) -> TestResult {
        TestResult::Fail {
            exception: exception.into(),
            message: message.into(),
        }
    }

    #[test]
    fn failures_by_the_tests_own_clock_are_told_apart() {
        assert!(own_timeout(&fail(
            "java.net.SocketTimeoutException",
            "Read timed out @ org.jsoup.helper.HttpConnection$Response.execute(HttpConnection.java:867)"
        )));
        assert!(own_timeout(&fail(
            "org.junit.runners.model.TestTimedOutException",
            "test timed out after 100 milliseconds"
        )));
        assert!(own_timeout(&fail(
            "org.opentest4j.AssertionFailedError",
            "slow ==> execution exceeded timeout of 10 ms by 52 ms"
        )));
        assert!(!own_timeout(&fail(
            "java.lang.AssertionError",
            "expected:<1> but was:<2>"
        )));
        assert!(!own_timeout(&fail(
            "java.net.SocketException",
            "Connection reset"
        )));
        assert!(!own_timeout(&TestResult::Timeout));
        assert!(!own_timeout(&TestResult::Pass));
    }

    #[test]
    fn failures_the_worker_jvm_may_decide_are_told_by_the_failure_or_its_cause() {
        use JvmBound::*;
        let cases = [
            ("java.lang.StackOverflowError:  @ org.example.Quota.take(Quota.java:8)", Some(Overflow)),
            ("java.lang.StackOverflowError", Some(Overflow)),
            ("java.lang.RuntimeException: caused by java.lang.StackOverflowError", Some(Overflow)),
            (
                "java.lang.NoClassDefFoundError: Could not initialize class java.lang.StackTraceElement$HashedModules",
                Some(FailedInitialiser),
            ),
            (
                "java.lang.IllegalStateException: caused by java.lang.NoClassDefFoundError: Could not initialize class a.B",
                Some(FailedInitialiser),
            ),
            ("java.lang.AssertionError: no StackOverflowError", None),
            ("java.lang.StackOverflowErrors: a class of its own", None),
            ("java.lang.NoClassDefFoundError: org/example/Gone", None),
        ];
        for (failure, bound) in cases {
            assert_eq!(jvm_bound(failure), bound, "{failure}");
        }
        assert_eq!(
            result_jvm_bound(&fail("java.lang.StackOverflowError", " @ a.B.c(B.java:1)")),
            Some(Overflow)
        );
        assert_eq!(result_jvm_bound(&TestResult::Timeout), None);
    }
}
