//! Patches that change several methods of one file (a function-level repairer's output): each
//! other method's body woven inline in that method beside the original (`weave::sites`), with
//! plain's verdicts, frames and lines, in one compile of the set.

mod common;
use common::*;
use serde_json::Value;
use std::collections::BTreeMap;

const FILE: &str = "src/main/java/org/example/calc/MathUtil.java";
const SUM: &str = "        int sum = 0;\n        for (int i = from; i <= to; i++) {\n            sum += i;\n        }\n        return sum;\n";
const SEARCH: &str = "        return -lo;\n";
const FIX: &str = "        return -(lo + 1);\n";

/// A patch's name, its `(unpatched, patched)` edits and plain's verdict.
type Patch<'a> = (&'a str, Vec<(&'a str, &'a str)>, &'a str);

/// `(unpatched, patched)` edits of `MathUtil.java` with `LINE` in a patched text replaced by the
/// line it lands on in the patched file.
fn edits(original: &str, list: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut file = original.to_string();
    for (from, to) in list {
        file = file.replacen(from, to, 1);
    }
    let line = file
        .lines()
        .position(|l| l.contains("LINE"))
        .map(|i| (i + 1).to_string());
    list.iter()
        .map(|(from, to)| {
            let to = match &line {
                Some(n) => to.replace("LINE", n),
                None => to.to_string(),
            };
            (from.to_string(), to)
        })
        .collect()
}

#[test]
fn patches_changing_two_methods_are_woven_in_both_with_plain_s_verdicts_frames_and_lines() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let original = std::fs::read_to_string(project.join(FILE)).unwrap();
    let closed = "        return from > to ? 0 : (from + to) * (to - from + 1) / 2;\n";
    let longer = "        int sum = 0;\n        int i = from;\n        while (i <= to) {\n            sum += i;\n            i++;\n        }\n        return sum;\n";
    let reads_line = format!(
        "        if (new Throwable().getStackTrace()[0].getLineNumber() != LINE) {{\n            throw new IllegalStateException();\n        }}\n{SUM}"
    );
    let reads_caller = format!(
        "        if (!new Throwable().getStackTrace()[1].getClassName().endsWith(\"MathUtilTest\")) {{\n            throw new IllegalStateException();\n        }}\n{SUM}"
    );
    let anonymous = "        return new java.util.function.IntBinaryOperator() {\n            public int applyAsInt(int a, int b) {\n                return a > b ? 0 : (a + b) * (b - a + 1) / 2;\n            }\n        }.applyAsInt(from, to);\n";
    let anonymous_fix = "        return new java.util.function.IntUnaryOperator() {\n            public int applyAsInt(int v) {\n                return -(v + 1);\n            }\n        }.applyAsInt(lo);\n";
    let line_fix = "        return -(lo + 1) + (new Throwable().getStackTrace()[0].getLineNumber() == LINE ? 0 : 100);\n";
    let broken = closed.replace("? 0", "? 1");
    let patches: Vec<Patch> = vec![
        ("fix", vec![(SEARCH, FIX)], "s"),
        ("wrong", vec![(SEARCH, "        return -lo - 2;\n")], "F"),
        (
            "closed_form_and_fix",
            vec![(SUM, closed), (SEARCH, FIX)],
            "s",
        ),
        (
            "closed_form_broken_and_fix",
            vec![(SUM, &broken), (SEARCH, FIX)],
            "F",
        ),
        (
            "sum_missing_return_and_fix",
            vec![(SUM, "        int sum = 0;\n"), (SEARCH, FIX)],
            "C",
        ),
        (
            "sum_wrong_type_and_fix",
            vec![(SUM, "        return \"x\";\n"), (SEARCH, FIX)],
            "C",
        ),
        ("closed_form_only", vec![(SUM, closed)], "F"),
        (
            "longer_sum_and_fix_reading_its_line",
            vec![(SUM, longer), (SEARCH, line_fix)],
            "s",
        ),
        (
            "sum_reading_its_line_and_fix",
            vec![(SUM, &reads_line), (SEARCH, FIX)],
            "s",
        ),
        (
            "sum_reading_its_caller_and_fix",
            vec![(SUM, &reads_caller), (SEARCH, FIX)],
            "s",
        ),
        (
            "anonymous_sum_and_fix",
            vec![(SUM, anonymous), (SEARCH, FIX)],
            "s",
        ),
        // javac, past the unreachable `break`, takes the branch to complete normally and says
        // "missing return statement" at the method's end: no patch's, whichever copy follows.
        (
            "closed_form_and_unreachable_fix",
            vec![
                (SUM, closed),
                (SEARCH, "        while (true) {\n            return -(lo + 1);\n            break;\n        }\n"),
            ],
            "C",
        ),
        (
            "closed_form_and_anonymous_fix",
            vec![(SUM, closed), (SEARCH, anonymous_fix)],
            "s",
        ),
    ];
    let listed: Vec<Value> = patches
        .iter()
        .map(|(name, list, _)| {
            let edits: Vec<Value> = edits(&original, list)
                .into_iter()
                .map(|(from, to)| serde_json::json!({"filename": FILE, "unpatched": from, "patched": to}))
                .collect();
            serde_json::json!({"name": name, "edits": edits})
        })
        .collect();
    let list = serde_json::json!({"bug": "calc-two-methods", "patches": listed});
    let (dir, input) = write_edit_list(&project, "two-methods", &list);
    let expected: BTreeMap<String, String> = patches
        .iter()
        .map(|(name, _, v)| (name.to_string(), v.to_string()))
        .collect();
    for flags in [vec!["--technique", "plain"], vec![], vec!["--no-dedup"]] {
        let results = run_flags_ok(&work, &input, &flags, 2);
        assert_eq!(verdicts_by_name(&work, &dir), expected, "{flags:?}");
        if flags.first() == Some(&"--technique") {
            continue;
        }
        // The patches changing both methods are one set (those changing one, a set each).
        let both = results
            .iter()
            .find(|r| r.extra["patches"].as_u64() == Some(10))
            .unwrap_or_else(|| panic!("{results:?}"));
        let x = &both.extra;
        // `sumRange`, which every patch changes, is the location; `binarySearch` is woven in
        // place for each: all but the fix through an anonymous class (its branch would number
        // the class anew), in one set and two javac calls (the `C`s' copies, then the rest).
        assert_eq!(x["other_methods"].as_u64(), Some(9), "{x}");
        assert_eq!(x["fallback"].as_u64(), Some(1), "{x}");
        assert!(x["javac_invocations"].as_u64().unwrap() <= 2, "{x}");
        let alone: Vec<String> = latest_details(&work)
            .iter()
            .filter_map(|d| d["one_by_one"].as_str().map(str::to_string))
            .collect();
        assert_eq!(alone.len(), 1, "{alone:?}");
        assert!(alone[0].contains("declares a class"), "{alone:?}");
    }
}
