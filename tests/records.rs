//! Per-run records and `run --resume`: each run writes its own directory, `runs/latest` names the
//! newest, and a run killed with SIGKILL resumes to the results of an uninterrupted run, with
//! nothing lost and nothing counted twice.

mod common;
use common::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn name(v: &Value) -> String {
    let p = v["patches_path"].as_str().unwrap();
    p.rsplit('/').next().unwrap().to_string()
}

/// Set name → succlist of one run's record; every set at most once.
fn verdicts(run_dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for l in lines(&run_dir.join("result.jsonl")) {
        let before = out.insert(name(&l), l["succlist"].as_str().unwrap().to_string());
        assert!(
            before.is_none(),
            "{} twice in {}",
            name(&l),
            run_dir.display()
        );
    }
    out
}

fn run_cmd(work: &Path, patches: &Path, extra: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_patchval"));
    cmd.args(["run", "-j", "1", "-w", work.to_str().unwrap()])
        .args(extra)
        .arg(patches);
    if std::env::var_os("JAVA_HOME").is_none() {
        cmd.env("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64");
    }
    cmd
}

#[test]
fn each_run_has_its_own_record_and_latest_names_the_newest() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let set = project.join("patches/binsearch_return.json");
    for _ in 0..2 {
        let out = run_cmd(&work, &set, &[]).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let runs = work.join("runs");
    assert_eq!(
        std::fs::read_link(runs.join("latest")).unwrap(),
        Path::new("0002")
    );
    for id in ["0001", "0002"] {
        let r = lines(&runs.join(id).join("result.jsonl"));
        assert_eq!(r.len(), 1, "{id}");
        assert_eq!(r[0]["run"], id);
        assert!(
            r[0]["key"].as_str().is_some_and(|k| k.len() == 16),
            "{}",
            r[0]
        );
        let patches = r[0]["succlist"].as_str().unwrap().len();
        assert_eq!(lines(&runs.join(id).join("details.jsonl")).len(), patches);
        let meta: Value =
            serde_json::from_str(&std::fs::read_to_string(runs.join(id).join("run.json")).unwrap())
                .unwrap();
        assert_eq!(meta["technique"], "schemata");
        assert!(
            meta["argv"].as_array().is_some_and(|a| a.len() > 3),
            "{meta}"
        );
        assert!(meta["wall_seconds"].as_f64().is_some(), "{meta}");
        assert_eq!(meta["totals"]["sets"], 1);
    }
    // The work dir's own file still has every run's lines, each naming its run.
    let all = lines(&work.join("result.jsonl"));
    let ids: Vec<&str> = all.iter().map(|l| l["run"].as_str().unwrap()).collect();
    assert_eq!(ids, ["0001", "0002"]);
}

#[test]
fn a_run_killed_with_sigkill_resumes_to_the_uninterrupted_results() {
    let (_tmp, project) = fixture("calc");
    let patches = project.join("patches");
    // The reference: an uninterrupted run in a work dir of its own.
    let reference_work = project.parent().unwrap().join("reference");
    init(&project, &reference_work);
    let out = run_cmd(&reference_work, &patches, &[]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reference = verdicts(&reference_work.join("runs/0001"));
    assert_eq!(reference.len(), expected(&project).len());

    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let mut child = run_cmd(&work, &patches, &[])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let first = work.join("runs/0001/result.jsonl");
    let started = Instant::now();
    while lines(&first).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no set finished"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let done_before = lines(&first).len();
    assert!(
        done_before < reference.len(),
        "the run ended before it was killed"
    );
    // Its worker notices that the parent is gone and ends too.
    std::thread::sleep(Duration::from_millis(600));

    let out = run_cmd(&work, &patches, &["--resume"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let resumed_dir = work.join("runs/0002");
    assert_eq!(verdicts(&resumed_dir), reference);
    let resumed = lines(&resumed_dir.join("result.jsonl"));
    let reused = resumed
        .iter()
        .filter(|l| l["resumed_from"] == "0001")
        .count();
    assert_eq!(reused, lines(&first).len());
    let patch_count: usize = reference.values().map(String::len).sum();
    assert_eq!(lines(&resumed_dir.join("details.jsonl")).len(), patch_count);

    // Everything decided now: nothing is validated again, unless a set's content changed.
    let changed = patches.join("binsearch_return.json");
    let text = std::fs::read_to_string(&changed).unwrap();
    std::fs::write(&changed, format!("{text}\n")).unwrap();
    let out = run_cmd(&work, &patches, &["--resume"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(verdicts(&work.join("runs/0003")), reference);
    for l in lines(&work.join("runs/0003/result.jsonl")) {
        let again = name(&l) == "binsearch_return.json";
        assert_eq!(l["resumed_from"].is_null(), again, "{l}");
    }
    assert_eq!(
        stdout.matches("resumed from run").count(),
        reference.len() - 1,
        "{stdout}"
    );
}
