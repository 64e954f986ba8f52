//! `generate --order 2`: pairs of candidates at two different locations (the higher-order mutants
//! of sound and complete mutation-based repair), written as one edit list whose patches have two
//! edits each; `run` reads it like any edit list (grouped, validated as multi-edit patches).

use super::patterns::Candidate;
use serde_json::json;
use std::ops::Range;

/// The candidates made at one location.
pub struct Made {
    pub rank: usize,
    /// Relative to the project's root, as the manifest names it.
    pub filename: String,
    pub line: u32,
    pub range: Range<usize>,
    pub unpatched: String,
    pub cands: Vec<Candidate>,
}

/// Up to `max` pairs over every two locations of `made` (in rank order) whose statements do not
/// overlap: for each pair of locations the first `m` candidates of one with the first `m` of the
/// other, `m` the largest number that keeps every pair of locations within its share. The edit
/// list as JSON, and its patch count.
pub fn edit_list(made: &[Made], max: usize) -> Option<(serde_json::Value, usize)> {
    let mut locations = Vec::new();
    for (i, a) in made.iter().enumerate() {
        for b in &made[i + 1..] {
            let overlap = a.filename == b.filename
                && a.range.start < b.range.end
                && b.range.start < a.range.end;
            if !overlap && !a.cands.is_empty() && !b.cands.is_empty() {
                locations.push((a, b));
            }
        }
    }
    if locations.is_empty() || max == 0 {
        return None;
    }
    let share = (max / locations.len()).max(1);
    let m = ((share as f64).sqrt().floor() as usize).max(1);
    let mut patches = Vec::new();
    'all: for (a, b) in &locations {
        for (k, ca) in a.cands.iter().take(m).enumerate() {
            for (l, cb) in b.cands.iter().take(m).enumerate() {
                if patches.len() == max {
                    break 'all;
                }
                // Edits in file order, as a diff would give them.
                let (first, second) = if (a.filename.as_str(), a.range.start)
                    <= (b.filename.as_str(), b.range.start)
                {
                    ((a, ca), (b, cb))
                } else {
                    ((b, cb), (a, ca))
                };
                let edit = |(at, c): (&&Made, &Candidate)| {
                    json!({"filename": at.filename, "line": at.line,
                           "unpatched": at.unpatched, "patched": c.text})
                };
                patches.push(json!({
                    "name": format!("gen-{:03}+{:03}-{k}-{l} {}+{}", a.rank, b.rank, ca.family, cb.family),
                    "edits": [edit(first), edit(second)],
                }));
            }
        }
    }
    let n = patches.len();
    Some((json!({"bug": "gen-pairs", "patches": patches}), n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn made(rank: usize, file: &str, range: Range<usize>, n: usize) -> Made {
        Made {
            rank,
            filename: file.into(),
            line: rank as u32,
            range,
            unpatched: format!("s{rank};"),
            cands: (0..n)
                .map(|i| Candidate {
                    text: format!("c{rank}_{i};"),
                    family: "literal",
                })
                .collect(),
        }
    }

    #[test]
    fn pairs_skip_overlapping_statements_and_keep_within_the_budget() {
        let m = [
            made(1, "A.java", 10..50, 3),
            made(2, "A.java", 20..30, 3), // inside the first: no pair with it
            made(3, "A.java", 60..70, 3),
            made(4, "B.java", 20..30, 3),
        ];
        let (list, n) = edit_list(&m, 100).unwrap();
        let patches = list["patches"].as_array().unwrap();
        assert_eq!(n, patches.len());
        // 5 pairs of locations (1-3, 1-4, 2-3, 2-4, 3-4), 20 each at most: 3 x 3 candidates.
        assert_eq!(n, 5 * 9);
        assert!(patches
            .iter()
            .all(|p| !p["name"].as_str().unwrap().starts_with("gen-001+002")));
        let first = &patches[0]["edits"];
        assert_eq!(first[0]["unpatched"], "s1;");
        assert_eq!(first[1]["unpatched"], "s3;");
        let (_, few) = edit_list(&m, 7).unwrap();
        assert_eq!(
            few, 5,
            "a share of 1 per pair of locations, cut at the budget"
        );
        assert!(edit_list(&m[..1], 10).is_none());
    }
}
