//! Helpers shared by the end-to-end tests: fixture copies and running the real binary.

#![allow(dead_code)]

pub mod weave;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The JDK used when `JAVA_HOME` is not set: Debian's JDK 17, as `scripts/setup.sh` installs it.
pub const DEFAULT_JAVA_HOME: &str = "/usr/lib/jvm/java-17-openjdk-amd64";

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `testdata/<name>` in the repository.
pub fn testdata(name: &str) -> PathBuf {
    repo().join("testdata").join(name)
}

/// The JDK the tests run: `JAVA_HOME`, else [`DEFAULT_JAVA_HOME`].
pub fn java_home() -> PathBuf {
    std::env::var_os("JAVA_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| DEFAULT_JAVA_HOME.into())
}

/// Copies `testdata/<name>` into a fresh temp dir and returns (guard, project path).
pub fn fixture(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dest = tmp.path().join(name);
    copy_dir(&testdata(name), &dest);
    (tmp, dest)
}

pub fn copy_dir(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.expect("walk fixture");
        let rel = e.path().strip_prefix(from).unwrap();
        let target = to.join(rel);
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Runs the patchval binary with JAVA_HOME set.
pub fn patchval(args: &[&str]) -> Output {
    patchval_env(args, &[])
}

/// Runs the patchval binary with JAVA_HOME and the given environment variables set.
pub fn patchval_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = patchval_command();
    cmd.args(args).envs(env.iter().copied());
    cmd.output().expect("run patchval")
}

/// The patchval binary, not yet run, with `JAVA_HOME` set to [`java_home`] (a later `env` call
/// overrides it).
pub fn patchval_command() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_patchval"));
    cmd.env("JAVA_HOME", java_home());
    cmd
}

/// Runs a command to its end: (exit code, stdout, stderr).
pub fn output(mut cmd: Command) -> (i32, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = cmd.output().expect("run patchval");
    (
        status.code().expect("exited, not killed by a signal"),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

/// Every line of a JSON-lines file, parsed; a missing file or a line that is not JSON panics.
pub fn jsonl(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// Writes `text` to `dir/rel`, creating the folders on the way; returns the file's path.
pub fn write_file(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs patchval, asserting success; returns stdout.
pub fn patchval_ok(args: &[&str]) -> String {
    let out = patchval(args);
    assert!(
        out.status.success(),
        "patchval {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `patchval init`, asserting success.
pub fn init(project: &Path, work: &Path) {
    init_as("--project", project, work)
}

/// `patchval init` with the given kind of project (`--project`, `--maven`, `--defects4j`).
pub fn init_as(kind: &str, project: &Path, work: &Path) {
    let out = patchval(&[
        "init",
        kind,
        project.to_str().unwrap(),
        "--work-dir",
        work.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "init failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// One parsed line of result.jsonl.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct ResultLine {
    pub patches_path: String,
    pub technique: Option<String>,
    pub succlist: String,
    pub error: Option<String>,
    pub extra: serde_json::Value,
}

impl ResultLine {
    pub fn set_name(&self) -> String {
        Path::new(&self.patches_path)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string()
    }
}

pub fn results(work: &Path) -> Vec<ResultLine> {
    std::fs::read_to_string(work.join("result.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("result line"))
        .collect()
}

/// `patchval run` on a fixture's patch sets, returning the result lines (in set-name order).
pub fn run(work: &Path, patches: &Path, technique: &str, jobs: usize) -> (Output, Vec<ResultLine>) {
    run_flags(work, patches, &["--technique", technique], jobs)
}

/// `patchval run` with other flags (`--no-dedup`, `--technique plain`, none for the default).
pub fn run_flags(
    work: &Path,
    patches: &Path,
    flags: &[&str],
    jobs: usize,
) -> (Output, Vec<ResultLine>) {
    let _ = std::fs::remove_file(work.join("result.jsonl"));
    let jobs = jobs.to_string();
    let mut args = vec!["run", "--work-dir", work.to_str().unwrap(), "-j", &jobs];
    args.extend_from_slice(flags);
    args.push(patches.to_str().unwrap());
    let out = patchval(&args);
    let mut r = results(work);
    r.sort_by_key(|l| l.set_name());
    (out, r)
}

/// [`run_flags`], which must succeed.
pub fn run_flags_ok(work: &Path, patches: &Path, flags: &[&str], jobs: usize) -> Vec<ResultLine> {
    let (out, r) = run_flags(work, patches, flags, jobs);
    assert!(
        out.status.success(),
        "patchval run {flags:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    r
}

/// The verified verdicts of a fixture, by set file name.
pub fn expected(project: &Path) -> BTreeMap<String, String> {
    expected_of(&project.join("patches/expected.json"))
}

/// An `expected.json`: verdicts by set or patch name.
pub fn expected_of(file: &Path) -> BTreeMap<String, String> {
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
}

/// The lines of the latest run's `details.jsonl`.
pub fn latest_details(work: &Path) -> Vec<serde_json::Value> {
    jsonl(&work.join("runs/latest/details.jsonl"))
}

/// Verdict by patch name (details' `name`, or the set file) in the latest run's record, shown
/// relative to `dir`.
pub fn verdicts_by_name(work: &Path, dir: &Path) -> BTreeMap<String, String> {
    latest_details(work)
        .into_iter()
        .map(|d| {
            let name = d["name"]
                .as_str()
                .or(d["patches_path"].as_str())
                .unwrap()
                .to_string();
            let name = name
                .strip_prefix(&format!("{}/", dir.display()))
                .map(str::to_string)
                .unwrap_or(name);
            (name, d["verdict"].as_str().unwrap().to_string())
        })
        .collect()
}

/// The differential comparison of one set's plain verdicts (`plain`) with the verdicts they must
/// equal (`want`: another technique's, or the verified ones), as every differential test makes
/// it: each patch where they differ is validated again by plain, `PLAIN_AGAIN` times (in this
/// process, through the library), and counts only when plain repeats its verdict
/// (`rules::instability`); the others are printed as plain's instability. Returns the real
/// disagreements, a line each naming the set, the patch and the verdicts.
pub fn plain_disagreements(work: &Path, set: &Path, want: &str, plain: &str) -> Vec<String> {
    use patchval::core::recheck::{judge, plain_again, PLAIN_AGAIN};
    use patchval::model::{Outcome, Phase, Verdict};
    let differ: Vec<(usize, char, char)> = want
        .chars()
        .zip(plain.chars())
        .enumerate()
        .filter(|(_, (w, p))| w != p)
        .map(|(i, (w, p))| (i, w, p))
        .collect();
    let name = set
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .to_string();
    let mut real = Vec::new();
    if want.chars().count() != plain.chars().count() {
        real.push(format!(
            "{name}: {want} against plain's {plain}: not one verdict per patch"
        ));
    }
    if differ.is_empty() {
        return real;
    }
    std::env::set_var("PATCHVAL_EXE", env!("CARGO_BIN_EXE_patchval"));
    let patches = patchval::patchset::load(set).unwrap_or_else(|e| panic!("{name}: {e}"));
    let indices: Vec<usize> = differ.iter().map(|d| d.0).collect();
    let wd = patchval::workdir::WorkDir::new(work);
    let again = plain_again(&wd, &patches, &indices, PLAIN_AGAIN, 2)
        .unwrap_or_else(|e| panic!("{name}: validating again with plain: {e}"));
    for ((i, w, p), again) in differ.into_iter().zip(again) {
        let (Some(w), Some(p)) = (Verdict::from_letter(w), Verdict::from_letter(p)) else {
            real.push(format!("{name} patch {i}: `{w}` against plain's `{p}`"));
            continue;
        };
        let judged = judge(w, &Outcome::new(p, Phase::Plain), &again);
        let line = format!(
            "{name} patch {i}: `{w}` against plain's `{p}`: {}",
            judged.describe()
        );
        if judged.is_real() {
            real.push(line);
        } else {
            println!("not counted: {line}");
        }
    }
    real
}

/// A fixture of at most this many patches in all gets plain validation of every patch in the
/// differential tests; a larger one, of [`PLAIN_PER_SET`] patches of each set.
pub const PLAIN_ALL_UP_TO: usize = 50;
/// Patches of each set plain validates in a larger fixture.
pub const PLAIN_PER_SET: usize = 3;

/// The seed of plain's samples: `PATCHVAL_PLAIN_SEED`, else the day's number (the samples go round
/// the sets from day to day; the tests print it so that a failure can be run again).
pub fn plain_seed() -> u64 {
    std::env::var("PATCHVAL_PLAIN_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs() / 86_400)
                .unwrap_or(0)
        })
}

/// `k` of the indices `0..n`, in order, chosen by `seed` and `name` (a seeded shuffle, splitmix64).
pub fn sample_indices(name: &str, n: usize, k: usize, seed: u64) -> Vec<usize> {
    let mut state = seed ^ patchval::model::fnv(name.bytes(), patchval::model::FNV_START);
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    let mut picked = order[..k.min(n)].to_vec();
    picked.sort_unstable();
    picked
}

/// Writes into `out` the sets plain validates in a differential test of the fixture whose sets
/// are the `*.json` files of `dir` (`expected.json` aside): every patch when the fixture has at most
/// [`PLAIN_ALL_UP_TO`] patches or `PATCHVAL_PLAIN_SAMPLE=all`, else [`PLAIN_PER_SET`] of each set
/// ([`plain_seed`]); each under its set's file name. Returns, per file name, the indices kept. The
/// default and `--no-dedup` still run every patch against the verified verdicts, which plain
/// validation (each fixture's verifier) gave: what is sampled is patchval's own plain technique.
pub fn plain_sample_dir(dir: &Path, out: &Path) -> BTreeMap<String, Vec<usize>> {
    let mut sets: Vec<(String, serde_json::Value)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("expected.json"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            (
                name,
                serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap(),
            )
        })
        .collect();
    sets.sort_by(|a, b| a.0.cmp(&b.0));
    let total: usize = sets
        .iter()
        .map(|(_, m)| m["patches"].as_array().map_or(0, Vec::len))
        .sum();
    let all = total <= PLAIN_ALL_UP_TO
        || std::env::var("PATCHVAL_PLAIN_SAMPLE").is_ok_and(|v| v == "all");
    let seed = plain_seed();
    if !all {
        println!("plain on {PLAIN_PER_SET} patches of each set (PATCHVAL_PLAIN_SEED={seed})");
    }
    std::fs::create_dir_all(out).unwrap();
    let mut picked = BTreeMap::new();
    for (name, mut m) in sets {
        let patches = m["patches"].as_array().cloned().unwrap_or_default();
        let keep = if all {
            (0..patches.len()).collect()
        } else {
            sample_indices(&name, patches.len(), PLAIN_PER_SET, seed)
        };
        m["patches"] = keep.iter().map(|&i| patches[i].clone()).collect();
        for key in ["names", "other_files"] {
            if let Some(list) = m[key].as_array().cloned() {
                m[key] = keep.iter().map(|&i| list[i].clone()).collect();
            }
        }
        std::fs::write(out.join(&name), m.to_string()).unwrap();
        picked.insert(name, keep);
    }
    picked
}

/// [`plain_disagreements`], which must find none: panics with "real disagreement with plain" and
/// each of them.
pub fn assert_agrees_with_plain(work: &Path, set: &Path, want: &str, plain: &str) {
    let real = plain_disagreements(work, set, want, plain);
    assert!(
        real.is_empty(),
        "real disagreement with plain:\n{}",
        real.join("\n")
    );
}

/// The differential test on one fixture: `init`, then `run` with the schemata and with the plain
/// technique; verdicts equal each other and the verified expectations; javac once or twice per
/// set; one JVM per worker plus one per timeout; at least 90 % of woven patches take the tree path.
/// Returns the schemata's result lines.
pub fn check_fixture(name: &str) -> Vec<ResultLine> {
    check_fixture_as(name, "--project")
}

/// `check_fixture` for a fixture read as `kind` (`--project`, `--maven`).
pub fn check_fixture_as(name: &str, kind: &str) -> Vec<ResultLine> {
    check_fixture_runs(name, kind).0
}

/// `check_fixture_as`, returning the schemata's and the plain technique's result lines.
pub fn check_fixture_runs(name: &str, kind: &str) -> (Vec<ResultLine>, Vec<ResultLine>) {
    let (_tmp, project) = fixture(name);
    let work = project.parent().unwrap().join("work");
    init_as(kind, &project, &work);
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

    // Plain on every patch of a small fixture, on a sample of each set of a larger one.
    let sample_dir = project.parent().unwrap().join("plain-sample");
    let sample = plain_sample_dir(&project.join("patches"), &sample_dir);
    let (_, plain) = run(&work, &sample_dir, "plain", 2);
    assert_eq!(plain.len(), fast.len());
    same_failures_in(&work, Some(&sample));
    for (f, p) in fast.iter().zip(&plain) {
        assert_eq!(f.set_name(), p.set_name());
        // The differential test: accelerated verdicts equal plain verdicts (where plain repeats
        // its own), on the patches plain ran.
        let want: String = sample[&f.set_name()]
            .iter()
            .map(|&i| f.succlist.as_bytes()[i] as char)
            .collect();
        assert_agrees_with_plain(&work, Path::new(&p.patches_path), &want, &p.succlist);
        assert_eq!(
            &f.succlist,
            &expected[&f.set_name()],
            "{}: vs verified expectation",
            f.set_name()
        );
        assert_eq!(p.technique.as_deref(), Some("plain"));
        // javac runs once per set when every woven patch compiles, and when the errors of those
        // that do not lie only in their units (left out of the same call's class files); twice
        // when they reach the enclosing method.
        let x = &f.extra;
        let javac = x["javac_invocations"].as_u64().unwrap();
        if f.technique.as_deref() == Some("schemata") {
            let woven_c = f.succlist.chars().filter(|&c| c == 'C').count() as u64;
            let fallback = x["fallback"].as_u64().unwrap();
            if woven_c == 0 {
                assert_eq!(javac, 1, "{}: {x}", f.set_name());
            } else if fallback == 0 {
                assert!((1..=2).contains(&javac), "{}: {x}", f.set_name());
            }
        } else {
            assert_eq!(javac, 0);
        }
        assert_eq!(x["patches"].as_u64().unwrap() as usize, f.succlist.len());
        // A `T` counts only after a confirmation that timed out too, in both techniques.
        for r in [f, p] {
            if r.succlist.contains('T') {
                assert!(
                    r.extra["timeouts"].is_array(),
                    "{}: {}",
                    r.set_name(),
                    r.extra
                );
            }
        }
    }
    // One JVM per worker for the whole run; each timeout restarts its worker exactly once.
    let mut per_worker: std::collections::BTreeMap<u64, (u64, u64)> = Default::default();
    for f in &fast {
        let e = per_worker
            .entry(f.extra["worker"].as_u64().unwrap())
            .or_default();
        e.0 = e.0.max(f.extra["worker_jvm_starts"].as_u64().unwrap());
        // Each request stopped at its time limit restarts the worker once: a tree round that timed
        // out, a sequential round, the confirmation of a timeout (a `T` counts only when its
        // confirmation times out too), the unpatched program's timing before a confirmation.
        let (tree_timeouts, _) = tree_timeouts(f);
        e.1 += tree_timeouts as u64 + f.extra["sequential_timeouts"].as_u64().unwrap();
    }
    for (worker, (starts, timeouts)) in per_worker {
        assert_eq!(starts, 1 + timeouts, "worker {worker}");
    }
    // A split declaration assigns its variable: patches of a declaration of a reference type
    // (textutil's `StringBuilder sb = new StringBuilder(…)`) are woven but go sequential, where
    // before the split they were not woven at all.
    let split_reference_writes = |f: &ResultLine| -> u64 {
        if f.extra["declaration_split"] != true {
            return 0;
        }
        f.extra["sequential_reasons"]
            .as_object()
            .map(|reasons| {
                reasons
                    .iter()
                    .filter(|(why, _)| why.starts_with("it assigns"))
                    .map(|(_, n)| n.as_u64().unwrap_or(0))
                    .sum()
            })
            .unwrap_or(0)
    };
    let woven: u64 = fast
        .iter()
        .map(|f| f.extra["woven"].as_u64().unwrap() - split_reference_writes(f))
        .sum();
    let tree: u64 = fast
        .iter()
        .map(|f| f.extra["tree_patches"].as_u64().unwrap())
        .sum();
    assert!(
        tree * 10 >= woven * 9,
        "{name}: only {tree} of {woven} woven patches took the tree path"
    );
    (fast, plain)
}

/// (tree rounds that timed out, patches given `T` by attributing such a round to its class), from
/// a result line's `tree_fallbacks`.
pub fn tree_timeouts(r: &ResultLine) -> (usize, usize) {
    let mut rounds = 0;
    let mut attributed = 0;
    for reason in r.extra["tree_fallbacks"].as_array().into_iter().flatten() {
        let reason = reason.as_str().unwrap_or("");
        if !reason.contains("timed out") {
            continue;
        }
        rounds += 1;
        if let Some(list) = reason
            .split_once("following patches [")
            .and_then(|(_, rest)| rest.split_once(']'))
        {
            attributed += list.0.split(',').filter(|p| !p.trim().is_empty()).count();
        }
    }
    (rounds, attributed)
}

/// A patch that fails a test fails it the same way in both techniques: the same test, and the same
/// exception, message and top frame (woven frames are mapped back to the patched file's method
/// and line). `details.jsonl` holds the schemata run's lines, then the plain run's.
pub fn same_failures(work: &Path) {
    same_failures_in(work, None)
}

/// [`same_failures`] where plain ran a sample of each set ([`plain_sample_dir`]: the set's file
/// name → the indices plain's set holds): patches plain did not run are not compared.
pub fn same_failures_in(work: &Path, sample: Option<&BTreeMap<String, Vec<usize>>>) {
    let details = std::fs::read_to_string(work.join("details.jsonl")).unwrap();
    let mut seen: std::collections::BTreeMap<(String, u64), Vec<serde_json::Value>> =
        Default::default();
    for line in details.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let path = v["patches_path"].as_str().unwrap_or("");
        let patch = v["patch"].as_u64().unwrap_or(0);
        let key = match sample {
            None => (path.to_string(), patch),
            Some(sample) => {
                let name = Path::new(path)
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .to_string();
                // Plain's lines name the sample's set, whose patch k is the set's sample[k].
                let original = if path.contains("/plain-sample/") {
                    sample[&name][patch as usize] as u64
                } else {
                    patch
                };
                (name, original)
            }
        };
        seen.entry(key).or_default().push(v);
    }
    for ((set, patch), runs) in seen {
        if sample.is_some() && runs.len() == 1 {
            continue;
        }
        let [fast, plain] = &runs[..] else {
            panic!(
                "{set} patch {patch}: {} detail lines, expected 2",
                runs.len()
            );
        };
        if fast["verdict"] == "F" {
            assert_eq!(
                (&fast["test"], failure_place(&fast["detail"])),
                (&plain["test"], failure_place(&plain["detail"])),
                "{set} patch {patch}: schemata vs plain failure"
            );
        }
    }
}

/// A failure's detail as [`same_failures`] compares it. An endless recursion's
/// `StackOverflowError` is thrown wherever the stack happens to run out, which depends on what the
/// JIT has compiled by then: plain validation itself reports `TextUtil.java:23` in one run and
/// `:24` in the next for the same patch (textutil's `count_stack_after_overflow.json`, 2 of 9 plain
/// runs). Its top frame is compared without the line; every other failure, line included.
fn failure_place(detail: &serde_json::Value) -> String {
    let d = detail.as_str().unwrap_or_default();
    if !d.starts_with("java.lang.StackOverflowError") {
        return d.to_string();
    }
    match d.rsplit_once(':') {
        Some((head, line))
            if line.ends_with(')') && line[..line.len() - 1].parse::<u32>().is_ok() =>
        {
            format!("{head})")
        }
        _ => d.to_string(),
    }
}

/// The tests `init` recorded in `WORK/state.json`, in its order: (`Class#method`, passed on the
/// unpatched program).
pub fn state_tests(work: &Path) -> Vec<(String, bool)> {
    state_warm(work)
        .into_iter()
        .map(|(id, passed, _)| (id, passed))
        .collect()
}

/// As [`state_tests`], with whether the test runs in the warm loader: (`Class#method`, passed,
/// warm).
pub fn state_warm(work: &Path) -> Vec<(String, bool, bool)> {
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("state.json")).unwrap()).unwrap();
    state["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let id = &t["id"];
            let name = format!(
                "{}#{}",
                id["class"].as_str().unwrap(),
                id["method"].as_str().unwrap()
            );
            (
                name,
                t["passed"].as_bool().unwrap(),
                t["warm"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}

/// Writes the edit list `list` to `PROJECT/<dir>/edits.json`: the directory (where the run's
/// patches are named) and the file to run.
pub fn write_edit_list(project: &Path, dir: &str, list: &serde_json::Value) -> (PathBuf, PathBuf) {
    let dir = project.join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("edits.json");
    std::fs::write(&input, serde_json::to_string_pretty(list).unwrap()).unwrap();
    (dir, input)
}
