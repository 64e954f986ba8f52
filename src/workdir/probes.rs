//! What the coverage records share (`coverage.rs`, `lines.rs`): the agent's id lists and name
//! lines parsed, with `CoverageError`; records of several JVMs renumbered into one; per-test
//! records joined for a class run whole; the JSON files.

use super::WorkDirError;
use crate::protocol::line;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::num::ParseIntError;
use std::path::Path;

/// Why the agent's coverage lines of a test run cannot be recorded ([`Coverage::absorb`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoverageError {
    #[error("coverage name line without an id: {0}")]
    NameWithoutId(String),
    /// A `name` line whose id is not a number.
    #[error("bad coverage id: {line}")]
    NameId { line: String, source: ParseIntError },
    /// A `name` line for id `id` where the next id is `next`.
    #[error("coverage names out of order: id {id} after {next} names")]
    OutOfOrder { id: usize, next: usize },
    #[error("unexpected coverage line: {0}")]
    Unexpected(String),
    #[error("no coverage line after the result")]
    NoCoverage,
    #[error("coverage id {0} has no name")]
    Unnamed(u32),
    /// An id of a `cov` or `global` list that is not a number.
    #[error("bad coverage id `{id}`")]
    Id { id: String, source: ParseIntError },
}

/// In a per-test record, the records of `members` replaced by one for `whole`, their union;
/// none for `whole` if a member has none.
pub(super) fn join_tests(tests: &mut BTreeMap<String, Vec<u32>>, whole: &str, members: &[String]) {
    let union: Option<BTreeSet<u32>> = members.iter().try_fold(BTreeSet::new(), |mut all, id| {
        all.extend(tests.get(id)?.iter().copied());
        Some(all)
    });
    for id in members {
        tests.remove(id);
    }
    if let Some(union) = union {
        tests.insert(whole.to_string(), union.into_iter().collect());
    }
}

/// Writes `value` as JSON to `path` through a temporary file renamed into place.
pub(super) fn save_json<T: Serialize>(value: &T, path: &Path) -> std::io::Result<()> {
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, serde_json::to_vec(value)?)?;
    std::fs::rename(&tmp, path)
}

/// The JSON record at `path`; `Ok(None)` when there is none.
pub(super) fn load_json<T: serde::de::DeserializeOwned>(
    path: &Path,
) -> Result<Option<T>, WorkDirError> {
    match std::fs::read(path) {
        Ok(bytes) => {
            serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|source| WorkDirError::Json {
                    path: path.to_path_buf(),
                    source,
                })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(WorkDirError::Read {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// The name of a `name`/`line` line (`text`, its fields after the tag `rest`) whose id must be
/// `next`, the count of names known so far.
pub(super) fn named(text: &str, rest: &str, next: usize) -> Result<String, CoverageError> {
    let (id, name) = rest
        .split_once(line::SEPARATOR)
        .ok_or_else(|| CoverageError::NameWithoutId(text.to_string()))?;
    let id: usize = id.parse().map_err(|source| CoverageError::NameId {
        line: text.to_string(),
        source,
    })?;
    if id != next {
        return Err(CoverageError::OutOfOrder { id, next });
    }
    Ok(name.to_string())
}

/// Appends to `names` those of `other` it lacks; returns, for each of `other`'s ids, its id in
/// `names` (another JVM numbered the same names in its own order).
pub(super) fn renumber(names: &mut Vec<String>, other: Vec<String>) -> Vec<u32> {
    let mut index: std::collections::HashMap<String, u32> = names
        .iter()
        .enumerate()
        .map(|(i, m)| (m.clone(), i as u32))
        .collect();
    other
        .into_iter()
        .map(|m| {
            *index.entry(m.clone()).or_insert_with(|| {
                names.push(m);
                (names.len() - 1) as u32
            })
        })
        .collect()
}

/// `ids` through `map` ([`renumber`]), sorted.
pub(super) fn renumbered(ids: &[u32], map: &[u32]) -> Vec<u32> {
    let mut ids: Vec<u32> = ids.iter().map(|&i| map[i as usize]).collect();
    ids.sort_unstable();
    ids
}

pub(super) fn ids(list: &str) -> Result<Vec<u32>, CoverageError> {
    list.split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse().map_err(|source| CoverageError::Id {
                id: s.to_string(),
                source,
            })
        })
        .collect()
}
