//! End to end: `init` + `run` on the testdata fixtures through the real binary; verdicts equal the
//! verified expectations and the plain technique (the differential test); javac and JVM counts.

mod common;
use common::*;

fn check_fixture(name: &str) {
    let (_tmp, project) = fixture(name);
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let expected = expected(&project);

    let (out, fast) = run(&work, &project.join("patches"), "schemata", 2);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "run failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(fast.len(), expected.len());
    assert_eq!(
        stdout.lines().count(),
        expected.len(),
        "one human line per set:\n{stdout}"
    );

    let (_, plain) = run(&work, &project.join("patches"), "plain", 2);
    assert_eq!(plain.len(), fast.len());
    for (f, p) in fast.iter().zip(&plain) {
        assert_eq!(f.set_name(), p.set_name());
        // The differential test: accelerated verdicts equal plain verdicts.
        assert_eq!(
            f.succlist,
            p.succlist,
            "{}: schemata vs plain",
            f.set_name()
        );
        assert_eq!(
            &f.succlist,
            &expected[&f.set_name()],
            "{}: vs verified expectation",
            f.set_name()
        );
        assert_eq!(p.technique.as_deref(), Some("plain"));
        // javac runs once per set when every woven patch compiles, twice when some do not.
        let x = &f.extra;
        let javac = x["javac_invocations"].as_u64().unwrap();
        if f.technique.as_deref() == Some("schemata") {
            let woven_c = f.succlist.chars().filter(|&c| c == 'C').count() as u64;
            let fallback = x["fallback"].as_u64().unwrap();
            if woven_c == 0 {
                assert_eq!(javac, 1, "{}: {x}", f.set_name());
            } else if fallback == 0 {
                assert_eq!(javac, 2, "{}: {x}", f.set_name());
            }
        } else {
            assert_eq!(javac, 0);
        }
        assert_eq!(x["patches"].as_u64().unwrap() as usize, f.succlist.len());
    }
    // One JVM per worker for the whole run; each timeout restarts its worker exactly once.
    let mut per_worker: std::collections::BTreeMap<u64, (u64, u64)> = Default::default();
    for f in &fast {
        let e = per_worker
            .entry(f.extra["worker"].as_u64().unwrap())
            .or_default();
        e.0 = e.0.max(f.extra["worker_jvm_starts"].as_u64().unwrap());
        e.1 += f.succlist.matches('T').count() as u64;
    }
    for (worker, (starts, timeouts)) in per_worker {
        assert_eq!(starts, 1 + timeouts, "worker {worker}");
    }
}

#[test]
fn calc_fixture_matches_plain_and_expectations() {
    check_fixture("calc");
}

#[test]
fn textutil_fixture_matches_plain_and_expectations() {
    check_fixture("textutil");
}

#[test]
fn results_are_appended_and_details_written() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let set = project.join("patches/binsearch_return.json");
    for _ in 0..2 {
        let out = patchval(&[
            "run",
            "-w",
            work.to_str().unwrap(),
            "-j",
            "1",
            set.to_str().unwrap(),
        ]);
        assert!(out.status.success());
    }
    let lines = results(&work);
    assert_eq!(lines.len(), 2, "result.jsonl is appended to");
    assert_eq!(lines[0].succlist, lines[1].succlist);
    let details = std::fs::read_to_string(work.join("details.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(details.lines().next().unwrap()).unwrap();
    assert_eq!(first["patch"], 0);
    assert_eq!(first["verdict"], "s");
    let failing: Vec<serde_json::Value> = details
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &serde_json::Value| v["verdict"] == "F")
        .collect();
    assert!(failing
        .iter()
        .all(|v| v["test"].as_str().is_some_and(|t| t.contains('#'))));
    // Compile errors carry javac's message.
    assert!(details.contains("\"verdict\":\"C\""));
}

#[test]
fn a_glob_pattern_selects_sets() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let pattern = format!("{}/patches/acc_*.json", project.display());
    let out = patchval(&["run", "-w", work.to_str().unwrap(), &pattern]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let names: Vec<String> = results(&work).iter().map(|r| r.set_name()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.iter().all(|n| n.starts_with("acc_")));
}
