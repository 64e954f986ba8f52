//! A small Java lexical scan of patched statements: which names they mention, which they may
//! assign, and which jump keywords they use (strings, characters and comments are skipped).

use std::collections::BTreeSet;

/// What a patched statement mentions.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Mentions {
    /// Identifiers not preceded by `.` (candidates for locals).
    pub names: BTreeSet<String>,
    /// Identifiers that appear as assignment or `++`/`--` targets.
    pub assigned: BTreeSet<String>,
    /// Identifiers that may be read: every name but a plain `x = …` target (or declarator).
    pub read: BTreeSet<String>,
    /// Identifiers written `this.x` (fields of the enclosing class).
    pub this_names: BTreeSet<String>,
    pub has_break: bool,
    pub has_continue: bool,
    /// Labels named by `break L` / `continue L`.
    pub jump_labels: BTreeSet<String>,
    /// The text holds a comment (weaving moves text across lines, which a `//` comment would change).
    pub has_comment: bool,
}

/// What [`skipped`] found.
enum Skipped {
    Comment,
    /// A string, character or text-block literal.
    Literal,
}

/// A comment or literal starting at byte `i` of `src`: where it ends (past its last byte, at
/// most `src.len()`) and which it is.
fn skipped(src: &str, mut i: usize) -> Option<(usize, Skipped)> {
    let b = src.as_bytes();
    let c = b[i];
    let end = |i: usize| Some(i.min(b.len()));
    if c == b'/' && b.get(i + 1) == Some(&b'/') {
        while i < b.len() && b[i] != b'\n' {
            i += 1;
        }
        return end(i).map(|e| (e, Skipped::Comment));
    }
    if c == b'/' && b.get(i + 1) == Some(&b'*') {
        i += 2;
        while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
            i += 1;
        }
        return end(i + 2).map(|e| (e, Skipped::Comment));
    }
    if c == b'"' && src[i..].starts_with("\"\"\"") {
        i += 3;
        while i < b.len() && !src[i..].starts_with("\"\"\"") {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        return end(i + 3).map(|e| (e, Skipped::Literal));
    }
    if c == b'"' || c == b'\'' {
        i += 1;
        while i < b.len() && b[i] != c && b[i] != b'\n' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        return end(i + 1).map(|e| (e, Skipped::Literal));
    }
    None
}

/// Scans Java source text.
pub fn scan(src: &str) -> Mentions {
    let b = src.as_bytes();
    let mut m = Mentions::default();
    let mut i = 0;
    // (identifier, previous significant byte)
    let mut toks: Vec<(String, u8, usize)> = Vec::new();
    let mut prev_sig: u8 = b' ';
    while i < b.len() {
        let c = b[i];
        if let Some((end, kind)) = skipped(src, i) {
            match kind {
                Skipped::Comment => m.has_comment = true,
                Skipped::Literal => prev_sig = b'"',
            }
            i = end;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80 {
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$' || b[i] >= 0x80)
            {
                i += 1;
            }
            toks.push((src[start..i].to_string(), prev_sig, i));
            prev_sig = b'a';
            continue;
        }
        if !c.is_ascii_whitespace() {
            prev_sig = c;
        }
        i += 1;
    }
    let next_sig = |from: usize| -> &str {
        let rest = src[from..].trim_start();
        &rest[..rest.len().min(3)]
    };
    for (k, (word, prev, end)) in toks.iter().enumerate() {
        match word.as_str() {
            "break" | "continue" => {
                if word == "break" {
                    m.has_break = true;
                } else {
                    m.has_continue = true;
                }
                if let Some((label, _, _)) = toks.get(k + 1) {
                    let between = &src[*end..];
                    if between.trim_start().starts_with(label.as_str()) {
                        m.jump_labels.insert(label.clone());
                    }
                }
                continue;
            }
            _ => {}
        }
        if *prev == b'.' {
            let this = k
                .checked_sub(1)
                .and_then(|j| toks.get(j))
                .filter(|(w, _, e)| w == "this" && src[*e..*end - word.len()].trim() == ".");
            if this.is_some() {
                m.this_names.insert(word.clone());
            }
            continue;
        }
        if word.as_bytes()[0].is_ascii_digit() {
            continue;
        }
        m.names.insert(word.clone());
        let after = next_sig(*end);
        let plain_write = after.starts_with('=') && !after.starts_with("==");
        if !plain_write {
            m.read.insert(word.clone());
        }
        let assigns = plain_write
            || ["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="]
                .iter()
                .any(|op| after.starts_with(op))
            || after.starts_with("++")
            || after.starts_with("--")
            || before_is_incdec(src, *end - word.len());
        if assigns {
            m.assigned.insert(word.clone());
        }
    }
    m
}

/// `src` with every comment's bytes replaced by spaces, line breaks kept, so that lines and byte
/// offsets stay where they were and no `//` comment can swallow what weaving puts after the
/// text; `None` when a comment holds a `\u` escape (javac translates those before it looks for
/// comments, so `\u000a` ends a `//` comment early: such a text is left as it is).
pub fn blank_comments(src: &str) -> Option<String> {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let blank = |from: usize, to: usize, out: &mut Vec<u8>| -> bool {
        if src[from..to].contains("\\u") {
            return false;
        }
        for o in &mut out[from..to] {
            if *o != b'\n' && *o != b'\r' {
                *o = b' ';
            }
        }
        true
    };
    while i < b.len() {
        match skipped(src, i) {
            Some((end, Skipped::Comment)) => {
                if !blank(i, end, &mut out) {
                    return None;
                }
                i = end;
            }
            Some((end, Skipped::Literal)) => i = end,
            None => i += 1,
        }
    }
    // Whole characters were blanked: the bytes are still UTF-8.
    String::from_utf8(out).ok()
}

fn before_is_incdec(src: &str, start: usize) -> bool {
    let before = src[..start].trim_end();
    before.ends_with("++") || before.ends_with("--")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_assignments() {
        let m = scan(r#"x += a.b + y; z = "q = r"; ++w; v--; if (p == q) t = 1;"#);
        for n in ["x", "a", "y", "z", "w", "v", "p", "q", "t"] {
            assert!(m.names.contains(n), "{n}");
        }
        assert!(!m.names.contains("b") && !m.names.contains("r"));
        let assigned: Vec<&str> = m.assigned.iter().map(|s| s.as_str()).collect();
        assert_eq!(assigned, ["t", "v", "w", "x", "z"]);
        assert!(!m.has_break && !m.has_comment);
        let this = scan("this.tag = new Tag(this . text); that.other = 1; tag2 = this.");
        let named: Vec<&str> = this.this_names.iter().map(|s| s.as_str()).collect();
        assert_eq!(named, ["tag", "text"]);
        // Read: all but the targets of a plain `=` (compound assignments and `++` read).
        let read: Vec<&str> = m.read.iter().map(|s| s.as_str()).collect();
        assert_eq!(read, ["a", "if", "p", "q", "v", "w", "x", "y"]);
        let m = scan("int k = 0; a[i] = k; u = u = 2; s >= 1;");
        let read: Vec<&str> = m.read.iter().map(|s| s.as_str()).collect();
        assert_eq!(read, ["a", "i", "int", "k", "s"]);
    }

    #[test]
    fn comments_are_blanked_in_place() {
        let src = "x = 1; // set \u{e9}t\u{e9}\ny = \"// no\"; /* two\nlines */ z = '/';";
        let b = blank_comments(src).unwrap();
        assert_eq!(b.len(), src.len());
        assert_eq!(b.lines().count(), src.lines().count());
        assert!(b.starts_with("x = 1;") && !b.contains("set") && !b.contains("two"));
        assert!(b.contains("\"// no\"") && b.contains("z = '/';"));
        assert!(!scan(&b).has_comment);
        assert_eq!(blank_comments("a(); // \\u000a b();"), None);
        assert_eq!(blank_comments("a();").as_deref(), Some("a();"));
    }

    #[test]
    fn jumps_and_comments() {
        let m = scan("if (x) break outer; else continue; // done");
        assert!(m.has_break && m.has_continue && m.has_comment);
        assert_eq!(m.jump_labels.iter().collect::<Vec<_>>(), ["outer"]);
        let m = scan("String s = \"break\";");
        assert!(!m.has_break);
    }
}
