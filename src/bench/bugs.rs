//! The bugs of a bench, from a TOML file (`[[bug]]` tables) or a CSV file (`name,kind,path`):
//! each a name and where it is, an initialised work dir or a project `init` takes.

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Where a bug is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A work dir `init` already made.
    WorkDir(PathBuf),
    /// A project for `init --project`, `--maven` or `--defects4j` (the flag without dashes).
    Init { kind: &'static str, path: PathBuf },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bug {
    pub name: String,
    pub source: Source,
}

#[derive(Debug, thiserror::Error)]
#[error("{path}: {why}")]
pub struct BugsError {
    pub path: PathBuf,
    pub why: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlFile {
    bug: Vec<TomlBug>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlBug {
    name: String,
    work_dir: Option<PathBuf>,
    project: Option<PathBuf>,
    maven: Option<PathBuf>,
    defects4j: Option<PathBuf>,
}

const KINDS: [&str; 4] = ["work_dir", "project", "maven", "defects4j"];

/// The bugs listed in `path` (`.toml`, else CSV with a `name,kind,path` header), paths relative
/// to the file's directory; names must be distinct and usable as directory names.
pub fn read(path: &Path) -> Result<Vec<Bug>, BugsError> {
    let bad = |why: String| BugsError {
        path: path.to_path_buf(),
        why,
    };
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let base = path.parent().unwrap_or(Path::new("."));
    let rows: Vec<(String, String, PathBuf)> = if path.extension().is_some_and(|e| e == "toml") {
        let file: TomlFile = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
        let mut rows = Vec::new();
        for b in file.bug {
            let given: Vec<(&str, PathBuf)> = KINDS
                .iter()
                .zip([b.work_dir, b.project, b.maven, b.defects4j])
                .filter_map(|(k, p)| p.map(|p| (*k, p)))
                .collect();
            match given.as_slice() {
                [(kind, p)] => rows.push((b.name, kind.to_string(), p.clone())),
                _ => {
                    return Err(bad(format!(
                        "bug `{}`: give exactly one of {}",
                        b.name,
                        KINDS.join(", ")
                    )))
                }
            }
        }
        rows
    } else {
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .comment(Some(b'#'))
            .from_reader(text.as_bytes());
        let mut rows = Vec::new();
        for (n, record) in reader
            .deserialize::<(String, String, PathBuf)>()
            .enumerate()
        {
            rows.push(record.map_err(|e| bad(format!("row {}: {e}", n + 1)))?);
        }
        rows
    };
    let mut bugs: Vec<Bug> = Vec::new();
    for (name, kind, p) in rows {
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        {
            return Err(bad(format!(
                "bug name `{name}`: use letters, digits, `-`, `_` and `.` only"
            )));
        }
        if bugs.iter().any(|b| b.name == name) {
            return Err(bad(format!("bug `{name}` is listed twice")));
        }
        let p = base.join(p);
        let source = match kind.as_str() {
            "work_dir" => Source::WorkDir(p),
            "project" => Source::Init {
                kind: "project",
                path: p,
            },
            "maven" => Source::Init {
                kind: "maven",
                path: p,
            },
            "defects4j" => Source::Init {
                kind: "defects4j",
                path: p,
            },
            other => {
                return Err(bad(format!(
                    "bug `{name}`: kind `{other}` is not one of {}",
                    KINDS.join(", ")
                )))
            }
        };
        bugs.push(Bug { name, source });
    }
    if bugs.is_empty() {
        return Err(bad("no bug listed".into()));
    }
    Ok(bugs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn toml_and_csv_lists_read_alike() {
        let dir = tempfile::tempdir().unwrap();
        let t = write(
            dir.path(),
            "bugs.toml",
            "[[bug]]\nname = \"math-1\"\ndefects4j = \"co/Math_1\"\n[[bug]]\nname = \"w\"\nwork_dir = \"/abs/w\"\n",
        );
        let c = write(
            dir.path(),
            "bugs.csv",
            "name,kind,path\n# a comment\nmath-1, defects4j, co/Math_1\nw,work_dir,/abs/w\n",
        );
        let want = vec![
            Bug {
                name: "math-1".into(),
                source: Source::Init {
                    kind: "defects4j",
                    path: dir.path().join("co/Math_1"),
                },
            },
            Bug {
                name: "w".into(),
                source: Source::WorkDir("/abs/w".into()),
            },
        ];
        assert_eq!(read(&t).unwrap(), want);
        assert_eq!(read(&c).unwrap(), want);
    }

    #[test]
    fn bad_lists_name_the_file_and_the_fault() {
        let dir = tempfile::tempdir().unwrap();
        for (name, text, want) in [
            ("a.toml", "[[bug]]\nname = \"x\"\n", "exactly one of"),
            (
                "b.toml",
                "[[bug]]\nname = \"x\"\nproject = \"p\"\nmaven = \"m\"\n",
                "exactly one of",
            ),
            ("c.csv", "name,kind,path\nx,svn,p\n", "kind `svn`"),
            (
                "d.csv",
                "name,kind,path\nx,project,p\nx,project,q\n",
                "listed twice",
            ),
            ("e.csv", "name,kind,path\na b,project,p\n", "bug name `a b`"),
            ("f.csv", "name,kind,path\nx,project\n", "row 1"),
            ("g.csv", "name,kind,path\n", "no bug listed"),
        ] {
            let p = write(dir.path(), name, text);
            let e = read(&p).unwrap_err().to_string();
            assert!(e.contains(name) && e.contains(want), "{name}: {e}");
        }
    }
}
