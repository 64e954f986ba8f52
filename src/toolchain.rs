//! The JDK and the JUnit and ASM jars patchval runs with: JDK discovery (one function, used by
//! `init`, the tests and, through the same rule, `build.rs`), class-path joining and the JVM
//! options every worker and plain JVM starts with.

pub mod junit_jars;

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The Debian JDK 17, the last place JDK discovery looks.
pub const DEBIAN_JDK: &str = "/usr/lib/jvm/java-17-openjdk-amd64";

/// What is missing from the environment.
#[derive(Debug, thiserror::Error)]
pub enum ToolchainError {
    #[error(
        "no JDK found: tried {}; set JAVA_HOME to a JDK 17 or newer (javac and \
         lib/server/libjvm.so are needed)",
        .0.iter().map(|(p, why)| format!("{} ({why})", p.display())).collect::<Vec<_>>().join(", ")
    )]
    NoJdk(Vec<(PathBuf, String)>),
    #[error(
        "{0} is missing: install the Debian packages junit4 and libhamcrest-java (see README)"
    )]
    NoJunit(PathBuf),
}

/// Why `home` is not a JDK patchval can use (None: it is one).
fn not_a_jdk(home: &Path) -> Option<String> {
    if !home.join("bin/javac").is_file() {
        return Some("no bin/javac".into());
    }
    if !libjvm_path(home).is_file() {
        return Some("no lib/server/libjvm.so".into());
    }
    None
}

/// `libjvm.so` of the JDK at `home`, which a worker loads.
pub fn libjvm_path(home: &Path) -> PathBuf {
    home.join("lib/server/libjvm.so")
}

/// Finds the JDK: `JAVA_HOME`, else the JDK of the `java` on `PATH`, else the Debian JDK 17. The
/// error names each place tried and why it is not a JDK.
pub fn find_jdk() -> Result<PathBuf, ToolchainError> {
    let mut tried = Vec::new();
    let from_env = std::env::var_os("JAVA_HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    if let Some(home) = from_env {
        // An explicit JAVA_HOME is the user's choice: it is used or reported, never skipped.
        return match not_a_jdk(&home) {
            None => Ok(home),
            Some(why) => Err(ToolchainError::NoJdk(vec![(
                home,
                format!("JAVA_HOME: {why}"),
            )])),
        };
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("java"))
            .find(|j| j.is_file())
            .and_then(|j| std::fs::canonicalize(j).ok())
            .and_then(|j| Some(j.parent()?.parent()?.to_path_buf()))
    });
    for home in on_path.into_iter().chain([PathBuf::from(DEBIAN_JDK)]) {
        match not_a_jdk(&home) {
            None => return Ok(home),
            Some(why) => tried.push((home, why)),
        }
    }
    Err(ToolchainError::NoJdk(tried))
}

/// The JDK and the JUnit jars patchval runs with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Toolchain {
    pub java_home: PathBuf,
    /// JUnit 4 and Hamcrest, then JUnit 5 when installed: on the worker JVM's system class path
    /// and the test compile path.
    pub junit: Vec<PathBuf>,
}

impl Toolchain {
    /// Finds the JDK ([`find_jdk`]), JUnit 4 (Debian's jars, required) and JUnit 5 (Debian's
    /// `junit5` jars, added when all are present: JUnit 3/4 projects do not need them; a JUnit 5
    /// project without them fails to compile its tests, naming the missing package).
    pub fn detect() -> Result<Toolchain, ToolchainError> {
        let java_home = find_jdk()?;
        let share = Path::new("/usr/share/java");
        let junit: Vec<PathBuf> = junit_jars::JUNIT4_JARS
            .iter()
            .map(|j| share.join(j))
            .collect();
        if let Some(missing) = junit.iter().find(|j| !j.is_file()) {
            return Err(ToolchainError::NoJunit(missing.clone()));
        }
        let mut junit = junit;
        let jupiter: Vec<PathBuf> = junit_jars::JUPITER_JARS
            .iter()
            .map(|j| share.join(j))
            .collect();
        if jupiter.iter().all(|j| j.is_file()) {
            junit.extend(jupiter);
        }
        Ok(Toolchain { java_home, junit })
    }

    pub fn javac(&self) -> PathBuf {
        self.java_home.join("bin/javac")
    }

    pub fn java(&self) -> PathBuf {
        self.java_home.join("bin/java")
    }
}

/// Joins paths into a class path string.
pub fn join_path<P: AsRef<Path>>(parts: impl IntoIterator<Item = P>) -> String {
    parts
        .into_iter()
        .map(|p| p.as_ref().display().to_string())
        .collect::<Vec<_>>()
        .join(":")
}

/// The workers' JIT: C1 alone (no profiling tier, no C2). A worker's work is javac's first calls
/// and many short tests, each in code the JVM has not yet compiled; with C2, most of it runs in
/// the profiling tier, and on two cores C2's compiles take the time the tests need. Measured
/// (docs/benchmarks.md): commons-math's seeded set 1.4 → 1.1 s, every one of its 2,407 tests 22 →
/// 19 s, joda-time's set 9 → 5 s. A project's own `jvm_options` come later and may set another
/// level. Plain's JVMs do not get it: plain validation runs as a user's `java` would.
pub const WORKER_JIT: &str = "-XX:TieredStopAtLevel=1";

/// Default JVM options for workers and plain runs; the project's own options come after them
/// (and win, for `-X`/`-D` options). The `--add-opens` let old code and old test libraries
/// reflect into `java.base` on JDK 17 as they did on JDK 8, and the agent reach the JDK's
/// rendering-hint key registry (agent `HintKeys`) and javac's trees (agent `JavacPrune`).
pub fn default_jvm_options() -> Vec<String> {
    let mut v: Vec<String> = [
        "-Xss8m",
        "-Xmx2g",
        "-XX:+UseSerialGC",
        "-Djava.security.manager=allow",
        "-Djava.awt.headless=true",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for package in [
        "java.lang",
        "java.lang.reflect",
        "java.util",
        "java.util.concurrent",
        "java.util.regex",
        "java.text",
        "java.io",
        "java.math",
        "java.net",
        "java.nio",
    ] {
        v.push(format!("--add-opens=java.base/{package}=ALL-UNNAMED"));
    }
    // The agent's `HintKeys` reads the JDK's registry of rendering-hint keys.
    v.push("--add-opens=java.desktop/java.awt=ALL-UNNAMED".to_string());
    // The agent's `JavacPrune` leaves methods out of javac's trees (docs/weaving.md, compile
    // rounds). Plain's JVMs get the same options, so a test sees the same exports in both.
    for package in ["api", "code", "tree", "util"] {
        v.push(format!(
            "--add-exports=jdk.compiler/com.sun.tools.javac.{package}=ALL-UNNAMED"
        ));
    }
    // The warm loader's instrumenter loads ASM from here (agent `WarmLoader`).
    v.push(format!(
        "-D{}={}",
        crate::protocol::property::ASM,
        join_path(junit_jars::asm_jars())
    ));
    v
}
