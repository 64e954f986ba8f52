//! The validation core as a library: one `Validator` over a work dir takes several submissions
//! (files, sets held in memory, diffs), streams each patch's outcome before its set is done,
//! keeps its workers (and their JVMs) across submissions, cancels what is still queued, and
//! writes one run record; its verdicts are `run`'s.

mod common;
use common::*;
use patchval::core::{Event, Next, Options, Validator};
use patchval::model::{Technique, Verdict};
use patchval::patchset::inputs::Format;
use patchval::workdir::WorkDir;
use std::time::Duration;

/// A validator in a test process starts its workers from the patchval executable, not from the
/// test binary.
fn worker_exe() {
    std::env::set_var("PATCHVAL_EXE", env!("CARGO_BIN_EXE_patchval"));
}

fn options(jobs: usize) -> Options {
    worker_exe();
    Options {
        jobs,
        technique: Technique::Schemata,
        dedup: true,
        split_ms: None,
        all_tests: false,
        matrix: false,
        resume: false,
        progress: false,
    }
}

#[test]
fn one_validator_streams_outcomes_keeps_its_workers_and_records_one_run() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let expected = expected(&project);
    let wd = WorkDir::new(&work);
    let v = Validator::open(&wd, options(1), vec!["core-test".into()]).unwrap();
    let set = project.join("patches/binsearch_return.json");

    // A submission streams every patch's outcome, then the set's result.
    let sub = v
        .submit(&[set.display().to_string()], Format::Auto)
        .unwrap();
    let (mut decided, mut done) = (Vec::new(), Vec::new());
    loop {
        match sub.next(Duration::from_millis(100)) {
            Next::Event(e) => match *e {
                Event::Decided { patch, outcome, .. } => {
                    assert!(done.is_empty(), "an outcome after its set was done");
                    decided.push((patch, outcome.verdict));
                }
                Event::Done { result, .. } => done.push(*result),
            },
            Next::Waiting => {}
            Next::Over => break,
        }
    }
    assert_eq!(done.len(), 1);
    let r = &done[0];
    let succlist: String = r.outcomes.iter().map(|o| o.verdict.letter()).collect();
    assert_eq!(
        succlist,
        expected["binsearch_return.json"],
        "{:?}",
        r.outcomes.first()
    );
    decided.sort_by_key(|(p, _)| *p);
    let streamed: Vec<Verdict> = decided.iter().map(|(_, v)| *v).collect();
    assert_eq!(
        decided.iter().map(|(p, _)| *p).collect::<Vec<_>>(),
        (0..r.outcomes.len()).collect::<Vec<_>>(),
        "every patch streamed once"
    );
    assert_eq!(streamed, r.verdicts());

    // The same set again, held in memory: the worker (and its JVM) of the first submission.
    let text = std::fs::read_to_string(&set).unwrap();
    let parsed = patchval::patchset::parse(&set, &text).unwrap();
    let again = v.submit_sets(&[parsed]).unwrap().wait();
    assert_eq!(again[0].verdicts(), r.verdicts());
    assert_eq!(again[0].extra.worker_jvm_starts, 1, "{:?}", again[0].extra);
    assert_eq!(
        again[0].extra.jvm_starts, 0,
        "no JVM started for the second submission"
    );

    // A single patch as a diff.
    let diff = std::fs::read_to_string(project.join("diffs/fix_paren.diff")).unwrap();
    let d = v
        .submit_diffs(&[("fix_paren".into(), diff)])
        .unwrap()
        .wait();
    assert_eq!(d[0].verdicts(), vec![Verdict::Plausible]);

    let totals = v.close().unwrap();
    assert_eq!(totals.sets, 3);
    let runs: Vec<_> = std::fs::read_dir(work.join("runs"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .collect();
    assert_eq!(runs.len(), 1, "one record for the validator's life");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("runs/latest/run.json")).unwrap())
            .unwrap();
    assert_eq!(meta["totals"]["sets"], 3);
    assert_eq!(meta["argv"][0], "core-test");
}

#[test]
fn a_cancelled_submission_leaves_its_queued_sets_unvalidated() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let wd = WorkDir::new(&work);
    let v = Validator::open(&wd, options(1), vec![]).unwrap();
    let sub = v
        .submit(
            &[project.join("patches").display().to_string()],
            Format::Auto,
        )
        .unwrap();
    let sets = sub.sets();
    assert!(sets >= 5, "{sets}");
    // One thread takes the first set; the others wait in the queue and are taken back.
    let left = sub.cancel();
    assert!(left >= sets - 1 && left < sets + 1, "{left} of {sets}");
    let done = sub.wait();
    assert_eq!(done.len() + left, sets);
    let totals = v.close().unwrap();
    assert_eq!(totals.not_validated, left);
    assert_eq!(totals.sets, done.len());
}
