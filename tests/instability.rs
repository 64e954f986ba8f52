//! Plain's own instability (docs/execution.md): on `testdata/unstable`, whose `ChanceTest` fails
//! as many times as the file named by `UNSTABLE_FAILURES` says, a plain `F` that does not hold when
//! its test runs alone in a fresh JVM is reported unstable, and the differential comparison, which
//! validates a disagreement again with plain, does not count it; a disagreement plain repeats still
//! fails the comparison.

mod common;
use common::*;
use std::path::{Path, PathBuf};

/// The fixture initialised without `UNSTABLE_FAILURES` (every test but the trigger tests passes),
/// its set's default verdicts checked against the verified ones; returns (guard, work dir, set,
/// the default's verdicts).
fn initialised() -> (tempfile::TempDir, PathBuf, PathBuf, String) {
    let (tmp, project) = fixture("unstable");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let set = project.join("patches/span_count.json");
    let expected = expected(&project)["span_count.json"].clone();
    let default = run_flags_ok(&work, &set, &[], 2);
    assert_eq!(default[0].succlist, expected, "default vs verified");
    (tmp, work, set, expected)
}

/// Plain on the set, `-j 1` so its first plausible patch (the fix, patch 0) is the first to reach
/// `ChanceTest`, with `UNSTABLE_FAILURES` naming a file that holds `failures`.
fn plain_with_failures(work: &Path, set: &Path, failures: &str) -> (ResultLine, String) {
    let file = work.join("failures.txt");
    std::fs::write(&file, failures).unwrap();
    // In this process too: plain validating a disagreement again runs here (plain_disagreements).
    std::env::set_var("UNSTABLE_FAILURES", &file);
    let _ = std::fs::remove_file(work.join("result.jsonl"));
    let out = patchval_env(
        &[
            "run",
            "--work-dir",
            work.to_str().unwrap(),
            "-j",
            "1",
            "--technique",
            "plain",
            set.to_str().unwrap(),
        ],
        &[("UNSTABLE_FAILURES", file.to_str().unwrap())],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (results(work).remove(0), stdout)
}

#[test]
fn a_plain_failure_by_chance_is_unstable_and_not_a_disagreement() {
    let (_tmp, work, set, expected) = initialised();
    // Two failures to come: the fix fails ChanceTest in plain's order and once more in that JVM
    // (the confirmation of a failure), then passes alone in a fresh JVM.
    let (plain, stdout) = plain_with_failures(&work, &set, "2");
    assert_eq!(&plain.succlist[..1], "F", "{plain:?}");
    assert_eq!(&plain.succlist[1..], &expected[1..], "{plain:?}");
    let notes: Vec<&str> = plain.extra["unstable"]
        .as_array()
        .unwrap_or_else(|| panic!("no unstable verdict: {}", plain.extra))
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    let note = notes[0];
    assert!(
        note.contains("ChanceTest#walksEveryZone")
            && note.contains("failed by chance")
            && note.contains("unpatched passed, patched passed")
            && note.ends_with("(patch 0)"),
        "{note}"
    );
    // The result's human line says so, and the patch's detail line carries the evidence.
    assert!(
        stdout.contains("unstable: org.example.unstable.ChanceTest#walksEveryZone"),
        "{stdout}"
    );
    let details = latest_details(&work);
    let u = &details[0]["unstable"];
    assert_eq!(
        u["test"], "org.example.unstable.ChanceTest#walksEveryZone",
        "{u}"
    );
    assert_eq!(u["patched_alone"], "passed", "{u}");
    assert!(details[1..].iter().all(|d| d["unstable"].is_null()));
    // The comparison with the default validates patch 0 again with plain (the file now holds 0):
    // plain gives `s` then, so the disagreement is plain's instability and does not count.
    let real = plain_disagreements(&work, &set, &expected, &plain.succlist);
    assert!(real.is_empty(), "{real:?}");
}

#[test]
#[should_panic(expected = "real disagreement with plain")]
fn a_disagreement_plain_repeats_still_fails_the_differential_test() {
    let (_tmp, work, set, expected) = initialised();
    // Failures that never end: plain fails the plausible patches every time, in its order and
    // alone (where the unpatched program fails the test too, which the evidence says). That is
    // plain's verdict, repeated when validated again: a real disagreement with the default's `s`.
    let (plain, _) = plain_with_failures(&work, &set, "1000000");
    assert_eq!(plain.succlist, "FFFFCFF", "{plain:?}");
    let notes = plain.extra["unstable"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(notes.len(), 3, "{}", plain.extra);
    assert!(
        notes
            .iter()
            .all(|n| n.as_str().unwrap_or("").contains("unpatched failed")),
        "{notes:?}"
    );
    // The differential test's own assertion, as check_fixture makes it: it must fail.
    assert_agrees_with_plain(&work, &set, &expected, &plain.succlist);
}

#[test]
fn init_leaves_out_a_test_that_fails_in_plains_order() {
    let (_tmp, project) = fixture("envdep");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("state.json")).unwrap()).unwrap();
    let excluded: Vec<(String, String)> = state["excluded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e[0].as_str().unwrap().to_string(),
                e[1].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let audit = excluded
        .iter()
        .find(|(id, _)| id == "org.example.envdep.AuditTest#noModeSet")
        .unwrap_or_else(|| panic!("AuditTest#noModeSet not left out: {excluded:?}"));
    assert!(
        audit.1.contains("depends on its environment")
            && audit.1.contains("java.security.Security.getProperty")
            && audit.1.contains("passes alone in a fresh JVM"),
        "{}",
        audit.1
    );
    assert_eq!(excluded.len(), 1, "{excluded:?}");
    let kept: Vec<(String, bool)> = state_tests(&work);
    assert_eq!(kept.len(), 4, "{kept:?}");
    assert!(kept
        .iter()
        .any(|(id, _)| id.ends_with("ProviderTest#sunProviderIsThere")));
    // Without it, the three techniques agree with the verified verdicts; with it, plain would have
    // failed every patch in its order.
    let set = project.join("patches/ratio_percent.json");
    let expected = expected(&project)["ratio_percent.json"].clone();
    for flags in [&[][..], &["--no-dedup"], &["--technique", "plain"]] {
        let r = run_flags_ok(&work, &set, flags, 2);
        assert_eq!(r[0].succlist, expected, "{flags:?}");
    }
}
