//! `patchval locate` end to end: spectrum-based fault localization over the line coverage `init`
//! records, on testdata/d4jmath (seeded bug: `Mean.arithmetic` sums from index 1, line 15).

mod common;
use common::*;

#[test]
fn the_seeded_bug_of_d4jmath_ranks_in_the_top_five() {
    let (_tmp, checkout) = fixture("d4jmath");
    let work = checkout.parent().unwrap().join("work");
    let w = work.to_str().unwrap();
    patchval_ok(&["init", "--defects4j", checkout.to_str().unwrap(), "-w", w]);
    // Tarantula scores 1 for every line only failing tests run (`Mean.trimmed`'s, run by one
    // failing test alone): the must mark, put first, is what brings the bug back into the top 5.
    for (formula, flag) in [("ochiai", ""), ("dstar", ""), ("tarantula", "--must-first")] {
        let mut args = vec![
            "locate",
            "-w",
            w,
            "--formula",
            formula,
            "--json",
            "--top",
            "5",
        ];
        args.extend([flag].into_iter().filter(|f| !f.is_empty()));
        let out = patchval_ok(&args);
        let l: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(l["failing_tests"].as_array().unwrap().len(), 4, "{out}");
        assert_eq!(l["passing_tests"], 3, "{out}");
        let suspects = l["suspects"].as_array().unwrap();
        assert!(suspects.len() <= 5, "{out}");
        let bug = suspects
            .iter()
            .find(|s| s["file"] == "src/java/org/example/stats/Mean.java" && s["line"] == 15)
            .unwrap_or_else(|| panic!("{formula}: the buggy line is not in the top 5: {out}"));
        assert_eq!(bug["method"], "arithmetic");
        assert_eq!(bug["class"], "org.example.stats.Mean");
        assert!(bug["statement"]
            .as_str()
            .unwrap()
            .starts_with("for (int i = 1;"));
        assert_eq!(bug["must"], true, "every failing test runs it");
        assert_eq!(bug["failing"].as_array().unwrap().len(), 4);
        // Ranks never decrease and tied lines share one.
        let ranks: Vec<f64> = suspects
            .iter()
            .map(|s| s["rank"].as_f64().unwrap())
            .collect();
        assert!(
            ranks.windows(2).all(|w| w[0] <= w[1]),
            "{formula}: {ranks:?}"
        );
    }
    // The table for people names the line, its method and its text.
    let table = patchval_ok(&["locate", "-w", w]);
    assert!(
        table.lines().any(|l| l.contains("Mean.java:15")
            && l.contains("arithmetic")
            && l.contains("for (int i = 1;")),
        "{table}"
    );
    // A work dir without line coverage (initialised by an older patchval) is named, with the cure.
    std::fs::remove_file(work.join("lines.json")).unwrap();
    let out = patchval(&["locate", "-w", w]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("lines.json") && err.contains("init"), "{err}");
}

/// testdata/locate: the bug in a lambda's body, an inner class, and a constructor call whose
/// argument branches at the start of a line. Every test runs warm (the line probes kept the
/// class files valid: a probe before that `new` made them fail to load, and the class fresh).
#[test]
fn a_bug_in_a_lambda_is_found_in_its_file_and_the_probes_keep_every_class_valid() {
    let (_tmp, project) = fixture("locate");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let warm = state_warm(&work);
    assert_eq!(warm.len(), 6);
    assert!(warm.iter().all(|(_, _, w)| *w), "{warm:?}");
    let w = work.to_str().unwrap();
    let out = patchval_ok(&["locate", "-w", w, "--json", "--top", "0"]);
    let l: serde_json::Value = serde_json::from_str(&out).unwrap();
    let suspects = l["suspects"].as_array().unwrap();
    let file = "src/main/java/org/example/shapes/Shapes.java";
    let at = |line: u64| {
        suspects
            .iter()
            .find(|s| s["line"] == line)
            .unwrap_or_else(|| panic!("line {line} not ranked: {out}"))
    };
    let bug = at(24);
    assert_eq!(bug["file"], file);
    assert_eq!(bug["method"], "lambda$perimeter$0");
    assert_eq!(bug["statement"], "s * 3;");
    assert!(bug["rank"].as_f64().unwrap() <= 3.0, "{out}");
    // The inner class's constructor is in its top-level class's file.
    let ctor = at(10);
    assert_eq!(ctor["file"], file);
    assert_eq!(ctor["class"], "org.example.shapes.Shapes$Box");
    // A line no failing test runs is not a suspect (`largest`'s loop).
    assert!(suspects.iter().all(|s| s["line"] != 31), "{out}");
}
