//! JSON records of LLM-based repairers (JSON lines, or a JSON array of the same records), each
//! naming a file and giving a whole new method (`text`, read by `whole_method.rs`) or a diff
//! whose line numbers count from the method's start (`diff`, read by `method_diff.rs`): telling
//! them apart from the other JSON inputs, and records sharing a `patch` id joined into one patch.

use super::edits::EditPatch;
use super::method_diff::{self, DiffRecord, MethodDiffError};
use super::whole_method::{self, MethodError, MethodRecord};
use serde_json::Value;

/// Why a record cannot be read; each names the record (`FILE:LINE`, or `FILE[K]` in an array).
#[derive(Debug, thiserror::Error)]
pub enum LlmRecordError {
    #[error("{at}: invalid JSON: {source}")]
    Json {
        at: String,
        #[source]
        source: serde_json::Error,
    },
    #[error("{at}: invalid record at field `{field}`: {source}")]
    Invalid {
        at: String,
        field: String,
        #[source]
        source: serde_json::Error,
    },
    #[error("{at}: the record has no string `{wanted}`")]
    Missing { at: String, wanted: &'static str },
    #[error(
        "{at}: the record has neither `text` (a whole new method) nor `diff` (a method-relative \
         diff)"
    )]
    NoContent { at: String },
    #[error("{at}: {source}")]
    Method {
        at: String,
        #[source]
        source: MethodError,
    },
    #[error("{at}: {source}")]
    Diff {
        at: String,
        #[source]
        source: MethodDiffError,
    },
}

/// What a record holds, when the format names it (`--format methods|method-diff`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `text`: a whole new method.
    Method,
    /// `diff`: a method-relative diff.
    Diff,
}

/// Whether `v` (an object, or an array's first element) is such a record: a string `file` with
/// a string `text` or `diff`, and none of Recoder's keys.
pub fn is_records(v: &Value) -> bool {
    let rec = |o: &Value| {
        o.get("file").is_some_and(Value::is_string)
            && (o.get("text").is_some_and(Value::is_string)
                || o.get("diff").is_some_and(Value::is_string))
            && o.get("oldcode").is_none()
            && o.get("code").is_none()
    };
    match v {
        Value::Array(a) => a.first().is_some_and(rec),
        o => rec(o),
    }
}

/// Whether the first non-empty line of a JSON-lines text is such a record.
pub fn lines_are_records(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .is_some_and(|v| is_records(&v))
}

/// Patches read, and the patches (or lines) that could not be, by name.
#[derive(Debug, Default)]
pub struct Read {
    pub patches: Vec<EditPatch>,
    pub bad: Vec<(String, LlmRecordError)>,
}

/// One patch being put together from its records.
struct Pending {
    name: String,
    edits: Vec<crate::model::FileEdit>,
    error: Option<LlmRecordError>,
}

/// Reads the records of input `shown`: one per line when `lines`, else a JSON array (or one
/// object). Records with the same `patch` id make one patch named `shown (id)`; a record
/// without one is a patch of its own named where it is (`shown:LINE`, `shown[K]`).
pub fn read(
    shown: &str,
    text: &str,
    lines: bool,
    kind: Option<Kind>,
    resolve: super::Resolve,
) -> Read {
    let mut out = Read::default();
    let mut entries: Vec<(String, Value)> = Vec::new();
    if lines {
        for (k, l) in text.lines().enumerate() {
            if l.trim().is_empty() {
                continue;
            }
            let at = format!("{shown}:{}", k + 1);
            match serde_json::from_str::<Value>(l) {
                Ok(v) => entries.push((at, v)),
                Err(source) => out
                    .bad
                    .push((at.clone(), LlmRecordError::Json { at, source })),
            }
        }
    } else {
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Array(items)) => entries.extend(
                items
                    .into_iter()
                    .enumerate()
                    .map(|(k, v)| (format!("{shown}[{k}]"), v)),
            ),
            Ok(v) => entries.push((shown.to_string(), v)),
            Err(source) => out.bad.push((
                shown.to_string(),
                LlmRecordError::Json {
                    at: shown.to_string(),
                    source,
                },
            )),
        }
    }
    let mut pending: Vec<Pending> = Vec::new();
    for (at, v) in entries {
        let id = match v.get("patch") {
            Some(Value::String(s)) => Some(s.clone()),
            Some(n @ Value::Number(_)) => Some(n.to_string()),
            _ => None,
        };
        let slot = match id {
            Some(id) => {
                let name = format!("{shown} ({id})");
                match pending.iter().position(|p| p.name == name) {
                    Some(k) => k,
                    None => {
                        pending.push(Pending {
                            name,
                            edits: Vec::new(),
                            error: None,
                        });
                        pending.len() - 1
                    }
                }
            }
            None => {
                pending.push(Pending {
                    name: at.clone(),
                    edits: Vec::new(),
                    error: None,
                });
                pending.len() - 1
            }
        };
        let p = &mut pending[slot];
        if p.error.is_some() {
            continue;
        }
        match record_edits(&at, v, kind, resolve) {
            Ok(edits) => p.edits.extend(edits),
            Err(e) => p.error = Some(e),
        }
    }
    for p in pending {
        match p.error {
            Some(e) => out.bad.push((p.name, e)),
            None => out.patches.push(EditPatch {
                name: p.name,
                edits: p.edits,
            }),
        }
    }
    out
}

/// The edits of the record at `at`.
fn record_edits(
    at: &str,
    v: Value,
    kind: Option<Kind>,
    resolve: super::Resolve,
) -> Result<Vec<crate::model::FileEdit>, LlmRecordError> {
    let has = |k: &str| v.get(k).is_some_and(Value::is_string);
    let kind = match kind {
        Some(Kind::Method) if !has("text") => {
            return Err(LlmRecordError::Missing {
                at: at.into(),
                wanted: "text",
            })
        }
        Some(Kind::Diff) if !has("diff") => {
            return Err(LlmRecordError::Missing {
                at: at.into(),
                wanted: "diff",
            })
        }
        Some(k) => k,
        None if has("text") => Kind::Method,
        None if has("diff") => Kind::Diff,
        None => return Err(LlmRecordError::NoContent { at: at.into() }),
    };
    let invalid = |e: serde_path_to_error::Error<serde_json::Error>| LlmRecordError::Invalid {
        at: at.into(),
        field: e.path().to_string(),
        source: e.into_inner(),
    };
    match kind {
        Kind::Method => {
            let r: MethodRecord = serde_path_to_error::deserialize(v).map_err(invalid)?;
            whole_method::edit(&r, resolve)
                .map(|e| vec![e])
                .map_err(|source| LlmRecordError::Method {
                    at: at.into(),
                    source,
                })
        }
        Kind::Diff => {
            let r: DiffRecord = serde_path_to_error::deserialize(v).map_err(invalid)?;
            method_diff::edits(&r, resolve).map_err(|source| LlmRecordError::Diff {
                at: at.into(),
                source,
            })
        }
    }
}
