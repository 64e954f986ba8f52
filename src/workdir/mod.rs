//! The work directory: where `init` leaves the baseline and `run` finds it, and where results go.

use crate::model::TestId;
pub mod coverage;
pub mod lines;
mod probes;

use crate::project::Project;
use crate::toolchain::Toolchain;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A work directory that `run` cannot use.
#[derive(Debug, thiserror::Error)]
pub enum WorkDirError {
    #[error("{path}: {why} (run `patchval init --work-dir {root}` first)")]
    NotInitialized {
        path: PathBuf,
        root: PathBuf,
        why: String,
    },
    #[error("{path}: {why} (run `patchval init` again)")]
    Corrupt { path: PathBuf, why: String },
    /// A record of the work dir that is there but cannot be read (`coverage.json`).
    #[error("{path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A record of the work dir that is not the JSON it should be (`coverage.json`).
    #[error("{path}: {source}")]
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
}

/// Where [`WorkDir::test_classpath`] puts the overlay, when there is one.
pub const OVERLAY_AT: usize = 1;

/// The unpatched program's class path from a test round's (`test_classpath` with an overlay):
/// the same without the overlay.
pub fn without_overlay(classpath: &[String]) -> Vec<String> {
    let mut unpatched = classpath.to_vec();
    if unpatched.len() > OVERLAY_AT {
        unpatched.remove(OVERLAY_AT);
    }
    unpatched
}

/// Per-test timeout for validation: 5 s + 1.5 × the baseline time (as in the paper).
pub fn timeout_for(millis: f64) -> u64 {
    5000 + (1.5 * millis).ceil() as u64
}

/// One test as measured at init.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestRecord {
    pub id: TestId,
    /// Passed on the unpatched program.
    pub passed: bool,
    pub millis: f64,
    /// Per-test timeout: 5 s + 1.5 × baseline time.
    pub timeout_ms: u64,
    /// Why it failed on the unpatched program (trigger tests only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// Runs in a warm class loader: every test of its class gave the same result there as in a
    /// fresh loader in the baseline (`init`). Absent in older work dirs: fresh loaders.
    #[serde(default)]
    pub warm: bool,
}

/// Everything `init` learnt, persisted as `state.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub project: Project,
    pub tools: Toolchain,
    pub tests: Vec<TestRecord>,
    /// Test classes or methods that could not be used, with the reason.
    pub excluded: Vec<(String, String)>,
    /// Which methods of the project and its dependencies change no state (for tree eligibility).
    #[serde(default)]
    pub purity: crate::bytecode::purity::Purity,
    pub init_seconds: f64,
}

impl State {
    /// The state of a work dir copied to another machine, whose project checkout is at `root`
    /// (not where `init` read it): every project path below the old root is moved below `root`.
    /// A JDK or JUnit jar missing here is found again (`Toolchain::detect`).
    pub fn relocate(&mut self, root: &Path) -> Result<(), crate::toolchain::ToolchainError> {
        let old = self.project.root.clone();
        let moved = |p: &mut PathBuf| {
            if let Ok(rest) = p.strip_prefix(&old) {
                *p = root.join(rest);
            }
        };
        let pr = &mut self.project;
        for list in [
            &mut pr.source_dirs,
            &mut pr.test_dirs,
            &mut pr.resource_dirs,
            &mut pr.test_resource_dirs,
            &mut pr.classpath,
        ] {
            list.iter_mut().for_each(moved);
        }
        pr.root = root.to_path_buf();
        let here = |p: &PathBuf| p.exists();
        if !here(&self.tools.java_home) || !self.tools.junit.iter().all(here) {
            self.tools = Toolchain::detect()?;
        }
        Ok(())
    }

    /// Tests failing on the unpatched program.
    pub fn trigger_tests(&self) -> impl Iterator<Item = &TestRecord> {
        self.tests.iter().filter(|t| !t.passed)
    }
}

/// Paths inside a work directory.
#[derive(Debug, Clone)]
pub struct WorkDir {
    pub root: PathBuf,
}

impl WorkDir {
    /// The work directory at `root`, made absolute (workers run in their own directories).
    pub fn new(root: &Path) -> WorkDir {
        WorkDir {
            root: std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf()),
        }
    }
    pub fn state(&self) -> PathBuf {
        self.root.join("state.json")
    }
    pub fn classes(&self) -> PathBuf {
        self.root.join("classes")
    }
    pub fn test_classes(&self) -> PathBuf {
        self.root.join("test-classes")
    }
    pub fn results(&self) -> PathBuf {
        self.root.join("result.jsonl")
    }
    /// Per-test method coverage from init (`project::coverage`).
    pub fn coverage(&self) -> PathBuf {
        self.root.join("coverage.json")
    }

    /// Per-test line coverage from init, for fault localization (`workdir::lines`).
    pub fn lines(&self) -> PathBuf {
        self.root.join("lines.json")
    }
    pub fn details(&self) -> PathBuf {
        self.root.join("details.jsonl")
    }
    /// One directory per run (`records::RunRecord`), and `latest`.
    pub fn runs(&self) -> PathBuf {
        self.root.join("runs")
    }
    /// Patch sets grouped from diffs and edit-list manifests (`patchset::inputs`), one
    /// directory per input.
    pub fn inputs(&self) -> PathBuf {
        self.root.join("inputs")
    }
    pub fn logs(&self) -> PathBuf {
        self.root.join("logs")
    }
    pub fn runtime(&self) -> PathBuf {
        self.root.join("runtime")
    }
    /// A worker's private directory (its overlay and woven sources).
    pub fn worker(&self, id: usize) -> PathBuf {
        self.root.join("workers").join(id.to_string())
    }

    /// Where a worker's tests run: its own copy of the project tree, so tests that read files
    /// relative to the project find them and tests that write files cannot collide (the user's
    /// checkout is never touched).
    pub fn worker_project(&self, id: usize) -> PathBuf {
        self.worker(id).join("project")
    }

    /// Makes a fresh copy of the project tree for worker `id` (once per worker and run; build
    /// output, version control and the work dir itself are left out). The directory itself is
    /// kept and only emptied, so a worker already started in it (its working directory) sees
    /// the new copy.
    pub fn copy_project(&self, id: usize, project_root: &Path) -> std::io::Result<PathBuf> {
        let dest = self.worker_project(id);
        std::fs::create_dir_all(&dest)?;
        for entry in std::fs::read_dir(&dest)? {
            let entry = entry?;
            if entry.file_type()?.is_dir() {
                std::fs::remove_dir_all(entry.path())?;
            } else {
                std::fs::remove_file(entry.path())?;
            }
        }
        let skip = |p: &Path| {
            p.starts_with(&self.root)
                || p.file_name()
                    .is_some_and(|n| n == ".git" || n == "target" || n == ".svn")
        };
        let mut walk = walkdir::WalkDir::new(project_root).into_iter();
        while let Some(entry) = walk.next() {
            let entry = entry.map_err(std::io::Error::other)?;
            if entry.depth() > 0 && skip(entry.path()) {
                if entry.file_type().is_dir() {
                    walk.skip_current_dir();
                }
                continue;
            }
            let rel = entry
                .path()
                .strip_prefix(project_root)
                .expect("below the root");
            let to = dest.join(rel);
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&to)?;
            } else if entry.file_type().is_file() {
                std::fs::copy(entry.path(), &to)?;
            }
        }
        Ok(dest)
    }

    pub fn save(&self, state: &State) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.root)?;
        let tmp = self.root.join("state.json.tmp");
        std::fs::write(&tmp, serde_json::to_string_pretty(state)?)?;
        std::fs::rename(tmp, self.state())
    }

    pub fn load(&self) -> Result<State, WorkDirError> {
        let p = self.state();
        let text = std::fs::read_to_string(&p).map_err(|e| WorkDirError::NotInitialized {
            path: p.clone(),
            root: self.root.clone(),
            why: e.to_string(),
        })?;
        serde_json::from_str(&text).map_err(|e| WorkDirError::Corrupt {
            path: p,
            why: e.to_string(),
        })
    }

    /// Class path of a test round, in surefire's order: the test classes, then the overlay (the
    /// patched classes, before the ones they replace; at [`OVERLAY_AT`]), the project's classes
    /// and dependencies.
    pub fn test_classpath(&self, state: &State, overlay: Option<&Path>) -> Vec<String> {
        std::iter::once(self.test_classes())
            .chain(overlay.map(Path::to_path_buf))
            .chain([self.classes()])
            .chain(state.project.classpath.iter().cloned())
            .map(|p| p.display().to_string())
            .collect()
    }
}
