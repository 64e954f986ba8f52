//! Messages between the parent and a worker process: one JSON object per line each way.
//! (What a worker says to the agent inside its JVM is `crate::protocol`.)

use crate::model::TestId;
use crate::protocol::op;
use serde::{Deserialize, Serialize};

/// What the parent asks a worker to do.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// List the runnable test methods of these classes.
    ListTests {
        classpath: Vec<String>,
        classes: Vec<String>,
    },
    /// Run one test with `patch` selected at every patched location: in a fresh class loader,
    /// or with `warm` in the worker's warm loader over the same class path (static state reset).
    RunTest {
        classpath: Vec<String>,
        test: TestId,
        patch: i32,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        warm: bool,
        /// With `warm`: record which methods of the classes in this directory the test executes
        /// (init's warm pass); the result line is followed by the agent's coverage lines.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        coverage: Option<String>,
    },
    /// Run one test over the state-transition tree of `patches` (tree-eligible, all woven):
    /// one round per test-equivalence class; each round is reported as it ends.
    RunTree {
        classpath: Vec<String>,
        test: TestId,
        patches: Vec<u32>,
        /// The most time capturing may take over all rounds before the tree is given up.
        #[serde(default)]
        capture_budget_ms: u64,
        /// Rounds run in the worker's warm loader (as in `RunTest`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        warm: bool,
    },
    /// Compile source files in-process (javax.tools).
    Compile {
        options: Vec<String>,
        files: Vec<String>,
        /// Methods of the first file (first and last line, 1-based) javac may leave out of the
        /// class files when every error lies inside them (the agent's `JavacPrune`); empty: none.
        prunable: Vec<(usize, usize)>,
        /// Methods of the first file never run (context copies), left out of the class files
        /// whenever methods can be.
        unused: Vec<(usize, usize)>,
    },
    /// Parse source files only and report syntax errors.
    ParseCheck { files: Vec<String> },
}

impl Request {
    /// The agent call this request maps to: an operation of `protocol::op`, then its arguments.
    pub fn agent_args(&self) -> Vec<String> {
        fn with_lists(op: &str, lists: &[&[String]], tail: &[&str]) -> Vec<String> {
            let mut v = vec![op.to_string()];
            for l in lists {
                v.push(l.len().to_string());
                v.extend(l.iter().cloned());
            }
            v.extend(tail.iter().map(|s| s.to_string()));
            v
        }
        match self {
            Request::ListTests { classpath, classes } => {
                with_lists(op::LIST_TESTS, &[classpath, classes], &[])
            }
            Request::RunTest {
                classpath,
                test,
                coverage: Some(dir),
                ..
            } => with_lists(
                op::RUN_TEST_COVERED,
                &[classpath],
                &[dir, &test.class, &test.method],
            ),
            Request::RunTest {
                classpath,
                test,
                warm,
                ..
            }
            | Request::RunTree {
                classpath,
                test,
                warm,
                ..
            } => {
                let op = if *warm {
                    op::RUN_TEST_WARM
                } else {
                    op::RUN_TEST
                };
                with_lists(op, &[classpath], &[&test.class, &test.method])
            }
            Request::Compile {
                options,
                files,
                prunable,
                unused,
            } => {
                let pairs = |v: &[(usize, usize)]| -> Vec<String> {
                    v.iter()
                        .flat_map(|&(a, b)| [a.to_string(), b.to_string()])
                        .collect()
                };
                with_lists(
                    op::COMPILE,
                    &[options, files, &pairs(prunable), &pairs(unused)],
                    &[],
                )
            }
            Request::ParseCheck { files } => with_lists(op::PARSE_CHECK, &[files], &[]),
        }
    }
}

/// A worker's answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Response {
    /// More answers to the same request follow (a tree round ended).
    #[serde(default)]
    pub partial: bool,
    /// The agent's result lines.
    pub lines: Vec<String>,
    /// Wall time of the request inside the worker, in microseconds.
    pub micros: u64,
    /// Set when the request could not be carried out.
    pub error: Option<String>,
    /// Set when the worker itself failed during the request (a panic inside a native): the
    /// answer cannot be trusted and the worker must be restarted. Not a verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
}
