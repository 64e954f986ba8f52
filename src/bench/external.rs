//! An external validator as a bench technique: a shell command run once per manifest-v3 set (as
//! ExpressAPR's command line takes them), its verdicts read from the ExpressAPR result line it
//! prints (`succlist`), timed and counted into a row like the built-in techniques'.

use super::measure::{cpu_seconds, Row};
use crate::workdir::WorkDir;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What is wrong with an `--external NAME=COMMAND` argument.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("`{0}`: expected NAME=COMMAND")]
    NoName(String),
    #[error("`{0}`: a technique name is letters, digits, `-` and `_`")]
    BadName(String),
    #[error("`{0}` is a built-in technique's name")]
    BuiltIn(String),
    #[error("`{0}`: the command must name the set, `{{set}}`")]
    NoSet(String),
}

/// What is wrong with the result line an external validator printed for a set.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum OutputError {
    #[error("its output has no JSON line with a `succlist` (ExpressAPR's result line)")]
    NoResultLine,
    #[error("`succlist` {letters:?} has `{bad}`, not a verdict (s, F, C, T, E)")]
    NotAVerdict { letters: String, bad: char },
    #[error("`succlist` {letters:?} has {found} verdicts for {patches} patches")]
    Count {
        letters: String,
        found: usize,
        patches: usize,
    },
}

/// Why an external validator's row could not be measured.
#[derive(Debug, thiserror::Error)]
pub enum ExternalError {
    #[error("{name}: the bug's work dir: {source}")]
    WorkDir {
        name: String,
        source: crate::workdir::WorkDirError,
    },
    #[error("{path}: {source}")]
    Log {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{name}: sh: {source}")]
    Shell {
        name: String,
        source: std::io::Error,
    },
    #[error("{name}: `{line}` on {set}: {status} (its standard error: {log})")]
    Failed {
        name: String,
        line: String,
        set: String,
        status: std::process::ExitStatus,
        log: PathBuf,
    },
    #[error("{name}: on {set}: {source}")]
    Output {
        name: String,
        set: String,
        source: OutputError,
    },
}

/// `NAME=COMMAND` of `bench --external`: the row's technique name and the command, in which
/// `{set}`, `{work}` and `{project}` stand for the set file, the bug's work dir and its project
/// (each replaced by a shell-quoted absolute path).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct External {
    pub name: String,
    pub command: String,
}

impl std::str::FromStr for External {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<External, SpecError> {
        let (name, command) = s
            .split_once('=')
            .ok_or_else(|| SpecError::NoName(s.to_string()))?;
        let name = name.trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(SpecError::BadName(name.to_string()));
        }
        if super::measure::TECHNIQUES.contains(&name) {
            return Err(SpecError::BuiltIn(name.to_string()));
        }
        if !command.contains("{set}") {
            return Err(SpecError::NoSet(command.to_string()));
        }
        Ok(External {
            name: name.to_string(),
            command: command.to_string(),
        })
    }
}

/// `path` quoted for `sh`.
fn quoted(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The command with its placeholders replaced.
pub fn command_line(e: &External, set: &Path, work: &Path, project: &Path) -> String {
    e.command
        .replace("{set}", &quoted(&absolute(set)))
        .replace("{work}", &quoted(&absolute(work)))
        .replace("{project}", &quoted(&absolute(project)))
}

/// What one set's output says: the verdict letters, and test executions when it counts them
/// (`extra.rounds`, as patchval's and ExpressAPR's result lines do).
#[derive(Debug, PartialEq)]
pub struct SetOutput {
    pub letters: String,
    pub rounds: u64,
    pub compile_seconds: f64,
}

/// The last line of `stdout` that is a JSON object with a `succlist`, checked against the set's
/// `patches` (one verdict letter each: s, F, C, T or E).
pub fn parse_output(stdout: &str, patches: usize) -> Result<SetOutput, OutputError> {
    let line = stdout
        .lines()
        .rev()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l.trim()).ok())
        .find(|v| v.get("succlist").is_some_and(|s| s.is_string()))
        .ok_or(OutputError::NoResultLine)?;
    let letters = line["succlist"].as_str().unwrap_or_default().to_string();
    if let Some(bad) = letters.chars().find(|c| !"sFCTE".contains(*c)) {
        return Err(OutputError::NotAVerdict { letters, bad });
    }
    if letters.chars().count() != patches {
        return Err(OutputError::Count {
            found: letters.chars().count(),
            letters,
            patches,
        });
    }
    let extra = &line["extra"];
    Ok(SetOutput {
        letters,
        rounds: extra["rounds"].as_u64().unwrap_or(0),
        compile_seconds: extra["compile_ms"].as_f64().unwrap_or(0.0) / 1000.0,
    })
}

/// Validates `sets` (generation order) of `bug` with the external command, its standard error
/// appended to `log`; `Ok(None)` when a SIGINT stopped it. Sets that are not manifest-v3 files
/// (edit lists of pairs) are not given to it and counted in `not_taken`. Any set the command
/// fails on fails the row, with the reason.
pub fn measure(
    wd: &WorkDir,
    bug: &str,
    e: &External,
    jobs: usize,
    sets: &[PathBuf],
    log: &Path,
) -> Result<Option<Row>, ExternalError> {
    let project = wd
        .load()
        .map(|s| s.project.root)
        .map_err(|source| ExternalError::WorkDir {
            name: e.name.clone(),
            source,
        })?;
    let log_file = || {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .map_err(|source| ExternalError::Log {
                path: log.to_path_buf(),
                source,
            })
    };
    let mut row = Row::new(bug, &e.name, jobs);
    let (cpu, started) = (cpu_seconds(), Instant::now());
    for set in sets {
        if crate::stop::requested() {
            return Ok(None);
        }
        let patches = match crate::patchset::load(set) {
            Ok(s) => s.patches.len(),
            Err(_) => {
                row.not_taken += crate::patchset::patch_count(set);
                continue;
            }
        };
        let line = command_line(e, set, &wd.root, &project);
        tracing::debug!("bench: {}: {line}", e.name);
        let output = std::process::Command::new("sh")
            .arg("-c")
            .arg(&line)
            .current_dir(&wd.root)
            .stdin(std::process::Stdio::null())
            .stderr(log_file()?)
            .output()
            .map_err(|source| ExternalError::Shell {
                name: e.name.clone(),
                source,
            })?;
        let name = set.file_name().unwrap_or_default().to_string_lossy();
        if crate::stop::requested() {
            return Ok(None);
        }
        if !output.status.success() {
            return Err(ExternalError::Failed {
                name: e.name.clone(),
                line,
                set: name.into_owned(),
                status: output.status,
                log: log.to_path_buf(),
            });
        }
        let out =
            parse_output(&String::from_utf8_lossy(&output.stdout), patches).map_err(|source| {
                ExternalError::Output {
                    name: e.name.clone(),
                    set: name.to_string(),
                    source,
                }
            })?;
        if out.letters.contains('s') && row.first_plausible_seconds.is_none() {
            row.first_plausible_seconds = Some(started.elapsed().as_secs_f64());
        }
        row.add_set(
            name.into_owned(),
            &out.letters,
            out.rounds,
            out.compile_seconds,
        );
    }
    row.wall_seconds = started.elapsed().as_secs_f64();
    row.core_seconds = cpu_seconds() - cpu;
    if row.not_taken > 0 {
        tracing::warn!(
            "bench: {bug}: {}: {} patches in edit lists not taken (manifest-v3 sets only)",
            e.name,
            row.not_taken
        );
    }
    Ok(Some(row))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_commands_are_checked() {
        let e: External = "expapr=python3 cli.py -i {set} -w {work}".parse().unwrap();
        assert_eq!(e.name, "expapr");
        let err = |s: &str| s.parse::<External>().unwrap_err();
        assert_eq!(err("plain=x {set}"), SpecError::BuiltIn("plain".into()));
        assert_eq!(err("no command"), SpecError::NoName("no command".into()));
        assert_eq!(err("a b=x {set}"), SpecError::BadName("a b".into()));
        assert_eq!(err("ext=run it"), SpecError::NoSet("run it".into()));
        assert_eq!(
            err("ext=run it").to_string(),
            "`run it`: the command must name the set, `{set}`"
        );
    }

    #[test]
    fn placeholders_become_quoted_paths() {
        let e: External = "x=v {set} -w {work} -p {project}".parse().unwrap();
        let line = command_line(
            &e,
            Path::new("/s/it's.json"),
            Path::new("/w"),
            Path::new("/p q"),
        );
        assert_eq!(line, r"v '/s/it'\''s.json' -w '/w' -p '/p q'");
    }

    #[test]
    fn the_last_result_line_is_read_and_checked() {
        let out = "progress\n{\"succlist\":\"FF\"}\n{\"patches_path\":\"a\",\"succlist\":\"sFC\",\"extra\":{\"rounds\":7,\"compile_ms\":1500.0}}\ndone\n";
        assert_eq!(
            parse_output(out, 3).unwrap(),
            SetOutput {
                letters: "sFC".into(),
                rounds: 7,
                compile_seconds: 1.5
            }
        );
        assert_eq!(
            parse_output(out, 4).unwrap_err().to_string(),
            "`succlist` \"sFC\" has 3 verdicts for 4 patches"
        );
        assert_eq!(
            parse_output("{\"succlist\":\"sX\"}", 2).unwrap_err(),
            OutputError::NotAVerdict {
                letters: "sX".into(),
                bad: 'X'
            }
        );
        assert_eq!(
            parse_output("nothing", 1).unwrap_err(),
            OutputError::NoResultLine
        );
    }
}
