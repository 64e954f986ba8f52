//! `run --confirm-plausible`: every patch a technique calls plausible is validated once more by
//! plain validation (its own javac call, a fresh JVM), the slow and obviously right way. Where
//! plain validation says otherwise and repeats it when it validates the patch again
//! (`rules::instability`), its outcome is the patch's, and the disagreement is recorded
//! (`extra.confirmation`), printed and turned into the run's exit status; where it does not
//! repeat, the patch stays plausible and plain's instability is recorded.

use super::plain::Plain;
use super::{RunContext, Technique};
use crate::model::{Confirmation, Disagreement, Outcome, PatchSet, SetResult, Verdict};
use crate::rules::instability::{judge, PLAIN_AGAIN};
use std::path::Path;
use std::time::Instant;

/// Validates the plausible patches of `result` (of `set`, read from `path`) with `plain`, and
/// records the confirmation in `result`; a patch plain validation does not find plausible takes
/// plain's outcome. Nothing happens for a set without plausible patches.
pub fn confirm_plausible(
    ctx: &RunContext,
    plain: &mut Plain,
    path: &Path,
    set: &PatchSet,
    result: &mut SetResult,
) {
    let plausible: Vec<usize> = result
        .outcomes
        .iter()
        .enumerate()
        .filter(|(_, o)| o.verdict == Verdict::Plausible)
        .map(|(i, _)| i)
        .collect();
    // (A result whose outcomes are not the set's patches, one each, has nothing to confirm.)
    if plausible.is_empty() || result.outcomes.len() != set.patches.len() {
        return;
    }
    let t = Instant::now();
    let sub = subset(set, &plausible);
    let noop = |_: usize, _: &Outcome| {};
    let mut confirmed = plain.validate(ctx, path, &sub, &noop).outcomes;
    // Where plain says otherwise, it validates the patch again: the disagreement counts only
    // when plain repeats its verdict (rules::instability).
    let mut unstable = Vec::new();
    for (k, &patch) in plausible.iter().enumerate() {
        let Some(first) = confirmed.get(k).filter(|o| o.verdict != Verdict::Plausible) else {
            continue;
        };
        let again = plain.validate(ctx, path, &subset(set, &[patch; PLAIN_AGAIN]), &noop);
        let judged = judge(Verdict::Plausible, first, &again.outcomes);
        if !judged.is_real() {
            let note = format!("patch {patch}: {}", judged.describe());
            tracing::warn!("{}: {note}", path.display());
            unstable.push(note);
            confirmed[k] = result.outcomes[patch].clone();
        }
    }
    let seconds = t.elapsed().as_secs_f64();
    let disagreements = apply(result, &plausible, &confirmed);
    for d in &disagreements {
        tracing::error!(
            "{}: patch {} is plausible by the {} technique but `{}` by plain validation{}",
            path.display(),
            d.patch,
            result.technique.as_deref().unwrap_or("?"),
            d.plain,
            d.detail
                .as_deref()
                .map(|x| format!(": {x}"))
                .unwrap_or_default()
        );
    }
    result.extra.confirmation = Some(Confirmation {
        patches: plausible.len(),
        seconds,
        disagreements,
        unstable,
    });
    result.finish_counts();
}

/// The patches of `set` at `indices`, as a set of their own.
pub fn subset(set: &PatchSet, indices: &[usize]) -> PatchSet {
    let mut sub = set.clone();
    sub.patches = pick(&set.patches, indices);
    sub.names = pick(&set.names, indices);
    sub.other_files = pick(&set.other_files, indices);
    sub
}

/// A per-patch list's entries at `indices` (an empty list, which a manifest may leave out, stays
/// empty).
fn pick<T: Clone>(list: &[T], indices: &[usize]) -> Vec<T> {
    if list.is_empty() {
        return Vec::new();
    }
    indices.iter().map(|&i| list[i].clone()).collect()
}

/// Puts plain validation's outcomes (`confirmed[k]` for patch `plausible[k]`) in place where
/// they are not plausible; returns those disagreements. A confirmation that lacks a patch's
/// outcome (it could not run at all) leaves the patch as it was and says so.
fn apply(result: &mut SetResult, plausible: &[usize], confirmed: &[Outcome]) -> Vec<Disagreement> {
    let mut out = Vec::new();
    for (k, &patch) in plausible.iter().enumerate() {
        let Some(plain) = confirmed.get(k) else {
            out.push(Disagreement {
                patch,
                technique: Verdict::Plausible.letter(),
                plain: Verdict::Error.letter(),
                test: None,
                detail: Some("plain validation gave no outcome for the patch".into()),
            });
            continue;
        };
        if plain.verdict == Verdict::Plausible {
            continue;
        }
        out.push(Disagreement {
            patch,
            technique: Verdict::Plausible.letter(),
            plain: plain.verdict.letter(),
            test: plain.test.clone(),
            detail: plain.detail.clone(),
        });
        result.outcomes[patch] = plain.clone();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Extra, Phase};

    fn result(verdicts: &[Verdict]) -> SetResult {
        SetResult {
            patches_path: "s.json".into(),
            technique: Some("schemata".into()),
            outcomes: verdicts
                .iter()
                .map(|v| Outcome::new(*v, Phase::Execute))
                .collect(),
            names: vec![],
            error: None,
            extra: Extra::default(),
        }
    }

    #[test]
    fn a_patch_plain_does_not_find_plausible_takes_plains_outcome() {
        use Verdict::*;
        let mut r = result(&[Plausible, TestFailure, Plausible, Plausible]);
        let confirmed = vec![
            Outcome::new(Plausible, Phase::Plain),
            Outcome::new(TestFailure, Phase::Plain).with_test("T#t"),
        ];
        let d = apply(&mut r, &[0, 2, 3], &confirmed);
        assert_eq!(d.len(), 2);
        assert_eq!((d[0].patch, d[0].plain), (2, 'F'));
        assert_eq!(d[0].test.as_deref(), Some("T#t"));
        assert_eq!(r.outcomes[2].verdict, TestFailure);
        assert_eq!(r.outcomes[2].path, Phase::Plain);
        // No outcome for the last one: it stays, and the disagreement says why.
        assert_eq!((d[1].patch, d[1].plain), (3, 'E'));
        assert_eq!(r.outcomes[3].verdict, Plausible);
        assert_eq!(r.outcomes[0].verdict, Plausible);
    }

    #[test]
    fn the_subset_keeps_names_and_other_files_in_step() {
        let set = PatchSet {
            manifest_version: 3,
            patches: vec!["a;".into(), "b;".into(), "c;".into()],
            names: vec!["A".into(), "B".into(), "C".into()],
            ..Default::default()
        };
        let sub = subset(&set, &[0, 2]);
        assert_eq!(sub.patches, vec!["a;", "c;"]);
        assert_eq!(sub.names, vec!["A", "C"]);
        assert!(sub.other_files.is_empty());
    }
}
