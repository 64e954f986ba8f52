//! Reading ExpressAPR manifest-v3 patch sets, expanding globs, and checking them against the file on disk.

use crate::model::PatchSet;
use std::path::{Path, PathBuf};

/// Why a patch set could not be used.
#[derive(Debug, thiserror::Error)]
pub enum PatchSetError {
    #[error("{path}: cannot read: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: invalid patch set at field `{field}`: {message}")]
    Invalid {
        path: PathBuf,
        field: String,
        message: String,
    },
    #[error("{path}: unsupported manifest_version {version} (expected 3)")]
    Version { path: PathBuf, version: u32 },
    #[error("{path}: context_above + unpatched + context_below does not match {file}: {what}")]
    Mismatch {
        path: PathBuf,
        file: String,
        what: String,
    },
    #[error("no patch set matches `{0}`")]
    NoMatch(String),
}

/// Parses one manifest from its text; errors name the file and the field at fault.
pub fn parse(path: &Path, text: &str) -> Result<PatchSet, PatchSetError> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let set: PatchSet = serde_path_to_error::deserialize(de).map_err(|e| {
        let field = e.path().to_string();
        PatchSetError::Invalid {
            path: path.to_path_buf(),
            field: if field == "." {
                "(document)".into()
            } else {
                field
            },
            message: e.into_inner().to_string(),
        }
    })?;
    if set.manifest_version != 3 {
        return Err(PatchSetError::Version {
            path: path.to_path_buf(),
            version: set.manifest_version,
        });
    }
    if let Some(message) = filename_problem(&set.filename) {
        return Err(PatchSetError::Invalid {
            path: path.to_path_buf(),
            field: "filename".into(),
            message,
        });
    }
    Ok(set)
}

/// Why `filename` cannot name a source file of the project: it must be a relative path below
/// the project root (the patched file is written at that path inside a worker's copy of the
/// project, so `..` or an absolute path would write outside it).
fn filename_problem(filename: &str) -> Option<String> {
    use std::path::Component;
    let p = Path::new(filename);
    if filename.is_empty() {
        return Some("empty".into());
    }
    if !p
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Some(format!(
            "`{filename}` is not a relative path below the project root (no `..`, not absolute)"
        ));
    }
    if p.extension().and_then(|e| e.to_str()) != Some("java") {
        return Some(format!("`{filename}` is not a .java file"));
    }
    None
}

/// Reads and parses one manifest file.
pub fn load(path: &Path) -> Result<PatchSet, PatchSetError> {
    let text = std::fs::read_to_string(path).map_err(|source| PatchSetError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse(path, &text)
}

/// How many patches a file lists, even when it is not a valid manifest (0 when unknown).
pub fn patch_count(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v.get("patches").and_then(|p| p.as_array()).map(Vec::len))
        .unwrap_or(0)
}

/// Checks that the patch set was made against `actual` (the file on disk).
pub fn check_context(path: &Path, set: &PatchSet, actual: &str) -> Result<(), PatchSetError> {
    let expected = set.original_text();
    if expected == actual {
        return Ok(());
    }
    let at = expected
        .bytes()
        .zip(actual.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(actual.len()));
    let line = actual[..at.min(actual.len())].matches('\n').count() + 1;
    Err(PatchSetError::Mismatch {
        path: path.to_path_buf(),
        file: set.filename.clone(),
        what: format!(
            "first difference at line {line} (byte {at}); manifest text is {} bytes, file is {} bytes",
            expected.len(),
            actual.len()
        ),
    })
}

/// Expands arguments that are files, directories (their `*.json`) or glob patterns, in order, without duplicates.
pub fn expand(args: &[String]) -> Result<Vec<PathBuf>, PatchSetError> {
    let mut out: Vec<PathBuf> = Vec::new();
    for arg in args {
        let p = Path::new(arg);
        let mut found: Vec<PathBuf> = Vec::new();
        if p.is_dir() {
            for e in walkdir::WalkDir::new(p).max_depth(1).sort_by_file_name() {
                let e = e.map_err(|_| PatchSetError::NoMatch(arg.clone()))?;
                if e.file_type().is_file()
                    && e.path().extension().is_some_and(|x| x == "json")
                    && e.file_name() != "expected.json"
                {
                    found.push(e.into_path());
                }
            }
        } else if p.is_file() {
            found.push(p.to_path_buf());
        } else if let Ok(paths) = glob::glob(arg) {
            found.extend(paths.flatten().filter(|p| p.is_file()));
            found.sort();
        }
        if found.is_empty() {
            return Err(PatchSetError::NoMatch(arg.clone()));
        }
        for f in found {
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"manifest_version":3,"interface":"local","bug":"b","filename":"A.java",
        "context_above":"class A { void f() { ","unpatched":"x = 1;","context_below":" } }","patches":["x = 2;"]}"#;

    #[test]
    fn parses_a_good_manifest() {
        let s = parse(Path::new("a.json"), GOOD).unwrap();
        assert_eq!(s.patches.len(), 1);
        assert_eq!(s.original_text(), "class A { void f() { x = 1; } }");
        assert_eq!(&s.original_text()[s.unpatched_range()], "x = 1;");
        assert_eq!(s.patched_text(0), "class A { void f() { x = 2; } }");
    }

    #[test]
    fn errors_name_file_and_field() {
        let bad = GOOD.replace(r#""patches":["x = 2;"]"#, r#""patches":[3]"#);
        let e = parse(Path::new("dir/bad.json"), &bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("dir/bad.json"), "{e}");
        assert!(e.contains("patches[0]"), "{e}");
        let missing = GOOD.replace(r#""bug":"b","#, "");
        let e = parse(Path::new("m.json"), &missing)
            .unwrap_err()
            .to_string();
        assert!(e.contains("bug"), "{e}");
        let e = parse(Path::new("t.json"), "{ not json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("t.json"), "{e}");
        let v2 = GOOD.replace("\"manifest_version\":3", "\"manifest_version\":2");
        assert!(matches!(
            parse(Path::new("v.json"), &v2),
            Err(PatchSetError::Version { version: 2, .. })
        ));
    }

    #[test]
    fn a_filename_outside_the_project_is_refused() {
        for bad in [
            "../../x.java",
            "/etc/A.java",
            "src/../../A.java",
            "",
            "src/A.txt",
        ] {
            let text = GOOD.replace(r#""filename":"A.java""#, &format!(r#""filename":"{bad}""#));
            let e = parse(Path::new("f.json"), &text).unwrap_err().to_string();
            assert!(
                e.contains("f.json") && e.contains("field `filename`"),
                "{bad}: {e}"
            );
        }
        let fine = GOOD.replace(
            r#""filename":"A.java""#,
            r#""filename":"./src/main/java/A.java""#,
        );
        assert!(parse(Path::new("f.json"), &fine).is_ok());
    }

    #[test]
    fn context_mismatch_is_reported_with_line() {
        let s = parse(Path::new("a.json"), GOOD).unwrap();
        check_context(Path::new("a.json"), &s, "class A { void f() { x = 1; } }").unwrap();
        let e = check_context(Path::new("a.json"), &s, "class A { void g() { x = 1; } }")
            .unwrap_err()
            .to_string();
        assert!(e.contains("A.java") && e.contains("line 1"), "{e}");
    }
}
