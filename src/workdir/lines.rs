//! Per-test source-line coverage of the unpatched program, recorded in init's warm pass beside
//! the method coverage and stored as `WORK/lines.json`: the spectrum fault localization reads
//! (`locate`). Failing tests are kept, unlike in the method coverage, which only selects tests.

use super::probes::{ids, load_json, named, renumber, renumbered, save_json, CoverageError};
use super::WorkDirError;
use crate::protocol::{coverage, line};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Line ids index `lines`; a line is `pkg/Outer$Inner.method:N` (internal class name, method
/// name, source line). One source line inside two methods (a lambda on its enclosing method's
/// line) has two ids.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LineCoverage {
    pub lines: Vec<String>,
    /// Per test (`Class#method`, or `Class#*` for a class run whole), the lines it executed.
    pub tests: BTreeMap<String, Vec<u32>>,
}

/// One line id's parts: internal class name, method, source line.
pub fn parts(name: &str) -> Option<(&str, &str, u32)> {
    let (member, line) = name.rsplit_once(':')?;
    let (class, method) = member.rsplit_once('.')?;
    Some((class, method, line.parse().ok()?))
}

impl LineCoverage {
    /// Adds the line part (`lines`, `line`) of one covered test run's agent lines (the others are
    /// `Coverage::absorb`'s, which calls this). A run without a `lines` line (an agent without line
    /// probes) adds nothing; on an error the record is left as it was.
    pub fn absorb(&mut self, test: &str, agent: &[String]) -> Result<(), CoverageError> {
        let (mut covered, mut names) = (None, Vec::new());
        for text in agent {
            let (kind, rest) = text
                .split_once(line::SEPARATOR)
                .unwrap_or((text.as_str(), ""));
            match kind {
                coverage::LINES => covered = Some(ids(rest)?),
                coverage::LINE_NAME => {
                    names.push(named(text, rest, self.lines.len() + names.len())?)
                }
                _ => {}
            }
        }
        let Some(covered) = covered else {
            return Ok(());
        };
        let known = self.lines.len() + names.len();
        if let Some(bad) = covered.iter().find(|&&i| i as usize >= known) {
            return Err(CoverageError::Unnamed(*bad));
        }
        self.lines.extend(names);
        self.tests.insert(test.to_string(), covered);
        Ok(())
    }

    /// Adds the record of another worker's JVM (which numbered the lines in its own order).
    pub fn merge(&mut self, other: LineCoverage) {
        let map = renumber(&mut self.lines, other.lines);
        for (test, ids) in other.tests {
            self.tests.insert(test, renumbered(&ids, &map));
        }
    }

    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        save_json(self, path)
    }

    /// The record at `path`; `Ok(None)` when init recorded none (a work dir from before lines).
    pub fn load(path: &Path) -> Result<Option<LineCoverage>, WorkDirError> {
        load_json(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::join;

    fn run(covered: &str, names: &[(&str, &str)]) -> Vec<String> {
        let mut v = vec![
            join(&[coverage::COVERED, "0"]),
            join(&[coverage::LINES, covered]),
        ];
        v.extend(
            names
                .iter()
                .map(|(i, n)| join(&[coverage::LINE_NAME, i, n])),
        );
        v
    }

    #[test]
    fn lines_of_two_jvms_merge_by_name_and_whole_classes_take_the_union() {
        let mut a = LineCoverage::default();
        a.absorb("T#a", &run("0,1", &[("0", "p/C.f:3"), ("1", "p/C.f:4")]))
            .unwrap();
        let mut b = LineCoverage::default();
        b.absorb("T#b", &run("0", &[("0", "p/C.f:4")])).unwrap();
        b.absorb("U#c", &run("0,1", &[("1", "p/C$1.g:9")])).unwrap();
        a.merge(b);
        assert_eq!(a.lines, ["p/C.f:3", "p/C.f:4", "p/C$1.g:9"]);
        assert_eq!(a.tests["T#b"], [1]);
        assert_eq!(a.tests["U#c"], [1, 2]);
        super::super::probes::join_tests(&mut a.tests, "T#*", &["T#a".into(), "T#b".into()]);
        assert_eq!(a.tests["T#*"], [0, 1]);
        assert!(!a.tests.contains_key("T#a"));
        assert_eq!(parts("p/C$1.g:9"), Some(("p/C$1", "g", 9)));
    }

    #[test]
    fn unnamed_or_misordered_lines_are_errors_and_change_nothing() {
        let mut c = LineCoverage::default();
        assert!(matches!(
            c.absorb("T#a", &run("0,5", &[("0", "p/C.f:3")])),
            Err(CoverageError::Unnamed(5))
        ));
        assert!(matches!(
            c.absorb("T#a", &run("", &[("1", "p/C.f:3")])),
            Err(CoverageError::OutOfOrder { id: 1, next: 0 })
        ));
        assert_eq!(c, LineCoverage::default());
        // A run without line probes adds nothing.
        c.absorb("T#a", &[join(&[coverage::COVERED, "0"])]).unwrap();
        assert!(c.tests.is_empty());
    }
}
