//! `patchval serve`: JSON-lines requests on stdin, verdicts streamed back. The verdicts are
//! `run`'s (and plain's); bad requests get an error line with their id and the server goes on;
//! a patch that loops forever or calls `System.exit` gets plain's verdict; a socket client that
//! hangs up mid-request costs nobody else anything; EOF and SIGTERM end it cleanly.

mod common;
use common::*;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

const FILE: &str = "src/main/java/org/example/calc/MathUtil.java";

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
}

impl Server {
    fn start(work: &Path, extra: &[&str]) -> Server {
        Server::start_logging(work, extra, Stdio::null())
    }

    /// [`Server::start`] with the server's stderr (its log) going to `log`.
    fn start_logging(work: &Path, extra: &[&str], log: Stdio) -> Server {
        let mut cmd = patchval_command();
        cmd.args(["serve", "-j", "1", "-w", work.to_str().unwrap()])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log);
        let mut child = cmd.spawn().expect("patchval serve starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                let v: Value = serde_json::from_str(&l).expect("every line is JSON");
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        Server {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    fn send(&mut self, v: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{v}").unwrap();
        stdin.flush().unwrap();
    }

    /// Lines until (and with) the one for `id` with `event`.
    fn until(&self, id: &Value, event: &str) -> Vec<Value> {
        let mut out = Vec::new();
        loop {
            let v = self
                .lines
                .recv_timeout(Duration::from_secs(300))
                .unwrap_or_else(|_| panic!("no `{event}` for {id}; got {out:#?}"));
            let done = v["id"] == *id && v["event"] == event;
            out.push(v);
            if done {
                return out;
            }
        }
    }
}

/// A `patch` request replacing the bug's line 36.
fn patch(id: u32, patched: &str) -> String {
    json!({"id": id, "op": "patch", "file": FILE, "line": 36, "patched": patched}).to_string()
}

fn verdicts_of(lines: &[Value], id: u32) -> String {
    lines
        .iter()
        .find(|v| v["id"] == id && v["event"] == "done")
        .map(|v| v["verdicts"].as_str().unwrap().to_string())
        .unwrap()
}

#[test]
fn requests_stream_run_s_verdicts_and_bad_ones_get_errors() {
    let (tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let expected = expected(&project);
    // The worker is warmed before the first request (javac and a test, `technique::warm`), and
    // the first request's verdicts are the same for it.
    let log = tmp.path().join("serve.log");
    let mut s = Server::start_logging(
        &work,
        &[],
        Stdio::from(std::fs::File::create(&log).unwrap()),
    );
    let set: Value = serde_json::from_str(
        &std::fs::read_to_string(project.join("patches/binsearch_return.json")).unwrap(),
    )
    .unwrap();
    s.send(&json!({"id": "set", "op": "validate", "set": set}).to_string());
    let lines = s.until(&json!("set"), "done");
    let patches: Vec<&Value> = lines.iter().filter(|v| v["event"] == "patch").collect();
    assert_eq!(patches.len(), 17, "one line per patch: {lines:#?}");
    assert_eq!(
        lines.last().unwrap()["verdicts"],
        expected["binsearch_return.json"].as_str()
    );
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.contains("worker 0 warmed in") && logged.contains("javac on"),
        "{logged}"
    );
    // Each patch line comes before the request's end, and says which patch and why.
    let mut by_index: Vec<(u64, String)> = patches
        .iter()
        .map(|v| {
            (
                v["index"].as_u64().unwrap(),
                v["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    by_index.sort();
    let letters: String = by_index.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(letters, expected["binsearch_return.json"]);

    // One patch, and a diff.
    s.send(&patch(1, "        return -(lo + 1);"));
    assert_eq!(verdicts_of(&s.until(&json!(1), "done"), 1), "s");
    let diff = std::fs::read_to_string(project.join("diffs/fix_minus_one.diff")).unwrap();
    s.send(&json!({"id": 2, "op": "diff", "diff": diff}).to_string());
    assert_eq!(verdicts_of(&s.until(&json!(2), "done"), 2), "s");

    // Bad requests: an error line with the id (or null), and the server goes on.
    let bad = [
        ("not json at all", Value::Null, "not JSON"),
        (r#"{"op": "status"}"#, Value::Null, "no `id`"),
        (r#"{"id": 10, "op": "fly"}"#, json!(10), "unknown op"),
        (
            r#"{"id": 11, "op": "patch", "file": "x"}"#,
            json!(11),
            "needs",
        ),
        (r#"{"id": 12}"#, json!(12), "no `op`"),
        (
            r#"{"id": 13, "op": "cancel", "target": 99}"#,
            json!(13),
            "no request 99",
        ),
        (
            r#"{"id": 14, "op": "validate", "set": {"x": 1}}"#,
            json!(14),
            "not a patch set",
        ),
    ];
    for (req, id, what) in bad {
        s.send(req);
        let v = s.lines.recv_timeout(Duration::from_secs(60)).unwrap();
        assert_eq!(
            (v["event"].as_str(), &v["id"]),
            (Some("error"), &id),
            "{req}: {v}"
        );
        assert!(v["error"].as_str().unwrap().contains(what), "{req}: {v}");
    }
    // A patch whose text does not match the file is that patch's `E`, with why.
    s.send(
        &json!({"id": 15, "op": "patch", "file": FILE, "unpatched": "return nothing;", "patched": "x"})
            .to_string(),
    );
    let lines = s.until(&json!(15), "done");
    assert_eq!(verdicts_of(&lines, 15), "E");
    assert!(
        lines.iter().any(|v| v["event"] == "patch"
            && v["detail"]
                .as_str()
                .unwrap_or_default()
                .contains("not in the file")),
        "{lines:#?}"
    );
    s.send(r#"{"id": 16, "op": "status"}"#);
    let st = s.until(&json!(16), "status");
    assert_eq!(st.last().unwrap()["workers"], 1);

    // Shutdown: a request after it gets an error; the server ends with its record complete.
    s.send(r#"{"id": 17, "op": "shutdown"}"#);
    s.send(&patch(18, "        return 0;"));
    s.until(&json!(17), "shutdown");
    let after = s.until(&json!(18), "error");
    assert!(after.last().unwrap()["error"]
        .as_str()
        .unwrap()
        .contains("shutting down"));
    let status = s.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("runs/latest/run.json")).unwrap())
            .unwrap();
    assert_eq!(meta["totals"]["sets"], 4, "{meta}");
}

#[test]
fn loops_and_exits_get_plain_s_verdicts_and_sigterm_ends_cleanly() {
    let (_tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let hostile = [
        "        while (true) { }",
        "        System.exit(3);",
        "        Runtime.getRuntime().halt(4); return 0;",
    ];
    // Plain's verdicts for the same patches.
    let list = json!({"bug": "h", "patches": hostile.iter().enumerate().map(|(i, p)| json!({
        "name": format!("h{i}"),
        "edits": [{"filename": FILE, "line": 36, "unpatched": "        return -lo;", "patched": p}],
    })).collect::<Vec<_>>()});
    let list_file = project.join("hostile.json");
    std::fs::write(&list_file, list.to_string()).unwrap();
    run_flags(&work, &list_file, &["--technique", "plain"], 1);
    let plain: Vec<String> = latest_details(&work)
        .iter()
        .map(|d| d["verdict"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(plain.len(), 3);

    let mut s = Server::start(&work, &[]);
    for (i, p) in hostile.iter().enumerate() {
        s.send(&patch(i as u32, p));
    }
    for (i, want) in plain.iter().enumerate() {
        let lines = s.until(&json!(i), "done");
        assert_eq!(
            &verdicts_of(&lines, i as u32),
            want,
            "{}: {lines:#?}",
            hostile[i]
        );
    }
    // SIGTERM: the server ends cleanly (exit 0), its workers with it, the record complete.
    s.send(&patch(9, "        return -lo - 1;"));
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: signalling the child we started.
    unsafe {
        libc::kill(s.child.id() as i32, libc::SIGTERM);
    }
    let status = s.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("runs/latest/run.json")).unwrap())
            .unwrap();
    assert!(meta["totals"].is_object(), "{meta}");
    let workers = std::process::Command::new("pgrep")
        .args(["-f", &format!("worker.*{}", work.display())])
        .output()
        .unwrap();
    assert!(workers.stdout.is_empty(), "workers left behind");
}

#[test]
fn a_socket_client_that_hangs_up_mid_request_costs_the_others_nothing() {
    let (tmp, project) = fixture("calc");
    let work = project.parent().unwrap().join("work");
    init(&project, &work);
    let sock = tmp.path().join("serve.sock");
    let mut s = Server::start(&work, &["--socket", sock.to_str().unwrap()]);
    for _ in 0..200 {
        if sock.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let connect = || std::os::unix::net::UnixStream::connect(&sock).expect("connect");
    // A client sends a request and hangs up at once.
    let mut gone = connect();
    writeln!(gone, "{}", patch(1, "        return lo;")).unwrap();
    drop(gone);
    // Another client is answered as if alone.
    let mut c = connect();
    writeln!(c, "{}", patch(2, "        return -(lo + 1);")).unwrap();
    let mut r = BufReader::new(c.try_clone().unwrap());
    let mut verdict = None;
    for l in (&mut r).lines() {
        let v: Value = serde_json::from_str(&l.unwrap()).unwrap();
        if v["event"] == "done" {
            verdict = v["verdicts"].as_str().map(str::to_string);
            break;
        }
    }
    assert_eq!(verdict.as_deref(), Some("s"));
    writeln!(c, r#"{{"id": 3, "op": "shutdown"}}"#).unwrap();
    drop(s.stdin.take());
    let status = s.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}
