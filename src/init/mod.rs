//! `patchval init`, the pipeline that prepares a work dir, in its order: compile the project's
//! main and test sources (`project::javac`), scan every class a test can load for purity
//! (`bytecode::purity`), discover the tests (`discover`), run the baseline in the warm loader with
//! coverage probes over the workers (`baseline`, `warm_baseline`, spread by `passes`), leave out
//! the tests that depend on their environment (`environment`), save
//! `state.json`, `coverage.json` and `lines.json`, and train the workers' class-data archive (`archive`).

pub mod archive;
pub mod baseline;
pub mod discover;
pub mod environment;
pub mod passes;
pub mod warm_baseline;
mod whole;

use crate::bytecode::classfile::ClassPathError;
use crate::bytecode::jdk_types::read as jdk_types;
use crate::pool::spawn::{spawn_worker, SpawnError};
use crate::project::javac::{copy_resources, Javac};
use crate::project::{Project, ProjectError};
use crate::toolchain::{join_path, Toolchain, ToolchainError};
use crate::workdir::{State, WorkDir};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use warm_baseline::BaselineMode;

/// How long one baseline test may take before it is excluded, unless `init --baseline-timeout`
/// says otherwise.
pub const BASELINE_TIMEOUT: Duration = Duration::from_secs(120);

/// Why `init` could not prepare the work dir.
#[derive(Debug, thiserror::Error)]
pub enum InitError {
    #[error(transparent)]
    Project(#[from] ProjectError),
    #[error(transparent)]
    Toolchain(#[from] ToolchainError),
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}: reading class files for the purity scan: {1}")]
    Purity(PathBuf, ClassPathError),
    #[error("the worker could not list the tests: {0}")]
    Listing(crate::pool::PoolError),
    #[error("no tests found: no runnable JUnit test method in {0}")]
    NoTests(String),
}

impl InitError {
    /// The exit status of a failed `init`.
    pub fn exit_code(&self) -> crate::exit::ExitCode {
        use crate::exit::ExitCode;
        match self {
            InitError::Project(ProjectError::DoesNotCompile { .. }) | InitError::NoTests(_) => {
                ExitCode::Project
            }
            InitError::Project(ProjectError::Javac { .. })
            | InitError::Toolchain(_)
            | InitError::Spawn(_)
            | InitError::Listing(_)
            | InitError::Io { .. }
            | InitError::Purity(..) => ExitCode::Environment,
            InitError::Project(_) => ExitCode::Usage,
        }
    }
}

pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> InitError + '_ {
    move |source| InitError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// How `init` runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// How long one baseline test may take before it is excluded.
    pub baseline_timeout: Duration,
    /// The tests a harness declares to fail on the unpatched program (Defects4J's); empty: any.
    pub declared_triggers: Vec<String>,
    pub mode: BaselineMode,
    /// Workers the baseline's tests are spread over.
    pub jobs: usize,
}

/// Runs the pipeline on `project` and returns what was saved in `wd`.
pub fn init(
    wd: &WorkDir,
    project: Project,
    tools: Toolchain,
    options: &Options,
) -> Result<State, InitError> {
    let started = Instant::now();
    compile(wd, &project, &tools)?;
    // Every class a test run can load: a test class may override a main method or run a mock
    // library that generates subclasses (docs/deduplication.md).
    let own = [wd.classes(), wd.test_classes()];
    let jdk = jdk_types(&tools.java_home);
    let purity = crate::bytecode::purity::scan_project(&own, &project.classpath, &jdk)
        .map_err(|e| InitError::Purity(wd.classes(), e))?;
    let (pure, impure) = purity.summary();
    tracing::info!(
        "purity scan: {pure} pure and {impure} impure methods; {}",
        match purity.frames_unread() {
            true => "no project method reads the stack or keeps a throwable",
            false => "a project method may read the stack or keep a throwable",
        }
    );
    let left_out: Vec<(String, String)> = project
        .test_sources()
        .1
        .into_iter()
        .map(|(file, pattern)| {
            let why = format!("test source excluded by `{pattern}`, not compiled");
            tracing::info!("{}: {why}", file.display());
            (file.display().to_string(), why)
        })
        .collect();
    let mut state = State {
        project,
        tools,
        tests: vec![],
        excluded: left_out,
        purity,
        init_seconds: 0.0,
    };
    let mut worker = spawn_worker(wd, &state.project, &state.tools, 0)?;
    let ids = discover::tests(wd, &mut state, &mut worker, options.baseline_timeout)?;
    // The passes over the tests run on `jobs` workers, each on its own part of the list.
    let mut workers = vec![worker];
    for id in 1..options.jobs.max(1) {
        match spawn_worker(wd, &state.project, &state.tools, id) {
            Ok(w) => workers.push(w),
            Err(e) => {
                tracing::warn!("init goes on with {id} workers: starting another failed: {e}");
                break;
            }
        }
    }
    let coverage = baseline::run(wd, &mut state, &mut workers, ids, options);
    let agent_jar = crate::agent::extract(&wd.runtime()).map_err(io_err(&wd.runtime()))?;
    environment::check(wd, &mut state, &agent_jar);
    if state.tests.is_empty() {
        return Err(InitError::NoTests(join_path(&state.project.test_dirs)));
    }
    let _ = std::fs::remove_file(wd.coverage());
    let _ = std::fs::remove_file(wd.lines());
    if let Some(coverage) = coverage {
        if !coverage.lines.tests.is_empty() {
            tracing::info!(
                "line coverage (for `locate`): {} lines, {} tests",
                coverage.lines.lines.len(),
                coverage.lines.tests.len()
            );
            coverage
                .lines
                .save(&wd.lines())
                .map_err(io_err(&wd.lines()))?;
        }
        if coverage.methods.is_empty() {
            tracing::warn!("coverage: no project method was seen; every test runs for every set");
        } else {
            tracing::info!(
                "coverage: {} methods, {} of {} tests recorded, {} methods run by enum or \
                 interface initialisers",
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
    match archive::make(wd, &state) {
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

/// Compiles the project's main and test sources into the work dir (resources copied beside
/// them); a project that does not compile is the error.
fn compile(wd: &WorkDir, project: &Project, tools: &Toolchain) -> Result<(), InitError> {
    std::fs::create_dir_all(&wd.root).map_err(io_err(&wd.root))?;
    for d in [wd.classes(), wd.test_classes()] {
        if d.exists() {
            std::fs::remove_dir_all(&d).map_err(io_err(&d))?;
        }
    }
    let scratch = wd.root.join("tmp");
    let (main_sources, left_out) = project.main_sources();
    for (file, pattern) in left_out {
        tracing::info!(
            "{}: main source excluded by `{pattern}`, not compiled",
            file.display()
        );
    }
    if main_sources.is_empty() {
        return Err(ProjectError::DoesNotCompile {
            what: "no Java sources".into(),
            errors: format!("no .java files below {}", join_path(&project.source_dirs)),
        }
        .into());
    }
    tracing::info!("compiling {} source files", main_sources.len());
    // Two compiles of many files: javac's class-data archive would cost more to make than
    // it saves here (project::javac).
    let javac = Javac {
        tools,
        project,
        scratch: &scratch,
        runtime: None,
    };
    javac.compile_or_fail(
        "main sources",
        &project.classpath,
        &wd.classes(),
        &main_sources,
    )?;
    copy_resources(&project.resource_dirs, &project.source_dirs, &wd.classes())?;
    let (test_sources, _) = project.test_sources();
    let mut test_cp = vec![wd.classes()];
    test_cp.extend(project.classpath.iter().cloned());
    test_cp.extend(tools.junit.iter().cloned());
    tracing::info!("compiling {} test files", test_sources.len());
    javac.compile_or_fail("test sources", &test_cp, &wd.test_classes(), &test_sources)?;
    copy_resources(
        &project.test_resource_dirs,
        &project.test_dirs,
        &wd.test_classes(),
    )?;
    Ok(())
}
