//! The three techniques run in-process on the generated sets (each a `core::Validator`), and the
//! patch-by-patch comparison of their verdicts: every patch whose default or `--no-dedup` verdict
//! differs from plain's is a disagreement, unless plain does not repeat its verdict when it
//! validates the patch again (`rules::instability`).

use crate::model::SetResult;
use crate::model::Technique;
use crate::model::{Outcome, Phase, Verdict};
use crate::rules::instability::{judge, Judgement};
use crate::workdir::WorkDir;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A way of validating that the fuzzer compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tech {
    /// Schemata with deduplication (the product's default).
    Default,
    /// Schemata, every woven patch in its own rounds.
    NoDedup,
    /// The reference.
    Plain,
}

/// The order of verdict columns everywhere in the fuzzer's output.
pub const TECHS: [Tech; 3] = [Tech::Default, Tech::NoDedup, Tech::Plain];

impl Tech {
    pub fn name(self) -> &'static str {
        match self {
            Tech::Default => "default",
            Tech::NoDedup => "no-dedup",
            Tech::Plain => "plain",
        }
    }

    /// Validates the sets at `paths` with this technique; results by set path.
    pub fn run(
        self,
        wd: &WorkDir,
        paths: &[PathBuf],
        jobs: usize,
    ) -> anyhow::Result<BTreeMap<String, SetResult>> {
        // The default spreads every set's tests over idle workers in chunks as small as they
        // come (the fixtures' tests are far below the product's threshold), so the merge of
        // chunks is fuzzed too; --no-dedup keeps each set on one worker.
        let (technique, dedup, split_ms) = match self {
            Tech::Default => (Technique::Schemata, true, Some(0.0)),
            Tech::NoDedup => (Technique::Schemata, false, None),
            Tech::Plain => (Technique::Plain, false, None),
        };
        let args: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let options = crate::core::Options {
            jobs,
            technique,
            dedup,
            split_ms,
            all_tests: false,
            matrix: false,
            resume: false,
            progress: true,
            ..Default::default()
        };
        let validator = crate::core::Validator::open(wd, options, std::env::args().collect())?;
        let submission = validator.submit(&args, crate::patchset::inputs::Format::Manifest)?;
        let results = submission.wait();
        validator.close()?;
        if crate::stop::requested() {
            anyhow::bail!("stopped by SIGINT");
        }
        Ok(results
            .into_iter()
            .map(|r| (r.patches_path.clone(), r))
            .collect())
    }
}

/// One technique's results on all generated sets.
pub struct TechRun {
    pub tech: Tech,
    pub results: BTreeMap<String, SetResult>,
    pub seconds: f64,
}

impl TechRun {
    /// Runs `tech` on every set, timing it.
    pub fn new(
        tech: Tech,
        wd: &WorkDir,
        paths: &[PathBuf],
        jobs: usize,
    ) -> anyhow::Result<TechRun> {
        let t = Instant::now();
        let results = tech.run(wd, paths, jobs)?;
        Ok(TechRun {
            tech,
            results,
            seconds: t.elapsed().as_secs_f64(),
        })
    }

    /// The outcome of patch `i` of the set at `path` (an `E` when the run has none).
    pub fn outcome(&self, path: &Path, i: usize) -> Outcome {
        self.results
            .get(&path.display().to_string())
            .and_then(|r| r.outcomes.get(i).cloned())
            .unwrap_or_else(|| {
                Outcome::new(Verdict::Error, Phase::Load).with_detail("no result for this patch")
            })
    }

    /// Verdict counts over every set.
    pub fn counts(&self) -> BTreeMap<char, usize> {
        let mut out = BTreeMap::new();
        for r in self.results.values() {
            for o in &r.outcomes {
                *out.entry(o.verdict.letter()).or_default() += 1;
            }
        }
        out
    }
}

/// A patch on which a fast technique and plain validation disagree.
#[derive(Debug, Clone)]
pub struct Disagreement {
    pub set: PathBuf,
    /// Where the set patches (`File.java:line`).
    pub place: String,
    pub patch: usize,
    pub text: String,
    pub op: String,
    /// In `TECHS` order.
    pub outcomes: Vec<Outcome>,
    /// The minimal reproducer written for it, if it was reduced.
    pub reproducer: Option<PathBuf>,
    /// A timeout against another verdict that did not repeat: validated again on the reduced
    /// set, all three techniques agreed (see [`Disagreement::settle`]).
    pub timing: bool,
    /// Plain did not repeat its verdict when it validated the patch again, and gave the fast
    /// techniques' verdicts (`rules::instability`): what it gave and the tests behind it.
    pub plain_unstable: Option<String>,
}

impl Disagreement {
    /// The fast technique to reduce with: the default when it disagrees, else `--no-dedup`.
    pub fn culprit(&self) -> Tech {
        if self.outcomes[0].verdict != self.outcomes[2].verdict {
            Tech::Default
        } else {
            Tech::NoDedup
        }
    }

    pub fn plain(&self) -> Verdict {
        self.outcomes[2].verdict
    }

    /// Judges the disagreement with plain's outcomes when it validated the patch again: plain's
    /// instability ([`Disagreement::plain_unstable`]) when neither fast technique's disagreement
    /// with it is real.
    pub fn judge_again(&mut self, again: &[Outcome]) {
        let plain = &self.outcomes[2];
        let judged: Vec<Judgement> = self.outcomes[..2]
            .iter()
            .filter(|o| o.verdict != plain.verdict)
            .map(|o| judge(o.verdict, plain, again))
            .collect();
        if !judged.is_empty() && judged.iter().all(|j| !j.is_real()) {
            self.plain_unstable = Some(judged[0].describe());
        }
    }

    /// Takes the verdicts of the reduced set into account. A patch whose run lasts about as long
    /// as the test's timeout is `T` or not by how fast the machine (and the JIT) was at that
    /// moment, for plain validation too; so is a deep recursion near the end of the stack, whose
    /// frames are smaller once the JIT has compiled the method. Such a disagreement is
    /// *timing-borderline*, not a deduplication fault, when validated again on the reduced set
    /// either one of its verdicts is a `T` and all three techniques give one verdict, or plain's
    /// own verdict changed (plain validates each patch alone in a fresh JVM, so only the machine
    /// can change it) and each fast technique's verdict is one plain gave; any other is kept.
    pub fn settle(&mut self, confirmed: &[Outcome]) {
        let timeout = self.outcomes.iter().any(|o| o.verdict == Verdict::Timeout);
        let agree = confirmed.len() == self.outcomes.len()
            && confirmed.iter().all(|o| o.verdict == confirmed[0].verdict);
        let plain_again = confirmed.get(2).map(|o| o.verdict);
        let plain_changed = plain_again.is_some_and(|v| v != self.plain());
        let plains = self.outcomes[..2]
            .iter()
            .all(|o| o.verdict == self.plain() || Some(o.verdict) == plain_again);
        self.timing = (timeout && agree) || (plain_changed && plains);
    }

    /// The human report of one disagreement.
    pub fn describe(&self) -> String {
        let name = self
            .set
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut s = format!(
            "DISAGREEMENT {name} patch {} ({}) at {}\n  patch: {}\n",
            self.patch,
            self.op,
            self.place,
            if self.text.is_empty() {
                "(delete the statement)"
            } else {
                &self.text
            }
        );
        for (t, o) in TECHS.iter().zip(&self.outcomes) {
            s.push_str(&format!("  {:<9}{}\n", t.name(), outcome_line(o)));
        }
        s
    }
}

/// `F org.x.Test#m: detail`, shortened.
pub fn outcome_line(o: &Outcome) -> String {
    let mut s = o.verdict.letter().to_string();
    if let Some(t) = &o.test {
        s.push(' ');
        s.push_str(t);
    }
    if let Some(d) = &o.detail {
        let d: String = d.replace('\n', " ").chars().take(240).collect();
        s.push_str(": ");
        s.push_str(&d);
    }
    s
}

/// A generated set, as the comparison sees it.
pub struct Compared<'a> {
    pub path: &'a Path,
    pub place: &'a str,
    pub patches: &'a [String],
    pub ops: &'a [&'static str],
}

/// Every patch whose default or `--no-dedup` verdict differs from plain's.
pub fn disagreements(sets: &[Compared], runs: &[TechRun]) -> Vec<Disagreement> {
    let mut out = Vec::new();
    for s in sets {
        for i in 0..s.patches.len() {
            let outcomes: Vec<Outcome> = runs.iter().map(|r| r.outcome(s.path, i)).collect();
            let plain = outcomes[2].verdict;
            if outcomes[..2].iter().any(|o| o.verdict != plain) {
                out.push(Disagreement {
                    set: s.path.to_path_buf(),
                    place: s.place.to_string(),
                    patch: i,
                    text: s.patches[i].clone(),
                    op: s.ops.get(i).copied().unwrap_or("?").to_string(),
                    outcomes,
                    reproducer: None,
                    timing: false,
                    plain_unstable: None,
                });
            }
        }
    }
    out
}
