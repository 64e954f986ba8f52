//! Tests that depend on their environment, found at `init` and left out with their reason. A
//! test class that changes what one JVM holds for all its tests and nothing puts back (security
//! properties and providers, the logging configuration, JVM-wide handlers and factories; the
//! default locale, time zone and system properties are put back after every test by the agent's
//! `Globals`) can make a later test fail in plain validation's order that passed in the baseline,
//! whose workers run other orders. When a suite has such a class, every test whose class uses
//! what it changes runs again with it in one fresh JVM in plain's order (trigger tests first);
//! one that passed in the baseline and fails there is left out, saying whether it also fails alone
//! in a fresh JVM (docs/execution.md, "Plain's own instability").

use crate::bytecode::classfile::parse;
use crate::bytecode::classfile::MemberRef;
use crate::model::{Outcome, Verdict};
use crate::pool::plain::{run_from, Ended, PlainJvm, PlainRun};
use crate::toolchain::{default_jvm_options, join_path};
use crate::workdir::{State, TestRecord, WorkDir};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// JDK methods that change JVM-wide state nothing puts back between tests: (owner class, method
/// names). A test class that calls one *writes* that owner's state; one that uses any member of
/// the owner (or, for `java/util/logging/Logger`, of the logging package) *reads* it.
const WRITES: &[(&str, &[&str])] = &[
    (
        "java/security/Security",
        &[
            "setProperty",
            "addProvider",
            "insertProviderAt",
            "removeProvider",
        ],
    ),
    (
        "java/util/logging/LogManager",
        &["readConfiguration", "reset", "updateConfiguration"],
    ),
    (
        "java/util/logging/Logger",
        &[
            "setLevel",
            "addHandler",
            "removeHandler",
            "setFilter",
            "setUseParentHandlers",
            "setParent",
        ],
    ),
    ("java/net/Authenticator", &["setDefault"]),
    ("java/net/CookieHandler", &["setDefault"]),
    ("java/net/ProxySelector", &["setDefault"]),
    ("java/net/ResponseCache", &["setDefault"]),
    ("java/net/URL", &["setURLStreamHandlerFactory"]),
    (
        "java/net/URLConnection",
        &[
            "setContentHandlerFactory",
            "setFileNameMap",
            "setDefaultUseCaches",
            "setDefaultAllowUserInteraction",
        ],
    ),
    ("java/net/HttpURLConnection", &["setFollowRedirects"]),
    (
        "javax/net/ssl/HttpsURLConnection",
        &["setDefaultSSLSocketFactory", "setDefaultHostnameVerifier"],
    ),
    ("javax/net/ssl/SSLContext", &["setDefault"]),
    (
        "java/sql/DriverManager",
        &[
            "registerDriver",
            "deregisterDriver",
            "setLoginTimeout",
            "setLogWriter",
        ],
    ),
    ("java/lang/Thread", &["setDefaultUncaughtExceptionHandler"]),
];

/// The state a call belongs to, as [`WRITES`] names it (the logging package as one; of `Thread`,
/// only its default handler), if any.
fn owner_of(m: &MemberRef) -> Option<&'static str> {
    if m.owner.starts_with("java/util/logging/") {
        return Some("java/util/logging/Logger");
    }
    if m.owner == "java/lang/Thread" {
        return m
            .name
            .ends_with("DefaultUncaughtExceptionHandler")
            .then_some("java/lang/Thread");
    }
    WRITES.iter().map(|(o, _)| *o).find(|o| m.owner == *o)
}

/// Whether a call writes its owner's JVM-wide state.
fn writes(m: &MemberRef) -> bool {
    WRITES
        .iter()
        .any(|(o, names)| m.owner == *o && names.contains(&m.name.as_str()))
}

/// What one test class (with its nested classes) does with JVM-wide state: the owners it writes,
/// and the owners it uses at all, each with its first member, `Owner.name`.
#[derive(Default)]
struct Uses {
    writes: BTreeSet<&'static str>,
    uses: BTreeMap<&'static str, String>,
}

/// [`Uses`] of every test class of `tests`, read from `test_classes`.
fn uses(test_classes: &Path, tests: &[TestRecord]) -> BTreeMap<String, Uses> {
    let mut out = BTreeMap::new();
    let classes: BTreeSet<&str> = tests.iter().map(|t| t.id.class.as_str()).collect();
    for class in classes {
        let path = test_classes.join(class.replace('.', "/"));
        let (Some(dir), Some(stem)) = (path.parent(), path.file_name()) else {
            continue;
        };
        let stem = stem.to_string_lossy().to_string();
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut u = Uses::default();
        for file in entries.filter_map(|e| e.ok()).map(|e| e.path()) {
            let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name != format!("{stem}.class") && !name.starts_with(&format!("{stem}$")) {
                continue;
            }
            let Some(cf) = std::fs::read(&file).ok().and_then(|b| parse(&b).ok()) else {
                continue;
            };
            let calls = cf
                .methods
                .iter()
                .filter_map(|m| m.code.as_ref())
                .flat_map(|c| c.invokes.iter().map(|(_, m)| m));
            for m in calls {
                let Some(owner) = owner_of(m) else { continue };
                if writes(m) {
                    u.writes.insert(owner);
                }
                u.uses
                    .entry(owner)
                    .or_insert_with(|| format!("{}.{}", m.owner.replace('/', "."), m.name));
            }
        }
        if !u.uses.is_empty() {
            out.insert(class.to_string(), u);
        }
    }
    out
}

/// The tests to run again and why each: every test whose class uses state some test class of
/// the suite writes. Empty when none writes any.
fn suspects(test_classes: &Path, tests: &[TestRecord]) -> BTreeMap<String, String> {
    let by_class = uses(test_classes, tests);
    let written: BTreeSet<&str> = by_class
        .values()
        .flat_map(|u| u.writes.iter().copied())
        .collect();
    by_class
        .iter()
        .filter_map(|(class, u)| {
            let member = u
                .uses
                .iter()
                .find(|(owner, _)| written.contains(*owner))
                .map(|(_, member)| member.clone())?;
            Some((class.clone(), member))
        })
        .collect()
}

/// Runs the tests that may depend on their environment in one fresh JVM in plain's order and
/// leaves out every such test that passed in the baseline and fails there, with the reason.
/// Returns how many were left out. Nothing to run: nothing happens.
pub fn check(wd: &WorkDir, state: &mut State, agent_jar: &Path) -> usize {
    let classes = suspects(&wd.test_classes(), &state.tests);
    let suspects: Vec<(TestRecord, String)> = crate::schedule::ordered_tests(state)
        .into_iter()
        .filter_map(|t| {
            let why = format!(
                "its class uses {}, which a test class changes",
                classes.get(&t.id.class)?
            );
            Some((t, why))
        })
        .collect();
    if !suspects.iter().any(|(t, _)| t.passed) {
        return 0;
    }
    let tests: Vec<TestRecord> = suspects.iter().map(|(t, _)| t.clone()).collect();
    tracing::info!(
        "{} tests use JVM-wide state a test changes: running them again in a fresh JVM in plain's order",
        tests.len()
    );
    let unpatched = wd.test_classpath(state, None).join(":");
    let mut jvm_options = default_jvm_options();
    jvm_options.extend(state.project.jvm_options.iter().cloned());
    let jvm = |tests, go_on| PlainJvm {
        java: state.tools.java(),
        jvm_options: jvm_options.clone(),
        class_path: join_path(
            std::iter::once(agent_jar.to_path_buf()).chain(state.tools.junit.iter().cloned()),
        ),
        unpatched: unpatched.clone(),
        patched: unpatched.clone(),
        cwd: wd.worker_project(0),
        tests,
        go_on,
    };
    // Every test once in one JVM, going on after failures, as plain's JVM goes on for a patch
    // that passes the trigger tests; a fresh JVM from the test after one that timed out or
    // killed its JVM. The failures of baseline-passing tests, in order.
    let in_order = jvm(&tests, true);
    let mut failed: Vec<(usize, String)> = Vec::new();
    let mut from = 0;
    while from < tests.len() {
        let mut run = PlainRun::new();
        let ended = run_from(&in_order, from, false, &mut run);
        for r in &run.runs {
            let Some(k) = in_order.index(&r.test) else {
                continue;
            };
            if let Some(why) = r.failed.as_ref().filter(|_| tests[k].passed) {
                failed.push((k, why.clone()));
            }
        }
        let stopped = match ended {
            Ended::Outcome(o) if o.verdict == Verdict::Plausible => None,
            Ended::Outcome(o) => {
                tracing::warn!(
                    "checking tests that depend on their environment: {}",
                    describe(&o)
                );
                None
            }
            Ended::Timeout(k) => k.map(|k| (k, "timed out".to_string())),
            Ended::Crash(k, status) => k.map(|k| (k, format!("the JVM died ({status})"))),
        };
        let Some((k, why)) = stopped else { break };
        if tests[k].passed {
            failed.push((k, why));
        }
        from = k + 1;
    }
    for (k, why) in &failed {
        let t = &tests[*k];
        let mut run = PlainRun::new();
        let alone = match run_from(&jvm(std::slice::from_ref(t), false), 0, false, &mut run) {
            Ended::Outcome(o) if o.verdict == Verdict::Plausible => "passes alone in a fresh JVM",
            _ => "fails alone in a fresh JVM too",
        };
        let reason = format!(
            "depends on its environment ({}): passed in the baseline, failed in a fresh JVM \
             in plain's order after the other such tests ({why}); {alone}",
            suspects[*k].1
        );
        tracing::warn!("{}: {reason}: left out", t.id);
        state.excluded.push((t.id.to_string(), reason));
    }
    let gone: Vec<String> = failed
        .iter()
        .map(|(k, _)| tests[*k].id.to_string())
        .collect();
    state.tests.retain(|t| !gone.contains(&t.id.to_string()));
    gone.len()
}

/// How a test ended, for a reason.
fn describe(o: &Outcome) -> String {
    o.detail
        .clone()
        .unwrap_or_else(|| o.verdict.letter().to_string())
}
