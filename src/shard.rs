//! Cutting a run into shards that other machines run (`run --shard K/N`): a deterministic
//! partition of the run's patch sets, balanced by predicted cost (the set's patches × the baseline
//! time of the tests selection will run for it), the same on any machine and for any order of the
//! arguments: sets are told apart by their content, never by their path.

use crate::model::{fnv, FNV_START};
use crate::schedule::select::select;
use crate::workdir::coverage::Coverage;
use crate::workdir::{State, TestRecord, WorkDir};
use std::path::{Path, PathBuf};

/// Shard `index` of `count` (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

/// Why a shard could not be told.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("`{0}` is not a shard: write K/N with 0 <= K < N (e.g. 0/4)")]
    Malformed(String),
    #[error(
        "no shard given and none in the environment (SLURM_ARRAY_TASK_ID and \
         SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX with a count)"
    )]
    NoEnvironment,
    #[error("{var}={value} is not a shard index below {count}")]
    Environment {
        var: &'static str,
        value: String,
        count: usize,
    },
}

impl Shard {
    /// `K/N`.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError::Malformed(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard a job engine gives this process: a Slurm job array (`SLURM_ARRAY_TASK_ID`,
    /// `SLURM_ARRAY_TASK_COUNT`, for an array starting at 0), or a Kubernetes Indexed Job
    /// (`JOB_COMPLETION_INDEX`, with `count` shards: the Job's `completions`). `var` reads the
    /// environment (`std::env::var` in the program).
    pub fn from_env(
        count: Option<usize>,
        var: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Shard, ShardError> {
        let index_of = |name: &'static str, value: String, count: usize| {
            let index: usize = value.trim().parse().map_err(|_| ShardError::Environment {
                var: name,
                value: value.clone(),
                count,
            })?;
            if index >= count {
                return Err(ShardError::Environment {
                    var: name,
                    value,
                    count,
                });
            }
            Ok(Shard { index, count })
        };
        if let Some(id) = var("SLURM_ARRAY_TASK_ID") {
            let total = var("SLURM_ARRAY_TASK_COUNT")
                .and_then(|c| c.trim().parse().ok())
                .or(count)
                .ok_or(ShardError::NoEnvironment)?;
            return index_of("SLURM_ARRAY_TASK_ID", id, total);
        }
        if let Some(id) = var("JOB_COMPLETION_INDEX") {
            let total = count.ok_or(ShardError::NoEnvironment)?;
            return index_of("JOB_COMPLETION_INDEX", id, total);
        }
        Err(ShardError::NoEnvironment)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// One set of a run as the partition sees it.
#[derive(Debug, Clone)]
pub struct Planned {
    pub path: PathBuf,
    /// The set file's content hash: its identity on every machine.
    pub id: String,
    /// Predicted cost: patches × the baseline milliseconds of the tests selection runs for it.
    pub cost: f64,
    /// Where the set is a part of a costlier set (`cut`): which set and which of its patches.
    pub part: Option<Part>,
}

/// A run of consecutive patches cut from a set too costly for one shard (`cut`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// The set the part was cut from.
    pub origin: PathBuf,
    /// The index of the part's first patch in the origin set.
    pub first: usize,
    /// The part's patches.
    pub patches: usize,
}

/// Why a set could not be cut into parts.
#[derive(Debug, thiserror::Error)]
#[error("{path}: cannot write a part of a set cut between shards: {source}")]
pub struct CutError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

/// The identity of a set file: the FNV-1a hash of its bytes (None: unreadable).
pub fn set_id(path: &Path) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    Some(format!("{:016x}", fnv(bytes, FNV_START)))
}

/// Predicts what validating the set at `path` costs: its patches × the baseline time of the
/// tests it selects (every test without coverage). A set that cannot be loaded costs 1 (it ends
/// at once with an `E`).
pub fn cost(
    wd: &WorkDir,
    state: &State,
    coverage: Option<&Coverage>,
    tests: &[TestRecord],
    path: &Path,
) -> f64 {
    let Ok((set, _)) = crate::technique::load_set(state, path) else {
        return 1.0;
    };
    let selection = select(wd, state, coverage, tests, &set);
    let ms: f64 = selection.tests.iter().map(|t| t.millis.max(1.0)).sum();
    (set.patches.len().max(1) as f64) * ms.max(1.0)
}

/// Cuts every set whose predicted cost exceeds half a shard's share (the run's cost / `count`)
/// into parts of consecutive patches, each at most half a share (and at least one patch), written
/// below `dir` as sets of their own; the other sets stay whole. With every set at most half a
/// share, `partition` keeps each shard within 1.5× the mean (the last set a shard takes goes to
/// the least loaded one, which is at most the mean). A part's file is named and written by its
/// content alone, so every shard of a run (on any machine, over a shared work dir at once) cuts
/// the same parts to the same files.
pub fn cut(sets: Vec<Planned>, count: usize, dir: &Path) -> Result<Vec<Planned>, CutError> {
    let total: f64 = sets.iter().map(|s| s.cost).sum();
    let half = total / count.max(1) as f64 / 2.0;
    let mut out = Vec::with_capacity(sets.len());
    for planned in sets {
        if count <= 1 || planned.cost <= half || half <= 0.0 {
            out.push(planned);
            continue;
        }
        // The set loaded (its cost says so); a failure here leaves it whole.
        let Ok(set) = crate::patchset::load(&planned.path) else {
            out.push(planned);
            continue;
        };
        let n = set.patches.len();
        if n <= 1 {
            out.push(planned);
            continue;
        }
        // As many patches per part as half a share holds (one at least), spread evenly.
        let per_patch = planned.cost / n as f64;
        let most = ((half / per_patch).floor() as usize).max(1);
        let parts = n.div_ceil(most);
        let mut first = 0;
        for k in 0..parts {
            // Sizes differ by one at most, the larger first.
            let len = n / parts + usize::from(k < n % parts);
            let path = write_part(&set, first, len, &planned.id, dir)?;
            out.push(Planned {
                id: set_id(&path).unwrap_or_default(),
                cost: per_patch * len as f64,
                part: Some(Part {
                    origin: planned.path.clone(),
                    first,
                    patches: len,
                }),
                path,
            });
            first += len;
        }
    }
    Ok(out)
}

/// Writes patches `first..first + len` of `set` as a set of their own, `DIR/<origin id>-<first>-
/// <len>.json`, unless a file with that content is there already (another shard wrote it).
fn write_part(
    set: &crate::model::PatchSet,
    first: usize,
    len: usize,
    origin: &str,
    dir: &Path,
) -> Result<PathBuf, CutError> {
    let range = first..first + len;
    let mut part = set.clone();
    part.patches = slice(&set.patches, &range);
    part.names = slice(&set.names, &range);
    part.other_files = slice(&set.other_files, &range);
    let text = serde_json::to_string_pretty(&part).expect("a patch set serializes");
    let path = dir.join(format!("{origin}-{first}-{len}.json"));
    crate::patchset::inputs::write_once(&path, &text).map_err(|source| CutError {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

/// Shard `index`'s share of a run, and the record of the whole partition for its `run.json`.
pub struct Assignment {
    /// The set files (whole sets and parts) this shard validates.
    pub mine: Vec<PathBuf>,
    /// `index`, `count`, every set's or part's key → its shard (`sets`), each part's origin set
    /// (key and path) and first patch (`parts`: what `merge` joins them by), each shard's
    /// predicted cost (`costs`), and the inputs that could not be read (`unreadable`).
    pub record: serde_json::Value,
}

/// Cuts `sets` (`cut`, parts below `parts_dir`), partitions them over `shard.count` shards
/// (`partition`), and returns shard `shard.index`'s set files with the record of the partition;
/// `key_of` gives a set file's key, the one its result line carries.
pub fn assign(
    sets: Vec<Planned>,
    shard: Shard,
    parts_dir: &Path,
    unreadable: usize,
    key_of: &dyn Fn(&Path) -> String,
) -> Result<Assignment, CutError> {
    let sets = cut(sets, shard.count, parts_dir)?;
    let assigned = partition(&sets, shard.count);
    let mut load = vec![0.0f64; shard.count];
    let mut keys = serde_json::Map::new();
    let mut parts = serde_json::Map::new();
    for (p, k) in sets.iter().zip(&assigned) {
        load[*k] += p.cost;
        let key = key_of(&p.path);
        if let Some(part) = &p.part {
            parts.insert(
                key.clone(),
                serde_json::json!({
                    "origin": key_of(&part.origin),
                    "path": part.origin.display().to_string(),
                    "first": part.first,
                    "patches": part.patches,
                }),
            );
        }
        keys.insert(key, serde_json::json!(k));
    }
    let record = serde_json::json!({
        "index": shard.index,
        "count": shard.count,
        "sets": keys,
        "parts": parts,
        "costs": load,
        "unreadable": unreadable,
    });
    let mine = sets
        .into_iter()
        .zip(assigned)
        .filter(|(_, k)| *k == shard.index)
        .map(|(p, _)| p.path)
        .collect();
    Ok(Assignment { mine, record })
}

/// A per-patch list's entries in `range` (an empty list, which a manifest may leave out, stays
/// empty).
fn slice<T: Clone>(list: &[T], range: &std::ops::Range<usize>) -> Vec<T> {
    list.get(range.clone())
        .map(<[T]>::to_vec)
        .unwrap_or_default()
}

/// Assigns each set a shard: the costliest first (ties by identity), each to the shard with the
/// least cost so far (ties to the lowest index). Returns each set's shard, in `sets`' order.
pub fn partition(sets: &[Planned], count: usize) -> Vec<usize> {
    let count = count.max(1);
    let mut order: Vec<usize> = (0..sets.len()).collect();
    order.sort_by(|&a, &b| {
        sets[b]
            .cost
            .total_cmp(&sets[a].cost)
            .then_with(|| sets[a].id.cmp(&sets[b].id))
    });
    let mut load = vec![0.0f64; count];
    let mut out = vec![0; sets.len()];
    for i in order {
        let (k, _) = load
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(b.1).then(a.0.cmp(&b.0)))
            .expect("at least one shard");
        load[k] += sets[i].cost;
        out[i] = k;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planned(id: &str, cost: f64) -> Planned {
        Planned {
            path: PathBuf::from(format!("/x/{id}.json")),
            id: id.into(),
            cost,
            part: None,
        }
    }

    #[test]
    fn a_set_above_half_a_share_is_cut_into_parts_that_cover_its_patches_in_order() {
        let tmp = tempfile::tempdir().unwrap();
        let set = |name: &str, n: usize| -> PathBuf {
            let s = crate::model::PatchSet {
                manifest_version: 3,
                bug: "b".into(),
                filename: "A.java".into(),
                unpatched: "x();".into(),
                patches: (0..n).map(|i| format!("x{i}();")).collect(),
                names: (0..n).map(|i| format!("p{i}")).collect(),
                ..Default::default()
            };
            let path = tmp.path().join(name);
            std::fs::write(&path, serde_json::to_string(&s).unwrap()).unwrap();
            path
        };
        let big = set("big.json", 10);
        let small = set("small.json", 2);
        let plan = || {
            vec![
                Planned {
                    id: set_id(&big).unwrap(),
                    path: big.clone(),
                    cost: 100.0,
                    part: None,
                },
                Planned {
                    id: set_id(&small).unwrap(),
                    path: small.clone(),
                    cost: 4.0,
                    part: None,
                },
            ]
        };
        let dir = tmp.path().join("parts");
        let cut_once = cut(plan(), 4, &dir).unwrap();
        // Half a share is 104 / 4 / 2 = 13: the big set, 10 a patch, in parts of one patch; the
        // small one whole.
        let parts: Vec<&Planned> = cut_once.iter().filter(|p| p.part.is_some()).collect();
        assert_eq!(parts.len(), 10);
        assert!(cut_once.iter().any(|p| p.path == small && p.part.is_none()));
        let mut next = 0;
        for p in &parts {
            let part = p.part.as_ref().unwrap();
            assert_eq!((part.origin.as_path(), part.first), (big.as_path(), next));
            let loaded = crate::patchset::load(&p.path).unwrap();
            assert_eq!(loaded.patches.len(), part.patches);
            assert_eq!(loaded.names[0], format!("p{next}"));
            assert!(p.cost <= 13.0, "{}", p.cost);
            next += part.patches;
        }
        assert_eq!(next, 10);
        // Cut again (another shard, another machine): the same files, the same identities.
        let again = cut(plan(), 4, &dir).unwrap();
        let ids = |v: &[Planned]| v.iter().map(|p| p.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&again), ids(&cut_once));
        // One shard: nothing is cut.
        assert!(cut(plan(), 1, &dir)
            .unwrap()
            .iter()
            .all(|p| p.part.is_none()));
        // The shards' costs are then within 1.5x the mean.
        let k = partition(&cut_once, 4);
        let mut load = [0.0; 4];
        for (p, k) in cut_once.iter().zip(k) {
            load[k] += p.cost;
        }
        assert!(load.iter().all(|l| *l <= 1.5 * 26.0), "{load:?}");
    }

    #[test]
    fn shards_are_parsed_and_read_from_job_engines() {
        assert_eq!(Shard::parse("1/4"), Ok(Shard { index: 1, count: 4 }));
        for bad in ["4/4", "1", "a/b", "0/0", "-1/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let slurm = env(&[
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(
            Shard::from_env(None, &slurm),
            Ok(Shard { index: 2, count: 4 })
        );
        let k8s = env(&[("JOB_COMPLETION_INDEX", "3")]);
        assert_eq!(
            Shard::from_env(Some(5), &k8s),
            Ok(Shard { index: 3, count: 5 })
        );
        assert_eq!(Shard::from_env(None, &k8s), Err(ShardError::NoEnvironment));
        let out_of_range = env(&[("JOB_COMPLETION_INDEX", "7")]);
        assert!(Shard::from_env(Some(5), &out_of_range).is_err());
        assert_eq!(
            Shard::from_env(Some(2), &env(&[])),
            Err(ShardError::NoEnvironment)
        );
    }

    #[test]
    fn the_partition_balances_cost_and_ignores_the_order_of_the_sets() {
        let sets: Vec<Planned> = [9.0, 7.0, 6.0, 5.0, 4.0, 3.0, 3.0, 2.0, 1.0]
            .iter()
            .enumerate()
            .map(|(i, c)| planned(&format!("s{i}"), *c))
            .collect();
        let a = partition(&sets, 3);
        let mut load = [0.0; 3];
        for (s, k) in sets.iter().zip(&a) {
            load[*k] += s.cost;
        }
        let mean = load.iter().sum::<f64>() / 3.0;
        assert!(load.iter().all(|l| *l <= 1.5 * mean), "{load:?}");
        // The same sets in another order land in the same shards.
        let mut reversed = sets.clone();
        reversed.reverse();
        let b = partition(&reversed, 3);
        for (s, k) in reversed.iter().zip(&b) {
            let i = sets.iter().position(|t| t.id == s.id).unwrap();
            assert_eq!(a[i], *k, "{}", s.id);
        }
        // Every set in exactly one shard, and one shard takes everything.
        assert_eq!(partition(&sets, 1), vec![0; sets.len()]);
    }
}
