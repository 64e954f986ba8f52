//! The workers' class-data archive (CDS): made at `init` by a training JVM that compiles a project
//! file and runs a test as a worker would, then used by every worker JVM whose class path and
//! options it was made for, so that javac, JUnit and the agent load from the archive.

use crate::compile::{compile_classpath, CompileSetup};
use crate::pool::protocol::Request;
use crate::pool::spawn::{archive, fingerprint, stamp, SpawnError};
use crate::pool::WorkerConfig;
use crate::protocol::{class, select};
use crate::workdir::{State, WorkDir};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Why no class-data archive was made (the workers then run without one).
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Config(#[from] SpawnError),
    #[error("a request field cannot be written one per line: {0:?}")]
    Field(String),
    #[error("cannot start {java}: {source}")]
    Start {
        java: PathBuf,
        source: std::io::Error,
    },
    #[error("waiting for the training JVM: {0}")]
    Wait(std::io::Error),
    #[error("the training JVM ran past {0}s")]
    Timeout(u64),
    #[error("the training JVM ended with {status} and no archive (see {log})")]
    NoArchive { status: ExitStatus, log: PathBuf },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ArchiveError + '_ {
    move |source| ArchiveError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Makes the archive for the workers of `state` (after the baseline): the training JVM compiles
/// the project's largest main source file as the schemata are compiled, and runs the first
/// passing test of the baseline (under 2 s) in a fresh and in a warm loader.
pub fn make(wd: &WorkDir, state: &State) -> Result<PathBuf, ArchiveError> {
    let config = crate::pool::spawn::config_without_archive(wd, &state.project, &state.tools, 0)?;
    wd.copy_project(0, &state.project.root)
        .map_err(io_err(&wd.worker_project(0)))?;
    let agent_jar = crate::agent::extract(&wd.runtime()).map_err(io_err(&wd.runtime()))?;
    let mut requests = Vec::new();
    let largest = state
        .project
        .main_sources()
        .0
        .into_iter()
        .filter_map(|f| Some((std::fs::metadata(&f).ok()?.len(), f)))
        .max();
    if let Some((_, file)) = largest {
        let scratch = wd.root.join("tmp").join("cds-train");
        let source = scratch
            .join("src")
            .join(file.file_name().unwrap_or_default());
        let overlay = scratch.join("classes");
        for d in [source.parent().unwrap_or(&scratch), &overlay] {
            std::fs::create_dir_all(d).map_err(io_err(d))?;
        }
        std::fs::copy(&file, &source).map_err(io_err(&file))?;
        let setup = CompileSetup {
            source: source.clone(),
            overlay,
            classpath: compile_classpath(&wd.classes(), &state.project.classpath, &agent_jar),
            release: state.project.release.clone(),
            encoding: state.project.encoding.clone(),
        };
        requests.push(Request::Compile {
            options: setup.options(),
            files: vec![source.display().to_string()],
            prunable: vec![],
            unused: vec![],
        });
    }
    if let Some(t) = state.tests.iter().find(|t| t.passed && t.millis < 2000.0) {
        for warm in [false, true] {
            requests.push(Request::RunTest {
                classpath: wd.test_classpath(state, None),
                test: t.id.clone(),
                patch: select::NONE,
                warm,
                coverage: None,
            });
        }
    }
    train(wd, &config, &requests, Duration::from_secs(120))
}

/// Makes the archive for workers started with `config` (whose options must not map an archive
/// already): a JVM with the same class path and options serves `requests` and dumps the classes
/// it loaded when it exits. Returns why when no archive was made; workers then run without one.
pub fn train(
    wd: &WorkDir,
    config: &WorkerConfig,
    requests: &[Request],
    limit: Duration,
) -> Result<PathBuf, ArchiveError> {
    let dir = wd.runtime();
    let path = archive(wd);
    let _ = std::fs::remove_file(stamp(wd));
    let _ = std::fs::remove_file(&path);
    let listing = dir.join("cds-train.requests");
    let mut text = String::new();
    for r in requests {
        for field in r.agent_args() {
            if field.is_empty() || field.contains('\n') {
                return Err(ArchiveError::Field(field));
            }
            text.push_str(&field);
            text.push('\n');
        }
        text.push('\n');
    }
    std::fs::write(&listing, text).map_err(io_err(&listing))?;
    let partial = dir.join(format!(".worker.jsa.{}", std::process::id()));
    let _ = std::fs::remove_file(&partial);
    let log_path = wd.logs().join("cds-train.log");
    let log = std::fs::File::create(&log_path).map_err(io_err(&log_path))?;
    let mut child = Command::new(config.java_home.join("bin/java"))
        .args(&config.jvm_options)
        .arg(format!("-XX:ArchiveClassesAtExit={}", partial.display()))
        .arg("-cp")
        .arg(&config.class_path)
        .arg(class::CDS_TRAIN)
        .arg(&listing)
        .current_dir(&config.cwd)
        .stdin(Stdio::null())
        .stdout(log.try_clone().map_err(io_err(&log_path))?)
        .stderr(log)
        .process_group(0)
        .spawn()
        .map_err(|source| ArchiveError::Start {
            java: config.java_home.join("bin/java"),
            source,
        })?;
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < limit => std::thread::sleep(Duration::from_millis(50)),
            Ok(None) => {
                // SAFETY: signalling the process group this child leads.
                unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
                let _ = child.wait();
                let _ = std::fs::remove_file(&partial);
                return Err(ArchiveError::Timeout(limit.as_secs()));
            }
            Err(e) => return Err(ArchiveError::Wait(e)),
        }
    };
    if !status.success() || !partial.is_file() {
        let _ = std::fs::remove_file(&partial);
        return Err(ArchiveError::NoArchive {
            status,
            log: log_path,
        });
    }
    std::fs::rename(&partial, &path).map_err(io_err(&path))?;
    let made_for = fingerprint(&config.java_home, &config.class_path, &config.jvm_options);
    std::fs::write(stamp(wd), made_for).map_err(io_err(&stamp(wd)))?;
    Ok(path)
}
