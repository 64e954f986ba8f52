//! Sets too large for one woven file: a set whose schemata would be past the JVM's limits on a
//! method's code is compiled in groups, every patch still on the woven path, with the verdicts its
//! patches have by construction and plain validation's on a sample.

mod common;
use common::*;
use std::path::Path;

/// The sum `testdata/widestub`'s `Wide.spread` returns: every local it declares.
fn sum() -> String {
    (0..48)
        .map(|i| format!("a{i}"))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// Patch `k` at `Wide.spread`'s return and its verdict: `+ 0` plausible, `+ j` (j > 0) failing,
/// four in six `+ j * 0` plausible, one in six a `String` returned for an `int` (`C`).
fn patch(k: usize) -> (String, char) {
    let (s, j) = (sum(), k / 6);
    match k % 6 {
        0 => (format!("return {s} + {j};"), if j == 0 { 's' } else { 'F' }),
        5 => (format!("return {s} + \"{j}\";"), 'C'),
        _ => (format!("return {s} + {j} * 0;"), 's'),
    }
}

/// A manifest-v3 set of the given patches at `Wide.spread`'s return.
fn write_set(project: &Path, out: &Path, patches: &[String]) {
    let file = "src/main/java/org/example/wide/Wide.java";
    let text = std::fs::read_to_string(project.join(file)).unwrap();
    let unpatched = format!("return {};", sum());
    let at = text.find(&unpatched).expect("the return of Wide.spread");
    let set = serde_json::json!({
        "manifest_version": 3,
        "interface": "local",
        "bug": "widestub",
        "filename": file,
        "context_above": &text[..at],
        "unpatched": unpatched,
        "context_below": &text[at + unpatched.len()..],
        "patches": patches,
    });
    std::fs::write(out, set.to_string()).unwrap();
}

#[test]
fn a_set_past_the_jvms_limits_is_woven_in_groups() {
    let (tmp, project) = fixture("widestub");
    let work = tmp.path().join("work");
    init(&project, &work);
    // Each patch names the 48 locals, so its case in the stub passes them all: some hundreds of
    // patches put the stub's method past 64 KB of code.
    let n = 400;
    let (patches, expected): (Vec<String>, String) = (0..n).map(patch).unzip();
    let all = tmp.path().join("wide.json");
    write_set(&project, &all, &patches);
    let r = run_flags_ok(&work, &all, &[], 1);
    assert_eq!(r[0].succlist, expected, "{}", r[0].extra);
    let e = &r[0].extra;
    let compiled = expected.matches(['s', 'F']).count() as u64;
    assert_eq!(e["woven"], compiled, "{e}");
    assert_eq!(e["fallback"], 0, "{e}");
    let groups = e["schemata_groups"].as_u64().unwrap();
    assert!(groups >= 2, "{e}");
    // Groups are cut from the stub's estimated code up front, so none is past the limits: per
    // group a compile that finds the patches that do not compile and one without them, no compile
    // wasted on a group too large.
    assert!(
        e["javac_invocations"].as_u64().unwrap() <= 2 * groups,
        "{e}"
    );

    // Plain validation agrees on a sample: each kind of patch, from the first and the last group.
    let sample = [0, 1, 5, 6, n - 6, n - 2, n - 1];
    let some = tmp.path().join("sample.json");
    write_set(&project, &some, &sample.map(|k| patches[k].clone()));
    let plain = run_flags_ok(&work, &some, &["--technique", "plain"], 2);
    let woven: String = sample
        .iter()
        .map(|&k| r[0].succlist.as_bytes()[k] as char)
        .collect();
    assert_eq!(plain[0].succlist, woven);
}
