//! Warm class loaders (issue 9): `patchval warm-check` runs every passing test of a fixture in
//! fresh class loaders and in one warm loader whose static state Reset puts back before each
//! test; no result may differ. On `testdata/statics`, whose tests pass only from fresh static
//! state, the same check without the reset must find differences, so the check can fail.

mod common;
use common::*;
use patchval::exit::ExitCode;

/// `warm-check` on an initialised copy of `name`: (exit code, stdout).
fn warm_check(name: &str, flags: &[&str]) -> (Option<i32>, String) {
    let (_tmp, project) = fixture(name);
    let work = project.parent().unwrap().join("work");
    let kind = if name == "multimodule" {
        "--maven"
    } else {
        "--project"
    };
    init_as(kind, &project, &work);
    let mut args = vec!["warm-check", "-w", work.to_str().unwrap()];
    args.extend_from_slice(flags);
    let out = patchval(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        stdout.contains("tests "),
        "warm-check on {name} printed no summary:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), stdout)
}

#[test]
fn statics_fixture_warm_equals_fresh_and_needs_the_reset() {
    let (code, out) = warm_check("statics", &[]);
    assert_eq!(code, Some(ExitCode::Ok.code()), "{out}");
    assert!(out.contains("tests 28, differing 0"), "{out}");

    let (code, out) = warm_check("statics", &["--no-reset"]);
    assert_eq!(code, Some(ExitCode::Disagreement.code()), "{out}");
    let differing: Vec<&str> = out.lines().filter(|l| l.starts_with("differs")).collect();
    assert!(differing.len() >= 5, "{out}");
    // The last two are an enum and an interface whose state no reset puts back: with the reset
    // the worker drops the warm loader after a test that initialised them.
    for test in [
        "ReflectionTest#privateStaticBReadReflectively",
        "FragileTest#worksInTheNextTest",
        "ReflectionTest#tableStartsWithOneEntry",
        "ModeTest#",
        "CatalogTest#",
    ] {
        assert!(differing.iter().any(|l| l.contains(test)), "{test}:\n{out}");
    }
}

/// `WORK/coverage.json`: its text, its JSON and its method names (by id).
fn coverage(work: &std::path::Path) -> (String, serde_json::Value, Vec<String>) {
    let text = std::fs::read_to_string(work.join("coverage.json")).expect("coverage.json");
    let c: serde_json::Value = serde_json::from_str(&text).unwrap();
    let methods = c["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    (text, c, methods)
}

/// The coverage init records in the warm pass (`WORK/coverage.json`, docs/selection.md): what an enum's initialiser runs, the initialiser included, counts for every test
/// (the warm loader runs it for the first test only); a method of a reset class is recorded for
/// exactly the tests that call it.
#[test]
fn statics_coverage_marks_enum_initialisers_global() {
    let (_tmp, project) = fixture("statics");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let (text, c, methods) = coverage(&work);
    let id = |m: &str| {
        methods
            .iter()
            .position(|x| *x == m)
            .unwrap_or_else(|| panic!("{m} not recorded: {methods:?}"))
    };
    let global: Vec<usize> = c["global"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_u64().unwrap() as usize)
        .collect();
    for m in [
        "org/example/statics/Mode.<clinit>",
        "org/example/statics/Mode.<init>",
        "org/example/statics/Level.<clinit>",
        "org/example/statics/Catalog.<clinit>",
    ] {
        assert!(global.contains(&id(m)), "{m} must be global: {text}");
    }
    let add = id("org/example/statics/Registry.add");
    assert!(!global.contains(&add));
    let mut callers: Vec<&str> = c["tests"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, ids)| {
            ids.as_array()
                .unwrap()
                .iter()
                .any(|i| i.as_u64() == Some(add as u64))
        })
        .map(|(t, _)| t.as_str())
        .collect();
    callers.sort();
    assert_eq!(
        callers,
        [
            "org.example.statics.RegistryATest#addOne",
            "org.example.statics.RegistryATest#addTwo",
            "org.example.statics.RegistryBTest#startsEmpty",
        ]
    );
}

/// Runs the fixture's patch sets with the default, `--no-dedup` and plain (`-j 2`) and checks every
/// set's verdicts against `patches/expected.json`; returns the patch directory and the expected map.
fn default_no_dedup_plain_give_expected(
    project: &std::path::Path,
    work: &std::path::Path,
) -> (
    std::path::PathBuf,
    std::collections::BTreeMap<String, String>,
) {
    let patches = project.join("patches");
    let expected = expected(project);
    for flags in [&[][..], &["--no-dedup"], &["--technique", "plain"]] {
        let r = run_flags_ok(work, &patches, flags, 2);
        assert_eq!(r.len(), expected.len(), "{flags:?}");
        for line in &r {
            let want = &expected[&line.set_name()];
            if flags.contains(&"plain") {
                // Plain's own difference counts only where plain repeats it.
                let set = std::path::Path::new(&line.patches_path);
                assert_agrees_with_plain(work, set, want, &line.succlist);
                continue;
            }
            assert_eq!(&line.succlist, want, "{flags:?} {}", line.set_name());
        }
    }
    (patches, expected)
}

#[test]
fn fixtures_warm_equals_fresh() {
    for name in [
        "calc",
        "textutil",
        "dedup",
        "junit5",
        "soundness",
        "purity",
        "multimodule",
    ] {
        let (code, out) = warm_check(name, &[]);
        assert_eq!(code, Some(ExitCode::Ok.code()), "{name}:\n{out}");
    }
}

/// testdata/warmgap: an enum constant holds mutable state the reset does not put back, so
/// `ShelfTest#secondTake` fails in a warm loader and passes in a fresh one. The warm baseline
/// must find it (failing warm, passing fresh, failing warm again) and keep the class on fresh
/// loaders with both tests passing, so the default gives plain's verdicts; with the class forced
/// warm in `state.json`, the same run gives wrong ones (what the check at init prevents).
#[test]
fn warm_baseline_keeps_a_class_that_differs_warm_on_fresh_loaders() {
    let (_tmp, project) = fixture("warmgap");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let tests = state_warm(&work);
    let shelf = |m: &str| format!("org.example.warmgap.ShelfTest#{m}");
    let scale = |m: &str| format!("org.example.warmgap.ScaleTest#{m}");
    for (id, warm) in [
        (shelf("firstTake"), false),
        (shelf("secondTake"), false),
        (scale("twiceOfThree"), true),
        (scale("twiceOfMinusFour"), true),
    ] {
        assert!(
            tests.iter().any(|t| t.0 == id && t.1 && t.2 == warm),
            "{id}: passing, warm = {warm}: {tests:?}"
        );
    }
    let (patches, expected) = default_no_dedup_plain_give_expected(&project, &work);
    // The gap is real: warm-check sees it, and a run with every class warm gets it wrong.
    let out = patchval(&["warm-check", "-w", work.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("differs\torg.example.warmgap.ShelfTest#secondTake"),
        "{stdout}"
    );
    let state_path = work.join("state.json");
    let mut state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state_path).unwrap()).unwrap();
    for t in state["tests"].as_array_mut().unwrap() {
        t["warm"] = serde_json::Value::Bool(true);
    }
    std::fs::write(&state_path, state.to_string()).unwrap();
    let forced = run_flags_ok(&work, &patches, &[], 2);
    let take = forced.iter().find(|l| l.set_name() == "take.json").unwrap();
    assert_ne!(take.succlist, expected["take.json"], "forced warm");
}

/// testdata/tables: a class whose static state is a table built once and only read after
/// (`Squares`) is kept across tests (pure-init), while tables written by a method, through a row
/// handed out, or through reflection are reset; the verdicts stay plain's, also for the patches
/// that write `Squares`' table (their woven class is not pure-init).
#[test]
fn tables_fixture_keeps_only_pure_init_classes() {
    let (code, out) = warm_check("tables", &[]);
    assert_eq!(code, Some(ExitCode::Ok.code()), "{out}");
    assert!(out.contains("tests 8, differing 0"), "{out}");
    assert!(
        out.contains("initialised once (pure-init): 1 classes: org.example.tables.Squares\n"),
        "{out}"
    );
    let (code, out) = warm_check("tables", &["--no-reset"]);
    assert_eq!(code, Some(ExitCode::Disagreement.code()), "{out}");
    for test in [
        "HitsTest#firstHitAgain",
        "RowsTest#rowOneStillStartsAtTen",
        "SecretTest#writtenByReflectionAgain",
    ] {
        assert!(
            out.lines()
                .any(|l| l.starts_with("differs") && l.contains(test)),
            "{test}:\n{out}"
        );
    }

    let (_tmp, project) = fixture("tables");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    // init's coverage pass keeps `Squares` too: the test that touches it second does not run
    // its initialiser, and must still be recorded as executing what a fresh loader would run.
    let (text, c, methods) = coverage(&work);
    for m in [
        "org/example/tables/Squares.<clinit>",
        "org/example/tables/Squares.fill",
    ] {
        let id = methods.iter().position(|x| *x == m).expect(m) as u64;
        for test in [
            "org.example.tables.SquaresTest#threeIsNine",
            "org.example.tables.SquaresTest#threeAndFour",
        ] {
            let ids = c["tests"][test].as_array().expect(test);
            assert!(
                ids.iter().any(|i| i.as_u64() == Some(id)),
                "{test} must hit {m}: {text}"
            );
        }
    }
    default_no_dedup_plain_give_expected(&project, &work);
}

/// testdata/hintkeys: `Chart`'s static initialiser makes a `RenderingHints.Key`, and every test
/// keeps its key alive in the global logger. The JDK refuses a second live key of the same class,
/// so the warm loader's reset (which runs the initialiser again in the same class) threw in every
/// test after the first, and `init` kept both classes on fresh loaders (JFreeChart: 68 of 359 test
/// classes, a few tests left out as flaky). The agent's `HintKeys` forgets an earlier test's keys:
/// every test passes warm, and the verdicts stay plain's.
#[test]
fn hint_keys_fixture_runs_warm() {
    let (_tmp, project) = fixture("hintkeys");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let tests = state_warm(&work);
    assert_eq!(tests.len(), 6, "{tests:?}");
    for (id, passed, warm) in &tests {
        assert!(*passed && *warm, "{id}: passed {passed}, warm {warm}");
    }
    default_no_dedup_plain_give_expected(&project, &work);
    let (code, out) = warm_check("hintkeys", &[]);
    assert_eq!(code, Some(ExitCode::Ok.code()), "{out}");
    assert!(out.contains("tests 6, differing 0"), "{out}");
}

/// testdata/kept: `Token`'s constants hold final `char[]`/`byte[]` (as jackson-core's `JsonToken`),
/// which made the enum sticky: the worker dropped the warm loader after every test that used it.
/// Now its initialiser's values are compared after each test (agent `Kept`), and the loader goes
/// only when they changed: after `PairTest#bothSeen` (`Right`'s initialiser writes `Left`'s field)
/// and `TokenTest#firstScribbles` (writes a token's characters). Without the comparison,
/// `leftAlone` and `thenIntact` fail warm. `Code`'s initialiser fills `Names`' map, which the
/// reset empties: it stays sticky (each `CodeTest` test after the first would find no code).
/// `Shade`, whose fields never made it sticky, fills `Palette` the same way, and `Broken`'s
/// initialiser throws: both make their test's loader go (`Reset.exitInit`, `exitInitFailed`), or
/// `ShadeTest`'s second test finds an empty palette and `BrokenTest`'s a `NoClassDefFoundError`,
/// which `init` took for flaky tests and left out. `Pen`'s initialiser only makes objects of a
/// class the reset puts back (`Ink`, whose constructor reaches no static field) and stays warm
/// (13 loaders when any touch counted); `Stamp`'s makes `Tag`s, whose constructor writes `Tag`'s
/// count, and is sticky (counted only through `Reset.field` at that constructor's entry: without
/// it `StampTest`'s second test finds 0 tags warm and `init` leaves three tests out).
#[test]
fn kept_fixture_keeps_enums_warm_until_their_state_changes() {
    let (code, out) = warm_check("kept", &[]);
    assert_eq!(code, Some(ExitCode::Ok.code()), "{out}");
    assert!(out.contains("tests 18, differing 0"), "{out}");
    assert!(
        out.contains("warm loaders: 11 made; enums and interfaces kept: 1: org.example.kept.Token"),
        "{out}"
    );
    let (_tmp, project) = fixture("kept");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let tests = state_warm(&work);
    assert_eq!(tests.len(), 18, "none left out as flaky: {tests:?}");
    for (id, passed, warm) in &tests {
        assert!(*passed && *warm, "{id}: passed {passed}, warm {warm}");
    }
    default_no_dedup_plain_give_expected(&project, &work);
}
