//! `init`: compile the unpatched project, discover its tests, run each once in an embedded JVM,
//! and record per-test time, trigger tests and timeouts in the work directory.

use super::javac::{compile_or_fail, copy_resources, sources};
use super::passes::spread;
use super::warm_baseline::{mark_warm, warm_first, BaselineMode, BaselineRun};
use super::{default_jvm_options, io_err, join_path, Project, ProjectError, Toolchain};
use crate::model::{TestId, TestResult};
use crate::pool::protocol::Request;
use crate::pool::{Worker, WorkerConfig};
use crate::protocol::{line, list, select};
use crate::workdir::{State, TestRecord, WorkDir};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long one baseline test may take before it is excluded, unless `init --baseline-timeout` says otherwise.
pub const BASELINE_TIMEOUT: Duration = Duration::from_secs(120);

/// Per-test timeout for validation: 5 s + 1.5 × the baseline time (as in the paper).
pub fn timeout_for(millis: f64) -> u64 {
    5000 + (1.5 * millis).ceil() as u64
}

/// The worker configuration for a work directory (used by init and run alike), with the
/// class-data archive (`project/archive.rs`) when one was made for exactly this configuration.
pub fn worker_config(
    wd: &WorkDir,
    project: &Project,
    tools: &Toolchain,
    id: usize,
) -> Result<WorkerConfig, ProjectError> {
    let mut config = config_without_archive(wd, project, tools, id)?;
    if let Some(o) = super::archive::option_for(
        wd,
        &config.java_home,
        &config.class_path,
        &config.jvm_options,
    ) {
        config.jvm_options.push(o);
    }
    Ok(config)
}

/// Starts worker `id` in a fresh copy of the project, made while its JVM starts.
pub fn spawn_worker(
    wd: &WorkDir,
    project: &Project,
    tools: &Toolchain,
    id: usize,
) -> Result<Worker, ProjectError> {
    let config = worker_config(wd, project, tools, id)?;
    std::fs::create_dir_all(&config.cwd).map_err(io_err(&config.cwd))?;
    let (worker, copied) = std::thread::scope(|s| {
        let copy = s.spawn(|| wd.copy_project(id, &project.root));
        let worker = Worker::spawn(config);
        (worker, copy.join())
    });
    let dest = wd.worker_project(id);
    match copied {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => return Err(io_err(&dest)(e)),
        Err(_) => {
            return Err(ProjectError::Worker(format!(
                "{}: copying panicked",
                dest.display()
            )))
        }
    }
    worker.map_err(|e| ProjectError::Worker(e.to_string()))
}

/// As [`worker_config`], without the class-data archive (for the JVM that makes it).
pub(crate) fn config_without_archive(
    wd: &WorkDir,
    project: &Project,
    tools: &Toolchain,
    id: usize,
) -> Result<WorkerConfig, ProjectError> {
    let agent = crate::agent::extract(&wd.runtime()).map_err(io_err(&wd.runtime()))?;
    // `/proc/self/exe` names this very program even after its file is replaced (a rebuild or
    // an upgrade while a run goes on), where `current_exe` would name a deleted path.
    let proc_self = Path::new("/proc/self/exe");
    let exe = std::env::var_os("PATCHVAL_EXE")
        .map(PathBuf::from)
        .or_else(|| proc_self.exists().then(|| proc_self.to_path_buf()))
        .or_else(|| std::env::current_exe().ok())
        .ok_or_else(|| ProjectError::Worker("cannot find the patchval executable".into()))?;
    let mut jvm_options = default_jvm_options();
    jvm_options.extend(project.jvm_options.iter().cloned());
    Ok(WorkerConfig {
        exe,
        java_home: tools.java_home.clone(),
        class_path: join_path(std::iter::once(agent).chain(tools.junit.iter().cloned())),
        jvm_options,
        cwd: wd.worker_project(id),
        log: wd.logs().join(format!("worker-{id}.log")),
    })
}

/// One run of a test on the unpatched program: its result and milliseconds.
fn run_unpatched(
    worker: &mut Worker,
    classpath: &[String],
    id: &TestId,
    timeout: Duration,
    warm: bool,
) -> Result<(TestResult, f64), crate::pool::PoolError> {
    run_covered(worker, classpath, id, timeout, warm, None).map(|(r, ms, _)| (r, ms))
}

/// As [`run_unpatched`]; with `coverage` (a warm run), also the agent's coverage lines for the
/// classes of that directory.
fn run_covered(
    worker: &mut Worker,
    classpath: &[String],
    id: &TestId,
    timeout: Duration,
    warm: bool,
    coverage: Option<&Path>,
) -> Result<(TestResult, f64, Vec<String>), crate::pool::PoolError> {
    let req = Request::RunTest {
        classpath: classpath.to_vec(),
        test: id.clone(),
        patch: select::NONE,
        warm,
        coverage: coverage.map(|d| d.display().to_string()),
    };
    let mut resp = worker.call(&req, Some(timeout))?;
    let first = if resp.lines.is_empty() {
        String::new()
    } else {
        resp.lines.remove(0)
    };
    let result = TestResult::parse_agent_line(&first);
    Ok((result, resp.micros as f64 / 1000.0, resp.lines))
}

/// Runs `init` and returns what was saved.
pub fn init(
    wd: &WorkDir,
    project: Project,
    tools: Toolchain,
    baseline_timeout: Duration,
    declared_triggers: &[String],
    mode: BaselineMode,
    jobs: usize,
) -> Result<State, ProjectError> {
    let started = Instant::now();
    std::fs::create_dir_all(&wd.root).map_err(io_err(&wd.root))?;
    for d in [wd.classes(), wd.test_classes()] {
        if d.exists() {
            std::fs::remove_dir_all(&d).map_err(io_err(&d))?;
        }
    }
    let scratch = wd.root.join("tmp");
    let main_sources = sources(&project.source_dirs);
    if main_sources.is_empty() {
        return Err(ProjectError::DoesNotCompile {
            what: "no Java sources".into(),
            errors: format!("no .java files below {}", join_path(&project.source_dirs)),
        });
    }
    tracing::info!("compiling {} source files", main_sources.len());
    compile_or_fail(
        "main sources",
        &tools,
        &project,
        &project.classpath,
        &wd.classes(),
        &main_sources,
        &scratch,
    )?;
    copy_resources(&project.resource_dirs, &project.source_dirs, &wd.classes())?;
    let (test_sources, left_out) = project.test_sources();
    let left_out: Vec<(String, String)> = left_out
        .into_iter()
        .map(|(file, pattern)| {
            let why = format!("test source excluded by `{pattern}`, not compiled");
            tracing::info!("{}: {why}", file.display());
            (file.display().to_string(), why)
        })
        .collect();
    let mut test_cp = vec![wd.classes()];
    test_cp.extend(project.classpath.iter().cloned());
    test_cp.extend(tools.junit.iter().cloned());
    tracing::info!("compiling {} test files", test_sources.len());
    compile_or_fail(
        "test sources",
        &tools,
        &project,
        &test_cp,
        &wd.test_classes(),
        &test_sources,
        &scratch,
    )?;
    copy_resources(
        &project.test_resource_dirs,
        &project.test_dirs,
        &wd.test_classes(),
    )?;

    // Every class a test run can load: a test class may override a main method or run a mock
    // library that generates subclasses (see DESIGN.md, "Execution scheduling").
    let mut scanned = vec![wd.classes(), wd.test_classes()];
    scanned.extend(project.classpath.iter().cloned());
    let purity = super::purity::scan(&scanned).map_err(|e| ProjectError::Config {
        path: wd.classes(),
        message: format!("reading class files for the purity scan: {e}"),
    })?;
    let (pure, impure) = purity.summary();
    tracing::info!("purity scan: {pure} pure and {impure} impure methods");
    let classes = test_class_names(&wd.test_classes());
    // Classes a Defects4J fileset leaves out are listed too, so that only those with tests are
    // reported as excluded (a helper or an abstract base class is not a test left out).
    let mut fileset_out = std::collections::BTreeMap::new();
    if let Some(fileset) = &project.test_fileset {
        for class in &classes {
            if let Some(why) = fileset.leaves_out(class) {
                fileset_out.insert(class.clone(), why);
            }
        }
        tracing::info!(
            "{} test classes in {}",
            classes.len() - fileset_out.len(),
            fileset.name
        );
    }
    let mut worker = spawn_worker(wd, &project, &tools, 0)?;
    let mut state = State {
        project,
        tools,
        tests: vec![],
        excluded: left_out,
        purity,
        init_seconds: 0.0,
    };
    let classpath = wd.test_classpath(&state, None);
    let listed = worker
        .call(
            &Request::ListTests {
                classpath: classpath.clone(),
                classes,
            },
            Some(baseline_timeout),
        )
        .map_err(|e| ProjectError::Worker(format!("listing tests: {e}")))?;
    let mut ids = Vec::new();
    let mut reported = std::collections::BTreeSet::new();
    for text in listed.lines {
        if let Some(bad) = text.strip_prefix(list::LOAD_ERROR) {
            let (class, why) = bad
                .split_once(line::SEPARATOR)
                .unwrap_or((bad, "cannot load"));
            // Left out anyway: whether it holds tests is not known, so it is not reported.
            if !fileset_out.contains_key(class) {
                state.excluded.push((class.to_string(), why.to_string()));
            }
        } else if let Some(id) = TestId::parse(&text) {
            if let Some(why) = fileset_out.get(&id.class) {
                if reported.insert(id.class.clone()) {
                    state.excluded.push((id.class.clone(), why.clone()));
                }
                continue;
            }
            match state.project.excluded_by(&id.class, &id.method) {
                Some(pattern) => state
                    .excluded
                    .push((id.to_string(), format!("excluded by `{pattern}`"))),
                None => ids.push(id),
            }
        }
    }
    if fileset_out.len() > reported.len() {
        tracing::info!(
            "{} classes the fileset leaves out hold no tests (helpers, abstract classes)",
            fileset_out.len() - reported.len()
        );
    }
    if ids.is_empty() {
        return Err(ProjectError::NoTests(join_path(&state.project.test_dirs)));
    }
    // The passes over the tests run on `jobs` workers, each on its own part of the list.
    let mut workers = vec![worker];
    for id in 1..jobs.max(1) {
        match spawn_worker(wd, &state.project, &state.tools, id) {
            Ok(w) => workers.push(w),
            Err(e) => {
                tracing::warn!("init goes on with {id} workers: starting another failed: {e}");
                break;
            }
        }
    }
    let bar = indicatif::ProgressBar::new(ids.len() as u64).with_style(
        indicatif::ProgressStyle::with_template("baseline {bar:30} {pos}/{len} tests {elapsed}")
            .expect("valid template"),
    );
    let (ids_run, baseline_started) = (ids.len(), Instant::now());
    let run_one = |worker: &mut Worker, id: &TestId, timeout, warm, coverage: Option<&Path>| {
        run_covered(worker, &classpath, id, timeout, warm, coverage)
    };
    let (runs, mut coverage) = match mode {
        BaselineMode::Warm => {
            let (runs, coverage) = warm_first(
                &mut workers,
                &run_one,
                &wd.classes(),
                &ids,
                baseline_timeout,
                &bar,
            );
            (runs, Some(coverage))
        }
        BaselineMode::Fresh | BaselineMode::Checked => {
            let (runs, _) = spread(
                &mut workers,
                &ids,
                |id| id.class.as_str(),
                |_| 1.0,
                |index, worker, _: &mut (), id| {
                    bar.inc(1);
                    (
                        index,
                        run_unpatched(worker, &classpath, id, baseline_timeout, false),
                    )
                },
            );
            let runs = ids
                .into_iter()
                .zip(runs)
                .map(|(id, (worker, run))| BaselineRun {
                    id,
                    run,
                    worker,
                    warm: false,
                    confirmed: false,
                    flaky: false,
                })
                .collect();
            (runs, None)
        }
    };
    bar.finish_and_clear();
    tracing::info!(
        "baseline: {} tests on {} workers in {:.1}s",
        ids_run,
        workers.len(),
        baseline_started.elapsed().as_secs_f64()
    );
    // A test that fails once is run again (the same way, on the worker that ran it, in the same
    // project copy: a test may leave files behind that decide how it runs next time), unless a
    // second run already failed the same way: one that passes then is flaky (timing, order, the
    // machine's load) and would make verdicts flip between runs, so it is left out.
    for r in runs {
        let (result, millis) = match r.run {
            Ok((TestResult::Error(why), _)) => {
                state.excluded.push((r.id.to_string(), why));
                continue;
            }
            Ok(run) => run,
            Err(e) => {
                state
                    .excluded
                    .push((r.id.to_string(), format!("baseline: {e}")));
                continue;
            }
        };
        if !result.passed() && !r.confirmed {
            let flaky = r.flaky || {
                let again = run_unpatched(
                    &mut workers[r.worker],
                    &classpath,
                    &r.id,
                    baseline_timeout,
                    r.warm,
                );
                matches!(again, Ok((TestResult::Pass, _)))
            };
            if flaky {
                tracing::warn!("{}: flaky (failed, then passed): left out", r.id);
                state.excluded.push((
                    r.id.to_string(),
                    format!(
                        "flaky: failed in the baseline ({}), passed when run again",
                        result.describe()
                    ),
                ));
                continue;
            }
        }
        state.tests.push(TestRecord {
            warm: r.warm,
            passed: result.passed(),
            failure: (!result.passed()).then(|| result.describe()),
            id: r.id,
            millis,
            timeout_ms: timeout_for(millis),
        });
    }
    if !declared_triggers.is_empty() {
        // Like `defects4j test`: only the declared trigger tests may fail on the unpatched program.
        let (keep, drop): (Vec<TestRecord>, Vec<TestRecord>) = std::mem::take(&mut state.tests)
            .into_iter()
            .partition(|t| t.passed || declared_triggers.contains(&t.id.to_string()));
        state.tests = keep;
        for t in drop {
            state.excluded.push((
                t.id.to_string(),
                format!(
                    "fails on the unpatched program but is not a declared trigger test ({})",
                    t.failure.unwrap_or_default()
                ),
            ));
        }
        for d in declared_triggers {
            if state
                .tests
                .iter()
                .any(|t| t.passed && t.id.to_string() == *d)
            {
                tracing::warn!("declared trigger test {d} passes on the unpatched program");
            }
        }
    }
    if state.tests.is_empty() {
        return Err(ProjectError::NoTests(join_path(&state.project.test_dirs)));
    }
    let _ = std::fs::remove_file(wd.coverage());
    if mode == BaselineMode::Checked {
        let started = Instant::now();
        coverage = Some(mark_warm(
            &mut workers,
            &run_one,
            &wd.classes(),
            &mut state.tests,
        ));
        tracing::info!("warm pass: {:.1}s", started.elapsed().as_secs_f64());
    }
    if let Some(coverage) = coverage {
        if coverage.methods.is_empty() {
            tracing::warn!("coverage: no project method was seen; every test runs for every set");
        } else {
            tracing::info!(
                "coverage: {} methods, {} of {} tests recorded, {} methods run by enum or interface initialisers",
                coverage.methods.len(),
                coverage.tests.len(),
                state.tests.len(),
                coverage.global.len()
            );
            coverage
                .save(&wd.coverage())
                .map_err(io_err(&wd.coverage()))?;
        }
    }
    // The workers' copies of the project are made again for the training JVM.
    drop(workers);
    let trained = Instant::now();
    match super::archive::make(wd, &state) {
        Ok(path) => tracing::info!(
            "class-data archive for the workers: {:.1} MB in {:.1}s",
            std::fs::metadata(&path).map_or(0.0, |m| m.len() as f64 / 1e6),
            trained.elapsed().as_secs_f64()
        ),
        Err(why) => tracing::warn!("workers run without a class-data archive: {why}"),
    }
    state.init_seconds = started.elapsed().as_secs_f64();
    wd.save(&state).map_err(io_err(&wd.state()))?;
    Ok(state)
}

/// Binary names of top-level classes below a class directory.
fn test_class_names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e
                .path()
                .strip_prefix(dir)
                .ok()?
                .to_string_lossy()
                .to_string();
            let name = rel.strip_suffix(".class")?;
            (!name.contains('$')).then(|| name.replace('/', "."))
        })
        .collect();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    #[test]
    fn timeout_formula() {
        assert_eq!(super::timeout_for(0.0), 5000);
        assert_eq!(super::timeout_for(100.0), 5150);
    }
}
