//! Validating one patch set with the schemata: load and check it, weave, compile, run the tests
//! for every compilable patch; patches that cannot be woven are validated one by one in the same JVM.

use crate::compile::{compile_schemata, CompileSetup};
use crate::model::{Outcome, PatchSet, Phase, Verdict};
use crate::patchset;
use crate::pool::Worker;
use crate::project::coverage::Coverage;
use crate::report::{Extra, SetResult};
use crate::schedule::select::{select, Selection};
use crate::schedule::share::{execute_shared, Board};
use crate::schedule::{Mode, Telemetry};
use crate::weave;
use crate::workdir::{State, TestRecord, WorkDir};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What every set of a run shares.
pub struct RunContext<'a> {
    pub wd: &'a WorkDir,
    pub state: &'a State,
    /// Tests in execution order.
    pub tests: &'a [TestRecord],
    pub agent_jar: PathBuf,
    /// Deduplicate test-equivalent patches through the state-transition tree.
    pub dedup: bool,
    /// Where idle workers take chunks of other sets' tests (None: each set on one worker).
    pub board: Option<&'a Board>,
    /// Per-test coverage for selecting each set's tests (None: every set runs every test).
    pub coverage: Option<&'a Coverage>,
    /// Every patch runs every selected test (`run --matrix`).
    pub matrix: bool,
}

impl RunContext<'_> {
    /// Class path for compiling a patched or woven file.
    pub fn compile_classpath(&self) -> String {
        crate::compile::compile_classpath(
            &self.wd.classes(),
            &self.state.project.classpath,
            &self.agent_jar,
        )
    }

    /// Compile set-up for a worker scratch area (`schemata` or `single`).
    pub fn setup(&self, worker_id: usize, area: &str, set: &PatchSet) -> CompileSetup {
        let base = self.wd.worker(worker_id).join(area);
        let name = Path::new(&set.filename)
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_else(|| "Patched.java".into());
        CompileSetup {
            source: base.join("src").join(name),
            overlay: base.join("classes"),
            classpath: self.compile_classpath(),
            release: self.state.project.release.clone(),
            encoding: self.state.project.encoding.clone(),
        }
    }
}

/// Reads a patch set and checks it against the project's file; the error names the file.
pub fn load_set(ctx: &RunContext, path: &Path) -> Result<(PatchSet, Option<String>), String> {
    let mut set = patchset::load(path).map_err(|e| e.to_string())?;
    let file = ctx.state.project.root.join(&set.filename);
    let actual = std::fs::read_to_string(&file)
        .map_err(|e| format!("{}: patched file {}: {e}", path.display(), file.display()))?;
    let note = patchset::check_context(path, &mut set, &actual).map_err(|e| e.to_string())?;
    let narrowed = patchset::narrow_location(&mut set);
    let note = match (note, narrowed) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    };
    Ok((set, note))
}

/// The file name of a patch set, for progress and human lines.
pub fn set_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// A result for a set that could not be validated at all.
pub fn unusable(path: &Path, patches: usize, why: String) -> SetResult {
    let mut r = SetResult {
        patches_path: path.display().to_string(),
        technique: None,
        outcomes: vec![Outcome::new(Verdict::Error, Phase::Load).with_detail(why.clone()); patches],
        names: Vec::new(),
        error: Some(why),
        extra: Extra::default(),
    };
    r.finish_counts();
    r
}

/// Validates one set with the schemata in `worker`.
pub fn schemata(
    ctx: &RunContext,
    worker: &mut Worker,
    worker_id: usize,
    path: &Path,
    set: &PatchSet,
) -> SetResult {
    let started = Instant::now();
    let starts_before = worker.jvm_starts;
    crate::progress::set_started(&set_name(path), set.patches.len());
    crate::progress::phase("weaving");
    let mut v = SetValidation {
        extra: Extra {
            worker: worker_id,
            ..Extra::default()
        },
        outcomes: vec![None; set.patches.len()],
        fallback: Vec::new(),
        selection: select(ctx.wd, ctx.state, ctx.coverage, ctx.tests, set),
    };
    v.extra.tests_selected = v.selection.tests.len();
    v.extra.tests_skipped = v.selection.skipped;
    v.extra.all_tests_because = v.selection.all_because.clone();
    let technique = match plan(set, &mut v.extra) {
        Ok(mut plan) => {
            for (i, excluded) in plan.excluded.iter_mut().enumerate() {
                let n = set.other_edits(i).len();
                if n > 0 && excluded.is_none() {
                    *excluded = Some(format!(
                        "the patch also edits other files ({n} edits): it is compiled with them"
                    ));
                }
            }
            plan.exclude_stack_exposed(&ctx.state.purity);
            if ctx.dedup {
                plan.enable_tree(&ctx.state.purity);
            }
            v.woven(ctx, worker, worker_id, set, &plan);
            "schemata"
        }
        Err(why) => {
            v.extra.fallback_reasons.push(why.0.clone());
            v.fallback
                .extend((0..set.patches.len()).map(|i| (i, why.0.clone())));
            "fallback"
        }
    };
    v.one_by_one(ctx, worker, worker_id, set);

    let mut extra = v.extra;
    extra.worker_jvm_starts = worker.jvm_starts;
    extra.jvm_starts = worker.jvm_starts - starts_before;
    extra.total_ms = started.elapsed().as_secs_f64() * 1000.0;
    let mut r = SetResult {
        patches_path: path.display().to_string(),
        technique: Some(technique.to_string()),
        outcomes: v
            .outcomes
            .into_iter()
            .map(|o| {
                o.unwrap_or_else(|| {
                    Outcome::new(Verdict::Error, Phase::Execute).with_detail("not validated")
                })
            })
            .collect(),
        names: set.names.clone(),
        error: None,
        extra,
    };
    r.finish_counts();
    r
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
    // The patches as initialisers (None: one that changes more than the initialiser).
    let (range, inner): (_, Vec<Option<String>>) =
        match split::narrow(&src, range.clone(), &set.patches) {
            Some((value, inner)) if inner.iter().filter(|p| p.is_some()).count() >= 2 => {
                (value, inner)
            }
            _ => (range, set.patches.iter().cloned().map(Some).collect()),
        };
    // A local declaration is split in place; an instance field's initialiser or a static
    // block moves into a method of its own (`weave::hoist`), woven for the patches that name
    // no guarded field (and, in a static block, cannot end it abruptly).
    let (split_src, range, hoisted) = match split::split_declaration(&src, range.clone()) {
        Some((s, r)) => (s, r, None),
        None => match weave::hoist::field(&src, range.clone())
            .or_else(|| weave::hoist::static_block(&src, range))
        {
            Some(h) => (h.src, h.range, Some((h.what, h.guarded))),
            None => return Err(why),
        },
    };
    let guarded = hoisted.as_ref().map(|(_, g)| g);
    let in_static_block = hoisted
        .as_ref()
        .is_some_and(|(w, _)| *w == weave::hoist::Hoist::StaticBlock);
    let unpatched = split_src[range.clone()].to_string();
    let texts: Vec<String> = inner
        .iter()
        .map(|p| p.clone().unwrap_or_else(|| unpatched.clone()))
        .collect();
    let mut plan = weave::plan(&split_src, range, &texts)?;
    for ((excluded, patch), inner) in plan.excluded.iter_mut().zip(&texts).zip(&inner) {
        if excluded.is_none() {
            *excluded = match inner {
                None => Some(
                    "the patch changes more of the declaration than its initialiser".to_string(),
                ),
                Some(_) => guarded_name(patch, guarded)
                    .or_else(|| {
                        in_static_block
                            .then(|| weave::hoist::completes_as_in_a_method(patch))
                            .flatten()
                    })
                    .or_else(|| split::unassignable(patch)),
            };
        }
    }
    match &hoisted {
        Some((what, _)) => extra.hoisted = Some(what.as_str().to_string()),
        None => extra.declaration_split = true,
    }
    Ok(plan)
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

/// What validating one set has found so far.
struct SetValidation {
    extra: Extra,
    outcomes: Vec<Option<Outcome>>,
    /// Patches to validate one by one, with the reason.
    fallback: Vec<(usize, String)>,
    /// The tests this set runs.
    selection: Selection,
}

impl SetValidation {
    fn absorb(&mut self, t: &Telemetry) {
        self.extra.rounds += t.rounds;
        self.extra.tree_rounds += t.tree_rounds;
        self.extra.captures += t.captures;
        for (test, rounds, classes) in &t.trees {
            self.extra.tree_tests += 1;
            self.extra.classes += classes;
            if *classes > 1 {
                self.extra
                    .split_tests
                    .insert(test.clone(), [*rounds, *classes as u64]);
            }
        }
        self.extra
            .tree_fallbacks
            .extend(t.fallbacks.iter().cloned());
        self.extra.flaky.extend(t.flaky.iter().cloned());
        self.extra.slow.extend(t.slow.iter().cloned());
        self.extra.timeouts.extend(t.timeouts.iter().cloned());
        self.extra.sequential_timeouts += t.sequential_timeouts;
        self.extra.faults.extend(t.faults.iter().cloned());
        self.extra.chunks_by_helpers += t.chunks_by_helpers;
        self.extra.redone_after_chunks += t.redone;
    }

    /// Runs the selected tests for `patches`; an outcome that may owe something to the tests
    /// left out ([`Selection::must_redo`]) is decided again over every test.
    fn execute(
        &mut self,
        ctx: &RunContext,
        worker: &mut Worker,
        cp: &[String],
        patches: &[usize],
        tree: &[usize],
        phase: Phase,
    ) -> std::collections::BTreeMap<usize, Outcome> {
        let tests = &self.selection.tests;
        let mode = Mode {
            phase,
            matrix: ctx.matrix,
        };
        crate::progress::phase(&format!(
            "running the selected tests for {} patches",
            patches.len()
        ));
        crate::progress::tests_begin(tests.len(), tests.iter().map(|t| t.millis).sum());
        let (mut done, telemetry) =
            execute_shared(worker, ctx.board, cp, tests, patches, tree, mode);
        self.absorb(&telemetry);
        let again: Vec<usize> = patches
            .iter()
            .copied()
            .filter(|i| {
                done.get(i)
                    .is_some_and(|o| self.selection.must_redo(o, ctx.tests))
            })
            .collect();
        if again.is_empty() {
            return done;
        }
        self.extra.redone_over_every_test += again.len() as u64;
        crate::progress::phase(&format!(
            "{} patches decided again over every test",
            again.len()
        ));
        crate::progress::tests_begin(ctx.tests.len(), ctx.tests.iter().map(|t| t.millis).sum());
        let tree: Vec<usize> = tree.iter().copied().filter(|i| again.contains(i)).collect();
        let (redone, telemetry) =
            execute_shared(worker, ctx.board, cp, ctx.tests, &again, &tree, mode);
        self.absorb(&telemetry);
        done.extend(redone);
        done
    }

    /// Compiles the schemata and runs the tests of every woven patch.
    fn woven(
        &mut self,
        ctx: &RunContext,
        worker: &mut Worker,
        worker_id: usize,
        set: &PatchSet,
        plan: &weave::Plan,
    ) {
        let setup = ctx.setup(worker_id, "schemata", set);
        crate::progress::phase("compiling the schemata");
        let s = match compile_schemata(worker, &setup, plan) {
            Ok(s) => s,
            Err(e) => {
                let why = format!("compiling the schemata: {e}");
                self.extra.fallback_reasons.push(why.clone());
                self.fallback
                    .extend((0..set.patches.len()).map(|i| (i, why.clone())));
                return;
            }
        };
        self.extra.javac_invocations = s.javac_invocations;
        self.extra.compile_ms += s.millis;
        self.extra.terminal_stub = s.terminal_stub;
        for (i, msg) in &s.compile_errors {
            self.outcomes[*i] =
                Some(Outcome::new(Verdict::CompileError, Phase::Compile).with_detail(msg.clone()));
        }
        self.fallback
            .extend(s.fallback.iter().map(|(i, why)| (*i, why.clone())));
        let Some(woven) = &s.woven else { return };
        self.extra.woven = woven.patches.len();
        let tree: Vec<usize> = woven
            .patches
            .iter()
            .copied()
            .filter(|&i| plan.tree[i].is_ok())
            .collect();
        self.extra.tree_patches = tree.len();
        for &i in &woven.patches {
            if let Err(why) = &plan.tree[i] {
                *self
                    .extra
                    .sequential_reasons
                    .entry(why.clone())
                    .or_default() += 1;
            }
        }
        let t = Instant::now();
        let cp = ctx.wd.test_classpath(ctx.state, Some(&setup.overlay));
        let done = self.execute(ctx, worker, &cp, &woven.patches, &tree, Phase::Execute);
        // Frames of the woven file read as the plainly patched file's (line, method name).
        let mut frames = woven.frames.clone();
        frames.file_name = std::path::Path::new(&set.filename)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for (i, mut o) in done {
            if o.verdict == Verdict::Timeout {
                // The stub runs at every visit of the location, so woven code is slower than the
                // plainly patched program: a patch that ends just past its timeout in the
                // schemata (a loop filling the heap until OutOfMemoryError) may end in time in
                // plain. Its own compile of the plainly patched file decides it.
                self.fallback.push((i, TIMED_OUT_WOVEN.to_string()));
                continue;
            }
            o.detail = o.detail.map(|d| frames.rewrite(i, &d));
            for run in &mut o.runs {
                run.failed = run.failed.take().map(|d| frames.rewrite(i, &d));
            }
            self.outcomes[i] = Some(o);
        }
        self.extra.run_ms += t.elapsed().as_secs_f64() * 1000.0;
    }

    /// Patches that could not be woven: their own compile and their own rounds, in the same JVM.
    fn one_by_one(
        &mut self,
        ctx: &RunContext,
        worker: &mut Worker,
        worker_id: usize,
        set: &PatchSet,
    ) {
        let mut fallback = std::mem::take(&mut self.fallback);
        fallback.sort();
        self.extra.fallback = fallback.len();
        let setup = ctx.setup(worker_id, "single", set);
        let cp = ctx.wd.test_classpath(ctx.state, Some(&setup.overlay));
        for (i, why) in fallback {
            if !self.extra.fallback_reasons.contains(&why) {
                self.extra.fallback_reasons.push(why);
            }
            let t = Instant::now();
            self.extra.fallback_compiles += 1;
            let diags = set
                .other_texts(i, &ctx.state.project.root)
                .map_err(crate::pool::PoolError::Agent)
                .and_then(|others| setup.compile_with(worker, &set.patched_text(i), &others));
            self.extra.compile_ms += t.elapsed().as_secs_f64() * 1000.0;
            self.outcomes[i] = Some(match diags {
                Err(e) => Outcome::new(Verdict::Error, Phase::Fallback)
                    .with_detail(format!("compiling: {e}")),
                Ok(d) if !d.is_empty() => Outcome::new(Verdict::CompileError, Phase::Fallback)
                    .with_detail(format!("line {}: {}", d[0].line, d[0].message)),
                Ok(_) => {
                    let t = Instant::now();
                    let mut done = self.execute(ctx, worker, &cp, &[i], &[], Phase::Fallback);
                    self.extra.run_ms += t.elapsed().as_secs_f64() * 1000.0;
                    done.remove(&i).expect("execute decides every patch")
                }
            });
        }
    }
}
