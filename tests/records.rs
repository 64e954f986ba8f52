//! Per-run records and `run --resume`: each run writes its own directory, `runs/latest` names the
//! newest, and a run killed with SIGKILL resumes to the results of an uninterrupted run, with
//! nothing lost and nothing counted twice.

mod common;
use common::*;
use patchval::exit::ExitCode;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The complete lines of a JSON-lines file, none when it is missing: unlike `common::jsonl`, this
/// reads files that a killed run may have left with a line cut short.
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
    let mut cmd = patchval_command();
    cmd.args(["run", "-j", "1", "-w", work.to_str().unwrap()])
        .args(extra)
        .arg(patches);
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
    // The reference: calc's verified verdicts, which an uninterrupted run gives (tests/e2e.rs).
    let (_tmp, patches, work, reference, mut child) = calc_run_under_way();
    let first = work.join("runs/0001/result.jsonl");
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

/// Processes whose command line mentions `path` (the run's workers and JVMs name the work dir).
fn processes_naming(path: &Path) -> Vec<String> {
    let needle = path.to_string_lossy().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(&needle) {
            found.push(format!(
                "{}: {cmdline}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    found
}

/// An initialised copy of calc and a run of all its sets, started in a process group of its own
/// (as a shell starts a command), once its first result line is written: (temp dir, patch sets,
/// work dir, calc's verdicts, the run).
fn calc_run_under_way() -> (
    tempfile::TempDir,
    std::path::PathBuf,
    std::path::PathBuf,
    BTreeMap<String, String>,
    std::process::Child,
) {
    use std::os::unix::process::CommandExt;
    let (tmp, project) = fixture("calc");
    let patches = project.join("patches");
    let expected = expected(&project);
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let child = run_cmd(&work, &patches, &[])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
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
    (tmp, patches, work, expected, child)
}

/// `run --resume` after an interrupted run 0001 gives `expected` in run 0002, every set whole.
fn resume_completes(work: &Path, patches: &Path, expected: &BTreeMap<String, String>) {
    let out = run_cmd(work, patches, &["--resume"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(&verdicts(&work.join("runs/0002")), expected);
    assert_whole(&work.join("runs/0002"));
}

/// Every set written by a run is whole: as many detail lines as its patches.
fn assert_whole(run_dir: &Path) {
    let written = verdicts(run_dir);
    let patches: usize = written.values().map(String::len).sum();
    assert_eq!(lines(&run_dir.join("details.jsonl")).len(), patches);
}

/// Ctrl-C at a terminal (SIGINT to the run's process group): the sets in flight finish and are
/// written, no other set starts, the run says how many it left (exit `Interrupted`), and `--resume` then
/// gives the verdicts of an uninterrupted run.
#[test]
fn ctrl_c_finishes_the_sets_in_flight_and_resume_completes_the_run() {
    let (_tmp, patches, work, expected, mut child) = calc_run_under_way();
    // SAFETY: signalling the process group this test started.
    assert_eq!(unsafe { libc::killpg(child.id() as i32, libc::SIGINT) }, 0);
    let status = child.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(ExitCode::Interrupted.code()),
        "{status}"
    );
    let run = work.join("runs/0001");
    assert_whole(&run);
    let written = verdicts(&run);
    assert!(
        written.len() < expected.len(),
        "the run ended before Ctrl-C"
    );
    for (set, succlist) in &written {
        assert_eq!(Some(succlist), expected.get(set), "{set}");
    }
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("run.json")).unwrap()).unwrap();
    let left = meta["totals"]["interrupted"]["not_validated"].as_u64();
    assert_eq!(
        left,
        Some((expected.len() - written.len()) as u64),
        "{meta}"
    );
    assert!(!stop_note(&run).exists());
    resume_completes(&work, &patches, &expected);
}

fn stop_note(run_dir: &Path) -> std::path::PathBuf {
    run_dir.join("interrupted")
}

/// SIGTERM ends the run at once (by the signal), notes it in the run's directory, leaves no
/// worker or JVM behind and writes nothing partial; `--resume` completes the run.
#[test]
fn sigterm_stops_at_once_and_leaves_no_process_behind() {
    let (_tmp, patches, work, expected, mut child) = calc_run_under_way();
    // SAFETY: signalling the child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status}");
    let run = work.join("runs/0001");
    let note = std::fs::read_to_string(stop_note(&run)).expect("the interrupted note");
    assert!(note.starts_with("SIGTERM"), "{note}");
    assert_whole(&run);
    // Workers check for their parent every 200 ms.
    let started = Instant::now();
    loop {
        let left = processes_naming(&work);
        if left.is_empty() {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "still running: {left:#?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    resume_completes(&work, &patches, &expected);
}
