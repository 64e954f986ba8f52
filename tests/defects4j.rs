//! `init --defects4j` on a checkout-shaped project (the calc fixture in Defects4J's old Math
//! layout, with `defects4j.build.properties`), without the defects4j command installed: the
//! declared trigger tests are the failing ones, other failing tests are excluded like
//! `defects4j test` excludes its broken tests, and verdicts equal plain validation.

mod common;
use common::*;

/// `patchval init --defects4j CHECKOUT -w WORK`, which must succeed; its stdout.
fn init_defects4j(checkout: &std::path::Path, work: &std::path::Path) -> String {
    patchval_ok(&[
        "init",
        "--defects4j",
        checkout.to_str().unwrap(),
        "-w",
        work.to_str().unwrap(),
    ])
}

#[test]
fn a_defects4j_checkout_is_validated_like_defects4j_test() {
    let tmp = tempfile::tempdir().unwrap();
    let checkout = tmp.path().join("Calc_1_buggy");
    copy_dir(
        &repo().join("testdata/calc/src/main/java"),
        &checkout.join("src/java"),
    );
    copy_dir(
        &repo().join("testdata/calc/src/test/java"),
        &checkout.join("src/test"),
    );
    // A test that fails on the unpatched program but is not a trigger test (a "broken" test).
    std::fs::write(
        checkout.join("src/test/org/example/calc/BrokenTest.java"),
        "package org.example.calc;\npublic class BrokenTest {\n    @org.junit.Test public void dependsOnTheEnvironment() { org.junit.Assert.fail(\"broken\"); }\n}\n",
    )
    .unwrap();
    std::fs::write(
        checkout.join(".defects4j.config"),
        "#File header\npid=Math\nvid=90b\n",
    )
    .unwrap();
    std::fs::write(
        checkout.join("defects4j.build.properties"),
        "#File header\nd4j.classes.modified=org.example.calc.MathUtil\nd4j.dir.src.classes=src/java\n\
         d4j.dir.src.tests=src/test\nd4j.tests.trigger=org.example.calc.MathUtilTest::binarySearchMissingMiddle,\
         org.example.calc.MathUtilTest::binarySearchMissingBeforeStart\n",
    )
    .unwrap();
    let work = tmp.path().join("work");
    let out = init_defects4j(&checkout, &work);
    assert!(
        out.contains("26 tests (2 failing on the unpatched program)"),
        "{out}"
    );
    assert!(
        out.lines().any(|l| l
            .contains("excluded org.example.calc.BrokenTest#dependsOnTheEnvironment")
            && l.contains("not a declared trigger test")),
        "{out}"
    );
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("state.json")).unwrap()).unwrap();
    let opts = state["project"]["jvm_options"].to_string();
    assert!(opts.contains("America/Los_Angeles"), "{opts}");

    // The calc patch set, moved to the checkout's layout.
    let mut set: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("testdata/calc/patches/binsearch_return.json"))
            .unwrap(),
    )
    .unwrap();
    let name = set["filename"]
        .as_str()
        .unwrap()
        .replace("src/main/java/", "src/java/");
    set["filename"] = name.into();
    let set_path = tmp.path().join("binsearch_return.json");
    std::fs::write(&set_path, set.to_string()).unwrap();
    let expected = expected(&repo().join("testdata/calc"))["binsearch_return.json"].clone();
    let (_, fast) = run(&work, &set_path, "schemata", 1);
    let (_, plain) = run(&work, &set_path, "plain", 1);
    assert_eq!(fast[0].succlist, expected);
    assert_agrees_with_plain(&work, &set_path, &expected, &plain[0].succlist);
}

/// testdata/d4jmath, a checkout in Math's old layout: `init --defects4j` runs exactly the tests
/// of Defects4J's `all.manual.tests` fileset for Math, lists the test classes it left out and why
/// (not the helpers and abstract classes it also leaves out), and
/// puts the data files kept next to the tests on the class path, so no test that passes there is
/// excluded as failing; verdicts equal plain's.
#[test]
fn a_math_checkout_runs_the_fileset_s_tests_with_their_resources() {
    let (_tmp, checkout) = fixture("d4jmath");
    let work = checkout.parent().unwrap().join("work");
    let out = init_defects4j(&checkout, &work);
    let mut tests = state_tests(&work);
    tests.sort();
    let p = "org.example.stats.";
    let want: Vec<(String, bool)> = [
        ("MeanTest#heightsFileHasFiveValues", true),
        ("MeanTest#meanOfNone", true),
        ("MeanTest#meanOfOne", false),
        ("MeanTest#meanOfTheHeightsFile", false),
        ("MeanTest#meanOfTwo", false),
        ("TrimmedMeanTestBinary#trimmedDropsTheExtremes", false),
        ("TrimmedMeanTestBinary#trimmedOfTwoIsTheMean", true),
    ]
    .iter()
    .map(|(t, passed)| (format!("{p}{t}"), *passed))
    .collect();
    assert_eq!(tests, want, "{out}");
    for (class, why) in [
        ("random.ShuffledMeanTest", "left out by `**/random/*.java`"),
        (
            "MeanScenarios",
            "not in Defects4J's all.manual.tests for Math",
        ),
    ] {
        assert!(
            out.lines()
                .any(|l| l.contains(&format!("excluded {p}{class}:")) && l.contains(why)),
            "{class}: {out}"
        );
    }
    // Classes the fileset leaves out that hold no tests are not reported: an abstract base
    // class (`**/*Abstract*Test.java`) and a helper.
    for class in ["AbstractMeanTest", "Samples"] {
        assert!(
            !out.contains(&format!("excluded {p}{class}:")),
            "{class}: {out}"
        );
    }
    assert!(
        !out.contains("not a declared trigger test"),
        "a test that passes with its resources was excluded: {out}"
    );

    let set = checkout.join("patches/mean_return.json");
    let expected = expected(&checkout)["mean_return.json"].clone();
    let (_, fast) = run(&work, &set, "schemata", 1);
    let (_, plain) = run(&work, &set, "plain", 1);
    assert_eq!(fast[0].succlist, expected);
    assert_agrees_with_plain(&work, &set, &expected, &plain[0].succlist);
}
