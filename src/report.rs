//! Results as they arrive: `result.jsonl` (one ExpressAPR-compatible line per patch set, flushed
//! at once), `details.jsonl` (one line per patch), in the run's own directory and appended to the
//! work dir's; a human line per set on stdout.

use crate::model::{succlist, Outcome, Verdict};
use crate::workdir::State;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// Telemetry for one patch set.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Extra {
    pub compile_ms: f64,
    pub run_ms: f64,
    pub total_ms: f64,
    /// javac calls on the schemata (1 when every patch compiles, 2 when some do not).
    pub javac_invocations: u32,
    /// javac calls for patches validated one by one.
    pub fallback_compiles: u32,
    /// JVM starts of the worker that validated this set, since the run began (1 = never restarted).
    pub worker_jvm_starts: u32,
    /// JVM starts caused by this set (fresh JVMs in plain mode, restarts after timeouts otherwise).
    pub jvm_starts: u32,
    /// Test executions (sequential rounds plus tree rounds).
    pub rounds: u64,
    /// Rounds that explored a state-transition tree.
    pub tree_rounds: u64,
    /// Woven patches deduplicated through the tree.
    pub tree_patches: usize,
    /// Tests that ran their patches through a tree, and the classes they found in all.
    pub tree_tests: usize,
    pub classes: usize,
    /// Patch captures at the location over all trees (what deduplication cost).
    pub captures: u64,
    /// Tests whose tree split the patches into several classes: test → [rounds, classes].
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub split_tests: BTreeMap<String, [u64; 2]>,
    /// Why woven patches ran sequentially (reason → count).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub sequential_reasons: BTreeMap<String, usize>,
    /// Tests whose tree was abandoned for sequential rounds, with the reason.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tree_fallbacks: Vec<String>,
    /// Failures of tests that passed on the unpatched program but passed again when run once more
    /// for the same patch: flaky, not held against the patch.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flaky: Vec<String>,
    /// Timeouts that did not repeat when the test ran again, alone, with a budget for the
    /// machine's load at that moment: the machine's, not held against the patch.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub slow: Vec<String>,
    /// Requests outside tree rounds stopped at their time limit (each restarted the worker).
    pub sequential_timeouts: u64,
    /// Timeouts that repeated when the test ran again that way: they count.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub timeouts: Vec<String>,
    /// Test runs the worker (or plain's JVM) failed for reasons of its own, each retried once in a
    /// fresh process, with what the retry gave.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<String>,
    /// Chunks of this set's tests that idle workers ran (schedule::share); 0 when not split.
    #[serde(skip_serializing_if = "is_zero")]
    pub chunks_by_helpers: u64,
    /// Patches that failed in a chunk and ran the rest of the order again on one worker.
    #[serde(skip_serializing_if = "is_zero")]
    pub redone_after_chunks: u64,
    /// Tests this set ran (trigger tests and the passing tests that executed the patched
    /// method at init) and passing tests it left out (schedule::select).
    pub tests_selected: usize,
    pub tests_skipped: usize,
    /// How the manifest's text was matched to the file when they differ in what cannot matter
    /// (line ends, whitespace at the end of the file; `patchset::check_context`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// The location is in a local declaration's initialiser, woven with the declaration split in
    /// place (`weave::split`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub declaration_split: bool,
    /// The location is in an initialiser woven moved into a method of its own
    /// (`weave::hoist::Hoist`): `field`, `static field` or `static block`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hoisted: Option<String>,
    /// Why this set ran every test, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_tests_because: Option<String>,
    /// Patches whose outcome over the selected tests was a timeout or an error, decided again
    /// over every test.
    #[serde(skip_serializing_if = "is_zero")]
    pub redone_over_every_test: u64,
    pub patches: usize,
    pub woven: usize,
    pub fallback: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fallback_reasons: Vec<String>,
    pub terminal_stub: bool,
    pub counts: BTreeMap<char, usize>,
    pub worker: usize,
}

/// The outcome of one patch set.
#[derive(Debug, Clone)]
pub struct SetResult {
    pub patches_path: String,
    /// `schemata`, `fallback` (no patch could be woven), `plain`, or none when the set is unusable.
    pub technique: Option<String>,
    pub outcomes: Vec<Outcome>,
    /// Each patch's name, when its set has names (diffs, edit lists).
    pub names: Vec<String>,
    /// Why the whole set could not be validated.
    pub error: Option<String>,
    pub extra: Extra,
}

impl SetResult {
    pub fn verdicts(&self) -> Vec<Verdict> {
        self.outcomes.iter().map(|o| o.verdict).collect()
    }

    pub fn finish_counts(&mut self) {
        self.extra.counts.clear();
        for o in &self.outcomes {
            *self.extra.counts.entry(o.verdict.letter()).or_default() += 1;
        }
        self.extra.patches = self.outcomes.len();
    }
}

#[derive(Serialize)]
struct ResultLine<'a> {
    patches_path: &'a str,
    technique: Option<&'a str>,
    succlist: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    /// The run that wrote the line (`WORK/runs/<run>/`).
    run: &'a str,
    /// What the result depends on (`records::set_key`), for `run --resume`.
    #[serde(skip_serializing_if = "Option::is_none")]
    key: Option<&'a str>,
    extra: &'a Extra,
}

#[derive(Serialize)]
struct DetailLine<'a> {
    patches_path: &'a str,
    patch: usize,
    /// The patch's name (its diff file, or its name in an edit list).
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(flatten)]
    outcome: &'a Outcome,
}

/// Writes results as they come, to the run's own files and appended to the work dir's
/// `result.jsonl` and `details.jsonl` (every line names its run).
pub struct Reporter {
    run: String,
    /// (results, details) pairs: the run's, then the work dir's.
    files: Vec<(std::fs::File, std::fs::File)>,
}

impl Reporter {
    /// `pairs`: (result file, details file) to append to.
    pub fn open(run: &str, pairs: &[(&Path, &Path)]) -> std::io::Result<Reporter> {
        let open = |p: &Path| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
        };
        let mut files = Vec::new();
        for (r, d) in pairs {
            files.push((open(r)?, open(d)?));
        }
        Ok(Reporter {
            run: run.to_string(),
            files,
        })
    }

    /// Writes and flushes one set's lines: its detail lines first, then its result line, so a
    /// result line always comes after the whole set's details (what `--resume` relies on).
    pub fn write(&mut self, r: &SetResult, key: Option<&str>) -> std::io::Result<()> {
        let mut details = Vec::new();
        for (i, o) in r.outcomes.iter().enumerate() {
            let d = DetailLine {
                patches_path: &r.patches_path,
                patch: i,
                name: r.names.get(i).map(String::as_str),
                outcome: o,
            };
            details.push(serde_json::to_string(&d)?);
        }
        let line = serde_json::to_string(&ResultLine {
            patches_path: &r.patches_path,
            technique: r.technique.as_deref(),
            succlist: succlist(&r.verdicts()),
            error: r.error.as_deref(),
            run: &self.run,
            key,
            extra: &r.extra,
        })?;
        self.append(&details, &line)
    }

    /// Writes a set's lines reused from an earlier run for the set file `path` (same key), marked
    /// with that run (`resumed_from`).
    pub fn write_reused(
        &mut self,
        path: &Path,
        reused: &crate::records::Reusable,
    ) -> std::io::Result<()> {
        let path = path.display().to_string();
        let mut details = Vec::new();
        for d in &reused.details {
            let mut d = d.clone();
            d["patches_path"] = path.clone().into();
            details.push(serde_json::to_string(&d)?);
        }
        let mut line = reused.line.clone();
        line["patches_path"] = path.into();
        line["run"] = self.run.clone().into();
        line["resumed_from"] = reused.run.clone().into();
        self.append(&details, &serde_json::to_string(&line)?)
    }

    fn append(&mut self, details: &[String], line: &str) -> std::io::Result<()> {
        for (results, detail_file) in &mut self.files {
            for d in details {
                writeln!(detail_file, "{d}")?;
            }
            detail_file.flush()?;
            writeln!(results, "{line}")?;
            results.flush()?;
        }
        Ok(())
    }
}

/// The human line for one set, and a line per named patch with its verdict.
pub fn human_line(r: &SetResult) -> String {
    let mut out = set_line(r);
    for (name, o) in r.names.iter().zip(&r.outcomes) {
        out.push_str(&format!("\n  {}  {name}", o.verdict));
        if o.verdict == Verdict::Error {
            if let Some(d) = &o.detail {
                out.push_str(&format!(": {d}"));
            }
        }
    }
    out
}

fn set_line(r: &SetResult) -> String {
    let name = Path::new(&r.patches_path)
        .file_name()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| r.patches_path.clone());
    match &r.error {
        Some(e) => format!("{name}: {} error: {e}", succlist(&r.verdicts())),
        None => format!(
            "{name}: {} ({} patches, {} plausible, {:.2}s, {} rounds, javac x{}{})",
            succlist(&r.verdicts()),
            r.outcomes.len(),
            r.extra.counts.get(&'s').copied().unwrap_or(0),
            r.extra.total_ms / 1000.0,
            r.extra.rounds,
            r.extra.javac_invocations + r.extra.fallback_compiles,
            if r.extra.fallback > 0 {
                format!(", {} validated one by one", r.extra.fallback)
            } else {
                String::new()
            }
        ),
    }
}

/// What `init` prints: a summary on stdout.
pub fn print_init(state: &State) {
    let triggers: Vec<String> = state.trigger_tests().map(|t| t.id.to_string()).collect();
    println!(
        "initialized {}: {} tests ({} failing on the unpatched program), {:.1}s",
        state.project.root.display(),
        state.tests.len(),
        triggers.len(),
        state.init_seconds
    );
    for t in state.trigger_tests() {
        println!(
            "  trigger test {}: {}",
            t.id,
            t.failure.as_deref().unwrap_or("fails")
        );
    }
    for (what, why) in &state.excluded {
        println!("  excluded {what}: {why}");
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
