//! The Java runtime jar built from `agent-java/` by build.rs, embedded in the binary and
//! extracted into the work dir at run time, once per directory and process (every worker spawn
//! asks for it: only the first reads and compares the file).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The agent jar's bytes.
pub const JAR: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/agent.jar"));

/// The directories this process has extracted the jar into, and where.
static EXTRACTED: Mutex<Option<HashMap<PathBuf, PathBuf>>> = Mutex::new(None);

/// Writes the jar into `dir` (if not already there with the same content) and returns its path;
/// later calls for the same directory return it without touching the disk.
pub fn extract(dir: &Path) -> std::io::Result<PathBuf> {
    let mut done = EXTRACTED.lock().unwrap_or_else(|e| e.into_inner());
    let done = done.get_or_insert_with(HashMap::new);
    if let Some(path) = done.get(dir).filter(|p| p.is_file()) {
        return Ok(path.clone());
    }
    std::fs::create_dir_all(dir)?;
    let path = dir.join("patchval-agent.jar");
    if std::fs::read(&path).ok().as_deref() != Some(JAR) {
        let tmp = dir.join(format!(".patchval-agent.jar.{}", std::process::id()));
        std::fs::write(&tmp, JAR)?;
        std::fs::rename(&tmp, &path)?;
    }
    done.insert(dir.to_path_buf(), path.clone());
    Ok(path)
}
