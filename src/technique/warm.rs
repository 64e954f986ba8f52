//! Warming a long-lived validator's worker before its first set (`serve`): javac compiles the
//! project's smallest source file, unchanged, into the schemata's scratch area, and the fastest
//! passing test runs once on that class path, so a repair loop's first request pays neither a
//! cold compiler nor cold test classes.

use super::RunContext;
use crate::pool::Worker;
use crate::protocol::select;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Warms `worker` (of worker thread `worker_id`) as the schemata will use it. Whatever fails is
/// logged and left: the first set then pays what the warm-up could not.
pub fn warm(ctx: &RunContext, worker_id: usize, worker: &mut Worker) {
    let t = Instant::now();
    let Some(source) = smallest_source(&ctx.state.project.source_dirs) else {
        return;
    };
    let (Ok(text), Some(name)) = (std::fs::read_to_string(&source), source.file_name()) else {
        return;
    };
    let setup = ctx.setup_named(worker_id, "schemata", name);
    match setup.compile(worker, &text) {
        Ok(errors) if errors.is_empty() => {}
        Ok(errors) => {
            tracing::debug!(
                "warm-up: {} did not compile on its own ({} errors); javac is warm all the same",
                source.display(),
                errors.len()
            );
        }
        Err(e) => {
            tracing::warn!("warm-up: compiling {}: {e}", source.display());
            return;
        }
    }
    let classpath = ctx.wd.test_classpath(ctx.state, Some(&setup.overlay));
    let fastest = ctx
        .tests
        .iter()
        .filter(|t| t.passed)
        .min_by(|a, b| a.millis.total_cmp(&b.millis));
    if let Some(test) = fastest {
        let limit = Duration::from_millis(test.timeout_ms);
        if let Err(e) =
            crate::schedule::rerun::request(worker, &classpath, test, select::NONE, limit)
        {
            tracing::warn!("warm-up: running {}: {e}", test.id);
        }
    }
    tracing::info!(
        "worker {worker_id} warmed in {:.2} s (javac on {}{})",
        t.elapsed().as_secs_f64(),
        source.display(),
        fastest
            .map(|f| format!(", test {}", f.id))
            .unwrap_or_default()
    );
}

/// The smallest `.java` file below the source directories (ties by path), for a quick compile.
fn smallest_source(dirs: &[PathBuf]) -> Option<PathBuf> {
    dirs.iter()
        .flat_map(|d| walkdir::WalkDir::new(d).sort_by_file_name())
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "java"))
        .filter_map(|e| Some((e.metadata().ok()?.len(), e.into_path())))
        .filter(|(len, _)| *len > 0)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)))
        .map(|(_, p)| p)
}
