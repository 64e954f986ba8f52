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

/// Compiles `files` into `out` with the javac command.
pub fn compile(
    tools: &Toolchain,
    project: &Project,
    classpath: &[PathBuf],
    out: &Path,
    files: &[PathBuf],
    scratch: &Path,
) -> Result<(), Failed> {
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
    let output = Command::new(tools.javac())
        .arg("-J-Duser.language=en")
        .arg("-J-XX:TieredStopAtLevel=1")
        .arg(format!("@{}", argfile.display()))
        .process_group(0)
        .output()
        .map_err(|e| Failed::Environment(format!("cannot run {}: {e}", tools.javac().display())))?;
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
    what: &str,
    tools: &Toolchain,
    project: &Project,
    classpath: &[PathBuf],
    out: &Path,
    files: &[PathBuf],
    scratch: &Path,
) -> Result<(), ProjectError> {
    compile(tools, project, classpath, out, files, scratch).map_err(|failed| match failed {
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
}
