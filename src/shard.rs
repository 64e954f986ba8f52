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
        }
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
