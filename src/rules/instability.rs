//! When a disagreement with plain validation counts: plain validates the patch [`PLAIN_AGAIN`]
//! more times, each in a fresh JVM of its own, and the disagreement counts only when plain
//! repeats its verdict every time (or no run of plain gives the other technique's verdict);
//! otherwise it is plain's own instability, reported with the tests behind plain's verdicts.
//! `fuzz`, `bench`, `run --confirm-plausible` and the differential tests all judge this way
//! (docs/execution.md, "Plain's own instability").

use crate::model::{Outcome, Verdict};

/// How many more times plain validates a patch on which a technique disagrees with it.
pub const PLAIN_AGAIN: usize = 3;

/// What deciding a disagreement again found.
#[derive(Debug, Clone, PartialEq)]
pub enum Judgement {
    /// Plain repeated its verdict every time: the disagreement is real.
    Real,
    /// Plain's verdict changed between runs (`verdicts`: the first, then each run again), or its
    /// first verdict was already unstable alone (`model::Unstable`) and another technique's
    /// verdict is one plain gave: not held against the technique.
    PlainUnstable {
        verdicts: String,
        /// The tests that decided plain's verdicts that were not `s`, with how they ended.
        tests: Vec<String>,
    },
}

impl Judgement {
    pub fn is_real(&self) -> bool {
        matches!(self, Judgement::Real)
    }

    /// One line for reports: what plain said each time and the tests behind it.
    pub fn describe(&self) -> String {
        match self {
            Judgement::Real => format!(
                "plain repeated its verdict {} more times: a real disagreement",
                PLAIN_AGAIN
            ),
            Judgement::PlainUnstable { verdicts, tests } => format!(
                "plain's own instability: plain gave {verdicts} over {} runs{}",
                verdicts.chars().count(),
                if tests.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", tests.join("; "))
                }
            ),
        }
    }
}

/// Judges a disagreement: `other` is the verdict a technique gave, `first` plain's outcome in the
/// comparison, `again` plain's outcomes when it validated the patch again. It is real when plain
/// gave one verdict every time; when plain's verdicts differ it is plain's instability, unless
/// `other` is none of them (then no run of plain would agree with the technique: real).
pub fn judge(other: Verdict, first: &Outcome, again: &[Outcome]) -> Judgement {
    let all: Vec<&Outcome> = std::iter::once(first).chain(again).collect();
    let repeated = all.iter().all(|o| o.verdict == first.verdict);
    if repeated || !all.iter().any(|o| o.verdict == other) {
        return Judgement::Real;
    }
    Judgement::PlainUnstable {
        verdicts: all.iter().map(|o| o.verdict.letter()).collect(),
        tests: all
            .iter()
            .filter(|o| o.verdict != Verdict::Plausible)
            .map(|o| describe(o))
            .collect(),
    }
}

/// `F Class#method: detail` (shortened), and the evidence when plain found it unstable alone.
fn describe(o: &Outcome) -> String {
    let mut s = o.verdict.letter().to_string();
    if let Some(t) = &o.test {
        s.push(' ');
        s.push_str(t);
    }
    if let Some(d) = &o.detail {
        let d: String = d.replace('\n', " ").chars().take(160).collect();
        s.push_str(": ");
        s.push_str(&d);
    }
    if let Some(u) = &o.unstable {
        s.push_str(&format!(
            " [alone: unpatched {}, patched {}]",
            u.unpatched_alone, u.patched_alone
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Phase;

    fn o(v: Verdict) -> Outcome {
        Outcome::new(v, Phase::Plain)
    }

    #[test]
    fn a_verdict_plain_repeats_is_a_real_disagreement() {
        use Verdict::*;
        let first = o(TestFailure).with_test("T#t");
        let again = [o(TestFailure), o(TestFailure), o(TestFailure)];
        assert_eq!(judge(Plausible, &first, &again), Judgement::Real);
        // Plain changing among verdicts none of which is the technique's: real all the same.
        let again = [o(TestFailure), o(Timeout), o(TestFailure)];
        assert!(judge(Plausible, &first, &again).is_real());
    }

    #[test]
    fn a_verdict_plain_does_not_repeat_is_plains_instability_naming_the_test() {
        use Verdict::*;
        let first = o(TestFailure)
            .with_test("org.x.ZoneTest#names")
            .with_detail("java.text.ParseException: Unparseable date");
        let again = [o(Plausible), o(Plausible), o(Plausible)];
        let j = judge(Plausible, &first, &again);
        assert!(!j.is_real());
        let line = j.describe();
        assert!(line.contains("Fsss"), "{line}");
        assert!(line.contains("org.x.ZoneTest#names"), "{line}");
        // One run again that agrees with the technique is enough.
        let again = [o(TestFailure), o(Plausible), o(TestFailure)];
        assert!(!judge(Plausible, &first, &again).is_real());
    }
}
