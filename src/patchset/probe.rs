//! Every reader of `run`'s inputs driven by one byte string, against a small project held in
//! memory: the entry of the fuzz target (`fuzz/`, `cargo fuzz run inputs`) and of the test that
//! replays the inputs it once found (`fuzz/regressions/`). A reader may refuse the bytes with
//! an error; it must not panic.

use super::edits::{group, EditPatch, GroupError};
use super::NotInProject;
use std::path::Path;
use std::sync::Arc;

/// The project the probes read patches against.
const FILE: &str = "package p;\n\nclass A {\n    int f(int x) {\n        int y = x + 1;\n        if (y > 2) {\n            return y;\n        }\n        return -y;\n    }\n}\n";
const PATH: &str = "src/p/A.java";

fn read(rel: &str) -> Option<String> {
    (rel == PATH).then(|| FILE.to_string())
}

fn resolve(name: &str) -> Result<(String, String), NotInProject> {
    if name.ends_with("A.java") {
        Ok((PATH.to_string(), FILE.to_string()))
    } else {
        Err(NotInProject {
            name: name.to_string(),
            root: ".".into(),
        })
    }
}

/// Runs the readers on `data`: the first byte picks the reader (so a fuzzer's mutations stay
/// with one), the rest is its input; patches read are grouped into sets as `run` does.
pub fn probe(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let mut patches: Vec<EditPatch> = Vec::new();
    match which % 9 {
        0 => {
            let _ = super::unified::parse(&text);
        }
        1 => patches.extend(super::diff::parse("probe.diff", &text, &read)),
        2 => patches.extend(super::tbar::parse_block("Patch_1.txt", &text, &resolve)),
        3 => {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
                return;
            };
            let items = match v {
                serde_json::Value::Array(a) => a,
                o => vec![o],
            };
            for item in items {
                if let Ok(r) = serde_json::from_value::<super::recoder::Record>(item) {
                    patches.extend(super::recoder::parse_record("r", &r, &resolve));
                }
            }
        }
        4 => {
            if let Ok((_, ps, _)) = super::editlist::read(Path::new("e.json"), &text, &read) {
                patches.extend(ps);
            }
        }
        // LLM repairers' records (whole methods, method-relative diffs): JSON lines, or an
        // array; SEARCH/REPLACE blocks.
        6 | 8 => {
            let lines = which % 9 == 6;
            patches
                .extend(super::llm_records::read("r.jsonl", &text, lines, None, &resolve).patches);
        }
        7 => patches.extend(super::search_replace::parse("blocks.txt", &text, &resolve)),
        _ => {
            if let Ok(mut set) = super::parse(Path::new("m.json"), &text) {
                if super::check_context(Path::new("m.json"), &mut set, FILE).is_ok() {
                    super::narrow_location(&mut set);
                    for i in 0..set.patches.len() {
                        let _ = set.patched_text(i);
                    }
                }
            }
        }
    }
    if !patches.is_empty() {
        let (sets, _) = group("probe", patches, &|f: &str| {
            read(f).ok_or_else(|| GroupError::Read {
                path: f.into(),
                source: Arc::new(std::io::ErrorKind::NotFound.into()),
            })
        });
        for mut set in sets {
            super::narrow_location(&mut set);
            for i in 0..set.patches.len() {
                let _ = set.patched_text(i);
            }
        }
    }
}

#[cfg(test)]
#[path = "probe_tests.rs"]
mod tests;
