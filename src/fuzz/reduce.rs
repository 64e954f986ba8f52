//! The minimal reproducer of a disagreement: delta debugging (ddmin) over the other patches of
//! its set. Plain validation judges each patch on its own, so its verdict on the disagreeing patch
//! is known; each step re-runs only the fast technique that disagreed, on all candidate subsets
//! of the step at once (in parallel over the workers), and keeps the smallest set in which the
//! patch still gets a verdict other than plain's. The result is confirmed with all three techniques.

use super::compare::{Tech, TECHS};
use crate::model::{Outcome, PatchSet, Verdict};
use crate::workdir::WorkDir;
use std::path::{Path, PathBuf};

/// A reduced manifest and what the three techniques said on it.
pub struct Reduced {
    pub set: PatchSet,
    /// Index of the disagreeing patch in the reduced set.
    pub target: usize,
    /// Whether the disagreement showed again when the set was validated alone.
    pub reproduced: bool,
    /// Runs of the fast technique during the reduction.
    pub steps: usize,
    /// The disagreeing patch's outcome on the reduced set, in `TECHS` order.
    pub confirmed: Vec<Outcome>,
}

/// The set reduced to `target` plus the patches in `others` (original order kept).
fn subset(set: &PatchSet, target: usize, others: &[usize]) -> (PatchSet, usize) {
    let mut keep: Vec<usize> = others.to_vec();
    keep.push(target);
    keep.sort_unstable();
    keep.dedup();
    let mut s = set.clone();
    s.patches = keep.iter().map(|&i| set.patches[i].clone()).collect();
    if !set.names.is_empty() {
        s.names = keep.iter().map(|&i| set.names[i].clone()).collect();
    }
    if !set.other_files.is_empty() {
        s.other_files = keep.iter().map(|&i| set.other_edits(i).to_vec()).collect();
    }
    let at = keep.iter().position(|&i| i == target).expect("target kept");
    (s, at)
}

struct Search<'a> {
    wd: &'a WorkDir,
    scratch: PathBuf,
    set: &'a PatchSet,
    target: usize,
    tech: Tech,
    plain: Verdict,
    jobs: usize,
    steps: usize,
    files: usize,
}

impl Search<'_> {
    /// Which candidate subsets still disagree (one run of the fast technique for all of them).
    fn disagree(&mut self, candidates: &[Vec<usize>]) -> anyhow::Result<Vec<bool>> {
        let mut paths = Vec::new();
        let mut targets = Vec::new();
        for c in candidates {
            let (s, at) = subset(self.set, self.target, c);
            self.files += 1;
            let p = self.scratch.join(format!("step{:04}.json", self.files));
            std::fs::write(&p, serde_json::to_string_pretty(&s)?)?;
            paths.push(p);
            targets.push(at);
        }
        self.steps += 1;
        let results = self.tech.run(self.wd, &paths, self.jobs)?;
        Ok(paths
            .iter()
            .zip(targets)
            .map(|(p, at)| {
                results
                    .get(&p.display().to_string())
                    .and_then(|r| r.outcomes.get(at))
                    .is_some_and(|o| o.verdict != self.plain)
            })
            .collect())
    }
}

fn chunks(v: &[usize], n: usize) -> Vec<Vec<usize>> {
    let n = n.min(v.len()).max(1);
    (0..n)
        .map(|k| v[k * v.len() / n..(k + 1) * v.len() / n].to_vec())
        .collect()
}

/// Reduces the set around patch `target`, which `tech` judged differently from plain (`plain`).
pub fn reduce(
    wd: &WorkDir,
    scratch: &Path,
    set: &PatchSet,
    target: usize,
    tech: Tech,
    plain: Verdict,
    jobs: usize,
) -> anyhow::Result<Reduced> {
    let _ = std::fs::remove_dir_all(scratch);
    std::fs::create_dir_all(scratch)?;
    let mut search = Search {
        wd,
        scratch: scratch.to_path_buf(),
        set,
        target,
        tech,
        plain,
        jobs,
        steps: 0,
        files: 0,
    };
    let all: Vec<usize> = (0..set.patches.len()).filter(|&i| i != target).collect();
    let first = search.disagree(&[vec![], all.clone()])?;
    let (kept, reproduced) = if first[0] {
        (vec![], true)
    } else if !first[1] {
        (all, false)
    } else {
        (ddmin(&mut search, all)?, true)
    };
    let (reduced, at) = subset(set, target, &kept);
    let p = scratch.join("reduced.json");
    std::fs::write(&p, serde_json::to_string_pretty(&reduced)?)?;
    let mut confirmed = Vec::new();
    for t in TECHS {
        let r = t.run(wd, std::slice::from_ref(&p), jobs)?;
        confirmed.push(
            r.get(&p.display().to_string())
                .and_then(|r| r.outcomes.get(at).cloned())
                .unwrap_or_else(|| {
                    Outcome::new(Verdict::Error, crate::model::Phase::Load)
                        .with_detail("no result for the reduced set")
                }),
        );
    }
    Ok(Reduced {
        set: reduced,
        target: at,
        reproduced,
        steps: search.steps,
        confirmed,
    })
}

/// Zeller's ddmin over the other patches: `c` disagrees; returns a 1-minimal subset that does.
fn ddmin(search: &mut Search, mut c: Vec<usize>) -> anyhow::Result<Vec<usize>> {
    let mut n = 2;
    // The target alone was tried first and agreed, so one other patch is already minimal.
    while c.len() > 1 {
        let parts = chunks(&c, n);
        let complements: Vec<Vec<usize>> = if parts.len() > 2 {
            (0..parts.len())
                .map(|k| {
                    parts
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != k)
                        .flat_map(|(_, p)| p.iter().copied())
                        .collect()
                })
                .collect()
        } else {
            vec![]
        };
        let mut candidates = parts.clone();
        candidates.extend(complements.iter().cloned());
        let verdicts = search.disagree(&candidates)?;
        if let Some(k) = (0..parts.len()).find(|&k| verdicts[k]) {
            c = parts[k].clone();
            n = 2;
        } else if let Some(k) = (0..complements.len()).find(|&k| verdicts[parts.len() + k]) {
            c = complements[k].clone();
            n = (n - 1).max(2);
        } else if n >= c.len() {
            break;
        } else {
            n = (2 * n).min(c.len());
        }
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_in_order() {
        let v: Vec<usize> = (0..7).collect();
        let c = chunks(&v, 3);
        assert_eq!(c.len(), 3);
        assert_eq!(c.concat(), v);
        assert_eq!(chunks(&v, 20).len(), 7);
    }

    #[test]
    fn subset_keeps_original_order_and_finds_target() {
        let set = PatchSet {
            manifest_version: 3,
            interface: "local".into(),
            bug: "b".into(),
            filename: "A.java".into(),
            context_above: "a".into(),
            unpatched: "x".into(),
            context_below: "b".into(),
            patches: vec!["p0".into(), "p1".into(), "p2".into(), "p3".into()],
            ..PatchSet::default()
        };
        let (s, at) = subset(&set, 2, &[3, 0]);
        assert_eq!(s.patches, ["p0", "p2", "p3"]);
        assert_eq!(at, 1);
    }
}
