//! Patches made of several edits (hunks, files): merging each patch's edits per file, and
//! grouping patches into sets by the location they touch, so that patches at one location share
//! one weave and one compile while their edits to other files go with them.

use super::line_of;
use crate::model::{FileEdit, PatchSet};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Why a patch cannot go into a set.
#[derive(Debug, Clone, thiserror::Error)]
pub enum GroupError {
    /// A file the patch edits could not be read (what [`group`]'s `read` gives; shared by every
    /// patch that edits it).
    #[error("{path}: {source}")]
    Read {
        path: PathBuf,
        source: Arc<std::io::Error>,
    },
    #[error("the patch only creates files: it changes no file of the project")]
    OnlyCreates,
    #[error("the patch has no edit")]
    NoEdit,
    /// A file's edits to merge are none.
    #[error("no edit")]
    NothingToMerge,
    #[error("{filename}: two edits overlap at byte {at} (line {line})")]
    Overlap {
        filename: String,
        at: usize,
        line: usize,
    },
    #[error("{filename}: line {line}: the file does not read what the edit replaces")]
    NotInFile { filename: String, line: usize },
}

/// A patch as a repair tool writes it: a name and its edits, each located on its file's text
/// (edits to one file do not overlap).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditPatch {
    pub name: String,
    pub edits: Vec<FileEdit>,
}

/// A patch's edits to one file merged into one: from its first edit's start to its last edit's
/// end, with the text in between as the patch leaves it.
fn merge(text: &str, mut edits: Vec<&FileEdit>) -> Result<FileEdit, GroupError> {
    edits.sort_by_key(|e| e.start);
    let first = edits.first().ok_or(GroupError::NothingToMerge)?;
    let (filename, start) = (first.filename.clone(), first.start);
    let mut end = start;
    let mut patched = String::new();
    for e in &edits {
        if e.start < end {
            return Err(GroupError::Overlap {
                filename,
                at: e.start,
                line: line_of(text, e.start),
            });
        }
        if text.get(e.range()) != Some(e.unpatched.as_str()) {
            return Err(GroupError::NotInFile {
                filename,
                line: line_of(text, e.start),
            });
        }
        patched.push_str(&text[end..e.start]);
        patched.push_str(&e.patched);
        end = e.range().end;
    }
    Ok(tidy(
        text,
        FileEdit {
            filename,
            start,
            unpatched: text[start..end].to_string(),
            patched,
        },
    ))
}

/// Makes an edit a location the weaver can take, with the same patched program up to
/// whitespace: an insertion (nothing replaced) takes in the nearest line of code after it that
/// does not close a block (else the one before it), and whitespace at both ends of the replaced
/// text and of the patch is left where it is in the file.
fn tidy(text: &str, e: FileEdit) -> FileEdit {
    let mut e = same_lines_left(e);
    if e.unpatched.is_empty() {
        let at = e.start;
        let next = text[at..]
            .split_inclusive('\n')
            .scan(at, |pos, line| {
                let start = *pos;
                *pos += line.len();
                Some((start, *pos, line.trim()))
            })
            .find(|(_, _, l)| !l.is_empty());
        match next {
            Some((_, end, l)) if !l.starts_with('}') && !l.starts_with(')') => {
                e.unpatched = text[at..end].to_string();
                e.patched.push_str(&e.unpatched);
            }
            _ => {
                let before = text[..at].trim_end();
                let start = before.rfind('\n').map(|k| k + 1).unwrap_or(0);
                if start < at && !before[start..].trim().is_empty() {
                    e.unpatched = text[start..at].to_string();
                    e.patched = format!("{}{}", e.unpatched, e.patched);
                    e.start = start;
                }
            }
        }
    }
    let (lu, tu) = (lead(&e.unpatched), trail(&e.unpatched));
    if lu == e.unpatched.len() {
        // Only whitespace is replaced: keep the edit as it is.
        return e;
    }
    let (ws1, ws2) = (&e.unpatched[..lu], &e.unpatched[e.unpatched.len() - tu..]);
    e.patched = narrow_patch(ws1, ws2, &e.patched).0;
    e.start += lu;
    e.unpatched = e.unpatched[lu..e.unpatched.len() - tu].to_string();
    e
}

/// The edit without the lines at its start and end that the patch changes only in whitespace
/// within them (a method re-indented as a repairer writes it back, its closing brace included):
/// they stay as the file has them, so the patched program is the patch's but for spaces within
/// those lines: the same tokens on the same lines, the same class files. Not where a text block
/// (`"""`, whose lines' spaces are its value) may be; at least one line is kept on each side.
fn same_lines_left(mut e: FileEdit) -> FileEdit {
    if e.unpatched.is_empty()
        || e.patched.is_empty()
        || e.unpatched.contains("\"\"\"")
        || e.patched.contains("\"\"\"")
    {
        return e;
    }
    let (old, new): (Vec<&str>, Vec<&str>) = (
        e.unpatched.split_inclusive('\n').collect(),
        e.patched.split_inclusive('\n').collect(),
    );
    let same = |a: &str, b: &str| {
        a.ends_with('\n') == b.ends_with('\n') && a.split_whitespace().eq(b.split_whitespace())
    };
    let most = old.len().min(new.len()) - 1;
    let front = old
        .iter()
        .zip(&new)
        .take(most)
        .take_while(|(a, b)| same(a, b))
        .count();
    let back = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(most - front)
        .take_while(|(a, b)| same(a, b))
        .count();
    if front == 0 && back == 0 {
        return e;
    }
    let bytes = |lines: &[&str]| lines.iter().map(|l| l.len()).sum::<usize>();
    let (skip, skip_new) = (bytes(&old[..front]), bytes(&new[..front]));
    let (tail, tail_new) = (
        bytes(&old[old.len() - back..]),
        bytes(&new[new.len() - back..]),
    );
    let old_mid = &e.unpatched[skip..e.unpatched.len() - tail];
    let new_mid = &e.patched[skip_new..e.patched.len() - tail_new];
    if old_mid.trim().is_empty() || new_mid.trim().is_empty() {
        // Lines only added or only removed: the code beside them stays the location, as before.
        return e;
    }
    let (old_mid, new_mid) = (old_mid.to_string(), new_mid.to_string());
    e.start += skip;
    e.unpatched = old_mid;
    e.patched = new_mid;
    e
}

/// Bytes of whitespace at the start of `s`.
pub(crate) fn lead(s: &str) -> usize {
    s.len() - s.trim_start().len()
}

/// Bytes of whitespace at the end of `s`.
pub(crate) fn trail(s: &str) -> usize {
    s.len() - s.trim_end().len()
}

/// A patch for a location narrowed to its code, whose whitespace `ws1` before and `ws2` after
/// now stay in the file: the same patched program, with the same lines, when the patch has that
/// whitespace at its ends (a converter that works line by line writes it so); otherwise the
/// patch's code with as many line breaks before and after it as it had beyond the file's, so
/// the lines after it keep their numbers. The flag is false when that cannot be (the patch
/// has fewer line breaks at an end than the file there, e.g. it deletes whole lines: a blank
/// line stays, and the lines after the location move down by that many).
pub(crate) fn narrow_patch(ws1: &str, ws2: &str, patch: &str) -> (String, bool) {
    if patch.len() >= ws1.len() + ws2.len() && patch.starts_with(ws1) && patch.ends_with(ws2) {
        let core = &patch[ws1.len()..patch.len() - ws2.len()];
        return (core.to_string(), true);
    }
    let breaks = |s: &str| s.matches('\n').count();
    let (lp, tp) = (lead(patch), trail(patch));
    let (before, after, core) = if lp == patch.len() {
        (breaks(patch), 0, "")
    } else {
        (
            breaks(&patch[..lp]),
            breaks(&patch[patch.len() - tp..]),
            &patch[lp..patch.len() - tp],
        )
    };
    let (b1, b2) = (breaks(ws1), breaks(ws2));
    let exact = if core.is_empty() {
        before >= b1 + b2
    } else {
        before >= b1 && after >= b2
    };
    let (pad_before, pad_after) = if core.is_empty() {
        (before.saturating_sub(b1 + b2), 0)
    } else {
        (before.saturating_sub(b1), after.saturating_sub(b2))
    };
    (
        format!(
            "{}{core}{}",
            "\n".repeat(pad_before),
            "\n".repeat(pad_after)
        ),
        exact,
    )
}

/// A patch with its edits merged per file: the first file's edit is its location, the others go
/// with it.
struct Merged {
    /// Its place among the patches given, which a set keeps.
    index: usize,
    name: String,
    /// One edit, to one file.
    simple: bool,
    main: FileEdit,
    others: Vec<FileEdit>,
}

/// Groups patches into sets: patches whose first file is the same and whose locations there
/// overlap share a set, whose location spans theirs. `read` gives a file's text by its path
/// relative to the project root ("" for a file a patch creates; `GroupError::Read` for one that
/// cannot be read). Returns the sets (named `bug`) and, for each patch that cannot be used, its
/// name and why.
pub fn group(
    bug: &str,
    patches: Vec<EditPatch>,
    read: &dyn Fn(&str) -> Result<String, GroupError>,
) -> (Vec<PatchSet>, Vec<(String, GroupError)>) {
    let mut texts: BTreeMap<String, Result<String, GroupError>> = BTreeMap::new();
    let mut text_of = |f: &str| -> Result<String, GroupError> {
        texts
            .entry(f.to_string())
            .or_insert_with(|| read(f))
            .clone()
    };
    let mut failed = Vec::new();
    let mut by_file: BTreeMap<String, Vec<Merged>> = BTreeMap::new();
    for (index, p) in patches.into_iter().enumerate() {
        let mut files: Vec<&str> = Vec::new();
        for e in &p.edits {
            if !files.contains(&e.filename.as_str()) {
                files.push(&e.filename);
            }
        }
        if let Some(why) = files.iter().find_map(|f| text_of(f).err()) {
            failed.push((p.name, why));
            continue;
        }
        // The location is in the first file the patch changes that it does not create.
        files.sort_by_key(|f| text_of(f).map_or(true, |t| t.is_empty()));
        if files
            .first()
            .is_some_and(|f| text_of(f).map_or(true, |t| t.is_empty()))
        {
            failed.push((p.name, GroupError::OnlyCreates));
            continue;
        }
        let merged: Result<Vec<FileEdit>, GroupError> = files
            .iter()
            .map(|f| {
                let text = text_of(f)?;
                merge(&text, p.edits.iter().filter(|e| e.filename == *f).collect())
            })
            .collect();
        match merged {
            Ok(mut edits) if !edits.is_empty() => {
                let main = edits.remove(0);
                let simple = edits.is_empty() && p.edits.len() == 1;
                by_file
                    .entry(main.filename.clone())
                    .or_default()
                    .push(Merged {
                        index,
                        simple,
                        name: p.name,
                        main,
                        others: edits,
                    });
            }
            Ok(_) => failed.push((p.name, GroupError::NoEdit)),
            Err(why) => failed.push((p.name, why)),
        }
    }
    let mut sets = Vec::new();
    for (file, patches) in by_file {
        let text = text_of(&file).unwrap_or_default();
        // A patch of one edit shapes the sets; one of several edits (whose location spans
        // them all, often whole methods) joins a set whose location holds it, and otherwise
        // the sets of its kind, so that it does not widen the others' location.
        let (simple, compound): (Vec<Merged>, Vec<Merged>) =
            patches.into_iter().partition(|m| m.simple);
        let mut groups = components(simple);
        let mut left = Vec::new();
        for m in compound {
            let (start, end) = span(std::slice::from_ref(&m));
            match groups.iter_mut().find(|g| {
                let (s, e) = span(g);
                s <= start && end <= e
            }) {
                Some(g) => g.push(m),
                None => left.push(m),
            }
        }
        groups.extend(components(left));
        groups.sort_by_key(|g| span(g));
        sets.extend(groups.into_iter().map(|g| set_of(bug, &file, &text, g)));
    }
    (sets, failed)
}

/// The byte range the locations of `group` span.
fn span(group: &[Merged]) -> (usize, usize) {
    let start = group.iter().map(|m| m.main.start).min().unwrap_or(0);
    let end = group
        .iter()
        .map(|m| m.main.range().end)
        .max()
        .unwrap_or(start);
    (start, end)
}

/// Patches in groups whose locations overlap (empty locations at one place count as
/// overlapping).
fn components(mut patches: Vec<Merged>) -> Vec<Vec<Merged>> {
    patches.sort_by_key(|m| (m.main.start, m.main.range().end));
    let mut out: Vec<Vec<Merged>> = Vec::new();
    let mut group_end = 0;
    for m in patches {
        let (start, end) = (m.main.start, m.main.range().end);
        let joins = out
            .last()
            .is_some_and(|g| start < group_end || (start == group_end && span(g).0 == group_end));
        if joins {
            group_end = group_end.max(end);
            out.last_mut().expect("joins a group").push(m);
        } else {
            group_end = end;
            out.push(vec![m]);
        }
    }
    out
}

/// One set for patches whose locations in `text` overlap: the location spans them all.
fn set_of(bug: &str, file: &str, text: &str, mut group: Vec<Merged>) -> PatchSet {
    group.sort_by_key(|m| m.index);
    let (start, end) = span(&group);
    let mut set = PatchSet {
        manifest_version: 3,
        interface: "patchval-edits".into(),
        bug: bug.to_string(),
        filename: file.to_string(),
        context_above: text[..start].to_string(),
        unpatched: text[start..end].to_string(),
        context_below: text[end..].to_string(),
        ..PatchSet::default()
    };
    let any_others = group.iter().any(|m| !m.others.is_empty());
    for m in group {
        let e = &m.main;
        set.patches.push(format!(
            "{}{}{}",
            &text[start..e.start],
            e.patched,
            &text[e.range().end..end]
        ));
        set.names.push(m.name);
        if any_others {
            set.other_files.push(m.others);
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "class A {\n  int f(int x) {\n    int y = x + 1;\n    return y;\n  }\n}\n";
    const B: &str = "class B {\n  static int g() { return 2; }\n}\n";

    fn edit(file: &str, text: &str, unpatched: &str, patched: &str) -> FileEdit {
        FileEdit {
            filename: file.into(),
            start: text.find(unpatched).unwrap(),
            unpatched: unpatched.into(),
            patched: patched.into(),
        }
    }

    fn read(f: &str) -> Result<String, GroupError> {
        match f {
            "A.java" => Ok(A.into()),
            "B.java" => Ok(B.into()),
            _ => Err(GroupError::Read {
                path: f.into(),
                source: Arc::new(std::io::ErrorKind::NotFound.into()),
            }),
        }
    }

    #[test]
    fn overlapping_locations_share_a_set_that_spans_them() {
        let p = |name: &str, edits| EditPatch {
            name: name.into(),
            edits,
        };
        let (sets, failed) = group(
            "b",
            vec![
                p("p1", vec![edit("A.java", A, "x + 1", "x - 1")]),
                p(
                    "p2",
                    vec![edit(
                        "A.java",
                        A,
                        "    int y = x + 1;\n",
                        "    int y = x;\n",
                    )],
                ),
                p("p3", vec![edit("A.java", A, "return y;", "return -y;")]),
                p(
                    "p4",
                    vec![
                        edit("A.java", A, "return y;", "return y + B.g();"),
                        edit("B.java", B, "return 2;", "return 3;"),
                    ],
                ),
            ],
            &read,
        );
        assert!(failed.is_empty(), "{failed:?}");
        assert_eq!(sets.len(), 2);
        // p2's whole line is trimmed to its statement, which contains p1's expression.
        assert_eq!(sets[0].unpatched, "int y = x + 1;");
        assert_eq!(sets[0].patches, ["int y = x - 1;", "int y = x;"]);
        assert_eq!(sets[0].names, ["p1", "p2"]);
        assert!(sets[0].other_files.is_empty());
        assert_eq!(sets[1].unpatched, "return y;");
        assert_eq!(sets[1].names, ["p3", "p4"]);
        assert_eq!(sets[1].other_edits(0), &[]);
        assert_eq!(sets[1].other_edits(1)[0].patched, "return 3;");
        for s in &sets {
            assert_eq!(s.original_text(), A);
        }
    }

    #[test]
    fn several_hunks_in_one_file_make_one_location_and_insertions_take_a_line() {
        let insert_at = A.find("    return y;").unwrap();
        let (sets, failed) = group(
            "b",
            vec![
                EditPatch {
                    name: "two-hunks".into(),
                    edits: vec![
                        edit("A.java", A, "x + 1", "x + 2"),
                        edit("A.java", A, "return y;", "return y * 2;"),
                    ],
                },
                EditPatch {
                    name: "insert".into(),
                    edits: vec![FileEdit {
                        filename: "A.java".into(),
                        start: insert_at,
                        unpatched: String::new(),
                        patched: "    if (y < 0) return 0;\n".into(),
                    }],
                },
                EditPatch {
                    name: "missing".into(),
                    edits: vec![edit("A.java", A, "x + 1", "x").clone().with_file("C.java")],
                },
            ],
            &read,
        );
        assert_eq!(failed.len(), 1);
        assert!(failed[0].1.to_string().contains("C.java"), "{failed:?}");
        // The two-hunk patch does not widen the insertion's location: a set each.
        assert_eq!(sets.len(), 2, "{sets:#?}");
        assert_eq!(sets[0].unpatched, "x + 1;\n    return y;");
        assert_eq!(sets[0].names, ["two-hunks"]);
        assert_eq!(sets[0].patches[0], "x + 2;\n    return y * 2;");
        assert_eq!(sets[1].unpatched, "return y;");
        assert_eq!(sets[1].patches[0], "if (y < 0) return 0;\n    return y;");
    }

    #[test]
    fn lines_changed_only_in_their_spaces_stay_as_the_file_has_them() {
        // A method body re-indented with one line changed: the location is that line.
        let body = "    int y = x + 1;\n    return y;\n  }\n";
        let start = A.find(body).unwrap();
        let e = |patched: &str| FileEdit {
            filename: "A.java".into(),
            start,
            unpatched: body.into(),
            patched: patched.into(),
        };
        let t = tidy(A, e("      int y = x + 2;\n      return y;\n    }\n"));
        assert_eq!(
            (t.unpatched.as_str(), t.patched.trim()),
            ("int y = x + 1;", "int y = x + 2;")
        );
        assert_eq!(t.start, A.find("int y").unwrap());
        // Spaces between tokens added or removed are a change; so is a line broken in two.
        let t = tidy(A, e("    int y = x+1;\n    return y;\n  }\n"));
        assert_eq!(t.unpatched, "int y = x + 1;");
        let t = tidy(A, e("    int y = x + 1;\n    return\n y;\n  }\n"));
        assert_eq!(t.unpatched, "return y;");
        // A line added beside unchanged ones: the next line is its location.
        let t = tidy(
            A,
            e("      int y = x + 1;\n      y++;\n    return y;\n  }\n"),
        );
        assert_eq!(
            (t.unpatched.as_str(), t.patched.trim()),
            ("return y;", "y++;\n    return y;")
        );
        // Only whitespace left on a side: the edit stays as it was.
        let blank = "    int y = x + 1;\n\n";
        let t = tidy(
            A,
            FileEdit {
                filename: "A.java".into(),
                start: 0,
                unpatched: blank.into(),
                patched: "      int y = x + 1;\n      y++;\n".into(),
            },
        );
        assert_eq!(
            (t.unpatched.as_str(), t.patched.trim()),
            ("int y = x + 1;", "int y = x + 1;\n      y++;")
        );
        // A text block's lines are its value: left whole.
        let t = tidy(
            A,
            e("    int y = x + 1;\n    return \"\"\"\n y\"\"\".length();\n  }\n"),
        );
        assert_eq!(t.unpatched, body.trim());
    }

    impl FileEdit {
        fn with_file(mut self, f: &str) -> FileEdit {
            self.filename = f.into();
            self
        }
    }
}
