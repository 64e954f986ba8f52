//! The reference technique (`--technique plain`): per patch, a scratch copy of the file (and of the
//! other files it edits), the javac
//! command on those files alone, and a fresh `java` process running the trigger tests then the rest,
//! each in a fresh class loader as in the baseline, stopping at the first failure. Every
//! accelerated verdict is compared against this.

use super::{unusable, RunContext, Sink, Technique};
use crate::model::{Extra, SetResult};
use crate::model::{Outcome, PatchSet, Phase, TestResult, TestRun, Unstable, Verdict};
use crate::pool::plain::{run_from, Ended, PlainJvm, PlainRun};
use crate::project::javac;
use crate::rules::crashed_twice;
use crate::toolchain::{default_jvm_options, join_path};
use crate::workdir::TestRecord;
use std::path::Path;
use std::time::Instant;

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
            let mut outcome = run.outcome;
            outcome.runs = run.runs;
            if let Some(u) = alone(ctx, worker_id, &classes, &outcome, &mut extra) {
                extra.unstable.push(format!("{} (patch {i})", u.note()));
                outcome.unstable = Some(Box::new(u));
            }
            extra.run_ms += t.elapsed().as_secs_f64() * 1000.0;
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

/// Runs the ordered tests for one patch, the way plain validation does, with the same rules as the
/// schemata for what counts: a JVM that dies during a test is started again from that test once,
/// and only a second death there is the patch's failure; a timeout is confirmed by a fresh JVM
/// that first runs the test on the unpatched program (warming the JVM as the tests before had and
/// timing the test now) and then runs it for the patch with a budget for the current load
/// (`schedule::load`): only a second timeout counts.
fn run_tests(ctx: &RunContext, worker_id: usize, patched: &Path) -> PlainRun {
    let mut run = PlainRun::new();
    let jvm = plain_jvm(ctx, worker_id, patched, ctx.tests);
    // With a matrix, the first failure, which is the verdict, while the later tests run on.
    let mut first_failure: Option<Outcome> = None;
    let mut from = 0;
    // The test whose timeout is being confirmed, and the test whose JVM died once (with why).
    let mut timed_out: Option<usize> = None;
    let mut crashed: Option<(usize, String)> = None;
    loop {
        let confirming = timed_out.filter(|&k| k == from);
        let retrying = crashed.as_ref().filter(|(k, _)| *k == from).cloned();
        let ended = run_from(&jvm, from, confirming.is_some(), &mut run);
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
                let at = o.test.as_deref().and_then(|t| jvm.index(t));
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

/// A plain JVM for `tests` of the patch compiled into `patched`, in the thread's project copy.
fn plain_jvm<'a>(
    ctx: &RunContext,
    worker_id: usize,
    patched: &Path,
    tests: &'a [TestRecord],
) -> PlainJvm<'a> {
    let state = ctx.state;
    let mut jvm_options = default_jvm_options();
    jvm_options.extend(state.project.jvm_options.iter().cloned());
    PlainJvm {
        java: state.tools.java(),
        jvm_options,
        // The JVM holds the agent and JUnit; each test gets a fresh loader over the rest.
        class_path: join_path(
            std::iter::once(ctx.agent_jar.clone()).chain(state.tools.junit.iter().cloned()),
        ),
        unpatched: ctx.wd.test_classpath(state, None).join(":"),
        patched: ctx.wd.test_classpath(state, Some(patched)).join(":"),
        cwd: ctx.wd.worker_project(worker_id),
        tests,
        go_on: false,
    }
}

/// Whether plain's `F` holds when its test runs alone. A test that passed on the unpatched
/// program and failed for the patch in plain's order (twice: `PlainMain` confirms a failure in
/// its JVM) runs once more in a fresh JVM of its own: first on the unpatched program, then for
/// the patch (confirmed again there). The failure holds when the patch fails alone while the
/// unpatched program passes; otherwise (the patch passes alone, or the unpatched program fails
/// too, so the test depends on tests before it) the verdict is unstable: it depends on what ran
/// before in the JVM, or on chance, and the evidence is returned. The verdict is not changed:
/// plain's order decided it, and comparisons decide again (`core::recheck`).
fn alone(
    ctx: &RunContext,
    worker_id: usize,
    patched: &Path,
    outcome: &Outcome,
    extra: &mut Extra,
) -> Option<Unstable> {
    if outcome.verdict != Verdict::TestFailure {
        return None;
    }
    let test = outcome.test.as_deref()?;
    let k = ctx.tests.iter().position(|t| t.id.to_string() == test)?;
    if !ctx.tests[k].passed {
        return None;
    }
    let jvm = plain_jvm(ctx, worker_id, patched, &ctx.tests[k..=k]);
    let mut run = PlainRun::new();
    let ended = run_from(&jvm, 0, true, &mut run);
    extra.jvm_starts += run.jvm_starts;
    extra.rounds += run.rounds;
    let unpatched = run.unpatched_first.as_ref();
    let (patch_passed, patched_alone) = match &ended {
        Ended::Outcome(o) if o.verdict == Verdict::Plausible => (true, "passed".to_string()),
        Ended::Outcome(o) => (
            false,
            format!("failed ({})", o.detail.as_deref().unwrap_or("no detail")),
        ),
        Ended::Timeout(_) => (false, "timed out".to_string()),
        Ended::Crash(_, status) => (false, format!("the JVM died ({status})")),
    };
    let unpatched_passed = unpatched.is_some_and(TestResult::passed);
    if !patch_passed && unpatched_passed {
        return None;
    }
    Some(Unstable {
        test: test.to_string(),
        in_order: outcome.detail.clone().unwrap_or_default(),
        unpatched_alone: match unpatched {
            Some(r) if r.passed() => "passed".to_string(),
            Some(r) => format!("failed ({})", r.describe()),
            None => "did not run".to_string(),
        },
        patched_alone,
    })
}
