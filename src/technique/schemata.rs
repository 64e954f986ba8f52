//! The schemata technique: a set's patches woven into one copy of the file (`weave`), compiled
//! once (`compile`), and the selected tests run over the woven patches, test-equivalent patches
//! sharing rounds through the state-transition tree (`schedule`); what cannot be woven goes to
//! the per-patch fallback (`fallback`) in the same worker JVM.

use super::fallback::one_by_one;
use super::groups;
pub use super::groups::{GROUP, GROUP_TEXT};
use super::planning::{
    hole_plan, keep_only, narrowed_to_tokens, plan, prepare, widened, Apart, Wide,
};
use super::validation::{SetValidation, Slot};
use super::{unusable, RunContext, Sink, Technique};
use crate::compile::compile_schemata;
use crate::model::{Outcome, PatchSet, Phase, SetResult, Verdict};
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
        // The worker's JVM starts while the set is planned (a cold JVM takes about as long as
        // planning a large set).
        self.slot.start(ctx);
        let mut v = SetValidation::new(ctx, self.slot.starts_so_far(), id, path, set, sink);
        crate::progress::phase("weaving");
        let (planned, narrowed) = planned(ctx, set, &mut v);
        let worker = match self.slot.worker(ctx) {
            Ok(w) => w,
            Err(why) => return unusable(path, set.patches.len(), why.to_string()),
        };
        // What is woven: the set, or the set narrowed to its patches' token changes; one by
        // one, each patch is compiled whole.
        let woven_set = narrowed.as_ref().unwrap_or(set);
        let technique = match planned {
            Planned::Woven(own) => {
                let OwnLocation {
                    plan,
                    wide,
                    holes,
                    whole,
                } = *own;
                let in_wide = |i: usize| wide.as_ref().is_some_and(|w| w.members.contains(&i));
                match holes {
                    _ if whole => {}
                    Some((holes, members)) => {
                        let keep: Vec<bool> = (0..woven_set.patches.len())
                            .map(|i| !members.contains(&i) && !in_wide(i))
                            .collect();
                        v.extra.value_holes = members.len() as u64;
                        woven(
                            &mut v,
                            ctx,
                            worker,
                            id,
                            woven_set,
                            Part::of(&plan, woven_set, keep),
                        );
                        let keep = keep_only(woven_set.patches.len(), &members);
                        woven(
                            &mut v,
                            ctx,
                            worker,
                            id,
                            woven_set,
                            Part::holes(&holes, woven_set, keep),
                        );
                    }
                    None => {
                        let keep = (0..woven_set.patches.len()).map(|i| !in_wide(i)).collect();
                        woven(
                            &mut v,
                            ctx,
                            worker,
                            id,
                            woven_set,
                            Part::of(&plan, woven_set, keep),
                        );
                    }
                }
                if let Some(mut w) = wide {
                    if whole {
                        w.members = (0..woven_set.patches.len()).collect();
                    }
                    w.weave(&mut v, ctx, worker, id, woven_set);
                }
                "schemata"
            }
            Planned::Wide(w) => {
                w.weave(&mut v, ctx, worker, id, woven_set);
                "schemata"
            }
            Planned::Fallback => "fallback",
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

/// A set planned on its own location (`plan`), with the value holes' plan and their members,
/// and the widened location for the patches the own one cannot hold; `whole`: the widened
/// location takes the whole set.
struct OwnLocation {
    plan: weave::Plan,
    wide: Option<Wide>,
    holes: Option<(weave::Plan, Vec<usize>)>,
    whole: bool,
}

/// How a set is woven, decided before its worker is needed.
enum Planned {
    /// On the set's own location.
    Woven(Box<OwnLocation>),
    /// Only on a widened location (the own one cannot be planned); the rest one by one.
    Wide(Box<Wide>),
    /// Every patch one by one.
    Fallback,
}

/// Plans `set` (the patches that go one by one entered in `v`). Where the set's own location
/// cannot be planned, the set narrowed to its patches' token changes (`weave::trivia`: a
/// javadoc reworded, lines re-indented beside a body's change) is planned instead, and returned
/// to be woven in its place.
fn planned(ctx: &RunContext, set: &PatchSet, v: &mut SetValidation) -> (Planned, Option<PatchSet>) {
    let why = match plan(set, &mut v.extra) {
        Ok(plan) => {
            // Patches the location cannot hold (a helper added beside the code, a javadoc
            // edited with it) may be held by the narrowed set's: the plan holding more wins.
            let unheld = |p: &weave::Plan| {
                (0..p.excluded.len())
                    .filter(|&i| p.excluded[i].is_some() && p.certain[i].is_none())
                    .count()
            };
            let before = unheld(&plan);
            // Only where a patch may hold what narrowing takes apart (a comment, an added
            // method): reading every patched file as tokens costs a few parses a patch.
            let apart = |t: &str| t.contains("//") || t.contains("/*") || t.contains("private");
            let may_narrow = (0..plan.excluded.len())
                .any(|i| plan.excluded[i].is_some() && apart(&set.patches[i]));
            if before > 0 && may_narrow {
                if let Some((narrowed, apart, reduced)) = narrowed_to_tokens(set) {
                    let mut extra = v.extra.clone();
                    if let Ok(mut other) = super::planning::plan(&narrowed, &mut extra) {
                        apart.apply(&mut other);
                        if unheld(&other) < before {
                            v.extra = extra;
                            v.extra.narrowed_to_tokens = reduced as u64;
                            let own = own_location(ctx, &narrowed, other, v, &apart);
                            return (own, Some(narrowed));
                        }
                    }
                }
            }
            return (own_location(ctx, set, plan, v, &Apart::default()), None);
        }
        Err(why) => why,
    };
    if let Some((narrowed, apart, reduced)) = narrowed_to_tokens(set) {
        let planned = match plan(&narrowed, &mut v.extra) {
            Ok(plan) => Some(own_location(ctx, &narrowed, plan, v, &apart)),
            Err(why) => wide_only(ctx, &narrowed, &why, v, &apart),
        };
        if let Some(planned) = planned {
            v.extra.narrowed_to_tokens = reduced as u64;
            return (planned, Some(narrowed));
        }
    }
    let planned = wide_only(ctx, set, &why, v, &Apart::default()).unwrap_or_else(|| {
        let reason = why.to_string();
        v.extra.fallback_reasons.push(reason.clone());
        unplanned(v, set, 0..set.patches.len(), &reason);
        Planned::Fallback
    });
    (planned, None)
}

/// A set whose own location cannot be planned (`why`) planned on the location widened around
/// a declaration it changes (the patches that location cannot hold one by one); `None` when
/// it cannot be either.
fn wide_only(
    ctx: &RunContext,
    set: &PatchSet,
    why: &weave::scope::Unsupported,
    v: &mut SetValidation,
    apart: &Apart,
) -> Option<Planned> {
    let reason = why.to_string();
    if *why != weave::scope::Unsupported::Declaration {
        return None;
    }
    let mut w = widened(ctx, set, |_| Some(reason.as_str()))?;
    apart.again(ctx, &mut w);
    let rest = (0..set.patches.len()).filter(|i| !w.members.contains(i));
    unplanned(v, set, rest, &reason);
    Some(Planned::Wide(Box::new(w)))
}

/// The plan of a set's own location made ready (`prepare`), with the wider location for the
/// patches it cannot hold and the value holes' plan, each patch's lines, methods added and whether it is left whole as `apart` says
/// (empty: as the plan has them).
fn own_location(
    ctx: &RunContext,
    set: &PatchSet,
    mut plan: weave::Plan,
    v: &mut SetValidation,
    apart: &Apart,
) -> Planned {
    apart.apply(&mut plan);
    prepare(ctx, set, &mut plan, &v.extra);
    v.extra.other_methods = plan.with_branches() as u64;
    // Patches their location cannot hold, woven on a wider one (`weave::widen`).
    let mut wide = widened(ctx, set, |i| plan.excluded[i].as_deref());
    if let Some(w) = &mut wide {
        apart.again(ctx, w);
    }
    let holes = ctx.dedup.then(|| {
        plan.enable_tree(&ctx.state.purity);
        hole_plan(ctx, set, &plan, &v.extra)
    });
    let mut holes = holes.flatten();
    if let Some((h, members)) = &mut holes {
        // A value hole weaves an expression: a patch with code elsewhere stays out.
        apart.apply(h);
        members.retain(|&i| h.excluded[i].is_none() && !apart.elsewhere(i));
    }
    // One compile for the set where the wider location does all the set's own does.
    let whole = wide
        .as_ref()
        .is_some_and(|w| holes.is_none() && w.dominates(&plan));
    Planned::Woven(Box::new(OwnLocation {
        plan,
        wide,
        holes,
        whole,
    }))
}

/// The patches no plan holds: one by one, but for those javac's parser rejects wherever the
/// rest of the file leaves them (`weave::syntax`), which are `C` at once with its message.
fn unplanned(
    v: &mut SetValidation,
    set: &PatchSet,
    patches: impl Iterator<Item = usize>,
    reason: &str,
) {
    let src = set.original_text();
    let parsed = weave::syntax::Parsed::new(&src);
    for i in patches {
        match parsed.certain_error(set.unpatched_range(), &set.patches[i]) {
            Some(error) => decide_certain(v, i, error),
            None => v.fallback.push((i, reason.to_string())),
        }
    }
}

/// Patch `i` decided `C` by a rule, with javac's message, and no compile.
fn decide_certain(v: &mut SetValidation, i: usize, error: String) {
    v.extra.certain_errors += 1;
    v.decide(
        i,
        Outcome::new(Verdict::CompileError, Phase::Compile).with_detail(error),
    );
}

/// One plan woven for some of a set's patches (`keep`); the others are another part's.
struct Part<'a> {
    plan: &'a weave::Plan,
    /// The set as given (a widened plan's set holds longer patches), for `weave::syntax`.
    origin: &'a PatchSet,
    keep: Vec<bool>,
    /// A value hole's plan: its compile errors are not the patches' (the statement around the
    /// hole is rewritten), so a patch whose hole does not compile is compiled on its own.
    holes: bool,
}

impl<'a> Part<'a> {
    fn of(plan: &'a weave::Plan, origin: &'a PatchSet, keep: Vec<bool>) -> Part<'a> {
        Part {
            plan,
            origin,
            keep,
            holes: false,
        }
    }

    fn holes(plan: &'a weave::Plan, origin: &'a PatchSet, keep: Vec<bool>) -> Part<'a> {
        Part {
            plan,
            origin,
            keep,
            holes: true,
        }
    }
}

impl Wide {
    fn weave(
        &self,
        v: &mut SetValidation,
        ctx: &RunContext,
        worker: &mut Worker,
        worker_id: usize,
        origin: &PatchSet,
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
            Part::of(&self.plan, origin, keep),
        );
    }
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
    let src = part.origin.original_text();
    let parsed = std::cell::OnceCell::new();
    for (i, why) in plan.excluded.iter().enumerate() {
        if let (Some(why), true) = (why, part.keep[i]) {
            // Else what javac's parser rejects wherever the file leaves it (`weave::syntax`).
            let certain = plan.certain[i].clone().or_else(|| {
                parsed
                    .get_or_init(|| weave::syntax::Parsed::new(&src))
                    .certain_error(part.origin.unpatched_range(), &part.origin.patches[i])
            });
            match certain {
                Some(error) => decide_certain(v, i, error),
                None => v.fallback.push((i, why.clone())),
            }
        }
    }
    let setup = ctx.setup(worker_id, "schemata", set);
    let weight =
        |i: usize| plan.site.method.len() + 2 * plan.statement(i).len() + plan.branch_bytes(i);
    let mut weavable = plan.weavable();
    weavable.retain(|&i| part.keep[i]);
    if weavable.is_empty() {
        return;
    }
    let mut size = groups::group_size(plan, &weavable);
    let lines_read = !ctx.state.purity.frames_unread() || plan.inline.iter().any(Option::is_some);
    let mut groups = groups::cut(&weavable, size, weight);
    let mut terminal = false;
    while let Some(group) = groups.pop_front() {
        crate::progress::phase(&format!("compiling the schemata ({} patches)", group.len()));
        let s = match compile_schemata(worker, &setup, plan, group.clone(), terminal, lines_read) {
            Ok(mut s) if part.holes => {
                for (i, msg) in std::mem::take(&mut s.compile_errors) {
                    // javac's own error for the patch where its parser surely gives one.
                    let certain = parsed
                        .get_or_init(|| weave::syntax::Parsed::new(&src))
                        .certain_error(part.origin.unpatched_range(), &part.origin.patches[i]);
                    match certain {
                        Some(error) => {
                            s.compile_errors.insert(i, error);
                        }
                        None => {
                            let why = format!("its value hole does not compile: {msg}");
                            s.fallback.insert(i, why);
                        }
                    }
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
            groups = groups::cut(&rest, size, weight);
        }
        run_group(v, ctx, worker, set, plan, s);
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
    for &i in &woven.patches {
        if let Err(why) = &plan.tree[i] {
            *v.extra
                .sequential_reasons
                .entry(why.to_string())
                .or_default() += 1;
        } else {
            v.extra.tree_patches += 1;
        }
    }
    let t = Instant::now();
    // Each line shift's patches in the classes of their line table (`compile::finish`).
    let mut done = Vec::new();
    for class in &s.classes {
        let tree: Vec<usize> = class
            .patches
            .iter()
            .copied()
            .filter(|&i| plan.tree[i].is_ok())
            .collect();
        let cp = ctx.wd.test_classpath(ctx.state, Some(&class.overlay));
        done.extend(v.execute(ctx, worker, &cp, &class.patches, &tree, Phase::Execute));
    }
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
}
