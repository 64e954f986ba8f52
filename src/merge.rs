//! `patchval merge RUN_DIR... --out DIR`: the runs of a sharded run (`run --shard`, each a
//! `WORK/runs/NNNN/` directory, from any machine) put back together into one record:
//! `result.jsonl`, `details.jsonl` and `run.json` with the totals. Runs made with different
//! patchval versions, techniques, options or work-dir states are refused, as are shards of
//! different partitions; a set validated in two runs, or in none, is named.

use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What must be the same in every run merged (the parts of a set's key besides its content).
const SAME: [&str; 6] = [
    "version",
    "technique",
    "dedup",
    "all_tests",
    "matrix",
    "run_key",
];

/// Why runs cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}: not a run directory (no readable run.json)")]
    NotARun(PathBuf),
    #[error(
        "{field} differs: {a} in {run_a}, {b} in {run_b} (runs of different patchval versions, \
         techniques, options or work-dir states cannot be merged)"
    )]
    Differs {
        field: String,
        a: String,
        run_a: PathBuf,
        b: String,
        run_b: PathBuf,
    },
    #[error("{0}")]
    Shards(String),
    #[error("{0}")]
    Sets(String),
}

impl MergeError {
    pub fn exit_code(&self) -> crate::exit::ExitCode {
        match self {
            MergeError::Io { .. } => crate::exit::ExitCode::Environment,
            _ => crate::exit::ExitCode::Usage,
        }
    }
}

/// One run read back.
struct Run {
    dir: PathBuf,
    meta: Value,
    results: Vec<Value>,
    details: Vec<Value>,
}

fn read_run(dir: &Path) -> Result<Run, MergeError> {
    let meta: Value = std::fs::read_to_string(dir.join("run.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .ok_or_else(|| MergeError::NotARun(dir.to_path_buf()))?;
    let lines = |name: &str| -> Result<Vec<Value>, MergeError> {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).map_err(|source| MergeError::Io {
            path: path.clone(),
            source,
        })?;
        // A last line cut by a killed run is no result.
        Ok(text
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect())
    };
    Ok(Run {
        dir: dir.to_path_buf(),
        results: lines("result.jsonl")?,
        details: lines("details.jsonl")?,
        meta,
    })
}

/// What a merge wrote.
#[derive(Debug)]
pub struct Merged {
    pub sets: usize,
    pub verdicts: BTreeMap<char, usize>,
}

/// Merges the runs in `dirs` into `out` (created).
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Merged, MergeError> {
    let runs: Vec<Run> = dirs.iter().map(|d| read_run(d)).collect::<Result<_, _>>()?;
    let Some(first) = runs.first() else {
        return Err(MergeError::Shards("no run to merge".into()));
    };
    for r in &runs[1..] {
        for field in SAME {
            if r.meta[field] != first.meta[field] {
                return Err(MergeError::Differs {
                    field: field.to_string(),
                    a: first.meta[field].to_string(),
                    run_a: first.dir.clone(),
                    b: r.meta[field].to_string(),
                    run_b: r.dir.clone(),
                });
            }
        }
    }
    // The partition every shard recorded, and which shards are here.
    let shards: Vec<&Value> = runs.iter().map(|r| &r.meta["shard"]).collect();
    let sharded = shards.iter().any(|s| !s.is_null());
    let mut plan: Option<&Value> = None;
    let mut count = 0;
    let mut present = BTreeMap::new();
    if sharded {
        for (r, s) in runs.iter().zip(&shards) {
            if s.is_null() {
                return Err(MergeError::Shards(format!(
                    "{} is not a shard (no `shard` in its run.json) but the others are",
                    r.dir.display()
                )));
            }
            let index = s["index"].as_u64().unwrap_or(0);
            count = s["count"].as_u64().unwrap_or(0);
            match plan {
                None => plan = Some(&s["sets"]),
                Some(p) if *p != s["sets"] || first.meta["shard"]["count"] != s["count"] => {
                    return Err(MergeError::Shards(format!(
                        "{} was cut from another partition of the sets than {} (other \
                         inputs or another shard count)",
                        r.dir.display(),
                        first.dir.display()
                    )))
                }
                Some(_) => {}
            }
            if let Some(other) = present.insert(index, &r.dir) {
                return Err(MergeError::Shards(format!(
                    "shard {index}/{count} twice: {} and {}",
                    other.display(),
                    r.dir.display()
                )));
            }
        }
    }
    // Each set's result once; a set in two runs is an error.
    let mut by_key: BTreeMap<String, usize> = BTreeMap::new();
    let mut twice = Vec::new();
    let mut results: Vec<(usize, &Value)> = Vec::new();
    for (i, r) in runs.iter().enumerate() {
        for line in &r.results {
            if let Some(key) = line["key"].as_str() {
                if let Some(j) = by_key.insert(key.to_string(), i) {
                    twice.push(format!(
                        "{} (in {} and {})",
                        line["patches_path"].as_str().unwrap_or("?"),
                        runs[j].dir.display(),
                        r.dir.display()
                    ));
                    continue;
                }
            }
            results.push((i, line));
        }
    }
    if !twice.is_empty() {
        return Err(MergeError::Sets(format!(
            "{} set(s) validated in two runs: {}",
            twice.len(),
            twice.join("; ")
        )));
    }
    if let Some(plan) = plan.and_then(Value::as_object) {
        let missing: Vec<String> = plan
            .iter()
            .filter(|(key, _)| !by_key.contains_key(*key))
            .map(|(key, shard)| {
                let why = if present.contains_key(&shard.as_u64().unwrap_or(0)) {
                    "its shard's run has no result for it (stopped early?)"
                } else {
                    "its shard is not among the runs"
                };
                format!("set {key} of shard {shard}/{count}: {why}")
            })
            .collect();
        if !missing.is_empty() {
            let absent: BTreeSet<u64> = (0..count).filter(|k| !present.contains_key(k)).collect();
            return Err(MergeError::Sets(format!(
                "{} set(s) missing from every run{}: {}",
                missing.len(),
                if absent.is_empty() {
                    String::new()
                } else {
                    format!(" (shards {absent:?} not given)")
                },
                missing.join("; ")
            )));
        }
    }
    let sets: Vec<(Value, Vec<Value>)> = results
        .iter()
        .map(|(i, line)| {
            let path = line["patches_path"].as_str();
            let details = runs[*i]
                .details
                .iter()
                .filter(|d| d["patches_path"].as_str() == path)
                .cloned()
                .collect();
            ((*line).clone(), details)
        })
        .collect();
    let parts = first.meta["shard"]["parts"].as_object();
    let sets = match parts {
        Some(parts) if !parts.is_empty() => join_parts(sets, parts)?,
        _ => sets,
    };
    write(&runs, &sets, out, first, count)
}

/// A part of a set cut between shards: its first patch in the set, its result line and details.
type Piece = (u64, Value, Vec<Value>);

/// Joins the parts of each set cut between shards (`shard::cut`; `parts`: part key → origin key,
/// origin path, first patch, patches) back into the lines one unsharded run writes for the set:
/// the succlist and details in patch order (details' patch indexes counted in the whole set), the
/// telemetry summed, the set's own path and key.
fn join_parts(
    sets: Vec<(Value, Vec<Value>)>,
    parts: &serde_json::Map<String, Value>,
) -> Result<Vec<(Value, Vec<Value>)>, MergeError> {
    // Each origin's place among the results (where its first-listed part was) and its parts.
    let mut out: Vec<Option<(Value, Vec<Value>)>> = Vec::new();
    let mut origins: BTreeMap<String, (usize, Vec<Piece>)> = BTreeMap::new();
    for (line, details) in sets {
        let part = line["key"].as_str().and_then(|k| parts.get(k));
        let Some(part) = part else {
            out.push(Some((line, details)));
            continue;
        };
        let origin = part["origin"].as_str().unwrap_or_default().to_string();
        let slot = out.len();
        let entry = origins.entry(origin).or_insert_with(|| {
            out.push(None);
            (slot, Vec::new())
        });
        let mut line = line;
        line["patches_path"] = part["path"].clone();
        entry
            .1
            .push((part["first"].as_u64().unwrap_or(0), line, details));
    }
    for (origin, (slot, mut pieces)) in origins {
        pieces.sort_by_key(|(first, ..)| *first);
        let mut next = 0u64;
        let mut joined: Option<Value> = None;
        let mut details = Vec::new();
        for (first, line, piece) in pieces {
            let path = line["patches_path"].clone();
            let succ = line["succlist"].as_str().unwrap_or_default().to_string();
            if first != next {
                return Err(MergeError::Sets(format!(
                    "set {} (cut between shards): its parts do not follow one another (a part \
                     starts at patch {first}, where patch {next} was expected)",
                    path.as_str().unwrap_or("?")
                )));
            }
            next += succ.chars().count() as u64;
            for mut d in piece {
                d["patch"] = (d["patch"].as_u64().unwrap_or(0) + first).into();
                d["patches_path"] = path.clone();
                details.push(d);
            }
            joined = Some(match joined {
                None => line,
                Some(mut j) => {
                    let all = format!("{}{succ}", j["succlist"].as_str().unwrap_or_default());
                    j["succlist"] = all.into();
                    if j["error"].is_null() && !line["error"].is_null() {
                        j["error"] = line["error"].clone();
                    }
                    j["extra"] = add(&j["extra"], &line["extra"], "extra");
                    j
                }
            });
        }
        if let Some(mut line) = joined {
            line["key"] = origin.into();
            out[slot] = Some((line, details));
        }
    }
    Ok(out.into_iter().flatten().collect())
}

/// Two parts' telemetry as one set's: counts and times summed (a worker's JVM starts since the
/// run began: the larger), lists put one after the other (lists of numbers of one length, such as
/// a test's [rounds, classes], summed entry by entry), maps joined key by key.
fn add(a: &Value, b: &Value, field: &str) -> Value {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let max = field == "worker_jvm_starts";
            match (x.as_u64(), y.as_u64()) {
                (Some(x), Some(y)) => (if max { x.max(y) } else { x + y }).into(),
                _ => {
                    let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
                    (if max { x.max(y) } else { x + y }).into()
                }
            }
        }
        (Value::Array(x), Value::Array(y))
            if x.len() == y.len() && x.iter().chain(y).all(Value::is_number) =>
        {
            x.iter().zip(y).map(|(p, q)| add(p, q, field)).collect()
        }
        (Value::Array(x), Value::Array(y)) => x.iter().chain(y).cloned().collect(),
        (Value::Object(x), Value::Object(y)) => {
            let mut out = x.clone();
            for (k, v) in y {
                let joined = match x.get(k) {
                    Some(w) => add(w, v, k),
                    None => v.clone(),
                };
                out.insert(k.clone(), joined);
            }
            Value::Object(out)
        }
        (Value::Null, other) => other.clone(),
        (kept, _) => kept.clone(),
    }
}

/// Writes the merged record.
fn write(
    runs: &[Run],
    sets: &[(Value, Vec<Value>)],
    out: &Path,
    first: &Run,
    shards: u64,
) -> Result<Merged, MergeError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| MergeError::Io { path, source }
    };
    std::fs::create_dir_all(out).map_err(io(out))?;
    let (mut result_text, mut details_text) = (String::new(), String::new());
    let mut verdicts: BTreeMap<char, usize> = BTreeMap::new();
    let (mut unusable, mut resumed) = (0, 0);
    for (line, details) in sets {
        // The set's details come before its result line, as in a run.
        for d in details {
            details_text.push_str(&d.to_string());
            details_text.push('\n');
        }
        result_text.push_str(&line.to_string());
        result_text.push('\n');
        for c in line["succlist"].as_str().unwrap_or_default().chars() {
            *verdicts.entry(c).or_default() += 1;
        }
        unusable += usize::from(!line["error"].is_null());
        resumed += usize::from(!line["resumed_from"].is_null());
    }
    let write = |name: &str, text: &str| {
        let path = out.join(name);
        std::fs::write(&path, text).map_err(io(&path))
    };
    write("details.jsonl", &details_text)?;
    write("result.jsonl", &result_text)?;
    let mut meta = json!({
        "merged_from": runs.iter().map(|r| r.dir.display().to_string()).collect::<Vec<_>>(),
        "shards": shards,
        "wall_seconds_per_run": runs.iter().map(|r| r.meta["wall_seconds"].clone()).collect::<Vec<_>>(),
        "totals": {
            "sets": sets.len(),
            "resumed": resumed,
            "unusable": unusable,
            "verdicts": verdicts,
        },
    });
    for field in SAME {
        meta[field] = first.meta[field].clone();
    }
    let text = serde_json::to_string_pretty(&meta).map_err(|e| MergeError::Io {
        path: out.join("run.json"),
        source: e.into(),
    })?;
    write("run.json", &text)?;
    Ok(Merged {
        sets: sets.len(),
        verdicts,
    })
}
