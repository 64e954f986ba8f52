//! The Java runtime jar built from `agent-java/` by build.rs, embedded in the binary and
//! extracted into the work dir at run time.

use std::path::{Path, PathBuf};

/// The agent jar's bytes.
pub const JAR: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/agent.jar"));

/// Writes the jar into `dir` (if not already there with the same content) and returns its path.
pub fn extract(dir: &Path) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join("patchval-agent.jar");
    if std::fs::read(&path).ok().as_deref() != Some(JAR) {
        let tmp = dir.join(format!(".patchval-agent.jar.{}", std::process::id()));
        std::fs::write(&tmp, JAR)?;
        std::fs::rename(&tmp, &path)?;
    }
    Ok(path)
}
