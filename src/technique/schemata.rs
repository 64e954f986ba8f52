//! The schemata technique: a set's patches woven into one copy of the file (`weave`), compiled
//! once (`compile`), and the selected tests run over the woven patches, test-equivalent patches
//! sharing rounds through the state-transition tree (`schedule`); what cannot be woven goes to
//! the per-patch fallback (`fallback`) in the same worker JVM.

use super::fallback::one_by_one;
use super::groups;
pub use super::groups::{GROUP, GROUP_TEXT};
use super::validation::{SetValidation, Slot};
use super::{unusable, RunContext, Sink, Technique};
use crate::compile::compile_schemata;
use crate::model::{Extra, Outcome, PatchSet, Phase, SetResult, Verdict};
use crate::pool::Worker;
use crate::schedule::share::{Executed, HelpError, Job};
use crate::weave;
use std::path::Path;
use std::time::Instant;

/// The schemata on one worker thread.
pub struct Schemata {
    slot: Slot,
}

impl Schemata {
    pub fn new(id: usize) -> Schemata {
        Schemata {
            slot: Slot::new(id),
        }
    }
}

impl Technique for Schemata {
    fn validate(
        &mut self,
        ctx: &RunContext,
        path: &Path,
        set: &PatchSet,
        sink: &dyn Sink,
    ) -> SetResult {
        let id = self.slot.id;
        let worker = match self.slot.worker(ctx) {
            Ok(w) => w,
            Err(why) => return unusable(path, set.patches.len(), why.to_string()),
        };
        let mut v = SetValidation::new(ctx, worker, id, path, set, sink);
        crate::progress::phase("weaving");
        let technique = match plan(set, &mut v.extra) {
            Ok(mut plan) => {
                prepare(ctx, set, &mut plan, &v.extra);
                // Patches their location cannot hold, woven on a wider one (`weave::widen`).
                let wide = widened(ctx, set, |i| plan.excluded[i].as_deref());
                let holes = ctx.dedup.then(|| {
                    plan.enable_tree(&ctx.state.purity);
                    hole_plan(ctx, set, &plan, &v.extra)
                });
                let holes = holes.flatten();
                // One compile for the set where the wider location does all the set's own does.
                let whole = wide
                    .as_ref()
                    .is_some_and(|w| holes.is_none() && w.dominates(&plan));
                let in_wide = |i: usize| wide.as_ref().is_some_and(|w| w.members.contains(&i));
                match holes {
                    _ if whole => {}
                    Some((holes, members)) => {
                        let keep: Vec<bool> = (0..set.patches.len())
                            .map(|i| !members.contains(&i) && !in_wide(i))
                            .collect();
                        v.extra.value_holes = members.len() as u64;
                        woven(&mut v, ctx, worker, id, set, Part::of(&plan, keep));
                        let keep = keep_only(set.patches.len(), &members);
                        woven(&mut v, ctx, worker, id, set, Part::holes(&holes, keep));
                    }
                    None => {
                        let keep = (0..set.patches.len()).map(|i| !in_wide(i)).collect();
                        woven(&mut v, ctx, worker, id, set, Part::of(&plan, keep));
                    }
                }
                if let Some(mut w) = wide {
                    if whole {
                        w.members = (0..set.patches.len()).collect();
                    }
                    w.weave(&mut v, ctx, worker, id);
                }
                "schemata"
            }
            Err(why) => {
                let reason = why.to_string();
                let wide = (why == weave::scope::Unsupported::Declaration)
                    .then(|| widened(ctx, set, |_| Some(reason.as_str())))
                    .flatten();
                match wide {
                    Some(w) => {
                        for i in (0..set.patches.len()).filter(|i| !w.members.contains(i)) {
                            v.fallback.push((i, reason.clone()));
                        }
                        w.weave(&mut v, ctx, worker, id);
                        "schemata"
                    }
                    None => {
                        v.extra.fallback_reasons.push(reason.clone());
                        v.fallback
                            .extend((0..set.patches.len()).map(|i| (i, reason.clone())));
                        "fallback"
                    }
                }
            }
        };
        one_by_one(&mut v, ctx, worker, id, set);
        v.finish(worker, path, set, technique)
    }

    fn help(&mut self, ctx: &RunContext, job: &Job) -> Result<Executed, HelpError> {
        Ok(job.run(self.slot.worker(ctx)?))
    }

    fn warm_up(&mut self, ctx: &RunContext) {
        let id = self.slot.id;
        match self.slot.worker(ctx) {
            Ok(worker) => super::warm::warm(ctx, id, worker),
            Err(why) => tracing::warn!("{why}"),
        }
    }

    fn reset(&mut self) {
        self.slot.reset();
    }
}

/// The weaving plan for `set`. A location in the initialiser of a local declaration, which
/// cannot move into a method of its own, is planned on the file with that declaration split in
/// place (`weave::split`), and the patches that only a declaration can take stay unwoven. One in
/// a field's initialiser or a static block is planned with that code moved into a method
/// (`weave::hoist`), and the patches naming a guarded field stay unwoven. So is a location that
/// is a whole declaration, for the patches that change only its initialiser.
fn plan(set: &PatchSet, extra: &mut Extra) -> Result<weave::Plan, weave::scope::Unsupported> {
    use weave::split;
    let (src, range) = (set.original_text(), set.unpatched_range());
    let why = match weave::plan(&src, range.clone(), &set.patches) {
        Ok(plan) => return Ok(plan),
        Err(why) => why,
    };
    // What each patch keeps of a whole declaration (None: one that changes more of it).
    let (range, kept): (_, Vec<Option<split::Kept>>) =
        match split::narrow(&src, range.clone(), &set.patches) {
            Some((value, kept)) if kept.iter().filter(|p| p.is_some()).count() >= 2 => {
                (value, kept)
            }
            _ => {
                let whole = |p: &String| split::Kept {
                    before: String::new(),
                    init: p.clone(),
                    after: String::new(),
                };
                (range, set.patches.iter().map(whole).map(Some).collect())
            }
        };
    // A local declaration is split in place; a field's initialiser or a statement of an
    // initialiser block moves into a method of its own (`weave::hoist`), woven for the patches
    // that name no guarded field (and, in a block, leave it able to complete normally).
    let (split_src, range, statement, constant_value, hoisted) =
        match split::split_declaration(&src, range.clone()) {
            Some(s) => {
                let constant_value = s.constant_final.then_some(s.value);
                (s.src, s.range, Some(s.statement), constant_value, None)
            }
            None => match weave::hoist::field(&src, range.clone())
                .or_else(|| weave::hoist::block(&src, range))
            {
                Some(h) => {
                    let block = h.completion();
                    (h.src, h.range, None, None, Some((h.what, h.guarded, block)))
                }
                None => return Err(why),
            },
        };
    let location = range.clone();
    let guarded = hoisted.as_ref().map(|(_, g, _)| g);
    let block = hoisted.as_ref().and_then(|(_, _, b)| b.as_ref());
    let in_block = block.is_some();
    let (range, texts, around) = split::apply(&split_src, range, statement, &kept);
    let constant = |k: &split::Kept| {
        let value = constant_value.as_ref()?;
        split::constant_initialiser(&split_src, value, &location, around, k)
    };
    let mut plan = weave::plan(&split_src, range, &texts)?;
    for ((excluded, patch), kept) in plan.excluded.iter_mut().zip(&texts).zip(&kept) {
        if excluded.is_none() {
            *excluded = match kept {
                Some(k) if around || k.is_initialiser() => guarded_name(patch, guarded)
                    .or_else(|| block.and_then(|b| b.check(patch)))
                    // The block's later statements would see the local in place.
                    .or_else(|| {
                        (in_block && weave::declares_local(patch)).then(|| {
                            "the patch declares a local in an initialiser block, whose later \
                             statements would see it: validated alone"
                                .to_string()
                        })
                    })
                    // A block's statement is no initialiser: `{ … }` there is a block.
                    .or_else(|| (!in_block).then(|| split::unassignable(&k.init)).flatten())
                    .or_else(|| constant(k)),
                _ => Some(BEYOND_INITIALISER.to_string()),
            };
        }
    }
    match &hoisted {
        Some((what, _, _)) => extra.hoisted = Some(what.as_str().to_string()),
        None => extra.declaration_split = true,
    }
    Ok(plan)
}

/// What `technique::schemata` does to every plan before weaving: patches that edit other files
/// are compiled with them, stack readers run inline, and nothing runs inline in a hoisted
/// initialiser.
fn prepare(ctx: &RunContext, set: &PatchSet, plan: &mut weave::Plan, extra: &Extra) {
    for (i, excluded) in plan.excluded.iter_mut().enumerate() {
        let n = set.other_edits(i).len();
        if n > 0 && excluded.is_none() {
            *excluded = Some(format!(
                "the patch also edits other files ({n} edits): it is compiled with them"
            ));
        }
    }
    plan.inline_stack_exposed(&ctx.state.purity);
    if extra.hoisted.is_some() {
        // A hoisted initialiser runs in a generated method: inline there, a patch would still
        // see a frame plain has not (`__pv_static_*` for `<clinit>`).
        for (inline, excluded) in plan.inline.iter_mut().zip(&mut plan.excluded) {
            if let Some(why) = inline.take() {
                *excluded = Some(why);
            }
        }
    }
}

/// How far a location must widen to hold a patch left out of it for `why`.
fn reach_for(why: &str) -> Option<weave::widen::Reach> {
    use weave::widen::Reach;
    if why == weave::BRACELESS || why == weave::UNPARSED {
        Some(Reach::Statement)
    } else if why == BEYOND_INITIALISER
        || why == weave::VISIBLE_AFTER
        || why.starts_with(weave::split::CONSTANT_FINAL)
        || why == weave::scope::Unsupported::Declaration.to_string()
    {
        Some(Reach::RestOfBlock)
    } else {
        None
    }
}

/// The patches of a set woven on a wider location than the set's (`weave::widen`).
struct Wide {
    set: PatchSet,
    plan: weave::Plan,
    members: Vec<usize>,
}

/// The widened location for the patches whose exclusion (`why`) a wider location may hold:
/// the set rewritten on it (every patched file unchanged) and planned, with the patches its
/// plan holds; `None` when none.
fn widened<'a>(
    ctx: &RunContext,
    set: &PatchSet,
    why: impl Fn(usize) -> Option<&'a str>,
) -> Option<Wide> {
    let reaches: Vec<(usize, weave::widen::Reach)> = (0..set.patches.len())
        .filter_map(|i| Some((i, reach_for(why(i)?)?)))
        .collect();
    let reach = reaches.iter().map(|(_, r)| *r).max()?;
    let (src, range) = (set.original_text(), set.unpatched_range());
    let wide = weave::widen::widen(&src, range.clone(), reach)?;
    let mut wider = set.clone();
    wider.context_above = src[..wide.start].to_string();
    wider.unpatched = src[wide.clone()].to_string();
    wider.context_below = src[wide.end..].to_string();
    let (before, after) = (&src[wide.start..range.start], &src[range.end..wide.end]);
    for p in &mut wider.patches {
        *p = format!("{before}{p}{after}");
    }
    let mut extra = Extra::default();
    let mut plan = plan(&wider, &mut extra).ok()?;
    prepare(ctx, &wider, &mut plan, &extra);
    let members: Vec<usize> = reaches
        .iter()
        .map(|(i, _)| *i)
        .filter(|&i| plan.excluded[i].is_none())
        .collect();
    tracing::debug!(
        "{}: {} of {} patches woven on {} ({} bytes)",
        set.filename,
        members.len(),
        reaches.len(),
        reach.as_str(),
        wide.len()
    );
    if members.is_empty() {
        return None;
    }
    if ctx.dedup {
        plan.enable_tree(&ctx.state.purity);
    }
    Some(Wide {
        set: wider,
        plan,
        members,
    })
}

impl Wide {
    /// Whether this plan holds every patch `narrow` holds, and puts in the tree every patch
    /// `narrow` puts there: then it may take the whole set, in one compile.
    fn dominates(&self, narrow: &weave::Plan) -> bool {
        (0..narrow.excluded.len()).all(|i| {
            narrow.excluded[i].is_some()
                || self.plan.excluded[i].is_none()
                    && (narrow.tree[i].is_err() || self.plan.tree[i].is_ok())
        })
    }

    fn weave(
        &self,
        v: &mut SetValidation,
        ctx: &RunContext,
        worker: &mut Worker,
        worker_id: usize,
    ) {
        v.extra.widened += self
            .members
            .iter()
            .filter(|&&i| self.plan.excluded[i].is_none())
            .count() as u64;
        let keep = keep_only(self.set.patches.len(), &self.members);
        woven(
            v,
            ctx,
            worker,
            worker_id,
            &self.set,
            Part::of(&self.plan, keep),
        );
    }
}

/// Why a patch changing a whole declaration beyond its initialiser is not held by its location.
const BEYOND_INITIALISER: &str = "the patch changes more of the declaration than its initialiser";

/// Patches a value hole takes at least: fewer would not pay for the hole's own compile.
const HOLE_MIN: usize = 3;

/// The plan of a value hole (`weave::value`) for the patches of `set` that differ from the
/// unpatched statement in one expression and that `plan` (on the file itself, not split or
/// hoisted) could not put in the tree, with the patches the hole's plan puts there; `None`
/// when fewer than [`HOLE_MIN`] would go.
fn hole_plan(
    ctx: &RunContext,
    set: &PatchSet,
    plan: &weave::Plan,
    extra: &Extra,
) -> Option<(weave::Plan, Vec<usize>)> {
    if extra.declaration_split || extra.hoisted.is_some() {
        return None;
    }
    let (src, range) = (set.original_text(), set.unpatched_range());
    let h = weave::value::holes(&src, range, &plan.site, &set.patches, HOLE_MIN)?;
    let original = h.src[h.range.clone()].to_string();
    let candidate =
        |i: usize| h.patches[i].is_some() && plan.tree[i].is_err() && set.other_edits(i).is_empty();
    let texts: Vec<String> = (0..set.patches.len())
        .map(|i| h.patches[i].clone().unwrap_or_else(|| original.clone()))
        .collect();
    let mut holes = weave::plan(&h.src, h.range.clone(), &texts).ok()?;
    for (i, excluded) in holes.excluded.iter_mut().enumerate() {
        if !candidate(i) {
            *excluded = Some("not in the value hole".into());
        }
    }
    holes.inline_stack_exposed(&ctx.state.purity);
    holes.enable_tree(&ctx.state.purity);
    let members: Vec<usize> = (0..set.patches.len())
        .filter(|&i| candidate(i) && holes.tree[i].is_ok())
        .collect();
    tracing::debug!(
        "value hole of type {}: {} of {} patches",
        h.ty,
        members.len(),
        set.patches.len()
    );
    (members.len() >= HOLE_MIN).then_some((holes, members))
}

/// `n` flags, set for `members` only.
fn keep_only(n: usize, members: &[usize]) -> Vec<bool> {
    (0..n).map(|i| members.contains(&i)).collect()
}

/// One plan woven for some of a set's patches (`keep`); the others are another part's.
struct Part<'a> {
    plan: &'a weave::Plan,
    keep: Vec<bool>,
    /// A value hole's plan: its compile errors are not the patches' (the statement around the
    /// hole is rewritten), so a patch whose hole does not compile is compiled on its own.
    holes: bool,
}

impl<'a> Part<'a> {
    fn of(plan: &'a weave::Plan, keep: Vec<bool>) -> Part<'a> {
        Part {
            plan,
            keep,
            holes: false,
        }
    }

    fn holes(plan: &'a weave::Plan, keep: Vec<bool>) -> Part<'a> {
        Part {
            plan,
            keep,
            holes: true,
        }
    }
}

/// Why a patch of a hoisted initialiser is not woven: it names a field that an initialiser may
/// not read where a method may (`weave::hoist::Hoisted::guarded`).
fn guarded_name(
    patch: &str,
    guarded: Option<&std::collections::BTreeSet<String>>,
) -> Option<String> {
    let names = weave::tokens::scan(patch).names;
    let hit = guarded?.iter().find(|g| names.contains(*g))?;
    Some(format!(
        "the patch names the field `{hit}`, which an initialiser may not read where a method \
         may (declared later, itself, or a blank final): validated alone"
    ))
}

/// Why a patch that timed out in the schemata is decided again on its own.
const TIMED_OUT_WOVEN: &str =
    "timed out in the schemata: decided again with the plainly patched file, without the stub";

/// Why a patch that overflowed the stack in the schemata is decided again on its own.
const OVERFLOWED_WOVEN: &str =
    "overflowed the stack in the schemata: decided again with the plainly \
     patched file, without the stub";

/// Why a patch whose woven run failed by a class that could not be initialised is decided again.
const FAILED_INITIALISER_WOVEN: &str =
    "a class's initialiser had failed in the worker's JVM: decided again with the plainly \
     patched file, without the stub";

/// Whether a test run ended in a failure the worker's JVM may have decided
/// ([`rules::jvm_bound`](crate::rules::jvm_bound)), the failure itself or its cause. How deep a
/// recursion gets before the stack is full depends on the size of its frames, and the woven
/// method's frames are not the plainly patched method's (the stub, the capture's locals, a
/// method too long for the JIT), so the schemata's overflow need not be plain's: a recursion
/// that fills a stack trace at every level overflows there before its timeout, and in plain
/// times out; a deep recursion that ends in plain may overflow there. A class whose initialiser
/// failed may have failed in an earlier run in the same JVM.
fn jvm_bound(o: &Outcome) -> Option<crate::rules::JvmBound> {
    use crate::rules::jvm_bound;
    o.detail.as_deref().and_then(jvm_bound).or_else(|| {
        o.runs
            .iter()
            .find_map(|r| r.failed.as_deref().and_then(jvm_bound))
    })
}

/// Why an outcome of woven code need not be the plainly patched program's, so that the patch's
/// own compile of the plainly patched file decides it: a timeout (the stub runs at every visit
/// of the location, so woven code is slower: a patch that ends just past its timeout in the
/// schemata, a loop filling the heap until OutOfMemoryError, may end in time in plain) or a
/// stack overflow or a class that could not be initialised ([`jvm_bound`]).
fn decided_again(o: &Outcome) -> Option<&'static str> {
    use crate::rules::JvmBound;
    if o.verdict == Verdict::Timeout {
        return Some(TIMED_OUT_WOVEN);
    }
    jvm_bound(o).map(|bound| match bound {
        JvmBound::Overflow => OVERFLOWED_WOVEN,
        JvmBound::FailedInitialiser => FAILED_INITIALISER_WOVEN,
    })
}

/// Compiles the schemata and runs the tests of every woven patch, in groups of at most
/// [`GROUP`] patches, each its own woven file, compile and test runs.
fn woven(
    v: &mut SetValidation,
    ctx: &RunContext,
    worker: &mut Worker,
    worker_id: usize,
    set: &PatchSet,
    part: Part,
) {
    let plan = part.plan;
    for (i, why) in plan.excluded.iter().enumerate() {
        if let (Some(why), true) = (why, part.keep[i]) {
            v.fallback.push((i, why.clone()));
        }
    }
    let setup = ctx.setup(worker_id, "schemata", set);
    let weight = |i: usize| plan.site.method.len() + 2 * plan.statement(i).len();
    let mut weavable = plan.weavable();
    weavable.retain(|&i| part.keep[i]);
    if weavable.is_empty() {
        return;
    }
    let mut size = groups::group_size(plan, &weavable);
    let lines_read = !ctx.state.purity.frames_unread() || plan.inline.iter().any(Option::is_some);
    let mut groups = groups::cut(plan, &weavable, lines_read, size, weight);
    let mut terminal = false;
    while let Some(group) = groups.pop_front() {
        crate::progress::phase(&format!("compiling the schemata ({} patches)", group.len()));
        let s = match compile_schemata(worker, &setup, plan, group.clone(), terminal) {
            Ok(mut s) if part.holes => {
                for (i, msg) in std::mem::take(&mut s.compile_errors) {
                    s.fallback
                        .insert(i, format!("its value hole does not compile: {msg}"));
                }
                s
            }
            Ok(s) => s,
            Err(e) => {
                let why = format!("compiling the schemata: {e}");
                v.extra.fallback_reasons.push(why.clone());
                v.fallback.extend(
                    std::iter::once(group)
                        .chain(groups.drain(..))
                        .flatten()
                        .map(|i| (i, why.clone())),
                );
                return;
            }
        };
        v.extra.javac_invocations += s.javac_invocations;
        v.extra.compile_ms += s.millis;
        terminal = s.terminal_stub;
        v.extra.terminal_stub |= s.terminal_stub;
        if !s.too_large.is_empty() {
            // Past a limit: this group and every later one again, in groups half this size.
            size = s.too_large.len().div_ceil(2);
            tracing::debug!(
                "{} woven patches are past the JVM's limits: groups of {size}",
                s.too_large.len()
            );
            let rest: Vec<usize> = s
                .too_large
                .iter()
                .copied()
                .chain(groups.drain(..).flatten())
                .collect();
            groups = groups::cut(plan, &rest, lines_read, size, weight);
        }
        run_group(v, ctx, worker, set, plan, &setup, s);
    }
}

/// The outcomes of one compiled group: its compile errors, its patches to validate one by one,
/// and the tests of its woven patches run.
fn run_group(
    v: &mut SetValidation,
    ctx: &RunContext,
    worker: &mut Worker,
    set: &PatchSet,
    plan: &weave::Plan,
    setup: &crate::compile::CompileSetup,
    s: crate::compile::Schemata,
) {
    for (i, msg) in &s.compile_errors {
        v.decide(
            *i,
            Outcome::new(Verdict::CompileError, Phase::Compile).with_detail(msg.clone()),
        );
    }
    v.fallback
        .extend(s.fallback.iter().map(|(i, why)| (*i, why.clone())));
    let Some(woven) = &s.woven else { return };
    v.extra.schemata_groups += 1;
    v.extra.woven += woven.patches.len();
    let tree: Vec<usize> = woven
        .patches
        .iter()
        .copied()
        .filter(|&i| plan.tree[i].is_ok())
        .collect();
    v.extra.tree_patches += tree.len();
    for &i in &woven.patches {
        if let Err(why) = &plan.tree[i] {
            *v.extra
                .sequential_reasons
                .entry(why.to_string())
                .or_default() += 1;
        }
    }
    let t = Instant::now();
    let cp = ctx.wd.test_classpath(ctx.state, Some(&setup.overlay));
    let done = v.execute(ctx, worker, &cp, &woven.patches, &tree, Phase::Execute);
    // Frames of the woven file read as the plainly patched file's (line, method name).
    let mut frames = woven.frames.clone();
    frames.file_name = std::path::Path::new(&set.filename)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for (i, mut o) in done {
        if let Some(why) = decided_again(&o) {
            if o.verdict == Verdict::Timeout {
                v.timed_out_woven.insert(i);
            }
            v.fallback.push((i, why.to_string()));
            continue;
        }
        o.detail = o.detail.map(|d| frames.rewrite(i, &d));
        for run in &mut o.runs {
            run.failed = run.failed.take().map(|d| frames.rewrite(i, &d));
        }
        v.decide(i, o);
    }
    v.extra.run_ms += t.elapsed().as_secs_f64() * 1000.0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overflow_or_a_failed_initialiser_in_the_schemata_is_decided_again() {
        let failed = |detail: &str| {
            Outcome::new(Verdict::TestFailure, Phase::Execute).with_detail(detail.to_string())
        };
        assert_eq!(
            decided_again(&failed(
                "java.lang.StackOverflowError:  @ org.example.Quota.take(Quota.java:8)"
            )),
            Some(OVERFLOWED_WOVEN)
        );
        assert_eq!(
            decided_again(&failed(
                "java.lang.NoClassDefFoundError: Could not initialize class java.lang.StackTraceElement$HashedModules"
            )),
            Some(FAILED_INITIALISER_WOVEN)
        );
        assert_eq!(
            decided_again(&failed("java.lang.AssertionError: no StackOverflowError")),
            None
        );
        assert_eq!(
            decided_again(&Outcome::new(Verdict::Plausible, Phase::Execute)),
            None
        );
    }

    #[test]
    fn a_local_declared_in_an_initialiser_block_statement_stays_alone() {
        // Woven, `int scale = 2;` would end with the unit, and `top` would read the field (30)
        // where in place it reads the local (60): 33e6891 gave `s` where plain gives `F`.
        let set: PatchSet = serde_json::from_value(serde_json::json!({
            "manifest_version": 3,
            "bug": "b",
            "filename": "p/Rates.java",
            "context_above": "package p;\n\nclass Rates {\n    static int scale;\n    static int top;\n\n    static {\n        ",
            "unpatched": "scale = 1;",
            "context_below": "\n        top = 30 * scale;\n    }\n}\n",
            "patches": ["scale = 1;", "int scale = 2; Rates.scale = 1;", "scale = 2;"],
        }))
        .unwrap();
        let mut extra = Extra::default();
        let plan = plan(&set, &mut extra).unwrap();
        assert_eq!(extra.hoisted.as_deref(), Some("static block"));
        assert!(plan.excluded[0].is_none() && plan.excluded[2].is_none());
        assert!(
            plan.excluded[1]
                .as_deref()
                .is_some_and(|w| w.contains("declares a local")),
            "{:?}",
            plan.excluded[1]
        );
    }
}
