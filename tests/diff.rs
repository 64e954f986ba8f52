//! Patches as repair tools write them: unified diffs (`run --diff`: `.diff` files and JSON lines;
//! several hunks, several files, a hunk that adds a method, a new file) and edit-list manifests,
//! grouped into sets by location. Their verdicts are plain's and the fixture's checked ones, and
//! the patches at one location share one compile of the schemata.

mod common;
use common::*;
use patchval::exit::ExitCode;
use serde_json::Value;
use std::collections::BTreeMap;

#[test]
fn multi_hunk_and_multi_file_diffs_validate_with_plain_s_verdicts() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let diffs = project.join("diffs");
    let expected = expected_of(&diffs.join("expected.json"));
    let mut by = BTreeMap::new();
    for flags in [vec!["--diff"], vec!["--diff", "--technique", "plain"]] {
        let results = run_flags_ok(&work, &diffs, &flags, 2);
        let got = verdicts_by_name(&work, &diffs);
        assert_eq!(got, expected, "{flags:?}");
        by.insert(flags.len(), results);
    }
    // The one-hunk patches at the bug share a set; the ones whose every hunk is in the set's
    // location are woven, in one compile of the schemata (two when some do not compile).
    let default = &by[&1];
    let at_bug = default
        .iter()
        .find(|r| r.set_name().contains("MathUtil-L36"))
        .unwrap_or_else(|| panic!("no set at the bug: {default:?}"));
    assert!(at_bug.succlist.len() >= 7, "{at_bug:?}");
    assert!(at_bug.extra["woven"].as_u64().unwrap() >= 5, "{at_bug:?}");
    assert!(
        at_bug.extra["javac_invocations"].as_u64().unwrap() <= 2,
        "{at_bug:?}"
    );
    // Patches that edit other files are compiled with them, one by one.
    let reasons = default
        .iter()
        .flat_map(|r| {
            r.extra["fallback_reasons"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .collect::<Vec<_>>();
    assert!(
        reasons
            .iter()
            .any(|r| r.as_str().unwrap().contains("also edits other files")),
        "{reasons:?}"
    );
    // The grouped sets are in the work dir; the user's checkout is untouched.
    assert!(work.join("inputs").read_dir().unwrap().count() >= 1);
    assert!(!project
        .join("src/main/java/org/example/calc/Helper.java")
        .exists());
}

/// Whole methods rewritten, as a function-level LLM repairer's outputs become diffs: one set whose
/// location is the method's body, which declares locals and runs to the end of the body, so each
/// patch's version of the body is its unit: all woven, in one compile, with plain's verdicts.
#[test]
fn whole_method_rewrites_are_woven_with_plain_s_verdicts() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let methods = project.join("methods");
    let expected = expected_of(&methods.join("expected.json"));
    let mut by = BTreeMap::new();
    for flags in [vec!["--diff"], vec!["--diff", "--technique", "plain"]] {
        let results = run_flags_ok(&work, &methods, &flags, 2);
        assert_eq!(verdicts_by_name(&work, &methods), expected, "{flags:?}");
        by.insert(flags.len(), results);
    }
    let [set] = &by[&1][..] else {
        panic!("one set: {:?}", by[&1]);
    };
    assert_eq!(set.extra["fallback"], 0, "{set:?}");
    assert_eq!(set.extra["woven"], 5, "{set:?}");
    assert_eq!(set.extra["javac_invocations"], 1, "{set:?}");
}

/// Patches whose hunks lie in two methods (`sumRange` and `binarySearch`), or that add a private
/// helper: plain's verdicts, and their tests are exactly the tests that executed a method they
/// change (by init's coverage) and the failing ones, not every test (`weave::members`).
#[test]
fn a_two_method_patch_runs_the_union_of_the_two_methods_tests() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let members = project.join("members");
    let expected = expected_of(&members.join("expected.json"));
    for flags in [vec!["--diff", "--technique", "plain"], vec!["--diff"]] {
        run_flags_ok(&work, &members, &flags, 2);
        assert_eq!(verdicts_by_name(&work, &members), expected, "{flags:?}");
    }
    let coverage: Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("coverage.json")).unwrap())
            .unwrap();
    let state: Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("state.json")).unwrap()).unwrap();
    let ids = |names: &[&str]| -> Vec<u64> {
        let methods = coverage["methods"].as_array().unwrap();
        names
            .iter()
            .map(|n| {
                let full = format!("org/example/calc/MathUtil.{n}");
                methods
                    .iter()
                    .position(|m| m.as_str() == Some(&full))
                    .unwrap() as u64
            })
            .collect()
    };
    // The tests that executed one of `names`, and the tests failing on the unpatched program.
    let union = |names: &[&str]| -> std::collections::BTreeSet<String> {
        let ids = ids(names);
        let mut tests: std::collections::BTreeSet<String> = coverage["tests"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(_, hit)| {
                hit.as_array()
                    .unwrap()
                    .iter()
                    .any(|i| ids.contains(&i.as_u64().unwrap()))
            })
            .map(|(t, _)| t.clone())
            .collect();
        let failing = state["tests"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["passed"] == false);
        tests.extend(failing.map(|t| {
            let id = &t["id"];
            format!(
                "{}#{}",
                id["class"].as_str().unwrap(),
                id["method"].as_str().unwrap()
            )
        }));
        tests
    };
    let two = union(&["sumRange", "binarySearch"]);
    let one = union(&["binarySearch"]);
    assert!(two.len() > one.len() && one.len() > 2, "{two:?} {one:?}");
    for d in latest_details(&work) {
        let name = d["name"].as_str().unwrap();
        let want = if name.contains("private_helper") {
            &one
        } else {
            &two
        };
        let ran: std::collections::BTreeSet<String> = d["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["test"].as_str().unwrap().to_string())
            .collect();
        assert!(ran.is_subset(want), "{name}: {ran:?} not within {want:?}");
        // A plausible patch ran every test selected: the union exactly.
        if d["verdict"] == "s" {
            assert_eq!(&ran, want, "{name}");
        }
    }
}

#[test]
fn an_edit_list_manifest_validates_with_plain_s_verdicts() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let edits = project.join("edits");
    let expected = expected_of(&edits.join("expected.json"));
    for flags in [vec![], vec!["--technique", "plain"]] {
        run_flags_ok(&work, &edits.join("edits.json"), &flags, 2);
        assert_eq!(verdicts_by_name(&work, &edits), expected, "{flags:?}");
    }
}

#[test]
fn a_diff_that_cannot_be_used_is_an_error_of_its_own_and_the_rest_is_validated() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let dir = project.join("mixed");
    std::fs::create_dir_all(&dir).unwrap();
    let good = std::fs::read_to_string(project.join("diffs/fix_paren.diff")).unwrap();
    std::fs::write(dir.join("good.diff"), &good).unwrap();
    std::fs::write(dir.join("garbage.diff"), "this is not a diff\n").unwrap();
    std::fs::write(
        dir.join("stale.diff"),
        good.replace("-        return -lo;", "-        return -low;"),
    )
    .unwrap();
    std::fs::write(
        dir.join("lines.jsonl"),
        format!(
            "{}\n{{\"name\": 3}}\nnot json\n",
            serde_json::to_string(&good).unwrap()
        ),
    )
    .unwrap();
    let out = patchval(&[
        "run",
        "-w",
        work.to_str().unwrap(),
        "--diff",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(ExitCode::Partial.code()),
        "some patches are E: exit PARTIAL"
    );
    let got = verdicts_by_name(&work, &dir);
    assert_eq!(got["good.diff"], "s", "{got:?}");
    assert_eq!(got["lines.jsonl:1"], "s", "{got:?}");
    for bad in [
        "garbage.diff",
        "stale.diff",
        "lines.jsonl:2",
        "lines.jsonl:3",
    ] {
        assert_eq!(
            got.get(bad).map(String::as_str),
            Some("E"),
            "{bad}: {got:?}"
        );
    }
    let details = latest_details(&work);
    let detail = |name: &str| {
        details
            .iter()
            .find(|d| d["patches_path"].as_str().unwrap().ends_with(name))
            .map(|d| d["detail"].as_str().unwrap_or_default().to_string())
            .unwrap_or_default()
    };
    assert!(detail("garbage.diff").contains("not a unified diff"));
    assert!(
        detail("stale.diff").contains("MathUtil.java") && detail("stale.diff").contains("hunk 1")
    );
    assert!(detail("lines.jsonl:2").contains("diff"));
    assert!(detail("lines.jsonl:3").contains("invalid JSON"));
}

/// Patch `i` of a manifest-v3 set as a unified diff with two lines of context (`git diff`'s
/// shape, hunk header with line counts), so that the same patches can come as diffs.
fn as_diff(set: &Value, i: usize) -> String {
    let (above, unpatched, below) = (
        set["context_above"].as_str().unwrap(),
        set["unpatched"].as_str().unwrap(),
        set["context_below"].as_str().unwrap(),
    );
    let patch = set["patches"][i].as_str().unwrap();
    let old = format!("{above}{unpatched}{below}");
    let new = format!("{above}{patch}{below}");
    let (s, e) = (above.len(), above.len() + unpatched.len());
    let ls = old[..s].rfind('\n').map_or(0, |k| k + 1);
    let le = old[e..].find('\n').map_or(old.len(), |k| e + k + 1);
    let ne = le + new.len() - old.len();
    let before: Vec<&str> = old[..ls].split_inclusive('\n').collect();
    let before = &before[before.len().saturating_sub(2)..];
    let after: Vec<&str> = old[le..].split_inclusive('\n').take(2).collect();
    let removed: Vec<&str> = old[ls..le].split_inclusive('\n').collect();
    let added: Vec<&str> = new[ls..ne].split_inclusive('\n').collect();
    let first = old[..ls].matches('\n').count() + 1 - before.len();
    let ctx = before.len() + after.len();
    let file = set["filename"].as_str().unwrap();
    let mut d = format!(
        "diff --git a/{file} b/{file}\n--- a/{file}\n+++ b/{file}\n@@ -{first},{} +{first},{} @@\n",
        removed.len() + ctx,
        added.len() + ctx
    );
    let line = |d: &mut String, mark: char, l: &str| {
        d.push(mark);
        d.push_str(l);
        if !l.ends_with('\n') {
            d.push('\n');
        }
    };
    before.iter().for_each(|l| line(&mut d, ' ', l));
    removed.iter().for_each(|l| line(&mut d, '-', l));
    added.iter().for_each(|l| line(&mut d, '+', l));
    after.iter().for_each(|l| line(&mut d, ' ', l));
    d
}

/// Every patch of the fixtures' manifests, given as a diff of its own (so grouped anew, by
/// lines, with whitespace at the edges trimmed and no set boundaries), gets its checked verdict.
/// `PATCHVAL_DIFF_FIXTURES=dedup,selection,...` checks other fixtures (calc and textutil by
/// default).
#[test]
fn fixture_patches_as_diffs_keep_their_checked_verdicts() {
    let names = std::env::var("PATCHVAL_DIFF_FIXTURES").unwrap_or("calc,textutil".into());
    for name in names.split(',') {
        let (_tmp, project) = fixture(name);
        let work = project.parent().unwrap().join("work");
        init(&project, &work);
        let dir = project.join("as-diffs");
        std::fs::create_dir_all(&dir).unwrap();
        let mut expected = BTreeMap::new();
        for (set_file, letters) in common::expected(&project) {
            let text = std::fs::read_to_string(project.join("patches").join(&set_file)).unwrap();
            let set: Value = serde_json::from_str(&text).unwrap();
            let stem = set_file.trim_end_matches(".json");
            for (i, letter) in letters.chars().enumerate() {
                let file = format!("{stem}-{i:02}.diff");
                std::fs::write(dir.join(&file), as_diff(&set, i)).unwrap();
                expected.insert(file, letter.to_string());
            }
        }
        let results = run_flags_ok(&work, &dir, &["--diff"], 2);
        assert_eq!(verdicts_by_name(&work, &dir), expected, "{name}");
        let woven: u64 = results
            .iter()
            .map(|r| r.extra["woven"].as_u64().unwrap())
            .sum();
        let fallback: u64 = results
            .iter()
            .map(|r| r.extra["fallback"].as_u64().unwrap())
            .sum();
        eprintln!(
            "{name}: {} sets, {woven} woven, {fallback} one by one",
            results.len()
        );
        assert!(woven >= 2 * fallback, "{name}: most patches are woven");
    }
}

/// Patches that reword a javadoc as well as change a method's code (a function-level repairer
/// writes the method back with its comment) are woven on their code alone, and their frames'
/// lines stay the plainly patched file's: in `testdata/stackwalk`, `bill` marks the line it calls
/// `mark()` from, which the test wants at 41 of the unpatched file; a javadoc above grown by a line
/// moves it (F) unless the code below gives the line back (s).
#[test]
fn javadoc_edits_beside_a_methods_code_are_left_out_of_the_weave_with_plain_s_lines() {
    let (_tmp, project) = fixture("stackwalk");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let file = "src/main/java/org/example/stackwalk/Meter.java";
    let doc =
        "    /** Records in {@link #markedAt} the line of this class's code that called it. */\n";
    let reworded =
        "    /** Records in {@link #markedAt} the line of the code of this class that called it. */\n";
    let grown =
        "    /**\n     * Records in {@link #markedAt} the line of this class's code that called it. */\n";
    let code = "        int cost;\n        cost = units * 2;\n";
    let patches = [
        (
            "same_lines",
            reworded,
            "        int cost;\n        cost = units * 2 + 0;\n",
            "s",
        ),
        (
            "grown",
            grown,
            "        int cost;\n        cost = units * 2 + 0;\n",
            "F",
        ),
        (
            "grown_given_back",
            grown,
            "        int cost = units * 2;\n",
            "s",
        ),
        (
            "wrong",
            reworded,
            "        int cost;\n        cost = units * 3;\n",
            "F",
        ),
        (
            "dropped_given_back",
            "",
            "        int cost;\n        cost = units * 2;\n        cost += 0;\n",
            "s",
        ),
    ];
    let list = serde_json::json!({
        "bug": "stackwalk-doc",
        "patches": patches.iter().map(|(name, javadoc, body, _)| serde_json::json!({
            "name": name,
            "edits": [
                {"filename": file, "unpatched": doc, "patched": javadoc},
                {"filename": file, "unpatched": code, "patched": body},
            ],
        })).collect::<Vec<_>>(),
    });
    let (dir, input) = write_edit_list(&project, "javadoc", &list);
    let expected: BTreeMap<String, String> = patches
        .iter()
        .map(|(name, _, _, v)| (name.to_string(), v.to_string()))
        .collect();
    for flags in [vec![], vec!["--technique", "plain"]] {
        let results = run_flags_ok(&work, &input, &flags, 2);
        assert_eq!(verdicts_by_name(&work, &dir), expected, "{flags:?}");
        if flags.is_empty() {
            // One set, woven whole in one compile, every patch's javadoc left out.
            assert_eq!(results.len(), 1, "{results:?}");
            let r = &results[0];
            assert_eq!(r.extra["woven"].as_u64(), Some(5), "{r:?}");
            assert_eq!(r.extra["javac_invocations"].as_u64(), Some(1), "{r:?}");
            assert_eq!(r.extra["narrowed_to_tokens"].as_u64(), Some(5), "{r:?}");
        }
    }
}

/// Private helpers a patch adds beside its code are woven as members of their own, each with
/// its patch: in `testdata/calc`, fixes of `binarySearch`'s `return -lo;` through a helper (one
/// right, one wrong, one whose helper does not compile, one with a javadoc edit too). Helpers
/// another patch names, or not private, leave their patches whole (validated one by one).
#[test]
fn private_helpers_added_beside_the_code_are_woven_with_plain_s_verdicts() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let file = "src/main/java/org/example/calc/MathUtil.java";
    let code = "        return -lo;\n    }\n";
    let with =
        |call: &str, helper: &str| format!("        return {call};\n    }}\n\n    {helper}\n");
    let patches = [
        (
            "fix_helper",
            with(
                "notFound(lo)",
                "private static int notFound(int lo) {\n        return -(lo + 1);\n    }",
            ),
            "s",
        ),
        (
            "wrong_helper",
            with(
                "miss(lo)",
                "private static int miss(int lo) {\n        return -lo - 2;\n    }",
            ),
            "F",
        ),
        (
            "broken_helper",
            with(
                "absent(lo)",
                "private static int absent(int lo) {\n        return \"x\";\n    }",
            ),
            "C",
        ),
        (
            "same_name_right",
            with(
                "-plusOne(lo)",
                "private static int plusOne(int lo) {\n        return lo + 1;\n    }",
            ),
            "s",
        ),
        (
            "same_name_wrong",
            with(
                "-plusOne(lo)",
                "private static int plusOne(int lo) {\n        return lo + 2;\n    }",
            ),
            "F",
        ),
        (
            "not_private",
            with(
                "outside(lo)",
                "static int outside(int lo) {\n        return -(lo + 1);\n    }",
            ),
            "s",
        ),
        // Helpers that read their caller's name and their own line: the patch runs inline,
        // its helper's frames and lines plain's.
        (
            "caller_read",
            with(
                "callerChecked(lo)",
                "private static int callerChecked(int lo) {\n        \
                 if (!new Throwable().getStackTrace()[1].getMethodName().equals(\"binarySearch\")) {\n            \
                 throw new IllegalStateException();\n        }\n        return -(lo + 1);\n    }",
            ),
            "s",
        ),
        (
            "line_read",
            with(
                "lineChecked(lo)",
                "private static int lineChecked(int lo) {\n        \
                 if (new Throwable().getStackTrace()[0].getLineNumber() != 40) {\n            \
                 throw new IllegalStateException();\n        }\n        return -(lo + 1);\n    }",
            ),
            "s",
        ),
    ];
    let mut listed: Vec<Value> = patches
        .iter()
        .map(|(name, text, _)| {
            serde_json::json!({
                "name": name,
                "edits": [{"filename": file, "unpatched": code, "patched": text}],
            })
        })
        .collect();
    listed.push(serde_json::json!({
        "name": "javadoc_and_helper",
        "edits": [
            {"filename": file, "unpatched": "exactly like java.util.Arrays.binarySearch.\n",
             "patched": "exactly like\n     * java.util.Arrays.binarySearch.\n"},
            {"filename": file, "unpatched": code,
             "patched": with("inserted(lo)", "private static int inserted(int lo) {\n        return -lo - 1;\n    }")},
        ],
    }));
    let list = serde_json::json!({"bug": "calc-helpers", "patches": listed});
    let (dir, input) = write_edit_list(&project, "helpers", &list);
    let mut expected: BTreeMap<String, String> = patches
        .iter()
        .map(|(name, _, v)| (name.to_string(), v.to_string()))
        .collect();
    expected.insert("javadoc_and_helper".into(), "s".into());
    for flags in [vec![], vec!["--technique", "plain"]] {
        let results = run_flags_ok(&work, &input, &flags, 2);
        assert_eq!(verdicts_by_name(&work, &dir), expected, "{flags:?}");
        if flags.is_empty() {
            let woven: u64 = results
                .iter()
                .map(|r| r.extra["woven"].as_u64().unwrap_or(0))
                .sum();
            // fix, wrong, the two readers and javadoc_and_helper run woven; broken's helper is
            // javac's C.
            assert!(woven >= 5, "{results:?}");
            let reasons: Vec<String> = latest_details(&work)
                .iter()
                .filter_map(|d| d["one_by_one"].as_str().map(str::to_string))
                .collect();
            assert!(
                reasons
                    .iter()
                    .any(|r| r.contains("a name another patch of the set uses")),
                "{reasons:?}"
            );
            assert!(
                reasons.iter().any(|r| r.contains("not private")),
                "{reasons:?}"
            );
        }
    }
}
