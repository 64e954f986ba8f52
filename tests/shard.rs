//! A run cut into shards (`run --shard K/N`) and put back together (`merge`): the merged record
//! equals one unsharded run (verdicts, details, totals), every set is in exactly one shard, the
//! shards' predicted costs are balanced, runs that do not belong together are refused with the
//! sets named, and a work dir copied to another path validates the same.

mod common;
use common::*;
use patchval::exit::ExitCode;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn file_name(v: &Value) -> String {
    Path::new(v["patches_path"].as_str().unwrap())
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// Set file → succlist, and (set file, patch) → verdict and failing test, of a record.
/// Set file → succlist, and (set file, patch) → verdict and failing test.
type Record = (
    BTreeMap<String, String>,
    BTreeMap<(String, u64), (String, String)>,
);

fn record(dir: &Path) -> Record {
    let sets = lines(&dir.join("result.jsonl"))
        .iter()
        .map(|l| (file_name(l), l["succlist"].as_str().unwrap().to_string()))
        .collect();
    let patches = lines(&dir.join("details.jsonl"))
        .iter()
        .map(|d| {
            (
                (file_name(d), d["patch"].as_u64().unwrap()),
                (
                    d["verdict"].as_str().unwrap().to_string(),
                    d["test"].as_str().unwrap_or_default().to_string(),
                ),
            )
        })
        .collect();
    (sets, patches)
}

fn meta(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap()
}

/// The run directories of `work`, oldest first.
fn runs(work: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(work.join("runs"))
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            p.file_name()?.to_str()?.parse::<u32>().ok()?;
            Some(p)
        })
        .collect();
    v.sort();
    v
}

fn run_shard(work: &Path, sets: &Path, shard: &str, extra: &[&str]) {
    let mut args = vec![
        "run",
        "-j",
        "2",
        "-w",
        work.to_str().unwrap(),
        "--shard",
        shard,
    ];
    args.extend(extra);
    args.push(sets.to_str().unwrap());
    let out = patchval(&args);
    assert_eq!(
        out.status.code(),
        Some(ExitCode::Ok.code()),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// An unsharded run of `sets`, then its `n` shards; returns the unsharded run's directory and
/// the shards', in shard order.
fn whole_then_shards(work: &Path, sets: &Path, n: usize) -> (PathBuf, Vec<PathBuf>) {
    patchval_ok(&[
        "run",
        "-j",
        "2",
        "-w",
        work.to_str().unwrap(),
        sets.to_str().unwrap(),
    ]);
    for k in 0..n {
        run_shard(work, sets, &format!("{k}/{n}"), &[]);
    }
    let all = runs(work);
    assert_eq!(all.len(), n + 1);
    (all[0].clone(), all[1..].to_vec())
}

/// The shards' predicted costs a partition recorded are each within 1.5x their mean.
fn assert_balanced(plan: &Value) {
    let costs: Vec<f64> = plan["costs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_f64().unwrap())
        .collect();
    let mean = costs.iter().sum::<f64>() / costs.len() as f64;
    assert!(
        costs.iter().all(|c| *c <= 1.5 * mean),
        "{costs:?} (mean {mean})"
    );
}

#[test]
fn merged_shards_equal_one_unsharded_run() {
    let (tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let sets = project.join("patches");
    let n = 3;
    let (whole, shard_runs) = whole_then_shards(&work, &sets, n);
    assert_eq!(shard_runs.len(), n);
    // Every set (or part of a set cut between shards) in exactly one shard, the one the
    // partition says, and the partition the same in every shard's record.
    let plan = meta(&shard_runs[0])["shard"].clone();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut origins = std::collections::BTreeSet::new();
    for (k, dir) in shard_runs.iter().enumerate() {
        let m = meta(dir);
        assert_eq!(m["shard"]["index"], k);
        assert_eq!(m["shard"]["sets"], plan["sets"]);
        for l in lines(&dir.join("result.jsonl")) {
            let key = l["key"].as_str().unwrap().to_string();
            assert_eq!(plan["sets"][&key], k, "{} in shard {k}", file_name(&l));
            let part = &plan["parts"][&key];
            origins.insert(if part.is_null() {
                file_name(&l)
            } else {
                file_name(&serde_json::json!({ "patches_path": part["path"] }))
            });
            let before = seen.insert(key, k);
            assert!(before.is_none(), "{} in two shards", file_name(&l));
        }
    }
    assert_eq!(seen.len(), plan["sets"].as_object().unwrap().len());
    assert_eq!(origins.len(), 7, "{origins:?}");
    // The predicted costs are balanced: the largest within 1.5x the mean.
    assert_balanced(&plan);

    let merged = tmp.path().join("merged");
    let mut args = vec!["merge", "--out", merged.to_str().unwrap()];
    // The order of the runs does not matter.
    let reversed: Vec<String> = shard_runs
        .iter()
        .rev()
        .map(|d| d.display().to_string())
        .collect();
    args.extend(reversed.iter().map(String::as_str));
    patchval_ok(&args);
    assert_eq!(record(&merged), record(&whole));
    let (m, w) = (meta(&merged), meta(&whole));
    assert_eq!(m["totals"]["sets"], w["totals"]["sets"]);
    assert_eq!(m["totals"]["verdicts"], w["totals"]["verdicts"]);
    assert_eq!(m["shards"], n);

    // Shards that do not belong together are refused, naming what is wrong.
    let refuse = |dirs: &[&Path], what: &str| {
        let out_dir = tmp.path().join("refused");
        let mut args = vec!["merge", "--out", out_dir.to_str().unwrap()];
        args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
        let out = patchval(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(ExitCode::Usage.code()), "{err}");
        assert!(err.contains(what), "{what}: {err}");
    };
    refuse(&[&shard_runs[0], &shard_runs[1]], "missing from every run");
    refuse(&[&shard_runs[0], &shard_runs[0], &shard_runs[2]], "twice");
    run_shard(&work, &sets, "0/3", &["--technique", "plain"]);
    let plain0 = runs(&work).last().unwrap().clone();
    refuse(
        &[&plain0, &shard_runs[1], &shard_runs[2]],
        "technique differs",
    );
    run_shard(&work, &sets, "0/2", &[]);
    let other = runs(&work).last().unwrap().clone();
    refuse(
        &[&other, &shard_runs[1], &shard_runs[2]],
        "another partition",
    );
}

#[test]
fn a_set_costlier_than_a_shards_share_is_cut_into_parts_and_joined_by_merge() {
    // Two sets over four shards: at least one of them costs half the run, four times a shard's
    // share of it, so a partition of whole sets could not balance the shards.
    let (tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let sets = tmp.path().join("two");
    std::fs::create_dir_all(&sets).unwrap();
    for f in ["binsearch_return.json", "acc_addall_continue.json"] {
        std::fs::copy(project.join("patches").join(f), sets.join(f)).unwrap();
    }
    let (whole, shard_runs) = whole_then_shards(&work, &sets, 4);
    let plan = meta(&shard_runs[0])["shard"].clone();
    let parts = plan["parts"].as_object().unwrap();
    assert!(!parts.is_empty(), "no set was cut: {plan}");
    // The parts of a set cover its patches once each, in order.
    let mut covered: BTreeMap<String, Vec<(u64, u64)>> = BTreeMap::new();
    for p in parts.values() {
        covered
            .entry(p["path"].as_str().unwrap().to_string())
            .or_default()
            .push((p["first"].as_u64().unwrap(), p["patches"].as_u64().unwrap()));
    }
    for (path, mut ranges) in covered {
        ranges.sort();
        let mut next = 0;
        for (first, len) in &ranges {
            assert_eq!(*first, next, "{path}: {ranges:?}");
            assert!(*len >= 1);
            next += len;
        }
        let total = serde_json::from_str::<Value>(&std::fs::read_to_string(&path).unwrap()).unwrap()
            ["patches"]
            .as_array()
            .unwrap()
            .len() as u64;
        assert_eq!(next, total, "{path}: {ranges:?}");
    }
    // With no set above half a share, the shards' predicted costs are within 1.5x the mean.
    assert_balanced(&plan);
    // Merged: the lines one unsharded run writes, each set whole under its own path.
    let merged = tmp.path().join("merged");
    let mut args = vec!["merge", "--out", merged.to_str().unwrap()];
    let dirs: Vec<String> = shard_runs.iter().map(|d| d.display().to_string()).collect();
    args.extend(dirs.iter().map(String::as_str));
    patchval_ok(&args);
    assert_eq!(record(&merged), record(&whole));
    let (m, w) = (meta(&merged), meta(&whole));
    assert_eq!(m["totals"]["sets"], 2);
    assert_eq!(m["totals"]["verdicts"], w["totals"]["verdicts"]);
    let keys = |dir: &Path| -> Vec<String> {
        let mut k: Vec<String> = lines(&dir.join("result.jsonl"))
            .iter()
            .map(|l| l["key"].as_str().unwrap().to_string())
            .collect();
        k.sort();
        k
    };
    assert_eq!(keys(&merged), keys(&whole));
    // A shard run again with --resume cuts the same parts and takes every result from before.
    run_shard(&work, &sets, "0/4", &["--resume"]);
    let again = runs(&work).last().unwrap().clone();
    assert_eq!(meta(&again)["shard"]["sets"], plan["sets"]);
    for l in lines(&again.join("result.jsonl")) {
        assert!(!l["resumed_from"].is_null(), "{l}");
    }
}

#[test]
fn a_work_dir_copied_to_another_path_validates_the_same() {
    let (tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let set = "patches/binsearch_return.json";
    patchval_ok(&[
        "run",
        "-w",
        work.to_str().unwrap(),
        project.join(set).to_str().unwrap(),
    ]);
    let here = record(&runs(&work)[0]);
    // Another machine: the work dir and the checkout at other paths; the old ones are gone.
    let node = tmp.path().join("node");
    // What travels: the work dir as init left it (not the workers' scratch copies or the link to
    // the latest run).
    std::fs::remove_dir_all(work.join("workers")).unwrap();
    std::fs::remove_file(work.join("runs/latest")).unwrap();
    copy_dir(&work, &node.join("w"));
    copy_dir(&project, &node.join("checkout"));
    std::fs::remove_dir_all(&project).unwrap();
    std::fs::remove_dir_all(&work).unwrap();
    let (w, p) = (node.join("w"), node.join("checkout"));
    let patches = p.join(set);
    let args = [
        "run",
        "-w",
        w.to_str().unwrap(),
        "--project-root",
        p.to_str().unwrap(),
        patches.to_str().unwrap(),
    ];
    patchval_ok(&args);
    let there = record(runs(&w).last().unwrap());
    assert_eq!(there, here);
}
