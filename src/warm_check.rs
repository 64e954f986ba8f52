//! `patchval warm-check`: the project's passing tests run in fresh class loaders and in a warm
//! loader whose static state Reset puts back before every test (agent `WarmCheck`), side by side
//! in one JVM; lists the tests whose results differ and what each way took.

use crate::protocol::{class, line, warm_check};
use crate::toolchain::{default_jvm_options, join_path, junit_jars};
use crate::workdir::{State, WorkDir};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum WarmError {
    #[error(transparent)]
    WorkDir(#[from] crate::workdir::WorkDirError),
    #[error("{0} is missing: install the Debian package libasm-java (scripts/setup.sh)")]
    NoAsm(PathBuf),
    #[error("{path}: {why}")]
    Io { path: PathBuf, why: String },
    #[error("the check's JVM failed (exit {code:?}): {stderr}")]
    Jvm { code: Option<i32>, stderr: String },
}

impl WarmError {
    /// The exit status of a failed check.
    pub fn exit_code(&self) -> crate::exit::ExitCode {
        use crate::exit::ExitCode;
        match self {
            WarmError::NoAsm(_) | WarmError::WorkDir(_) => ExitCode::Environment,
            _ => ExitCode::Internal,
        }
    }
}

/// A test whose result in the warm loader is not its result in a fresh loader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    pub test: String,
    pub fresh: String,
    pub warm: String,
}

/// What the check printed: the differing tests and its summary lines (counts and times).
#[derive(Debug, Clone)]
pub struct WarmReport {
    pub differences: Vec<Difference>,
    pub summary: Vec<String>,
}

/// ASM's jars from Debian's package, which the agent's instrumenter loads at run time.
pub fn asm_jars() -> Result<Vec<PathBuf>, WarmError> {
    let jars = junit_jars::asm_jars();
    match jars.iter().find(|j| !j.is_file()) {
        Some(missing) => Err(WarmError::NoAsm(missing.clone())),
        None => Ok(jars),
    }
}

/// Runs the tests that passed in the baseline (those matching a glob of `only` over
/// `Class#method` or `Class`, when given) `rounds` times each way; with `reset` false the warm
/// loader keeps earlier tests' static state (what Reset is there to prevent).
pub fn check(
    wd: &WorkDir,
    state: &State,
    only: &[glob::Pattern],
    rounds: u32,
    reset: bool,
) -> Result<WarmReport, WarmError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |e: std::io::Error| WarmError::Io {
            path,
            why: e.to_string(),
        }
    };
    asm_jars()?;
    let agent = crate::agent::extract(&wd.runtime()).map_err(io(&wd.runtime()))?;
    let ids: Vec<String> = state
        .tests
        .iter()
        .filter(|t| t.passed)
        .filter(|t| {
            only.is_empty()
                || only
                    .iter()
                    .any(|g| g.matches(&t.id.to_string()) || g.matches(&t.id.class))
        })
        .map(|t| t.id.to_string())
        .collect();
    let list = wd.root.join("tmp").join("warm-check-tests.txt");
    std::fs::create_dir_all(list.parent().expect("in tmp")).map_err(io(&list))?;
    std::fs::write(&list, ids.join("\n") + "\n").map_err(io(&list))?;
    let jvm_cp = join_path(std::iter::once(agent).chain(state.tools.junit.iter().cloned()));
    let cwd = wd
        .copy_project(0, &state.project.root)
        .map_err(io(&wd.worker_project(0)))?;
    let mut cmd = Command::new(state.tools.java());
    cmd.args(default_jvm_options())
        .args(&state.project.jvm_options)
        .arg("-cp")
        .arg(&jvm_cp)
        .arg(class::WARM_CHECK)
        .arg(wd.test_classpath(state, None).join(":"))
        .arg(&list)
        .arg(rounds.max(1).to_string());
    if !reset {
        cmd.arg(warm_check::NO_RESET);
    }
    let out = cmd
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .map_err(io(&state.tools.java()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut report = WarmReport {
        differences: vec![],
        summary: vec![],
    };
    for text in stdout.lines() {
        let diff = text
            .strip_prefix(warm_check::DIFF)
            .and_then(|rest| rest.strip_prefix(line::SEPARATOR));
        match diff {
            Some(rest) => {
                let mut f = rest.splitn(3, line::SEPARATOR);
                report.differences.push(Difference {
                    test: f.next().unwrap_or("").to_string(),
                    fresh: f.next().unwrap_or("").to_string(),
                    warm: f.next().unwrap_or("").to_string(),
                });
            }
            None => report.summary.push(text.to_string()),
        }
    }
    // WarmCheck exits `EXIT_DIFFER` when results differ; anything else without a summary is a
    // broken check.
    let finished = [warm_check::EXIT_SAME, warm_check::EXIT_DIFFER];
    if report.summary.is_empty() || !out.status.code().is_some_and(|c| finished.contains(&c)) {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(20).collect();
        return Err(WarmError::Jvm {
            code: out.status.code(),
            stderr: tail.into_iter().rev().collect::<Vec<_>>().join("\n"),
        });
    }
    Ok(report)
}
