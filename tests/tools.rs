//! Repair tools' own outputs as `run` input, read as the tools write them (calc's `tools/`,
//! written by `testdata/calc/make_tool_outputs.py`): a TBar result directory (diffs without a
//! final newline, `===Buggy Code===` blocks), Recoder's candidate records with its printed-AST
//! `code`, and an ExpressAPR manifest without `interface` whose region is whole lines. Their
//! verdicts are plain's and the checked ones; inputs that are not patches are an `E` each.

mod common;
use common::*;
use patchval::exit::ExitCode;

#[test]
fn tbar_and_recoder_outputs_validate_as_they_are_with_plain_s_verdicts() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    for (tool, arg) in [("tbar", "tbar"), ("recoder", "recoder/calc-1.json")] {
        let dir = project.join("tools").join(tool);
        let expected = expected_of(&dir.join("expected.json"));
        for flags in [vec![], vec!["--technique", "plain"]] {
            // Detected without a flag, and named with one.
            let mut flags = flags;
            if tool == "recoder" {
                flags.extend(["--format", "recoder"]);
            }
            let results = run_flags_ok(&work, &project.join("tools").join(arg), &flags, 2);
            assert_eq!(verdicts_by_name(&work, &dir), expected, "{tool} {flags:?}");
            if flags.is_empty() || flags == ["--format", "recoder"] {
                let woven: u64 = results
                    .iter()
                    .map(|r| r.extra["woven"].as_u64().unwrap())
                    .sum();
                assert!(
                    woven >= 4,
                    "{tool}: the patches at the bug share a weave: {results:?}"
                );
            }
        }
    }
}

#[test]
fn a_whole_line_manifest_region_is_woven_like_its_statement() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let dir = project.join("tools/wholeline");
    let set = dir.join("binsearch_return_lines.json");
    let text = std::fs::read_to_string(&set).unwrap();
    assert!(
        !text.contains("\"interface\""),
        "the manifest leaves `interface` out"
    );
    let expected = &expected_of(&dir.join("expected.json"))["binsearch_return_lines.json"];
    let mut by = Vec::new();
    for flags in [vec![], vec!["--no-dedup"], vec!["--technique", "plain"]] {
        let results = run_flags_ok(&work, &set, &flags, 1);
        assert_eq!(&results[0].succlist, expected, "{flags:?}");
        by.push(results);
    }
    let r = &by[0][0];
    assert_eq!(r.extra["fallback"], 0, "{r:?}");
    assert!(r.extra["woven"].as_u64().unwrap() >= 10, "{r:?}");
    assert!(
        r.extra["context"]
            .as_str()
            .unwrap_or_default()
            .contains("whitespace"),
        "{r:?}"
    );
}

#[test]
fn inputs_that_are_not_patches_are_an_error_each_and_the_rest_is_validated() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let dir = project.join("mixed");
    std::fs::create_dir_all(&dir).unwrap();
    let good =
        std::fs::read_to_string(project.join("tools/tbar/FixedBugs/calc_1/Patch_1.txt")).unwrap();
    std::fs::write(dir.join("good.diff"), &good).unwrap();
    // Cut in the middle of its hunk.
    let cut = good.len() - good.lines().last().unwrap().len() - 40;
    std::fs::write(dir.join("truncated.diff"), &good[..cut]).unwrap();
    std::fs::write(dir.join("empty.diff"), "").unwrap();
    // Bytes of a binary file, and 10 MB of noise that is text.
    let mut bytes: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    bytes.extend_from_slice(b"\xff\xfe\x00\x01");
    std::fs::write(dir.join("binary.diff"), &bytes).unwrap();
    let mut noise = String::with_capacity(10 << 20);
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    while noise.len() < 10 << 20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let c = b" +-@\\abc{};\n"[(x % 12) as usize] as char;
        noise.push(c);
    }
    std::fs::write(dir.join("noise.diff"), &noise).unwrap();
    std::fs::write(dir.join("noise.json"), &noise[..1 << 20]).unwrap();
    std::fs::write(
        dir.join("records.json"),
        r#"[{"filename": "buggy/nowhere/X.java", "oldcode": "x;", "code": "y;", "mode": 0}]"#,
    )
    .unwrap();
    let out = patchval(&["run", "-w", work.to_str().unwrap(), dir.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(ExitCode::Partial.code()),
        "some patches are E: exit PARTIAL"
    );
    let got = verdicts_by_name(&work, &dir);
    assert_eq!(got["good.diff"], "s", "{got:?}");
    let detail = |name: &str| {
        latest_details(&work)
            .into_iter()
            .find(|d| {
                d["name"]
                    .as_str()
                    .or(d["patches_path"].as_str())
                    .unwrap()
                    .contains(name)
            })
            .map(|d| d["detail"].as_str().unwrap_or_default().to_string())
            .unwrap_or_else(|| panic!("no result for {name}: {got:?}"))
    };
    for (bad, why) in [
        ("truncated.diff", "truncated"),
        ("empty.diff", "empty"),
        ("binary.diff", "not a text file"),
        ("noise.diff", "diff"),
        ("noise.json", "noise.json"),
        ("records.json[0]", "nowhere/X.java"),
    ] {
        let d = detail(bad);
        assert!(d.contains(why), "{bad}: {d}");
        assert!(
            got.iter().any(|(n, v)| n.contains(bad) && v == "E"),
            "{bad}: {got:?}"
        );
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Logs to a pipe or a file carry no colour escapes.
    assert!(
        !stderr.contains('\x1b'),
        "escape bytes in the log: {stderr}"
    );
}
