//! How results read, and nothing more: the JSON lines of `result.jsonl` (one ExpressAPR-compatible
//! line per patch set) and `details.jsonl` (one line per patch), the human line per set, and what
//! `init` prints. `records` writes them.

use crate::model::{succlist, Extra, Outcome, SetResult, Verdict};
use crate::workdir::State;
use serde::Serialize;
use std::path::Path;

#[derive(Serialize)]
struct ResultLine<'a> {
    patches_path: &'a str,
    technique: Option<&'a str>,
    succlist: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    /// The run that wrote the line (`WORK/runs/<run>/`).
    run: &'a str,
    /// What the result depends on (`records::set_key`), for `run --resume`.
    #[serde(skip_serializing_if = "Option::is_none")]
    key: Option<&'a str>,
    extra: &'a Extra,
}

/// A set's `result.jsonl` line, written by `run` (`run`: the run that wrote it; `key`: what the
/// result depends on, `records::set_key`).
pub fn result_line(r: &SetResult, run: &str, key: Option<&str>) -> serde_json::Result<String> {
    serde_json::to_string(&ResultLine {
        patches_path: &r.patches_path,
        technique: r.technique.as_deref(),
        succlist: succlist(&r.verdicts()),
        error: r.error.as_deref(),
        run,
        key,
        extra: &r.extra,
    })
}

/// A set's `details.jsonl` lines, one per patch.
pub fn detail_lines(r: &SetResult) -> serde_json::Result<Vec<String>> {
    r.outcomes
        .iter()
        .enumerate()
        .map(|(i, o)| {
            serde_json::to_string(&DetailLine {
                patches_path: &r.patches_path,
                patch: i,
                name: r.names.get(i).map(String::as_str),
                outcome: o,
            })
        })
        .collect()
}

#[derive(Serialize)]
struct DetailLine<'a> {
    patches_path: &'a str,
    patch: usize,
    /// The patch's name (its diff file, or its name in an edit list).
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(flatten)]
    outcome: &'a Outcome,
}

/// The line `run --confirm-plausible` prints for a patch plain validation does not find
/// plausible.
pub fn disagreement_line(r: &SetResult, d: &crate::model::Disagreement) -> String {
    let patch = match r.names.get(d.patch) {
        Some(name) => format!("patch {} ({name})", d.patch),
        None => format!("patch {}", d.patch),
    };
    let why = [d.test.as_deref(), d.detail.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(": ");
    format!(
        "DISAGREEMENT {}: {patch} is `{}` by the {} technique but `{}` by plain validation{}",
        set_name(&r.patches_path),
        d.technique,
        r.technique.as_deref().unwrap_or("?"),
        d.plain,
        if why.is_empty() {
            String::new()
        } else {
            format!(" ({why})")
        }
    )
}

/// The human line for one set, a line per unstable plain verdict (`model::Unstable`), and a line
/// per named patch with its verdict.
pub fn human_line(r: &SetResult) -> String {
    let mut out = set_line(r);
    for note in &r.extra.unstable {
        out.push_str(&format!("\n  unstable: {note}"));
    }
    for (name, o) in r.names.iter().zip(&r.outcomes) {
        out.push_str(&format!("\n  {}  {name}", o.verdict));
        if o.verdict == Verdict::Error {
            if let Some(d) = &o.detail {
                out.push_str(&format!(": {d}"));
            }
        }
    }
    out
}

fn set_line(r: &SetResult) -> String {
    let name = set_name(&r.patches_path);
    match &r.error {
        Some(e) => format!("{name}: {} error: {e}", succlist(&r.verdicts())),
        None => format!(
            "{name}: {} ({} patches, {} plausible, {:.2}s, {} rounds, javac x{}{})",
            succlist(&r.verdicts()),
            r.outcomes.len(),
            r.extra.counts.get(&'s').copied().unwrap_or(0),
            r.extra.total_ms / 1000.0,
            r.extra.rounds,
            r.extra.javac_invocations + r.extra.fallback_compiles,
            if r.extra.fallback > 0 {
                format!(", {} validated one by one", r.extra.fallback)
            } else {
                String::new()
            }
        ),
    }
}

/// The human line of a set whose result an earlier run decided.
pub fn reused_line(r: &SetResult, run: &str) -> String {
    format!(
        "{}: {} ({} patches, {} plausible, resumed from run {run})",
        set_name(&r.patches_path),
        succlist(&r.verdicts()),
        r.outcomes.len(),
        r.extra.counts.get(&'s').copied().unwrap_or(0)
    )
}

/// A set file's name, for progress and human lines.
pub fn set_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string())
}

/// What `init` prints on stdout: the project, its tests, trigger tests and what was left out.
pub fn init_summary(state: &State) -> String {
    let mut out = format!(
        "initialized {}: {} tests ({} failing on the unpatched program), {:.1}s",
        state.project.root.display(),
        state.tests.len(),
        state.trigger_tests().count(),
        state.init_seconds
    );
    for t in state.trigger_tests() {
        out.push_str(&format!(
            "\n  trigger test {}: {}",
            t.id,
            t.failure.as_deref().unwrap_or("fails")
        ));
    }
    for (what, why) in &state.excluded {
        out.push_str(&format!("\n  excluded {what}: {why}"));
    }
    out
}
