//! What a test's result means for a patch, written once for every technique: the verdict of a
//! result, the failure of a JVM that died twice, and the notes a run records when a failure did
//! not repeat (flaky) or a timeout did or did not repeat with a budget for the machine's load
//! (`load`). The schemata's scheduler (`schedule`) and plain validation (`technique::plain`)
//! confirm failures and timeouts by these rules.

pub mod clock;
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

/// The failure of a test whose JVM died during it twice, for the same patch (both techniques).
pub fn crashed_twice(first: &str, again: &str) -> TestResult {
    TestResult::Fail {
        exception: "JVM exit".into(),
        message: format!("the JVM died during the test, twice ({first}; then {again})"),
    }
}
