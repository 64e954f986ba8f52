//! `patchval generate`, a front end: candidate patches at the most suspicious statements, with
//! TBar's fix-pattern families (`patterns.rs`), written as manifest-v3 sets (one per location) in a
//! deterministic order (location rank, then family), within budgets. Locations come from
//! `locate`'s ranking or from a file in the `Class@line` form TBar reads from GZoltar.

pub mod check;
pub mod classes;
pub mod pairs;
pub mod patterns;
pub mod types;

use crate::fuzz::declared::exceptions;
use crate::fuzz::locate::{candidates, parse_source, SourceFile};
use crate::fuzz::spot::Spot;
use crate::locate::{Formula, LocateError};
use crate::model::PatchSet;
use crate::patchset::line_of;
use crate::workdir::{State, WorkDir, WorkDirError};
use classes::Classes;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What to generate.
#[derive(Debug, Clone)]
pub struct GenerateArgs {
    /// Locations taken (the first `top` lines of the ranking or of the file).
    pub top: usize,
    /// Patches in all, and at one location.
    pub max_patches: usize,
    pub per_location: usize,
    /// A `Class@line[@score]` file instead of `locate`'s ranking (with `formula`).
    pub locations: Option<PathBuf>,
    pub formula: Formula,
    /// Where the sets go (emptied first).
    pub out: PathBuf,
    /// 2: also pairs of candidates at two locations (`pairs.rs`), at most `max_pairs`.
    pub order: usize,
    pub max_pairs: usize,
}

/// One written set.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GeneratedSet {
    pub path: PathBuf,
    /// `file:line` and the location's rank (1-based, in the list of locations).
    pub place: String,
    pub rank: usize,
    pub patches: usize,
    /// Patches per family.
    pub families: BTreeMap<&'static str, usize>,
}

/// What `generate` did.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Generated {
    pub sets: Vec<GeneratedSet>,
    /// Locations without a statement that patterns apply to, and why.
    pub skipped: Vec<String>,
    /// Candidates dropped because the patched file did not parse (a pattern's bug).
    pub unparsable: usize,
    /// Candidates dropped because javac would refuse them (`check.rs`), by reason.
    pub refused: usize,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub refused_why: BTreeMap<String, usize>,
}

#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error(transparent)]
    WorkDir(#[from] WorkDirError),
    #[error(transparent)]
    Locate(#[from] LocateError),
    #[error("{path}: {why}")]
    Locations { path: PathBuf, why: String },
    #[error("{path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl GenerateError {
    pub fn exit_code(&self) -> crate::exit::ExitCode {
        use crate::exit::ExitCode;
        match self {
            GenerateError::WorkDir(_) | GenerateError::Write { .. } => ExitCode::Environment,
            GenerateError::Locate(e) => e.exit_code(),
            GenerateError::Locations { .. } => ExitCode::Usage,
        }
    }
}

/// One location: a source file relative to the project's root and a line.
type Place = (PathBuf, u32);

/// Generates the sets of `wd` into `args.out`.
pub fn generate(wd: &WorkDir, args: &GenerateArgs) -> Result<Generated, GenerateError> {
    let state = wd.load()?;
    let places: Vec<Place> = match &args.locations {
        Some(file) => read_locations(file, &state)?,
        None => crate::locate::locate(wd, args.formula, false)?
            .suspects
            .into_iter()
            .map(|s| (s.file, s.line))
            .collect(),
    };
    let _ = std::fs::remove_dir_all(&args.out);
    std::fs::create_dir_all(&args.out).map_err(|source| GenerateError::Write {
        path: args.out.clone(),
        source,
    })?;
    let mut class_path = vec![wd.classes()];
    class_path.extend(state.project.classpath.iter().cloned());
    let classes = Classes::new(&class_path, &state.tools.java_home);
    let mut files: BTreeMap<PathBuf, Option<SourceFile>> = BTreeMap::new();
    let mut result = Generated::default();
    let mut budget = args.max_patches;
    let mut made = Vec::new();
    for (rank, (rel, line)) in places.iter().take(args.top).enumerate() {
        if budget == 0 {
            break;
        }
        let file = files.entry(rel.clone()).or_insert_with(|| {
            let text = std::fs::read_to_string(state.project.root.join(rel)).ok()?;
            parse_source(&rel.to_string_lossy(), text, false)
        });
        let Some(file) = file.as_ref() else {
            result.skipped.push(format!(
                "{}:{line}: the file cannot be read or parsed",
                rel.display()
            ));
            continue;
        };
        let place = format!("{}:{line}", rel.display());
        let limit = args.per_location.min(budget);
        match at_line(file, *line, limit, &classes, &mut result) {
            None => result.skipped.push(format!(
                "{place}: no statement inside a method starts on this line"
            )),
            Some((_, cands)) if cands.is_empty() => {
                result.skipped.push(format!("{place}: no pattern applies"))
            }
            Some((range, cands)) => {
                budget -= cands.len();
                let set = PatchSet {
                    manifest_version: 3,
                    interface: "local".into(),
                    bug: format!("gen-{:03}-{}-L{line}", rank + 1, stem(rel)),
                    filename: file.rel.clone(),
                    context_above: file.text[..range.start].to_string(),
                    unpatched: file.text[range.clone()].to_string(),
                    context_below: file.text[range.end..].to_string(),
                    patches: cands.iter().map(|c| c.text.clone()).collect(),
                    ..PatchSet::default()
                };
                let path = args.out.join(format!("{}.json", set.bug));
                let json = serde_json::to_string_pretty(&set).expect("a patch set serialises");
                std::fs::write(&path, json).map_err(|source| GenerateError::Write {
                    path: path.clone(),
                    source,
                })?;
                let mut families = BTreeMap::new();
                for c in &cands {
                    *families.entry(c.family).or_insert(0) += 1;
                }
                result.sets.push(GeneratedSet {
                    path,
                    place,
                    rank: rank + 1,
                    patches: cands.len(),
                    families,
                });
                made.push(pairs::Made {
                    rank: rank + 1,
                    filename: file.rel.clone(),
                    line: *line,
                    unpatched: file.text[range.clone()].to_string(),
                    range,
                    cands,
                });
            }
        }
    }
    if args.order >= 2 {
        if let Some((list, n)) = pairs::edit_list(&made, args.max_pairs) {
            let path = args.out.join("gen-pairs.json");
            let json = serde_json::to_string_pretty(&list).expect("an edit list serialises");
            std::fs::write(&path, json).map_err(|source| GenerateError::Write {
                path: path.clone(),
                source,
            })?;
            result.sets.push(GeneratedSet {
                path,
                place: format!("pairs of the top {} locations", made.len()),
                rank: 0,
                patches: n,
                families: BTreeMap::from([("pair", n)]),
            });
        }
    }
    Ok(result)
}

/// The outermost patchable statement that starts on `line` and up to `limit` candidates there,
/// each checked to parse in the patched file.
fn at_line(
    file: &SourceFile,
    line: u32,
    limit: usize,
    classes: &Classes,
    dropped: &mut Generated,
) -> Option<(std::ops::Range<usize>, Vec<patterns::Candidate>)> {
    let exceptions = exceptions(std::slice::from_ref(file));
    let (range, mut spot) = spot_at(file, line, &exceptions)?;
    let typer = types::Typer::new(classes, &file.text, file.tree.root_node(), spot.stmt);
    patterns::inherit(&mut spot, &typer);
    let mut out = Vec::new();
    for c in patterns::candidates(&spot, &typer) {
        if out.len() == limit {
            break;
        }
        let patched = format!(
            "{}{}{}",
            &file.text[..range.start],
            c.text,
            &file.text[range.end..]
        );
        let Some(parsed) = parse_source(&file.rel, patched, false) else {
            dropped.unparsable += 1;
            continue;
        };
        let at = range.start..range.start + c.text.len();
        let root = parsed.tree.root_node();
        match check::refused(&typer, &spot, &parsed.text, root, at) {
            None => out.push(c),
            Some(why) => {
                tracing::debug!("generate: {}:{line}: dropped `{}`: {why}", file.rel, c.text);
                dropped.refused += 1;
                *dropped.refused_why.entry(reason_kind(&why)).or_default() += 1;
            }
        }
    }
    Some((range, out))
}

/// The outermost patchable statement starting on `line` of `file`, and what patterns know there.
fn spot_at<'f>(
    file: &'f SourceFile,
    line: u32,
    exceptions: &'f [crate::fuzz::spot::ExceptionClass],
) -> Option<(std::ops::Range<usize>, Spot<'f>)> {
    let range = candidates(std::slice::from_ref(file))
        .into_iter()
        .filter(|c| line_of(&file.text, c.range.start) == line as usize)
        .min_by_key(|c| (c.range.start, std::cmp::Reverse(c.range.end)))?
        .range;
    let spot = crate::fuzz::locate::spot(file, &range, exceptions)?;
    Some((range, spot))
}

/// A refusal's kind, for the counts (its text without the names and types in backquotes).
fn reason_kind(why: &str) -> String {
    why.split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { "_" } else { part })
        .collect()
}

fn stem(rel: &Path) -> String {
    rel.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A `Class@line` file (TBar's form of GZoltar's ranking: one location per line, an optional
/// `@score` or `,score` after it, `#` comments and blank lines skipped), in its order, each class
/// found among the project's source files (an inner class in its top-level class's file).
fn read_locations(path: &Path, state: &State) -> Result<Vec<Place>, GenerateError> {
    let bad = |why: String| GenerateError::Locations {
        path: path.to_path_buf(),
        why,
    };
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let entry = raw.split(',').next().unwrap_or("").trim();
        if entry.is_empty() || entry.starts_with('#') {
            continue;
        }
        let mut parts = entry.split('@');
        let (Some(class), Some(line)) = (parts.next(), parts.next()) else {
            return Err(bad(format!("line {}: `{raw}` is not `Class@line`", n + 1)));
        };
        let line: u32 = line
            .trim()
            .parse()
            .map_err(|_| bad(format!("line {}: `{line}` is not a line number", n + 1)))?;
        let outer = class.trim().split('$').next().unwrap_or(class);
        let rel = format!("{}.java", outer.replace('.', "/"));
        let file = state
            .project
            .source_dirs
            .iter()
            .map(|d| d.join(&rel))
            .find(|p| p.is_file())
            .ok_or_else(|| {
                bad(format!(
                    "line {}: no source file {rel} for class {class} in the project's source directories",
                    n + 1
                ))
            })?;
        let rel = file
            .strip_prefix(&state.project.root)
            .map(Path::to_path_buf)
            .unwrap_or(file);
        out.push((rel, line));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"package p;
class A {
    int f(String s, int n) {
        n = s.length() + n;
        return n;
    }
    A(int n) {
        this(n, 0);
    }
    A(int n, int m) {}
}
"#;

    fn jdk() -> Classes {
        Classes::new(&[], &crate::toolchain::find_jdk().expect("a JDK"))
    }

    fn at(line: u32) -> Vec<patterns::Candidate> {
        let file = parse_source("p/A.java", SRC.to_string(), false).expect("parses");
        let mut g = Generated::default();
        let (_, cands) = at_line(&file, line, usize::MAX, &jdk(), &mut g).expect("a statement");
        assert_eq!(g.unparsable, 0);
        cands
    }

    #[test]
    fn throws_are_inserted_before_the_statement_under_a_null_check_or_a_guard() {
        let cands = at(4);
        let throws: Vec<&str> = cands
            .iter()
            .filter(|c| c.family == "insert" && c.text.contains("throw new"))
            .map(|c| c.text.as_str())
            .collect();
        assert!(
            throws.contains(
                &"if (s == null) { throw new NullPointerException(); } n = s.length() + n;"
            ),
            "{throws:?}"
        );
        assert!(
            throws.contains(
                &"if (n > 0) { throw new IllegalArgumentException(); } n = s.length() + n;"
            ),
            "{throws:?}"
        );
        assert!(throws.len() <= 6, "{throws:?}");
    }

    #[test]
    fn no_throw_goes_before_an_explicit_constructor_call() {
        let file = parse_source("p/A.java", SRC.to_string(), false).expect("parses");
        let mut g = Generated::default();
        if let Some((_, cands)) = at_line(&file, 8, usize::MAX, &jdk(), &mut g) {
            assert!(cands.iter().all(|c| !c.text.contains("throw")), "{cands:?}");
        }
    }
}

#[cfg(test)]
mod compiled_tests {
    use super::*;

    /// `Base` and `A extends Base` compiled by javac into a temporary directory.
    fn compiled() -> (tempfile::TempDir, Classes, SourceFile) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("src/q");
        std::fs::create_dir_all(&dir).unwrap();
        let base = "package q;\npublic class Base {\n    protected int limit;\n    private int hidden;\n    protected int size() { return 1; }\n    protected int other() { return 2; }\n    public int risky() throws java.io.IOException { return 3; }\n}\n";
        let a = "package q;\nclass A extends Base {\n    int count;\n    int f(int n) {\n        count = size() + n;\n        return count;\n    }\n}\n";
        std::fs::write(dir.join("Base.java"), base).unwrap();
        std::fs::write(dir.join("A.java"), a).unwrap();
        let out = tmp.path().join("classes");
        let jdk = crate::toolchain::find_jdk().expect("a JDK");
        let status = std::process::Command::new(jdk.join("bin/javac"))
            .arg("-d")
            .arg(&out)
            .arg(dir.join("Base.java"))
            .arg(dir.join("A.java"))
            .status()
            .unwrap();
        assert!(status.success());
        let classes = Classes::new(&[out], &jdk);
        let file = parse_source("src/q/A.java", a.to_string(), false).unwrap();
        (tmp, classes, file)
    }

    #[test]
    fn inherited_fields_and_methods_come_from_the_compiled_superclass() {
        let (_tmp, classes, file) = compiled();
        let mut g = Generated::default();
        let (_, cands) = at_line(&file, 5, usize::MAX, &classes, &mut g).expect("a statement");
        let texts: Vec<&str> = cands.iter().map(|c| c.text.as_str()).collect();
        assert!(
            texts.contains(&"count = other() + n;"),
            "an inherited method of the same signature: {texts:?}"
        );
        assert!(
            !texts.contains(&"count = risky() + n;"),
            "it throws a checked exception: {texts:?}"
        );
        assert!(
            texts.contains(&"count = size() + limit;"),
            "an inherited field of the same type: {texts:?}"
        );
        assert!(
            !texts.iter().any(|t| t.contains("hidden")),
            "a private field is not visible: {texts:?}"
        );
    }

    #[test]
    fn a_receiver_s_methods_come_from_its_compiled_class() {
        let jdk = crate::toolchain::find_jdk().expect("a JDK");
        let classes = Classes::new(&[], &jdk);
        let src = "package p;\nclass B {\n    String name;\n    void f(String s) {\n        name = s.trim();\n    }\n}\n";
        let file = parse_source("p/B.java", src.to_string(), false).unwrap();
        let mut g = Generated::default();
        let (_, cands) = at_line(&file, 5, usize::MAX, &classes, &mut g).expect("a statement");
        let calls: Vec<&str> = cands
            .iter()
            .filter(|c| c.family == "invocation")
            .map(|c| c.text.as_str())
            .collect();
        assert!(calls.contains(&"name = s.strip();"), "{calls:?}");
        assert!(calls.contains(&"name = s.toUpperCase();"), "{calls:?}");
        assert!(calls.len() <= 6, "{calls:?}");
    }
}
