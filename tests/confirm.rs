//! `run --confirm-plausible`: every plausible patch validated once more by plain validation; with
//! plain agreeing nothing changes but the record of the confirmation; where plain disagrees once
//! (a failure injected into one plain JVM) and not when it validates the patch again, that is
//! plain's instability, recorded; and where plain repeats its disagreement (a failure injected
//! into every plain JVM) its verdict is the patch's, the disagreement is printed and recorded, and
//! the exit status says so.

mod common;
use common::*;
use patchval::exit::ExitCode;
use serde_json::Value;

fn run_json(work: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(work.join("runs/latest/run.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn plausible_patches_are_confirmed_by_plain_validation() {
    let (tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let set = project.join("patches/binsearch_return.json");
    let want = expected(&project)["binsearch_return.json"].clone();
    let plausible = want.chars().filter(|c| *c == 's').count();
    assert!(plausible >= 2, "{want}");
    let w = work.to_str().unwrap();

    // Plain agrees: the verdicts stand, and the record says what was confirmed and its cost.
    let (code, stdout, stderr) = output({
        let mut c = patchval_command();
        c.args(["run", "-j", "2", "-w", w, "--confirm-plausible"])
            .arg(&set);
        c
    });
    assert_eq!(code, ExitCode::Ok.code(), "{stdout}\n{stderr}");
    assert!(!stdout.contains("DISAGREEMENT"), "{stdout}");
    let r = &results(&work)[0];
    assert_eq!(r.succlist, want);
    let c = &r.extra["confirmation"];
    assert_eq!(c["patches"], plausible, "{c}");
    assert!(c["seconds"].as_f64().unwrap() > 0.0);
    assert!(c["disagreements"].is_null(), "{c}");
    let totals = &run_json(&work)["totals"]["confirm_plausible"];
    assert_eq!(totals["patches"], plausible);
    assert_eq!(totals["disagreements"], 0);
    assert!(stderr.contains("--confirm-plausible"), "{stderr}");

    // Without the flag there is no confirmation, and the key differs (`--resume` does not take
    // an unconfirmed result for a confirmed one).
    let _ = std::fs::remove_file(work.join("result.jsonl"));
    patchval_ok(&["run", "-w", w, set.to_str().unwrap()]);
    let plain_run = &results(&work)[0];
    assert!(plain_run.extra["confirmation"].is_null());
    assert_eq!(plain_run.succlist, want);

    // Plain fails once (its first test run, once per run through a marker file): validating the
    // patch again, plain does not repeat it, so that is plain's own instability (the patch stays
    // plausible, the confirmation says so) and no disagreement.
    let _ = std::fs::remove_file(work.join("result.jsonl"));
    let marker = tmp.path().join("fail-once");
    let fault = format!("fail:1:{}", marker.display());
    let (code, stdout, stderr) = output({
        let mut c = patchval_command();
        c.args(["run", "-j", "1", "-w", w, "--confirm-plausible"])
            .arg(&set)
            .env("PATCHVAL_FAULT", &fault);
        c
    });
    assert_eq!(code, ExitCode::Ok.code(), "{stdout}\n{stderr}");
    assert!(!stdout.contains("DISAGREEMENT"), "{stdout}");
    let r = &results(&work)[0];
    let first = want.find('s').unwrap();
    assert_eq!(r.succlist, want);
    let c = &r.extra["confirmation"];
    assert!(c["disagreements"].is_null(), "{c}");
    let unstable = c["unstable"].as_array().cloned().unwrap_or_default();
    assert_eq!(unstable.len(), 1, "{c}");
    let note = unstable[0].as_str().unwrap();
    assert!(
        note.starts_with(&format!(
            "patch {first}: plain's own instability: plain gave Fsss"
        )),
        "{note}"
    );

    // Plain fails every time (the first test run of every plain JVM): it repeats its verdict, so
    // the disagreement is real: the patch takes plain's verdict, the line on stdout and the exit
    // status say so.
    let _ = std::fs::remove_file(work.join("result.jsonl"));
    let (code, stdout, stderr) = output({
        let mut c = patchval_command();
        c.args(["run", "-j", "1", "-w", w, "--confirm-plausible"])
            .arg(&set)
            .env("PATCHVAL_FAULT", "fail:1");
        c
    });
    assert_eq!(code, ExitCode::Disagreement.code(), "{stdout}\n{stderr}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("DISAGREEMENT"))
        .unwrap_or_else(|| panic!("no DISAGREEMENT line:\n{stdout}"));
    assert!(line.contains("by plain validation"), "{line}");
    let r = &results(&work)[0];
    let d = &r.extra["confirmation"]["disagreements"];
    assert_eq!(d.as_array().unwrap().len(), plausible, "{d}");
    assert_eq!(d[0]["patch"], first);
    assert_eq!(d[0]["plain"], "F");
    assert_eq!(r.succlist.chars().nth(first), Some('F'), "{}", r.succlist);
    assert_eq!(
        run_json(&work)["totals"]["confirm_plausible"]["disagreements"],
        plausible
    );
}
