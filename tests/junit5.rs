//! JUnit 5 (Jupiter) projects: `init` lists Jupiter tests (parameterized ones with their parameter
//! types, `@Nested` classes by binary name, `@Disabled` ones left out) and the differential test on
//! the `junit5` fixture (schemata and plain agree with the verified verdicts).

mod common;

use common::{check_fixture, fixture, init};

const TRIGGER: &str =
    "org.example.grades.GraderTest$Boundaries#lowerBoundOfEachGrade(int,java.lang.String)";

fn jupiter_installed() -> bool {
    std::path::Path::new("/usr/share/java/junit-platform-launcher.jar").is_file()
}

#[test]
fn init_lists_jupiter_tests() {
    assert!(
        jupiter_installed(),
        "the Debian package junit5 is needed (scripts/setup.sh installs it)"
    );
    let (_tmp, project) = fixture("junit5");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("state.json")).unwrap()).unwrap();
    let tests = state["tests"].as_array().unwrap();
    let id = |t: &serde_json::Value| {
        format!(
            "{}#{}",
            t["id"]["class"].as_str().unwrap(),
            t["id"]["method"].as_str().unwrap()
        )
    };
    let ids: Vec<String> = tests.iter().map(id).collect();
    assert_eq!(ids.len(), 23, "{ids:#?}");
    for expected in [
        TRIGGER,
        "org.example.grades.GraderTest#letters(int,char)",
        "org.example.grades.GraderTest#passingIsStable(org.junit.jupiter.api.RepetitionInfo)",
        "org.example.grades.GraderTest#passingLetters",
        "org.example.grades.GraderTest#topScoreIsA",
        "org.example.grades.GraderTest$Boundaries$Extremes#extremesAreValid(int)",
        "org.example.grades.GradebookTest$WithThreeScores#oneMore(int)",
        "org.example.grades.MidScoreTest#scoreInRange",
        "org.example.grades.MidScoreTest#bandPasses(org.example.grades.Band)",
    ] {
        assert!(
            ids.iter().any(|i| i == expected),
            "{expected} not listed: {ids:#?}"
        );
    }
    assert!(
        !ids.iter().any(|i| i.contains("disabledNeverRuns")),
        "a @Disabled test was listed: {ids:#?}"
    );
    assert!(
        !ids.iter().any(|i| i.contains("ScoreContract")),
        "the abstract base class was listed: {ids:#?}"
    );
    // Exactly one trigger test: the nested parameterized one, failing on its `80, B` invocation.
    let failing: Vec<&serde_json::Value> = tests.iter().filter(|t| t["passed"] == false).collect();
    assert_eq!(failing.len(), 1, "{failing:#?}");
    assert_eq!(id(failing[0]), TRIGGER);
    let why = failing[0]["failure"].as_str().unwrap();
    assert!(
        why.contains("AssertionFailedError") && why.contains("expected: <B> but was: <C>"),
        "{why}"
    );
}

#[test]
fn junit5_fixture_schemata_equals_plain() {
    assert!(
        jupiter_installed(),
        "the Debian package junit5 is needed (scripts/setup.sh installs it)"
    );
    let fast = check_fixture("junit5");
    let fixed = fast
        .iter()
        .find(|r| r.set_name() == "letter_b_cond.json")
        .unwrap();
    assert!(fixed.succlist.starts_with("sssssss"), "{}", fixed.succlist);
}
