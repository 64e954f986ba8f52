//! Per-test method coverage of the unpatched program, recorded in init's warm pass and stored as
//! `WORK/coverage.json`: which project methods (by class and name) each test executed, and which
//! ran inside an enum's or interface's static initialiser (counted as executed by every test).

use super::lines::LineCoverage;
pub use super::probes::CoverageError;
use super::probes::{ids, join_tests, load_json, named, renumber, renumbered, save_json};
use super::WorkDirError;
use crate::protocol::{coverage, line};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// What init recorded. Method ids index `methods`; a member is `pkg/Outer$Inner.name` (internal
/// class name, a dot, the method name; `<init>` and `<clinit>` included; overloads share one).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    pub methods: Vec<String>,
    /// Methods executed during an initialiser that the warm loader runs once for all tests.
    pub global: BTreeSet<u32>,
    /// Per test (`Class#method`), the methods it executed. A test without an entry is always run.
    pub tests: BTreeMap<String, Vec<u32>>,
    /// The source lines each test executed, failing tests included: saved apart
    /// (`WORK/lines.json`), as `run` never reads them.
    #[serde(skip)]
    pub lines: LineCoverage,
}

/// Which tests can see a change in one member.
#[derive(Debug, Clone, PartialEq)]
pub enum Reach {
    /// Every test may (the location is not one coverage can speak for).
    All(String),
    /// Only the tests with coverage that executed one of these method ids, and every test
    /// without coverage.
    Methods(BTreeSet<u32>),
}

impl Coverage {
    /// Adds one covered test run's agent lines (`cov`, `global`, `name`, and the `lines` and
    /// `line` of [`LineCoverage::absorb`]) to the record; on an error the record is left as it was.
    pub fn absorb(&mut self, test: &str, lines: &[String]) -> Result<(), CoverageError> {
        let (mut covered, mut global, mut names) = (None, Vec::new(), Vec::new());
        for text in lines {
            let (kind, rest) = text
                .split_once(line::SEPARATOR)
                .unwrap_or((text.as_str(), ""));
            match kind {
                coverage::COVERED => covered = Some(ids(rest)?),
                coverage::GLOBAL => global = ids(rest)?,
                coverage::NAME => names.push(named(text, rest, self.methods.len() + names.len())?),
                coverage::LINES | coverage::LINE_NAME => {} // LineCoverage's
                _ => return Err(CoverageError::Unexpected(text.clone())),
            }
        }
        let covered = covered.ok_or(CoverageError::NoCoverage)?;
        let known = self.methods.len() + names.len();
        if let Some(bad) = covered
            .iter()
            .chain(&global)
            .find(|&&i| i as usize >= known)
        {
            return Err(CoverageError::Unnamed(*bad));
        }
        self.lines.absorb(test, lines)?;
        self.methods.extend(names);
        self.global.extend(global);
        self.tests.insert(test.to_string(), covered);
        Ok(())
    }

    /// Adds the record of another worker (whose JVM numbered the methods in its own order).
    pub fn merge(&mut self, other: Coverage) {
        let map = renumber(&mut self.methods, other.methods);
        self.global
            .extend(other.global.iter().map(|&i| map[i as usize]));
        for (test, ids) in other.tests {
            self.tests.insert(test, renumbered(&ids, &map));
        }
        self.lines.merge(other.lines);
    }

    /// Replaces the records of `members` by one for `whole` (a class run as one test): the union
    /// of theirs, for methods and lines; no method record (always run) if a member has none.
    pub fn join(&mut self, whole: &str, members: &[String]) {
        join_tests(&mut self.tests, whole, members);
        join_tests(&mut self.lines.tests, whole, members);
    }

    /// Forgets a test's coverage (it did not behave in the warm loader as in a fresh one).
    pub fn forget(&mut self, test: &str) {
        self.tests.remove(test);
    }

    /// The method ids of a member of class `class` (internal name) whose source name is
    /// `member`: the member itself and the lambdas javac lifts out of it (`lambda$member$N`).
    fn ids_of(&self, class: &str, member: &str) -> BTreeSet<u32> {
        let exact = format!("{class}.{member}");
        let lambda = format!("{class}.lambda${member}$");
        let lambda_init = format!("{class}.lambda$new$");
        let lambda_static = format!("{class}.lambda$static$");
        self.methods
            .iter()
            .enumerate()
            .filter(|(_, m)| {
                **m == exact
                    || m.starts_with(&lambda)
                    || (member == "<init>" && m.starts_with(&lambda_init))
                    || (member == "<clinit>" && m.starts_with(&lambda_static))
            })
            .map(|(i, _)| i as u32)
            .collect()
    }

    /// Which tests can see a patch in `member` of `class` (internal name).
    pub fn reach(&self, class: &str, member: &str) -> Reach {
        let ids = self.ids_of(class, member);
        if let Some(g) = ids.iter().find(|i| self.global.contains(i)) {
            return Reach::All(format!(
                "{} runs while an enum or interface is initialised",
                self.methods[*g as usize]
            ));
        }
        Reach::Methods(ids)
    }

    /// Whether a test must run for a change that `reach` describes.
    pub fn selects(&self, reach: &Reach, test: &str) -> bool {
        match reach {
            Reach::All(_) => true,
            Reach::Methods(ids) => match self.tests.get(test) {
                None => true,
                Some(covered) => covered.iter().any(|i| ids.contains(i)),
            },
        }
    }

    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        save_json(self, path)
    }

    /// The record at `path`; `Ok(None)` when init recorded none.
    pub fn load(path: &Path) -> Result<Option<Coverage>, WorkDirError> {
        load_json(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::protocol::{coverage, join};

    fn lines(v: &[String]) -> Vec<String> {
        v.to_vec()
    }

    fn cov(ids: &str) -> String {
        join(&[coverage::COVERED, ids])
    }

    fn global(ids: &str) -> String {
        join(&[coverage::GLOBAL, ids])
    }

    fn name(id: &str, member: &str) -> String {
        join(&[coverage::NAME, id, member])
    }

    fn sample() -> Coverage {
        let mut c = Coverage::default();
        c.absorb(
            "T#a",
            &lines(&[
                cov("0,1"),
                global(""),
                name("0", "p/A.<init>"),
                name("1", "p/A.f"),
                name("2", "p/A.lambda$f$0"),
                name("3", "p/E.<clinit>"),
            ]),
        )
        .unwrap();
        c.absorb(
            "T#b",
            &lines(&[cov("2,3"), global("3"), name("4", "p/A$In.g")]),
        )
        .unwrap();
        c.absorb("T#c", &lines(&[cov("4"), global("3")])).unwrap();
        c
    }

    #[test]
    fn a_member_reaches_the_tests_that_ran_it_or_its_lambdas() {
        let c = sample();
        let r = c.reach("p/A", "f");
        assert_eq!(r, Reach::Methods([1, 2].into()));
        assert!(c.selects(&r, "T#a") && c.selects(&r, "T#b") && !c.selects(&r, "T#c"));
        assert!(
            c.selects(&r, "T#unknown"),
            "a test without coverage always runs"
        );
        let g = c.reach("p/A$In", "g");
        assert!(!c.selects(&g, "T#a") && c.selects(&g, "T#c"));
        let never = c.reach("p/A", "h");
        assert!(!c.selects(&never, "T#a") && !c.selects(&never, "T#b"));
    }

    #[test]
    fn code_run_by_an_enum_initialiser_reaches_every_test() {
        let c = sample();
        assert!(matches!(c.reach("p/E", "<clinit>"), Reach::All(_)));
    }

    #[test]
    fn records_of_two_workers_merge_by_method_name() {
        let mut a = Coverage::default();
        a.absorb(
            "T#a",
            &lines(&[cov("1"), global(""), name("0", "p/A.f"), name("1", "p/A.g")]),
        )
        .unwrap();
        let mut b = Coverage::default();
        b.absorb(
            "T#b",
            &lines(&[
                cov("0,1"),
                global("1"),
                name("0", "p/A.g"),
                name("1", "p/E.<init>"),
            ]),
        )
        .unwrap();
        a.merge(b);
        assert_eq!(a.methods, ["p/A.f", "p/A.g", "p/E.<init>"]);
        assert_eq!(a.tests["T#a"], [1]);
        assert_eq!(a.tests["T#b"], [1, 2]);
        assert_eq!(a.global, [2].into());
    }

    #[test]
    fn malformed_lines_are_errors() {
        let mut c = Coverage::default();
        assert!(
            c.absorb("T#a", &lines(&[cov("0")])).is_err(),
            "id without name"
        );
        assert!(c
            .absorb("T#a", &lines(&[name("3", "p/A.f"), cov("")]))
            .is_err());
        assert!(
            c.absorb("T#a", &lines(&[global("")])).is_err(),
            "no cov line"
        );
    }
}
