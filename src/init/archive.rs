//! The workers' class-data archive (CDS): made at `init` by a training JVM that compiles a project
//! file and runs a test as a worker would, then used by every worker JVM whose class path and
//! options it was made for, so that javac, JUnit and the agent load from the archive.

use crate::compile::{compile_classpath, CompileSetup};
use crate::pool::protocol::Request;
use crate::pool::spawn::{archive, fingerprint, stamp};
use crate::pool::WorkerConfig;
use crate::protocol::{class, select};
use crate::workdir::{State, WorkDir};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Makes the archive for the workers of `state` (after the baseline): the training JVM compiles
/// the project's largest main source file as the schemata are compiled, and runs the first
/// passing test of the baseline (under 2 s) in a fresh and in a warm loader.
pub fn make(wd: &WorkDir, state: &State) -> Result<PathBuf, String> {
    let config = crate::pool::spawn::config_without_archive(wd, &state.project, &state.tools, 0)
        .map_err(|e| e.to_string())?;
    wd.copy_project(0, &state.project.root)
        .map_err(|e| format!("{}: {e}", wd.worker_project(0).display()))?;
    let agent_jar = crate::agent::extract(&wd.runtime()).map_err(|e| e.to_string())?;
    let mut requests = Vec::new();
    let largest = crate::project::javac::sources(&state.project.source_dirs)
        .into_iter()
        .filter_map(|f| Some((std::fs::metadata(&f).ok()?.len(), f)))
        .max();
    if let Some((_, file)) = largest {
        let scratch = wd.root.join("tmp").join("cds-train");
        let source = scratch
            .join("src")
            .join(file.file_name().unwrap_or_default());
        let overlay = scratch.join("classes");
        for d in [source.parent().unwrap_or(&scratch), &overlay] {
            std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        std::fs::copy(&file, &source).map_err(|e| format!("{}: {e}", file.display()))?;
        let setup = CompileSetup {
            source: source.clone(),
            overlay,
            classpath: compile_classpath(&wd.classes(), &state.project.classpath, &agent_jar),
            release: state.project.release.clone(),
            encoding: state.project.encoding.clone(),
        };
        requests.push(Request::Compile {
            options: setup.options(),
            files: vec![source.display().to_string()],
        });
    }
    if let Some(t) = state.tests.iter().find(|t| t.passed && t.millis < 2000.0) {
        for warm in [false, true] {
            requests.push(Request::RunTest {
                classpath: wd.test_classpath(state, None),
                test: t.id.clone(),
                patch: select::NONE,
                warm,
                coverage: None,
            });
        }
    }
    train(wd, &config, &requests, Duration::from_secs(120))
}

/// Makes the archive for workers started with `config` (whose options must not map an archive
/// already): a JVM with the same class path and options serves `requests` and dumps the classes
/// it loaded when it exits. Returns why when no archive was made; workers then run without one.
pub fn train(
    wd: &WorkDir,
    config: &WorkerConfig,
    requests: &[Request],
    limit: Duration,
) -> Result<PathBuf, String> {
    let dir = wd.runtime();
    let path = archive(wd);
    let _ = std::fs::remove_file(stamp(wd));
    let _ = std::fs::remove_file(&path);
    let listing = dir.join("cds-train.requests");
    let mut text = String::new();
    for r in requests {
        for field in r.agent_args() {
            if field.is_empty() || field.contains('\n') {
                return Err(format!(
                    "a request field cannot be written one per line: {field:?}"
                ));
            }
            text.push_str(&field);
            text.push('\n');
        }
        text.push('\n');
    }
    std::fs::write(&listing, text).map_err(|e| format!("{}: {e}", listing.display()))?;
    let partial = dir.join(format!(".worker.jsa.{}", std::process::id()));
    let _ = std::fs::remove_file(&partial);
    let log = std::fs::File::create(wd.logs().join("cds-train.log"))
        .map_err(|e| format!("{}: {e}", wd.logs().join("cds-train.log").display()))?;
    let mut child = Command::new(config.java_home.join("bin/java"))
        .args(&config.jvm_options)
        .arg(format!("-XX:ArchiveClassesAtExit={}", partial.display()))
        .arg("-cp")
        .arg(&config.class_path)
        .arg(class::CDS_TRAIN)
        .arg(&listing)
        .current_dir(&config.cwd)
        .stdin(Stdio::null())
        .stdout(log.try_clone().map_err(|e| e.to_string())?)
        .stderr(log)
        .process_group(0)
        .spawn()
        .map_err(|e| {
            format!(
                "cannot start {}: {e}",
                config.java_home.join("bin/java").display()
            )
        })?;
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < limit => std::thread::sleep(Duration::from_millis(50)),
            Ok(None) => {
                // SAFETY: signalling the process group this child leads.
                unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
                let _ = child.wait();
                let _ = std::fs::remove_file(&partial);
                return Err(format!("the training JVM ran past {}s", limit.as_secs()));
            }
            Err(e) => return Err(e.to_string()),
        }
    };
    if !status.success() || !partial.is_file() {
        let _ = std::fs::remove_file(&partial);
        return Err(format!(
            "the training JVM ended with {status} and no archive (see {})",
            wd.logs().join("cds-train.log").display()
        ));
    }
    std::fs::rename(&partial, &path).map_err(|e| format!("{}: {e}", path.display()))?;
    let made_for = fingerprint(&config.java_home, &config.class_path, &config.jvm_options);
    std::fs::write(stamp(wd), made_for).map_err(|e| format!("{}: {e}", stamp(wd).display()))?;
    Ok(path)
}
