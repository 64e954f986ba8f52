//! Test execution order and the per-patch loop: trigger tests first, then the rest from fastest to
//! slowest; a patch stops at its first failing test. (One round per patch per test for now.)

pub mod tree;

use crate::model::{Outcome, Phase, TestResult, Verdict};
use crate::pool::protocol::Request;
use crate::pool::{PoolError, Worker};
use crate::workdir::{State, TestRecord};
use std::time::Duration;

/// Tests in the order they are run against every patch.
pub fn ordered_tests(state: &State) -> Vec<TestRecord> {
    let mut tests = state.tests.clone();
    tests.sort_by(|a, b| {
        a.passed
            .cmp(&b.passed)
            .then(a.millis.total_cmp(&b.millis))
            .then(a.id.cmp(&b.id))
    });
    tests
}

/// What happened when one patch met the test suite.
pub struct Execution {
    pub outcome: Outcome,
    /// Test runs (rounds) spent on this patch.
    pub rounds: u64,
}

/// Runs the tests against one patch (`patch` is selected at the woven location; -1 runs an overlay
/// without a stub) and returns its verdict.
pub fn execute_patch(
    worker: &mut Worker,
    classpath: &[String],
    tests: &[TestRecord],
    patch: i32,
    phase: Phase,
) -> Execution {
    let mut rounds = 0;
    for t in tests {
        rounds += 1;
        let req = Request::RunTest {
            classpath: classpath.to_vec(),
            test: t.id.clone(),
            patch,
        };
        match worker.call(&req, Some(Duration::from_millis(t.timeout_ms))) {
            Ok(resp) => {
                let result = TestResult::parse_agent_line(
                    resp.lines.first().map(String::as_str).unwrap_or(""),
                );
                match result {
                    TestResult::Pass | TestResult::Skip => {}
                    TestResult::Error(why) => {
                        return Execution {
                            outcome: Outcome::new(Verdict::Error, phase)
                                .with_test(t.id.to_string())
                                .with_detail(format!("test could not run: {why}")),
                            rounds,
                        }
                    }
                    other => {
                        return Execution {
                            outcome: Outcome::new(Verdict::TestFailure, phase)
                                .with_test(t.id.to_string())
                                .with_detail(other.describe()),
                            rounds,
                        }
                    }
                }
            }
            Err(PoolError::Timeout(d)) => {
                return Execution {
                    outcome: Outcome::new(Verdict::Timeout, phase)
                        .with_test(t.id.to_string())
                        .with_detail(format!("no result after {} ms", d.as_millis())),
                    rounds,
                }
            }
            Err(PoolError::Died(why)) => {
                // The JVM running the test died: in a plain run the test's JVM dies too, so the test fails.
                return Execution {
                    outcome: Outcome::new(Verdict::TestFailure, phase)
                        .with_test(t.id.to_string())
                        .with_detail(format!("the JVM died during the test: {why}")),
                    rounds,
                };
            }
            Err(e) => {
                return Execution {
                    outcome: Outcome::new(Verdict::Error, phase)
                        .with_test(t.id.to_string())
                        .with_detail(e.to_string()),
                    rounds,
                }
            }
        }
    }
    Execution {
        outcome: Outcome::new(Verdict::Plausible, phase),
        rounds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TestId;

    fn rec(name: &str, passed: bool, millis: f64) -> TestRecord {
        TestRecord {
            id: TestId::parse(&format!("T#{name}")).unwrap(),
            passed,
            millis,
            timeout_ms: 5000,
            failure: None,
        }
    }

    #[test]
    fn triggers_first_then_fastest() {
        let state = State {
            project: crate::project::Project {
                root: "/".into(),
                source_dirs: vec![],
                test_dirs: vec![],
                resource_dirs: vec![],
                test_resource_dirs: vec![],
                classpath: vec![],
                release: "8".into(),
                encoding: "UTF-8".into(),
                jvm_options: vec![],
            },
            tools: crate::project::Toolchain {
                java_home: "/".into(),
                junit: vec![],
            },
            tests: vec![
                rec("slow", true, 9.0),
                rec("trig", false, 50.0),
                rec("fast", true, 1.0),
            ],
            excluded: vec![],
            init_seconds: 0.0,
        };
        let names: Vec<String> = ordered_tests(&state)
            .iter()
            .map(|t| t.id.method.clone())
            .collect();
        assert_eq!(names, ["trig", "fast", "slow"]);
    }
}
