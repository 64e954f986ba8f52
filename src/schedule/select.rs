//! Test selection by coverage: which of the ordered tests a patch set runs (the trigger tests and
//! the passing tests that executed the patched method on the unpatched program), and which
//! outcomes of a selected run must be decided again over every test.

use crate::model::{Outcome, PatchSet, Verdict};
use crate::weave::member::{member_at, Member};
use crate::weave::members::changed_members;
use crate::workdir::coverage::Coverage;
use crate::workdir::coverage::Reach;
use crate::workdir::{State, TestRecord, WorkDir};

/// The tests one set runs.
#[derive(Debug, Clone)]
pub struct Selection {
    pub tests: Vec<TestRecord>,
    /// Passing tests left out (their baseline result stands for every patch of the set).
    pub skipped: usize,
    /// Position in the full order of the first test left out.
    pub first_skipped: Option<usize>,
    /// Why every test runs, when selection was not possible.
    pub all_because: Option<String>,
}

impl Selection {
    /// Every test, with the reason.
    pub fn all(tests: &[TestRecord], why: impl Into<String>) -> Selection {
        Selection {
            tests: tests.to_vec(),
            skipped: 0,
            first_skipped: None,
            all_because: Some(why.into()),
        }
    }
}

/// The tests of `tests` (in execution order) that can tell the patches of `set` apart from the
/// unpatched program, by `coverage` (docs/selection.md).
pub fn select(
    wd: &WorkDir,
    state: &State,
    coverage: Option<&Coverage>,
    tests: &[TestRecord],
    set: &PatchSet,
) -> Selection {
    let Some(coverage) = coverage else {
        return Selection::all(tests, "no coverage (`--all-tests`, or init recorded none)");
    };
    if set.edits_other_files() {
        return Selection::all(tests, "some patch edits more than one file");
    }
    let file = state.project.root.join(&set.filename);
    let main = state
        .project
        .source_dirs
        .iter()
        .any(|d| file.starts_with(state.project.root.join(d)));
    if !main {
        return Selection::all(tests, format!("{} is not a main source file", set.filename));
    }
    // The members the patches change: the one holding the location, or, for a location among
    // a class's members (two methods rewritten, a helper added), each one some patch changes.
    let (src, range) = (set.original_text(), set.unpatched_range());
    let members = match changed_members(&src, range.clone(), &set.patches) {
        Some(Ok(members)) => members,
        Some(Err(why)) => {
            return Selection::all(
                tests,
                format!("the location spans a class's members: {why}"),
            )
        }
        None => match member_at(&src, range) {
            Member::Method { class, method } => vec![(class, method)],
            Member::Unknown(why) => return Selection::all(tests, format!("the location is {why}")),
        },
    };
    let mut ids = std::collections::BTreeSet::new();
    for (class, method) in &members {
        // A name javac does not produce would select nothing: check it against the class file.
        let class_file = wd.classes().join(format!("{class}.class"));
        let declared = std::fs::read(&class_file)
            .ok()
            .and_then(|b| crate::bytecode::classfile::parse(&b).ok())
            .is_some_and(|c| c.methods.iter().any(|m| m.name == *method));
        if !declared {
            return Selection::all(
                tests,
                format!("{} declares no method `{method}`", class_file.display()),
            );
        }
        match coverage.reach(class, method) {
            Reach::All(why) => return Selection::all(tests, why),
            Reach::Methods(m) => ids.extend(m),
        }
    }
    let reach = Reach::Methods(ids);
    let keep: Vec<bool> = tests
        .iter()
        .map(|t| !t.passed || coverage.selects(&reach, &t.id.to_string()))
        .collect();
    Selection {
        tests: tests
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(t, _)| t.clone())
            .collect(),
        skipped: keep.iter().filter(|k| !**k).count(),
        first_skipped: keep.iter().position(|k| !k),
        all_because: None,
    }
}

impl Selection {
    /// Whether an outcome over the selected tests must be decided again over every test: it may
    /// owe something to time ([`owes_to_time`]) and a left-out test ran before its test in the
    /// full order `tests` (trigger tests, which come first, never have one before them).
    pub fn must_redo(&self, o: &Outcome, tests: &[TestRecord]) -> bool {
        let Some(first) = self.first_skipped else {
            return false;
        };
        owes_to_time(o)
            && o.test.as_deref().is_none_or(|name| {
                tests
                    .iter()
                    .position(|t| t.id.to_string() == name)
                    .is_none_or(|pos| pos > first)
            })
    }
}

/// Whether a verdict may owe something to the tests that ran before its test: a timeout, an
/// error, or a failure by a test's own time limit. A test's time depends on what ran before it in
/// the same JVM (locale data, JIT); everything else a test does depends only on the code it runs.
fn owes_to_time(o: &Outcome) -> bool {
    match o.verdict {
        Verdict::Timeout | Verdict::Error => true,
        Verdict::TestFailure => o.detail.as_deref().is_some_and(|d| {
            d.contains("TestTimedOutException")
                || d.contains("java.util.concurrent.TimeoutException")
                || d.contains("timed out after")
        }),
        Verdict::Plausible | Verdict::CompileError => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Phase, TestId};

    fn rec(name: &str, passed: bool) -> TestRecord {
        TestRecord {
            id: TestId::parse(name).unwrap(),
            passed,
            millis: 1.0,
            timeout_ms: 5000,
            failure: None,
            warm: true,
        }
    }

    fn timed_out_in(test: &str) -> Outcome {
        let mut o = Outcome::new(Verdict::Timeout, Phase::Execute);
        o.test = Some(test.into());
        o
    }

    #[test]
    fn a_timeout_is_redone_only_after_a_left_out_test() {
        let tests = [
            rec("a.T#trigger", false),
            rec("a.T#x", true),
            rec("a.T#y", true),
        ];
        let sel = Selection {
            tests: vec![tests[0].clone(), tests[2].clone()],
            skipped: 1,
            first_skipped: Some(1),
            all_because: None,
        };
        assert!(!sel.must_redo(&timed_out_in("a.T#trigger"), &tests));
        assert!(sel.must_redo(&timed_out_in("a.T#y"), &tests));
        let mut failed = timed_out_in("a.T#y");
        failed.verdict = Verdict::TestFailure;
        failed.detail = Some("java.lang.AssertionError: expected 1".into());
        assert!(!sel.must_redo(&failed, &tests), "a plain failure stands");
        failed.detail = Some(
            "org.junit.runners.model.TestTimedOutException: test timed out after 100 milliseconds"
                .into(),
        );
        assert!(
            sel.must_redo(&failed, &tests),
            "a failure by the test's own time limit"
        );
        assert!(!Selection::all(&tests, "x").must_redo(&timed_out_in("a.T#y"), &tests));
    }
}
