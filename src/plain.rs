//! The reference technique (`--technique plain`): per patch, a scratch copy of the file, the javac
//! command on that file alone, and a fresh `java` process running the trigger tests then the rest,
//! each in a fresh class loader as in the baseline, stopping at the first failure. Every
//! accelerated verdict is compared against this.

use crate::model::{Outcome, PatchSet, Phase, TestResult, Verdict};
use crate::project::{default_jvm_options, javac, join_path};
use crate::report::{Extra, SetResult};
use crate::schedule::flaky_note;
use crate::validate::RunContext;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// Validates every patch of a set the plain way.
pub fn plain(ctx: &RunContext, worker_id: usize, path: &Path, set: &PatchSet) -> SetResult {
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
    for i in 0..set.patches.len() {
        let _ = std::fs::remove_dir_all(&scratch);
        let src = scratch.join("src").join(&name);
        let classes = scratch.join("classes");
        let outcome = (|| -> Outcome {
            if let Err(e) = std::fs::create_dir_all(src.parent().unwrap())
                .and_then(|_| std::fs::write(&src, set.patched_text(i)))
            {
                return Outcome::new(Verdict::Error, Phase::Plain)
                    .with_detail(format!("{}: {e}", src.display()));
            }
            let t = Instant::now();
            let mut cp = vec![ctx.wd.classes()];
            cp.extend(ctx.state.project.classpath.iter().cloned());
            extra.fallback_compiles += 1;
            let compiled = javac::compile(
                &ctx.state.tools,
                &ctx.state.project,
                &cp,
                &classes,
                std::slice::from_ref(&src),
                &scratch,
            );
            extra.compile_ms += t.elapsed().as_secs_f64() * 1000.0;
            if let Err(errors) = compiled {
                let first = errors.lines().next().unwrap_or("").to_string();
                return Outcome::new(Verdict::CompileError, Phase::Plain).with_detail(first);
            }
            let t = Instant::now();
            extra.jvm_starts += 1;
            let (o, rounds, flaky) = run_tests(ctx, worker_id, &classes);
            extra.rounds += rounds;
            extra
                .flaky
                .extend(flaky.into_iter().map(|f| format!("{f} (patch {i})")));
            extra.run_ms += t.elapsed().as_secs_f64() * 1000.0;
            o
        })();
        outcomes.push(outcome);
    }
    extra.total_ms = started.elapsed().as_secs_f64() * 1000.0;
    let mut r = SetResult {
        patches_path: path.display().to_string(),
        technique: Some("plain".into()),
        outcomes,
        error: None,
        extra,
    };
    r.finish_counts();
    r
}

/// Runs the ordered tests in a fresh JVM (`patchval.agent.PlainMain`), one timeout per test; a
/// failure of a test that passed on the unpatched program is confirmed by one more run (marked `+`),
/// as in the schemata. Returns the outcome, the test runs, and the flaky failures.
fn run_tests(ctx: &RunContext, worker_id: usize, patched: &Path) -> (Outcome, u64, Vec<String>) {
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
        .arg("patchval.agent.PlainMain")
        .arg(&test_cp)
        .args(ctx.tests.iter().map(|t| {
            let confirm = if t.passed { "+" } else { "" };
            format!("{confirm}{}", t.id)
        }))
        .current_dir(ctx.wd.worker_project(worker_id))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return (
                Outcome::new(Verdict::Error, Phase::Plain)
                    .with_detail(format!("cannot start java: {e}")),
                0,
                vec![],
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
    let mut rounds = 0;
    let mut flaky = Vec::new();
    let mut current: Option<usize> = None;
    // Start-up gets its own allowance; each test then gets its timeout from START.
    let mut deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let wait = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(wait) {
            Ok(line) => {
                let mut f = line.splitn(3, '\t');
                match (f.next(), f.next(), f.next()) {
                    (Some("START"), Some(id), _) => {
                        let idx = ctx.tests.iter().position(|t| t.id.to_string() == id);
                        current = idx;
                        rounds += 1;
                        let ms = idx.map(|k| ctx.tests[k].timeout_ms).unwrap_or(5000);
                        deadline = Instant::now() + Duration::from_millis(ms);
                    }
                    (Some("FLAKY"), Some(id), Some(first)) => {
                        flaky.push(flaky_note(id, &TestResult::parse_agent_line(first)));
                    }
                    (Some("RESULT"), Some(id), Some(result)) => {
                        let r = TestResult::parse_agent_line(result);
                        if !r.passed() {
                            kill(&mut child);
                            let v = if matches!(r, TestResult::Error(_)) {
                                Verdict::Error
                            } else {
                                Verdict::TestFailure
                            };
                            return (
                                Outcome::new(v, Phase::Plain)
                                    .with_test(id)
                                    .with_detail(r.describe()),
                                rounds,
                                flaky,
                            );
                        }
                        current = None;
                        deadline = Instant::now() + Duration::from_secs(60);
                    }
                    (Some("DONE"), _, _) => {
                        let _ = child.wait();
                        return (
                            Outcome::new(Verdict::Plausible, Phase::Plain),
                            rounds,
                            flaky,
                        );
                    }
                    _ => {}
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                kill(&mut child);
                let test = current
                    .map(|k| ctx.tests[k].id.to_string())
                    .unwrap_or_default();
                return (
                    Outcome::new(Verdict::Timeout, Phase::Plain)
                        .with_test(test)
                        .with_detail("timed out"),
                    rounds,
                    flaky,
                );
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = child.wait().map(|s| s.to_string()).unwrap_or_default();
                let test = current
                    .map(|k| ctx.tests[k].id.to_string())
                    .unwrap_or_default();
                return (
                    Outcome::new(Verdict::TestFailure, Phase::Plain)
                        .with_test(test)
                        .with_detail(format!("the JVM exited during the test ({status})")),
                    rounds,
                    flaky,
                );
            }
        }
    }
}
