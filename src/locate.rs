//! `patchval locate`, a front end over init's records: spectrum-based fault localization from the
//! per-test line coverage (`workdir::lines`), failing tests against passing ones, each source line
//! scored by Ochiai, DStar or Tarantula, ties ranked by their mean position, and the lines every
//! failing test executes marked (where a repair that makes every failing test pass may have to act).

use crate::workdir::lines::{parts, LineCoverage};
use crate::workdir::{WorkDir, WorkDirError};
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The suspiciousness formula (`ef`/`ep`: failing/passing tests that execute the line, `nf`/`np`:
/// those that do not, `F`/`P` the totals).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Formula {
    /// `ef / sqrt(F * (ef + ep))`.
    #[default]
    Ochiai,
    /// DStar with `*` = 2: `ef² / (ep + nf)`; infinite when both are 0.
    Dstar,
    /// `(ef / F) / (ef / F + ep / P)`.
    Tarantula,
}

impl Formula {
    pub fn score(self, ef: usize, ep: usize, failing: usize, passing: usize) -> f64 {
        let (ef, ep, f, p) = (ef as f64, ep as f64, failing as f64, passing as f64);
        let ratio = |a: f64, b: f64| if b == 0.0 { 0.0 } else { a / b };
        match self {
            Formula::Ochiai => ratio(ef, (f * (ef + ep)).sqrt()),
            Formula::Dstar if ep + (f - ef) == 0.0 && ef > 0.0 => f64::INFINITY,
            Formula::Dstar => ratio(ef * ef, ep + (f - ef)),
            Formula::Tarantula => {
                let (fail, pass) = (ratio(ef, f), ratio(ep, p));
                ratio(fail, fail + pass)
            }
        }
    }
}

/// One suspicious source line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Suspect {
    /// 1-based; tied lines share the mean of their positions.
    pub rank: f64,
    #[serde(serialize_with = "finite_or_text")]
    pub score: f64,
    /// Executed by every failing test.
    pub must: bool,
    /// The source file, relative to the project's root (the class's name when it is not found).
    pub file: PathBuf,
    pub line: u32,
    /// Binary name (`pkg.Outer$Inner`) and method of the first class file probe at the line.
    pub class: String,
    pub method: String,
    /// The text of the line, trimmed.
    pub statement: String,
    /// The failing tests that execute the line, and how many passing ones do.
    pub failing: Vec<String>,
    pub passing: usize,
}

/// `locate`'s answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Localization {
    pub formula: Formula,
    /// The failing tests with line coverage, and the passing ones counted.
    pub failing_tests: Vec<String>,
    pub passing_tests: usize,
    /// Failing tests of the baseline that have no line coverage (not counted).
    pub failing_without_coverage: Vec<String>,
    /// Every line some failing test executes, most suspicious first.
    pub suspects: Vec<Suspect>,
}

#[derive(Debug, thiserror::Error)]
pub enum LocateError {
    #[error(transparent)]
    WorkDir(#[from] WorkDirError),
    #[error(
        "{0}: no line coverage; the work dir was initialised by an older patchval: run `patchval init` again"
    )]
    NoLines(PathBuf),
    #[error("no test fails on the unpatched program (state.json): there is no fault to localise")]
    NoFailingTests,
    #[error("none of the failing tests ({0}) has line coverage: was it a timeout or a crash?")]
    NoFailingCoverage(String),
}

impl LocateError {
    pub fn exit_code(&self) -> crate::exit::ExitCode {
        use crate::exit::ExitCode;
        match self {
            LocateError::WorkDir(_) | LocateError::NoLines(_) => ExitCode::Environment,
            LocateError::NoFailingTests | LocateError::NoFailingCoverage(_) => ExitCode::Project,
        }
    }
}

/// Localises the fault of the unpatched program of `wd` with `formula`; `must_first` puts every
/// line executed by all failing tests before the others (else only before those of equal score).
pub fn locate(
    wd: &WorkDir,
    formula: Formula,
    must_first: bool,
) -> Result<Localization, LocateError> {
    let state = wd.load()?;
    let lines = LineCoverage::load(&wd.lines())?.ok_or_else(|| LocateError::NoLines(wd.lines()))?;
    let failing: Vec<String> = state
        .tests
        .iter()
        .filter(|t| !t.passed)
        .map(|t| t.id.to_string())
        .collect();
    if failing.is_empty() {
        return Err(LocateError::NoFailingTests);
    }
    let passing: Vec<String> = state
        .tests
        .iter()
        .filter(|t| t.passed)
        .map(|t| t.id.to_string())
        .collect();
    let (failing, without): (Vec<String>, Vec<String>) = failing
        .into_iter()
        .partition(|t| lines.tests.contains_key(t));
    if failing.is_empty() {
        return Err(LocateError::NoFailingCoverage(without.join(", ")));
    }
    let passing: Vec<&String> = passing
        .iter()
        .filter(|t| lines.tests.contains_key(*t))
        .collect();
    // Per source line (outer class and line number): its ids, then the tests that ran one of them.
    let mut by_line: BTreeMap<(&str, u32), Vec<u32>> = BTreeMap::new();
    for (id, name) in lines.lines.iter().enumerate() {
        if let Some((class, _, line)) = parts(name) {
            by_line
                .entry((outer(class), line))
                .or_default()
                .push(id as u32);
        }
    }
    let runs = |test: &str, ids: &[u32]| {
        ids.iter()
            .any(|id| lines.tests[test].binary_search(id).is_ok())
    };
    let mut sources = Sources::new(&state.project.root, &state.project.source_dirs);
    let mut suspects = Vec::new();
    for ((class, line), ids) in &by_line {
        let hit: Vec<String> = failing.iter().filter(|t| runs(t, ids)).cloned().collect();
        if hit.is_empty() {
            continue;
        }
        let ep = passing.iter().filter(|t| runs(t, ids)).count();
        let (first, method, _) = parts(&lines.lines[ids[0] as usize]).expect("parsed above");
        let (file, text) = sources.line(class, *line);
        suspects.push(Suspect {
            rank: 0.0,
            score: formula.score(hit.len(), ep, failing.len(), passing.len()),
            must: hit.len() == failing.len(),
            file,
            line: *line,
            class: first.replace('/', "."),
            method: method.to_string(),
            statement: text,
            failing: hit,
            passing: ep,
        });
    }
    rank(&mut suspects, must_first);
    Ok(Localization {
        formula,
        failing_tests: failing,
        passing_tests: passing.len(),
        failing_without_coverage: without,
        suspects,
    })
}

/// Sorts by score (and the must mark: before every other line with `must_first`, else between
/// equal scores), then by file and line; lines equal on the sort key share their mean position.
fn rank(suspects: &mut [Suspect], must_first: bool) {
    let order = |a: &Suspect, b: &Suspect| {
        let lead = if must_first {
            b.must.cmp(&a.must)
        } else {
            Ordering::Equal
        };
        lead.then(b.score.total_cmp(&a.score))
            .then(b.must.cmp(&a.must))
    };
    suspects.sort_by(|a, b| order(a, b).then_with(|| (&a.file, a.line).cmp(&(&b.file, b.line))));
    let mut start = 0;
    while start < suspects.len() {
        let tied = suspects[start..]
            .iter()
            .take_while(|s| order(s, &suspects[start]) == Ordering::Equal)
            .count();
        let mean = (2 * start + 1 + tied) as f64 / 2.0;
        for s in &mut suspects[start..start + tied] {
            s.rank = mean;
        }
        start += tied;
    }
}

/// The top-level class of an internal class name (`pkg/Outer$Inner` → `pkg/Outer`).
fn outer(class: &str) -> &str {
    let simple = class.rfind('/').map_or(0, |i| i + 1);
    match class[simple..].find('$') {
        Some(i) => &class[..simple + i],
        None => class,
    }
}

/// The project's source files, read once each, found by their top-level class.
struct Sources<'a> {
    root: &'a Path,
    dirs: &'a [PathBuf],
    files: BTreeMap<String, Option<(PathBuf, Vec<String>)>>,
}

impl<'a> Sources<'a> {
    fn new(root: &'a Path, dirs: &'a [PathBuf]) -> Self {
        Sources {
            root,
            dirs,
            files: BTreeMap::new(),
        }
    }

    /// The file of top-level class `class` (internal name) relative to the root, and its line
    /// `line` trimmed; the class's name and no text when no source directory has it.
    fn line(&mut self, class: &str, line: u32) -> (PathBuf, String) {
        let (root, dirs) = (self.root, self.dirs);
        let found = self.files.entry(class.to_string()).or_insert_with(|| {
            let path = dirs
                .iter()
                .map(|d| d.join(format!("{class}.java")))
                .find(|p| p.is_file())
                .or_else(|| declaring_file(dirs, class))?;
            let text = std::fs::read_to_string(&path).ok()?;
            let rel = path
                .strip_prefix(root)
                .map(Path::to_path_buf)
                .unwrap_or(path);
            Some((rel, text.lines().map(str::to_string).collect()))
        });
        match found {
            Some((path, lines)) => (
                path.clone(),
                lines
                    .get((line as usize).wrapping_sub(1))
                    .map_or(String::new(), |l| l.trim().to_string()),
            ),
            None => (PathBuf::from(class.replace('/', ".")), String::new()),
        }
    }
}

/// A file of `class`'s package that declares it (a top-level class not named after its file).
fn declaring_file(dirs: &[PathBuf], class: &str) -> Option<PathBuf> {
    let (package, name) = class.rsplit_once('/').unwrap_or(("", class));
    let declares = |text: &str| {
        let words: Vec<&str> = text
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .filter(|w| !w.is_empty())
            .collect();
        words
            .windows(2)
            .any(|w| matches!(w[0], "class" | "interface" | "enum" | "record") && w[1] == name)
    };
    dirs.iter()
        .filter_map(|d| std::fs::read_dir(d.join(package)).ok())
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .find(|p| std::fs::read_to_string(p).is_ok_and(|t| declares(&t)))
}

fn finite_or_text<S: serde::Serializer>(score: &f64, s: S) -> Result<S::Ok, S::Error> {
    if score.is_finite() {
        s.serialize_f64(*score)
    } else {
        s.serialize_str("inf")
    }
}

/// The first `top` suspects as a table for people (stdout).
pub fn table(l: &Localization, top: usize) -> String {
    let mut out = format!(
        "{} failing and {} passing tests; formula {:?}; * = executed by every failing test\n",
        l.failing_tests.len(),
        l.passing_tests,
        l.formula
    );
    if !l.failing_without_coverage.is_empty() {
        out += &format!(
            "not counted (no line coverage): {}\n",
            l.failing_without_coverage.join(", ")
        );
    }
    let rows: Vec<[String; 6]> = l
        .suspects
        .iter()
        .take(top)
        .map(|s| {
            [
                format!("{}", s.rank),
                if s.score.is_finite() {
                    format!("{:.4}", s.score)
                } else {
                    "inf".into()
                },
                format!("{}{}", if s.must { "*" } else { " " }, s.failing.len()),
                format!("{}:{}", s.file.display(), s.line),
                s.method.clone(),
                s.statement.chars().take(70).collect(),
            ]
        })
        .collect();
    let head = ["rank", "score", "fail", "location", "method", "statement"].map(String::from);
    let widths: Vec<usize> = (0..5)
        .map(|c| {
            rows.iter()
                .chain([&head])
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in [&head].into_iter().chain(&rows) {
        let cells: Vec<String> = (0..5)
            .map(|c| format!("{:<w$}", r[c], w = widths[c]))
            .collect();
        out += &format!("{}  {}\n", cells.join("  "), r[5]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suspect(score: f64, must: bool, line: u32) -> Suspect {
        Suspect {
            rank: 0.0,
            score,
            must,
            file: "A.java".into(),
            line,
            class: "A".into(),
            method: "f".into(),
            statement: String::new(),
            failing: vec![],
            passing: 0,
        }
    }

    #[test]
    fn the_formulas_on_a_known_spectrum() {
        // 2 failing, 3 passing tests; the line runs in both failing and one passing test.
        assert!((Formula::Ochiai.score(2, 1, 2, 3) - 2.0 / 6f64.sqrt()).abs() < 1e-12);
        assert_eq!(Formula::Dstar.score(2, 1, 2, 3), 4.0);
        assert_eq!(Formula::Dstar.score(2, 0, 2, 3), f64::INFINITY);
        assert!((Formula::Tarantula.score(2, 1, 2, 3) - 1.0 / (1.0 + 1.0 / 3.0)).abs() < 1e-12);
        for f in [Formula::Ochiai, Formula::Dstar, Formula::Tarantula] {
            assert_eq!(f.score(0, 3, 2, 3), 0.0, "{f:?}");
        }
    }

    #[test]
    fn ties_share_their_mean_position_and_must_breaks_ties_or_leads() {
        let mut s = vec![
            suspect(0.5, false, 1),
            suspect(0.9, false, 2),
            suspect(0.5, true, 3),
            suspect(0.5, false, 4),
            suspect(0.4, true, 5),
        ];
        rank(&mut s, false);
        let got: Vec<(u32, f64)> = s.iter().map(|s| (s.line, s.rank)).collect();
        assert_eq!(got, [(2, 1.0), (3, 2.0), (1, 3.5), (4, 3.5), (5, 5.0)]);
        rank(&mut s, true);
        let got: Vec<(u32, f64)> = s.iter().map(|s| (s.line, s.rank)).collect();
        assert_eq!(got, [(3, 1.0), (5, 2.0), (2, 3.0), (1, 4.5), (4, 4.5)]);
    }

    #[test]
    fn inner_classes_belong_to_their_top_level_class() {
        assert_eq!(outer("p/q/A$1$B"), "p/q/A");
        assert_eq!(outer("A"), "A");
        assert_eq!(outer("p/A"), "p/A");
    }
}
