//! Whole-method records: the method found by name, parameter types or line, the javadoc taken
//! in when the new text brings one, overloads refused with their candidates named, records of
//! one `patch` id joined (`llm_records`), and arbitrary input read without a panic.

use super::*;
use crate::patchset::llm_records::{self, Kind};
use proptest::prelude::*;

const A: &str = "package p;\n\nclass A {\n    /** Adds. */\n    @Deprecated\n    public int f(int x) {\n        return x + 1;\n    }\n\n    int f(int x, double y) {\n        return x;\n    }\n\n    A(java.util.List<String> xs, int... ns) {\n        Runnable r = new Runnable() {\n            public void run() {\n                System.out.println();\n            }\n        };\n    }\n}\n";
const PATH: &str = "src/p/A.java";

fn resolve(name: &str) -> Result<(String, String), NotInProject> {
    crate::patchset::one_file(PATH, A, name)
}

fn record(method: Option<&str>, line: Option<usize>, text: &str) -> MethodRecord {
    MethodRecord {
        file: "p/A.java".into(),
        method: method.map(str::to_string),
        line,
        text: text.into(),
    }
}

#[test]
fn declarations_are_every_method_and_constructor_with_their_types() {
    let ds = declarations(A).unwrap();
    let shown: Vec<(String, Vec<String>)> = ds
        .iter()
        .map(|d| (d.name.clone(), d.params.clone()))
        .collect();
    assert_eq!(
        shown,
        vec![
            ("f".to_string(), vec!["int".to_string()]),
            ("f".into(), vec!["int".into(), "double".into()]),
            (
                "A".into(),
                vec!["java.util.List<String>".into(), "int...".into()]
            ),
            ("run".into(), vec![]),
        ]
    );
    // The first `f` starts at its annotation, its javadoc just before.
    assert!(A[ds[0].range.clone()].starts_with("@Deprecated"));
    assert_eq!(&A[ds[0].javadoc.clone().unwrap()], "/** Adds. */");
    assert_eq!(ds[1].javadoc, None);
    assert_eq!(ds[0].lines, (5, 8));
}

#[test]
fn the_method_is_found_by_types_or_by_line_and_overloads_are_refused() {
    let new = "int f(int x, double y) {\n  return x * 2;\n}";
    let e = edit(&record(Some("f(int, double)"), None, new), &resolve).unwrap();
    assert!(e.unpatched.starts_with("int f(int x, double y)"), "{e:?}");
    assert!(e.unpatched.ends_with("return x;\n    }"), "{e:?}");
    assert_eq!(e.patched, new);
    assert_eq!(&A[e.start..e.start + e.unpatched.len()], e.unpatched);
    // Parameter names given, or a qualified name: the same method.
    let same = edit(&record(Some("A.f(int a, double b)"), None, new), &resolve).unwrap();
    assert_eq!(same, e);
    // By line, with or without the name.
    assert_eq!(
        edit(&record(Some("f"), Some(11), new), &resolve).unwrap(),
        e
    );
    assert_eq!(edit(&record(None, Some(11), new), &resolve).unwrap(), e);
    // The innermost: a method of an anonymous class inside a constructor.
    let run = edit(&record(None, Some(17), "public void run() {}"), &resolve).unwrap();
    assert!(run.unpatched.starts_with("public void run()"), "{run:?}");
    // Types compared loosely: no package, no type arguments, varargs as an array.
    let ctor = edit(&record(Some("A(List, int[])"), None, "A() {}"), &resolve).unwrap();
    assert!(ctor.unpatched.starts_with("A(java.util.List"), "{ctor:?}");
    // Two overloads, no line: the error names the file and both.
    let err = edit(&record(Some("f"), None, new), &resolve)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(PATH) && err.contains("f(int) at line 5") && err.contains("f(int, double)"),
        "{err}"
    );
    let err = edit(&record(Some("g"), None, new), &resolve)
        .unwrap_err()
        .to_string();
    assert!(err.contains("`g`") && err.contains("run()"), "{err}");
    let err = edit(&record(None, None, new), &resolve)
        .unwrap_err()
        .to_string();
    assert!(err.contains("neither"), "{err}");
    let err = edit(&record(None, Some(2), new), &resolve)
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 2"), "{err}");
    let mut nowhere = record(Some("f(int)"), None, new);
    nowhere.file = "Z.java".into();
    let err = edit(&nowhere, &resolve).unwrap_err().to_string();
    assert!(err.contains("Z.java"), "{err}");
}

#[test]
fn a_whole_file_without_a_method_or_line_replaces_the_file() {
    let file = A.replace("return x + 1;", "return x + 2;");
    let fenced = format!("```java\n{file}```\n");
    for text in [file.as_str(), fenced.as_str()] {
        let e = edit(&record(None, None, text), &resolve).unwrap();
        assert_eq!((e.start, e.unpatched.as_str()), (0, A));
        assert_eq!(e.patched, file);
    }
    // A method named, the text is a method's even when it reads as a file.
    let err = edit(&record(Some("f(int)"), None, &file), &resolve);
    assert!(err.is_ok_and(|e| e.start > 0));
}

#[test]
fn a_new_javadoc_replaces_the_old_one_and_a_fence_is_left_out() {
    let new = "/** Adds one. */\npublic int f(int x) {\n    return x + 2;\n}";
    let e = edit(&record(Some("f(int)"), None, new), &resolve).unwrap();
    assert!(
        e.unpatched.starts_with("/** Adds. */\n    @Deprecated"),
        "{e:?}"
    );
    assert_eq!(e.patched, new);
    // Without a javadoc the old one stays; a Markdown fence around the text goes.
    let fenced = "```java\npublic int f(int x) {\n    return x + 2;\n}\n```\n";
    let e = edit(&record(Some("f(int)"), None, fenced), &resolve).unwrap();
    assert!(e.unpatched.starts_with("@Deprecated"), "{e:?}");
    assert_eq!(e.patched, "public int f(int x) {\n    return x + 2;\n}");
    let err = edit(&record(Some("f(int)"), None, "```java\n```"), &resolve).unwrap_err();
    assert!(matches!(err, MethodError::EmptyText), "{err}");
}

#[test]
fn records_of_one_patch_id_make_one_patch_and_a_bad_record_costs_its_patch() {
    let lines = [
        r#"{"patch": "p1", "file": "A.java", "method": "f(int)", "text": "int f(int x) { return 0; }"}"#,
        r#"{"patch": "p1", "file": "A.java", "method": "f(int,double)", "text": "int f(int x, double y) { return 1; }"}"#,
        r#"{"file": "A.java", "line": 7, "text": "int f(int x) { return 2; }", "model": "gpt"}"#,
        r#"{"patch": 2, "file": "A.java", "method": "f", "text": "int f() { return 3; }"}"#,
        "not json",
        r#"{"file": "A.java", "method": "f(int)"}"#,
    ]
    .join("\n");
    let read = llm_records::read("m.jsonl", &lines, true, None, &resolve);
    let names: Vec<&str> = read.patches.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["m.jsonl (p1)", "m.jsonl:3"]);
    assert_eq!(read.patches[0].edits.len(), 2);
    let bad: Vec<String> = read.bad.iter().map(|(n, e)| format!("{n}: {e}")).collect();
    assert_eq!(bad.len(), 3, "{bad:?}");
    assert!(
        bad[0].starts_with("m.jsonl:5: m.jsonl:5: invalid JSON"),
        "{bad:?}"
    );
    assert!(
        bad[1].starts_with("m.jsonl (2): m.jsonl:4: ") && bad[1].contains("2 methods"),
        "{bad:?}"
    );
    assert!(bad[2].contains("neither `text`"), "{bad:?}");
    // A JSON array, and the format named: a record without `text` is refused.
    let array = format!("[{}]", lines.lines().take(3).collect::<Vec<_>>().join(","));
    let read = llm_records::read("m.json", &array, false, Some(Kind::Method), &resolve);
    let names: Vec<&str> = read.patches.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["m.json (p1)", "m.json[2]"]);
    let read = llm_records::read("m.json", &array, false, Some(Kind::Diff), &resolve);
    assert!(
        read.patches.is_empty() && read.bad.len() == 2,
        "{:?}",
        read.bad
    );
}

#[test]
fn records_are_told_apart_from_other_json_inputs() {
    let v = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap();
    assert!(llm_records::is_records(&v(
        r#"{"file": "A.java", "text": "x"}"#
    )));
    assert!(llm_records::is_records(&v(
        r#"[{"file": "A.java", "diff": "x"}]"#
    )));
    assert!(!llm_records::is_records(&v(
        r#"{"diff": "x", "name": "n"}"#
    )));
    assert!(!llm_records::is_records(&v(
        r#"{"filename": "A.java", "oldcode": "x", "code": "y"}"#
    )));
    assert!(!llm_records::is_records(&v(
        r#"{"file": "A.java", "text": "x", "oldcode": "y"}"#
    )));
    assert!(!llm_records::is_records(&v(r#"{"manifest_version": 3}"#)));
    assert!(llm_records::lines_are_records(
        "\n{\"file\": \"A.java\", \"text\": \"x\"}\n"
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_records_never_panic(
        method in prop::option::of("[\\PC]{0,12}"),
        line in prop::option::of(0usize..40),
        text in "[\\PC\\n]{0,60}",
        raw in "[\\PC\\n]{0,120}",
    ) {
        let _ = edit(&record(method.as_deref(), line, &text), &resolve);
        let _ = declarations(&raw);
        let _ = llm_records::read("r.jsonl", &raw, true, None, &resolve);
        let _ = llm_records::read("r.json", &raw, false, Some(Kind::Method), &resolve);
    }

    #[test]
    fn damaged_files_never_panic(cut in 0usize..400, at in 0usize..400, junk in "[\\PC\n]{0,8}",
                                 method in prop::option::of("f|A|run|f\\(int\\)|f\\(|\\)"),
                                 line in prop::option::of(0usize..25)) {
        let mut file: String = A.chars().take(cut).collect();
        let k = file.char_indices().map(|(i, _)| i).nth(at).unwrap_or(file.len());
        file.insert_str(k, &junk);
        let resolve = |_: &str| Ok(("A.java".to_string(), file.clone()));
        let _ = edit(&record(method.as_deref(), line, "int f() {}"), &resolve);
    }
}
