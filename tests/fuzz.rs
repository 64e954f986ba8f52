//! The differential fuzzer, bounded (the long run is `scripts/fuzz.sh`): `patchval fuzz` on the
//! `calc` and `dedup` fixtures generates patch sets at random statements, validates them with the
//! default technique, `--no-dedup` and plain, and must find no disagreement; it must really have
//! generated and run patches (several operators, several verdict letters, the tree path taken).

mod common;
use common::*;
use patchval::exit::ExitCode;
use std::collections::{BTreeMap, BTreeSet};

/// `init` + `fuzz` on a fresh copy of a fixture; returns the summary and the fuzzer's stdout.
fn fuzz(name: &str, seed: u64, locations: usize, patches: usize) -> (serde_json::Value, String) {
    let (tmp, project) = fixture(name);
    let work = tmp.path().join("work");
    init(&project, &work);
    let out_dir = tmp.path().join("fuzz");
    let out = patchval(&[
        "fuzz",
        "--work-dir",
        work.to_str().unwrap(),
        "--seed",
        &seed.to_string(),
        "--locations",
        &locations.to_string(),
        "--patches",
        &patches.to_string(),
        "-j",
        "2",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    println!("{name}:\n{stdout}");
    assert!(
        out.status.success(),
        "{name}: fuzz exited {:?} ({} = disagreements):\n{stdout}\n{}",
        out.status.code(),
        ExitCode::Disagreement.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap())
            .unwrap();
    // Every generated set is a valid manifest of the fixture's own file.
    let sets: Vec<_> = std::fs::read_dir(out_dir.join("sets"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(sets.len() as u64, summary["sets"].as_u64().unwrap());
    for s in &sets {
        let m: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(s).unwrap()).unwrap();
        let file = std::fs::read_to_string(project.join(m["filename"].as_str().unwrap())).unwrap();
        let whole = [&m["context_above"], &m["unpatched"], &m["context_below"]]
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect::<String>();
        assert_eq!(whole, file, "{}", s.display());
    }
    // The fuzzer's runs stay out of the user's work dir.
    assert!(!work.join("result.jsonl").exists());
    // Its default and `--no-dedup` runs select tests by init's coverage, as a user's `run` does
    // (so the comparison with plain checks the selection too).
    let results = std::fs::read_to_string(out_dir.join("work/result.jsonl")).unwrap();
    let accelerated: Vec<serde_json::Value> = results
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r["technique"] != "plain")
        .collect();
    assert!(!accelerated.is_empty(), "{results}");
    for r in &accelerated {
        let why = r["extra"]["all_tests_because"].as_str().unwrap_or("");
        assert!(!why.starts_with("no coverage"), "{name}: {r}");
    }
    (summary, stdout)
}

#[test]
fn fuzzing_calc_and_dedup_finds_no_disagreement() {
    let mut letters: BTreeSet<String> = BTreeSet::new();
    let mut ops: BTreeSet<String> = BTreeSet::new();
    let (mut total, mut woven, mut tree) = (0, 0, 0);
    for (name, seed) in [("calc", 3), ("dedup", 4)] {
        let (s, stdout) = fuzz(name, seed, 5, 6);
        assert_eq!(s["disagreements"].as_array().unwrap().len(), 0, "{stdout}");
        let patches = s["patches"].as_u64().unwrap();
        assert!(s["sets"].as_u64().unwrap() >= 4 && patches >= 25, "{s}");
        assert!(s["sets_in_loops"].as_u64().unwrap() >= 1, "{s}");
        for (tech, counts) in s["counts"].as_object().unwrap() {
            let counts: BTreeMap<String, u64> = serde_json::from_value(counts.clone()).unwrap();
            assert_eq!(counts.values().sum::<u64>(), patches, "{tech}: {s}");
            letters.extend(counts.keys().cloned());
        }
        ops.extend(s["ops"].as_object().unwrap().keys().cloned());
        total += patches;
        woven += s["woven"].as_u64().unwrap();
        tree += s["tree_patches"].as_u64().unwrap();
    }
    eprintln!(
        "fuzzed {total} patches; verdicts {letters:?}; operators {ops:?}; tree {tree}/{woven}"
    );
    // 2 fixtures x 5 locations x 6 patches asked for; a location whose operators give fewer
    // distinct patches (a hole family dedups against the others) leaves the run a few short.
    assert!((50..=120).contains(&total), "{total}");
    assert!(letters.len() >= 3, "{letters:?}");
    assert!(ops.len() >= 6, "{ops:?}");
    assert!(woven > 0 && tree > 0, "tree {tree} of {woven} woven");
}

#[test]
fn fuzz_needs_an_initialised_work_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let out = patchval(&[
        "fuzz",
        "--work-dir",
        tmp.path().join("none").to_str().unwrap(),
        "--out",
        tmp.path().join("out").to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(ExitCode::Environment.code()),
        "{out:?}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("patchval init"), "{err}");
}
