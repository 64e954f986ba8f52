//! Test execution: trigger tests first, then the rest in baseline order; tests outer,
//! patches inner, a patch stops at its first failing test (confirmed by a rerun when the test
//! passed on the unpatched program); tree-eligible patches share rounds.

pub mod rerun;
pub mod select;
pub mod share;

use crate::model::{Outcome, Phase, TestResult, TestRun, Verdict};
use crate::pool::protocol::Request;
use crate::pool::{PoolError, Worker};
use crate::protocol;
use crate::workdir::{State, TestRecord};
use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

/// How a set's tests are run for its patches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    /// What the verdicts are reached by (`Execute`: woven patches; `Fallback`: one patch
    /// compiled on its own, selected without a stub).
    pub phase: Phase,
    /// Every patch runs every test (`run --matrix`), instead of stopping at its first failure;
    /// the verdict is still the first failure in the order.
    pub matrix: bool,
    /// A helper's chunk of the tests (`share::execute_shared`): any outcome but a pass is run
    /// again on the set's own worker over the rest of the order, which decides it, so nothing
    /// found here is confirmed ([`confirm_failures`]).
    pub provisional: bool,
}

/// Tests in the order they are run against every patch: the tests failing on the unpatched program
/// first (they decide most patches), then the rest in the baseline's own order. Not by duration:
/// a test's baseline time includes whatever JVM-wide warm-up (locale data, JIT) the tests before
/// it left behind, so its timeout only holds when the tests before it are the same. Sorting
/// commons-lang3's tests by time moved a 76 ms test ahead of the 7 s test that loads every
/// locale's data, and the fix timed out in both techniques.
pub fn ordered_tests(state: &State) -> Vec<TestRecord> {
    let mut tests = state.tests.clone();
    tests.sort_by_key(|t| t.passed);
    tests
}

/// What the execution of a patch set's tests cost and found.
#[derive(Debug, Default, Clone)]
pub struct Telemetry {
    /// Test executions (sequential rounds plus tree rounds).
    pub rounds: u64,
    pub tree_rounds: u64,
    /// Per test that used a tree: (test, rounds, test-equivalence classes found).
    pub trees: Vec<(String, u64, usize)>,
    /// Why a test's tree was abandoned for sequential rounds.
    pub fallbacks: Vec<String>,
    /// Failures that did not repeat when the test ran once more for the same patch.
    pub flaky: Vec<String>,
    /// Patch captures at the location over all trees (the cost of deduplication).
    pub captures: u64,
    /// Timeouts that did not repeat when the test ran again with a budget for the current load.
    pub slow: Vec<String>,
    /// Timeouts that did repeat (they count), with the budget of the rerun.
    pub timeouts: Vec<String>,
    /// Requests outside tree rounds (sequential rounds, confirmations, timings of the unpatched
    /// program) stopped at their time limit; each restarted the worker.
    pub sequential_timeouts: u64,
    /// Timeouts confirmed in a plain JVM ([`rerun::confirm_plainly`]).
    pub plain_confirmations: u64,
    /// Requests the worker failed for reasons of its own (it died, broke the protocol, a native
    /// panicked), each retried once in a fresh worker, with what the retry gave.
    pub faults: Vec<String>,
    /// Chunks of the tests that idle workers ran for this set ([`share`]).
    pub chunks_by_helpers: u64,
    /// Patches that failed in a chunk and ran the rest of the order again on one worker.
    pub redone: u64,
}

impl Telemetry {
    /// Adds what another execution (a chunk of the same set's tests) cost and found.
    pub fn absorb(&mut self, other: Telemetry) {
        self.rounds += other.rounds;
        self.tree_rounds += other.tree_rounds;
        self.trees.extend(other.trees);
        self.fallbacks.extend(other.fallbacks);
        self.flaky.extend(other.flaky);
        self.captures += other.captures;
        self.slow.extend(other.slow);
        self.timeouts.extend(other.timeouts);
        self.sequential_timeouts += other.sequential_timeouts;
        self.plain_confirmations += other.plain_confirmations;
        self.faults.extend(other.faults);
        self.chunks_by_helpers += other.chunks_by_helpers;
        self.redone += other.redone;
    }
}

/// How long capturing may take over all rounds of one test's tree: half of what running its
/// patches one by one would take (past that the tree cannot pay off), at least 200 ms, and at
/// most a third of the test's timeout (so a hot location gives up the tree long before the round
/// could time out).
fn capture_budget(test: &TestRecord, patches: usize) -> Duration {
    let half_sequential = patches as f64 * test.millis / 2.0;
    let ms = half_sequential.clamp(200.0, (test.timeout_ms as f64 / 3.0).max(200.0));
    Duration::from_millis(ms as u64)
}

/// One sequential round: `patch` selected at the location (`protocol::select::NONE`: an overlay
/// without a stub), with
/// its wall time. A worker that dies or fails on its own during it is restarted and the round
/// retried once ([`rerun::run_test`]).
fn run_one(
    worker: &mut Worker,
    classpath: &[String],
    test: &TestRecord,
    patch: i32,
    telemetry: &mut Telemetry,
) -> (TestResult, Duration) {
    let timeout = Duration::from_millis(test.timeout_ms);
    let t = Instant::now();
    let r = rerun::run_test(worker, classpath, test, patch, timeout, telemetry);
    (r, t.elapsed())
}

/// What selects `p` at the location: its number, or `protocol::select::NONE` for an overlay without a stub (a patch
/// validated on its own, `Phase::Fallback`).
fn selector(phase: Phase, p: usize) -> i32 {
    if phase == Phase::Fallback {
        protocol::select::NONE
    } else {
        p as i32
    }
}

/// Whether a `T` of this mode is decided again on its own, so that confirming it first is waste:
/// woven code's timeouts are (`technique::schemata`, the plainly patched file without the stub),
/// but not under `--matrix`, where a timeout after the first failure stays in the patch's runs.
pub fn timeout_decided_later(mode: Mode) -> bool {
    mode.phase == Phase::Execute && !mode.matrix
}

/// One execution of a test, the patches it decided (a tree round decides a whole class) and its
/// wall time.
type Decided = (Vec<usize>, TestResult, Duration);

/// Confirms what an execution of `test` found before it counts, as in the plain technique.
///
/// A timeout (of any test) runs the test again for the first patch the execution decided, alone,
/// with a budget for the machine's current load ([`rerun::measure`]: the unpatched program runs
/// the test first, warming the restarted JVM and timing the test now, and the CPU contention is
/// sampled). When it times out again the timeout counts for every patch of the execution; else
/// the first timeout was the machine's (`extra.slow`), the rerun's result stands for the first
/// patch, and the execution's other patches (a tree class, which was cut short) get rounds of their
/// own, confirmed the same way. Not for one patch's own round of woven code outside `--matrix`
/// ([`timeout_decided_later`]): its `T` is decided again with the plainly patched file, whose
/// timeout is confirmed there; confirming it here too cost up to four times the test's timeout
/// more per looping patch on a busy machine, and could only have sent the patch on all the same.
/// The timeout of a patch's own compile (`Phase::Fallback`), which is the one that becomes its
/// `T`, is confirmed by plain validation's own procedure instead ([`rerun::confirm_plainly`]):
/// near the timeout, two procedures' budgets decide a patch differently. So is its failure by a
/// stack overflow, caught or not (near the stack's end, frames decide), or by a class that could
/// not be initialised (its initialiser may have failed in an earlier run in this JVM):
/// [`rules::result_jvm_bound`](crate::rules::result_jvm_bound).
///
/// A test that passed on the unpatched program and fails in an execution runs once more, for the
/// first patch that execution decided: when it passes then, the test is flaky for that patch (an
/// unseeded random sample, a wall-clock bound) and the failure does not count against it; the
/// execution's other patches (a tree class) get rounds of their own, since a failure that only
/// a tree round shows may come from the merge itself. Once a
/// failure has repeated, an identical failure in another execution is taken as real without a
/// rerun. A failure by the test's own clock (`rules::own_timeout`: a socket's read timeout, a
/// JUnit timeout) that repeated is checked against the unpatched program
/// ([`rerun::check_own_timeout`]): it is flaky when the patch passes on a later attempt, stands
/// when the unpatched program passes on every attempt, and is the machine's load (`extra.slow`,
/// not held against the patch) otherwise; it is never taken as real without that check.
/// A JVM crash is not rerun here: [`run_one`] already retried it. Nothing is confirmed in a
/// helper's chunk ([`Mode::provisional`]): the set's own worker runs the rest of the order again
/// for every patch the chunk did not pass, and confirms what it finds there; a confirmation in
/// the chunk (a timeout's costs most: the test's budget for the load, in a plain JVM for a patch
/// compiled on its own) could only have spared that redo when the failure did not repeat.
///
/// `classpath` is a round's (`WorkDir::test_classpath`): without its overlay, the unpatched
/// program's.
fn confirm_failures(
    worker: &mut Worker,
    classpath: &[String],
    test: &TestRecord,
    mode: Mode,
    results: Vec<Decided>,
    telemetry: &mut Telemetry,
) -> Vec<Decided> {
    if mode.provisional {
        return results;
    }
    let phase = mode.phase;
    let mut repeated: Vec<TestResult> = Vec::new();
    let mut confirmed = Vec::with_capacity(results.len());
    // Measured at the first timeout of this test, then shared by its other timeouts.
    let mut budget = None;
    let mut todo: VecDeque<Decided> = results.into();
    while let Some((patches, result, took)) = todo.pop_front() {
        let Some(&first) = patches.first() else {
            confirmed.push((patches, result, took));
            continue;
        };
        if result == TestResult::Timeout && patches.len() == 1 && timeout_decided_later(mode) {
            confirmed.push((patches, result, took));
            continue;
        }
        if (result == TestResult::Timeout || crate::rules::result_jvm_bound(&result).is_some())
            && phase == Phase::Fallback
            && patches.len() == 1
        {
            match rerun::confirm_plainly(worker, classpath, test, telemetry) {
                Some(Ok(p)) => {
                    let tag = |n: String| format!("{n} (patches {patches:?})");
                    telemetry.timeouts.extend(p.timeouts.into_iter().map(tag));
                    telemetry.slow.extend(p.slow.into_iter().map(tag));
                    telemetry.flaky.extend(p.flaky.into_iter().map(tag));
                    if p.result.passed() {
                        // The first timeout was the machine's, the overflow the worker's frames':
                        // the pass stands for the patch.
                        if result != TestResult::Timeout {
                            let note = format!(
                                "{}: {} in the worker, passed in plain's JVM (patches {patches:?})",
                                test.id,
                                result.describe()
                            );
                            telemetry.flaky.push(note);
                        }
                        todo.push_front((patches, p.result, p.took));
                    } else {
                        // A timeout that repeated, or a failure that plain validation's JVM
                        // already confirmed as it confirms one.
                        if !crate::rules::own_timeout(&p.result) && p.result != TestResult::Timeout
                        {
                            repeated.push(p.result.clone());
                        }
                        confirmed.push((patches, p.result, p.took));
                    }
                    continue;
                }
                Some(Err(why)) => {
                    tracing::warn!("{why}");
                    confirmed.push((patches, TestResult::Error(why.to_string()), took));
                    continue;
                }
                // No answer from a plain JVM: the worker confirms the timeout itself.
                None => {}
            }
        }
        if result == TestResult::Timeout {
            let unpatched = crate::workdir::without_overlay(classpath);
            let measured =
                budget.get_or_insert_with(|| rerun::measure(worker, &unpatched, test, telemetry));
            let b = match measured {
                Ok(b) => *b,
                Err(why) => {
                    tracing::warn!("{why}");
                    confirmed.push((patches, TestResult::Error(why.to_string()), took));
                    continue;
                }
            };
            telemetry.rounds += 1;
            let t = Instant::now();
            let again = rerun::run_test(
                worker,
                classpath,
                test,
                selector(phase, first),
                b.allowed,
                telemetry,
            );
            let took_again = t.elapsed();
            if again == TestResult::Timeout {
                let note =
                    crate::rules::load::confirmed_note(&test.id.to_string(), test.timeout_ms, &b);
                telemetry
                    .timeouts
                    .push(format!("{note} (patches {patches:?})"));
                confirmed.push((patches, result, took_again));
                continue;
            }
            let then = if again.passed() {
                "passed".to_string()
            } else {
                format!("ended `{}`", again.describe())
            };
            let note =
                crate::rules::load::slow_note(&test.id.to_string(), test.timeout_ms, &b, &then);
            telemetry.slow.push(format!("{note} (patches {patches:?})"));
            todo.push_front((vec![first], again, took_again));
            for &p in &patches[1..] {
                telemetry.rounds += 1;
                let (r, took) = run_one(worker, classpath, test, selector(phase, p), telemetry);
                todo.push_back((vec![p], r, took));
            }
            continue;
        }
        let rerun = test.passed
            && matches!(&result, TestResult::Fail { exception, .. } if exception != "JVM exit")
            && !repeated.contains(&result);
        if !rerun {
            confirmed.push((patches, result, took));
            continue;
        }
        telemetry.rounds += 1;
        let (mut again, mut took_again) =
            run_one(worker, classpath, test, selector(phase, first), telemetry);
        let own_timeout = crate::rules::own_timeout(&result) && crate::rules::own_timeout(&again);
        // A failure by the test's own clock that the unpatched program shares is the load's.
        let mut loaded = false;
        if own_timeout {
            let selected = selector(phase, first);
            match rerun::check_own_timeout(worker, classpath, test, selected, telemetry) {
                rerun::OwnTimeout::Stands => {}
                rerun::OwnTimeout::Passed(r, took) => (again, took_again) = (r, took),
                rerun::OwnTimeout::Load => {
                    loaded = true;
                    again = TestResult::Pass;
                }
            }
        }
        if again.passed() {
            let id = test.id.to_string();
            if loaded {
                let note = crate::rules::loaded_note(&id, &result);
                telemetry
                    .slow
                    .push(format!("{note} (patch {first} of {patches:?})"));
            } else {
                let note = crate::rules::flaky_note(&id, &result);
                telemetry
                    .flaky
                    .push(format!("{note} (patch {first} of {patches:?})"));
            }
            confirmed.push((vec![first], again, took_again));
            // A failure of a tree round that does not repeat for the representative alone is as
            // much evidence against the merge (capturing the others changed something) as of a
            // flaky test: the class's other patches get rounds of their own, confirmed alike.
            for &p in &patches[1..] {
                telemetry.rounds += 1;
                let (r, took) = run_one(worker, classpath, test, selector(phase, p), telemetry);
                todo.push_back((vec![p], r, took));
            }
        } else {
            // The load that made a failure by the test's own clock can pass: each such failure
            // is checked for itself.
            if !own_timeout {
                repeated.push(result.clone());
            }
            confirmed.push((patches, result, took));
        }
    }
    confirmed
}

/// How a tree ended, which decides whether its undecided patches take another tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TreeEnd {
    /// Finished, or ended in a way that leaves the undecided patches to single rounds.
    Done,
    /// A round timed out and was charged to the class it followed (see `confirm_failures`).
    Attributed,
    /// The worker died or broke the protocol ([`rerun::retry_tree`]): worth one more tree.
    Faulted,
}

/// Runs one test over the tree of `patches`; returns the rounds' results with the patches each
/// decided, the undecided patches, and how the tree ended.
fn run_tree(
    worker: &mut Worker,
    classpath: &[String],
    test: &TestRecord,
    patches: &[usize],
    telemetry: &mut Telemetry,
) -> (Vec<Decided>, Vec<usize>, TreeEnd) {
    let req = Request::RunTree {
        classpath: classpath.to_vec(),
        test: test.id.clone(),
        patches: patches.iter().map(|&p| p as u32).collect(),
        capture_budget_ms: capture_budget(test, patches.len()).as_millis() as u64,
        warm: test.warm,
    };
    let ids = |line: Option<&String>| -> Vec<usize> {
        line.map(String::as_str)
            .unwrap_or("")
            .split(',')
            .filter_map(|s| s.parse().ok())
            .collect()
    };
    let mut decided: Vec<Decided> = Vec::new();
    let mut rounds = 0u64;
    // The class the current round follows (PATH), empty before its first decision.
    let mut following: Vec<usize> = Vec::new();
    // When the current round began (the end of the one before).
    let mut round_began = Instant::now();
    let done = worker.call_streaming(&req, Some(Duration::from_millis(test.timeout_ms)), |r| {
        if r.lines.first().map(String::as_str) == Some(protocol::tree::PATH) {
            following = ids(r.lines.get(1));
            return false;
        }
        rounds += 1;
        following.clear();
        let result = TestResult::parse_agent_line(r.lines.get(1).map(String::as_str).unwrap_or(""));
        // The worker's own measure of the round; the parent's, should it lack one.
        let took = match r.micros {
            0 => round_began.elapsed(),
            us => Duration::from_micros(us),
        };
        decided.push((ids(r.lines.get(2)), result, took));
        round_began = Instant::now();
        true
    });
    telemetry.rounds += rounds;
    telemetry.tree_rounds += rounds;
    let mut end = TreeEnd::Done;
    match done {
        Ok(resp) => {
            telemetry.captures += resp.lines.get(4).and_then(|c| c.parse().ok()).unwrap_or(0);
            let unstable = resp.lines.get(3).cloned().unwrap_or_default();
            if unstable.is_empty() {
                let classes = resp.lines.get(2).and_then(|c| c.parse().ok()).unwrap_or(0);
                telemetry.trees.push((test.id.to_string(), rounds, classes));
            } else {
                telemetry.fallbacks.push(format!("{}: {unstable}", test.id));
            }
        }
        // A round that hangs after its last decision may hang for every patch of the class it
        // was following (they changed the state alike at every visit of the location on the way),
        // or only because capturing (or the machine) made it slow. It is handed on as the
        // class's timeout, and `confirm_failures` runs the representative alone with a budget for
        // the current load: when that run times out too, so do the others (their own runs are
        // that run, by the determinism every tree round relies on); otherwise its result is its
        // own and the rest of the class gets rounds of its own.
        Err(PoolError::Timeout(t)) if !following.is_empty() => {
            telemetry.rounds += 1;
            telemetry.tree_rounds += 1;
            telemetry.fallbacks.push(format!(
                "{}: a round timed out after {} ms following patches {following:?}",
                test.id,
                t.as_millis()
            ));
            decided.push((
                following.clone(),
                TestResult::Timeout,
                round_began.elapsed(),
            ));
            end = TreeEnd::Attributed;
        }
        Err(e) => {
            if rerun::retry_tree(&e) {
                end = TreeEnd::Faulted;
            }
            telemetry.fallbacks.push(format!("{}: {e}", test.id));
        }
    }
    let undecided = patches
        .iter()
        .copied()
        .filter(|p| !decided.iter().any(|(d, _, _)| d.contains(p)))
        .collect();
    (decided, undecided, end)
}

/// Runs the ordered tests against `patches` (tests outer, patches inner), each patch until its
/// first failing test (every test with `mode.matrix`). Patches in `tree` share rounds through
/// the state-transition tree; the rest, and any a tree could not decide, get one round each.
/// `classpath` is a round's (`WorkDir::test_classpath`); timeouts are confirmed on it, and on it
/// without the overlay (the unpatched program). Each outcome lists its runs.
pub fn execute(
    worker: &mut Worker,
    classpath: &[String],
    tests: &[TestRecord],
    patches: &[usize],
    tree: &[usize],
    mode: Mode,
) -> (BTreeMap<usize, Outcome>, Telemetry) {
    let phase = mode.phase;
    let mut outcomes: BTreeMap<usize, Outcome> = BTreeMap::new();
    let mut runs: BTreeMap<usize, Vec<TestRun>> = BTreeMap::new();
    let mut telemetry = Telemetry::default();
    let mut alive: Vec<usize> = patches.to_vec();
    for test in tests {
        if alive.is_empty() {
            break;
        }
        let (in_tree, mut sequential): (Vec<usize>, Vec<usize>) =
            alive.iter().partition(|p| tree.contains(p));
        let mut results = Vec::new();
        let mut in_tree = in_tree;
        // After a timeout attributed to a class, the rest of the tree's patches take a new tree
        // (in the restarted worker), and so they do once after a worker fault; any other end
        // leaves the undecided ones to single rounds.
        let mut faults = 0;
        while in_tree.len() >= 2 {
            let (decided, undecided, end) =
                run_tree(worker, classpath, test, &in_tree, &mut telemetry);
            results.extend(decided);
            in_tree = undecided;
            match end {
                TreeEnd::Attributed => {}
                TreeEnd::Faulted if faults == 0 => faults += 1,
                _ => break,
            }
        }
        sequential.extend(in_tree);
        sequential.sort();
        for p in sequential {
            telemetry.rounds += 1;
            let (result, took) =
                run_one(worker, classpath, test, selector(phase, p), &mut telemetry);
            results.push((vec![p], result, took));
        }
        let results = confirm_failures(worker, classpath, test, mode, results, &mut telemetry);
        for (decided, result, took) in results {
            let failed = crate::rules::failure(&result, test, phase);
            let mut run = TestRun::new(
                test.id.to_string(),
                took,
                decided.len(),
                failed.as_ref().and_then(|o| o.detail.clone()),
            );
            if decided.len() > 1 {
                run = run.alike(decided.iter().copied().min().unwrap_or_default());
            }
            for p in decided {
                runs.entry(p).or_default().push(run.clone());
                if let Some(outcome) = &failed {
                    outcomes.entry(p).or_insert_with(|| outcome.clone());
                    if !mode.matrix {
                        alive.retain(|a| *a != p);
                    }
                }
            }
        }
        crate::progress::test_done(test.millis);
    }
    for &p in patches {
        let o = outcomes
            .entry(p)
            .or_insert_with(|| Outcome::new(Verdict::Plausible, phase));
        o.runs = runs.remove(&p).unwrap_or_default();
    }
    (outcomes, telemetry)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TestId;

    fn rec(name: &str, passed: bool, millis: f64) -> TestRecord {
        TestRecord {
            warm: false,
            id: TestId::parse(&format!("T#{name}")).unwrap(),
            passed,
            millis,
            timeout_ms: 5000,
            failure: None,
        }
    }

    #[test]
    fn triggers_first_then_baseline_order() {
        let state = State {
            project: crate::project::Project {
                root: "/".into(),
                source_dirs: vec![],
                test_dirs: vec![],
                resource_dirs: vec![],
                test_resource_dirs: vec![],
                classpath: vec![],
                release: "8".into(),
                encoding: "UTF-8".into(),
                jvm_options: vec![],
                exclude_tests: vec![],
                exclude_test_sources: vec![],
                exclude_sources: vec![],
                test_fileset: None,
            },
            tools: crate::toolchain::Toolchain {
                java_home: "/".into(),
                junit: vec![],
            },
            tests: vec![
                rec("slow", true, 9.0),
                rec("trig", false, 50.0),
                rec("fast", true, 1.0),
            ],
            excluded: vec![],
            purity: Default::default(),
            init_seconds: 0.0,
        };
        let names: Vec<String> = ordered_tests(&state)
            .iter()
            .map(|t| t.id.method.clone())
            .collect();
        assert_eq!(names, ["trig", "slow", "fast"]);
    }
}
