//! `patchval bench` end to end: two bugs with seeded faults (testdata/d4jmath as a Defects4J
//! checkout, testdata/locate as a project) and one that cannot be initialised, plain and the
//! default technique side by side on the same generated patches: every verdict agrees, each bug's
//! fix is found, the broken bug is named and the others go on, a second run resumes.

mod common;
use common::*;

#[test]
fn two_bugs_side_by_side_with_plain_and_a_broken_one_named() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    copy_dir(&testdata("d4jmath"), &root.join("d4jmath"));
    copy_dir(&testdata("locate"), &root.join("shapes"));
    let bugs = write_file(
        root,
        "bugs.csv",
        "name,kind,path\nd4jmath,defects4j,d4jmath\nshapes,project,shapes\nmissing,project,nowhere\n",
    );
    let out = root.join("out");
    let args = [
        "bench",
        "--bugs",
        bugs.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--techniques",
        "plain,default",
        "--top",
        "2",
        "--per-location",
        "15",
        "-j",
        "2",
    ];
    let (code, stdout, stderr) = output({
        let mut c = patchval_command();
        c.args(args);
        c
    });
    // A bug that could not be benched makes the run partial (exit 1), the rest is there.
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("missing: not benched: init failed") && stdout.contains("nowhere"),
        "{stdout}"
    );
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).unwrap();
    let rows = record["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4, "{stdout}");
    for bug in ["d4jmath", "shapes"] {
        let row = |t: &str| {
            rows.iter()
                .find(|r| r["bug"] == bug && r["technique"] == t)
                .unwrap_or_else(|| panic!("{bug} {t}: {stdout}"))
        };
        let (plain, fast) = (row("plain"), row("default"));
        assert_eq!(plain["verdicts"], fast["verdicts"], "{bug}");
        assert_eq!(fast["disagreements"], 0, "{bug}");
        assert_eq!(
            plain["counts"]["s"], 1,
            "{bug}: the seeded bug's fix, once: {stdout}"
        );
        assert_eq!(
            plain["before_first_plausible"],
            fast["before_first_plausible"]
        );
        assert!(fast["first_plausible_seconds"].as_f64().unwrap() > 0.0);
        assert!(fast["test_executions"].as_u64().unwrap() > 0);
        assert!(plain["core_seconds"].as_f64().unwrap() > 0.0);
    }
    let csv = std::fs::read_to_string(out.join("bench.csv")).unwrap();
    assert_eq!(csv.lines().count(), 5, "{csv}");
    assert!(
        csv.starts_with("bug,technique,jobs,sets,patches,plausible,compile_errors"),
        "{csv}"
    );
    // Run again: every row is taken from the record, none measured anew.
    let (code, again, stderr) = output({
        let mut c = patchval_command();
        c.args(args);
        c
    });
    assert_eq!(code, 1, "{again}\n{stderr}");
    assert!(!stderr.contains("bench: d4jmath: plain"), "{stderr}");
    let record2: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).unwrap();
    assert_eq!(record["rows"], record2["rows"]);

    // Once more with two external validators: patchval's own plain validation as a separate
    // process printing its ExpressAPR result line, and a command that fails. Only their rows
    // are measured; the first agrees with plain, the second fails its bugs with the reason.
    let exe = env!("CARGO_BIN_EXE_patchval");
    let again = format!(
        "again={exe} run --work-dir {{work}} --technique plain -j 1 {{set}} >&2 && tail -n 1 {{work}}/result.jsonl"
    );
    let (code, third, stderr) = output({
        let mut c = patchval_command();
        c.args(args)
            .args(["--external", &again, "--external", "broken=exit 3 # {set}"]);
        c
    });
    assert_eq!(code, 1, "{third}\n{stderr}");
    assert!(!stderr.contains("bench: d4jmath: plain"), "{stderr}");
    let record3: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).unwrap();
    let rows3 = record3["rows"].as_array().unwrap();
    assert_eq!(rows3.len(), 6, "{third}");
    for bug in ["d4jmath", "shapes"] {
        let row = |t: &str| {
            rows3
                .iter()
                .find(|r| r["bug"] == bug && r["technique"] == t)
        };
        let (plain, ext) = (
            row("plain").unwrap(),
            row("again").expect("the external row"),
        );
        assert_eq!(plain["verdicts"], ext["verdicts"], "{bug}");
        assert_eq!(ext["disagreements"], 0, "{bug}");
        assert!(ext["test_executions"].as_u64().unwrap() > 0, "{bug}");
        assert!(
            third.contains(&format!("{bug}: not benched: broken: `exit 3")),
            "{third}"
        );
    }
}
