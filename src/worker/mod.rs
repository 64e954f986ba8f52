//! The worker process (`patchval worker`): embeds one JVM and serves requests from the parent.

pub mod fault;
pub mod jvm;
pub mod session;
pub mod tree;

use crate::pool::protocol::{Request, Response};
use crate::protocol::{self, op, select};
use fault::{Injection, Kind};
use jvm::{select_patch, take_native_fault, Jvm};
use std::io::{BufRead, Write};
use std::os::fd::FromRawFd;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Why the worker loop ended before the parent closed its stdin.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    #[error("cannot redirect stdout")]
    Redirect,
    #[error(transparent)]
    Jvm(#[from] jvm::JvmError),
    #[error("writing to the parent: {0}")]
    Send(std::io::Error),
    #[error("a response that cannot be written as JSON: {0}")]
    Encode(serde_json::Error),
    #[error("reading from the parent: {0}")]
    Receive(std::io::Error),
}

/// The protocol's end of the pipe to the parent: whole JSON lines, from the request loop and from
/// the natives of a running test alike.
#[derive(Clone)]
struct Protocol(Arc<Mutex<std::io::BufWriter<std::fs::File>>>);

impl Protocol {
    fn send(&self, r: &Response) -> Result<(), WorkerError> {
        let line = serde_json::to_string(r).map_err(WorkerError::Encode)?;
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(out, "{line}")
            .and_then(|_| out.flush())
            .map_err(WorkerError::Send)
    }
}

/// Runs the worker loop until the parent closes stdin. Returns an error message if the JVM could not start.
pub fn serve(
    java_home: &Path,
    class_path: &str,
    jvm_options: &[String],
) -> Result<(), WorkerError> {
    exit_with_parent();
    // Keep the protocol on a private copy of stdout; anything the tests print goes to stderr.
    // SAFETY: plain fd juggling on fds this process owns.
    let proto_fd = unsafe {
        let fd = libc::dup(1);
        if fd < 0 || libc::dup2(2, 1) < 0 {
            return Err(WorkerError::Redirect);
        }
        fd
    };
    // SAFETY: `proto_fd` was just created by dup and is owned by this File alone.
    let out = Protocol(Arc::new(Mutex::new(std::io::BufWriter::new(unsafe {
        std::fs::File::from_raw_fd(proto_fd)
    }))));
    let narrow_out = out.clone();
    let inject_out = out.clone();
    let mut send = move |r: &Response| out.send(r);
    // A tree round tells the parent the class it follows, so that a round the parent has to stop
    // (a timeout) is attributed to that class; these messages do not extend the round's time.
    session::on_narrow(Some(Box::new(move |class: &[u32]| {
        let ids: Vec<String> = class.iter().map(|p| p.to_string()).collect();
        let _ = narrow_out.send(&Response {
            partial: true,
            lines: vec![protocol::tree::PATH.into(), ids.join(",")],
            micros: 0,
            error: None,
            fault: None,
        });
    })));

    let started = Instant::now();
    let jvm = match Jvm::start(java_home, class_path, jvm_options) {
        Ok(j) => j,
        Err(e) => {
            let _ = send(&failure(e.to_string()));
            return Err(e.into());
        }
    };
    // Tests that call System.exit fail instead of ending the worker (best effort on newer JDKs).
    let guard = jvm
        .call(&[op::INSTALL_EXIT_GUARD.to_string()])
        .unwrap_or_default();
    // The JDK classes the runtime's stack-trace code uses, initialised here rather than at the
    // end of some run's stack, where an overflow would leave them failed for the JVM's life.
    if let Err(e) = jvm.call(&[op::PRIME_STACK_TRACES.to_string()]) {
        tracing::warn!("priming the stack-trace code: {e}");
    }
    send(&Response {
        partial: false,
        // The thread that serves requests and runs the tests, whose run-queue delay the parent's
        // time limits subtract (`rules::clock`).
        lines: vec![format!(
            "ready exit-guard={} tid={}",
            guard.join(""),
            // SAFETY: gettid has no preconditions.
            unsafe { libc::gettid() }
        )],
        micros: started.elapsed().as_micros() as u64,
        error: None,
        fault: None,
    })?;

    let mut injection = Injection::from_env();
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line.map_err(WorkerError::Receive)?;
        if line.trim().is_empty() {
            continue;
        }
        let t = Instant::now();
        let resp = match serde_json::from_str::<Request>(&line) {
            Err(e) => failure(format!("bad request: {e}")),
            Ok(req) => {
                if let Some(kind) = injection.as_mut().and_then(|i| i.due(&req)) {
                    inject(kind, &inject_out)?;
                }
                match &req {
                    Request::RunTree {
                        patches,
                        capture_budget_ms,
                        ..
                    } => run_tree(
                        &jvm,
                        &req.agent_args(),
                        patches.clone(),
                        std::time::Duration::from_millis(*capture_budget_ms),
                        &mut send,
                    )?,
                    Request::RunTest { patch, .. } => {
                        select_patch(*patch);
                        let mut resp = answer(jvm.call(&req.agent_args()), t);
                        resp.fault = take_native_fault();
                        resp
                    }
                    _ => answer(jvm.call(&req.agent_args()), t),
                }
            }
        };
        send(&resp)?;
    }
    Ok(())
}

/// Fails the current request the way `PATCHVAL_FAULT` asked (see `worker::fault`); returns when
/// the request should then be served as usual.
fn inject(kind: Kind, out: &Protocol) -> Result<(), WorkerError> {
    match kind {
        Kind::Sigkill => {
            // SAFETY: signalling this very process.
            unsafe {
                libc::kill(libc::getpid(), libc::SIGKILL);
            }
            Ok(())
        }
        Kind::Garbage => {
            let mut w = out.0.lock().unwrap_or_else(|e| e.into_inner());
            writeln!(
                w,
                "patchval fault injection: this line is not a response {{"
            )
            .and_then(|_| w.flush())
            .map_err(WorkerError::Send)
        }
        Kind::Slow => loop {
            // Until the parent's timeout kills this worker.
            std::thread::sleep(std::time::Duration::from_secs(3600));
        },
        Kind::Panic => {
            jvm::panic_in_next_native();
            Ok(())
        }
    }
}

fn failure(message: String) -> Response {
    Response {
        partial: false,
        lines: vec![],
        micros: 0,
        error: Some(message),
        fault: None,
    }
}

fn answer(result: Result<Vec<String>, jvm::JvmError>, since: Instant) -> Response {
    let micros = since.elapsed().as_micros() as u64;
    match result {
        Ok(lines) => Response {
            partial: false,
            lines,
            micros,
            error: None,
            fault: None,
        },
        Err(e) => Response {
            partial: false,
            lines: vec![],
            micros,
            error: Some(e.to_string()),
            fault: None,
        },
    }
}

/// Runs rounds of one test until its tree is explored, sending `ROUND <result> <patches>` after
/// each (and `PATH <patches>` during one, from the session) and `DONE <rounds> <classes>
/// <unstable reason> <captures>` at the end.
fn run_tree(
    jvm: &Jvm,
    args: &[String],
    patches: Vec<u32>,
    budget: std::time::Duration,
    send: &mut impl FnMut(&Response) -> Result<(), WorkerError>,
) -> Result<Response, WorkerError> {
    let started = Instant::now();
    session::tree(patches, budget);
    let mut unstable = String::new();
    while session::needs_round() {
        let t = Instant::now();
        session::start_round();
        let result = match jvm.call(args) {
            Ok(lines) => lines.into_iter().next().unwrap_or_default(),
            Err(e) => {
                session::sequential(select::NONE);
                return Ok(answer(Err(e), started));
            }
        };
        if let Some(why) = take_native_fault() {
            session::sequential(select::NONE);
            let mut resp = answer(Ok(vec![]), started);
            resp.fault = Some(why);
            return Ok(resp);
        }
        match session::finish_round() {
            Ok(decided) => {
                let ids: Vec<String> = decided.iter().map(|p| p.to_string()).collect();
                send(&Response {
                    partial: true,
                    lines: vec![protocol::tree::ROUND.into(), result, ids.join(",")],
                    micros: t.elapsed().as_micros() as u64,
                    error: None,
                    fault: None,
                })?;
            }
            Err(e) => {
                unstable = e.0;
                break;
            }
        }
    }
    let (rounds, classes, captures) = session::counts();
    session::sequential(select::NONE);
    Ok(Response {
        partial: false,
        lines: vec![
            protocol::tree::DONE.into(),
            rounds.to_string(),
            classes.to_string(),
            unstable,
            captures.to_string(),
        ],
        micros: started.elapsed().as_micros() as u64,
        error: None,
        fault: None,
    })
}

/// Ends this worker (its whole process group: the JVM and whatever a test started) soon after
/// the parent is gone, even in the middle of a test: a parent killed with SIGKILL cannot stop its
/// workers, and a worker left running would go on writing in the work dir that the next run
/// (`run --resume`) uses.
fn exit_with_parent() {
    // SAFETY: getppid has no preconditions.
    let parent = unsafe { libc::getppid() };
    std::thread::spawn(move || loop {
        std::thread::sleep(std::time::Duration::from_millis(200));
        // SAFETY: getppid has no preconditions; kill(0, …) signals this process's own group.
        if unsafe { libc::getppid() } != parent {
            unsafe { libc::kill(0, libc::SIGKILL) };
        }
    });
}
