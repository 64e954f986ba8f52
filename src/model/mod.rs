//! Shared vocabulary: verdicts, patch sets, per-patch outcomes, pipeline phases, a set's result
//! (`set_result`), and the stable hash keys and input directories are named by.

mod set_result;

use crate::protocol::{line, result, test_id};
use serde::{Deserialize, Serialize};
pub use set_result::{Confirmation, Disagreement, Extra, SetResult};
use std::fmt;

/// FNV-1a, 64 bits: a stable hash (the same in every build), enough to tell contents apart.
pub fn fnv(bytes: impl IntoIterator<Item = u8>, mut h: u64) -> u64 {
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// The FNV-1a offset basis, where [`fnv`] starts.
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// How `run` validates patches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Technique {
    /// Mutant schemata, in-process javac and embedded JVMs (the default).
    Schemata,
    /// Each patch compiled on its own by the worker's in-process javac and run in the worker's
    /// JVM: the schemata's fallback, for every patch.
    Fallback,
    /// The reference: per patch, javac on the patched file and a fresh JVM.
    Plain,
}

/// What plain validation says about one patch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    /// Plausible: every test passes (the trigger tests included).
    #[serde(rename = "s")]
    Plausible,
    /// A test fails.
    #[serde(rename = "F")]
    TestFailure,
    /// The patched program does not compile.
    #[serde(rename = "C")]
    CompileError,
    /// A test ran past its timeout.
    #[serde(rename = "T")]
    Timeout,
    /// The tool could not validate the patch (the reason is reported beside it).
    #[serde(rename = "E")]
    Error,
}

impl Verdict {
    /// The one-letter code used in `succlist`.
    pub fn letter(self) -> char {
        match self {
            Verdict::Plausible => 's',
            Verdict::TestFailure => 'F',
            Verdict::CompileError => 'C',
            Verdict::Timeout => 'T',
            Verdict::Error => 'E',
        }
    }

    /// Parses a `succlist` letter.
    pub fn from_letter(c: char) -> Option<Verdict> {
        Some(match c {
            's' => Verdict::Plausible,
            'F' => Verdict::TestFailure,
            'C' => Verdict::CompileError,
            'T' => Verdict::Timeout,
            'E' => Verdict::Error,
            _ => return None,
        })
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Renders verdicts as an ExpressAPR `succlist` string.
pub fn succlist(verdicts: &[Verdict]) -> String {
    verdicts.iter().map(|v| v.letter()).collect()
}

/// All candidate patches for one location, as read from an ExpressAPR manifest (version 3), or
/// as grouped from patches made of several edits (`patchset::edits`): then each patch may have a
/// name, and edits to other files than the set's, made together with its text at the location.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PatchSet {
    pub manifest_version: u32,
    /// ExpressAPR's project interface (`defects4j`, `maven`, …); patchval reads the project from
    /// the work dir, so a manifest may leave it out.
    #[serde(default)]
    pub interface: String,
    pub bug: String,
    /// Path of the patched file, relative to the project root.
    pub filename: String,
    pub context_above: String,
    pub unpatched: String,
    pub context_below: String,
    pub patches: Vec<String>,
    /// Each patch's name (its diff file, or its name in an edit-list manifest); empty for
    /// ExpressAPR manifests.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// For each patch, its edits to other files (empty, or one list per patch).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_files: Vec<Vec<FileEdit>>,
}

/// One edit to a file's text: the bytes from `start` that read `unpatched` become `patched`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEdit {
    /// Path of the file, relative to the project root.
    pub filename: String,
    /// Byte offset of the edit in the file's text.
    pub start: usize,
    pub unpatched: String,
    pub patched: String,
}

/// Why the other files a patch edits cannot be made ([`PatchSet::other_texts`]).
#[derive(Debug, thiserror::Error)]
pub enum OtherFileError {
    #[error("{path}: {source}")]
    Read {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    /// The file no longer reads at byte `at` what the edit replaces.
    #[error("{filename}: the text at byte {at} is no longer what the patch edits")]
    Changed { filename: String, at: usize },
}

impl FileEdit {
    /// The bytes of the file's text the edit replaces.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.unpatched.len()
    }
}

impl PatchSet {
    /// Patch `i`'s edits to other files than the set's.
    pub fn other_edits(&self, i: usize) -> &[FileEdit] {
        self.other_files.get(i).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Whether some patch also edits other files.
    pub fn edits_other_files(&self) -> bool {
        self.other_files.iter().any(|e| !e.is_empty())
    }

    /// The other files patch `i` changes, as (relative path, patched text), read from the
    /// project at `root`; the error says which edit no longer matches its file.
    pub fn other_texts(
        &self,
        i: usize,
        root: &std::path::Path,
    ) -> Result<Vec<(String, String)>, OtherFileError> {
        let mut out: Vec<(String, String)> = Vec::new();
        let mut edits: Vec<&FileEdit> = self.other_edits(i).iter().collect();
        edits.sort_by_key(|e| (e.filename.clone(), std::cmp::Reverse(e.start)));
        for e in edits {
            if out.last().map(|(f, _)| f) != Some(&e.filename) {
                let path = root.join(&e.filename);
                let text = match std::fs::read_to_string(&path) {
                    Ok(t) => t,
                    // A file the patch creates.
                    Err(err) if err.kind() == std::io::ErrorKind::NotFound => String::new(),
                    Err(source) => return Err(OtherFileError::Read { path, source }),
                };
                out.push((e.filename.clone(), text));
            }
            let text = &mut out.last_mut().expect("pushed above").1;
            if text.get(e.range()) != Some(e.unpatched.as_str()) {
                return Err(OtherFileError::Changed {
                    filename: e.filename.clone(),
                    at: e.start,
                });
            }
            text.replace_range(e.range(), &e.patched);
        }
        Ok(out)
    }

    /// The original file text the patch set was made against.
    pub fn original_text(&self) -> String {
        format!(
            "{}{}{}",
            self.context_above, self.unpatched, self.context_below
        )
    }

    /// Byte range of the unpatched text within the original file.
    pub fn unpatched_range(&self) -> std::ops::Range<usize> {
        let start = self.context_above.len();
        start..start + self.unpatched.len()
    }

    /// The whole file with patch `i` applied.
    pub fn patched_text(&self, i: usize) -> String {
        format!(
            "{}{}{}",
            self.context_above, self.patches[i], self.context_below
        )
    }
}

/// The detailed result for one patch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub verdict: Verdict,
    /// The test that failed or timed out, as `Class#method`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
    /// Failure message, compile diagnostic, or validation error reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// How the verdict was reached (schemata, fallback, plain).
    pub path: Phase,
    /// Why the patch was validated one by one rather than woven, when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_by_one: Option<String>,
    /// The tests run for the patch, in order: every test it passed, then the one it failed (with
    /// `run --matrix`, every test, passed or not).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<TestRun>,
    /// Plain validation only: the failure that decided the verdict did not hold when its test ran
    /// again alone in a fresh JVM (`technique::plain`), so the verdict depends on what ran before
    /// it in the JVM, or on chance. The verdict stays what plain's order gave; this says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unstable: Option<Box<Unstable>>,
}

/// Evidence that a plain verdict is unstable ([`Outcome::unstable`]): the test, how it ended in
/// plain's order, and how it ended alone in a fresh JVM for the unpatched program and the patch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unstable {
    /// `Class#method`.
    pub test: String,
    /// How the test ended in plain's order, after the tests before it (twice in that JVM).
    pub in_order: String,
    /// How it ended alone in a fresh JVM on the unpatched program.
    pub unpatched_alone: String,
    /// How it then ended for the patch in that JVM.
    pub patched_alone: String,
}

impl Unstable {
    /// One line for `extra.unstable` and the human lines.
    pub fn note(&self) -> String {
        format!(
            "{} failed in plain's order ({}); alone in a fresh JVM: unpatched {}, patched {}",
            self.test, self.in_order, self.unpatched_alone, self.patched_alone
        )
    }
}

/// One test run for a patch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestRun {
    /// `Class#method`.
    pub test: String,
    /// Time of the execution that decided it, in ms to the microsecond (a tree round's is its
    /// class's).
    pub ms: f64,
    /// Patches that execution decided at once (a class of test-equivalent patches); 1 alone.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub shared: usize,
    /// How the test ended when the patch did not pass it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    /// When the execution decided a class of patches (`shared` > 1): the class's first patch, the
    /// same in every patch's run of it. Patches with the same `test` and `alike` behaved alike on
    /// that test (the exported equivalence classes); absent for a patch decided alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alike: Option<usize>,
}

fn one() -> usize {
    1
}

fn is_one(n: &usize) -> bool {
    *n == 1
}

impl TestRun {
    /// A run of `test` that took `elapsed`, decided for `shared` patches, failing with `failed`.
    pub fn new(
        test: impl Into<String>,
        elapsed: std::time::Duration,
        shared: usize,
        failed: Option<String>,
    ) -> TestRun {
        TestRun {
            test: test.into(),
            ms: (elapsed.as_secs_f64() * 1e6).round() / 1e3,
            shared,
            failed,
            alike: None,
        }
    }

    /// The run of a class of patches whose first is `first` ([`TestRun::alike`]).
    pub fn alike(mut self, first: usize) -> TestRun {
        self.alike = Some(first);
        self
    }
}

impl Outcome {
    pub fn new(verdict: Verdict, path: Phase) -> Outcome {
        Outcome {
            verdict,
            test: None,
            detail: None,
            path,
            one_by_one: None,
            runs: Vec::new(),
            unstable: None,
        }
    }

    pub fn with_test(mut self, test: impl Into<String>) -> Outcome {
        self.test = Some(test.into());
        self
    }

    pub fn with_detail(mut self, detail: impl Into<String>) -> Outcome {
        self.detail = Some(detail.into());
        self
    }
}

/// Which part of the pipeline produced a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Reading and checking the patch set.
    Load,
    /// Syntax check before weaving.
    Syntax,
    /// The woven schemata compile.
    Compile,
    /// Tests run in the embedded JVM against the schemata.
    Execute,
    /// The patch could not be woven and was validated on its own (its own compile, same JVM).
    Fallback,
    /// The reference technique: javac and a fresh JVM per patch.
    Plain,
}

/// A test method, identified as `Class#method` (`Class#*` runs the whole class).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TestId {
    pub class: String,
    pub method: String,
}

impl TestId {
    pub fn parse(s: &str) -> Option<TestId> {
        let (class, method) = s.split_once(test_id::SEPARATOR)?;
        Some(TestId {
            class: class.to_string(),
            method: method.to_string(),
        })
    }
}

impl fmt::Display for TestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.class, test_id::SEPARATOR, self.method)
    }
}

/// The result of running one test once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TestResult {
    Pass,
    Skip,
    Fail {
        exception: String,
        message: String,
    },
    /// The test could not be started at all (class or method missing).
    Error(String),
    Timeout,
}

impl TestResult {
    /// Parses the agent's one-line answer (`protocol::result`: `PASS`, `SKIP`, `FAIL\tclass\tmsg`,
    /// `ERROR\treason`).
    pub fn parse_agent_line(text: &str) -> TestResult {
        let mut parts = text.splitn(3, line::SEPARATOR);
        match parts.next().unwrap_or("") {
            result::PASS => TestResult::Pass,
            result::SKIP => TestResult::Skip,
            result::FAIL => TestResult::Fail {
                exception: parts.next().unwrap_or("").to_string(),
                message: parts.next().unwrap_or("").to_string(),
            },
            result::ERROR => TestResult::Error(parts.collect::<Vec<_>>().join(" ")),
            other => TestResult::Error(format!("unexpected agent answer: {other}")),
        }
    }

    /// Passing for the purpose of plausibility (skipped tests do not fail a patch).
    pub fn passed(&self) -> bool {
        matches!(self, TestResult::Pass | TestResult::Skip)
    }

    /// A short description for reports.
    pub fn describe(&self) -> String {
        match self {
            TestResult::Pass => "pass".into(),
            TestResult::Skip => "skipped".into(),
            TestResult::Fail { exception, message } => format!("{exception}: {message}"),
            TestResult::Error(e) => format!("could not run: {e}"),
            TestResult::Timeout => "timed out".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for v in [
            Verdict::Plausible,
            Verdict::TestFailure,
            Verdict::CompileError,
            Verdict::Timeout,
            Verdict::Error,
        ] {
            assert_eq!(Verdict::from_letter(v.letter()), Some(v));
        }
        assert_eq!(succlist(&[Verdict::Plausible, Verdict::CompileError]), "sC");
    }

    #[test]
    fn agent_lines_parse() {
        use crate::protocol::join;
        assert_eq!(TestResult::parse_agent_line(result::PASS), TestResult::Pass);
        assert_eq!(
            TestResult::parse_agent_line(&join(&[
                result::FAIL,
                "java.lang.AssertionError",
                "expected:<1> but was:<2>"
            ])),
            TestResult::Fail {
                exception: "java.lang.AssertionError".into(),
                message: "expected:<1> but was:<2>".into()
            }
        );
        assert!(matches!(
            TestResult::parse_agent_line(&join(&[result::ERROR, "no such class"])),
            TestResult::Error(_)
        ));
    }
}
