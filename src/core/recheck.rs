//! A disagreement with plain validation decided again before it counts: the patch validated
//! again by plain, `rules::instability::PLAIN_AGAIN` times, in a validator of its own over the
//! work dir (for `fuzz`, `bench` and the differential tests; `run --confirm-plausible` does it
//! inside its run), then judged by `rules::instability::judge`.

use super::{CoreError, Options, Validator};
use crate::model::{Outcome, PatchSet, Phase, Technique, Verdict};
pub use crate::rules::instability::{judge, Judgement, PLAIN_AGAIN};
use crate::workdir::WorkDir;

/// Validates patches `patches` of `set` again with plain validation, `times` times each (javac
/// and a fresh JVM each time, as always), on `jobs` threads of a validator of its own over `wd`.
/// Returns, per patch in `patches`' order, its `times` outcomes.
pub fn plain_again(
    wd: &WorkDir,
    set: &PatchSet,
    patches: &[usize],
    times: usize,
    jobs: usize,
) -> Result<Vec<Vec<Outcome>>, CoreError> {
    if patches.is_empty() || times == 0 {
        return Ok(vec![Vec::new(); patches.len()]);
    }
    let options = Options {
        jobs,
        technique: Technique::Plain,
        dedup: false,
        ..Options::default()
    };
    // One set file per patch, the patch in it `times` times: a set is one thread's, so the
    // patches spread over the threads and each patch's runs follow one another.
    let dir = wd.root.join("again");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(super::io_err(&dir))?;
    let mut paths = Vec::with_capacity(patches.len());
    for &i in patches {
        let sub = crate::technique::confirm::subset(set, &vec![i; times]);
        let path = dir.join(format!("patch-{i}.json"));
        let text = serde_json::to_string_pretty(&sub).map_err(|e| CoreError::Io {
            path: path.clone(),
            source: e.into(),
        })?;
        std::fs::write(&path, text).map_err(super::io_err(&path))?;
        paths.push(path.display().to_string());
    }
    let validator = Validator::open(wd, options, vec!["plain again".into()])?;
    let results = validator
        .submit(&paths, crate::patchset::inputs::Format::Manifest)?
        .wait();
    validator.close()?;
    let mut out = Vec::with_capacity(paths.len());
    for (path, &i) in paths.iter().zip(patches) {
        let mut outcomes: Vec<Outcome> = results
            .iter()
            .find(|r| &r.patches_path == path)
            .map(|r| r.outcomes.iter().take(times).cloned().collect())
            .unwrap_or_default();
        while outcomes.len() < times {
            outcomes.push(
                Outcome::new(Verdict::Error, Phase::Plain)
                    .with_detail(format!("no outcome for patch {i} validated again")),
            );
        }
        out.push(outcomes);
    }
    Ok(out)
}
