//! Fixtures whose verdicts were verified without patchval: `testdata/soundness` (one patch set
//! per way deduplication has been unsound), `testdata/statics` (tests that share static state
//! across test classes and leave system properties, the default Locale and TimeZone changed),
//! `testdata/surefire` (resources read through the system class loader, a class that passes only
//! run whole; verified as surefire runs the tests), `testdata/selection` and `testdata/stackjdk`
//! (stack reads through JDK callbacks, kept throwables), `testdata/stackwalk` (`StackWalker`),
//! `testdata/logback` and `testdata/log4j` (logging libraries that infer their caller).
//! The default technique, `--no-dedup` and `--technique plain` must each give the verified
//! verdicts of `patches/expected.json` on every set.

mod common;
use common::*;

use std::collections::BTreeMap;
use std::path::Path;

/// `patchval run` on every set of the fixture with extra flags; succlists by set file name.
fn succlists(work: &Path, patches: &Path, flags: &[&str]) -> BTreeMap<String, String> {
    run_flags_ok(work, patches, flags, 2)
        .into_iter()
        .map(|r| {
            assert!(r.error.is_none(), "{}: {:?}", r.set_name(), r.error);
            (r.set_name(), r.succlist)
        })
        .collect()
}

/// The default run's `details.jsonl` lines (runs/0001) of one set, by the set's file name.
fn details_of(work: &Path, set: &str) -> Vec<serde_json::Value> {
    std::fs::read_to_string(work.join("runs/0001/details.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|l| l["patches_path"].as_str().unwrap().ends_with(set))
        .collect()
}

/// The default run's `result.jsonl` line (runs/0001) of one set, by the set's file name.
fn result_of(work: &Path, set: &str) -> serde_json::Value {
    std::fs::read_to_string(work.join("runs/0001/result.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|l| l["patches_path"].as_str().unwrap().ends_with(set))
        .unwrap()
}

#[test]
fn soundness_fixture_default_equals_no_dedup_equals_plain_equals_expected() {
    let (_tmp, work) = three_techniques_give_expected("soundness");
    // Locations inside block lambdas are woven with the statement around the lambda (with the
    // initialiser moved into a method, for `lambda_field`): no patch validated one by one, the ones
    // that compile all woven.
    for (set, woven) in [
        ("lambda_later.json", 6),
        ("lambda_now.json", 7),
        ("lambda_loop.json", 9),
        ("lambda_field.json", 6),
    ] {
        let line = result_of(&work, set);
        assert_eq!(line["extra"]["fallback"], 0, "{line}");
        assert_eq!(line["extra"]["woven"], woven, "{line}");
    }
    // A recursion to StackOverflowError in the schemata is decided again with the plainly
    // patched file (the woven frames are not plain's): the four that overflow, and only those.
    let why: Vec<(u64, String)> = details_of(&work, "stack_overflow.json")
        .into_iter()
        .filter_map(|l| {
            let why = l["one_by_one"].as_str()?.to_string();
            Some((l["patch"].as_u64().unwrap(), why))
        })
        .collect();
    assert_eq!(
        why.iter().map(|(p, _)| *p).collect::<Vec<_>>(),
        [1, 3, 6, 7],
        "{why:?}"
    );
    assert!(
        why.iter().all(|(_, w)| w.contains("overflowed the stack")),
        "{why:?}"
    );
    // Dependency-based equivalence: the patches of `dead_local` whose changes differ only in
    // `last`, which nothing reads after the location, are one class on the test that reaches
    // it; `w = ""` (read in the catch block) is not in it. In `dead_local_read` a patch reads
    // `last` at the loop's next visit, and the verdicts above show it kept apart. Patch 0
    // (`n++;`) is one line shorter than 1-4: this project reads the stack (`Audit`), so the
    // line after the location may reach an outcome and it is compiled apart (issue 65), alone
    // in its group (no class).
    let class_on = |set: &str, test: &str| -> Vec<(u64, Option<u64>)> {
        details_of(&work, set)
            .into_iter()
            .filter_map(|l| {
                let run = l["runs"]
                    .as_array()?
                    .iter()
                    .find(|r| r["test"].as_str().unwrap().ends_with(test))?
                    .clone();
                Some((l["patch"].as_u64().unwrap(), run["alike"].as_u64()))
            })
            .collect()
    };
    let runs = class_on("dead_local.json", "#numbersAndPenalties");
    let alike = |p: u64| runs.iter().find(|(q, _)| *q == p).unwrap().1;
    assert!(alike(1).is_some(), "{runs:?}");
    for p in 2..=4 {
        assert_eq!(alike(p), alike(1), "patch {p}: {runs:?}");
    }
    assert_ne!(alike(7), alike(1), "{runs:?}");
    // Statements around a whole declaration are woven on the split declaration; those naming the
    // variable before it (the field `fee` there) on the location widened to the rest of the
    // block (`weave::widen`). `scale()` of `Ledger` reads no stack though `Probe.scale()` does,
    // `rate()` may through a test subclass's override: those run inline (issue 65), woven too.
    let one_by_one = |set: &str| -> Vec<u64> {
        details_of(&work, set)
            .into_iter()
            .filter(|l| l["one_by_one"].is_string())
            .filter_map(|l| l["patch"].as_u64())
            .collect()
    };
    assert_eq!(one_by_one("declaration_around.json"), [] as [u64; 0]);
    // (All 15 woven on the widened location when it does all the split declaration does.)
    let line = result_of(&work, "declaration_around.json");
    assert!(line["extra"]["widened"].as_u64().unwrap() >= 3, "{line}");
    // A `final` local is split unless the new initialiser may make it a constant variable; those
    // are woven widened, where the variable is as constant as in place. The one without its
    // semicolon is `C` without a compile (`weave::syntax`; alone before).
    assert_eq!(one_by_one("final_constant.json"), [] as [u64; 0]);
    assert_eq!(
        result_of(&work, "final_constant.json")["extra"]["certain_errors"],
        1
    );
    // An initialiser's loop left without its only `break` (four patches) cannot complete: `C`
    // at once (`weave::reach::never_completes`; they went alone before).
    assert_eq!(one_by_one("initialiser_completion.json"), [] as [u64; 0]);
    // Several statements for a body without braces, a declaration changed beyond its
    // initialiser: widened. Left alone: an `else` whose body would be the statement after the
    // `if`, and `int count` redeclared (javac refuses it: `C`).
    assert_eq!(one_by_one("braceless_widen.json"), [9]);
    assert_eq!(one_by_one("declaration_widen.json"), [10]);
    // The whole `if` holds every patch the body's location holds, in the tree too: the set is
    // woven there in one compile.
    let line = result_of(&work, "braceless_widen.json");
    assert_eq!(line["extra"]["widened"], 10, "{line}");
    assert_eq!(line["extra"]["javac_invocations"], 1, "{line}");
    let line = result_of(&work, "declaration_widen.json");
    assert!(line["extra"]["widened"].as_u64().unwrap() >= 7, "{line}");
    // Value holes: the patches of `Meter.read` that differ only in `note`'s int argument are
    // woven with that argument computed ahead (`note` has an effect, so the whole statement
    // could not share the tree); the `long` one, the other argument's and the two statements
    // are not. On `readingsAreNotedInOrder` the holes 7 and 11 of `base + scale`,
    // `scale + base`, `base + scale * 1`, `(base + scale)` and `raw + raw + scale` are one
    // class (with the unpatched statement).
    let line = result_of(&work, "value_hole.json");
    assert_eq!(line["extra"]["value_holes"], 10, "{line}");
    let runs = class_on("value_hole.json", "#readingsAreNotedInOrder");
    let alike = |p: u64| runs.iter().find(|(q, _)| *q == p).unwrap().1;
    assert!(alike(0).is_some(), "{runs:?}");
    for p in [1, 2, 8, 11] {
        assert_eq!(alike(p), alike(0), "patch {p}: {runs:?}");
    }
    // The integer too large for an int is not the hole's to call `C` (its statement is
    // rewritten), but javac's lexer rejects it wherever it stands (`weave::syntax`): `C` with its
    // message, where it was compiled alone before.
    let details = details_of(&work, "value_hole.json");
    assert!(
        details.iter().all(|l| !l["one_by_one"].is_string()),
        "{details:?}"
    );
    let too_large = details.iter().find(|l| l["patch"] == 9).unwrap();
    assert_eq!(too_large["verdict"], "C", "{too_large}");
    assert!(
        too_large["detail"]
            .as_str()
            .is_some_and(|d| d.ends_with("integer number too large")),
        "{too_large}"
    );
    // An `if`'s condition is a hole too, its branch kept as it is: in `Meter.check` every patch
    // but the one that changes the branch (9) is a member, the six plausible conditions are one
    // class on the test, the two that also note the reading at the limit another.
    let line = result_of(&work, "value_hole_if.json");
    assert_eq!(line["extra"]["value_holes"], 11, "{line}");
    assert_eq!(line["extra"]["fallback"], 0, "{line}");
    let runs = class_on("value_hole_if.json", "#onlyReadingsOverTheLimitAreNoted");
    let alike = |p: u64| runs.iter().find(|(q, _)| *q == p).unwrap().1;
    assert!(alike(0).is_some(), "{runs:?}");
    for p in [2, 3, 5, 6, 10] {
        assert_eq!(alike(p), alike(0), "patch {p}: {runs:?}");
    }
    assert!(alike(1).is_some(), "{runs:?}");
    assert_eq!(alike(4), alike(1), "{runs:?}");
    assert_ne!(alike(1), alike(0), "{runs:?}");
    // An overflow the project catches (`Depth.reach` answers -1) names nothing in the test's
    // result, and the woven frames overflow a walk that ends in plain: every instrumented handler
    // marks the overflow it catches, and a run with woven code that caught one is decided again.
    // `tooDeepIsBroken` catches one in any run, so every patch that compiles goes one by one.
    let why: Vec<String> = details_of(&work, "caught_overflow.json")
        .into_iter()
        .filter_map(|l| Some(l["one_by_one"].as_str()?.to_string()))
        .collect();
    assert_eq!(why.len(), 9, "{why:?}");
    assert!(
        why.iter().all(|w| w.contains("overflowed the stack")),
        "{why:?}"
    );
    // With its own compile, the walk of the two patches that recurse forever (3 and 4) catches
    // an overflow again and fails: near the stack's end the worker's frames and JIT are not
    // plain's, so that failure is confirmed by plain validation's procedure, in a fresh JVM.
    // (soundness seed 117 of the fuzzer: a logging call at each level of the walk made it end
    // in plain more often than not, and overflow in the worker every time.)
    let line = result_of(&work, "caught_overflow.json");
    assert_eq!(line["extra"]["plain_confirmations"], 2, "{line}");
}

/// Stack reads a patch's text does not show, through the JDK (`String.valueOf` calling a
/// `toString` back, `Supplier.get` running a lambda, a `java.util.logging` logger inferring its
/// caller), in an enhanced `for`'s `iterator()`, in a callee's lambda that `List.forEach` runs
/// and in a reader of variable arity:
/// run inline (issue 65: in the enclosing method, plain's frames and lines), as does `equals` on a
/// `Tag`, whose `equals` reads the stack. `equals` on a `String` runs JDK code only: those four
/// patches go through the generated unit. And a static initialiser that
/// reads the stack, which the warm loader leaves to the JVM (`boot_init`). And throwables a
/// callee makes or catches and keeps unthrown (`kept_fee`), whose traces the test reads later.
/// And project objects handed to JDK code outside the allowlist that calls them back
/// (`StringBuilder.append`, `Collections.sort`, `Thread.run`), in a callee or in the patch
/// (`callback_fee`): all but the unchanged statement inline. A static block's stack readers run
/// inline in `<clinit>`, the block woven in place (`boot_init`).
#[test]
fn stackjdk_fixture_default_equals_no_dedup_equals_plain_equals_expected() {
    let (_tmp, work) = three_techniques_give_expected("stackjdk");
    let default = std::fs::read_to_string(work.join("runs/0001/result.jsonl")).unwrap();
    let line = |set: &str| -> serde_json::Value {
        default
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find(|l| l["patches_path"].as_str().unwrap().ends_with(set))
            .unwrap()
    };
    let total = line("total_fee.json");
    // Stack readers run inline (issue 65): all woven, with plain's frames.
    assert_eq!(total["extra"]["fallback"], 0, "{total}");
    assert_eq!(total["extra"]["woven"], 17, "{total}");
    // Throwables a callee keeps: inline too; the patch missing its `;` is `C` without a
    // compile (`weave::syntax`; it went alone before).
    let kept = line("kept_fee.json");
    assert_eq!(kept["extra"]["fallback"], 0, "{kept}");
    assert_eq!(kept["extra"]["certain_errors"], 1, "{kept}");
    assert_eq!(kept["extra"]["woven"], 7, "{kept}");
    let handed = line("callback_fee.json");
    assert_eq!(handed["extra"]["fallback"], 0, "{handed}");
    assert_eq!(handed["extra"]["certain_errors"], 1, "{handed}");
    assert_eq!(handed["extra"]["woven"], 11, "{handed}");
    // Why each inline patch runs sequentially, in the record.
    let reasons = handed["extra"]["sequential_reasons"].to_string();
    assert!(
        reasons.contains("it runs inline") && reasons.contains("hands an object to `append`"),
        "{handed}"
    );
    // In a static block woven in place, stack readers run inline in `<clinit>`: none goes alone
    // (7 did when the statement moved into a generated method), the one missing its `;` is `C`.
    let boot = line("boot_init.json");
    assert_eq!(boot["extra"]["hoisted"], "static block in place", "{boot}");
    assert_eq!(boot["extra"]["fallback"], 0, "{boot}");
    assert_eq!(boot["extra"]["certain_errors"], 1, "{boot}");
}

/// `StackWalker` (a fixture at release 11), in callees and in a patch's text; frames' lines, at
/// an inline patch and after the location (`bill`, `mark`).
#[test]
fn stackwalk_fixture_default_equals_no_dedup_equals_plain_equals_expected() {
    let (_tmp, work) = three_techniques_give_expected("stackwalk");
    // `bill` and `mark` hold patches that add a line and patches that do not, where the line a
    // frame shows reaches the outcome: one compile, each line shift run in a copy of the classes
    // with its own line table (`compile::finish`), every patch woven.
    for set in ["bill.json", "mark.json"] {
        let line = result_of(&work, set);
        assert_eq!(line["extra"]["javac_invocations"], 1, "{line}");
        assert_eq!(line["extra"]["fallback"], 0, "{line}");
    }
}

/// Logback's location information: the caller of a logging call, read off the stack through the
/// test's appender (`liblogback-java`, installed by `scripts/setup.sh --tests`).
#[test]
fn logback_fixture_default_equals_no_dedup_equals_plain_equals_expected() {
    three_techniques_give_expected("logback");
}

/// Log4j 2's location information, read the same way (`liblog4j2-java`).
#[test]
fn log4j_fixture_default_equals_no_dedup_equals_plain_equals_expected() {
    three_techniques_give_expected("log4j");
}

/// Issue 9: the warm loader's reset and the restoring of JVM-wide state between tests.
#[test]
fn statics_fixture_default_equals_no_dedup_equals_plain_equals_expected() {
    three_techniques_give_expected("statics");
}

/// What tests get from surefire: resources read through the system class loader (`agent
/// SystemLoader`), and a class whose tests pass only when it runs whole (`init::whole`), verdicts
/// verified with the project on the JVM's class path and every class run whole, as surefire runs
/// them.
#[test]
fn surefire_fixture_default_equals_no_dedup_equals_plain_equals_expected() {
    let (_tmp, work) = three_techniques_give_expected("surefire");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("state.json")).unwrap()).unwrap();
    let ledger: Vec<String> = state["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["id"]["class"] == "org.example.rates.LedgerTest")
        .map(|t| {
            format!(
                "{} passed={}",
                t["id"]["method"].as_str().unwrap(),
                t["passed"]
            )
        })
        .collect();
    assert_eq!(ledger, ["* passed=true"], "LedgerTest runs whole");
}

#[test]
fn selection_fixture_default_equals_no_dedup_equals_plain_equals_expected() {
    let (_tmp, work) = three_techniques_give_expected("selection");
    // The instance field's initialiser (`Cart.items`) is woven with the initialiser moved into a
    // method (`weave::hoist`): one compile of the schemata (two: a patch does not compile), the
    // forward reference alone.
    let default = std::fs::read_to_string(work.join("runs/0001/result.jsonl")).unwrap();
    let line_of = |set: &str| -> serde_json::Value {
        default
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find(|l| l["patches_path"].as_str().unwrap().ends_with(set))
            .unwrap()
    };
    let line = line_of("cart_items_init.json");
    let extra = &line["extra"];
    assert_eq!(extra["hoisted"], "field", "{line}");
    assert!(extra["javac_invocations"].as_u64().unwrap() <= 2, "{line}");
    assert_eq!(extra["fallback"], 1, "{line}");
    assert!(extra["woven"].as_u64().unwrap() >= 7, "{line}");
    // The static block's loop, woven in place: the block assigns the blank final `TOP` after
    // the loop, which each context copy's local `final int TOP;` stands for. All woven.
    let line = line_of("rates_static_init.json");
    assert_eq!(line["extra"]["hoisted"], "static block in place", "{line}");
    assert_eq!(line["extra"]["fallback"], 0, "{line}");
    // The instance block's loop, woven in place: all but the patch that reads the blank final
    // `limit`, validated alone, and the one that returns, an error in any initialiser: `C` at
    // once, without a compile (plain's verdict, checked above).
    let line = line_of("ledger_block.json");
    assert_eq!(
        line["extra"]["hoisted"], "instance block in place",
        "{line}"
    );
    assert_eq!(line["extra"]["fallback"], 1, "{line}");
    assert_eq!(line["extra"]["certain_errors"], 1, "{line}");
    assert_eq!(line["extra"]["woven"], 9, "{line}");
    assert_eq!(
        line["extra"]["fallback_reasons"].as_array().map(Vec::len),
        Some(1),
        "{line}"
    );
}

/// Returns the fixture's temporary directory and the work dir in it.
fn three_techniques_give_expected(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let (tmp, project) = fixture(name);
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let expected = expected(&project);
    let patches = project.join("patches");

    // Plain on every patch of a small fixture, on a sample of each set of a larger one.
    let sample_dir = tmp.path().join("plain-sample");
    let sample = plain_sample_dir(&patches, &sample_dir);
    let runs = [
        ("default", succlists(&work, &patches, &[])),
        ("--no-dedup", succlists(&work, &patches, &["--no-dedup"])),
        (
            "plain",
            succlists(&work, &sample_dir, &["--technique", "plain"]),
        ),
    ];
    // Every disagreement at once, so one failing run shows the whole picture.
    let mut wrong = Vec::new();
    for (technique, got) in &runs {
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            expected.keys().collect::<Vec<_>>(),
            "{technique}: one result per set"
        );
        for (set, want) in &expected {
            let (want, dir) = if *technique == "plain" {
                let w: String = sample[set]
                    .iter()
                    .map(|&i| want.as_bytes()[i] as char)
                    .collect();
                (w, &sample_dir)
            } else {
                (want.clone(), &patches)
            };
            if got[set] == want {
                continue;
            }
            // Plain's own difference counts only where plain repeats it (rules::instability).
            if *technique == "plain"
                && plain_disagreements(&work, &dir.join(set), &want, &got[set]).is_empty()
            {
                continue;
            }
            wrong.push(format!(
                "{technique:>10} {set:<28} {} (expected {want})",
                got[set]
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "verdicts differ from the plain-verified ones:\n{}",
        wrong.join("\n")
    );
    (tmp, work)
}
