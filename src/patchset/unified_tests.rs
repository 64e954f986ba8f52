//! Unit and property tests of the unified diff reader.

use super::*;
use proptest::prelude::*;

/// A TBar `Patch_N.txt` as TBar publishes it: a `git diff` whose last line has no newline.
const TBAR: &str = "diff --git a/src/java/org/x/Frequency.java b/src/java/org/x/Frequency.java
index c8deca3..bfe0188 100644
--- a/src/java/org/x/Frequency.java
+++ b/src/java/org/x/Frequency.java
@@ -107,4 +107,6 @@ public class Frequency implements Serializable {
     public void addValue(Object v) {
-            addValue((Comparable<?>) v);            
+            if (v instanceof Comparable<?>) {
+\taddValue((Comparable<?>) v);
+\t}
     }
                      }";

#[test]
fn a_tbar_diff_without_a_final_newline_is_read_whole() {
    let text = TBAR.replace("@@ -107,4 +107,6 @@", "@@ -107,3 +107,5 @@");
    let files = parse(&text).unwrap();
    assert_eq!(files.len(), 1);
    let f = &files[0];
    assert_eq!(f.old.as_deref(), Some("a/src/java/org/x/Frequency.java"));
    assert_eq!(f.new.as_deref(), Some("b/src/java/org/x/Frequency.java"));
    assert_eq!(f.hunks.len(), 1);
    let h = &f.hunks[0];
    assert_eq!(
        (h.old_start, h.old_count, h.new_start, h.new_count),
        (107, 3, 107, 5)
    );
    assert_eq!(
        h.lines[1],
        Line::Remove("            addValue((Comparable<?>) v);            ".into())
    );
    assert_eq!(h.lines.last(), Some(&Line::Context("    }".into())));
    // With the counts of TBar's header, the line without a newline is the hunk's last.
    let files = parse(TBAR).unwrap();
    assert_eq!(
        files[0].hunks[0].lines.last(),
        Some(&Line::Context("                     }".into()))
    );
}

#[test]
fn no_newline_markers_say_which_side_lacks_it() {
    let d =
        "--- a/A.java\n+++ b/A.java\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+z\n";
    let h = &parse(d).unwrap()[0].hunks[0];
    assert!(h.old_missing_newline && !h.new_missing_newline);
    let d = "--- a/A.java\n+++ b/A.java\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n\\ No newline at end of file";
    let h = &parse(d).unwrap()[0].hunks[0];
    assert!(!h.old_missing_newline && h.new_missing_newline);
    let d = "--- a/A.java\n+++ b/A.java\n@@ -1,2 +1,2 @@\n-x\n+w\n y\n\\ Kein Zeilenumbruch am Dateiende.\n";
    let h = &parse(d).unwrap()[0].hunks[0];
    assert!(h.old_missing_newline && h.new_missing_newline);
}

#[test]
fn crlf_git_headers_several_files_and_dev_null() {
    let d = "From abc Mon Sep 17 00:00:00 2001\r\nSubject: fix\r\n\r\ndiff --git a/A.java b/A.java\r\n--- a/A.java\r\n+++ b/A.java\r\n@@ -1 +1 @@\r\n-x\r\n+y\r\ndiff --git a/N.java b/N.java\r\nnew file mode 100644\r\nindex 0000000..1111111\r\n--- /dev/null\r\n+++ b/N.java\r\n@@ -0,0 +1,2 @@\r\n+class N {\r\n+}\r\ndiff --git a/D.java b/D.java\r\ndeleted file mode 100644\r\n--- a/D.java\r\n+++ /dev/null\r\n@@ -1 +0,0 @@\r\n-class D {}\r\n";
    let files = parse(d).unwrap();
    assert_eq!(files.len(), 3);
    assert_eq!(
        files[0].hunks[0].lines,
        vec![Line::Remove("x".into()), Line::Add("y".into())]
    );
    assert_eq!(
        (files[1].old.as_deref(), files[1].new.as_deref()),
        (None, Some("b/N.java"))
    );
    assert_eq!(
        (files[2].old.as_deref(), files[2].new.as_deref()),
        (Some("a/D.java"), None)
    );
}

#[test]
fn diff_u_timestamps_quoted_names_and_binary_changes() {
    let d = "--- src/A.java\t2024-01-01 10:00:00.000000000 +0100\n+++ src/A.java\t2024-01-02 10:00:00.000000000 +0100\n@@ -3 +3 @@\n-a\n+b\n";
    assert_eq!(parse(d).unwrap()[0].old.as_deref(), Some("src/A.java"));
    let d = "diff --git \"a/src/\\303\\244 b.java\" \"b/src/\\303\\244 b.java\"\n--- \"a/src/\\303\\244 b.java\"\n+++ \"b/src/\\303\\244 b.java\"\n@@ -1 +1 @@\n-a\n+b\n";
    assert_eq!(parse(d).unwrap()[0].new.as_deref(), Some("b/src/ä b.java"));
    let d =
        "diff --git a/x.png b/x.png\nindex 1..2 100644\nBinary files a/x.png and b/x.png differ\n";
    let f = &parse(d).unwrap()[0];
    assert!(f.binary && f.hunks.is_empty());
}

#[test]
fn a_removed_line_that_looks_like_a_header_is_a_removed_line() {
    let d = "--- a/A.java\n+++ b/A.java\n@@ -1,2 +0,0 @@\n--- a/B.java\n-+++ b/B.java\n";
    let files = parse(d).unwrap();
    assert_eq!(files.len(), 1);
    assert_eq!(
        files[0].hunks[0].lines,
        vec![
            Line::Remove("-- a/B.java".into()),
            Line::Remove("+++ b/B.java".into())
        ]
    );
}

#[test]
fn malformed_diffs_are_errors_naming_the_line() {
    let truncated = "--- a/A.java\n+++ b/A.java\n@@ -1,3 +1,3 @@\n x\n-y\n";
    let e = parse(truncated).unwrap_err();
    assert!(
        matches!(
            e,
            DiffError::ShortHunk {
                hunk: 3,
                old: 1,
                new: 2,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("truncated"), "{e}");
    let interrupted = "--- a/A.java\n+++ b/A.java\n@@ -1,3 +1,3 @@\n x\nsomething else\n y\n";
    assert!(matches!(
        parse(interrupted),
        Err(DiffError::ShortHunk { line: 5, .. })
    ));
    assert_eq!(parse(""), Err(DiffError::NoFile));
    assert_eq!(parse("just some words\nand more\n"), Err(DiffError::NoFile));
    assert!(matches!(
        parse("@@ -1 +1 @@\n-a\n+b\n"),
        Err(DiffError::HunkWithoutFile { line: 1 })
    ));
    let bad = "--- a/A.java\n+++ b/A.java\n@@ -x,1 +1 @@\n-a\n+b\n";
    assert!(matches!(
        parse(bad),
        Err(DiffError::BadHunkHeader { line: 3, .. })
    ));
    let huge = "--- a/A.java\n+++ b/A.java\n@@ -1,99999999999999999999 +1 @@\n-a\n";
    assert!(matches!(parse(huge), Err(DiffError::BadHunkHeader { .. })));
}

/// Lines a diff is made of, and lines that are not.
fn diffish_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("diff --git a/A.java b/A.java".to_string()),
        Just("--- a/A.java".to_string()),
        Just("+++ b/A.java".to_string()),
        Just("--- /dev/null".to_string()),
        Just("+++ /dev/null".to_string()),
        Just("--- \"a/\\303".to_string()),
        Just("diff --git \"a/x".to_string()),
        Just("\\ No newline at end of file".to_string()),
        Just("new file mode 100644".to_string()),
        Just("deleted file mode 100644".to_string()),
        Just("Binary files a/x and b/x differ".to_string()),
        Just("rename from \"q".to_string()),
        (0usize..4, 0usize..4, 0usize..4, 0usize..4)
            .prop_map(|(a, b, c, d)| format!("@@ -{a},{b} +{c},{d} @@")),
        Just("@@ -1 +1 @@".to_string()),
        Just("@@ -".to_string()),
        "[ +\\-\\\\@]?[a-z{};()\"\\\\ \t\r]{0,12}",
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn no_text_makes_the_reader_panic(lines in prop::collection::vec(diffish_line(), 0..40), crlf: bool, last_newline: bool) {
        let end = if crlf { "\r\n" } else { "\n" };
        let mut text = lines.join(end);
        if last_newline {
            text.push_str(end);
        }
        let _ = parse(&text);
    }

    #[test]
    fn no_string_makes_the_reader_panic(text in any::<String>()) {
        let _ = parse(&text);
    }
}
