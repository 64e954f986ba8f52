//! `patchval serve`, a long-lived validator for repair loops: JSON lines in (stdin, or each
//! connection to a Unix socket), JSON lines out, the way language servers and test adapters talk
//! to their clients. One `Validator` holds the workers, their JVMs, the loaded classes and the
//! warm compiler between requests; records and resume keys are `run`'s.
//!
//! Requests carry an `id` (any JSON value) and an `op`:
//! - `validate`: `set`, a manifest-v3 patch set;
//! - `patch`: one patch, `file` (below the project root), `unpatched` text or `line`, `patched`;
//! - `diff`: `diff`, a unified diff (one patch);
//! - `cancel`: `target`, the id of a request whose queued sets are dropped;
//! - `status`: what is queued and done;
//! - `shutdown`: no more requests; those in flight finish, then the server ends.
//!
//! Each patch's outcome is a line as soon as it is known (`"event": "patch"`, with its index,
//! verdict, failing test, detail and test times), and a request ends with `"event": "done"`; a
//! request that cannot be taken gets `"event": "error"` with its id (or null) and the server goes
//! on. EOF or SIGTERM shuts down the same way as `shutdown`.

use crate::core::{Event, Next, Options, Submission, Validator};
use crate::model::Outcome;
use crate::workdir::WorkDir;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Where responses go: one writer at a time, each line flushed.
type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn send(out: &Out, v: Value) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    // A client that went away loses its answers; the server goes on for the others.
    let _ = writeln!(w, "{v}").and_then(|()| w.flush());
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Core(#[from] crate::core::CoreError),
    #[error("{path}: {source}")]
    Socket {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

impl ServeError {
    pub fn exit_code(&self) -> crate::exit::ExitCode {
        match self {
            ServeError::Core(e) => e.exit_code(),
            ServeError::Socket { .. } => crate::exit::ExitCode::Environment,
        }
    }
}

/// Requests in flight, by id, for `cancel` and `status`.
#[derive(Default)]
struct InFlight {
    subs: HashMap<String, Arc<Submission>>,
}

/// The server's state shared by its connections.
struct Server {
    validator: Validator,
    inflight: Mutex<InFlight>,
    shutting_down: AtomicBool,
    forwarders: Mutex<Vec<std::thread::JoinHandle<()>>>,
}

/// Serves requests from stdin (or, with `socket`, from each connection to that Unix socket)
/// until EOF, `shutdown` or SIGTERM.
pub fn serve(wd: &WorkDir, options: Options, socket: Option<&Path>) -> Result<(), ServeError> {
    let options = Options {
        warm_up: true,
        progress: false,
        ..options
    };
    let validator = Validator::open(wd, options, std::env::args().collect())?;
    let _active = crate::stop::watch_graceful(&validator.record_dir());
    let server = Arc::new(Server {
        validator,
        inflight: Mutex::default(),
        shutting_down: AtomicBool::new(false),
        forwarders: Mutex::default(),
    });
    match socket {
        None => {
            let out: Out = Arc::new(Mutex::new(Box::new(std::io::stdout())));
            connection(
                &server,
                Box::new(std::io::BufReader::new(std::io::stdin())),
                &out,
                true,
            );
        }
        Some(path) => listen(&server, path)?,
    }
    shutdown(server)
}

/// Accepts connections on the Unix socket at `path`, each served on a thread of its own.
fn listen(server: &Arc<Server>, path: &Path) -> Result<(), ServeError> {
    let err = |source| ServeError::Socket {
        path: path.to_path_buf(),
        source,
    };
    let _ = std::fs::remove_file(path);
    let listener = std::os::unix::net::UnixListener::bind(path).map_err(err)?;
    listener.set_nonblocking(true).map_err(err)?;
    tracing::info!("serving on {}", path.display());
    let mut conns = Vec::new();
    while !server.stopping() {
        match listener.accept() {
            Ok((stream, _)) => {
                let _ = stream.set_nonblocking(false);
                let Ok(reader) = stream.try_clone() else {
                    continue;
                };
                let out: Out = Arc::new(Mutex::new(Box::new(stream)));
                let server = server.clone();
                conns.push(std::thread::spawn(move || {
                    connection(
                        &server,
                        Box::new(std::io::BufReader::new(reader)),
                        &out,
                        false,
                    )
                }));
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(err(e)),
        }
    }
    for c in conns {
        let _ = c.join();
    }
    let _ = std::fs::remove_file(path);
    Ok(())
}

impl Server {
    /// `shutdown`, EOF on stdin, or SIGTERM/SIGINT.
    fn stopping(&self) -> bool {
        self.shutting_down.load(Ordering::SeqCst) || crate::stop::requested()
    }

    /// No request in flight.
    fn idle(&self) -> bool {
        self.inflight
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .subs
            .is_empty()
    }
}

/// Reads one client's requests until EOF or shutdown; with `eof_ends`, the client's EOF shuts
/// the server down (stdin), else only ends the connection (a socket client).
fn connection(server: &Arc<Server>, input: Box<dyn BufRead + Send>, out: &Out, eof_ends: bool) {
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    // The reader blocks on input: it runs apart, so SIGTERM is seen while a client is silent.
    std::thread::spawn(move || {
        for line in input.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    loop {
        // Shutting down: requests still coming get an error until those in flight are done.
        if server.stopping() && server.idle() {
            // Requests the client wrote before it saw the end are answered (with an error).
            while let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
                if !line.trim().is_empty() {
                    request(server, &line, out);
                }
            }
            break;
        }
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(line) if line.trim().is_empty() => {}
            Ok(line) => request(server, &line, out),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            // EOF: the client is done; stdin's end shuts the server down.
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                if eof_ends {
                    server.shutting_down.store(true, Ordering::SeqCst);
                }
                break;
            }
        }
    }
}

/// The id of a request, as a key.
fn key(id: &Value) -> String {
    id.to_string()
}

/// Handles one request line.
fn request(server: &Arc<Server>, line: &str, out: &Out) {
    let req: Value = match serde_json::from_str(line) {
        Ok(v @ Value::Object(_)) => v,
        Ok(_) => return error(out, &Value::Null, "a request is a JSON object"),
        Err(e) => return error(out, &Value::Null, &format!("not JSON: {e}")),
    };
    let id = req.get("id").cloned().unwrap_or(Value::Null);
    if id.is_null() {
        return error(out, &id, "the request has no `id`");
    }
    let field = |name: &str| req.get(name).and_then(Value::as_str);
    let v = &server.validator;
    let submitted = match req.get("op").and_then(Value::as_str) {
        _ if server.stopping() => return error(out, &id, "the server is shutting down"),
        Some("status") => {
            let t = v.totals();
            let inflight: Vec<Value> = server
                .inflight
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .subs
                .keys()
                .map(|k| serde_json::from_str(k).unwrap_or(Value::Null))
                .collect();
            return send(
                out,
                json!({"id": id, "event": "status", "queued_sets": v.queued(),
                       "in_flight": inflight, "workers": v.jobs(), "sets_done": t.sets,
                       "verdicts": t.verdicts}),
            );
        }
        Some("shutdown") => {
            server.shutting_down.store(true, Ordering::SeqCst);
            return send(out, json!({"id": id, "event": "shutdown"}));
        }
        Some("cancel") => {
            let target = req.get("target").cloned().unwrap_or(Value::Null);
            let sub = server
                .inflight
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .subs
                .get(&key(&target))
                .cloned();
            return match sub {
                Some(s) => {
                    let dropped = s.cancel();
                    send(
                        out,
                        json!({"id": id, "event": "cancelled", "target": target,
                                     "sets_not_validated": dropped}),
                    )
                }
                None => error(out, &id, &format!("no request {target} in flight")),
            };
        }
        Some("validate") => match req.get("set") {
            Some(set) => match serde_json::from_value::<crate::model::PatchSet>(set.clone()) {
                Ok(set) => v.submit_sets(&[set]),
                Err(e) => return error(out, &id, &format!("`set` is not a patch set: {e}")),
            },
            None => return error(out, &id, "`validate` needs `set`"),
        },
        Some("patch") => match (field("file"), field("patched")) {
            (Some(file), Some(patched)) => {
                let line = req.get("line").and_then(Value::as_u64).map(|l| l as usize);
                let unpatched = field("unpatched");
                if line.is_none() && unpatched.is_none() {
                    return error(out, &id, "`patch` needs `unpatched` or `line`");
                }
                let name = format!("request-{}", key(&id).replace(['"', '/'], ""));
                v.submit_patch(&name, file, line, unpatched, patched)
            }
            _ => return error(out, &id, "`patch` needs `file` and `patched`"),
        },
        Some("diff") => match field("diff") {
            Some(d) => v.submit_diffs(&[(format!("request-{}", key(&id)), d.to_string())]),
            None => return error(out, &id, "`diff` needs `diff`"),
        },
        Some(other) => return error(out, &id, &format!("unknown op `{other}`")),
        None => return error(out, &id, "the request has no `op`"),
    };
    match submitted {
        Ok(sub) => forward(server, id, Arc::new(sub), out.clone()),
        Err(e) => error(out, &id, &e.to_string()),
    }
}

fn error(out: &Out, id: &Value, why: &str) {
    send(out, json!({"id": id, "event": "error", "error": why}));
}

/// Streams a submission's events to the client on a thread of its own.
fn forward(server: &Arc<Server>, id: Value, sub: Arc<Submission>, out: Out) {
    server
        .inflight
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .subs
        .insert(key(&id), sub.clone());
    let s = server.clone();
    let handle = std::thread::spawn(move || {
        let started = Instant::now();
        let mut succlist = String::new();
        let mut sets = 0;
        loop {
            match sub.next(Duration::from_millis(200)) {
                Next::Event(e) => match *e {
                    Event::Decided {
                        patch,
                        name,
                        outcome,
                        ..
                    } => send(
                        &out,
                        patch_line(&id, patch, name.as_deref(), &outcome, started),
                    ),
                    Event::Done { result, .. } => {
                        sets += 1;
                        succlist.push_str(&crate::model::succlist(&result.verdicts()));
                        // A set that could not be loaded has no per-patch events: its `E`s.
                        if result.error.is_some() {
                            for (i, o) in result.outcomes.iter().enumerate() {
                                send(&out, patch_line(&id, i, None, o, started));
                            }
                        }
                    }
                },
                Next::Waiting => {}
                Next::Over => break,
            }
        }
        send(
            &out,
            json!({"id": id, "event": "done", "sets": sets, "verdicts": succlist,
                   "ms": started.elapsed().as_secs_f64() * 1000.0}),
        );
        s.inflight
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .subs
            .remove(&key(&id));
    });
    server
        .forwarders
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(handle);
}

/// The line of one patch's outcome.
fn patch_line(id: &Value, index: usize, name: Option<&str>, o: &Outcome, t: Instant) -> Value {
    let mut v = json!({"id": id, "event": "patch", "index": index, "verdict": o.verdict,
                       "ms": t.elapsed().as_secs_f64() * 1000.0});
    if let Ok(Value::Object(fields)) = serde_json::to_value(o) {
        for (k, val) in fields {
            if k != "verdict" {
                v[k] = val;
            }
        }
    }
    if let Some(n) = name {
        v["name"] = json!(n);
    }
    v
}

/// Lets the requests in flight finish (cancelled when SIGTERM asked to stop), then closes the
/// validator: its workers end and its record is complete.
fn shutdown(server: Arc<Server>) -> Result<(), ServeError> {
    if crate::stop::requested() {
        for sub in server
            .inflight
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .subs
            .values()
        {
            sub.cancel();
        }
    }
    let handles = std::mem::take(&mut *server.forwarders.lock().unwrap_or_else(|e| e.into_inner()));
    for h in handles {
        let _ = h.join();
    }
    let server = match Arc::try_unwrap(server) {
        Ok(s) => s,
        // A connection thread still holds it (a socket client that did not hang up): its
        // requests are done; the validator ends with the process.
        Err(_) => return Ok(()),
    };
    server.validator.close()?;
    Ok(())
}
