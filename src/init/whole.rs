//! Test classes whose tests pass only when the class runs whole, as Maven's surefire runs it: a
//! class-level check over what all its tests did (`@AfterClass`), or a test that needs what an
//! earlier one of its class left. Such a class becomes one test, `Class#*`.

use crate::model::{TestId, TestResult};
use crate::pool::PoolError;
use crate::protocol::test_id::WHOLE_CLASS;
use crate::workdir::coverage::Coverage;
use crate::workdir::{timeout_for, TestRecord};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// Runs whole (with `run`: a test on the unpatched program within a limit, its result and
/// milliseconds) every class with a test that failed on its own in the baseline (`tests`); where the
/// whole class passes, its tests are replaced by one record of the class (at the place of its
/// first test), whose coverage is the union of theirs (none, so always run, if one has none).
pub(super) fn join(
    mut run: impl FnMut(&TestId, Duration) -> Result<(TestResult, f64), PoolError>,
    tests: &mut Vec<TestRecord>,
    coverage: Option<&mut Coverage>,
) {
    // A class with a test that timed out alone would only time out again, later.
    let timed_out = Some(TestResult::Timeout.describe());
    let (mut failing, mut slow) = (BTreeSet::new(), BTreeSet::new());
    for t in tests
        .iter()
        .filter(|t| !t.passed && t.id.method != WHOLE_CLASS)
    {
        failing.insert(t.id.class.clone());
        if t.failure == timed_out {
            slow.insert(t.id.class.clone());
        }
    }
    let mut joined: BTreeMap<String, TestRecord> = BTreeMap::new();
    for class in failing.difference(&slow).cloned() {
        let members: Vec<&TestRecord> = tests.iter().filter(|t| t.id.class == class).collect();
        // What the class's tests may take one by one, and the time to start them together.
        let limit = members.iter().map(|t| t.timeout_ms).sum::<u64>();
        let id = TestId {
            class: class.clone(),
            method: WHOLE_CLASS.to_string(),
        };
        match run(&id, Duration::from_millis(limit)) {
            Ok((TestResult::Pass, millis)) => {
                let alone = members.iter().filter(|t| !t.passed).count();
                tracing::info!(
                    "{class}: {alone} of its {} tests fail when run alone, but the class passes \
                     when run whole (as surefire runs it): it runs as one test, {id}",
                    members.len()
                );
                joined.insert(
                    class,
                    TestRecord {
                        id,
                        passed: true,
                        millis,
                        timeout_ms: timeout_for(millis),
                        failure: None,
                        warm: false,
                    },
                );
            }
            Ok((result, _)) => tracing::debug!(
                "{class}: fails when run whole too ({}): its tests stay one by one",
                result.describe()
            ),
            Err(e) => {
                tracing::warn!("{class}: running it whole failed ({e}): its tests stay one by one")
            }
        }
    }
    if let Some(coverage) = coverage {
        for (class, record) in &joined {
            let members: Vec<String> = tests
                .iter()
                .filter(|t| &t.id.class == class)
                .map(|t| t.id.to_string())
                .collect();
            coverage.join(&record.id.to_string(), &members);
        }
    }
    let mut out = Vec::with_capacity(tests.len());
    let mut placed = BTreeSet::new();
    for t in std::mem::take(tests) {
        match joined.get(&t.id.class) {
            Some(record) => {
                if placed.insert(t.id.class.clone()) {
                    out.push(record.clone());
                }
            }
            None => out.push(t),
        }
    }
    *tests = out;
}
