//! SEARCH/REPLACE blocks: paths before fences, exact then whitespace-tolerant matching, several
//! blocks in one patch, errors naming the block, and arbitrary input read without a panic.

use super::*;
use proptest::prelude::*;

const A: &str = "package p;\n\nclass A {\n    int f(int x) {\n        int y = x + 1;\n        return y;\n    }\n\n    int g(int x) {\n        return x;\n    }\n}\n";
const PATH: &str = "src/p/A.java";

fn resolve(name: &str) -> Result<(String, String), NotInProject> {
    crate::patchset::one_file(PATH, A, name)
}

#[test]
fn an_aider_block_in_a_fence_replaces_its_lines() {
    let text = "Here is the fix.\n\np/A.java\n```java\n<<<<<<< SEARCH\n        int y = x + 1;\n=======\n        int y = x + 2;\n        y++;\n>>>>>>> REPLACE\n```\n";
    assert!(is_blocks(text));
    let p = parse("fix.md", text, &resolve).unwrap();
    assert_eq!(p.name, "fix.md");
    let [e] = &p.edits[..] else { panic!("{p:?}") };
    assert_eq!(e.filename, PATH);
    assert_eq!(e.unpatched, "        int y = x + 1;\n");
    assert_eq!(e.patched, "        int y = x + 2;\n        y++;\n");
    assert_eq!(&A[e.start..e.start + e.unpatched.len()], e.unpatched);
}

#[test]
fn blocks_share_a_patch_and_a_fence_may_hold_the_path() {
    // Re-indented SEARCH lines match with the spaces at their ends ignored; the second block
    // takes the first one's file after `>>>>>>> REPLACE`.
    let text = "```java\n`src/p/A.java`:\n<<<<<<< SEARCH\nreturn y;\n=======\nreturn -y;\n>>>>>>> REPLACE\n<<<<<<< SEARCH\n    int g(int x) {\n        return x;\n=======\n    int g(int x) {\n        return x + 1;\n>>>>>>> REPLACE\n```\n";
    let p = parse("two.txt", text, &resolve).unwrap();
    assert_eq!(p.edits.len(), 2, "{p:?}");
    assert_eq!(p.edits[0].unpatched, "        return y;\n");
    assert_eq!(p.edits[0].patched, "return -y;\n");
    assert_eq!(
        p.edits[1].unpatched,
        "    int g(int x) {\n        return x;\n"
    );
}

#[test]
fn a_block_that_cannot_be_used_is_named() {
    let block = |path: &str, search: &str| {
        format!("{path}\n<<<<<<< SEARCH\n{search}\n=======\nint z;\n>>>>>>> REPLACE\n")
    };
    let err = |text: &str| parse("in.txt", text, &resolve).unwrap_err().to_string();
    let e = err(&block("A.java", "return z;"));
    assert!(
        e.contains("block 1") && e.contains("not in src/p/A.java"),
        "{e}"
    );
    let e = err(&format!(
        "{}{}",
        block("A.java", "return y;"),
        block("A.java", "    }")
    ));
    assert!(
        e.contains("block 2") && e.contains("2 times") && e.contains("lines 7, 11)"),
        "{e}"
    );
    let e = err(&block("B.java", "return y;"));
    assert!(e.contains("block 1") && e.contains("B.java"), "{e}");
    let e = err("<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n");
    assert!(e.contains("no file named"), "{e}");
    let e = err("A.java\n<<<<<<< SEARCH\nreturn y;\n");
    assert!(e.contains("no `=======`"), "{e}");
    let e = err("A.java\n<<<<<<< SEARCH\nreturn y;\n=======\n");
    assert!(e.contains("no `>>>>>>> REPLACE`"), "{e}");
    let e = err(&block("A.java", ""));
    assert!(e.contains("empty"), "{e}");
    assert!(!is_blocks("a diff\n"));
    // An empty SEARCH on a file the project lacks creates it.
    let p = parse("new.txt", &block("src/p/B.java", ""), &resolve).unwrap();
    assert_eq!(p.edits[0].filename, "src/p/B.java");
    assert_eq!(p.edits[0].patched, "int z;\n");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_blocks_never_panic(
        lines in prop::collection::vec(
            prop_oneof![
                Just("<<<<<<< SEARCH".to_string()),
                Just("=======".to_string()),
                Just(">>>>>>> REPLACE".to_string()),
                Just("```java".to_string()),
                Just("A.java".to_string()),
                Just("    }".to_string()),
                Just("        return y;".to_string()),
                "[\\PC]{0,16}",
            ],
            0..16,
        ),
        crlf: bool,
    ) {
        let text = lines.join(if crlf { "\r\n" } else { "\n" });
        let _ = parse("p.txt", &text, &resolve);
    }
}
