//! The worker pool seen from the parent: spawning `patchval worker` processes, talking to them
//! over pipes, and owning timeouts (a hung request kills the worker's process group and respawns it).

pub mod plain;
pub mod protocol;
pub mod spawn;

use crate::rules::clock::{Limit, TestThread};
use protocol::{Request, Response};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How to start a worker.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// The patchval executable (normally the running one).
    pub exe: PathBuf,
    pub java_home: PathBuf,
    /// Class path of the worker JVM's system loader: agent jar and JUnit.
    pub class_path: String,
    pub jvm_options: Vec<String>,
    /// Directory the worker runs in (tests that write relative files write here).
    pub cwd: PathBuf,
    /// Where the worker's stderr (and the tests' output) goes.
    pub log: PathBuf,
}

/// A started worker: its process, the pipes, how long its start took, and its test thread.
type Launched = (
    Child,
    ChildStdin,
    Receiver<Line>,
    Duration,
    Option<TestThread>,
);

/// The thread id a worker's ready line names (`ready ... tid=N`).
fn ready_thread(lines: &[String]) -> Option<u32> {
    lines
        .first()?
        .split_whitespace()
        .find_map(|w| w.strip_prefix("tid=")?.parse().ok())
}

/// Why a request did not produce an answer.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    #[error("worker timed out after {0:?} and was restarted")]
    Timeout(Duration),
    #[error("worker died ({0}) and was restarted")]
    Died(String),
    /// The worker broke the protocol (a line that is not a response); it was restarted.
    #[error("worker broke the protocol ({0}) and was restarted")]
    Protocol(String),
    /// The worker reported a fault of its own during the request (a panic inside a native); its
    /// state cannot be trusted, so it was restarted.
    #[error("worker fault ({0}); the worker was restarted")]
    Fault(String),
    #[error("cannot start worker: {0}")]
    Spawn(String),
    #[error("worker error: {0}")]
    Agent(String),
}

/// A line from a worker's stdout that is not a response.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    #[error("bad response `{line}`: {source}")]
    NotAResponse {
        line: String,
        source: serde_json::Error,
    },
    #[error("{0}")]
    Read(std::io::Error),
}

/// What the reader thread hands on for each line of a worker's stdout.
type Line = Result<Response, LineError>;

/// One live worker process.
pub struct Worker {
    config: WorkerConfig,
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Line>,
    /// JVM starts by this handle so far (1 + restarts).
    pub jvm_starts: u32,
    /// Time the last JVM start took.
    pub last_start: Duration,
    /// The worker's thread that serves requests (and runs the tests), as its ready line says.
    thread: Option<TestThread>,
}

impl Worker {
    /// Starts a worker and waits for its JVM to be ready.
    pub fn spawn(config: WorkerConfig) -> Result<Worker, PoolError> {
        let (child, stdin, rx, took, thread) = Self::launch(&config)?;
        Ok(Worker {
            config,
            child,
            stdin,
            rx,
            jvm_starts: 1,
            last_start: took,
            thread,
        })
    }

    fn launch(config: &WorkerConfig) -> Result<Launched, PoolError> {
        let t = Instant::now();
        std::fs::create_dir_all(&config.cwd).map_err(|e| PoolError::Spawn(e.to_string()))?;
        if let Some(dir) = config.log.parent() {
            std::fs::create_dir_all(dir).map_err(|e| PoolError::Spawn(e.to_string()))?;
        }
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&config.log)
            .map_err(|e| PoolError::Spawn(format!("{}: {e}", config.log.display())))?;
        let mut cmd = Command::new(&config.exe);
        cmd.arg("worker")
            .arg("--java-home")
            .arg(&config.java_home)
            .arg("--class-path")
            .arg(&config.class_path);
        for o in &config.jvm_options {
            cmd.arg(format!("--jvm-opt={o}"));
        }
        cmd.current_dir(&config.cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log))
            .process_group(0);
        let mut child = cmd
            .spawn()
            .map_err(|e| PoolError::Spawn(format!("{}: {e}", config.exe.display())))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let msg = match line {
                    Ok(line) => serde_json::from_str::<Response>(&line)
                        .map_err(|source| LineError::NotAResponse { line, source }),
                    Err(e) => Err(LineError::Read(e)),
                };
                if tx.send(msg).is_err() {
                    break;
                }
            }
        });
        let mut w = (child, stdin, rx);
        match w.2.recv_timeout(Duration::from_secs(120)) {
            Ok(Ok(r)) if r.error.is_none() => {
                let thread = ready_thread(&r.lines).map(|tid| TestThread::new(w.0.id(), tid));
                Ok((w.0, w.1, w.2, t.elapsed(), thread))
            }
            Ok(Ok(r)) => {
                kill_group(&mut w.0);
                Err(PoolError::Spawn(r.error.unwrap_or_default()))
            }
            Ok(Err(e)) => {
                kill_group(&mut w.0);
                Err(PoolError::Spawn(e.to_string()))
            }
            Err(_) => {
                kill_group(&mut w.0);
                Err(PoolError::Spawn(format!(
                    "the worker JVM did not start (see {})",
                    config.log.display()
                )))
            }
        }
    }

    /// Sends a request and waits for the answer. On timeout or death the worker is restarted
    /// before the error is returned, so the handle stays usable.
    pub fn call(
        &mut self,
        req: &Request,
        timeout: Option<Duration>,
    ) -> Result<Response, PoolError> {
        self.call_streaming(req, timeout, |_| true)
    }

    /// Like `call`, for requests answered in several messages: each partial answer goes to
    /// `partial`, which says whether it ends a step: `timeout` applies to each step anew (a tree
    /// round), and messages within a step do not extend it.
    pub fn call_streaming(
        &mut self,
        req: &Request,
        timeout: Option<Duration>,
        mut partial: impl FnMut(Response) -> bool,
    ) -> Result<Response, PoolError> {
        let line = serde_json::to_string(req).expect("requests serialize");
        if writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .is_err()
        {
            let why = self.exit_status();
            self.restart()?;
            return Err(PoolError::Died(why));
        }
        // Each step's limit runs on the worker's test thread (`rules::clock`).
        let start = |t: Duration| Limit::start(self.thread.as_ref(), t);
        let mut limit = timeout.map(start);
        loop {
            let got = match &limit {
                Some(l) => match l.left() {
                    Some(left) => self.rx.recv_timeout(left),
                    None => Err(RecvTimeoutError::Timeout),
                },
                None => self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            return match got {
                Ok(Ok(resp)) if resp.partial => {
                    if partial(resp) {
                        limit = timeout.map(start);
                    }
                    continue;
                }
                // Not there yet on the test thread's clock: look again.
                Err(RecvTimeoutError::Timeout)
                    if limit.as_ref().is_some_and(|l| l.left().is_some()) =>
                {
                    continue;
                }
                Ok(Ok(mut resp)) => match (resp.fault.take(), resp.error.take()) {
                    (Some(fault), _) => {
                        self.restart()?;
                        Err(PoolError::Fault(fault))
                    }
                    (None, Some(e)) => Err(PoolError::Agent(e)),
                    (None, None) => {
                        if tracing::enabled!(tracing::Level::TRACE) {
                            let op = req.agent_args().into_iter().next().unwrap_or_default();
                            tracing::trace!(
                                "{op}: {:.1} ms on the worker",
                                resp.micros as f64 / 1000.0
                            );
                        }
                        Ok(resp)
                    }
                },
                Ok(Err(e)) => {
                    self.restart()?;
                    Err(PoolError::Protocol(e.to_string()))
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.restart()?;
                    Err(PoolError::Timeout(timeout.unwrap_or_default()))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let why = self.exit_status();
                    self.restart()?;
                    Err(PoolError::Died(why))
                }
            };
        }
    }

    fn exit_status(&mut self) -> String {
        match self.child.wait() {
            Ok(s) => s.to_string(),
            Err(e) => e.to_string(),
        }
    }

    /// Kills the worker's process group and starts a new worker with the same configuration.
    pub fn restart(&mut self) -> Result<(), PoolError> {
        kill_group(&mut self.child);
        let (child, stdin, rx, took, thread) = Self::launch(&self.config)?;
        self.child = child;
        self.stdin = stdin;
        self.rx = rx;
        self.thread = thread;
        self.jvm_starts += 1;
        self.last_start = took;
        Ok(())
    }

    /// The directory the worker runs in.
    pub fn cwd(&self) -> &Path {
        &self.config.cwd
    }

    /// A plain JVM ([`plain::run_from`]) as this worker's configuration starts one: its JDK,
    /// system class path, directory and JVM options less the workers' class-data archive and JIT
    /// (a plain JVM is the plain technique's, which has neither), for `tests` on the given test
    /// class paths.
    pub fn plain_jvm<'a>(
        &self,
        unpatched: &[String],
        patched: &[String],
        tests: &'a [crate::workdir::TestRecord],
    ) -> plain::PlainJvm<'a> {
        plain::PlainJvm {
            java: self.config.java_home.join("bin/java"),
            jvm_options: plain_options(&self.config.jvm_options),
            class_path: self.config.class_path.clone(),
            unpatched: unpatched.join(":"),
            patched: patched.join(":"),
            cwd: self.config.cwd.clone(),
            tests,
            go_on: false,
        }
    }
}

/// A worker's JVM options as a plain JVM gets them: without the class-data archive, and without
/// the JIT option the worker configuration added (a project's own options stay, that one
/// included).
fn plain_options(worker: &[String]) -> Vec<String> {
    let jit = worker
        .iter()
        .position(|o| o == crate::toolchain::WORKER_JIT);
    worker
        .iter()
        .enumerate()
        .filter(|&(i, o)| Some(i) != jit && !o.starts_with("-XX:SharedArchiveFile="))
        .map(|(_, o)| o.clone())
        .collect()
}

impl Drop for Worker {
    fn drop(&mut self) {
        kill_group(&mut self.child);
    }
}

fn kill_group(child: &mut Child) {
    // SAFETY: sending a signal to the process group this worker leads.
    unsafe {
        libc::killpg(child.id() as libc::pid_t, libc::SIGKILL);
    }
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use crate::toolchain::WORKER_JIT;

    #[test]
    fn plain_jvms_lose_the_archive_and_the_workers_jit_but_not_the_projects_own() {
        let o = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let worker = o(&[
            "-Xss8m",
            WORKER_JIT,
            "-Dx=1",
            WORKER_JIT,
            "-XX:SharedArchiveFile=/a.jsa",
        ]);
        assert_eq!(
            super::plain_options(&worker),
            o(&["-Xss8m", "-Dx=1", WORKER_JIT])
        );
    }
}
