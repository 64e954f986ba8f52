//! One patch set's result and its telemetry (`extra` in `result.jsonl`, with the confirmation of
//! its plausible patches by plain validation), what every technique
//! returns and every front end reads.

use super::{Outcome, Verdict};
use serde::Serialize;
use std::collections::BTreeMap;

/// Telemetry for one patch set.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Extra {
    pub compile_ms: f64,
    pub run_ms: f64,
    pub total_ms: f64,
    /// javac calls on the schemata (1 when every patch compiles, 2 when some do not).
    pub javac_invocations: u32,
    /// Woven files the set's patches were compiled in: more than 1 when the set was split so
    /// that no generated method or class comes near the JVM's limits (`compile::JVM_LIMITS`).
    #[serde(skip_serializing_if = "is_zero")]
    pub schemata_groups: u64,
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
    /// Plain validation only: verdicts decided by a failure that did not hold when its test ran
    /// again alone in a fresh JVM (`model::Unstable`), one note per patch.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unstable: Vec<String>,
    /// Timeouts that did not repeat when the test ran again, alone, with a budget for the
    /// machine's load at that moment, and failures by a test's own clock that the unpatched
    /// program showed too (`rules::loaded_note`): the machine's, not held against the patch.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub slow: Vec<String>,
    /// Requests outside tree rounds stopped at their time limit (each restarted the worker).
    pub sequential_timeouts: u64,
    /// Timeouts of a patch's own compile confirmed the plain technique's way, each in a fresh
    /// JVM of its own (`schedule::rerun::confirm_plainly`).
    #[serde(skip_serializing_if = "is_zero")]
    pub plain_confirmations: u64,
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
    /// The location is in an initialiser: moved into a method of its own (`weave::hoist::Hoist`:
    /// `field`, `static field`, `static block`, `instance block`), or a block woven in place
    /// (`static block in place`, `instance block in place`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hoisted: Option<String>,
    /// Patches given `C` without a compile: an error javac gives them wherever they stand (a
    /// `return` in an initialiser block), neither woven nor validated one by one.
    #[serde(skip_serializing_if = "is_zero")]
    pub certain_errors: u64,
    /// Patches woven through a value hole (`weave::value`): the one expression they differ in
    /// computed ahead of its statement, so the tree tells them apart by its value.
    #[serde(skip_serializing_if = "is_zero")]
    pub value_holes: u64,
    /// Patches woven on a widened location (`weave::widen`): the statement around a body
    /// without braces, or the rest of a declaration's block, that their own location could not
    /// hold.
    #[serde(skip_serializing_if = "is_zero")]
    pub widened: u64,
    /// Patches whose edits that change no token (a javadoc reworded, lines re-indented, a
    /// comment added away from the code) were left out of the weave, the set's location
    /// narrowed to its patches' token changes (`weave::trivia`); one by one, each is whole.
    #[serde(skip_serializing_if = "is_zero")]
    pub narrowed_to_tokens: u64,
    /// Patches woven with their changes of other methods' bodies than the set's location, each
    /// inline in its method beside the original body (`weave::sites`).
    #[serde(skip_serializing_if = "is_zero")]
    pub other_methods: u64,
    /// Why this set ran every test, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_tests_because: Option<String>,
    /// Patches whose outcome over the selected tests was a timeout or an error, decided again
    /// over every test.
    #[serde(skip_serializing_if = "is_zero")]
    pub redone_over_every_test: u64,
    /// Patches that timed out in the schemata and ran every test at once in their own compile
    /// (a timeout over the selected tests would have been decided again over every test).
    #[serde(skip_serializing_if = "is_zero")]
    pub over_every_test_at_once: u64,
    pub patches: usize,
    pub woven: usize,
    pub fallback: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fallback_reasons: Vec<String>,
    pub terminal_stub: bool,
    pub counts: BTreeMap<char, usize>,
    pub worker: usize,
    /// `run --confirm-plausible`: the plausible patches validated again by plain validation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirmation: Option<Confirmation>,
}

/// What confirming a set's plausible patches did (`extra.confirmation`).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Confirmation {
    /// Plausible patches validated again.
    pub patches: usize,
    /// What plain validation of them took.
    pub seconds: f64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub disagreements: Vec<Disagreement>,
    /// Patches plain validation did not find plausible at first but did when it validated them
    /// again (`rules::instability`): plain's instability, with its verdicts and tests; the
    /// patches stay plausible.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unstable: Vec<String>,
}

/// A patch plausible by the run's technique and not by plain validation.
#[derive(Debug, Clone, Serialize)]
pub struct Disagreement {
    /// The patch's index in its set.
    pub patch: usize,
    /// The technique's verdict (`s`).
    pub technique: char,
    /// Plain validation's verdict.
    pub plain: char,
    /// Plain validation's failing test and detail.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
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

fn is_zero(n: &u64) -> bool {
    *n == 0
}
