//! Per-test detail in `details.jsonl`: every patch lists the tests run for it, in order, with their
//! times (the passed ones, then the one it failed); `run --matrix` runs every test for every patch
//! without changing a verdict, and its kill matrix is plain's.

mod common;
use common::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The tests in the order every technique runs them: those failing on the unpatched program
/// first, then the rest in the baseline's order.
fn order(work: &Path) -> Vec<String> {
    let mut tests = state_tests(work);
    tests.sort_by_key(|(_, passed)| *passed);
    tests.into_iter().map(|(n, _)| n).collect()
}

/// One patch's runs: (test, how it failed if it did).
type Runs = Vec<(String, Option<String>)>;

/// Verdict letter and runs of every patch in the latest run's record, by patch number.
fn details(work: &Path) -> BTreeMap<u64, (String, Runs)> {
    let text = std::fs::read_to_string(work.join("runs/latest/details.jsonl")).unwrap();
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let d: Value = serde_json::from_str(line).unwrap();
        let runs = d["runs"].as_array().cloned().unwrap_or_default();
        let runs: Runs = runs
            .iter()
            .map(|r| {
                let ms = r["ms"].as_f64().unwrap();
                assert!(ms > 0.0, "a run without a time: {d}");
                (
                    r["test"].as_str().unwrap().to_string(),
                    r["failed"].as_str().map(str::to_string),
                )
            })
            .collect();
        let verdict = d["verdict"].as_str().unwrap().to_string();
        let before = out.insert(d["patch"].as_u64().unwrap(), (verdict, runs));
        assert!(before.is_none(), "a patch twice: {d}");
    }
    out
}

/// Checks the runs of a run stopping at each patch's first failure against its verdicts: a
/// plausible patch passed every run, a failing one passed every run but its last, the test its
/// outcome names; the runs follow `order` (all of it when `every_test`).
fn check_first_failure_runs(
    work: &Path,
    details: &BTreeMap<u64, (String, Runs)>,
    order: &[String],
    every_test: bool,
    how: &str,
) {
    let text = std::fs::read_to_string(work.join("runs/latest/details.jsonl")).unwrap();
    let failed_test: BTreeMap<u64, Option<String>> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|d| {
            (
                d["patch"].as_u64().unwrap(),
                d["test"].as_str().map(str::to_string),
            )
        })
        .collect();
    for (p, (verdict, runs)) in details {
        let names: Vec<&String> = runs.iter().map(|(t, _)| t).collect();
        let mut at = order.iter();
        assert!(
            names.iter().all(|n| at.any(|o| o == *n)),
            "{how}, patch {p}: runs out of order: {names:?}"
        );
        match verdict.as_str() {
            "s" => {
                assert!(runs.iter().all(|(_, f)| f.is_none()), "{how} {p}: {runs:?}");
                if every_test {
                    assert_eq!(runs.len(), order.len(), "{how}, patch {p}");
                }
                assert!(!runs.is_empty(), "{how}, patch {p}");
            }
            "F" | "T" => {
                let (last, failed) = runs.last().expect("the failing run");
                assert!(failed.is_some(), "{how}, patch {p}: {runs:?}");
                assert_eq!(Some(last), failed_test[p].as_ref(), "{how}, patch {p}");
                let before = &runs[..runs.len() - 1];
                assert!(
                    before.iter().all(|(_, f)| f.is_none()),
                    "{how} {p}: {runs:?}"
                );
            }
            _ => assert!(runs.is_empty(), "{how}, patch {p}: {runs:?}"),
        }
    }
}

/// The pass/fail matrix: (patch, test) → failed.
fn matrix(details: &BTreeMap<u64, (String, Runs)>) -> BTreeMap<(u64, String), bool> {
    details
        .iter()
        .flat_map(|(p, (_, runs))| {
            runs.iter()
                .map(move |(t, f)| ((*p, t.clone()), f.is_some()))
        })
        .collect()
}

#[test]
fn every_patch_lists_its_runs_and_the_matrix_is_plains() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let order = order(&work);
    let set = project.join("patches/binsearch_return.json");
    let expected = expected(&project)["binsearch_return.json"].clone();

    for (flags, every_test) in [
        (&["--technique", "plain"][..], true),
        (&[][..], false),
        (&["--all-tests"][..], true),
    ] {
        let r = run_flags_ok(&work, &set, flags, 1);
        assert_eq!(r[0].succlist, expected, "{flags:?}");
        let d = details(&work);
        assert_eq!(d.len(), expected.len(), "{flags:?}");
        check_first_failure_runs(&work, &d, &order, every_test, &format!("{flags:?}"));
    }

    let mut matrices: Vec<BTreeMap<(u64, String), bool>> = Vec::new();
    for flags in [
        &["--technique", "plain", "--matrix"][..],
        &["--all-tests", "--matrix"][..],
        &["--matrix", "--no-dedup", "--all-tests"][..],
        &["--matrix"][..],
    ] {
        let r = run_flags_ok(&work, &set, flags, 2);
        assert_eq!(
            r[0].succlist, expected,
            "{flags:?}: a matrix changes no verdict"
        );
        let d = details(&work);
        for (p, (verdict, runs)) in &d {
            if verdict == "C" {
                assert!(runs.is_empty(), "{flags:?} {p}");
                continue;
            }
            let names: Vec<&String> = runs.iter().map(|(t, _)| t).collect();
            if flags.contains(&"--all-tests") || flags.contains(&"plain") {
                assert_eq!(
                    names,
                    order.iter().collect::<Vec<_>>(),
                    "{flags:?}, patch {p}"
                );
            }
            // The verdict is the first failure in the order.
            let first = runs.iter().find(|(_, f)| f.is_some());
            assert_eq!(
                first.is_none(),
                verdict == "s",
                "{flags:?}, patch {p}: {runs:?}"
            );
        }
        if !flags.contains(&"--all-tests") && !flags.contains(&"plain") {
            // Selected tests only: each of them, for every patch, as in the full matrix.
            let full = &matrices[1];
            for (key, failed) in matrix(&d) {
                assert_eq!(full.get(&key), Some(&failed), "{flags:?}: {key:?}");
            }
            continue;
        }
        matrices.push(matrix(&d));
    }
    assert_eq!(
        matrices[0], matrices[1],
        "the default's kill matrix is plain's"
    );
    assert_eq!(
        matrices[0], matrices[2],
        "--no-dedup's kill matrix is plain's"
    );
    let kills = matrices[0].values().filter(|f| **f).count();
    assert!(
        kills > expected.matches('F').count(),
        "the matrix shows later failures too ({kills} kills)"
    );
}
