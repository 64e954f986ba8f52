//! Validating one patch set with the schemata: load and check it, weave, compile, run the tests
//! for every compilable patch; patches that cannot be woven are validated one by one in the same JVM.

use crate::compile::{compile_schemata, CompileSetup};
use crate::model::{Outcome, PatchSet, Phase, Verdict};
use crate::patchset;
use crate::pool::Worker;
use crate::project::join_path;
use crate::report::{Extra, SetResult};
use crate::schedule::execute_patch;
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
}

impl RunContext<'_> {
    /// Class path for compiling a patched or woven file.
    pub fn compile_classpath(&self) -> String {
        join_path(
            std::iter::once(self.wd.classes())
                .chain(self.state.project.classpath.iter().cloned())
                .chain(std::iter::once(self.agent_jar.clone())),
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
pub fn load_set(ctx: &RunContext, path: &Path) -> Result<PatchSet, String> {
    let set = patchset::load(path).map_err(|e| e.to_string())?;
    let file = ctx.state.project.root.join(&set.filename);
    let actual = std::fs::read_to_string(&file)
        .map_err(|e| format!("{}: patched file {}: {e}", path.display(), file.display()))?;
    patchset::check_context(path, &set, &actual).map_err(|e| e.to_string())?;
    Ok(set)
}

/// A result for a set that could not be validated at all.
pub fn unusable(path: &Path, patches: usize, why: String) -> SetResult {
    let mut r = SetResult {
        patches_path: path.display().to_string(),
        technique: None,
        outcomes: vec![Outcome::new(Verdict::Error, Phase::Load).with_detail(why.clone()); patches],
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
    let mut extra = Extra {
        worker: worker_id,
        ..Extra::default()
    };
    let n = set.patches.len();
    let mut outcomes: Vec<Option<Outcome>> = vec![None; n];
    let mut fallback: Vec<(usize, String)> = Vec::new();
    let mut technique = "schemata";
    let classpath_of = |overlay: &Path| ctx.wd.test_classpath(ctx.state, Some(overlay));

    match weave::plan(&set.original_text(), set.unpatched_range(), &set.patches) {
        Err(why) => {
            technique = "fallback";
            extra.fallback_reasons.push(why.0.clone());
            fallback.extend((0..n).map(|i| (i, why.0.clone())));
        }
        Ok(plan) => {
            let setup = ctx.setup(worker_id, "schemata", set);
            match compile_schemata(worker, &setup, &plan) {
                Err(e) => {
                    let why = format!("compiling the schemata: {e}");
                    extra.fallback_reasons.push(why.clone());
                    fallback.extend((0..n).map(|i| (i, why.clone())));
                }
                Ok(s) => {
                    extra.javac_invocations = s.javac_invocations;
                    extra.compile_ms += s.millis;
                    extra.terminal_stub = s.terminal_stub;
                    for (i, msg) in &s.compile_errors {
                        outcomes[*i] = Some(
                            Outcome::new(Verdict::CompileError, Phase::Compile)
                                .with_detail(msg.clone()),
                        );
                    }
                    for (i, why) in &s.fallback {
                        fallback.push((*i, why.clone()));
                    }
                    if let Some(woven) = &s.woven {
                        extra.woven = woven.patches.len();
                        let t = Instant::now();
                        let cp = classpath_of(&setup.overlay);
                        for &i in &woven.patches {
                            let ex =
                                execute_patch(worker, &cp, ctx.tests, i as i32, Phase::Execute);
                            extra.rounds += ex.rounds;
                            outcomes[i] = Some(ex.outcome);
                        }
                        extra.run_ms += t.elapsed().as_secs_f64() * 1000.0;
                    }
                }
            }
        }
    }

    // Patches that could not be woven: their own compile, the same JVM.
    fallback.sort();
    extra.fallback = fallback.len();
    let setup = ctx.setup(worker_id, "single", set);
    for (i, why) in fallback {
        if !extra.fallback_reasons.contains(&why) {
            extra.fallback_reasons.push(why.clone());
        }
        let t = Instant::now();
        extra.fallback_compiles += 1;
        let diags = setup.compile(worker, &set.patched_text(i));
        extra.compile_ms += t.elapsed().as_secs_f64() * 1000.0;
        outcomes[i] = Some(match diags {
            Err(e) => {
                Outcome::new(Verdict::Error, Phase::Fallback).with_detail(format!("compiling: {e}"))
            }
            Ok(d) if !d.is_empty() => Outcome::new(Verdict::CompileError, Phase::Fallback)
                .with_detail(format!("line {}: {}", d[0].line, d[0].message)),
            Ok(_) => {
                let t = Instant::now();
                let ex = execute_patch(
                    worker,
                    &classpath_of(&setup.overlay),
                    ctx.tests,
                    -1,
                    Phase::Fallback,
                );
                extra.rounds += ex.rounds;
                extra.run_ms += t.elapsed().as_secs_f64() * 1000.0;
                ex.outcome
            }
        });
    }

    extra.worker_jvm_starts = worker.jvm_starts;
    extra.jvm_starts = worker.jvm_starts - starts_before;
    extra.total_ms = started.elapsed().as_secs_f64() * 1000.0;
    let mut r = SetResult {
        patches_path: path.display().to_string(),
        technique: Some(technique.to_string()),
        outcomes: outcomes
            .into_iter()
            .map(|o| {
                o.unwrap_or_else(|| {
                    Outcome::new(Verdict::Error, Phase::Execute).with_detail("not validated")
                })
            })
            .collect(),
        error: None,
        extra,
    };
    r.finish_counts();
    r
}
