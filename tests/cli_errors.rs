//! End-to-end tests of bad input and bad environments: the real `patchval` binary on fixtures
//! copied to a temp dir. The product rule: bad input gets a clear message naming the file and
//! what is wrong, and the rest of the run continues with nothing lost.

mod common;
use common::*;
use patchval::exit::ExitCode;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The set copied from calc as the one good set, and its verdicts in calc/patches/expected.json.
const GOOD_SET: &str = "acc_addall_continue.json";

/// The binary with a working JDK and quiet logging.
fn quiet_patchval() -> Command {
    let mut c = patchval_command();
    c.env("PATCHVAL_LOG", "warn");
    c
}

/// Asserts a command's exit code, showing its output when it is not `want`'s.
#[track_caller]
fn assert_exit(code: i32, want: ExitCode, out: &str, err: &str) {
    assert_eq!(code, want.code(), "stdout:\n{out}\nstderr:\n{err}");
}

fn init_cmd(project: &Path, wd: &Path) -> Command {
    let mut c = quiet_patchval();
    c.arg("init")
        .arg("--project")
        .arg(project)
        .arg("--work-dir")
        .arg(wd);
    c
}

fn init_ok(project: &Path, wd: &Path) -> String {
    let (code, out, err) = output(init_cmd(project, wd));
    assert_eq!(
        code,
        ExitCode::Ok.code(),
        "init failed\nstdout:\n{out}\nstderr:\n{err}"
    );
    out
}

fn run_cmd(wd: &Path, args: &[&Path]) -> Command {
    let mut c = quiet_patchval();
    c.arg("run").arg("--work-dir").arg(wd).args(["-j", "2"]);
    c.args(args);
    c
}

/// The result.jsonl line whose patches_path ends with `/name`.
fn line_for<'a>(lines: &'a [Value], name: &str) -> &'a Value {
    let hits: Vec<&Value> = lines
        .iter()
        .filter(|l| {
            l["patches_path"]
                .as_str()
                .is_some_and(|p| p.ends_with(&format!("/{name}")))
        })
        .collect();
    assert_eq!(hits.len(), 1, "one result line for {name}: {lines:#?}");
    hits[0]
}

fn expected_succlist(fixture: &str, set: &str) -> String {
    expected(&testdata(fixture))
        .remove(set)
        .expect("set in expected.json")
}

/// Writes the good set and the five bad ones into `dir`; returns the good set's patch count.
fn write_patch_sets(dir: &Path) -> usize {
    std::fs::create_dir_all(dir).unwrap();
    let good_text = std::fs::read_to_string(testdata("calc/patches").join(GOOD_SET)).unwrap();
    std::fs::write(dir.join(GOOD_SET), &good_text).unwrap();
    let good: Value = serde_json::from_str(&good_text).unwrap();
    let n = good["patches"].as_array().unwrap().len();
    let write = |name: &str, v: &Value| {
        std::fs::write(dir.join(name), serde_json::to_string_pretty(v).unwrap()).unwrap()
    };

    // Truncated JSON.
    std::fs::write(
        dir.join("malformed.json"),
        &good_text[..good_text.len() / 2],
    )
    .unwrap();

    let mut missing = good.clone();
    missing.as_object_mut().unwrap().remove("bug");
    write("missing_bug.json", &missing);

    let mut v2 = good.clone();
    v2["manifest_version"] = 2.into();
    write("version2.json", &v2);

    let mut ctx = good.clone();
    let above = ctx["context_above"].as_str().unwrap().to_string();
    assert!(above.contains("class Accumulator"));
    ctx["context_above"] = above
        .replacen("class Accumulator", "class Acumulator", 1)
        .into();
    write("context_edited.json", &ctx);

    let mut nofile = good.clone();
    nofile["filename"] = "src/main/java/org/example/calc/DoesNotExist.java".into();
    write("missing_file.json", &nofile);

    // A file outside the project (one the manifest's text matches): validating it would write
    // the patched file outside each worker's copy of the project.
    let mut outside = good.clone();
    outside["filename"] = "../escape/Accumulator.java".into();
    write("outside.json", &outside);
    n
}

/// A bad set's line: no technique, an error naming the file and containing `what`.
fn assert_unusable(lines: &[Value], name: &str, what: &str) -> String {
    let l = line_for(lines, name);
    assert!(
        l["technique"].is_null(),
        "{name}: technique must be null: {l}"
    );
    let err = l["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{name}: no error: {l}"));
    assert!(
        err.contains(name),
        "{name}: error must name the file: {err}"
    );
    assert!(err.contains(what), "{name}: error must say `{what}`: {err}");
    l["succlist"].as_str().unwrap().to_string()
}

#[test]
fn run_reports_each_bad_patch_set_and_validates_the_good_one() {
    let (tmp, project) = fixture("calc");
    let wd = tmp.path().join("work");
    init_ok(&project, &wd);
    let sets = tmp.path().join("sets");
    let n = write_patch_sets(&sets);
    let good: Value =
        serde_json::from_str(&std::fs::read_to_string(sets.join(GOOD_SET)).unwrap()).unwrap();
    let escape = tmp.path().join("escape");
    std::fs::create_dir_all(&escape).unwrap();
    let original = ["context_above", "unpatched", "context_below"]
        .map(|k| good[k].as_str().unwrap().to_string())
        .concat();
    std::fs::write(escape.join("Accumulator.java"), original).unwrap();

    let (code, out, err) = output(run_cmd(&wd, &[&sets]));
    assert_exit(code, ExitCode::Partial, &out, &err);

    let lines = jsonl(&wd.join("result.jsonl"));
    assert_eq!(lines.len(), 7, "one result line per set: {lines:#?}");

    // The good set is validated as if it were alone.
    let good = line_for(&lines, GOOD_SET);
    assert!(good["error"].is_null(), "{good}");
    assert_eq!(good["technique"], "schemata", "{good}");
    assert_eq!(
        good["succlist"].as_str().unwrap(),
        expected_succlist("calc", GOOD_SET)
    );

    let all_e = "E".repeat(n);
    // Unknown patch count: the file is one E of its own; known: all E, never anything else.
    let s = assert_unusable(&lines, "malformed.json", "EOF while parsing");
    assert!(s == "E" || s == all_e, "{s}");
    let s = assert_unusable(&lines, "missing_bug.json", "missing field `bug`");
    assert!(s == "E" || s == all_e, "{s}");
    let s = assert_unusable(&lines, "version2.json", "manifest_version 2");
    assert!(s == "E" || s == all_e, "{s}");
    // Known patch count: all E.
    let s = assert_unusable(&lines, "context_edited.json", "does not match");
    assert_eq!(s, all_e);
    let s = assert_unusable(&lines, "missing_file.json", "DoesNotExist.java");
    assert_eq!(s, all_e);
    let s = assert_unusable(&lines, "outside.json", "field `filename`");
    assert_eq!(s, all_e);
    for w in std::fs::read_dir(wd.join("workers")).unwrap() {
        let w = w.unwrap().path();
        assert!(
            !w.join("escape").exists(),
            "written outside {}",
            w.display()
        );
    }

    // details.jsonl: one line per patch of the good set, none lost.
    let details = jsonl(&wd.join("details.jsonl"));
    let good_details = details
        .iter()
        .filter(|d| d["patches_path"].as_str().unwrap().ends_with(GOOD_SET))
        .count();
    assert_eq!(good_details, n);

    // stdout: one human line per set, each starting with the set's file name.
    let human: Vec<&str> = out.lines().collect();
    assert_eq!(human.len(), 7, "stdout:\n{out}");
    for name in [
        GOOD_SET,
        "malformed.json",
        "missing_bug.json",
        "version2.json",
        "context_edited.json",
        "missing_file.json",
        "outside.json",
    ] {
        let hits = human
            .iter()
            .filter(|l| l.starts_with(&format!("{name}:")))
            .count();
        assert_eq!(hits, 1, "{name} in stdout:\n{out}");
    }
}

/// A set that parses as JSON has a known patch count even when it is unusable; its result
/// should say E for each patch (and details.jsonl should have a line per patch).
#[test]
fn run_reports_all_e_for_parseable_unusable_sets() {
    let (tmp, project) = fixture("calc");
    let wd = tmp.path().join("work");
    init_ok(&project, &wd);
    let sets = tmp.path().join("sets");
    let n = write_patch_sets(&sets);
    let v2 = sets.join("version2.json");
    let missing = sets.join("missing_bug.json");

    let (code, out, err) = output(run_cmd(&wd, &[&v2, &missing]));
    assert_exit(code, ExitCode::Partial, &out, &err);
    let lines = jsonl(&wd.join("result.jsonl"));
    let all_e = "E".repeat(n);
    assert_eq!(
        assert_unusable(&lines, "version2.json", "manifest_version 2"),
        all_e
    );
    assert_eq!(
        assert_unusable(&lines, "missing_bug.json", "missing field `bug`"),
        all_e
    );
    let details = jsonl(&wd.join("details.jsonl"));
    assert_eq!(details.len(), 2 * n, "{details:#?}");
}

#[test]
fn run_with_a_glob_matching_nothing_is_a_usage_error() {
    let (tmp, project) = fixture("calc");
    let wd = tmp.path().join("work");
    init_ok(&project, &wd);
    let pattern = tmp.path().join("nowhere/*.json");
    let (code, out, err) = output(run_cmd(&wd, &[&pattern]));
    assert_exit(code, ExitCode::Usage, &out, &err);
    assert!(
        err.contains(&pattern.display().to_string()),
        "must name the pattern: {err}"
    );
    assert!(err.contains("no patch set matches"), "{err}");
}

#[test]
fn run_without_init_points_to_patchval_init() {
    let tmp = tempfile::tempdir().unwrap();
    let wd = tmp.path().join("never-initialized");
    let set = testdata("calc/patches").join(GOOD_SET);
    let (code, out, err) = output(run_cmd(&wd, &[&set]));
    assert_ne!(code, ExitCode::Ok.code(), "stdout:\n{out}\nstderr:\n{err}");
    assert!(err.contains("patchval init"), "{err}");
    assert!(err.contains("state.json"), "{err}");
    assert!(!wd.join("result.jsonl").exists());
}

/// src/exit.rs documents `ExitCode::Environment` as "the environment is missing something (JDK, JUnit, work dir)".
#[test]
fn run_without_init_exits_environment() {
    let tmp = tempfile::tempdir().unwrap();
    let wd = tmp.path().join("never-initialized");
    let set = testdata("calc/patches").join(GOOD_SET);
    let (code, _, err) = output(run_cmd(&wd, &[&set]));
    assert_eq!(code, ExitCode::Environment.code(), "{err}");
}

#[test]
fn init_on_a_project_that_does_not_compile() {
    let (tmp, project) = fixture("nocompile");
    let wd = tmp.path().join("work");
    let (code, out, err) = output(init_cmd(&project, &wd));
    assert_exit(code, ExitCode::Project, &out, &err);
    assert!(err.contains("does not compile"), "{err}");
    // javac's own error, with the file and line.
    assert!(
        err.contains("org/example/broken/Broken.java:6: error: incompatible types"),
        "{err}"
    );
    assert!(err.contains("\"forty-two\""), "javac's source line: {err}");
    assert!(!wd.join("state.json").exists());
}

#[test]
fn init_on_a_project_without_tests() {
    let (tmp, project) = fixture("notests");
    let wd = tmp.path().join("work");
    let (code, out, err) = output(init_cmd(&project, &wd));
    assert_exit(code, ExitCode::Project, &out, &err);
    assert!(err.contains("no tests"), "{err}");
    assert!(!wd.join("state.json").exists());
}

/// The user's test sources are in the project; the message names patchval's compiled copy in the work dir.
#[test]
fn no_tests_message_names_the_test_source_dir() {
    let (tmp, project) = fixture("notests");
    let wd = tmp.path().join("work");
    let (code, _, err) = output(init_cmd(&project, &wd));
    assert_eq!(code, ExitCode::Project.code(), "{err}");
    assert!(
        err.contains(&project.join("src/test/java").display().to_string()),
        "{err}"
    );
}

#[test]
fn init_with_a_missing_jdk() {
    let (tmp, project) = fixture("calc");
    let wd = tmp.path().join("work");
    let nojdk = tmp.path().join("no-such-jdk");
    let mut cmd = init_cmd(&project, &wd);
    cmd.env("JAVA_HOME", &nojdk);
    let (code, out, err) = output(cmd);
    assert_exit(code, ExitCode::Environment, &out, &err);
    assert!(err.contains("JAVA_HOME"), "{err}");
    assert!(err.contains(&nojdk.display().to_string()), "{err}");
    assert!(!wd.join("state.json").exists());
}

#[test]
fn init_with_a_bad_patchval_toml() {
    let (tmp, project) = fixture("calc");
    std::fs::write(project.join("patchval.toml"), "relase = \"11\"\n").unwrap();
    let wd = tmp.path().join("work");
    let (code, out, err) = output(init_cmd(&project, &wd));
    assert_exit(code, ExitCode::Usage, &out, &err);
    assert!(err.contains("patchval.toml"), "{err}");
    assert!(err.contains("relase"), "must name the unknown key: {err}");
}

#[test]
fn init_on_a_missing_project_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("no-such-project");
    let (code, out, err) = output(init_cmd(&project, &tmp.path().join("work")));
    assert_exit(code, ExitCode::Usage, &out, &err);
    assert!(err.contains(&project.display().to_string()), "{err}");
    assert!(err.contains("not a directory"), "{err}");
}

#[test]
fn init_lists_failing_tests_as_trigger_tests() {
    let (tmp, project) = fixture("calc");
    let out = init_ok(&project, &tmp.path().join("work"));
    assert!(
        out.contains("26 tests (2 failing on the unpatched program)"),
        "{out}"
    );
    for t in [
        "org.example.calc.MathUtilTest#binarySearchMissingMiddle",
        "org.example.calc.MathUtilTest#binarySearchMissingBeforeStart",
    ] {
        assert!(out.contains(&format!("trigger test {t}: ")), "{t}:\n{out}");
    }
    assert_eq!(out.matches("trigger test ").count(), 2, "{out}");
}

const NORMAL_HOSTILE_TESTS: [&str; 6] = [
    "org.example.hostile.FilesTest#readsADataFileRelativeToTheProjectRoot",
    "org.example.hostile.FilesTest#writesAScratchFileRelativeToTheProjectRoot",
    "org.example.hostile.CounterTest#startsAtZero",
    "org.example.hostile.CounterTest#incrementAddsOne",
    "org.example.hostile.CounterTest#addAddsN",
    "org.example.hostile.ExitTest#passesAfterExit",
];
/// The hostile/ project: init must finish, listing the System.exit test as failing (the exit is
/// blocked, the worker lives on; it fails again when rerun), the endless test as excluded after
/// the baseline timeout (5 s here) and the flaky test as excluded, all with reasons, while the
/// normal tests pass.
#[test]
fn init_survives_system_exit_and_an_endless_test() {
    let (tmp, project) = fixture("hostile");
    let wd = tmp.path().join("work");
    let (code, out, err) = output({
        let mut c = init_cmd(&project, &wd);
        c.args(["--baseline-timeout", "5"]);
        c
    });
    assert_eq!(
        code,
        ExitCode::Ok.code(),
        "init failed\nstdout:\n{out}\nstderr:\n{err}"
    );
    assert!(
        out.contains("7 tests (1 failing on the unpatched program)"),
        "{out}"
    );
    let exit_line = out
        .lines()
        .find(|l| l.contains("org.example.hostile.ExitTest#callsSystemExit"))
        .unwrap_or_else(|| panic!("callsSystemExit not listed:\n{out}"));
    assert!(exit_line.contains("System.exit(1)"), "{exit_line}");
    let flaky_line = out
        .lines()
        .find(|l| l.contains("org.example.hostile.FlakyTest#failsOnlyTheFirstTime"))
        .unwrap_or_else(|| panic!("failsOnlyTheFirstTime not listed:\n{out}"));
    assert!(
        flaky_line.contains("excluded")
            && flaky_line.contains("flaky")
            && flaky_line.contains("first run"),
        "{flaky_line}"
    );
    let hang_line = out
        .lines()
        .find(|l| l.contains("org.example.hostile.HangTest#spinsForever"))
        .unwrap_or_else(|| panic!("spinsForever not listed:\n{out}"));
    assert!(
        hang_line.contains("excluded") && hang_line.contains("timed out"),
        "{hang_line}"
    );
    let state = state_tests(&wd);
    for t in NORMAL_HOSTILE_TESTS {
        assert!(
            state.contains(&(t.to_string(), true)),
            "{t} must pass: {state:#?}"
        );
    }
    // Tests ran in a worker's copy of the project (init spreads them over its workers): the
    // user's tree is untouched.
    assert!(!project.join("scratch-output.txt").exists());
    assert!(
        (0..4).any(|w| wd
            .join(format!("workers/{w}/project/scratch-output.txt"))
            .is_file()),
        "no worker's copy holds the file the test wrote"
    );
}

/// `--work-dir` relative to the current directory must work like an absolute one.
#[test]
fn relative_work_dir_works() {
    let (tmp, project) = fixture("calc");
    let (code, out, err) = output({
        let mut c = init_cmd(&project, Path::new("work"));
        c.current_dir(tmp.path());
        c
    });
    assert_eq!(
        code,
        ExitCode::Ok.code(),
        "init\nstdout:\n{out}\nstderr:\n{err}"
    );
    let set = testdata("calc/patches").join(GOOD_SET);
    let (code, out, err) = output({
        let mut c = run_cmd(Path::new("work"), &[&set]);
        c.current_dir(tmp.path());
        c
    });
    assert_eq!(
        code,
        ExitCode::Ok.code(),
        "run\nstdout:\n{out}\nstderr:\n{err}"
    );
    let lines = jsonl(&tmp.path().join("work/result.jsonl"));
    assert_eq!(
        line_for(&lines, GOOD_SET)["succlist"].as_str().unwrap(),
        expected_succlist("calc", GOOD_SET)
    );
}
