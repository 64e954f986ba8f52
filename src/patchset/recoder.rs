//! Recoder's candidate records (`patchmu/<bug>.json`: a JSON array, or JSON lines), each the
//! statement(s) `oldcode` of `filename` as its search cut the file (`precode`, `oldcode`,
//! `aftercode`, joined by line breaks) and the `code` that replaces them (`mode` 0) or goes
//! before them (`mode` 1): Java text, or Recoder's printed AST (`recoder_tree`).

use super::edits::EditPatch;
use super::recoder_tree::{self, TreeError};
use super::{line_of, NotInProject};
use crate::model::FileEdit;
use serde::Deserialize;

/// Why a Recoder record cannot be read into a patch of the project.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The JSON is not a record (`field`: where it is not).
    #[error("invalid record at field `{field}`: {source}")]
    Invalid {
        field: String,
        source: serde_json::Error,
    },
    /// `code` is a printed AST that cannot be read back into Java.
    #[error("`code`: {0}")]
    Code(#[source] TreeError),
    #[error("`mode` {0} (expected 0: replace, 1: insert before)")]
    Mode(u8),
    #[error("`oldcode` is empty")]
    EmptyOldcode,
    #[error(transparent)]
    File(#[from] NotInProject),
    #[error("{filename}: `oldcode` is not in the file (looked near line {near})")]
    NotInFile { filename: String, near: usize },
    #[error("{0}: no end of the block the inserted `if` guards")]
    NoBlockEnd(String),
}

/// One record; unknown fields (`prob`, `actlist`, `isa`, `fl_score`, …) are ignored.
#[derive(Debug, Deserialize)]
pub struct Record {
    pub filename: String,
    #[serde(default)]
    pub line: Option<usize>,
    pub oldcode: String,
    pub code: String,
    #[serde(default)]
    pub precode: Option<String>,
    #[serde(default)]
    pub mode: u8,
    #[serde(default)]
    pub idss: Option<String>,
    #[serde(default)]
    pub id: Option<serde_json::Value>,
}

/// Whether a JSON value looks like Recoder's records: an array whose first element has
/// `oldcode` and `code`.
pub fn is_records(v: &serde_json::Value) -> bool {
    let rec = |o: &serde_json::Value| o.get("oldcode").is_some() && o.get("code").is_some();
    match v {
        serde_json::Value::Array(a) => a.first().is_some_and(rec),
        o => rec(o),
    }
}

/// Reads one record into a patch named `name`. `resolve` finds the project file a name means
/// (Recoder names it inside its own checkout, `buggy/src/…`) and gives its path and text.
pub fn parse_record(
    name: &str,
    r: &Record,
    resolve: super::Resolve,
) -> Result<EditPatch, RecordError> {
    let code = if recoder_tree::is_tree(&r.code) {
        recoder_tree::to_java(&r.code).map_err(RecordError::Code)?
    } else {
        r.code.clone()
    };
    if r.mode > 1 {
        return Err(RecordError::Mode(r.mode));
    }
    let old = r.oldcode.trim_end_matches(['\r', '\n']);
    if old.trim().is_empty() {
        return Err(RecordError::EmptyOldcode);
    }
    let (filename, text) = resolve(&r.filename)?;
    // The line `oldcode` starts on: after `precode`'s lines, else the record's line.
    let near = match (&r.precode, r.line) {
        (Some(p), _) if !p.is_empty() => p.split('\n').count() + 1,
        (_, Some(l)) => l,
        _ => 1,
    };
    let start = text
        .match_indices(old)
        .map(|(at, _)| at)
        .min_by_key(|&at| line_of(&text, at).abs_diff(near))
        .ok_or_else(|| RecordError::NotInFile {
            filename: filename.clone(),
            near,
        })?;
    let end = start + old.len();
    // The statement's line break goes with it, as Recoder joins `code` and `aftercode`.
    let line_end = ["\r\n", "\n"]
        .into_iter()
        .find(|e| text[end..].starts_with(e))
        .unwrap_or("");
    let ends_line = |s: &str| {
        if s.ends_with('\n') || line_end.is_empty() {
            s.to_string()
        } else {
            format!("{s}{line_end}")
        }
    };
    let replaced = &text[start..end + line_end.len()];
    let patched = match r.mode {
        0 => ends_line(&code),
        _ => format!("{}{replaced}", ends_line(&code)),
    };
    let mut edits = vec![FileEdit {
        filename: filename.clone(),
        start,
        unpatched: replaced.to_string(),
        patched,
    }];
    // An inserted `if (…) {` alone guards the rest of its block: Recoder closes it before the
    // brace that ends the block.
    if r.mode == 1 && opens_block(&code) {
        let after = end + line_end.len();
        let close = block_end(&text[after..])
            .map(|k| after + k)
            .ok_or_else(|| RecordError::NoBlockEnd(filename.clone()))?;
        edits.push(FileEdit {
            filename,
            start: close,
            unpatched: String::new(),
            patched: format!("}}{}", if line_end.is_empty() { "\n" } else { line_end }),
        });
    }
    Ok(EditPatch {
        name: name.to_string(),
        edits,
    })
}

/// Code that opens more blocks than it closes (an `if (…) {` head).
fn opens_block(code: &str) -> bool {
    code.matches('{').count() > code.matches('}').count()
}

/// The byte offset of the start of the line holding the `}` that closes the block `text` starts
/// inside of, counted line by line as Recoder does (a line with `{` opens, one with `}` closes).
fn block_end(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.contains('{') {
            depth += 1;
        }
        if line.contains('}') {
            if depth == 0 {
                return Some(at);
            }
            depth -= 1;
        }
        at += line.len();
    }
    None
}

/// The patch's name in results: the input and the record's place (with Recoder's `id`).
pub fn record_name(source: &str, index: usize, r: &Record) -> String {
    match &r.id {
        Some(id) => format!("{source}[{index}] (id {id})"),
        None => format!("{source}[{index}]"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str =
        "class A {\n    int f(int x) {\n        int y = x + 1;\n        return y;\n    }\n}\n";

    fn resolve(name: &str) -> Result<(String, String), NotInProject> {
        match name {
            "buggy/src/A.java" | "src/A.java" => Ok(("src/A.java".into(), FILE.into())),
            _ => Err(NotInProject {
                name: name.into(),
                root: ".".into(),
            }),
        }
    }

    fn record(code: &str, mode: u8) -> Record {
        Record {
            filename: "buggy/src/A.java".into(),
            line: Some(3),
            oldcode: "        int y = x + 1;".into(),
            code: code.into(),
            precode: Some("class A {\n    int f(int x) {".into()),
            mode,
            idss: Some("A-1".into()),
            id: Some(serde_json::json!(4)),
        }
    }

    fn apply(p: &EditPatch) -> String {
        let mut t = FILE.to_string();
        let mut edits = p.edits.clone();
        edits.sort_by_key(|e| std::cmp::Reverse(e.start));
        for e in edits {
            assert_eq!(&t[e.range()], e.unpatched);
            t.replace_range(e.range(), &e.patched);
        }
        t
    }

    #[test]
    fn modes_replace_or_insert_before_the_old_code() {
        let p = parse_record("r", &record("int y = x + 2;\n", 0), &resolve).unwrap();
        assert_eq!(
            apply(&p),
            FILE.replace("        int y = x + 1;\n", "int y = x + 2;\n")
        );
        let p = parse_record("r", &record("x = -x;", 1), &resolve).unwrap();
        assert_eq!(
            apply(&p),
            FILE.replace("        int y", "x = -x;\n        int y")
        );
    }

    #[test]
    fn an_inserted_if_head_guards_the_rest_of_the_block() {
        let p = parse_record("r", &record("if((x > 0)){\n", 1), &resolve).unwrap();
        assert_eq!(
            apply(&p),
            "class A {\n    int f(int x) {\nif((x > 0)){\n        int y = x + 1;\n        return y;\n}\n    }\n}\n"
        );
    }

    #[test]
    fn what_does_not_fit_is_named() {
        let mut r = record("y;", 0);
        r.oldcode = "        int z = 0;".into();
        let e = parse_record("r", &r, &resolve).unwrap_err().to_string();
        assert!(e.contains("not in the file"), "{e}");
        r.filename = "elsewhere/B.java".into();
        let e = parse_record("r", &r, &resolve).unwrap_err().to_string();
        assert!(e.contains("B.java"), "{e}");
        let e = parse_record("r", &record("y;", 7), &resolve)
            .unwrap_err()
            .to_string();
        assert!(e.contains("mode"), "{e}");
        assert_eq!(
            record_name("math.json", 2, &record("y;", 0)),
            "math.json[2] (id 4)"
        );
    }
}
