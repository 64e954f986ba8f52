//! `patchval generate` end to end on testdata/d4jmath (seeded bug: `Mean.arithmetic` sums from
//! index 1, line 15): candidates at the top locations of `locate`'s ranking, validated by `run`,
//! find a plausible patch equal to the known fix, with the verdicts of plain validation; the
//! `Class@line` input of TBar; deterministic output.

mod common;
use common::*;
use std::path::Path;

fn set_patches(path: &Path) -> Vec<String> {
    let set: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    set["patches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect()
}

/// testdata/d4jmath copied and initialised as a Defects4J checkout: (guard, the temp dir, the
/// work dir in it).
fn initialised_d4jmath() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let (tmp, checkout) = fixture("d4jmath");
    let root = checkout.parent().unwrap().to_path_buf();
    let work = root.join("work");
    let w = work.to_str().unwrap();
    patchval_ok(&["init", "--defects4j", checkout.to_str().unwrap(), "-w", w]);
    (tmp, root, work)
}

#[test]
fn generated_candidates_at_the_top_locations_hold_the_known_fix() {
    let (_tmp, root, work) = initialised_d4jmath();
    let root = root.as_path();
    let w = work.to_str().unwrap();
    let out_dir = root.join("gen");
    // The top 3 of the ranking (Mean.java:14, 15 and 18 tie at rank 2), 15 patches at most each,
    // which keeps plain validation of them all short.
    let gen = |out: &Path| {
        patchval_ok(&[
            "generate",
            "-w",
            w,
            "--top",
            "3",
            "--per-location",
            "15",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let listing = gen(&out_dir);
    let sets: Vec<&str> = listing.lines().collect();
    assert_eq!(sets.len(), 3, "{listing}");
    assert!(
        sets.iter().any(|l| l.contains("Mean.java:15")),
        "the buggy line is among the top 3 locations: {listing}"
    );
    // Deterministic: the same files again.
    let again = root.join("gen2");
    gen(&again);
    for e in std::fs::read_dir(&out_dir).unwrap() {
        let p = e.unwrap().path();
        assert_eq!(
            std::fs::read(&p).unwrap(),
            std::fs::read(again.join(p.file_name().unwrap())).unwrap(),
            "{}",
            p.display()
        );
    }
    let fast = run_flags_ok(&work, &out_dir, &[], 2);
    let plausible: Vec<String> = fast
        .iter()
        .flat_map(|r| {
            let patches = set_patches(Path::new(&r.patches_path));
            r.succlist
                .chars()
                .zip(patches)
                .filter(|(v, _)| *v == 's')
                .map(|(_, p)| p)
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(plausible.len(), 1, "{plausible:?}");
    assert!(
        plausible[0].starts_with("for (int i = 0; i < values.length; i++) {"),
        "{plausible:?}"
    );
    // Plain validation agrees on every generated patch.
    let plain = run_flags_ok(&work, &out_dir, &["--technique", "plain"], 2);
    let verdicts = |r: &[ResultLine]| -> Vec<(String, String)> {
        r.iter()
            .map(|l| (l.set_name(), l.succlist.clone()))
            .collect()
    };
    assert_eq!(verdicts(&fast), verdicts(&plain));
    // Typed from the compiled classes, every candidate compiles (before typing, 5 of the 36
    // were `C`: jumps before reachable statements and a removed declaration still used).
    let compile_errors: usize = plain.iter().map(|r| r.succlist.matches('C').count()).sum();
    assert_eq!(compile_errors, 0, "{:?}", verdicts(&plain));
}

#[test]
fn locations_in_tbar_s_form_and_their_errors() {
    let (_tmp, root, work) = initialised_d4jmath();
    let root = root.as_path();
    let w = work.to_str().unwrap();
    let list = write_file(
        root,
        "susp.txt",
        "# GZoltar's ranking as TBar reads it\norg.example.stats.Mean@15@0.89\n\norg.example.stats.Mean@999,0.1\n",
    );
    let out_dir = root.join("gen");
    let cmd = [
        "generate",
        "-w",
        w,
        "--locations",
        list.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
        "--per-location",
        "4",
    ];
    let out = patchval(&cmd);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.contains("Mean.java:15\t4 patches"), "{stdout}");
    assert!(
        stderr.contains("skipped src/java/org/example/stats/Mean.java:999"),
        "{stderr}"
    );
    // A line that is not `Class@line`, and a class the project does not have: named, exit 2.
    for (text, want) in [
        ("org.example.stats.Mean\n", "line 1"),
        ("org.example.stats.Mean@x\n", "`x` is not a line number"),
        ("org.example.Nowhere@3\n", "org/example/Nowhere.java"),
    ] {
        std::fs::write(&list, text).unwrap();
        let out = patchval(&cmd);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("susp.txt") && err.contains(want), "{err}");
    }
}

/// `--order 2`: pairs of candidates at two locations, one edit list of two-edit patches, which
/// `run` validates as multi-edit patches with plain's verdicts.
#[test]
fn pairs_at_two_locations_are_multi_edit_patches_with_plain_s_verdicts() {
    let (_tmp, root, work) = initialised_d4jmath();
    let root = root.as_path();
    let w = work.to_str().unwrap();
    let out_dir = root.join("gen");
    let listing = patchval_ok(&[
        "generate",
        "-w",
        w,
        "--top",
        "3",
        "--per-location",
        "2",
        "--order",
        "2",
        "--max-pairs",
        "12",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(
        listing.contains("gen-pairs.json\tpairs of the top 3 locations\t"),
        "{listing}"
    );
    let list: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("gen-pairs.json")).unwrap())
            .unwrap();
    let patches = list["patches"].as_array().unwrap();
    // Mean.java:14 with :15, :14 with :18, :15 with :18: 4 each (2 x 2), 12 in all.
    assert_eq!(patches.len(), 12, "{list}");
    for p in patches {
        let edits = p["edits"].as_array().unwrap();
        assert_eq!(edits.len(), 2, "{p}");
        assert!(edits[0]["line"].as_u64() < edits[1]["line"].as_u64(), "{p}");
    }
    let pairs_only = root.join("pairs");
    std::fs::create_dir_all(&pairs_only).unwrap();
    std::fs::copy(
        out_dir.join("gen-pairs.json"),
        pairs_only.join("gen-pairs.json"),
    )
    .unwrap();
    let verdicts = |flags: &[&str]| -> String {
        run_flags_ok(&work, &pairs_only, flags, 2)
            .iter()
            .map(|r| r.succlist.clone())
            .collect::<Vec<_>>()
            .join("|")
    };
    let fast = verdicts(&[]);
    assert_eq!(fast.chars().filter(|c| *c != '|').count(), 12, "{fast}");
    assert_eq!(fast, verdicts(&["--technique", "plain"]));
}
