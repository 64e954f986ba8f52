//! Semantic differential test of the weaver, shared by the `tests/weave_*.rs` files, each a list
//! of cases on one topic: for small Java programs and patch lists, running the woven program with
//! patch i selected must print exactly what the plain program with patch i applied prints, and
//! the woven compile verdicts (C by context copy) must equal plain javac's.
//!
//! javac runs are batched across a file's cases (every file gets its own package, prepended on
//! line 1 so line numbers do not move); the woven side follows `compile::compile_schemata` round
//! by round.

use super::{java_home, write_file};
use patchval::weave::{self, Plan, UnitKind, Woven};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Cases allowed to send patches to the one-by-one fallback, with how many at most, by case name
/// (the cases are in the `tests/weave_*.rs` files).
/// (Multi-statement or empty patches in a body without braces; a patch declaring a local that
/// later code names; locals javac may or may not see as assigned.)
const ALLOWED_FALLBACK: &[(&str, usize)] = &[
    ("if_body_without_braces", 2),
    ("constructor_after_this", 1),
    ("anonymous_class", 1),
    ("maybe_assigned_local", 3),
    ("patch_declares_a_local", 2),
];

/// The runtime the woven programs are compiled with (path below the source root, text): the real
/// `Rt.java` without the warm loader's bookkeeping, the generated `Protocol.java`, and the
/// generated `RtNatives.java` with its natives replaced by Java: `choose`/`decide` answer the
/// patch in `pv.patch`; with `pv.tree` set, every visit captures all patches listed in `pv.all`
/// (so each capture must leave no trace) and then replays the chosen one.
fn fake_runtime() -> Vec<(String, String)> {
    let rt = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/agent-java/src/patchval/agent/Rt.java"
    ))
    .expect("agent-java Rt.java");
    // The warm loader's bookkeeping (Reset) is not part of the compiled test program.
    let reset = "        Reset.patchedLocation();\n";
    assert!(rt.contains(reset), "Rt.java changed: {reset}");
    let mut files = vec![("patchval/agent/Rt.java".to_string(), rt.replace(reset, ""))];
    let bodies = [
        ("choose", "{ return Integer.getInteger(\"pv.patch\", -1); }"),
        ("tree", "{ return Boolean.getBoolean(\"pv.tree\"); }"),
        ("begin", "{ return all().length; }"),
        ("patchAt", "{ return all()[k]; }"),
        ("report", "{ }"),
        ("round", "{ return 0L; }"),
        ("decide", "{ return Integer.getInteger(\"pv.patch\", -1); }\n    private static int[] all() { String[] p = System.getProperty(\"pv.all\", \"\").split(\",\"); int[] a = new int[p.length]; for (int i = 0; i < p.length; i++) a[i] = Integer.parseInt(p[i]); return a; }"),
    ];
    for (path, text) in patchval::protocol::JAVA_SOURCES {
        let mut text = text.to_string();
        if path.ends_with("/RtNatives.java") {
            for native in patchval::protocol::natives::ALL {
                let body = bodies
                    .iter()
                    .find(|(name, _)| *name == native.name)
                    .unwrap_or_else(|| panic!("no Java body for the native {}", native.name))
                    .1;
                let declaration = native.declaration;
                assert!(
                    text.contains(declaration),
                    "RtNatives.java lacks {declaration}"
                );
                let java = declaration.replace("native ", "").replace(';', " ") + body;
                text = text.replace(declaration, &java);
            }
        }
        files.push((path.to_string(), text));
    }
    files
}

/// Calls the test treats as pure when deciding tree eligibility (the real oracle is the bytecode scan).
fn test_purity(qualifier: Option<&str>, name: &str, _arity: usize) -> bool {
    matches!(qualifier, Some("Math") | Some("String") | Some("Integer"))
        || [
            "length",
            "charAt",
            "abs",
            "max",
            "min",
            "equals",
            "compareTo",
        ]
        .contains(&name)
}

const HELPERS: &str = r#"
    interface Call { Object call() throws Throwable; }
    static void show(String tag, Call c) {
        String out;
        try {
            out = tag + " = " + str(c.call());
        } catch (Throwable e) {
            out = tag + " threw " + e.getClass().getName() + ": " + e.getMessage();
        }
        System.out.println(out);
    }
    static String str(Object o) {
        if (o instanceof int[]) return Arrays.toString((int[]) o);
        if (o instanceof Object[]) return Arrays.toString((Object[]) o);
        return String.valueOf(o);
    }
"#;

/// One program, a location in it and the patches for that location.
pub struct Case {
    pub name: &'static str,
    src: String,
    unpatched: &'static str,
    /// Which occurrence of `unpatched` (0-based).
    pub nth: usize,
    patches: Vec<&'static str>,
}

impl Case {
    fn range(&self) -> std::ops::Range<usize> {
        let (start, _) = self
            .src
            .match_indices(self.unpatched)
            .nth(self.nth)
            .unwrap_or_else(|| panic!("{}: unpatched text not found", self.name));
        start..start + self.unpatched.len()
    }
    fn patched(&self, i: usize) -> String {
        let r = self.range();
        format!(
            "{}{}{}",
            &self.src[..r.start],
            self.patches[i],
            &self.src[r.end..]
        )
    }
}

/// A `Main` class: `members`, then `main` running `calls`, then the printing helpers.
fn main_class(members: &str, calls: &str) -> String {
    format!(
        "import java.util.*;\npublic class Main {{\n{members}\n    public static void main(String[] args) {{\n{calls}\n    }}\n{HELPERS}}}\n"
    )
}

/// A case whose program is a `Main` class (see [`main_class`]): `members`, then `main` running
/// `calls`; patched at the first occurrence of `unpatched`.
pub fn case(
    name: &'static str,
    members: &str,
    calls: &str,
    unpatched: &'static str,
    patches: &[&'static str],
) -> Case {
    Case {
        name,
        src: main_class(members, calls),
        unpatched,
        nth: 0,
        patches: patches.to_vec(),
    }
}

fn java_bin(tool: &str) -> PathBuf {
    java_home().join("bin").join(tool)
}

/// Runs javac in `dir` on the given relative files; returns error lines per file as (file, line, message).
fn javac(dir: &Path, files: &[String], out: &str, check: bool) -> Vec<(String, usize, String)> {
    if files.is_empty() {
        return Vec::new();
    }
    let mut cmd = Command::new(java_bin("javac"));
    cmd.current_dir(dir)
        .args(["-J-XX:TieredStopAtLevel=1", "-J-Xshare:auto"])
        .args(["--release", "8", "-nowarn", "-encoding", "UTF-8"])
        .args(["-Xmaxerrs", "100000", "-implicit:none", "-d", out]);
    if check {
        cmd.arg("-XDshould-stop.ifError=FLOW");
    }
    cmd.args(files)
        .args(fake_runtime().into_iter().map(|(path, _)| path));
    let o = cmd.output().expect("run javac");
    let err = String::from_utf8_lossy(&o.stderr);
    let mut diags = Vec::new();
    for l in err.lines() {
        let Some((loc, msg)) = l.split_once(": error: ") else {
            continue;
        };
        let Some((file, line)) = loc.rsplit_once(':') else {
            continue;
        };
        if let Ok(line) = line.parse() {
            diags.push((file.to_string(), line, msg.to_string()));
        }
    }
    assert!(
        o.status.success() || !diags.is_empty(),
        "javac failed without parsable errors:\n{err}"
    );
    diags
}

/// One JVM run: (class path, main class, patch property or None).
struct Job {
    cp: PathBuf,
    class: String,
    patch: Option<usize>,
    /// Tree mode: the patches captured at every visit.
    tree: Option<String>,
}

/// Runs every job, at most two JVMs at a time; stdout (with the package prefix removed) + exit.
fn run_all(jobs: &[Job]) -> Vec<String> {
    let next = AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<String>> = jobs.iter().map(|_| Default::default()).collect();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = jobs.get(k) else { break };
                *results[k].lock().unwrap() = run_one(job);
            });
        }
    });
    results
        .into_iter()
        .map(|m| m.into_inner().unwrap())
        .collect()
}

fn run_one(job: &Job) -> String {
    let out = tempfile::NamedTempFile::new().unwrap();
    let mut cmd = Command::new(java_bin("java"));
    cmd.args(["-XX:TieredStopAtLevel=1", "-Xshare:auto"]);
    if let Some(i) = job.patch {
        cmd.arg(format!("-Dpv.patch={i}"));
    }
    if let Some(all) = &job.tree {
        cmd.arg("-Dpv.tree=true").arg(format!("-Dpv.all={all}"));
    }
    let mut child = cmd
        .arg("-cp")
        .arg(&job.cp)
        .arg(&job.class)
        .stdout(out.reopen().unwrap())
        .stderr(Stdio::null())
        .spawn()
        .expect("run java");
    let started = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break format!("exit {:?}", st.code());
        }
        if started.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            break "TIMEOUT".to_string();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let text = std::fs::read_to_string(out.path()).unwrap();
    let pkg = format!("{}.", job.class.rsplit_once('.').unwrap().0);
    format!("{}{status}\n", text.replace(&pkg, ""))
}

/// The woven side of one case, mirroring `compile::compile_schemata`.
struct Schemata {
    plan: Option<Plan>,
    include: Vec<usize>,
    with_context: bool,
    terminal: bool,
    compile_errors: BTreeMap<usize, String>,
    fallback: BTreeMap<usize, String>,
    woven: Option<Woven>,
    rounds: u32,
}

impl Schemata {
    fn new(c: &Case) -> Self {
        let patches: Vec<String> = c.patches.iter().map(|p| p.to_string()).collect();
        let mut s = Schemata {
            plan: None,
            include: Vec::new(),
            with_context: true,
            terminal: false,
            compile_errors: BTreeMap::new(),
            fallback: BTreeMap::new(),
            woven: None,
            rounds: 0,
        };
        match weave::plan(&c.src, c.range(), &patches) {
            Ok(mut plan) => {
                plan.enable_tree(&test_purity);
                for (i, why) in plan.excluded.iter().enumerate() {
                    if let Some(why) = why {
                        s.fallback.insert(i, format!("excluded: {why}"));
                    }
                }
                s.include = plan.weavable();
                s.terminal = plan.site.ends_method;
                s.plan = Some(plan);
            }
            Err(e) => {
                for i in 0..patches.len() {
                    s.fallback.insert(i, format!("unsupported location: {e}"));
                }
            }
        }
        s
    }

    /// The text to compile next, or None when done.
    fn next(&mut self) -> Option<Woven> {
        let plan = self.plan.as_ref()?;
        if self.woven.is_some() || self.include.is_empty() {
            return None;
        }
        match plan.weave(&self.include, self.with_context, self.terminal, 0) {
            Ok(w) => Some(w),
            Err(e) => {
                for i in self.include.drain(..) {
                    self.fallback.insert(i, format!("weaving failed: {e}"));
                }
                None
            }
        }
    }

    /// One round's verdict, as `compile_schemata` handles it.
    fn step(&mut self, woven: Woven, diags: &[(usize, String)]) {
        self.rounds += 1;
        if diags.is_empty() {
            self.woven = Some(woven);
            return;
        }
        let mut outside = Vec::new();
        let mut removed = false;
        for (line, msg) in diags {
            match woven.unit_at(*line) {
                Some(u) if u.kind == UnitKind::Context => {
                    self.fallback.remove(&u.patch);
                    self.compile_errors
                        .entry(u.patch)
                        .or_insert_with(|| msg.clone());
                    removed = true;
                }
                Some(u) => {
                    if !self.compile_errors.contains_key(&u.patch) {
                        self.fallback.entry(u.patch).or_insert_with(|| {
                            format!("its generated method does not compile: line {line}: {msg}")
                        });
                    }
                    removed = true;
                }
                None => outside.push((line, msg)),
            }
        }
        let (errs, fb) = (&self.compile_errors, &self.fallback);
        self.include
            .retain(|i| !errs.contains_key(i) && !fb.contains_key(i));
        if removed {
            self.with_context = false;
            return;
        }
        if !self.terminal && self.plan.as_ref().unwrap().site.last_in_block {
            self.terminal = true;
            return;
        }
        let first = outside
            .first()
            .map(|(l, m)| format!("line {l}: {m}"))
            .unwrap_or_default();
        for i in self.include.drain(..) {
            self.fallback
                .insert(i, format!("the schemata do not compile ({first})"));
        }
    }
}

#[derive(Clone, Copy)]
enum Mode {
    Plain,
    Woven,
    Tree,
}

/// The test of a `tests/weave_*.rs` file: its cases, woven and plain, compile alike and, where
/// they compile, print alike; no case falls back more than `ALLOWED_FALLBACK` allows.
pub fn woven_behaves_like_plain(cases: Vec<Case>) {
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (path, text) in fake_runtime() {
        write_file(d, &path, &text);
    }

    // Plain side: check every variant, then build the ones that compile.
    let mut plain_files = Vec::new();
    for (c, case) in cases.iter().enumerate() {
        for i in 0..case.patches.len() {
            let rel = format!("p{c}_{i}/Main.java");
            write_file(d, &rel, &format!("package p{c}_{i}; {}", case.patched(i)));
            plain_files.push(rel);
        }
    }
    let diags = javac(d, &plain_files, "check_out", true);
    let plain_ok = |c: usize, i: usize| {
        let f = format!("p{c}_{i}/Main.java");
        !diags.iter().any(|(file, _, _)| *file == f)
    };
    let ok_files: Vec<String> = plain_files
        .iter()
        .filter(|f| !diags.iter().any(|(file, _, _)| file == *f))
        .cloned()
        .collect();
    let build = javac(d, &ok_files, "plain_out", false);
    assert!(build.is_empty(), "plain build failed: {build:?}");

    // Woven side: rounds batched across cases.
    let mut sched: Vec<Schemata> = cases.iter().map(Schemata::new).collect();
    for round in 0.. {
        let mut pending = Vec::new();
        let mut files = Vec::new();
        for (c, s) in sched.iter_mut().enumerate() {
            if let Some(w) = s.next() {
                let rel = format!("r{round}/w{c}/Main.java");
                write_file(d, &rel, &format!("package w{c}; {}", w.text));
                files.push(rel);
                pending.push((c, w));
            }
        }
        if pending.is_empty() {
            break;
        }
        assert!(round < 6, "too many compile rounds");
        let diags = javac(d, &files, &format!("r{round}_out"), true);
        for (c, w) in pending {
            let f = format!("r{round}/w{c}/Main.java");
            let mine: Vec<(usize, String)> = diags
                .iter()
                .filter(|(file, _, _)| *file == f)
                .map(|(_, l, m)| (*l, m.clone()))
                .collect();
            sched[c].step(w, &mine);
        }
    }
    let mut woven_files = Vec::new();
    for (c, s) in sched.iter().enumerate() {
        if let Some(w) = &s.woven {
            let rel = format!("final/w{c}/Main.java");
            write_file(d, &rel, &format!("package w{c}; {}", w.text));
            woven_files.push(rel);
        }
    }
    let build = javac(d, &woven_files, "woven_out", false);
    assert!(build.is_empty(), "woven build failed: {build:?}");

    // Runs.
    let mut jobs = Vec::new();
    let mut keys = Vec::new();
    for (c, case) in cases.iter().enumerate() {
        for i in 0..case.patches.len() {
            if plain_ok(c, i) {
                jobs.push(Job {
                    cp: d.join("plain_out"),
                    class: format!("p{c}_{i}.Main"),
                    patch: None,
                    tree: None,
                });
                keys.push((c, i, Mode::Plain));
            }
        }
        if let Some(w) = &sched[c].woven {
            let plan = sched[c].plan.as_ref().unwrap();
            let in_tree: Vec<usize> = w
                .patches
                .iter()
                .copied()
                .filter(|&i| plan.tree[i].is_ok())
                .collect();
            let all = in_tree
                .iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(",");
            for &i in &w.patches {
                jobs.push(Job {
                    cp: d.join("woven_out"),
                    class: format!("w{c}.Main"),
                    patch: Some(i),
                    tree: None,
                });
                keys.push((c, i, Mode::Woven));
                if in_tree.contains(&i) {
                    jobs.push(Job {
                        cp: d.join("woven_out"),
                        class: format!("w{c}.Main"),
                        patch: Some(i),
                        tree: Some(all.clone()),
                    });
                    keys.push((c, i, Mode::Tree));
                }
            }
        }
    }
    let outputs = run_all(&jobs);
    let mut plain_out = BTreeMap::new();
    let mut woven_out = BTreeMap::new();
    let mut tree_out = BTreeMap::new();
    for ((c, i, mode), out) in keys.into_iter().zip(outputs) {
        match mode {
            Mode::Plain => plain_out.insert((c, i), out),
            Mode::Woven => woven_out.insert((c, i), out),
            Mode::Tree => tree_out.insert((c, i), out),
        };
    }

    // Verdicts.
    let (mut total, mut matched, mut fell_back, mut tree_checked) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut over_allowance = Vec::new();
    for (c, case) in cases.iter().enumerate() {
        let s = &sched[c];
        let mut case_fallbacks = 0;
        for i in 0..case.patches.len() {
            total += 1;
            let tag = format!("{} #{i} `{}`", case.name, case.patches[i]);
            let plain = plain_ok(c, i);
            if let Some(why) = s.fallback.get(&i) {
                fell_back += 1;
                case_fallbacks += 1;
                println!(
                    "FALLBACK {tag} (plain {}): {why}",
                    if plain { "ok" } else { "C" }
                );
                continue;
            }
            if let Some(msg) = s.compile_errors.get(&i) {
                if plain {
                    failures.push(format!("{tag}: woven C ({msg}) but plain compiles"));
                } else {
                    matched += 1;
                }
                continue;
            }
            if !plain {
                failures.push(format!("{tag}: plain C but the weave compiled it"));
                continue;
            }
            let p = &plain_out[&(c, i)];
            if let Some(t) = tree_out.get(&(c, i)) {
                tree_checked += 1;
                if t != p {
                    failures.push(format!("{tag}: output differs after capturing every tree patch\n--- plain\n{p}--- tree\n{t}"));
                }
            }
            match woven_out.get(&(c, i)) {
                Some(w) if w == p => matched += 1,
                Some(w) => failures.push(format!(
                    "{tag}: output differs\n--- plain\n{p}--- woven\n{w}"
                )),
                None => failures.push(format!("{tag}: neither woven nor fallback")),
            }
        }
        let allowed = ALLOWED_FALLBACK
            .iter()
            .find(|(n, _)| *n == case.name)
            .map_or(0, |(_, k)| *k);
        if case_fallbacks > allowed {
            over_allowance.push(format!(
                "{}: {case_fallbacks} fallbacks, {allowed} allowed",
                case.name
            ));
        }
        println!(
            "case {:<28} patches {} rounds {} terminal {} C {:?}",
            case.name,
            case.patches.len(),
            s.rounds,
            s.terminal,
            s.compile_errors.keys().collect::<Vec<_>>()
        );
    }
    println!(
        "{} cases, {total} patches: {matched} matched ({tree_checked} also through capture/replay), {fell_back} fell back, {} failed ({:.1}s)",
        cases.len(),
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(over_allowance.is_empty(), "{}", over_allowance.join("\n"));
}
