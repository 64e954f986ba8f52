//! The readers on mutated real inputs (calc's diffs, TBar files, Recoder records, manifests,
//! edit lists and LLM repairers' outputs, with bytes flipped, lines cut, doubled and swapped,
//! the text truncated), and on the inputs the fuzzer once found (`fuzz/regressions/`): none
//! makes a reader panic.

use super::probe;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

/// The real inputs, each with the reader it goes to.
fn seeds() -> Vec<(u8, Vec<u8>)> {
    let calc = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/calc");
    let mut out = Vec::new();
    let mut add = |reader: u8, path: PathBuf| {
        if let Ok(bytes) = std::fs::read(&path) {
            out.push((reader, bytes));
        }
    };
    for e in walkdir::WalkDir::new(calc.join("diffs")).sort_by_file_name() {
        let e = e.unwrap();
        if e.path().extension().is_some_and(|x| x == "diff") {
            add(0, e.path().to_path_buf());
            add(1, e.path().to_path_buf());
        }
    }
    for e in walkdir::WalkDir::new(calc.join("tools/tbar")).sort_by_file_name() {
        let e = e.unwrap();
        if e.path().extension().is_some_and(|x| x == "txt") {
            add(1, e.path().to_path_buf());
            add(2, e.path().to_path_buf());
        }
    }
    add(3, calc.join("tools/recoder/calc-1.json"));
    add(4, calc.join("edits/edits.json"));
    add(5, calc.join("tools/wholeline/binsearch_return_lines.json"));
    add(5, calc.join("patches/binsearch_return.json"));
    add(6, calc.join("llm-methods/samples.jsonl"));
    add(6, calc.join("method-diffs/diffs.jsonl"));
    for e in walkdir::WalkDir::new(calc.join("search-replace")).sort_by_file_name() {
        let e = e.unwrap();
        if e.path()
            .extension()
            .is_some_and(|x| x == "md" || x == "txt")
        {
            add(7, e.path().to_path_buf());
        }
    }
    assert!(
        out.len() >= 26,
        "the seeds are where they were: {}",
        out.len()
    );
    out
}

/// One way to damage an input.
#[derive(Debug, Clone)]
enum Damage {
    Flip(usize, u8),
    Truncate(usize),
    CutLine(usize),
    DoubleLine(usize),
    SwapLines(usize, usize),
    Insert(usize, String),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Damage::Flip(i, b)),
        any::<usize>().prop_map(Damage::Truncate),
        any::<usize>().prop_map(Damage::CutLine),
        any::<usize>().prop_map(Damage::DoubleLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Damage::SwapLines(a, b)),
        (
            any::<usize>(),
            prop_oneof![
                Just("\n@@ -1 +1 @@\n".to_string()),
                Just("\\ No newline at end of file\n".to_string()),
                Just("\n---\n+++\n".to_string()),
                Just("\r".to_string()),
                Just("\"".to_string()),
                Just("é".to_string()),
                Just(" ------ 99999999999999999999\n".to_string()),
                Just("===Patch Code===".to_string()),
                Just("{}[]".to_string()),
                Just("\n<<<<<<< SEARCH\n".to_string()),
                Just("=======\n".to_string()),
                Just(">>>>>>> REPLACE\n".to_string()),
                Just("```java\n".to_string()),
                "[\\PC]{0,8}",
            ]
        )
            .prop_map(|(i, s)| Damage::Insert(i, s)),
    ]
}

fn apply(bytes: &mut Vec<u8>, d: &Damage) {
    let n = bytes.len().max(1);
    let lines = |b: &Vec<u8>| -> Vec<Vec<u8>> {
        b.split_inclusive(|&c| c == b'\n')
            .map(<[u8]>::to_vec)
            .collect()
    };
    match d {
        Damage::Flip(i, b) => {
            if !bytes.is_empty() {
                bytes[i % n] = *b;
            }
        }
        Damage::Truncate(i) => bytes.truncate(i % n),
        Damage::CutLine(i) | Damage::DoubleLine(i) | Damage::SwapLines(i, _) => {
            let mut ls = lines(bytes);
            if ls.is_empty() {
                return;
            }
            let k = i % ls.len();
            match d {
                Damage::CutLine(_) => {
                    ls.remove(k);
                }
                Damage::DoubleLine(_) => ls.insert(k, ls[k].clone()),
                Damage::SwapLines(_, j) => {
                    let j = j % ls.len();
                    ls.swap(k, j);
                }
                _ => {}
            }
            *bytes = ls.concat();
        }
        Damage::Insert(i, s) => {
            let at = i % n.max(1);
            let at = at.min(bytes.len());
            bytes.splice(at..at, s.bytes());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn damaged_real_inputs_never_make_a_reader_panic(
        pick: usize,
        other_reader in 0u8..9,
        keep_reader: bool,
        damages in prop::collection::vec(damage(), 1..6),
    ) {
        let seeds = seeds();
        let (reader, mut bytes) = seeds[pick % seeds.len()].clone();
        for d in &damages {
            apply(&mut bytes, d);
        }
        let mut data = vec![if keep_reader { reader } else { other_reader }];
        data.extend(bytes);
        probe(&data);
    }
}

#[test]
fn the_inputs_the_fuzzer_found_never_make_a_reader_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut n = 0;
    for e in walkdir::WalkDir::new(&dir).sort_by_file_name() {
        let e = e.unwrap();
        if e.file_type().is_file() && e.file_name() != "README.md" {
            probe(&std::fs::read(e.path()).unwrap());
            n += 1;
        }
    }
    assert!(n >= 1, "{} holds the fuzzer's finds", dir.display());
}
