//! Running the JDK's `javac` command (baseline compile and the plain technique).

use super::{Project, ProjectError};
use crate::toolchain::{join_path, Toolchain};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Java sources below the given directories, sorted.
pub fn sources(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = dirs
        .iter()
        .flat_map(|d| walkdir::WalkDir::new(d).into_iter().filter_map(|e| e.ok()))
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "java"))
        .map(|e| e.into_path())
        .collect();
    v.sort();
    v
}

/// Why the javac command did not compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failed {
    /// The sources do not compile: javac's error output.
    Errors(String),
    /// javac could not run, was killed, or could not read or write its files (a full disk, a
    /// read-only directory): this says nothing about the sources.
    Environment(String),
}

/// javac's messages (English, which `-J-Duser.language=en` asks for) for its own I/O failures:
/// `compiler.err.class.cant.write`, `error.writing.file`, `error.reading.file`, `io.exception`,
/// `cant.read.file`, `file.not.directory`. The agent's in-process compiler tells them by code.
const IO_MESSAGES: &[&str] = &[
    "error: error while writing ",
    "error: error writing ",
    "error: error reading ",
    "error: cannot read: ",
    "error: not a directory: ",
];

/// The first line of javac's error output that reports an I/O failure of its own.
pub fn io_failure(errors: &str) -> Option<&str> {
    errors
        .lines()
        .find(|l| IO_MESSAGES.iter().any(|m| l.contains(m)))
}

/// The JVM options that start javac from its class-data archive in `dir` (the work dir's
/// `runtime/`), or that make the archive as this javac exits when there is none yet for this
/// JDK; with the path to move into place once javac is done. A javac JVM spends most of a
/// one-file compile loading its own classes: the archive cuts that (one file of `testdata/calc`:
/// 0.75 s against 0.55 s, 40 % less CPU). What javac writes cannot depend on it; the JVM
/// ignores an archive it cannot use (another JDK, a damaged file), and `-Xlog:disable` keeps
/// its warnings out of the output.
fn archive_options(tools: &Toolchain, dir: &Path) -> (Vec<String>, Option<(PathBuf, PathBuf)>) {
    static MAKING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    // One archive per JDK as it is on disk: a JDK updated in place gets a new one.
    let modules = tools.java_home.join("lib/modules");
    let Ok(meta) = std::fs::metadata(&modules) else {
        return (Vec::new(), None);
    };
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let stamp = format!("{}\0{}\0{mtime}", tools.java_home.display(), meta.len());
    let archive = dir.join(format!(
        "javac-{:016x}.jsa",
        crate::model::fnv(stamp.bytes(), crate::model::FNV_START)
    ));
    let quiet = "-J-Xlog:disable".to_string();
    if archive.is_file() {
        let use_it = format!("-J-XX:SharedArchiveFile={}", archive.display());
        return (vec![quiet, use_it], None);
    }
    if std::fs::create_dir_all(dir).is_err() {
        return (Vec::new(), None);
    }
    let n = MAKING.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(
        "{}.{}-{n}.tmp",
        archive.file_name().unwrap_or_default().to_string_lossy(),
        std::process::id()
    ));
    let make = format!("-J-XX:ArchiveClassesAtExit={}", tmp.display());
    (vec![quiet, make], Some((tmp, archive)))
}

/// The javac command of one project: its JDK, the scratch directory for its argument file, and
/// where its class-data archive is kept ([`archive_options`]), if anywhere.
pub struct Javac<'a> {
    pub tools: &'a Toolchain,
    pub project: &'a Project,
    pub scratch: &'a Path,
    pub runtime: Option<&'a Path>,
}

impl Javac<'_> {
    /// Compiles `files` into `out` against `classpath`.
    pub fn compile(
        &self,
        classpath: &[PathBuf],
        out: &Path,
        files: &[PathBuf],
    ) -> Result<(), Failed> {
        let Javac {
            tools,
            project,
            scratch,
            runtime,
        } = *self;
        let env = |path: &Path| {
            let path = path.display().to_string();
            move |e: std::io::Error| Failed::Environment(format!("{path}: {e}"))
        };
        std::fs::create_dir_all(out).map_err(env(out))?;
        std::fs::create_dir_all(scratch).map_err(env(scratch))?;
        let argfile = scratch.join("javac.args");
        let mut args = vec![
            "-nowarn".to_string(),
            "-encoding".into(),
            project.encoding.clone(),
            "--release".into(),
            project.release.clone(),
            "-proc:none".into(),
            "-implicit:none".into(),
            "-d".into(),
            out.display().to_string(),
        ];
        if !classpath.is_empty() {
            args.push("-cp".into());
            args.push(join_path(classpath));
        }
        args.extend(files.iter().map(|f| f.display().to_string()));
        let quoted: Vec<String> = args
            .iter()
            .map(|a| format!("\"{}\"", a.replace('\\', "\\\\").replace('"', "\\\"")))
            .collect();
        std::fs::write(&argfile, quoted.join("\n")).map_err(env(&argfile))?;
        // In a process group of its own: a Ctrl-C at the terminal, which lets a run finish the sets
        // in flight (crate::stop), must not kill javac and turn the patch into `C`.
        // javac runs once per process, seconds at most: the client compiler alone gets it there
        // sooner (commons-math's 457 main files: 2.5 s against 4.2 s, and a third of the CPU time).
        // What javac writes does not depend on how its own code is compiled.
        let (archive, made) = runtime.map_or_else(Default::default, |d| archive_options(tools, d));
        let output = Command::new(tools.javac())
            .arg("-J-Duser.language=en")
            .arg("-J-XX:TieredStopAtLevel=1")
            .args(archive)
            .arg(format!("@{}", argfile.display()))
            .process_group(0)
            .output();
        if let Some((tmp, archive)) = made {
            // Whoever finishes first puts theirs in place; a dump that failed leaves nothing usable.
            let whole = output.as_ref().is_ok_and(|o| o.status.code().is_some());
            if !(whole && std::fs::rename(&tmp, &archive).is_ok()) {
                let _ = std::fs::remove_file(&tmp);
            }
        }
        let output = output.map_err(|e| {
            Failed::Environment(format!("cannot run {}: {e}", tools.javac().display()))
        })?;
        if output.status.success() {
            return Ok(());
        }
        let errors = String::from_utf8_lossy(&output.stderr).into_owned();
        if output.status.code().is_none() {
            return Err(Failed::Environment(format!(
                "javac ended by {}",
                output.status
            )));
        }
        match io_failure(&errors) {
            Some(line) => Err(Failed::Environment(line.to_string())),
            None => Err(Failed::Errors(errors)),
        }
    }

    /// Compiles and maps failure to a project error showing the first lines of javac's output.
    pub fn compile_or_fail(
        &self,
        what: &str,
        classpath: &[PathBuf],
        out: &Path,
        files: &[PathBuf],
    ) -> Result<(), ProjectError> {
        self.compile(classpath, out, files)
            .map_err(|failed| match failed {
                Failed::Errors(errors) => ProjectError::DoesNotCompile {
                    what: keyword_as_identifier(&errors)
                        .map(|hint| format!("{what}: {hint}"))
                        .unwrap_or_else(|| what.to_string()),
                    errors: errors.lines().take(20).collect::<Vec<_>>().join("\n"),
                },
                Failed::Environment(why) => ProjectError::Javac {
                    what: what.to_string(),
                    why,
                },
            })
    }
}

/// javac's complaint about old code using a newer keyword (`enum`, `assert`, `_`) as a name,
/// turned into a sentence naming the file.
pub fn keyword_as_identifier(errors: &str) -> Option<String> {
    let line = errors
        .lines()
        .find(|l| l.contains("is a keyword") && l.contains("identifier"))?;
    let (file, rest) = line.split_once(": error: ")?;
    let keyword = rest.split('\'').nth(1).unwrap_or("a keyword");
    Some(format!(
        "{file} uses `{keyword}` as an identifier, which newer Java rejects; rename it \
         (e.g. old commons-lang's package `enum` to `enums`)"
    ))
}

/// Copies resource directories into a class output directory.
pub fn copy_resources(
    dirs: &[PathBuf],
    sources: &[PathBuf],
    out: &Path,
) -> Result<(), ProjectError> {
    for d in dirs {
        // A source directory that also holds resources (old Ant layouts): its Java files are
        // compiled, not copied.
        let is_source = sources.contains(d);
        for e in walkdir::WalkDir::new(d).into_iter().filter_map(|e| e.ok()) {
            if !e.file_type().is_file()
                || (is_source && e.path().extension().is_some_and(|x| x == "java"))
            {
                continue;
            }
            let rel = e
                .path()
                .strip_prefix(d)
                .expect("walkdir stays below its root");
            let to = out.join(rel);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(super::io_err(parent))?;
            }
            std::fs::copy(e.path(), &to).map_err(super::io_err(&to))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn keyword_errors_name_the_file() {
        let e = "/p/src/java/org/a/enum/Foo.java:1: error: as of release 5, 'enum' is a keyword, and may not be used as an identifier\npackage org.a.enum;";
        let hint = super::keyword_as_identifier(e).unwrap();
        assert!(
            hint.starts_with("/p/src/java/org/a/enum/Foo.java:1 uses `enum`"),
            "{hint}"
        );
        assert!(super::keyword_as_identifier("A.java:3: error: cannot find symbol").is_none());
    }

    /// The first compile makes javac's archive in the runtime directory, later ones start from
    /// it, and neither the archive nor a damaged one changes what javac says or writes.
    #[test]
    fn javac_starts_from_its_archive_and_says_the_same() {
        let tools = crate::toolchain::Toolchain::detect().expect("a JDK");
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src/main/java");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::create_dir_all(dir.path().join("src/test/java")).unwrap();
        let good = src.join("A.java");
        std::fs::write(&good, "class A { int f() { return 1; } }").unwrap();
        let bad = src.join("B.java");
        std::fs::write(&bad, "class B { int f() { return; } }").unwrap();
        let project = super::super::load(dir.path(), &super::super::Overrides::default()).unwrap();
        let runtime = dir.path().join("runtime");
        let javac = super::Javac {
            tools: &tools,
            project: &project,
            scratch: &dir.path().join("tmp"),
            runtime: Some(&runtime),
        };
        let compile = |file: &std::path::Path, out: &str| {
            javac.compile(&[], &dir.path().join(out), &[file.to_path_buf()])
        };
        let archives = || {
            let mut v: Vec<String> = std::fs::read_dir(&runtime)
                .map(|d| {
                    d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                        .collect()
                })
                .unwrap_or_default();
            v.sort();
            v
        };
        compile(&good, "first").unwrap();
        let made = archives();
        assert!(
            made.len() == 1 && made[0].starts_with("javac-") && made[0].ends_with(".jsa"),
            "{made:?}"
        );
        compile(&good, "second").unwrap();
        assert_eq!(archives(), made, "the archive is made once");
        let class = |out: &str| std::fs::read(dir.path().join(out).join("A.class")).unwrap();
        assert_eq!(class("first"), class("second"));
        let Err(super::Failed::Errors(from_archive)) = compile(&bad, "third") else {
            panic!("B.java does not compile");
        };
        assert!(from_archive.contains("B.java:1: error:"), "{from_archive}");
        // A damaged archive: the JVM leaves it alone and javac says just the same.
        std::fs::remove_file(runtime.join(&made[0])).unwrap();
        std::fs::write(runtime.join(&made[0]), b"not an archive").unwrap();
        let Err(super::Failed::Errors(damaged)) = compile(&bad, "fourth") else {
            panic!("B.java does not compile");
        };
        assert_eq!(damaged, from_archive);
        compile(&good, "fifth").unwrap();
        assert_eq!(class("fifth"), class("first"));
    }
}
