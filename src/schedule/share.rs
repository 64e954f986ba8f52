//! Parallelism within a patch set: a worker with no set of its own helps the others by running
//! a contiguous part of a set's remaining tests against the patches still alive (a `Board` of
//! posted chunks); the owner merges the chunks so that every patch keeps the first failing test in
//! the set's order, exactly as one worker running every test in turn would find it.

use super::{execute, Mode, Telemetry};
use crate::model::{Outcome, Verdict};
use crate::pool::Worker;
use crate::workdir::TestRecord;
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex};

/// By default, a chunk smaller than this (by the tests' baseline times) is not worth a helper.
pub const MIN_CHUNK_MS: f64 = 1000.0;

/// At most this many chunks per worker taking part.
const CHUNKS_PER_WORKER: usize = 8;

/// What `execute` returns.
pub type Executed = (BTreeMap<usize, Outcome>, Telemetry);

/// Why a helper could not run a chunk (the set's own worker runs it instead).
#[derive(Debug, Clone, thiserror::Error)]
pub enum HelpError {
    #[error(transparent)]
    NoWorker(#[from] crate::pool::spawn::NoWorker),
    #[error("this technique does not run other sets' tests")]
    Unsupported,
}

/// One chunk of a set's tests, posted for a helper.
pub struct Job {
    pub classpath: Vec<String>,
    pub tests: Vec<TestRecord>,
    pub patches: Vec<usize>,
    pub tree: Vec<usize>,
    pub mode: Mode,
    /// The helper's result, or why it could not run the chunk (its worker would not start).
    finished: Mutex<Option<Box<Result<Executed, HelpError>>>>,
    done: Condvar,
}

impl Job {
    /// Runs the chunk in `worker`.
    pub fn run(&self, worker: &mut Worker) -> Executed {
        let t = std::time::Instant::now();
        let done = execute(
            worker,
            &self.classpath,
            &self.tests,
            &self.patches,
            &self.tree,
            self.mode,
        );
        tracing::debug!(
            "chunk of {} tests from {} ran in {:.1} s",
            self.tests.len(),
            self.tests
                .first()
                .map(|t| t.id.to_string())
                .unwrap_or_default(),
            t.elapsed().as_secs_f64()
        );
        done
    }

    /// Hands back what a helper made of the chunk.
    pub fn finish(&self, result: Result<Executed, HelpError>) {
        *self.finished.lock().expect("job lock") = Some(Box::new(result));
        self.done.notify_all();
    }
}

/// What an idle worker thread takes from the board.
pub enum Work<S> {
    /// A set of its own to validate.
    Set(S),
    /// A chunk of another set's tests.
    Chunk(Arc<Job>),
    /// The board is closed and empty: the thread ends.
    Closed,
}

struct BoardState<S> {
    /// Threads waiting for work.
    idle: usize,
    /// Queued sets with the group (submission) each belongs to.
    sets: VecDeque<(usize, S)>,
    /// The group of the set taken last: the next set comes from the next group (round robin),
    /// so a large submission does not hold back a small one queued after it.
    last_group: Option<usize>,
    jobs: VecDeque<Arc<Job>>,
    closed: bool,
}

/// Where patch sets wait for a worker thread, owners of sets post chunks of their tests, and idle
/// threads take either (a set first).
pub struct Board<S> {
    state: Mutex<BoardState<S>>,
    wake: Condvar,
    /// Least baseline time of a chunk (0: chunks of single tests are fine).
    min_chunk_ms: f64,
}

/// What `execute_shared` asks of the board: how many helpers wait, posting and reclaiming chunks.
pub trait Helpers: Sync {
    /// Helpers idle now, less the chunks already waiting for one.
    fn idle(&self) -> usize;
    /// How many chunks of at least the least chunk time `total_ms` makes (no limit for 0).
    fn chunks_in(&self, total_ms: f64) -> usize;
    fn post(&self, job: Arc<Job>);
    /// Takes a posted chunk back when no helper has taken it yet (the owner runs it itself).
    fn reclaim(&self, job: &Arc<Job>) -> bool;
}

impl<S> Board<S> {
    pub fn new(min_chunk_ms: f64) -> Board<S> {
        Board {
            state: Mutex::new(BoardState {
                idle: 0,
                sets: VecDeque::new(),
                last_group: None,
                jobs: VecDeque::new(),
                closed: false,
            }),
            wake: Condvar::new(),
            min_chunk_ms,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BoardState<S>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues a set of `group` (its submission) for the next idle thread.
    pub fn push_set(&self, group: usize, set: S) {
        self.lock().sets.push_back((group, set));
        self.wake.notify_all();
    }

    /// Takes back the queued sets `drop` says to (a cancelled submission's).
    pub fn drain_sets(&self, mut drop: impl FnMut(&S) -> bool) -> Vec<S> {
        let mut st = self.lock();
        let mut out = Vec::new();
        let mut keep = VecDeque::new();
        for (group, s) in st.sets.drain(..) {
            if drop(&s) {
                out.push(s);
            } else {
                keep.push_back((group, s));
            }
        }
        st.sets = keep;
        out
    }

    /// Sets queued now.
    pub fn queued(&self) -> usize {
        self.lock().sets.len()
    }

    /// No set will come any more: threads end once the queue is empty.
    pub fn close(&self) {
        self.lock().closed = true;
        self.wake.notify_all();
    }

    /// Waits for work: a queued set, else a posted chunk, else (closed) the end.
    pub fn take(&self) -> Work<S> {
        let mut st = self.lock();
        st.idle += 1;
        self.wake.notify_all();
        loop {
            if let Some(k) = next_set(&st.sets, st.last_group) {
                let (group, set) = st.sets.remove(k).expect("a queued set");
                st.last_group = Some(group);
                st.idle -= 1;
                return Work::Set(set);
            }
            if let Some(job) = st.jobs.pop_front() {
                st.idle -= 1;
                return Work::Chunk(job);
            }
            if st.closed {
                st.idle -= 1;
                return Work::Closed;
            }
            st = self.wake.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Which queued set goes next: the first of the next group after `last` in group order
/// (wrapping round), so submissions take turns; within a group, in the order queued.
fn next_set<S>(sets: &VecDeque<(usize, S)>, last: Option<usize>) -> Option<usize> {
    let after = |g: usize| last.is_none_or(|l| g > l);
    let pick = |want: &dyn Fn(usize) -> bool| {
        sets.iter()
            .enumerate()
            .filter(|(_, (g, _))| want(*g))
            .min_by_key(|(k, (g, _))| (*g, *k))
            .map(|(k, _)| k)
    };
    pick(&after).or_else(|| pick(&|_| true))
}

impl<S: Send> Helpers for Board<S> {
    fn idle(&self) -> usize {
        let st = self.lock();
        st.idle.saturating_sub(st.jobs.len())
    }

    fn chunks_in(&self, total_ms: f64) -> usize {
        if self.min_chunk_ms <= 0.0 {
            usize::MAX
        } else {
            (total_ms / self.min_chunk_ms) as usize
        }
    }

    fn post(&self, job: Arc<Job>) {
        self.lock().jobs.push_back(job);
        self.wake.notify_all();
    }

    fn reclaim(&self, job: &Arc<Job>) -> bool {
        let mut st = self.lock();
        let before = st.jobs.len();
        st.jobs.retain(|j| !Arc::ptr_eq(j, job));
        st.jobs.len() < before
    }
}

/// `execute` with the set's tests spread over idle helpers: the head of the order (the trigger
/// tests, then a tenth of the others, which decide most failing patches) runs here; what is left
/// for the patches still alive is cut into contiguous chunks of about equal baseline time,
/// several per worker, which this worker and the idle helpers take in order. A patch that
/// passes every chunk passed every test, each in the isolation every technique gives (a fresh or
/// reset loader, JVM-wide state restored): it is plausible. A patch that fails in some chunk
/// runs the rest of the order again on this worker, alone and in order, which gives the verdict
/// one worker gives (the chunk's JVM had not run the tests before it).
pub fn execute_shared(
    worker: &mut Worker,
    board: Option<&dyn Helpers>,
    classpath: &[String],
    tests: &[TestRecord],
    patches: &[usize],
    tree: &[usize],
    mode: Mode,
) -> Executed {
    // A matrix runs every test for every patch: nothing would be left to share out.
    let Some(board) = board.filter(|_| !mode.matrix) else {
        return execute(worker, classpath, tests, patches, tree, mode);
    };
    let triggers = tests.iter().take_while(|t| !t.passed).count();
    let mut head_len = (triggers + (tests.len() - triggers).div_ceil(10)).min(tests.len());
    // The head ends at a class boundary, as every chunk does (see contiguous_chunks).
    while head_len > 0
        && head_len < tests.len()
        && tests[head_len].id.class == tests[head_len - 1].id.class
    {
        head_len += 1;
    }
    let (head, rest) = tests.split_at(head_len);
    let (mut outcomes, mut telemetry) = execute(worker, classpath, head, patches, tree, mode);
    let alive: Vec<usize> = outcomes
        .iter()
        .filter(|(_, o)| o.verdict == Verdict::Plausible)
        .map(|(&p, _)| p)
        .collect();
    if alive.is_empty() || rest.is_empty() {
        return (outcomes, telemetry);
    }
    let total: f64 = rest.iter().map(|t| t.millis).sum();
    let helpers = board.idle().min(board.chunks_in(total));
    if helpers == 0 {
        let (rest_outcomes, t) = execute(worker, classpath, rest, &alive, tree, mode);
        telemetry.absorb(t);
        continue_with(&mut outcomes, rest_outcomes);
        return (outcomes, telemetry);
    }
    // Several chunks per worker, taken in order by whoever is free: a test's baseline time (in a
    // fresh loader) says little of its time in a warm one, so equal shares would not end together.
    let pieces = board
        .chunks_in(total)
        .clamp(helpers + 1, CHUNKS_PER_WORKER * (helpers + 1));
    let tree: Vec<usize> = tree.iter().copied().filter(|p| alive.contains(p)).collect();
    // What a chunk does not pass is run again below, which decides it: nothing to confirm there.
    let chunk_mode = Mode {
        provisional: true,
        ..mode
    };
    let jobs: Vec<Arc<Job>> = contiguous_chunks(rest, pieces)
        .into_iter()
        .map(|c| {
            Arc::new(Job {
                classpath: classpath.to_vec(),
                tests: c.to_vec(),
                patches: alive.clone(),
                tree: tree.clone(),
                mode: chunk_mode,
                finished: Mutex::new(None),
                done: Condvar::new(),
            })
        })
        .collect();
    for job in &jobs {
        board.post(job.clone());
    }
    tracing::info!(
        "{} tests for {} patch(es) in {} chunks, {} helper(s)",
        rest.len(),
        alive.len(),
        jobs.len(),
        helpers
    );
    let mut parts: Vec<Option<Executed>> = jobs
        .iter()
        .map(|job| board.reclaim(job).then(|| job.run(worker)))
        .collect();
    for (part, job) in parts.iter_mut().zip(&jobs) {
        if part.is_none() {
            *part = Some(match wait(job) {
                Ok(mut done) => {
                    done.1.chunks_by_helpers += 1;
                    done
                }
                Err(why) => {
                    tracing::warn!("a helper could not run its chunk ({why}); running it here");
                    job.run(worker)
                }
            });
        }
    }
    // A patch is plausible when every chunk passed it. Any other patch runs the rest of the
    // order again here, alone and in order: a chunk starts in a JVM that has not run the tests
    // before it, so a failure or timeout found there may be the JVM's history (commons-lang3: a
    // 114 ms test after a 15 s test that loads every locale's data times out as a chunk's first
    // test), and the verdict must be the one the whole order gives. So the chunks confirm
    // nothing (`Mode::provisional`): a looping patch paid its timeout's confirmation twice, once
    // in the chunk and once here.
    let mut redo = Vec::new();
    let parts: Vec<BTreeMap<usize, Outcome>> = parts
        .into_iter()
        .flatten()
        .map(|(part, t)| {
            telemetry.absorb(t);
            part
        })
        .collect();
    for part in &parts {
        for &p in &alive {
            if part
                .get(&p)
                .is_some_and(|o| o.verdict != Verdict::Plausible)
                && !redo.contains(&p)
            {
                redo.push(p);
            }
        }
    }
    // A plausible patch's runs: the head's, then each chunk's in order.
    for part in parts {
        for (p, o) in part {
            if !redo.contains(&p) {
                if let Some(mine) = outcomes.get_mut(&p) {
                    mine.runs.extend(o.runs);
                }
            }
        }
    }
    if !redo.is_empty() {
        redo.sort();
        tracing::info!(
            "patch(es) {redo:?} failed in a chunk: their remaining {} tests run again in order on one worker",
            rest.len()
        );
        let tree: Vec<usize> = tree.iter().copied().filter(|p| redo.contains(p)).collect();
        let (again, t) = execute(worker, classpath, rest, &redo, &tree, mode);
        telemetry.absorb(t);
        telemetry.redone += redo.len() as u64;
        continue_with(&mut outcomes, again);
    }
    (outcomes, telemetry)
}

/// Outcomes of the tests after those that decided `outcomes`, for patches that passed those: the
/// later outcome stands, after the runs of the earlier one.
fn continue_with(outcomes: &mut BTreeMap<usize, Outcome>, later: BTreeMap<usize, Outcome>) {
    for (p, mut o) in later {
        if let Some(earlier) = outcomes.remove(&p) {
            let mut runs = earlier.runs;
            runs.append(&mut o.runs);
            o.runs = runs;
        }
        outcomes.insert(p, o);
    }
}

/// Waits until a helper has finished `job`.
fn wait(job: &Job) -> Result<Executed, HelpError> {
    let mut finished = job.finished.lock().expect("job lock");
    loop {
        if let Some(r) = finished.take() {
            return *r;
        }
        finished = job.done.wait(finished).expect("job lock");
    }
}

/// `tests` cut, in order, into at most `n` runs of about equal baseline time, none empty, and
/// only between test classes: a class's tests stay in one JVM in their order, since a test's
/// time may depend on what the tests of its class before it loaded (fewer runs when there are
/// fewer classes, or when a long class covers several shares).
fn contiguous_chunks(tests: &[TestRecord], n: usize) -> Vec<&[TestRecord]> {
    let n = n.max(1);
    let total: f64 = tests.iter().map(|t| t.millis.max(0.1)).sum();
    let mut chunks = Vec::with_capacity(n);
    let mut start = 0;
    let mut acc = 0.0;
    for (i, t) in tests.iter().enumerate() {
        acc += t.millis.max(0.1);
        let wanted = chunks.len() + 1;
        let class_ends = tests
            .get(i + 1)
            .is_some_and(|next| next.id.class != t.id.class);
        // Close a chunk at a class boundary once it holds its share of the total.
        if wanted < n && class_ends && acc >= total * wanted as f64 / n as f64 {
            chunks.push(&tests[start..=i]);
            start = i + 1;
        }
    }
    chunks.push(&tests[start..]);
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TestId;

    fn rec(class: &str, i: usize, millis: f64) -> TestRecord {
        TestRecord {
            warm: false,
            id: TestId::parse(&format!("{class}#t{i}")).unwrap(),
            passed: true,
            millis,
            timeout_ms: 5000,
            failure: None,
        }
    }

    #[test]
    fn chunks_are_contiguous_balanced_and_cover_every_test() {
        let uneven: Vec<TestRecord> = [5.0, 1.0, 1.0, 1.0, 1.0, 1.0, 10.0, 1.0, 1.0]
            .iter()
            .enumerate()
            .map(|(i, &m)| rec(&format!("C{i}"), i, m))
            .collect();
        let even: Vec<TestRecord> = (0..9).map(|i| rec(&format!("C{i}"), i, 2.0)).collect();
        for n in 1..=12 {
            for tests in [&uneven, &even] {
                let chunks = contiguous_chunks(tests, n);
                assert!(!chunks.is_empty() && chunks.len() <= n, "n = {n}");
                assert!(chunks.iter().all(|c| !c.is_empty()), "n = {n}");
                let joined: Vec<&TestRecord> = chunks.iter().flat_map(|c| c.iter()).collect();
                assert_eq!(joined.len(), tests.len());
                assert!(joined.iter().zip(tests.iter()).all(|(a, b)| a.id == b.id));
            }
            assert_eq!(contiguous_chunks(&even, n).len(), n.min(9), "n = {n}");
        }
        let sizes = |n| {
            contiguous_chunks(&uneven, n)
                .iter()
                .map(|c| c.len())
                .collect::<Vec<_>>()
        };
        // 22 ms in all: the 10 ms test ends the first half, and the second of three thirds.
        assert_eq!(sizes(2), [7, 2]);
        assert_eq!(sizes(3), [4, 3, 2]);
    }

    #[test]
    fn a_class_is_never_cut() {
        // commons-lang3: a 15 s test loads every locale's data, the next test of its class then
        // takes 114 ms; cut between them, the second one timed out as a chunk's first test.
        let mut tests = vec![rec("A", 0, 1.0), rec("A", 1, 1.0)];
        tests.push(rec("Fmt", 2, 15_000.0));
        tests.push(rec("Fmt", 3, 114.0));
        tests.push(rec("Fmt", 4, 5.0));
        tests.extend((5..20).map(|i| rec("Z", i, 1000.0)));
        for n in 2..=8 {
            for chunk in contiguous_chunks(&tests, n) {
                let first = &chunk[0];
                let whole = tests
                    .iter()
                    .position(|t| t.id == first.id)
                    .is_some_and(|i| i == 0 || tests[i - 1].id.class != first.id.class);
                assert!(
                    whole,
                    "n = {n}: a chunk starts inside class {}",
                    first.id.class
                );
            }
        }
    }

    #[test]
    fn submissions_take_turns() {
        let board: Board<&str> = Board::new(MIN_CHUNK_MS);
        for s in ["a1", "a2", "a3"] {
            board.push_set(0, s);
        }
        board.push_set(1, "b1");
        board.push_set(2, "c1");
        board.push_set(1, "b2");
        board.close();
        let mut order = Vec::new();
        while let Work::Set(s) = board.take() {
            order.push(s);
        }
        assert_eq!(order, ["a1", "b1", "c1", "a2", "b2", "a3"]);
    }

    #[test]
    fn a_closed_board_hands_out_its_sets_then_lets_its_threads_go() {
        let board: Board<u32> = Board::new(MIN_CHUNK_MS);
        board.push_set(0, 1);
        board.push_set(0, 2);
        board.push_set(0, 3);
        assert_eq!(board.drain_sets(|s| *s == 2), vec![2]);
        let taken = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| loop {
                    match board.take() {
                        Work::Set(n) => taken.lock().unwrap().push(n),
                        Work::Chunk(_) => unreachable!("no chunk was posted"),
                        Work::Closed => break,
                    }
                });
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
            board.close();
        });
        let mut taken = taken.into_inner().unwrap();
        taken.sort();
        assert_eq!(taken, vec![1, 3]);
        assert_eq!(board.idle(), 0);
    }
}
