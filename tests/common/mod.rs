//! Helpers shared by the end-to-end tests: fixture copies and running the real binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies `testdata/<name>` into a fresh temp dir and returns (guard, project path).
pub fn fixture(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dest = tmp.path().join(name);
    copy_dir(&repo().join("testdata").join(name), &dest);
    (tmp, dest)
}

pub fn copy_dir(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.expect("walk fixture");
        let rel = e.path().strip_prefix(from).unwrap();
        let target = to.join(rel);
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Runs the patchval binary with JAVA_HOME set.
pub fn patchval(args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_patchval"));
    cmd.args(args);
    if std::env::var_os("JAVA_HOME").is_none() {
        cmd.env("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64");
    }
    cmd.output().expect("run patchval")
}

/// `patchval init`, asserting success.
pub fn init(project: &Path, work: &Path) {
    let out = patchval(&[
        "init",
        "--project",
        project.to_str().unwrap(),
        "--work-dir",
        work.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "init failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// One parsed line of result.jsonl.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct ResultLine {
    pub patches_path: String,
    pub technique: Option<String>,
    pub succlist: String,
    pub error: Option<String>,
    pub extra: serde_json::Value,
}

impl ResultLine {
    pub fn set_name(&self) -> String {
        Path::new(&self.patches_path)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string()
    }
}

pub fn results(work: &Path) -> Vec<ResultLine> {
    std::fs::read_to_string(work.join("result.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("result line"))
        .collect()
}

/// `patchval run` on a fixture's patch sets, returning the result lines (in set-name order).
pub fn run(work: &Path, patches: &Path, technique: &str, jobs: usize) -> (Output, Vec<ResultLine>) {
    let _ = std::fs::remove_file(work.join("result.jsonl"));
    let out = patchval(&[
        "run",
        "--work-dir",
        work.to_str().unwrap(),
        "-j",
        &jobs.to_string(),
        "--technique",
        technique,
        patches.to_str().unwrap(),
    ]);
    let mut r = results(work);
    r.sort_by_key(|l| l.set_name());
    (out, r)
}

/// The verified verdicts of a fixture, by set file name.
pub fn expected(project: &Path) -> std::collections::BTreeMap<String, String> {
    let text = std::fs::read_to_string(project.join("patches/expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}
