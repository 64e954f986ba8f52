//! Tests that depend on their environment, found at `init` and left out with their reason: a test
//! whose code reads or sets what a JVM holds for all its tests (default locale and time zone, the
//! locales and zones it knows, security properties and providers, JVM-wide handlers and
//! factories), or that is parameterised by a locale or zone, runs again with the other such tests
//! in one fresh JVM in plain validation's order (trigger tests first); one that passed in the
//! baseline and fails there would fail plain validation for every patch, or not, by what ran before
//! it. It is left out, saying whether it also fails alone in a fresh JVM (docs/execution.md,
//! "Plain's own instability").

use crate::bytecode::classfile::parse;
use crate::model::{Outcome, Verdict};
use crate::pool::plain::{run_from, Ended, PlainJvm, PlainRun};
use crate::toolchain::{default_jvm_options, join_path};
use crate::workdir::{State, TestRecord, WorkDir};
use std::collections::BTreeMap;
use std::path::Path;

/// JDK members whose use says a test reads or changes what one JVM holds for every test in it:
/// (owner class, method names; empty: any method of the class).
const ENVIRONMENT: &[(&str, &[&str])] = &[
    (
        "java/util/Locale",
        &["getAvailableLocales", "setDefault", "getDefault"],
    ),
    (
        "java/util/TimeZone",
        &["getAvailableIDs", "setDefault", "getDefault"],
    ),
    (
        "java/time/ZoneId",
        &["getAvailableZoneIds", "systemDefault"],
    ),
    ("java/text/DateFormatSymbols", &[]),
    ("java/text/DateFormat", &["getAvailableLocales"]),
    ("java/text/NumberFormat", &["getAvailableLocales"]),
    ("java/util/Calendar", &["getAvailableLocales"]),
    ("java/security/Security", &[]),
    ("java/util/logging/LogManager", &[]),
    ("java/net/Authenticator", &["setDefault"]),
    ("java/net/CookieHandler", &["setDefault"]),
    ("java/net/ProxySelector", &["setDefault"]),
    ("java/net/URL", &["setURLStreamHandlerFactory"]),
    ("java/lang/Thread", &["setDefaultUncaughtExceptionHandler"]),
];

/// Parameter types of a test id (`Class#method(java.util.Locale)`) that make it depend on the
/// locales and zones of the JVM that lists them.
const ENVIRONMENT_PARAMETERS: &[&str] =
    &["java.util.Locale", "java.util.TimeZone", "java.time.ZoneId"];

/// The test classes (binary names) whose code, or a nested class's, uses [`ENVIRONMENT`]; each
/// with the first such member, `Owner.name`.
fn environment_classes(test_classes: &Path, tests: &[TestRecord]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut classes: Vec<&str> = tests.iter().map(|t| t.id.class.as_str()).collect();
    classes.sort_unstable();
    classes.dedup();
    for class in classes {
        let path = test_classes.join(class.replace('.', "/"));
        let (Some(dir), Some(stem)) = (path.parent(), path.file_name()) else {
            continue;
        };
        let stem = stem.to_string_lossy().to_string();
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let files = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| {
                p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                    n == format!("{stem}.class") || n.starts_with(&format!("{stem}$"))
                })
            });
        for file in files {
            let Some(cf) = std::fs::read(&file).ok().and_then(|b| parse(&b).ok()) else {
                continue;
            };
            let used = cf
                .methods
                .iter()
                .filter_map(|m| m.code.as_ref())
                .flat_map(|c| c.invokes.iter())
                .map(|(_, m)| m)
                .find(|m| {
                    ENVIRONMENT.iter().any(|(owner, names)| {
                        m.owner == *owner && (names.is_empty() || names.contains(&m.name.as_str()))
                    })
                });
            if let Some(m) = used {
                out.insert(
                    class.to_string(),
                    format!("{}.{}", m.owner.replace('/', "."), m.name),
                );
                break;
            }
        }
    }
    out
}

/// Why test `t` may depend on its environment, if it may: the member its class uses, or the
/// parameter type that lists the JVM's locales or zones.
fn suspected(t: &TestRecord, classes: &BTreeMap<String, String>) -> Option<String> {
    if let Some(p) = ENVIRONMENT_PARAMETERS
        .iter()
        .find(|p| t.id.method.contains(&format!("({p}")) || t.id.method.contains(&format!(",{p}")))
    {
        return Some(format!("is parameterised by {p}"));
    }
    classes
        .get(&t.id.class)
        .map(|member| format!("its class uses {member}"))
}

/// Runs the tests that may depend on their environment in one fresh JVM in plain's order and
/// leaves out every such test that passed in the baseline and fails there, with the reason.
/// Returns how many were left out. Nothing to run: nothing happens.
pub fn check(wd: &WorkDir, state: &mut State, agent_jar: &Path) -> usize {
    let classes = environment_classes(&wd.test_classes(), &state.tests);
    let ordered = crate::schedule::ordered_tests(state);
    let suspects: Vec<(TestRecord, String)> = ordered
        .into_iter()
        .filter_map(|t| suspected(&t, &classes).map(|why| (t, why)))
        .collect();
    if !suspects.iter().any(|(t, _)| t.passed) {
        return 0;
    }
    let tests: Vec<TestRecord> = suspects.iter().map(|(t, _)| t.clone()).collect();
    tracing::info!(
        "{} tests may depend on their environment (locale, zone, JVM-wide settings): running them again in a fresh JVM in plain's order",
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
