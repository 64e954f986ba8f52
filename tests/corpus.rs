//! The real-project corpus (corpus/README.md): for each project `scripts/corpus.sh` prepared in
//! `$PATCHVAL_CORPUS`, `init` (printing tests discovered, baseline failures and init time), then the
//! seeded bug's patch set with the default and with `--no-dedup`: each equal to plain's recorded
//! verdicts (which `scripts/corpus-plain.sh` checks with plain whenever the set or the project
//! changes, and this test refuses when it has not), the fix `s`; and plain itself on a sample of
//! the patches, equal to the recorded verdicts where it repeats its own. Without
//! `PATCHVAL_CORPUS` (or without its `READY` file) the test prints why it skips and passes at
//! once, so `cargo nextest run` stays fast.
//!
//!     scripts/corpus.sh && PATCHVAL_CORPUS=~/.cache/patchval-corpus \
//!         cargo nextest run --release --test corpus --no-capture
//!
//! `PATCHVAL_CORPUS_ONLY=joda-time,...` restricts the projects; `PATCHVAL_CORPUS_SAMPLE=all` (or a
//! number) and `PATCHVAL_CORPUS_SEED=N` choose plain's sample.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The prepared cache and its projects, or the message saying why the corpus test is skipped.
fn corpus(var: Option<std::ffi::OsString>) -> Result<(PathBuf, Vec<String>), String> {
    let Some(dir) = var.filter(|v| !v.is_empty()) else {
        return Err(
            "skipping the real-project corpus: PATCHVAL_CORPUS is not set (prepare it with scripts/corpus.sh)"
                .into(),
        );
    };
    let dir = PathBuf::from(dir);
    let ready = std::fs::read_to_string(dir.join("READY")).map_err(|_| {
        format!(
            "skipping the real-project corpus: {} has no READY file (run scripts/corpus.sh)",
            dir.display()
        )
    })?;
    let names: Vec<String> = ready
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    if names.is_empty() {
        return Err(format!(
            "skipping the real-project corpus: {}/READY lists no project",
            dir.display()
        ));
    }
    Ok((dir, names))
}

#[test]
fn skip_message_names_the_variable_and_the_script() {
    let msg = corpus(None).unwrap_err();
    assert!(msg.starts_with("skipping"), "{msg}");
    assert!(
        msg.contains("PATCHVAL_CORPUS") && msg.contains("scripts/corpus.sh"),
        "{msg}"
    );
    let empty = tempfile::tempdir().unwrap();
    let msg = corpus(Some(empty.path().into())).unwrap_err();
    assert!(msg.contains("no READY file"), "{msg}");
}

#[test]
fn real_projects_match_plain() {
    let (dir, mut names) = match corpus(std::env::var_os("PATCHVAL_CORPUS")) {
        Ok(c) => c,
        Err(msg) => {
            // Printed (nextest shows it with --no-capture or on failure), then pass quickly.
            println!("{msg}");
            eprintln!("{msg}");
            return;
        }
    };
    if let Ok(only) = std::env::var("PATCHVAL_CORPUS_ONLY") {
        let only: Vec<&str> = only.split(',').collect();
        names.retain(|n| only.contains(&n.as_str()));
    }
    let started = Instant::now();
    let mut summary = Vec::new();
    for name in &names {
        summary.push(check_project(&dir, name));
    }
    println!(
        "\n== corpus summary ({:.0} s in all)",
        started.elapsed().as_secs_f64()
    );
    for line in summary {
        println!("{line}");
    }
}

/// init, the default and `--no-dedup` against plain's recorded verdicts, plain on a sample; returns
/// its summary line.
fn check_project(dir: &Path, name: &str) -> String {
    let project = dir.join("src").join(name);
    let set = dir.join("patches").join(format!("{name}.json"));
    let expected = std::fs::read_to_string(dir.join("patches").join(format!("{name}.expected")))
        .unwrap_or_else(|e| panic!("{name}: expected verdicts: {e}"))
        .trim()
        .to_string();
    // The recorded verdicts hold for this set and project only when plain checked them for it.
    let stamp = read(&dir.join("patches").join(format!("{name}.stamp")));
    let checked = read(&dir.join("patches").join(format!("{name}.plain")));
    let (checked_stamp, checked_verdicts) = checked.split_once(' ').unwrap_or(("", ""));
    assert!(
        checked_stamp == stamp && checked_verdicts == expected,
        "{name}: plain has not checked the recorded verdicts {expected} for this set and project \
         (stamp {stamp}; plain_checked: {checked:?}): run scripts/corpus-plain.sh {name}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");

    println!("\n== {name}: patchval init");
    let t = Instant::now();
    let out = patchval(&[
        "init",
        "--project",
        project.to_str().unwrap(),
        "--work-dir",
        work.to_str().unwrap(),
    ]);
    let init_s = t.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "{name}: init failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("state.json")).unwrap()).unwrap();
    let tests = state["tests"].as_array().unwrap();
    let failing: Vec<String> = tests
        .iter()
        .filter(|t| t["passed"] == false)
        .map(|t| {
            format!(
                "{}#{}: {}",
                t["id"]["class"].as_str().unwrap_or("?"),
                t["id"]["method"].as_str().unwrap_or("?"),
                t["failure"]
                    .as_str()
                    .unwrap_or("")
                    .chars()
                    .take(160)
                    .collect::<String>()
            )
        })
        .collect();
    let excluded = state["excluded"].as_array().map(Vec::len).unwrap_or(0);
    let test_ms: f64 = tests.iter().filter_map(|t| t["millis"].as_f64()).sum();
    println!(
        "{name}: {} tests discovered, {} failing on the buggy program, {excluded} excluded; \
         init {init_s:.1} s (tests {:.1} s)",
        tests.len(),
        failing.len(),
        test_ms / 1000.0
    );
    for f in &failing {
        println!("  baseline failure {f}");
    }
    assert!(!failing.is_empty(), "{name}: the seeded bug breaks no test");
    let balance = shard_balance(&work, name);

    let mut summary = Vec::new();
    for (label, flags) in [("default", &[][..]), ("--no-dedup", &["--no-dedup"][..])] {
        let t = Instant::now();
        let (out, lines) = run_flags(&work, &set, flags, 2);
        let secs = t.elapsed().as_secs_f64();
        assert_eq!(
            lines.len(),
            1,
            "{name} {label}: one result line\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let r = &lines[0];
        assert!(r.error.is_none(), "{name} {label}: {:?}", r.error);
        println!(
            "{name} {label}: {} in {secs:.1} s (technique {:?}, {} rounds, javac x{})",
            r.succlist,
            r.technique.as_deref().unwrap_or("-"),
            r.extra["rounds"],
            r.extra["javac_invocations"]
        );
        print_details(&work, r);
        // The differential test on a real project, against plain's recorded verdicts.
        assert_eq!(
            r.succlist, expected,
            "{name} {label}: vs plain's recorded verdicts"
        );
        summary.push(format!("{label} {} {secs:.1} s", r.succlist));
    }
    assert_eq!(
        expected.chars().next(),
        Some('s'),
        "{name}: the fix (patch 0) must be plausible"
    );
    summary.push(plain_sample(&work, &set, name, &expected));
    format!(
        "{name}: {} tests, {} baseline failures, init {init_s:.0} s; {}; {balance}",
        tests.len(),
        failing.len(),
        summary.join(", ")
    )
}

/// A prepared file's text, trimmed.
fn read(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (prepare the corpus with scripts/corpus.sh)",
                path.display()
            )
        })
        .trim()
        .to_string()
}

/// Which test decided each verdict of `r` (details.jsonl is appended to: its lines are last).
fn print_details(work: &Path, r: &ResultLine) {
    for f in r.extra["flaky"].as_array().into_iter().flatten() {
        println!("  flaky: {}", f.as_str().unwrap_or(""));
    }
    let details = std::fs::read_to_string(work.join("details.jsonl")).unwrap_or_default();
    let lines: Vec<&str> = details.lines().collect();
    for l in &lines[lines.len().saturating_sub(r.succlist.len())..] {
        let v: serde_json::Value = serde_json::from_str(l).unwrap_or_default();
        println!(
            "  patch {} {} {} {}",
            v["patch"],
            v["verdict"].as_str().unwrap_or("?"),
            v["test"].as_str().unwrap_or(""),
            v["detail"]
                .as_str()
                .unwrap_or("")
                .chars()
                .take(160)
                .collect::<String>()
        );
    }
}

/// Plain validation itself on a sample of the set's patches (`PATCHVAL_CORPUS_SAMPLE` of them,
/// default 2, `all` for every one; chosen by `PATCHVAL_CORPUS_SEED`, default `common::plain_seed`, so
/// that the sample goes round the set from one day to the next): its verdicts must be the recorded
/// ones, where plain repeats its own (`common::assert_agrees_with_plain`). The whole set is plain's
/// to check in `scripts/corpus-plain.sh`. Returns the summary's words.
fn plain_sample(work: &Path, set: &Path, name: &str, expected: &str) -> String {
    let n = expected.chars().count();
    let size = match std::env::var("PATCHVAL_CORPUS_SAMPLE").ok().as_deref() {
        Some("all") => n,
        Some(k) => k.parse().unwrap_or(2),
        None => 2,
    }
    .min(n);
    let seed = std::env::var("PATCHVAL_CORPUS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(plain_seed);
    let sample = sample_indices(name, n, size, seed);
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(set).unwrap()).unwrap();
    let patches = manifest["patches"].as_array().unwrap().clone();
    manifest["patches"] = sample.iter().map(|&i| patches[i].clone()).collect();
    let sub = work.join(format!("{name}-sample.json"));
    std::fs::write(&sub, manifest.to_string()).unwrap();
    let want: String = sample
        .iter()
        .map(|&i| expected.as_bytes()[i] as char)
        .collect();
    let t = Instant::now();
    let (out, lines) = run_flags(work, &sub, &["--technique", "plain"], 2);
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(
        lines.len(),
        1,
        "{name} plain: one result line\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = &lines[0];
    println!(
        "{name} plain on patches {sample:?} (PATCHVAL_CORPUS_SEED={seed}): {} in {secs:.1} s, \
         recorded {want}",
        r.succlist
    );
    for u in r.extra["unstable"].as_array().into_iter().flatten() {
        println!("  unstable: {}", u.as_str().unwrap_or(""));
    }
    print_details(work, r);
    assert_agrees_with_plain(work, &sub, &want, &r.succlist);
    format!("plain on patches {sample:?} {} {secs:.1} s", r.succlist)
}

/// `run --shard`'s partition of a study-sized batch on the project: 40 locations of generated
/// patches (the fuzzer's generator, as a repair tool's candidates at many places), planned with
/// predicted costs and cut into 4 shards as `run --shard` cuts them: a set costlier than half a
/// shard's share (a set whose location every test may reach, such as a field initialiser, selects
/// the whole suite) is cut into parts. The largest shard's predicted cost must be within 1.5x the
/// mean. Returns the figures.
fn shard_balance(work: &Path, name: &str) -> String {
    let wd = patchval::workdir::WorkDir::new(work);
    let dir = work.join("balance-sets");
    let sets = patchval::fuzz::generate(&wd, 1, 40, 15, &[], &dir)
        .unwrap_or_else(|e| panic!("{name}: generating sets: {e:#}"));
    let options = patchval::core::Options {
        jobs: 1,
        progress: false,
        ..patchval::core::Options::default()
    };
    let validator = patchval::core::Validator::open(&wd, options, vec!["corpus-test".into()])
        .unwrap_or_else(|e| panic!("{name}: opening a validator: {e}"));
    let plan = validator
        .plan(
            &[dir.display().to_string()],
            patchval::patchset::inputs::Format::Manifest,
            true,
        )
        .unwrap_or_else(|e| panic!("{name}: planning: {e}"));
    validator.close().unwrap();
    assert_eq!(
        plan.sets.len(),
        sets.len(),
        "{name}: every generated set planned"
    );
    let n = 4;
    let largest_set = plan.sets.iter().map(|s| s.cost).fold(0.0, f64::max);
    let whole = plan.sets.len();
    let cut = patchval::shard::cut(plan.sets, n, &work.join("balance-parts"))
        .unwrap_or_else(|e| panic!("{name}: cutting sets: {e}"));
    let parts = cut.iter().filter(|p| p.part.is_some()).count();
    let mut load = vec![0.0f64; n];
    for (set, k) in cut.iter().zip(patchval::shard::partition(&cut, n)) {
        load[k] += set.cost;
    }
    let mean = load.iter().sum::<f64>() / n as f64;
    let max = load.iter().cloned().fold(0.0, f64::max);
    let line = format!(
        "shards of {whole} generated sets: largest predicted cost {:.2}x the mean (largest set \
         {:.2}x, cut into parts with others: {parts} parts)",
        max / mean,
        largest_set / mean
    );
    println!("{name}: {line} (costs {load:.0?})");
    assert!(max <= 1.5 * mean, "{name}: {line}");
    line
}
