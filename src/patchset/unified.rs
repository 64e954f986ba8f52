//! The unified diff format read line by line, as `git diff`, `diff -u` and repair tools write it:
//! with or without `diff --git` and `index` lines, several files, CRLF line ends, a missing final
//! newline, `\ No newline at end of file`, `/dev/null` for created and deleted files. Hunks are
//! read by their line counts, so a removed line that starts with `--` is never taken for a header.
//! Errors name the diff line at fault; no input makes it panic (see the property tests).

/// One file's part of a diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileDiff {
    /// The path before (`None`: `/dev/null`, the diff creates the file).
    pub old: Option<String>,
    /// The path after (`None`: `/dev/null`, the diff deletes the file).
    pub new: Option<String>,
    pub hunks: Vec<Hunk>,
    /// A binary change (`Binary files … differ`, `GIT binary patch`): it has no hunks to read.
    pub binary: bool,
    /// The diff line (1-based) where this file's part starts.
    pub line: usize,
}

/// One hunk: `@@ -old_start,old_count +new_start,new_count @@` and its lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    pub old_start: usize,
    pub old_count: usize,
    pub new_start: usize,
    pub new_count: usize,
    pub lines: Vec<Line>,
    /// The last old line has no newline (`\ No newline at end of file` after it).
    pub old_missing_newline: bool,
    /// The last new line has no newline.
    pub new_missing_newline: bool,
    /// The diff line (1-based) of the `@@` header.
    pub line: usize,
}

/// A line of a hunk, without its marker and line end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Context(String),
    Remove(String),
    Add(String),
}

/// Why a text is not a diff this reader can use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiffError {
    #[error("not a unified diff: no `--- PATH` / `+++ PATH` file header")]
    NoFile,
    #[error("diff line {line}: a hunk (`@@`) before any file header")]
    HunkWithoutFile { line: usize },
    #[error("diff line {line}: malformed hunk header `{text}` (expected `@@ -A,B +C,D @@`)")]
    BadHunkHeader { line: usize, text: String },
    #[error(
        "diff line {line}: the hunk of line {hunk} ends early: {old} old and {new} new line(s) \
         of its header's counts are missing (a truncated or hand-edited diff?)"
    )]
    ShortHunk {
        line: usize,
        hunk: usize,
        old: usize,
        new: usize,
    },
    #[error("diff line {line}: malformed file header `{text}`")]
    BadFileHeader { line: usize, text: String },
}

/// Reads a unified diff. Text before the first file header and between files (a commit message,
/// `Index:` lines) is skipped.
pub fn parse(text: &str) -> Result<Vec<FileDiff>, DiffError> {
    // Lines without their line ends; a CR before the LF goes too (a diff saved with CRLF).
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    // A final newline leaves an empty piece after it, which is no line.
    let count = if text.ends_with('\n') || text.is_empty() {
        lines.len().saturating_sub(1)
    } else {
        lines.len()
    };
    let lines = &lines[..count];
    let mut files: Vec<FileDiff> = Vec::new();
    // Whether the last file was opened by `diff --git` and still waits for its `---`/`+++`.
    let mut git_open = false;
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if let Some(rest) = l.strip_prefix("diff --git ") {
            let (old, new) = git_paths(rest);
            files.push(FileDiff {
                old,
                new,
                hunks: Vec::new(),
                binary: false,
                line: i + 1,
            });
            git_open = true;
            i += 1;
            continue;
        }
        if git_open {
            if let Some(f) = files.last_mut() {
                if let Some(p) = l.strip_prefix("rename from ") {
                    f.old = Some(unquote(p));
                } else if let Some(p) = l.strip_prefix("rename to ") {
                    f.new = Some(unquote(p));
                } else if l.starts_with("new file mode") {
                    f.old = None;
                } else if l.starts_with("deleted file mode") {
                    f.new = None;
                } else if l.starts_with("Binary files ") || l == "GIT binary patch" {
                    f.binary = true;
                }
            }
        }
        if l.starts_with("--- ")
            && lines
                .get(i + 1)
                .is_some_and(|next| next.starts_with("+++ "))
        {
            let old = header_path(&l[4..]).ok_or_else(|| DiffError::BadFileHeader {
                line: i + 1,
                text: l.to_string(),
            })?;
            let new = header_path(&lines[i + 1][4..]).ok_or_else(|| DiffError::BadFileHeader {
                line: i + 2,
                text: lines[i + 1].to_string(),
            })?;
            if git_open {
                if let Some(f) = files.last_mut() {
                    f.old = old;
                    f.new = new;
                }
            } else {
                files.push(FileDiff {
                    old,
                    new,
                    hunks: Vec::new(),
                    binary: false,
                    line: i + 1,
                });
            }
            git_open = false;
            i += 2;
            continue;
        }
        if l.starts_with("@@") {
            let Some(file) = files.last_mut() else {
                return Err(DiffError::HunkWithoutFile { line: i + 1 });
            };
            git_open = false;
            let (hunk, next) = read_hunk(lines, i)?;
            file.hunks.push(hunk);
            i = next;
            continue;
        }
        i += 1;
    }
    if files.is_empty() {
        return Err(DiffError::NoFile);
    }
    Ok(files)
}

/// Reads the hunk whose header is line `at`; returns it and the index of the line after it.
fn read_hunk(lines: &[&str], at: usize) -> Result<(Hunk, usize), DiffError> {
    let header = lines[at];
    let bad = || DiffError::BadHunkHeader {
        line: at + 1,
        text: header.chars().take(200).collect(),
    };
    let (old_start, old_count, new_start, new_count) = hunk_header(header).ok_or_else(bad)?;
    let mut hunk = Hunk {
        old_start,
        old_count,
        new_start,
        new_count,
        lines: Vec::new(),
        old_missing_newline: false,
        new_missing_newline: false,
        line: at + 1,
    };
    let (mut old, mut new) = (old_count, new_count);
    let mut i = at + 1;
    while old > 0 || new > 0 {
        let Some(&l) = lines.get(i) else {
            return Err(DiffError::ShortHunk {
                line: i,
                hunk: at + 1,
                old,
                new,
            });
        };
        let short = || DiffError::ShortHunk {
            line: i + 1,
            hunk: at + 1,
            old,
            new,
        };
        // An empty line is a context line whose space an editor or a mailer took away.
        let (marker, body) = match l.as_bytes().first() {
            None => (b' ', ""),
            // An ASCII marker is one byte: the body starts after it.
            Some(&m) if m.is_ascii() => (m, &l[1..]),
            Some(_) => return Err(short()),
        };
        match marker {
            b' ' if old > 0 && new > 0 => {
                hunk.lines.push(Line::Context(body.to_string()));
                old -= 1;
                new -= 1;
            }
            b'-' if old > 0 => {
                hunk.lines.push(Line::Remove(body.to_string()));
                old -= 1;
            }
            b'+' if new > 0 => {
                hunk.lines.push(Line::Add(body.to_string()));
                new -= 1;
            }
            b'\\' => mark_missing_newline(&mut hunk),
            _ => return Err(short()),
        }
        i += 1;
    }
    // The marker of the hunk's last line comes after the counts are done.
    while lines.get(i).is_some_and(|l| l.starts_with('\\')) {
        mark_missing_newline(&mut hunk);
        i += 1;
    }
    Ok((hunk, i))
}

/// `\ No newline at end of file` (in any language): the line before it ends its file.
fn mark_missing_newline(hunk: &mut Hunk) {
    match hunk.lines.last() {
        Some(Line::Context(_)) => {
            hunk.old_missing_newline = true;
            hunk.new_missing_newline = true;
        }
        Some(Line::Remove(_)) => hunk.old_missing_newline = true,
        Some(Line::Add(_)) => hunk.new_missing_newline = true,
        None => {}
    }
}

/// `@@ -A[,B] +C[,D] @@ …` as (A, B, C, D); a missing count is 1.
fn hunk_header(l: &str) -> Option<(usize, usize, usize, usize)> {
    let rest = l.strip_prefix("@@ -")?;
    let (ranges, _) = rest.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    let range = |r: &str| -> Option<(usize, usize)> {
        match r.split_once(',') {
            Some((s, c)) => Some((s.parse().ok()?, c.parse().ok()?)),
            None => Some((r.parse().ok()?, 1)),
        }
    };
    let (a, b) = range(old)?;
    let (c, d) = range(new)?;
    // Counts beyond any real file would only make the reader wait for lines that never come.
    (b <= 100_000_000 && d <= 100_000_000).then_some((a, b, c, d))
}

/// The path of a `---`/`+++` header (after the marker): a tab ends it (a timestamp follows in
/// `diff -u`); git quotes unusual names. `None` inside `Some`: `/dev/null`.
fn header_path(rest: &str) -> Option<Option<String>> {
    let path = match rest.split_once('\t') {
        Some((p, _)) => p,
        None => rest.trim_end(),
    };
    let path = unquote(path);
    if path.is_empty() {
        return None;
    }
    Some((path != "/dev/null").then_some(path))
}

/// The two paths of `diff --git a/X b/Y`: quoted, or split where ` b/` starts the second (a
/// name with ` b/` in it is rare; the `---`/`+++` lines, when present, decide anyway).
fn git_paths(rest: &str) -> (Option<String>, Option<String>) {
    if rest.starts_with('"') {
        let mut parts = quoted_parts(rest).into_iter();
        return (parts.next(), parts.next());
    }
    match rest.find(" b/") {
        Some(k) => (Some(rest[..k].to_string()), Some(rest[k + 1..].to_string())),
        None => match rest.split_once(' ') {
            Some((a, b)) => (Some(a.to_string()), Some(b.to_string())),
            None => (Some(rest.to_string()), Some(rest.to_string())),
        },
    }
}

/// The space-separated, possibly quoted, words of a `diff --git` line.
fn quoted_parts(rest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut s = rest.trim_start();
    while !s.is_empty() {
        if s.starts_with('"') {
            let end = closing_quote(s).unwrap_or(s.len());
            out.push(unquote(&s[..end]));
            s = s[end..].trim_start();
        } else {
            let end = s.find(' ').unwrap_or(s.len());
            out.push(s[..end].to_string());
            s = s[end..].trim_start();
        }
    }
    out
}

/// The byte just after the quote closing the string `s` starts (None: never closed).
fn closing_quote(s: &str) -> Option<usize> {
    let mut escaped = false;
    for (k, c) in s.char_indices().skip(1) {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return Some(k + 1),
            _ => escaped = false,
        }
    }
    None
}

/// A C-quoted name as git writes one (`"a/na\tme"`, octal escapes for bytes); other text as is.
fn unquote(s: &str) -> String {
    let s = s.trim();
    let Some(inner) = s.strip_prefix('"').and_then(|r| r.strip_suffix('"')) else {
        return s.to_string();
    };
    let mut bytes = Vec::with_capacity(inner.len());
    let mut it = inner.bytes().peekable();
    while let Some(b) = it.next() {
        if b != b'\\' {
            bytes.push(b);
            continue;
        }
        match it.next() {
            Some(b'n') => bytes.push(b'\n'),
            Some(b't') => bytes.push(b'\t'),
            Some(b'r') => bytes.push(b'\r'),
            Some(d @ b'0'..=b'7') => {
                let mut v = u32::from(d - b'0');
                for _ in 0..2 {
                    match it.peek() {
                        Some(&o @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(o - b'0');
                            it.next();
                        }
                        _ => break,
                    }
                }
                bytes.push((v & 0xff) as u8);
            }
            Some(other) => bytes.push(other),
            None => bytes.push(b'\\'),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
#[path = "unified_tests.rs"]
mod tests;
