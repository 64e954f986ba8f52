//! Method-relative diffs: hunks located by their lines with whitespace ignored, the nearest to
//! the hinted method when several match, errors naming the hunk, and arbitrary input read
//! without a panic.

use super::*;
use proptest::prelude::*;

const A: &str = "package p;\n\nclass A {\n    /** Adds. */\n    @Deprecated\n    public int f(int x) {\n        return x + 1;\n    }\n\n    int f(int x, double y) {\n        return x;\n    }\n}\n";
const PATH: &str = "src/p/A.java";

fn resolve(name: &str) -> Result<(String, String), NotInProject> {
    crate::patchset::one_file(PATH, A, name)
}

fn rec(diff: &str, method: Option<&str>, line: Option<usize>) -> DiffRecord {
    DiffRecord {
        file: "A.java".into(),
        diff: diff.into(),
        method: method.map(str::to_string),
        line,
    }
}

const FIX: &str = "--- /tmp/5f0c_buggy.java\n+++ /tmp/5f0c_fixed.java\n@@ -1,3 +1,3 @@\n int f(int x, double y) {\n-    return x;\n+    return x * 2;\n }\n";

#[test]
fn a_hunk_is_located_by_its_lines_with_whitespace_ignored() {
    let es = edits(&rec(FIX, None, None), &resolve).unwrap();
    assert_eq!(es.len(), 1);
    let e = &es[0];
    assert_eq!(e.filename, PATH);
    assert_eq!(e.unpatched, "        return x;\n");
    // Added lines as the diff has them.
    assert_eq!(e.patched, "    return x * 2;\n");
    assert_eq!(&A[e.start..e.start + e.unpatched.len()], e.unpatched);
    // Hunks alone, without the temporary files' header.
    let bare = FIX.lines().skip(2).collect::<Vec<_>>().join("\n") + "\n";
    assert_eq!(edits(&rec(&bare, None, None), &resolve).unwrap(), es);
}

#[test]
fn several_matches_take_the_nearest_to_the_hint_or_are_refused() {
    // Line 5 of `f(int)` counted from its javadoc: its closing brace.
    let diff = "--- a_buggy.java\n+++ a_fixed.java\n@@ -5,1 +5,2 @@\n }\n+// end of f\n";
    let es = edits(&rec(diff, Some("f(int)"), None), &resolve).unwrap();
    assert_eq!(crate::patchset::line_of(A, es[0].start), 9, "{es:?}");
    assert_eq!(es[0].unpatched, "");
    assert_eq!(es[0].patched, "// end of f\n");
    let by_line = edits(&rec(diff, None, Some(7)), &resolve).unwrap();
    assert_eq!(by_line, es);
    let err = edits(&rec(diff, None, None), &resolve)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("hunk 1") && err.contains("lines 8, 12"),
        "{err}"
    );
}

#[test]
fn an_unlocatable_hunk_is_named() {
    let wrong = FIX.replace("-    return x;", "-    return y;");
    let err = edits(&rec(&wrong, None, None), &resolve)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(PATH) && err.contains("hunk 1") && err.contains("diff line 3"),
        "{err}"
    );
    let added_only = "--- a\n+++ b\n@@ -0,0 +1 @@\n+int z;\n";
    let err = edits(&rec(added_only, None, None), &resolve)
        .unwrap_err()
        .to_string();
    assert!(err.contains("no context"), "{err}");
    let err = edits(&rec("nothing", None, None), &resolve)
        .unwrap_err()
        .to_string();
    assert!(err.contains("unified diff"), "{err}");
    let mut elsewhere = rec(FIX, None, None);
    elsewhere.file = "Z.java".into();
    let err = edits(&elsewhere, &resolve).unwrap_err().to_string();
    assert!(err.contains("Z.java"), "{err}");
}

#[test]
fn records_of_diffs_are_read_as_patches() {
    let line = serde_json::json!({"file": "src/p/A.java", "diff": FIX, "method": "f"}).to_string();
    let read = crate::patchset::llm_records::read("d.jsonl", &line, true, None, &resolve);
    assert_eq!(read.patches.len(), 1, "{:?}", read.bad);
    assert_eq!(read.patches[0].name, "d.jsonl:1");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_diffs_and_hints_never_panic(
        body in prop::collection::vec(
            prop_oneof![
                Just("@@ -1,2 +1,2 @@".to_string()),
                Just("@@ -0,0 +1 @@".to_string()),
                Just("@@ -9,3 +9 @@".to_string()),
                "[ +-][\\PC]{0,16}",
                Just(" }".to_string()),
                Just("-    return x;".to_string()),
            ],
            0..10,
        ),
        headers: bool,
        method in prop::option::of("[\\PC]{0,10}"),
        line in prop::option::of(0usize..30),
    ) {
        let mut diff = if headers { "--- a\n+++ b\n".to_string() } else { String::new() };
        diff.push_str(&body.join("\n"));
        let _ = edits(&rec(&diff, method.as_deref(), line), &resolve);
    }
}
