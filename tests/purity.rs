//! Tree eligibility end to end: the `purity` fixture holds, per rule of `weave/eligible.rs` and
//! `project/purity.rs`, patches that change the state at the location exactly like a plausible
//! patch but also have an effect a test observes (a call a test subclass overrides, a
//! constructor writing a static field, an implicit `toString()`, `Map.get` on an access-ordered
//! map, a class initialiser with an effect). Deduplicating them with the plausible patch would
//! change their verdicts; the default technique must give plain's, and the other patches must
//! still share the tree.

mod common;
use common::*;

/// Per set: the patches that may take the tree path (the others have an effect the key does not
/// see, or call a JDK method that may call back into the fixture's impure `Label.toString`).
const TREE: &[(&str, &[usize])] = &[
    ("access_order.json", &[0, 3]),
    ("class_init.json", &[0, 2, 4]),
    ("constructor.json", &[0, 2, 3, 4]),
    ("implicit_tostring.json", &[0, 2, 3]),
    ("overridable_call.json", &[0, 2, 5]),
];

#[test]
fn purity_fixture_default_equals_no_dedup_and_plain() {
    let (_tmp, project) = fixture("purity");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let expected = expected(&project);
    let patches = project.join("patches");

    let (out, default) = run(&work, &patches, "schemata", 2);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let no_dedup = run_flags_ok(&work, &patches, &["--no-dedup"], 2);
    let (_, plain) = run(&work, &patches, "plain", 2);

    assert_eq!(default.len(), expected.len());
    assert_eq!(no_dedup.len(), expected.len());
    assert_eq!(plain.len(), expected.len());
    for ((d, n), p) in default.iter().zip(&no_dedup).zip(&plain) {
        let set = d.set_name();
        assert_agrees_with_plain(&work, &patches.join(&set), &expected[&set], &p.succlist);
        assert_eq!(
            d.succlist, expected[&set],
            "{set}: default vs verified expectation"
        );
        assert_eq!(
            n.succlist, expected[&set],
            "{set}: --no-dedup vs verified expectation"
        );
        let (_, tree) = TREE.iter().find(|(s, _)| *s == set).unwrap();
        assert_eq!(
            d.extra["tree_patches"].as_u64().unwrap() as usize,
            tree.len(),
            "{set}: {}",
            d.extra
        );
        assert_eq!(
            d.extra["woven"].as_u64().unwrap() as usize,
            d.succlist.len()
        );
        eprintln!(
            "{set}: {} of {} woven patches on the tree path; sequential: {}",
            tree.len(),
            d.succlist.len(),
            d.extra["sequential_reasons"]
        );
    }
}
