//! The reference technique (`--technique plain`): per patch, a scratch copy of the file (and of the
//! other files it edits), the javac
//! command on those files alone, and a fresh `java` process running the trigger tests then the rest,
//! each in a fresh class loader as in the baseline, stopping at the first failure. Every
//! accelerated verdict is compared against this.

use super::{unusable, RunContext, Sink, Technique};
use crate::model::{Extra, SetResult};
use crate::model::{Outcome, PatchSet, Phase, TestResult, TestRun, Verdict};
use crate::project::javac;
use crate::protocol::{class, line, plain};
use crate::rules::clock::{Limit, TestThread};
use crate::rules::load::{confirmed_note, contention, slow_note, Budget};
use crate::rules::{crashed_twice, flaky_note, loaded_note};
use crate::toolchain::{default_jvm_options, join_path};
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// The thread's copy of the project could not be made.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct CopyError {
    pub path: std::path::PathBuf,
    pub source: std::io::Error,
}

/// Plain validation on one worker thread, in the thread's copy of the project (made the first
/// time it is needed, once per run, as the schemata's workers' are).
pub struct Plain {
    id: usize,
    copied: Option<Result<(), CopyError>>,
}

impl Plain {
    pub fn new(id: usize) -> Plain {
        Plain { id, copied: None }
    }
}

impl Technique for Plain {
    fn validate(
        &mut self,
        ctx: &RunContext,
        path: &Path,
        set: &PatchSet,
        sink: &dyn Sink,
    ) -> SetResult {
        let id = self.id;
        let copied = self.copied.get_or_insert_with(|| {
            ctx.wd
                .copy_project(id, &ctx.state.project.root)
                .map(|_| ())
                .map_err(|source| CopyError {
                    path: ctx.wd.worker_project(id),
                    source,
                })
        });
        match copied {
            Ok(()) => plain(ctx, id, path, set, sink),
            Err(e) => unusable(
                path,
                set.patches.len(),
                format!("cannot copy the project: {e}"),
            ),
        }
    }
}

/// Validates every patch of a set the plain way.
fn plain(
    ctx: &RunContext,
    worker_id: usize,
    path: &Path,
    set: &PatchSet,
    sink: &dyn Sink,
) -> SetResult {
    let started = Instant::now();
    let mut extra = Extra {
        worker: worker_id,
        ..Extra::default()
    };
    let scratch = ctx.wd.worker(worker_id).join("plain");
    let name = Path::new(&set.filename)
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "Patched.java".into());
    let mut outcomes = Vec::with_capacity(set.patches.len());
    crate::progress::set_started(
        &crate::report::set_name(&path.display().to_string()),
        set.patches.len(),
    );
    for i in 0..set.patches.len() {
        crate::progress::phase(&format!("plain, patch {}/{}", i + 1, set.patches.len()));
        let _ = std::fs::remove_dir_all(&scratch);
        let src = scratch.join("src").join(&name);
        let classes = scratch.join("classes");
        let outcome = (|| -> Outcome {
            // The patched file, and the other files the patch edits, in the scratch area.
            let others = match set.other_texts(i, &ctx.state.project.root) {
                Ok(o) => o,
                Err(why) => {
                    return Outcome::new(Verdict::Error, Phase::Plain).with_detail(why.to_string())
                }
            };
            let sources = match crate::compile::write_sources(&src, &set.patched_text(i), &others) {
                Ok(s) => s,
                Err((p, e)) => {
                    return Outcome::new(Verdict::Error, Phase::Plain)
                        .with_detail(format!("{}: {e}", p.display()))
                }
            };
            let t = Instant::now();
            let mut cp = vec![ctx.wd.classes()];
            cp.extend(ctx.state.project.classpath.iter().cloned());
            extra.fallback_compiles += 1;
            let compiled = javac::Javac {
                tools: &ctx.state.tools,
                project: &ctx.state.project,
                scratch: &scratch,
                runtime: Some(&ctx.wd.runtime()),
            }
            .compile(&cp, &classes, &sources);
            extra.compile_ms += t.elapsed().as_secs_f64() * 1000.0;
            match compiled {
                Ok(()) => {}
                Err(javac::Failed::Errors(errors)) => {
                    let first = errors.lines().next().unwrap_or("").to_string();
                    return Outcome::new(Verdict::CompileError, Phase::Plain).with_detail(first);
                }
                Err(javac::Failed::Environment(why)) => {
                    return Outcome::new(Verdict::Error, Phase::Plain)
                        .with_detail(format!("compiling: {why}"));
                }
            }
            let t = Instant::now();
            let run = run_tests(ctx, worker_id, &classes);
            extra.jvm_starts += run.jvm_starts;
            extra.rounds += run.rounds;
            let tag =
                |notes: Vec<String>| notes.into_iter().map(move |f| format!("{f} (patch {i})"));
            extra.flaky.extend(tag(run.flaky));
            extra.slow.extend(tag(run.slow));
            extra.timeouts.extend(tag(run.timeouts));
            extra.faults.extend(tag(run.faults));
            extra.run_ms += t.elapsed().as_secs_f64() * 1000.0;
            let mut outcome = run.outcome;
            outcome.runs = run.runs;
            outcome
        })();
        sink.decided(i, &outcome);
        outcomes.push(outcome);
    }
    extra.total_ms = started.elapsed().as_secs_f64() * 1000.0;
    let mut r = SetResult {
        patches_path: path.display().to_string(),
        technique: Some("plain".into()),
        outcomes,
        names: set.names.clone(),
        error: None,
        extra,
    };
    r.finish_counts();
    r
}

/// What running one patch's tests the plain way found.
struct PlainRun {
    outcome: Outcome,
    /// Test runs.
    rounds: u64,
    jvm_starts: u32,
    flaky: Vec<String>,
    slow: Vec<String>,
    timeouts: Vec<String>,
    faults: Vec<String>,
    /// Every test run for the patch, as in [`Outcome::runs`].
    runs: Vec<TestRun>,
    /// How long the test during which the JVM last died had run.
    crashed_after: Duration,
}

/// How one JVM running the tests from some test on ended.
enum Ended {
    /// All passed, or a test failed: the patch's outcome.
    Outcome(Outcome),
    /// Test `k` ran past its time (`None`: the JVM hung outside any test).
    Timeout(Option<usize>),
    /// The JVM died during test `k` (`None`: outside any test), with its exit status.
    Crash(Option<usize>, String),
}

/// Runs the ordered tests for one patch, the way plain validation does, with the same rules as the
/// schemata for what counts: a JVM that dies during a test is started again from that test once,
/// and only a second death there is the patch's failure; a timeout is confirmed by a fresh JVM
/// that first runs the test on the unpatched program (warming the JVM as the tests before had and
/// timing the test now) and then runs it for the patch with a budget for the current load
/// (`schedule::load`): only a second timeout counts.
fn run_tests(ctx: &RunContext, worker_id: usize, patched: &Path) -> PlainRun {
    let mut run = PlainRun {
        outcome: Outcome::new(Verdict::Plausible, Phase::Plain),
        rounds: 0,
        jvm_starts: 0,
        flaky: vec![],
        slow: vec![],
        timeouts: vec![],
        faults: vec![],
        runs: vec![],
        crashed_after: Duration::ZERO,
    };
    // With a matrix, the first failure, which is the verdict, while the later tests run on.
    let mut first_failure: Option<Outcome> = None;
    let mut from = 0;
    // The test whose timeout is being confirmed, and the test whose JVM died once (with why).
    let mut timed_out: Option<usize> = None;
    let mut crashed: Option<(usize, String)> = None;
    loop {
        let confirming = timed_out.filter(|&k| k == from);
        let retrying = crashed.as_ref().filter(|(k, _)| *k == from).cloned();
        let ended = run_from(
            ctx,
            worker_id,
            patched,
            from,
            confirming.is_some(),
            &mut run,
        );
        let id = |k: usize| ctx.tests[k].id.to_string();
        if let Some((k, first)) = &retrying {
            if !matches!(ended, Ended::Crash(c, _) if c.unwrap_or(from) == *k) {
                run.faults.push(format!(
                    "{}: the JVM died ({first}); ran again in a fresh JVM from that test on",
                    id(*k)
                ));
            }
        }
        // A failure of test `k`: the patch's outcome, or with a matrix its first failure, the
        // tests after it running on in a fresh JVM (`None` when there is none left).
        let mut failed_at = |k: usize, o: Outcome, run: &mut PlainRun| -> Option<usize> {
            let first = first_failure.get_or_insert(o);
            if ctx.matrix && k + 1 < ctx.tests.len() {
                return Some(k + 1);
            }
            run.outcome = first.clone();
            None
        };
        match ended {
            Ended::Outcome(o) => {
                let at = o.test.as_deref().and_then(|t| index_of(ctx, t));
                match at {
                    Some(k) if o.verdict != Verdict::Plausible => match failed_at(k, o, &mut run) {
                        Some(next) => from = next,
                        None => return run,
                    },
                    // Every test passed, or (with a matrix, after a first failure, which stays
                    // the verdict) a JVM could not run the rest.
                    _ => {
                        run.outcome = first_failure.unwrap_or(o);
                        return run;
                    }
                }
            }
            Ended::Timeout(Some(k)) if confirming != Some(k) => {
                tracing::debug!("{}: timed out; confirming in a fresh JVM", id(k));
                timed_out = Some(k);
                from = k;
            }
            Ended::Timeout(k) => {
                let o = Outcome::new(Verdict::Timeout, Phase::Plain)
                    .with_test(k.map(id).unwrap_or_default())
                    .with_detail("timed out");
                match k.and_then(|k| failed_at(k, o.clone(), &mut run)) {
                    Some(next) => from = next,
                    None if k.is_some() => return run,
                    None => {
                        run.outcome = first_failure.unwrap_or(o);
                        return run;
                    }
                }
            }
            Ended::Crash(k, status) => {
                let k = k.unwrap_or(from);
                if let Some((_, first)) = retrying.filter(|(c, _)| *c == k) {
                    run.faults.push(format!(
                        "{}: the JVM died ({first}); died again in a fresh JVM: the patch's failure",
                        id(k)
                    ));
                    let detail = crashed_twice(first.as_str(), &status).describe();
                    run.runs.push(TestRun::new(
                        id(k),
                        run.crashed_after,
                        1,
                        Some(detail.clone()),
                    ));
                    let o = Outcome::new(Verdict::TestFailure, Phase::Plain)
                        .with_test(id(k))
                        .with_detail(detail);
                    match failed_at(k, o, &mut run) {
                        Some(next) => from = next,
                        None => return run,
                    }
                    continue;
                }
                tracing::warn!(
                    "{}: the JVM died ({status}); running again in a fresh JVM",
                    id(k)
                );
                crashed = Some((k, status));
                from = k;
            }
        }
    }
}

/// Where test `id` (`Class#method`) is in the order.
fn index_of(ctx: &RunContext, id: &str) -> Option<usize> {
    ctx.tests.iter().position(|t| t.id.to_string() == id)
}

/// One fresh JVM (`patchval.agent.PlainMain`) running the ordered tests from `from` on, one
/// timeout per test. With `confirm`, test `from` first runs on the unpatched program and then gets
/// the budget of a timeout's confirmation. A failure of a test that passed on the unpatched
/// program is confirmed inside by one more run (marked `+`), as in the schemata, and one by the
/// test's own clock that repeated is checked against the unpatched program (`LOADED` when it
/// failed on an attempt too: the machine's load, not held against the patch).
fn run_from(
    ctx: &RunContext,
    worker_id: usize,
    patched: &Path,
    from: usize,
    confirm: bool,
    run: &mut PlainRun,
) -> Ended {
    let state = ctx.state;
    // The JVM holds the agent and JUnit; each test gets a fresh loader over the rest.
    let jvm_cp =
        join_path(std::iter::once(ctx.agent_jar.clone()).chain(state.tools.junit.iter().cloned()));
    let test_cp = ctx.wd.test_classpath(state, Some(patched)).join(":");
    let mut cmd = Command::new(state.tools.java());
    cmd.args(default_jvm_options())
        .args(&state.project.jvm_options)
        .arg("-cp")
        .arg(&jvm_cp)
        .arg(class::PLAIN_MAIN);
    cmd.arg(plain::UNPATCHED_OPTION)
        .arg(ctx.wd.test_classpath(state, None).join(":"));
    if confirm {
        cmd.arg(plain::WARM_OPTION);
    }
    cmd.arg(&test_cp)
        .args(ctx.tests[from..].iter().map(|t| {
            let confirm = if t.passed { plain::CONFIRM } else { "" };
            format!("{confirm}{}", t.id)
        }))
        .current_dir(ctx.wd.worker_project(worker_id))
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
    let index = |id: &str| index_of(ctx, id);
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
                        let ms = ctx.tests[from].timeout_ms;
                        limit = Limit::start(thread.as_ref(), Budget::for_unpatched(ms));
                    }
                    (Some(plain::WARMED), Some(_), Some(micros), _) => {
                        let unpatched_ms = micros.parse::<f64>().ok().map(|m| m / 1000.0);
                        let t = &ctx.tests[from];
                        warming = false;
                        budget = Some(Budget::new(t.timeout_ms, unpatched_ms, contention()));
                        limit = between();
                    }
                    (Some(plain::START), Some(id), _, _) => {
                        let idx = index(id);
                        current = idx;
                        started = Instant::now();
                        took = None;
                        run.rounds += 1;
                        let ms = idx.map(|k| ctx.tests[k].timeout_ms).unwrap_or(5000);
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
                        let failed = (!r.passed()).then(|| r.describe());
                        let elapsed = took.take().unwrap_or_else(|| started.elapsed());
                        run.runs.push(TestRun::new(id, elapsed, 1, failed));
                        if let Some(b) = budget.take().filter(|_| index(id) == Some(from)) {
                            let then = if r.passed() {
                                "passed".to_string()
                            } else {
                                format!("ended `{}`", r.describe())
                            };
                            let ms = ctx.tests[from].timeout_ms;
                            run.slow.push(slow_note(id, ms, &b, &then));
                        }
                        if !r.passed() {
                            kill(&mut child);
                            let t = index(id).map(|k| &ctx.tests[k]);
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
                    let t = &ctx.tests[from];
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
                    let t = &ctx.tests[from];
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
