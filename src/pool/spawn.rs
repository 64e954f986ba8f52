//! Starting the workers of a work dir: the worker configuration (the patchval executable, the
//! JDK, the agent and JUnit on the system class path, the JVM options) and the workers'
//! class-data archive when `init` made one for exactly that configuration (`init::archive` makes
//! it), each worker in its own copy of the project.

use super::{PoolError, Worker, WorkerConfig};
use crate::project::Project;
use crate::toolchain::{default_jvm_options, join_path, Toolchain, WORKER_JIT};
use crate::workdir::WorkDir;
use std::path::{Path, PathBuf};

/// Why a worker could not be started.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot find the patchval executable to start a worker with")]
    NoExe,
    #[error("{0}: copying the project panicked")]
    CopyPanicked(PathBuf),
    #[error(transparent)]
    Pool(#[from] PoolError),
}

/// A worker thread's worker would not start (kept for the thread's life, and shared by every set
/// that asks for it).
#[derive(Debug, Clone, thiserror::Error)]
#[error("cannot start a worker: {0}")]
pub struct NoWorker(pub std::sync::Arc<SpawnError>);

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> SpawnError + '_ {
    move |source| SpawnError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The worker configuration for a work directory (used by init and run alike), with the
/// class-data archive (`project/archive.rs`) when one was made for exactly this configuration.
pub fn worker_config(
    wd: &WorkDir,
    project: &Project,
    tools: &Toolchain,
    id: usize,
) -> Result<WorkerConfig, SpawnError> {
    let mut config = config_without_archive(wd, project, tools, id)?;
    if let Some(o) = option_for(
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
) -> Result<Worker, SpawnError> {
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
        Err(_) => return Err(SpawnError::CopyPanicked(dest)),
    }
    Ok(worker?)
}

/// As [`worker_config`], without the class-data archive (for the JVM that makes it).
/// This program, to start again as a worker (or as `init`, for `bench`): `PATCHVAL_EXE`, else
/// `/proc/self/exe`, which names this very program even after its file is replaced (a rebuild or
/// an upgrade while a run goes on), where `current_exe` would name a deleted path.
pub(crate) fn self_exe() -> Option<PathBuf> {
    let proc_self = Path::new("/proc/self/exe");
    std::env::var_os("PATCHVAL_EXE")
        .map(PathBuf::from)
        .or_else(|| proc_self.exists().then(|| proc_self.to_path_buf()))
        .or_else(|| std::env::current_exe().ok())
}

pub(crate) fn config_without_archive(
    wd: &WorkDir,
    project: &Project,
    tools: &Toolchain,
    id: usize,
) -> Result<WorkerConfig, SpawnError> {
    let agent = crate::agent::extract(&wd.runtime()).map_err(io_err(&wd.runtime()))?;
    let exe = self_exe().ok_or(SpawnError::NoExe)?;
    let mut jvm_options = default_jvm_options();
    jvm_options.push(WORKER_JIT.to_string());
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

/// The archive of work dir `wd`.
pub fn archive(wd: &WorkDir) -> PathBuf {
    wd.runtime().join("worker.jsa")
}

/// What the archive was made for: the JDK, the class path (each entry's size and modification
/// time) and the JVM options. The JVM checks the JDK and the class path itself and ignores an
/// archive that does not match; the stamp keeps a stale archive from being offered at all.
pub(crate) fn fingerprint(java_home: &Path, class_path: &str, jvm_options: &[String]) -> String {
    let mut s = format!("java_home\t{}\n", java_home.display());
    for entry in std::env::split_paths(class_path) {
        let meta = std::fs::metadata(&entry).ok();
        let size = meta.as_ref().map_or(0, |m| m.len());
        let mtime = meta
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        s.push_str(&format!(
            "class_path\t{}\t{size}\t{mtime}\n",
            entry.display()
        ));
    }
    for o in jvm_options {
        s.push_str(&format!("option\t{o}\n"));
    }
    s
}

pub(crate) fn stamp(wd: &WorkDir) -> PathBuf {
    wd.runtime().join("worker.jsa.stamp")
}

/// The JVM option that maps the archive, when one was made for exactly this class path, JDK and
/// option list.
pub fn option_for(
    wd: &WorkDir,
    java_home: &Path,
    class_path: &str,
    jvm_options: &[String],
) -> Option<String> {
    let path = archive(wd);
    let made_for = std::fs::read_to_string(stamp(wd)).ok()?;
    (path.is_file() && made_for == fingerprint(java_home, class_path, jvm_options))
        .then(|| format!("-XX:SharedArchiveFile={}", path.display()))
}
