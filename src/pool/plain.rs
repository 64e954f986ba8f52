//! One fresh JVM running `PlainMain`, the way plain validation runs a patch's tests: the plain
//! technique's runs, and the confirmation of a timeout of a patch's own compile in a worker, so
//! that both decide a timeout by one procedure (the same fresh JVM, warm-up, budget and clock).

use crate::model::{Outcome, Phase, TestResult, TestRun, Verdict};
use crate::protocol::{class, line, plain};
use crate::rules::clock::{Limit, TestThread};
use crate::rules::load::{confirmed_note, contention, slow_note, Budget};
use crate::rules::{flaky_note, loaded_note};
use crate::workdir::TestRecord;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// What a plain JVM runs: the JDK's `java`, its options and system class path (the agent and
/// JUnit), the unpatched program's and the patched program's test class paths, the directory it
/// runs in, and the ordered tests.
pub struct PlainJvm<'a> {
    pub java: PathBuf,
    pub jvm_options: Vec<String>,
    pub class_path: String,
    pub unpatched: String,
    pub patched: String,
    pub cwd: PathBuf,
    pub tests: &'a [TestRecord],
    /// Run every test once whatever fails (`plain::GO_ON_OPTION`): a failure is recorded in the
    /// run's `runs` and the JVM goes on; the end is plausible.
    pub go_on: bool,
}

impl PlainJvm<'_> {
    /// Where test `id` (`Class#method`) is in the order.
    pub fn index(&self, id: &str) -> Option<usize> {
        self.tests.iter().position(|t| t.id.to_string() == id)
    }
}

/// What running one patch's tests the plain way found.
pub struct PlainRun {
    pub outcome: Outcome,
    /// Test runs.
    pub rounds: u64,
    pub jvm_starts: u32,
    pub flaky: Vec<String>,
    pub slow: Vec<String>,
    pub timeouts: Vec<String>,
    pub faults: Vec<String>,
    /// Every test run for the patch, as in [`Outcome::runs`].
    pub runs: Vec<TestRun>,
    /// How long the test during which the JVM last died had run.
    pub crashed_after: Duration,
    /// The budget of the last confirmation of a timeout.
    pub budget: Option<Budget>,
    /// The last test's result, as the JVM reported it.
    pub last: Option<TestResult>,
    /// With `confirm`, the unpatched program's result on the first test (its `WARMED` line).
    pub unpatched_first: Option<TestResult>,
}

impl PlainRun {
    /// Nothing run yet: plausible until a test says otherwise.
    pub fn new() -> PlainRun {
        PlainRun {
            outcome: Outcome::new(Verdict::Plausible, Phase::Plain),
            rounds: 0,
            jvm_starts: 0,
            flaky: vec![],
            slow: vec![],
            timeouts: vec![],
            faults: vec![],
            runs: vec![],
            crashed_after: Duration::ZERO,
            budget: None,
            last: None,
            unpatched_first: None,
        }
    }
}

impl Default for PlainRun {
    fn default() -> PlainRun {
        PlainRun::new()
    }
}

/// How one JVM running the tests from some test on ended.
pub enum Ended {
    /// All passed, or a test failed: the patch's outcome.
    Outcome(Outcome),
    /// Test `k` ran past its time (`None`: the JVM hung outside any test).
    Timeout(Option<usize>),
    /// The JVM died during test `k` (`None`: outside any test), with its exit status.
    Crash(Option<usize>, String),
}

/// One fresh JVM (`patchval.agent.PlainMain`) running the ordered tests from `from` on, one
/// timeout per test. With `confirm`, test `from` first runs on the unpatched program and then gets
/// the budget of a timeout's confirmation, for the CPU contention sampled before the JVM starts
/// (once it runs, its own threads, the JIT's above all, would count as load). A failure of a
/// test that passed on the unpatched program is confirmed inside by one more run (marked `+`), as
/// in the schemata, and one by the test's own clock that repeated is checked against the
/// unpatched program (`LOADED` when it failed on an attempt too: the machine's load, not held
/// against the patch).
pub fn run_from(jvm: &PlainJvm, from: usize, confirm: bool, run: &mut PlainRun) -> Ended {
    let tests = jvm.tests;
    let load = confirm.then(contention);
    let mut cmd = Command::new(&jvm.java);
    cmd.args(&jvm.jvm_options)
        .arg("-cp")
        .arg(&jvm.class_path)
        .arg(class::PLAIN_MAIN);
    cmd.arg(plain::UNPATCHED_OPTION).arg(&jvm.unpatched);
    if confirm {
        cmd.arg(plain::WARM_OPTION);
    }
    if jvm.go_on {
        cmd.arg(plain::GO_ON_OPTION);
    }
    cmd.arg(&jvm.patched)
        .args(tests[from..].iter().map(|t| {
            let confirm = if t.passed { plain::CONFIRM } else { "" };
            format!("{confirm}{}", t.id)
        }))
        .current_dir(&jvm.cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0);
    run.jvm_starts += 1;
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Ended::Outcome(
                Outcome::new(Verdict::Error, Phase::Plain)
                    .with_detail(format!("cannot start java: {e}")),
            )
        }
    };
    let stdout = child.stdout.take().expect("piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let kill = |child: &mut std::process::Child| {
        // SAFETY: signalling the process group this child leads.
        unsafe {
            libc::killpg(child.id() as libc::pid_t, libc::SIGKILL);
        }
        let _ = child.wait();
    };
    let index = |id: &str| jvm.index(id);
    // A `result` line's fields after the tag's own (the split kept them in its last field).
    let rejoin = |first: &str, rest: Option<&str>| match rest {
        Some(more) => crate::protocol::join(&[first, more]),
        None => first.to_string(),
    };
    let mut current: Option<usize> = None;
    // When the current test started, and how long its last run took by PlainMain's own measure.
    let mut started = Instant::now();
    let mut took: Option<Duration> = None;
    // The budget of test `from` when its timeout is being confirmed.
    let mut budget: Option<Budget> = None;
    // The unpatched program's run of test `from` is under way.
    let mut warming = false;
    // The JVM's thread that runs the tests (its THREAD line), on whose clock the limits run.
    let mut thread: Option<TestThread> = None;
    // Start-up gets its own allowance; each test then gets its timeout from START.
    let between = || Limit::wall(Duration::from_secs(60));
    let mut limit = between();
    loop {
        let got = match limit.left() {
            Some(left) => rx.recv_timeout(left),
            None => Err(RecvTimeoutError::Timeout),
        };
        match got {
            // Not there yet on the test thread's clock: look again.
            Err(RecvTimeoutError::Timeout) if limit.left().is_some() => continue,
            Ok(text) => {
                let mut f = text.splitn(4, line::SEPARATOR);
                match (f.next(), f.next(), f.next(), f.next()) {
                    (Some(plain::THREAD), Some(tid), _, _) => {
                        thread = tid.parse().ok().map(|tid| TestThread::new(child.id(), tid));
                    }
                    (Some(plain::WARM), Some(_), _, _) => {
                        run.rounds += 1;
                        warming = true;
                        let ms = tests[from].timeout_ms;
                        limit = Limit::start(thread.as_ref(), Budget::for_unpatched(ms));
                    }
                    (Some(plain::WARMED), Some(_), Some(micros), result) => {
                        let unpatched_ms = micros.parse::<f64>().ok().map(|m| m / 1000.0);
                        run.unpatched_first = result.map(TestResult::parse_agent_line);
                        let t = &tests[from];
                        warming = false;
                        let b = Budget::new(
                            t.timeout_ms,
                            unpatched_ms,
                            load.unwrap_or_else(contention),
                        );
                        run.budget = Some(b);
                        budget = Some(b);
                        limit = between();
                    }
                    (Some(plain::START), Some(id), _, _) => {
                        let idx = index(id);
                        current = idx;
                        started = Instant::now();
                        took = None;
                        run.rounds += 1;
                        let ms = idx.map(|k| tests[k].timeout_ms).unwrap_or(5000);
                        let allowed = match budget.filter(|_| idx == Some(from)) {
                            Some(b) => b.allowed,
                            None => Duration::from_millis(ms),
                        };
                        limit = Limit::start(thread.as_ref(), allowed);
                    }
                    (Some(plain::TOOK), Some(_), Some(micros), _) => {
                        took = micros.parse().ok().map(Duration::from_micros);
                    }
                    (Some(plain::FLAKY), Some(id), Some(first), rest) => {
                        let first = rejoin(first, rest);
                        let note = flaky_note(id, &TestResult::parse_agent_line(&first));
                        run.flaky.push(note);
                    }
                    (Some(plain::LOADED), Some(id), Some(first), rest) => {
                        let first = rejoin(first, rest);
                        let note = loaded_note(id, &TestResult::parse_agent_line(&first));
                        run.slow.push(note);
                    }
                    (Some(plain::RESULT), Some(id), Some(result), rest) => {
                        let result = rejoin(result, rest);
                        let r = TestResult::parse_agent_line(&result);
                        run.last = Some(r.clone());
                        let failed = (!r.passed()).then(|| r.describe());
                        let elapsed = took.take().unwrap_or_else(|| started.elapsed());
                        run.runs.push(TestRun::new(id, elapsed, 1, failed));
                        if let Some(b) = budget.take().filter(|_| index(id) == Some(from)) {
                            let then = if r.passed() {
                                "passed".to_string()
                            } else {
                                format!("ended `{}`", r.describe())
                            };
                            let ms = tests[from].timeout_ms;
                            run.slow.push(slow_note(id, ms, &b, &then));
                        }
                        if !r.passed() && !jvm.go_on {
                            kill(&mut child);
                            let t = index(id).map(|k| &tests[k]);
                            let o = match t {
                                Some(t) => crate::rules::failure(&r, t, Phase::Plain),
                                None => None,
                            };
                            return Ended::Outcome(o.unwrap_or_else(|| {
                                Outcome::new(Verdict::Error, Phase::Plain)
                                    .with_test(id)
                                    .with_detail(r.describe())
                            }));
                        }
                        current = None;
                        limit = between();
                    }
                    (Some(plain::DONE), _, _, _) => {
                        let _ = child.wait();
                        return Ended::Outcome(Outcome::new(Verdict::Plausible, Phase::Plain));
                    }
                    _ => {}
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                kill(&mut child);
                if warming {
                    // The unpatched program's run itself was past its allowance.
                    let t = &tests[from];
                    return Ended::Outcome(
                        Outcome::new(Verdict::Error, Phase::Plain)
                            .with_test(t.id.to_string())
                            .with_detail(format!(
                                "the unpatched program ran past {} ms on this test too: the \
                                 machine is too slow to tell a timeout from load",
                                Budget::for_unpatched(t.timeout_ms).as_millis()
                            )),
                    );
                }
                if let Some(b) = budget.filter(|_| current == Some(from)) {
                    let t = &tests[from];
                    let note = confirmed_note(&t.id.to_string(), t.timeout_ms, &b);
                    run.timeouts.push(note);
                    let failed = TestResult::Timeout.describe();
                    let id = t.id.to_string();
                    run.runs
                        .push(TestRun::new(id, started.elapsed(), 1, Some(failed)));
                }
                return Ended::Timeout(current);
            }
            Err(RecvTimeoutError::Disconnected) => {
                run.crashed_after = started.elapsed();
                let status = child.wait().map(|s| s.to_string()).unwrap_or_default();
                return Ended::Crash(current, status);
            }
        }
    }
}
