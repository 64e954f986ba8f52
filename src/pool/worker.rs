//! The worker process (`patchval worker`): embeds one JVM and serves requests from the parent.

use super::protocol::{Request, Response};
use crate::jvm::{select_patch, Jvm};
use std::io::{BufRead, Write};
use std::os::fd::FromRawFd;
use std::path::Path;
use std::time::Instant;

/// Runs the worker loop until the parent closes stdin. Returns an error message if the JVM could not start.
pub fn serve(java_home: &Path, class_path: &str, jvm_options: &[String]) -> Result<(), String> {
    // Keep the protocol on a private copy of stdout; anything the tests print goes to stderr.
    // SAFETY: plain fd juggling on fds this process owns.
    let proto_fd = unsafe {
        let fd = libc::dup(1);
        if fd < 0 || libc::dup2(2, 1) < 0 {
            return Err("cannot redirect stdout".into());
        }
        fd
    };
    // SAFETY: `proto_fd` was just created by dup and is owned by this File alone.
    let mut out = std::io::BufWriter::new(unsafe { std::fs::File::from_raw_fd(proto_fd) });
    let mut send = |r: &Response| -> Result<(), String> {
        let line = serde_json::to_string(r).map_err(|e| e.to_string())?;
        writeln!(out, "{line}")
            .and_then(|_| out.flush())
            .map_err(|e| e.to_string())
    };

    let started = Instant::now();
    let jvm = match Jvm::start(java_home, class_path, jvm_options) {
        Ok(j) => j,
        Err(e) => {
            let _ = send(&Response {
                lines: vec![],
                micros: 0,
                error: Some(e.to_string()),
            });
            return Err(e.to_string());
        }
    };
    // Tests that call System.exit fail instead of ending the worker (best effort on newer JDKs).
    let guard = jvm
        .call(&["installExitGuard".to_string()])
        .unwrap_or_default();
    send(&Response {
        lines: vec![format!("ready exit-guard={}", guard.join(""))],
        micros: started.elapsed().as_micros() as u64,
        error: None,
    })?;

    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        if line.trim().is_empty() {
            continue;
        }
        let t = Instant::now();
        let resp = match serde_json::from_str::<Request>(&line) {
            Err(e) => Response {
                lines: vec![],
                micros: 0,
                error: Some(format!("bad request: {e}")),
            },
            Ok(req) => {
                if let Request::RunTest { patch, .. } = &req {
                    select_patch(*patch);
                }
                match jvm.call(&req.agent_args()) {
                    Ok(lines) => Response {
                        lines,
                        micros: t.elapsed().as_micros() as u64,
                        error: None,
                    },
                    Err(e) => Response {
                        lines: vec![],
                        micros: t.elapsed().as_micros() as u64,
                        error: Some(e.to_string()),
                    },
                }
            }
        };
        send(&resp)?;
    }
    Ok(())
}
