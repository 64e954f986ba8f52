//! Reading ExpressAPR manifest-v3 patch sets and checking them against the file on disk; the
//! readers of the other patch formats in the modules below.

pub mod diff;
pub mod editlist;
pub mod edits;
pub mod inputs;
pub mod llm_records;
pub mod method_diff;
pub mod probe;
pub mod recoder;
pub mod recoder_tree;
pub mod search_replace;
pub mod tbar;
pub mod unified;
pub mod whole_method;

use crate::model::PatchSet;
use std::path::{Path, PathBuf};

/// A patch that could not be read into edits, reported as an `E` of its own.
#[derive(Debug)]
pub struct Unreadable {
    /// The input file (with `:LINE` for a JSON-lines entry, `[K]` for a record).
    pub source: String,
    pub why: ReadError,
}

/// Why a patch (or a whole input file) could not be read into edits; shown as the `E`'s detail.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read: {0}")]
    Io(#[source] std::io::Error),
    #[error(
        "not a text file (bytes that are not UTF-8 at byte {}): a patch file is text",
        .0.valid_up_to()
    )]
    NotText(#[source] std::str::Utf8Error),
    #[error("the file is empty")]
    Empty,
    #[error("invalid JSON: {0}")]
    Json(#[source] serde_json::Error),
    /// A JSON-lines entry that is an object without a diff.
    #[error("no string field `diff`")]
    NoDiff,
    /// A JSON-lines entry that is neither a diff nor an object holding one.
    #[error("expected a string or an object")]
    NotAnEntry,
    #[error(transparent)]
    Diff(#[from] diff::DiffReadError),
    #[error(transparent)]
    Tbar(#[from] tbar::BlockError),
    #[error(transparent)]
    Record(#[from] recoder::RecordError),
    #[error(transparent)]
    EditList(#[from] editlist::EditListError),
    #[error(transparent)]
    LlmRecord(#[from] llm_records::LlmRecordError),
    #[error(transparent)]
    SearchReplace(#[from] search_replace::BlockError),
    #[error(transparent)]
    Group(#[from] edits::GroupError),
    /// A reader panicked (with the panic's message).
    #[error("internal error reading it (a bug of patchval's): {0}")]
    ReadPanic(String),
    /// Grouping the patches into sets panicked (with the panic's message).
    #[error("internal error grouping the patches into sets (a bug of patchval's): {0}")]
    GroupPanic(String),
}

/// A name a repair tool gives a file that the project does not have (`inputs::Files::resolve`).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{name}: no such file in the project (looked below {root} and its source directories)")]
pub struct NotInProject {
    pub name: String,
    /// The project root.
    pub root: PathBuf,
}

/// A project of one file, for the readers' tests: `text` at `path`, named by any name that ends
/// in its file name; any other name is not in the project.
#[cfg(test)]
pub(crate) fn one_file(
    path: &str,
    text: &str,
    name: &str,
) -> Result<(String, String), NotInProject> {
    let file = path.rsplit('/').next().unwrap_or(path);
    if name.ends_with(file) {
        Ok((path.to_string(), text.to_string()))
    } else {
        Err(NotInProject {
            name: name.to_string(),
            root: ".".into(),
        })
    }
}

/// Why a name cannot be a source file of the project ([`filename_problem`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilenameProblem {
    #[error("empty")]
    Empty,
    #[error("`{0}` is not a relative path below the project root (no `..`, not absolute)")]
    OutsideProject(String),
    #[error("`{0}` is not a .java file")]
    NotJava(String),
}

/// A file's name without its extension.
pub(crate) fn stem(file: &Path) -> String {
    file.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "patches".into())
}

/// Finds the project file a repair tool's name for it means: its path below the project root
/// and its text, or why there is none (`inputs::Files::resolve`).
pub type Resolve<'a> = &'a dyn Fn(&str) -> Result<(String, String), NotInProject>;

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
    #[error("{path}: invalid patch set at field `{field}`: {problem}")]
    Filename {
        path: PathBuf,
        field: String,
        #[source]
        problem: FilenameProblem,
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
    if let Some(problem) = filename_problem(&set.filename) {
        return Err(PatchSetError::Filename {
            path: path.to_path_buf(),
            field: "filename".into(),
            problem,
        });
    }
    let invalid = |field: String, message: String| PatchSetError::Invalid {
        path: path.to_path_buf(),
        field,
        message,
    };
    for (field, n) in [
        ("names", set.names.len()),
        ("other_files", set.other_files.len()),
    ] {
        if n != 0 && n != set.patches.len() {
            return Err(invalid(
                field.into(),
                format!("{n} entries for {} patches", set.patches.len()),
            ));
        }
    }
    for (i, edits) in set.other_files.iter().enumerate() {
        for (j, e) in edits.iter().enumerate() {
            if let Some(problem) = filename_problem(&e.filename) {
                return Err(PatchSetError::Filename {
                    path: path.to_path_buf(),
                    field: format!("other_files[{i}][{j}].filename"),
                    problem,
                });
            }
        }
    }
    Ok(set)
}

/// Why `filename` cannot name a source file of the project: it must be a relative path below
/// the project root (the patched file is written at that path inside a worker's copy of the
/// project, so `..` or an absolute path would write outside it).
pub(crate) fn filename_problem(filename: &str) -> Option<FilenameProblem> {
    use std::path::Component;
    let p = Path::new(filename);
    if filename.is_empty() {
        return Some(FilenameProblem::Empty);
    }
    if !p
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Some(FilenameProblem::OutsideProject(filename.to_string()));
    }
    if p.extension().and_then(|e| e.to_str()) != Some("java") {
        return Some(FilenameProblem::NotJava(filename.to_string()));
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

/// How many patches a file lists, even when it is not a valid manifest (1 when unknown: the
/// file is then one `E` of its own).
pub fn patch_count(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v.get("patches").and_then(|p| p.as_array()).map(Vec::len))
        .unwrap_or(1)
}

/// Checks that the patch set was made against `actual` (the file on disk), tolerating what
/// cannot matter to javac or a test: line endings (CRLF in one, LF in the other) and whitespace
/// at the very end of the file (a missing final newline, as Recoder's manifests for ExpressAPR's
/// demo have). Then the unpatched text is located on the file itself and the set's contexts
/// become the file's, and the returned note says what differed.
pub fn check_context(
    path: &Path,
    set: &mut PatchSet,
    actual: &str,
) -> Result<Option<String>, PatchSetError> {
    let expected = set.original_text();
    if expected == actual {
        return Ok(None);
    }
    if let Some(note) = refit(set, actual) {
        return Ok(Some(note));
    }
    let at = expected
        .bytes()
        .zip(actual.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(actual.len()));
    let line = line_of(actual, at);
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

/// Narrows a set's location to the code it holds when its unpatched text starts or ends with
/// whitespace (a converter working line by line writes whole lines, indentation and line end
/// included): that whitespace moves into the contexts and each patch loses it (`edits::
/// narrow_patch`), so the location is a statement the weaver can take. Returns what changed.
pub fn narrow_location(set: &mut PatchSet) -> Option<String> {
    let (lu, tu) = (edits::lead(&set.unpatched), edits::trail(&set.unpatched));
    if (lu == 0 && tu == 0) || lu == set.unpatched.len() {
        return None;
    }
    let end = set.unpatched.len() - tu;
    let (ws1, ws2) = (
        set.unpatched[..lu].to_string(),
        set.unpatched[end..].to_string(),
    );
    let mut moved = Vec::new();
    for (i, p) in set.patches.iter_mut().enumerate() {
        let (narrowed, exact) = edits::narrow_patch(&ws1, &ws2, p);
        if !exact {
            moved.push(i);
        }
        *p = narrowed;
    }
    set.context_above.push_str(&ws1);
    set.context_below.insert_str(0, &ws2);
    set.unpatched = set.unpatched[lu..end].to_string();
    let mut note =
        "location: the whitespace around the unpatched code stays in the file".to_string();
    if !moved.is_empty() {
        note.push_str(&format!(
            "; patch(es) {moved:?} have fewer line breaks around their code than the file there \
             (whole lines deleted): a blank line stays, and the lines below move by as many"
        ));
    }
    Some(note)
}

/// `text` with CRLF line ends as LF, and for each byte of the result the offset of the byte it
/// came from in `text` (plus the end).
fn lf_only(text: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut from = Vec::with_capacity(text.len() + 1);
    let bytes = text.as_bytes();
    for (i, ch) in text.char_indices() {
        if ch == '\r' && bytes.get(i + 1) == Some(&b'\n') {
            continue;
        }
        out.push(ch);
        from.extend(std::iter::repeat_n(i, ch.len_utf8()));
    }
    from.push(text.len());
    (out, from)
}

/// 1-based line of byte `at` of `text`.
pub fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// Re-fits `set` onto `actual` when the two differ only in line endings and whitespace at the
/// end of the file, and the unpatched text lies before that end; returns what differed.
fn refit(set: &mut PatchSet, actual: &str) -> Option<String> {
    let (expected, _) = lf_only(&set.original_text());
    let (file, from) = lf_only(actual);
    let body = expected.trim_end();
    if file.trim_end() != body {
        return None;
    }
    let (above, _) = lf_only(&set.context_above);
    let (unpatched, _) = lf_only(&set.unpatched);
    let (start, end) = (above.len(), above.len() + unpatched.len());
    // The unpatched text must be in the part both agree on (not in the end's whitespace).
    if end > body.len() {
        return None;
    }
    // A boundary falls after the byte before it, so a CRLF stays whole on the later side.
    let raw = |k: usize| if k == 0 { 0 } else { from[k - 1] + 1 };
    let (start, end) = (raw(start), raw(end));
    let mut what = Vec::new();
    if actual.contains("\r\n") != set.original_text().contains("\r\n") {
        what.push(if actual.contains("\r\n") {
            "the file has CRLF line ends, the manifest LF"
        } else {
            "the manifest has CRLF line ends, the file LF"
        });
    }
    if file[body.len()..] != expected[body.len()..] {
        what.push(
            if actual.ends_with('\n') && !set.context_below.ends_with('\n') {
                "the manifest lacks the file's final newline"
            } else {
                "whitespace at the end of the file differs"
            },
        );
    }
    if what.is_empty() {
        what.push("line ends differ");
    }
    set.context_above = actual[..start].to_string();
    set.unpatched = actual[start..end].to_string();
    set.context_below = actual[end..].to_string();
    Some(format!(
        "context: {}; the unpatched text was located on the file, whose text the patched files keep",
        what.join("; ")
    ))
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
        let mut s = parse(Path::new("a.json"), GOOD).unwrap();
        let same = check_context(
            Path::new("a.json"),
            &mut s,
            "class A { void f() { x = 1; } }",
        );
        assert_eq!(same.unwrap(), None);
        let e = check_context(
            Path::new("a.json"),
            &mut s,
            "class A { void g() { x = 1; } }",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("A.java") && e.contains("line 1"), "{e}");
        // A difference beyond line ends and the end's whitespace stays an error.
        let e = check_context(
            Path::new("a.json"),
            &mut s,
            "class A { void f() { x = 1; }}\n",
        );
        assert!(e.is_err());
    }

    #[test]
    fn line_ends_and_the_final_newline_are_tolerated_on_the_file_s_text() {
        let manifest = |above: &str, below: &str| {
            let mut s = parse(Path::new("a.json"), GOOD).unwrap();
            s.context_above = above.into();
            s.context_below = below.into();
            s
        };
        let cases = [
            // (above, below, file, what the note says)
            (
                "class A {\n  void f() { ",
                " }\n}",
                "class A {\n  void f() { x = 1; }\n}\n",
                "final newline",
            ),
            (
                "class A {\n  void f() { ",
                " }\n}\n",
                "class A {\r\n  void f() { x = 1; }\r\n}\r\n",
                "CRLF",
            ),
            (
                "class A {\r\n  void f() { ",
                " }\r\n}\r\n",
                "class A {\n  void f() { x = 1; }\n}",
                "CRLF",
            ),
            // The unpatched text ends right before a CRLF, which stays whole after it.
            (
                "class A {\n  void f() {\n    ",
                "\n  }\n}\n",
                "class A {\r\n  void f() {\r\n    x = 1;\r\n  }\r\n}\r\n",
                "CRLF",
            ),
            (
                "class A {\n  void f() { ",
                " }\n}\n",
                "class A {\n  void f() { x = 1; }\n}\n  \n",
                "whitespace",
            ),
        ];
        for (above, below, file, what) in cases {
            let mut s = manifest(above, below);
            let note = check_context(Path::new("a.json"), &mut s, file)
                .unwrap_or_else(|e| panic!("{file:?}: {e}"))
                .unwrap_or_else(|| panic!("{file:?}: no note"));
            assert!(note.contains(what), "{file:?}: {note}");
            assert_eq!(s.original_text(), file, "the contexts are the file's");
            assert_eq!(s.unpatched, "x = 1;");
            assert!(s.patched_text(0).contains("x = 2;"));
        }
    }
}
