//! One technique over one bug's generated sets, as `bench` measures it: a validator of its own,
//! every set submitted at once, each patch's outcome timed as it is decided; the row it makes
//! (verdict counts, the first plausible patch in generation order and the time it was decided,
//! test executions, wall and core seconds).

use crate::core::{CoreError, Event, Next, Options, Validator};
use crate::model::{Technique, Verdict};
use crate::patchset::inputs::Format;
use crate::workdir::WorkDir;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The techniques a bench compares, by the names the rows carry.
pub const TECHNIQUES: [&str; 3] = ["plain", "no-dedup", "default"];

/// The validator options of technique `name` (one of [`TECHNIQUES`]) with `jobs` workers: the
/// product's defaults otherwise.
pub fn options(name: &str, jobs: usize) -> Option<Options> {
    let (technique, dedup) = match name {
        "plain" => (Technique::Plain, false),
        "no-dedup" => (Technique::Schemata, false),
        "default" => (Technique::Schemata, true),
        _ => return None,
    };
    Some(Options {
        jobs,
        technique,
        dedup,
        ..Options::default()
    })
}

/// One bug validated by one technique.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub bug: String,
    pub technique: String,
    pub jobs: usize,
    pub sets: usize,
    pub patches: usize,
    /// Patches per verdict letter.
    pub counts: BTreeMap<char, usize>,
    /// Patches before the first plausible one in generation order (sets by rank, patches in
    /// their order), and when the first plausible patch was decided (seconds after the start).
    pub before_first_plausible: Option<usize>,
    pub first_plausible_seconds: Option<f64>,
    /// Test executions (`extra.rounds` summed: each test run of each patch or class of patches).
    pub test_executions: u64,
    pub wall_seconds: f64,
    /// CPU time of this process and its children (workers, plain's JVMs) while it ran.
    pub core_seconds: f64,
    /// Each set's verdicts by set file name (for the agreement with plain).
    pub verdicts: BTreeMap<String, String>,
    /// Patches whose verdict differs from plain's (`None` for plain, or when plain was not run).
    pub disagreements: Option<usize>,
    /// Compile time (javac) summed over the sets, seconds.
    pub compile_seconds: f64,
    /// Patches of sets this technique does not take (an external validator takes manifest-v3
    /// sets only, not `generate --order 2`'s edit lists); not compared with plain.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub not_taken: usize,
    /// Patches whose letter differed from plain's where plain, validating the patch again, did
    /// not repeat its own (`rules::instability`): not counted in `disagreements`; each with
    /// what plain gave and the tests behind it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plain_unstable: Vec<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Row {
    /// A row with nothing measured yet.
    pub fn new(bug: &str, technique: &str, jobs: usize) -> Row {
        Row {
            bug: bug.to_string(),
            technique: technique.to_string(),
            jobs,
            sets: 0,
            patches: 0,
            counts: BTreeMap::new(),
            before_first_plausible: None,
            first_plausible_seconds: None,
            test_executions: 0,
            wall_seconds: 0.0,
            core_seconds: 0.0,
            verdicts: BTreeMap::new(),
            disagreements: None,
            compile_seconds: 0.0,
            not_taken: 0,
            plain_unstable: Vec::new(),
        }
    }

    /// Adds one set (in generation order): its verdict letters, test executions and compile
    /// seconds.
    pub fn add_set(&mut self, name: String, letters: &str, rounds: u64, compile_seconds: f64) {
        if let Some(i) = letters.chars().position(|c| c == 's') {
            if self.before_first_plausible.is_none() {
                self.before_first_plausible = Some(self.patches + i);
            }
        }
        for c in letters.chars() {
            *self.counts.entry(c).or_default() += 1;
        }
        self.sets += 1;
        self.patches += letters.chars().count();
        self.test_executions += rounds;
        self.compile_seconds += compile_seconds;
        self.verdicts.insert(name, letters.to_string());
    }

    pub fn core_seconds_per_patch(&self) -> f64 {
        self.core_seconds / self.patches.max(1) as f64
    }

    pub fn patches_per_hour(&self) -> f64 {
        if self.wall_seconds > 0.0 {
            self.patches as f64 * 3600.0 / self.wall_seconds
        } else {
            0.0
        }
    }

    /// Compares with plain's row of the same bug: patches whose letter differs. Returns those
    /// of sets plain validated, as (set file name, patch, this row's letter, plain's letter), to
    /// be decided again ([`Row::judged`]).
    pub fn compare(&mut self, plain: &Row) -> Vec<(String, usize, char, char)> {
        let mut differ = 0;
        let mut differing = Vec::new();
        for (set, mine) in &self.verdicts {
            let theirs = plain.verdicts.get(set).map(String::as_str).unwrap_or("");
            for (i, (a, b)) in mine
                .chars()
                .zip(theirs.chars().chain(std::iter::repeat(' ')))
                .enumerate()
            {
                if a != b {
                    differ += 1;
                    if b != ' ' {
                        differing.push((set.clone(), i, a, b));
                    }
                }
            }
        }
        // Sets missing from this row count as differing, unless the technique does not take some
        // of plain's sets (then only the sets it took are compared).
        let missing: usize = plain
            .verdicts
            .iter()
            .filter(|(set, _)| self.not_taken == 0 && !self.verdicts.contains_key(*set))
            .map(|(_, v)| v.len())
            .sum();
        self.disagreements = Some(differ + missing);
        differing
    }

    /// A disagreement `compare` counted that plain, validating the patch again, did not repeat:
    /// no longer counted, and noted with `why`.
    pub fn judged(&mut self, set: &str, patch: usize, why: &str) {
        if let Some(n) = self.disagreements.as_mut() {
            *n = n.saturating_sub(1);
        }
        self.plain_unstable
            .push(format!("{set} patch {patch}: {why}"));
    }
}

/// CPU seconds of this process and its waited-for children so far.
pub(crate) fn cpu_seconds() -> f64 {
    let of = |who| {
        // SAFETY: getrusage writes one rusage into the zeroed struct it is given.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(who, &mut u) } != 0 {
            return 0.0;
        }
        let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 / 1e6;
        t(u.ru_utime) + t(u.ru_stime)
    };
    of(libc::RUSAGE_SELF) + of(libc::RUSAGE_CHILDREN)
}

/// Validates `sets` (in generation order) of `bug` in `wd` with technique `name`; `None` when a
/// SIGINT stopped it (the sets still queued are cancelled, the row is not made).
pub fn measure(
    wd: &WorkDir,
    bug: &str,
    name: &str,
    jobs: usize,
    sets: &[PathBuf],
) -> Result<Option<Row>, CoreError> {
    let options = options(name, jobs).expect("a known technique");
    let args: Vec<String> = sets.iter().map(|p| p.display().to_string()).collect();
    let (cpu, started) = (cpu_seconds(), Instant::now());
    let argv = vec![format!("patchval bench ({bug}, {name})")];
    let validator = Validator::open(wd, options, argv)?;
    let submission = validator.submit(&args, Format::Manifest)?;
    let active = crate::stop::watch(&validator.record_dir());
    let mut first = None;
    let mut results = Vec::new();
    let mut stopped = false;
    loop {
        if !stopped && crate::stop::requested() {
            submission.cancel();
            stopped = true;
        }
        match submission.next(Duration::from_millis(200)) {
            Next::Event(e) => match *e {
                Event::Decided { outcome, .. } => {
                    if outcome.verdict == Verdict::Plausible && first.is_none() {
                        first = Some(started.elapsed().as_secs_f64());
                    }
                }
                Event::Done { result, .. } => results.push(*result),
            },
            Next::Waiting => {}
            Next::Over => break,
        }
    }
    validator.close()?;
    drop(active);
    if stopped {
        return Ok(None);
    }
    let wall = started.elapsed().as_secs_f64();
    let core = cpu_seconds() - cpu;
    // Generation order: the sets as given; results under other paths (the sets an edit list of
    // pairs was grouped into, `WORK/inputs/`) after them, by path.
    let mut ordered: Vec<&crate::model::SetResult> = Vec::new();
    for arg in &args {
        ordered.extend(results.iter().filter(|r| &r.patches_path == arg));
    }
    let mut others: Vec<&crate::model::SetResult> = results
        .iter()
        .filter(|r| !args.contains(&r.patches_path))
        .collect();
    others.sort_by(|a, b| a.patches_path.cmp(&b.patches_path));
    ordered.extend(others);
    let mut row = Row::new(bug, name, jobs);
    row.wall_seconds = wall;
    row.core_seconds = core;
    row.first_plausible_seconds = first;
    for r in ordered {
        let name = std::path::Path::new(&r.patches_path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned());
        let letters: String = r.outcomes.iter().map(|o| o.verdict.letter()).collect();
        row.add_set(
            name.unwrap_or_default(),
            &letters,
            r.extra.rounds,
            r.extra.compile_ms / 1000.0,
        );
    }
    Ok(Some(row))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(technique: &str, verdicts: &[(&str, &str)]) -> Row {
        let mut r = Row::new("b", technique, 1);
        for (set, letters) in verdicts {
            r.add_set(set.to_string(), letters, 1, 0.5);
        }
        r.wall_seconds = 2.0;
        r.core_seconds = 3.0;
        r
    }

    #[test]
    fn a_set_added_counts_its_letters_and_the_first_plausible_in_generation_order() {
        let r = row("plain", &[("a.json", "FFC"), ("b.json", "FsFs")]);
        assert_eq!((r.sets, r.patches, r.test_executions), (2, 7, 2));
        assert_eq!(r.before_first_plausible, Some(4));
        assert_eq!(r.counts[&'F'], 4);
        assert_eq!(r.compile_seconds, 1.0);
    }

    #[test]
    fn a_technique_that_does_not_take_some_sets_is_compared_on_the_sets_it_took() {
        let plain = row("plain", &[("a.json", "sFC"), ("pairs-1.json", "FF")]);
        let mut ext = row("ext", &[("a.json", "sCC")]);
        ext.not_taken = 2;
        let differing = ext.compare(&plain);
        assert_eq!(ext.disagreements, Some(1));
        assert_eq!(differing, vec![("a.json".to_string(), 1, 'C', 'F')]);
        ext.judged("a.json", 1, "plain gave FCCC");
        assert_eq!(ext.disagreements, Some(0));
        assert_eq!(ext.plain_unstable.len(), 1);
    }

    #[test]
    fn disagreements_count_patches_whose_letter_differs_or_is_missing() {
        let plain = row("plain", &[("a.json", "sFC"), ("b.json", "FF")]);
        let mut same = row("default", &[("a.json", "sFC"), ("b.json", "FF")]);
        same.compare(&plain);
        assert_eq!(same.disagreements, Some(0));
        let mut other = row("default", &[("a.json", "FFC")]);
        other.compare(&plain);
        assert_eq!(
            other.disagreements,
            Some(3),
            "one letter, and b.json's two patches"
        );
        assert_eq!(other.patches_per_hour(), 3.0 * 1800.0);
        assert_eq!(other.core_seconds_per_patch(), 1.0);
    }

    #[test]
    fn every_technique_has_options() {
        for t in TECHNIQUES {
            assert!(options(t, 2).is_some(), "{t}");
        }
        assert!(options("fast", 2).is_none());
    }
}
