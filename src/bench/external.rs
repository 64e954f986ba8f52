//! An external validator as a bench technique: a shell command run once per manifest-v3 set (as
//! ExpressAPR's command line takes them), its verdicts read from the ExpressAPR result line it
//! prints (`succlist`), timed and counted into a row like the built-in techniques'.

use super::measure::{cpu_seconds, Row};
use crate::workdir::WorkDir;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `NAME=COMMAND` of `bench --external`: the row's technique name and the command, in which
/// `{set}`, `{work}` and `{project}` stand for the set file, the bug's work dir and its project
/// (each replaced by a shell-quoted absolute path).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct External {
    pub name: String,
    pub command: String,
}

impl std::str::FromStr for External {
    type Err = String;

    fn from_str(s: &str) -> Result<External, String> {
        let (name, command) = s
            .split_once('=')
            .ok_or_else(|| format!("`{s}`: expected NAME=COMMAND"))?;
        let name = name.trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "`{name}`: a technique name is letters, digits, `-` and `_`"
            ));
        }
        if super::measure::TECHNIQUES.contains(&name) {
            return Err(format!("`{name}` is a built-in technique's name"));
        }
        if !command.contains("{set}") {
            return Err(format!(
                "`{command}`: the command must name the set, `{{set}}`"
            ));
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
pub fn parse_output(stdout: &str, patches: usize) -> Result<SetOutput, String> {
    let line = stdout
        .lines()
        .rev()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l.trim()).ok())
        .find(|v| v.get("succlist").is_some_and(|s| s.is_string()))
        .ok_or("its output has no JSON line with a `succlist` (ExpressAPR's result line)")?;
    let letters = line["succlist"].as_str().unwrap_or_default().to_string();
    if let Some(bad) = letters.chars().find(|c| !"sFCTE".contains(*c)) {
        return Err(format!(
            "`succlist` {letters:?} has `{bad}`, not a verdict (s, F, C, T, E)"
        ));
    }
    if letters.chars().count() != patches {
        return Err(format!(
            "`succlist` {letters:?} has {} verdicts for {patches} patches",
            letters.chars().count()
        ));
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
) -> Result<Option<Row>, String> {
    let project = wd
        .load()
        .map(|s| s.project.root)
        .map_err(|err| err.to_string())?;
    let log_file = || {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .map_err(|err| format!("{}: {err}", log.display()))
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
            .map_err(|err| format!("{}: sh: {err}", e.name))?;
        let name = set.file_name().unwrap_or_default().to_string_lossy();
        if crate::stop::requested() {
            return Ok(None);
        }
        if !output.status.success() {
            return Err(format!(
                "{}: `{line}` on {name}: {} (its standard error: {})",
                e.name,
                output.status,
                log.display()
            ));
        }
        let out = parse_output(&String::from_utf8_lossy(&output.stdout), patches)
            .map_err(|why| format!("{}: on {name}: {why}", e.name))?;
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
        assert!("plain=x {set}".parse::<External>().is_err());
        assert!("no command".parse::<External>().is_err());
        assert!("a b=x {set}".parse::<External>().is_err());
        assert!("ext=run it".parse::<External>().is_err(), "no {{set}}");
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
        assert!(parse_output(out, 4)
            .unwrap_err()
            .contains("3 verdicts for 4"));
        assert!(parse_output("{\"succlist\":\"sX\"}", 2)
            .unwrap_err()
            .contains("`X`"));
        assert!(parse_output("nothing", 1).unwrap_err().contains("succlist"));
    }
}
