//! Init's baseline in the worker's warm loader (the default) and the warm pass that checks a fresh
//! baseline (`init --check-warm`): which test classes run warm at `run`, and the coverage that
//! test selection reads (docs/warm-loaders.md and docs/selection.md).

use super::passes::spread;
use crate::model::{TestId, TestResult};
use crate::pool::{PoolError, Worker};
use crate::workdir::coverage::Coverage;
use crate::workdir::TestRecord;
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

/// How `init` runs the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaselineMode {
    /// Every test in a fresh class loader, and a fresh loader for every test at `run` (`--no-warm`).
    Fresh,
    /// A fresh baseline, then every test again in the warm loader; a class runs warm only when
    /// all its tests gave the same results both ways (`--check-warm`).
    Checked,
    /// The baseline in the warm loader; only the classes with a test that does not pass there run
    /// again in fresh loaders, and they stay warm when those results are the same (the default).
    Warm,
}

/// One test's baseline: its result and milliseconds (or why it could not run), the worker that
/// ran it, whether it runs warm, and whether a second run already gave the same result.
pub(super) struct BaselineRun {
    pub id: TestId,
    pub run: Result<(TestResult, f64), PoolError>,
    pub worker: usize,
    pub warm: bool,
    pub confirmed: bool,
    /// Failed (`run`), then passed when run again: left out of the baseline.
    pub flaky: bool,
}

/// Runs one test on the unpatched program; with `coverage` (a warm run), also returns the
/// agent's coverage lines for the classes of that directory.
pub(super) type RunOne<'a> = &'a (dyn Fn(
    &mut Worker,
    &TestId,
    Duration,
    bool,
    Option<&Path>,
) -> Result<(TestResult, f64, Vec<String>), PoolError>
         + Sync);

/// The same result both ways: both pass, or both fail with the same exception class (a failure's
/// message may name a loader or an identity hash).
fn same(a: &TestResult, b: &TestResult) -> bool {
    match (a, b) {
        (TestResult::Fail { exception: x, .. }, TestResult::Fail { exception: y, .. }) => x == y,
        _ => a.passed() && b.passed(),
    }
}

/// The default baseline: every test in the warm loader, with coverage; then every test of each
/// class where some test did not pass warm, in fresh loaders. Such a class runs warm when each of
/// its tests gave the same result both ways (the fresh run then confirms its failures), and
/// otherwise takes the fresh results and keeps fresh loaders.
pub(super) fn warm_first(
    workers: &mut [Worker],
    run_one: RunOne,
    main: &Path,
    ids: &[TestId],
    timeout: Duration,
    bar: &indicatif::ProgressBar,
) -> (Vec<BaselineRun>, Coverage) {
    let (warm_runs, records) = spread(
        workers,
        ids,
        |id| id.class.as_str(),
        |index, worker, records: &mut PerJvm, id| {
            bar.inc(1);
            (
                index,
                covered_run(worker, run_one, records, id, timeout, main),
            )
        },
    );
    let mut coverage = PerJvm::merged(records);
    let mut runs: Vec<BaselineRun> = ids
        .iter()
        .zip(warm_runs)
        .map(|(id, (worker, run))| BaselineRun {
            id: id.clone(),
            run,
            worker,
            warm: true,
            confirmed: false,
            flaky: false,
        })
        .collect();
    let doubtful: BTreeSet<String> = runs
        .iter()
        .filter(|r| !matches!(&r.run, Ok((res, _)) if res.passed()))
        .map(|r| r.id.class.clone())
        .collect();
    // Each test runs again on the worker that ran it, in the same project copy: a test may leave
    // files behind that decide how it runs next time (testdata/hostile's FlakyTest).
    let again: Vec<(usize, TestId, usize)> = (0..runs.len())
        .filter(|&i| doubtful.contains(&runs[i].id.class))
        .map(|i| (i, runs[i].id.clone(), runs[i].worker))
        .collect();
    let fresh = on_their_workers(workers, &again, |worker, (_, id, _)| {
        run_one(worker, id, timeout, false, None).map(|(r, ms, _)| (r, ms))
    });
    let mut fresh_by_class: std::collections::BTreeMap<String, Vec<(usize, _)>> =
        Default::default();
    for ((i, id, _), run) in again.into_iter().zip(fresh) {
        fresh_by_class.entry(id.class).or_default().push((i, run));
    }
    let mut examples = Vec::new();
    let mut fresh_classes = 0;
    for (class, tests) in fresh_by_class {
        let agree = tests.iter().all(|(i, f)| match (&runs[*i].run, f) {
            (Ok((w, _)), Ok((f, _))) => same(w, f),
            _ => false,
        });
        if agree {
            for (i, _) in tests {
                runs[i].confirmed = true;
            }
            continue;
        }
        fresh_classes += 1;
        if examples.len() < 5 {
            examples.push(class.clone());
        }
        for (i, run) in tests {
            coverage.forget(&runs[i].id.to_string());
            runs[i].warm = false;
            let failed_warm = matches!(&runs[i].run, Ok((TestResult::Fail { .. }, _)));
            if failed_warm && matches!(&run, Ok((r, _)) if r.passed()) {
                // A failure, then a pass: a test failing warm only, or a flaky one. One more
                // warm run, in the same warm loader (the same coverage directory keeps it), tells:
                // a test that fails there again keeps fresh loaders and its fresh pass; one that
                // passes now is flaky (left out, as a fresh failure then a pass would be).
                let again = run_one(
                    &mut workers[runs[i].worker],
                    &runs[i].id,
                    timeout,
                    true,
                    Some(main),
                );
                if matches!(&again, Ok((r, _, _)) if r.passed()) {
                    runs[i].flaky = true;
                    continue;
                }
            }
            runs[i].run = run;
        }
    }
    for r in &runs {
        if !matches!(&r.run, Ok((res, _)) if res.passed()) {
            coverage.forget(&r.id.to_string());
        }
    }
    tracing::info!(
        "warm baseline: {} of {} test classes with a test that does not pass warm ran again in fresh loaders; {fresh_classes} of them keep fresh loaders{}",
        doubtful.len(),
        runs.iter().map(|r| &r.id.class).collect::<BTreeSet<_>>().len(),
        if examples.is_empty() {
            String::new()
        } else {
            format!(" ({})", examples.join(", "))
        }
    );
    (runs, coverage)
}

/// Runs every item on the worker it names (its third field), the workers at once, each its items
/// in order; results in item order.
fn on_their_workers<R: Send>(
    workers: &mut [Worker],
    items: &[(usize, TestId, usize)],
    run: impl Fn(&mut Worker, &(usize, TestId, usize)) -> R + Sync,
) -> Vec<R> {
    let run = &run;
    let mut results: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = workers
            .iter_mut()
            .enumerate()
            .map(|(w, worker)| {
                s.spawn(move || {
                    items
                        .iter()
                        .enumerate()
                        .filter(|(_, item)| item.2 == w)
                        .map(|(k, item)| (k, run(worker, item)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            for (k, r) in h.join().expect("an init pass thread panicked") {
                results[k] = Some(r);
            }
        }
    });
    results
        .into_iter()
        .map(|r| r.expect("every item names one of the workers"))
        .collect()
}

/// One warm run with coverage recorded into the worker's current JVM's record; a passing test
/// whose coverage cannot be read is an error (it would be selected wrongly).
fn covered_run(
    worker: &mut Worker,
    run_one: RunOne,
    records: &mut PerJvm,
    id: &TestId,
    timeout: Duration,
    main: &Path,
) -> Result<(TestResult, f64), PoolError> {
    let coverage = records.current(worker.jvm_starts);
    run_one(worker, id, timeout, true, Some(main)).map(|(r, ms, lines)| {
        let (r, ms) = match coverage.absorb(&id.to_string(), &lines) {
            Err(why) if r.passed() => (TestResult::Error(format!("coverage: {why}")), ms),
            _ => (r, ms),
        };
        if !r.passed() {
            tracing::debug!("{id} in the warm loader: {}", r.describe());
        }
        (r, ms)
    })
}

/// Runs every test once more in the worker's warm loader (docs/warm-loaders.md) and
/// marks `warm` the tests of each class whose every test gave the same result there as in its
/// fresh loader; the others keep fresh loaders. The same runs record which methods of the
/// classes in `main` each test executes (docs/selection.md): kept for the passing
/// tests of warm classes only.
pub(super) fn mark_warm(
    workers: &mut [Worker],
    run_one: RunOne,
    main: &Path,
    tests: &mut [TestRecord],
) -> Coverage {
    let (differs, records) = spread(
        workers,
        tests,
        |t| t.id.class.as_str(),
        |_, worker, records: &mut PerJvm, t| {
            let timeout = Duration::from_millis(t.timeout_ms);
            match covered_run(worker, run_one, records, &t.id, timeout, main) {
                // A trigger test must fail the same way (exception class) in both loaders.
                Ok((TestResult::Fail { exception, .. }, _))
                    if !t.passed
                        && t.failure
                            .as_deref()
                            .is_some_and(|f| f.split(": ").next() == Some(exception.as_str())) =>
                {
                    None
                }
                Ok((r, _)) if t.passed && r.passed() => None,
                Ok((r, _)) => Some(r.describe()),
                Err(e) => Some(e.to_string()),
            }
        },
    );
    let mut coverage = PerJvm::merged(records);
    let mut differing: BTreeSet<String> = Default::default();
    let mut examples = Vec::new();
    for (t, why) in tests.iter().zip(differs) {
        if let Some(why) = why {
            if examples.len() < 5 {
                examples.push(format!("{}: {why}", t.id));
            }
            differing.insert(t.id.class.clone());
        }
    }
    for t in tests.iter_mut() {
        t.warm = !differing.contains(&t.id.class);
        if !t.warm || !t.passed {
            coverage.forget(&t.id.to_string());
        }
    }
    let warm = tests.iter().filter(|t| t.warm).count();
    tracing::info!(
        "warm class loader: {warm} of {} tests; {} test classes keep fresh loaders{}",
        tests.len(),
        differing.len(),
        if examples.is_empty() {
            String::new()
        } else {
            format!(" (e.g. {})", examples.join("; "))
        }
    );
    coverage
}

/// One worker's coverage records, one per JVM it ran: a JVM restarted after a timeout or a crash
/// numbers the methods from 0 again.
#[derive(Default)]
struct PerJvm {
    records: Vec<Coverage>,
    jvm: Option<u32>,
}

impl PerJvm {
    /// The record of the worker's current JVM (`jvm_starts`).
    fn current(&mut self, jvm_starts: u32) -> &mut Coverage {
        if self.jvm != Some(jvm_starts) || self.records.is_empty() {
            self.jvm = Some(jvm_starts);
            self.records.push(Coverage::default());
        }
        self.records.last_mut().expect("one record at least")
    }

    /// Every worker's records, merged into one coverage.
    fn merged(workers: Vec<PerJvm>) -> Coverage {
        let mut coverage = Coverage::default();
        for r in workers.into_iter().flat_map(|w| w.records) {
            coverage.merge(r);
        }
        coverage
    }
}
