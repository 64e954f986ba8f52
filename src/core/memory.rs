//! Patches handed over in memory (by `serve` or a library user) rather than as files: each is
//! written below `WORK/inputs/submitted/`, named by its content so that `--resume` finds it
//! again, and then submitted as a file would be.

use super::{io_err, CoreError, Submission, Validator};
use crate::model::PatchSet;
use crate::patchset::inputs::Format;
use std::path::Path;

impl Validator {
    /// Submits sets held in memory: each is written to `WORK/inputs/submitted/` (named by its
    /// content, so `--resume` finds it again) and validated like a file.
    pub fn submit_sets(&self, sets: &[PatchSet]) -> Result<Submission, CoreError> {
        let dir = self.shared.wd.inputs().join("submitted");
        std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        let mut paths = Vec::new();
        for set in sets {
            let text = serde_json::to_string_pretty(set).map_err(|e| CoreError::Io {
                path: dir.clone(),
                source: e.into(),
            })?;
            let hash = crate::model::fnv(text.bytes(), crate::model::FNV_START);
            let path = dir.join(format!(
                "{}-{hash:016x}.json",
                crate::patchset::stem(Path::new(&set.filename))
            ));
            std::fs::write(&path, text).map_err(io_err(&path))?;
            paths.push(path);
        }
        Ok(self.queue(paths, Vec::new()))
    }

    /// Submits single patches given as unified diffs in memory, `(name, diff)` each: each is
    /// written to `WORK/inputs/submitted/` and read as `submit` reads a `.diff` file, grouped
    /// into sets by location with the others.
    pub fn submit_diffs(&self, diffs: &[(String, String)]) -> Result<Submission, CoreError> {
        let dir = self.shared.wd.inputs().join("submitted");
        std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        let mut args = Vec::new();
        for (name, text) in diffs {
            let hash = crate::model::fnv(text.bytes(), crate::model::FNV_START);
            let safe = crate::patchset::inputs::safe_name(name);
            let path = dir.join(format!("{safe}-{hash:016x}.diff"));
            std::fs::write(&path, text).map_err(io_err(&path))?;
            args.push(path.display().to_string());
        }
        self.submit(&args, Format::Diff)
    }

    /// Submits one patch given as an edit of a project file: `unpatched` (or, with `line` alone,
    /// the whole line `line`) becomes `patched`, found as an edit list finds it
    /// (`patchset::editlist`: on `line` when given, else where it occurs once).
    pub fn submit_patch(
        &self,
        name: &str,
        file: &str,
        line: Option<usize>,
        unpatched: Option<&str>,
        patched: &str,
    ) -> Result<Submission, CoreError> {
        let unpatched = match (unpatched, line) {
            (Some(u), _) => u.to_string(),
            (None, Some(l)) => {
                let path = self.shared.state.project.root.join(file);
                let text = std::fs::read_to_string(&path).map_err(io_err(&path))?;
                text.lines()
                    .nth(l.saturating_sub(1))
                    .unwrap_or("")
                    .to_string()
            }
            (None, None) => String::new(),
        };
        let list = serde_json::json!({
            "bug": name,
            "patches": [{
                "name": name,
                "edits": [{"filename": file, "line": line, "unpatched": unpatched, "patched": patched}],
            }],
        });
        let text = list.to_string();
        let dir = self.shared.wd.inputs().join("submitted");
        std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        let hash = crate::model::fnv(text.bytes(), crate::model::FNV_START);
        let path = dir.join(format!("patch-{hash:016x}.json"));
        std::fs::write(&path, text).map_err(io_err(&path))?;
        self.submit(&[path.display().to_string()], Format::Manifest)
    }
}
