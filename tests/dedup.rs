//! Execution scheduling end to end: the equivalence-rich `dedup` fixture through the real binary;
//! verdicts equal plain validation with and without deduplication, rounds per test equal the
//! known number of test-equivalence classes, and deduplication saves rounds.

mod common;
use common::*;

#[test]
fn dedup_fixture_matches_plain_and_expectations() {
    let fast = check_fixture("dedup");
    assert!(
        fast.iter().all(|r| r.extra["tree_fallbacks"].is_null()),
        "no test should be unstable"
    );
    // `checked_exc`'s two `C` patches fail only in their context copies: javac leaves those out
    // of the one call's class files (agent `JavacPrune`), no second round.
    let checked = fast
        .iter()
        .find(|r| r.set_name() == "checked_exc.json")
        .expect("checked_exc.json");
    assert_eq!(
        checked.succlist.matches('C').count(),
        2,
        "{}",
        checked.succlist
    );
    assert_eq!(checked.extra["javac_invocations"], 1, "{}", checked.extra);
}

#[test]
fn deduplication_keeps_verdicts_and_saves_rounds() {
    let (_tmp, project) = fixture("dedup");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let (_, with) = run(&work, &project.join("patches"), "schemata", 2);
    let without = run_flags_ok(&work, &project.join("patches"), &["--no-dedup"], 2);
    assert_eq!(with.len(), without.len());
    let rounds =
        |r: &[ResultLine]| -> u64 { r.iter().map(|l| l.extra["rounds"].as_u64().unwrap()).sum() };
    for (a, b) in with.iter().zip(&without) {
        assert_eq!(a.succlist, b.succlist, "{}", a.set_name());
        assert_eq!(b.extra["tree_patches"], 0);
        assert!(
            a.extra["rounds"].as_u64() <= b.extra["rounds"].as_u64(),
            "{}: dedup {} rounds vs {}",
            a.set_name(),
            a.extra["rounds"],
            b.extra["rounds"]
        );
    }
    let (r_with, r_without) = (rounds(&with), rounds(&without));
    eprintln!("dedup fixture: {r_with} rounds with deduplication, {r_without} without");
    assert!(r_with * 2 < r_without, "{r_with} vs {r_without}");
}

/// The `known_classes` set, with the fixture's seeded bug fixed first so that every patch reaches
/// `KnownClassesTest#pickOnce`: its tree must take exactly one round per known class.
#[test]
fn rounds_equal_known_classes() {
    let (_tmp, project) = fixture("dedup");
    // Fix the seeded bug with the set's first (plausible) patch, so no trigger test stops the patches.
    let fix: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(project.join("patches/cond_rewrites.json")).unwrap(),
    )
    .unwrap();
    let fixed = format!(
        "{}{}{}",
        fix["context_above"].as_str().unwrap(),
        fix["patches"][0].as_str().unwrap(),
        fix["context_below"].as_str().unwrap()
    );
    std::fs::write(project.join(fix["filename"].as_str().unwrap()), fixed).unwrap();
    let known: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(project.join("known-classes.json")).unwrap())
            .unwrap();
    let test = known["test"].as_str().unwrap();
    let groups: Vec<Vec<usize>> = serde_json::from_value(known["classes"].clone()).unwrap();

    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let set = project.join("patches/known_classes.json");
    patchval_ok(&[
        "run",
        "-w",
        work.to_str().unwrap(),
        "-j",
        "1",
        set.to_str().unwrap(),
    ]);
    let r = &results(&work)[0];
    assert_eq!(
        r.extra["split_tests"][test],
        serde_json::json!([groups.len(), groups.len()]),
        "{}",
        r.extra
    );
    // Only that test tells the patches apart: every other test needs one round for all of them.
    let split = r.extra["split_tests"].as_object().unwrap();
    assert_eq!(split.len(), 1, "{}", r.extra);
    let tree_tests = r.extra["tree_tests"].as_u64().unwrap();
    assert_eq!(
        r.extra["classes"].as_u64().unwrap(),
        tree_tests - 1 + groups.len() as u64
    );
    // The classes are exported: each patch's run of the test in details.jsonl names its class's
    // first patch (`alike`); grouped by it, they are the known classes.
    let mut exported: std::collections::BTreeMap<u64, Vec<usize>> = Default::default();
    for d in latest_details(&work) {
        let patch = d["patch"].as_u64().unwrap();
        let run = d["runs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|run| run["test"] == test)
            .unwrap_or_else(|| panic!("patch {patch} did not run {test}: {d}"));
        let first = run["alike"].as_u64().unwrap_or(patch);
        exported.entry(first).or_default().push(patch as usize);
    }
    let mut exported: Vec<Vec<usize>> = exported.into_values().collect();
    let mut known = groups.clone();
    for g in exported.iter_mut().chain(known.iter_mut()) {
        g.sort();
    }
    exported.sort();
    known.sort();
    assert_eq!(exported, known, "exported classes of {test}");
    // Patches of one class share a verdict.
    let verdicts: Vec<char> = r.succlist.chars().collect();
    for g in &groups {
        assert!(
            g.iter().all(|&p| verdicts[p] == verdicts[g[0]]),
            "{g:?} in {}",
            r.succlist
        );
    }
}
