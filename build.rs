//! Build script: generates both sides of the Rust–Java protocol from `protocol.toml`
//! (`build/protocol.rs`), compiles the Java runtime in `agent-java/` with the generated classes
//! using the JDK's javac, and packs it into `agent.jar` (with the `zip` crate) in OUT_DIR, where
//! `src/agent.rs` embeds it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn java_home() -> PathBuf {
    if let Some(h) = std::env::var_os("JAVA_HOME") {
        return PathBuf::from(h);
    }
    let default = PathBuf::from("/usr/lib/jvm/java-17-openjdk-amd64");
    if default.is_dir() {
        return default;
    }
    panic!(
        "JAVA_HOME is not set and no JDK 17 at {}",
        default.display()
    );
}

#[path = "src/toolchain/junit_jars.rs"]
mod junit_jars;

#[path = "build/protocol.rs"]
mod protocol;

/// JUnit 4 + Hamcrest, and the JUnit 5 Platform launcher + Jupiter engine (the agent's
/// `JupiterRunner` is compiled against them; at run time JUnit 5 is optional, see
/// `Toolchain::detect`).
fn junit_jars() -> Vec<PathBuf> {
    let share = Path::new("/usr/share/java");
    let jars: Vec<PathBuf> = junit_jars::JUNIT4_JARS
        .iter()
        .chain(junit_jars::JUPITER_JARS.iter())
        .map(|j| share.join(j))
        .collect();
    for j in &jars {
        if !j.is_file() {
            panic!(
                "{} is missing: install the Debian packages junit4, libhamcrest-java and junit5",
                j.display()
            );
        }
    }
    jars
}

/// ASM (Debian's libasm-java): the agent's instrumenter (`patchval.instrument`) is compiled
/// against it and loads it at run time in a loader of its own.
fn asm_jars() -> Vec<PathBuf> {
    let jars = junit_jars::asm_jars();
    for jar in &jars {
        if !jar.is_file() {
            panic!(
                "{} is missing: install the Debian package libasm-java",
                jar.display()
            );
        }
    }
    jars
}

fn main() {
    println!("cargo:rerun-if-changed=agent-java/src");
    println!("cargo:rerun-if-changed=src/project/junit_jars.rs");
    println!("cargo:rerun-if-changed=build/protocol.rs");
    println!("cargo:rerun-if-changed={}", protocol::TABLE);
    println!("cargo:rerun-if-env-changed=JAVA_HOME");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    let classes = out.join("agent-classes");
    let _ = std::fs::remove_dir_all(&classes);
    std::fs::create_dir_all(&classes).unwrap();

    // The generated classes are compiled with the hand-written ones, from a directory of their own.
    let generated = out.join("agent-gen");
    let _ = std::fs::remove_dir_all(&generated);
    let protocol = protocol::generate(&out, &generated);

    let mut sources: Vec<PathBuf> = walkdir::WalkDir::new("agent-java/src")
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "java"))
        .map(|e| e.into_path())
        .collect();
    for g in &protocol.java {
        let mine = Path::new("agent-java/src").join(g.strip_prefix(&generated).unwrap());
        assert!(
            !mine.exists(),
            "{} is generated from {}: delete the hand-written copy",
            mine.display(),
            protocol::TABLE
        );
    }
    sources.extend(protocol.java);
    let cp = junit_jars()
        .iter()
        .chain(asm_jars().iter())
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(":");
    let javac = java_home().join("bin").join("javac");
    let status = Command::new(&javac)
        .args([
            "--release",
            "11",
            "-encoding",
            "UTF-8",
            "-nowarn",
            "-cp",
            &cp,
            "-d",
        ])
        .arg(&classes)
        .args(&sources)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", javac.display()));
    assert!(status.success(), "javac failed on agent-java/");

    let jar = std::fs::File::create(out.join("agent.jar")).unwrap();
    let mut zip = zip::ZipWriter::new(jar);
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    zip.start_file("META-INF/MANIFEST.MF", opts).unwrap();
    zip.write_all(b"Manifest-Version: 1.0\r\nCreated-By: patchval build.rs\r\n\r\n")
        .unwrap();
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(&classes)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    files.sort();
    for f in files {
        let name = f
            .strip_prefix(&classes)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        zip.start_file(name, opts).unwrap();
        zip.write_all(&std::fs::read(&f).unwrap()).unwrap();
    }
    zip.finish().unwrap();
}
