//! Whole replacement methods as function-level LLM repairers write them (a record naming a file,
//! optionally the method and a line inside it, and the method's new text): the method or
//! constructor replaced found among the file's declarations with tree-sitter, and the edit that
//! replaces its declaration (its javadoc too when the new text brings one); a record naming
//! neither method nor line whose text is a whole file replaces the file. Also the method
//! finder `method_diff.rs` uses for its hints.

use super::NotInProject;
use crate::model::FileEdit;
use serde::Deserialize;
use std::ops::Range;
use tree_sitter::Node;

/// Why a whole-method record cannot be read into an edit.
#[derive(Debug, thiserror::Error)]
pub enum MethodError {
    #[error(transparent)]
    NotInProject(#[from] NotInProject),
    #[error("`text` is empty")]
    EmptyText,
    #[error("{file}: the file does not parse as Java")]
    Unparsed { file: String },
    #[error("{file}: no method or constructor `{method}` (the file declares: {candidates})")]
    NoSuchMethod {
        file: String,
        method: String,
        candidates: String,
    },
    #[error(
        "{file}: `{method}` names {count} methods ({candidates}): give `line` (a line inside \
         the one meant) or its parameter types, `name(int, double)`"
    )]
    Ambiguous {
        file: String,
        method: String,
        count: usize,
        candidates: String,
    },
    #[error("{file}: no method or constructor holds line {line}")]
    NoMethodAtLine { file: String, line: usize },
    #[error(
        "neither `method` nor `line` says which method of {file} the text replaces (and the \
         text is no whole file: no package or top-level type)"
    )]
    NoHint { file: String },
}

/// One record: `{"patch"?, "file", "method"?, "line"?, "text"}`; unknown fields (a model's
/// name, a score) are ignored.
#[derive(Debug, Deserialize)]
pub struct MethodRecord {
    pub file: String,
    #[serde(default)]
    pub method: Option<String>,
    #[serde(default)]
    pub line: Option<usize>,
    pub text: String,
}

/// A method or constructor declared in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decl {
    pub name: String,
    /// Parameter types as written, whitespace removed.
    pub params: Vec<String>,
    /// The declaration, from its modifiers and annotations to its closing brace.
    pub range: Range<usize>,
    /// The javadoc comment immediately before it (only whitespace between).
    pub javadoc: Option<Range<usize>>,
    /// 1-based lines of the declaration's first and last byte.
    pub lines: (usize, usize),
}

impl Decl {
    fn shown(&self) -> String {
        format!(
            "{}({}) at line {}",
            self.name,
            self.params.join(", "),
            self.lines.0
        )
    }
}

fn parser() -> Option<tree_sitter::Parser> {
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_java::LANGUAGE.into()).ok()?;
    Some(p)
}

/// The methods and constructors `text` declares, at every level (nested and anonymous classes
/// included), in the file's order; `None` when tree-sitter cannot parse it at all.
pub fn declarations(text: &str) -> Option<Vec<Decl>> {
    let tree = parser()?.parse(text, None)?;
    let mut out = Vec::new();
    let mut cursor = tree.walk();
    // Depth-first over every node, without recursion (arbitrary input may nest deeply).
    loop {
        let node = cursor.node();
        if matches!(
            node.kind(),
            "method_declaration" | "constructor_declaration" | "compact_constructor_declaration"
        ) {
            if let Some(d) = decl(text, node) {
                out.push(d);
            }
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return Some(out);
            }
        }
    }
}

fn decl(text: &str, node: Node) -> Option<Decl> {
    let name = text
        .get(node.child_by_field_name("name")?.byte_range())?
        .to_string();
    let mut params = Vec::new();
    if let Some(ps) = node.child_by_field_name("parameters") {
        let mut c = ps.walk();
        for p in ps.named_children(&mut c) {
            let ty = match p.kind() {
                "formal_parameter" => p.child_by_field_name("type").map(|t| t.byte_range()),
                "spread_parameter" => {
                    let mut c2 = p.walk();
                    let ty = p
                        .named_children(&mut c2)
                        .find(|n| n.kind() != "modifiers")
                        .map(|t| t.byte_range());
                    ty.map(|r| r.start..r.end)
                }
                _ => continue,
            };
            let mut t: String = ty
                .and_then(|r| text.get(r))
                .unwrap_or("?")
                .split_whitespace()
                .collect();
            if p.kind() == "spread_parameter" {
                t.push_str("...");
            }
            params.push(t);
        }
    }
    let range = node.byte_range();
    let javadoc = node.prev_named_sibling().and_then(|c| {
        let r = c.byte_range();
        let between = text.get(r.end..range.start)?;
        (c.kind() == "block_comment"
            && text.get(r.clone())?.starts_with("/**")
            && between.trim().is_empty())
        .then_some(r)
    });
    Some(Decl {
        name,
        params,
        range,
        javadoc,
        lines: (node.start_position().row + 1, node.end_position().row + 1),
    })
}

/// A type compared loosely: no whitespace, no type arguments, no package, `...` as `[]`.
fn loose_type(t: &str) -> String {
    let t: String = t.split_whitespace().collect();
    let t = t.replace("...", "[]");
    let mut out = String::new();
    let mut depth = 0usize;
    for ch in t.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(ch),
            _ => {}
        }
    }
    // `java.util.List` as `List`, an annotation's arguments `@A(x)` before the type left out.
    out.rsplit(['.', ')']).next().unwrap_or("").to_string()
}

/// A parameter as a record gives it (`int`, `int[] a`, `final List<String> xs`) matches a
/// declared type.
fn param_matches(given: &str, declared: &str) -> bool {
    let words: Vec<&str> = given.split_whitespace().filter(|w| *w != "final").collect();
    let whole = loose_type(&words.concat());
    let without_name = if words.len() > 1 {
        loose_type(&words[..words.len() - 1].concat())
    } else {
        whole.clone()
    };
    let d = loose_type(declared);
    d == whole || d == without_name
}

/// `name` or `name(T1, T2)` as a record gives it (`Foo.name`, `Foo::name` and a return type
/// before the name are allowed): the name and the parameter types when given.
fn parse_method(spec: &str) -> (String, Option<Vec<String>>) {
    let (head, params) = match spec.split_once('(') {
        Some((h, rest)) => {
            let inner = rest.rsplit_once(')').map(|(i, _)| i).unwrap_or(rest);
            let ps = split_params(inner);
            (h, Some(ps))
        }
        None => (spec, None),
    };
    let name = head
        .trim()
        .rsplit(|c: char| c == '.' || c == ':' || c.is_whitespace())
        .next()
        .unwrap_or("")
        .to_string();
    (name, params)
}

/// Parameters split at top-level commas (not those inside `<…>`).
fn split_params(inner: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut cur) = (0usize, String::new());
    for ch in inner.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.trim().is_empty() || !out.is_empty() {
        out.push(cur);
    }
    out.into_iter().map(|p| p.trim().to_string()).collect()
}

/// The innermost declaration holding 1-based `line`.
fn at_line<'d>(decls: &[&'d Decl], line: usize) -> Option<&'d Decl> {
    decls
        .iter()
        .filter(|d| d.lines.0 <= line && line <= d.lines.1)
        .min_by_key(|d| d.range.len())
        .copied()
}

/// The declaration of `file` (its text `text`) that `method` and `line` name: by name, and
/// parameter types when given; by the line when the name is absent or names several.
pub fn find<'d>(
    file: &str,
    decls: &'d [Decl],
    method: Option<&str>,
    line: Option<usize>,
) -> Result<&'d Decl, MethodError> {
    let all: Vec<&Decl> = decls.iter().collect();
    let list = |ds: &[&Decl]| -> String {
        let shown: Vec<String> = ds.iter().take(12).map(|d| d.shown()).collect();
        let more = ds.len().saturating_sub(12);
        let mut s = if shown.is_empty() {
            "nothing".to_string()
        } else {
            shown.join("; ")
        };
        if more > 0 {
            s.push_str(&format!("; and {more} more"));
        }
        s
    };
    let Some(spec) = method.filter(|m| !m.trim().is_empty()) else {
        let line = line.ok_or_else(|| MethodError::NoHint { file: file.into() })?;
        return at_line(&all, line).ok_or(MethodError::NoMethodAtLine {
            file: file.into(),
            line,
        });
    };
    let (name, params) = parse_method(spec);
    let mut named: Vec<&Decl> = all.iter().filter(|d| d.name == name).copied().collect();
    if let Some(ps) = &params {
        named.retain(|d| {
            d.params.len() == ps.len() && ps.iter().zip(&d.params).all(|(g, t)| param_matches(g, t))
        });
    }
    match named.len() {
        0 => Err(MethodError::NoSuchMethod {
            file: file.into(),
            method: spec.trim().into(),
            candidates: list(&all),
        }),
        1 => Ok(named[0]),
        count => line
            .and_then(|l| at_line(&named, l))
            .ok_or(MethodError::Ambiguous {
                file: file.into(),
                method: spec.trim().into(),
                count,
                candidates: list(&named),
            }),
    }
}

/// The new text as an LLM may have written it: inside a Markdown fence (```` ```java ````), with
/// blank lines around; the code alone.
fn unfenced(text: &str) -> &str {
    let t = text.trim();
    let Some(rest) = t.strip_prefix("```") else {
        return t;
    };
    let body = rest.split_once('\n').map(|(_, b)| b).unwrap_or("");
    body.trim_end().strip_suffix("```").unwrap_or(body).trim()
}

/// The edit a record makes: the declaration it names replaced by its text. `resolve` finds the
/// project file the record names.
pub fn edit(r: &MethodRecord, resolve: super::Resolve) -> Result<FileEdit, MethodError> {
    let new = unfenced(&r.text);
    if new.is_empty() {
        return Err(MethodError::EmptyText);
    }
    let (filename, text) = resolve(&r.file)?;
    if r.method.is_none() && r.line.is_none() && whole_file(new) {
        // The whole file written back (a repairer that returns the file): its line ending
        // kept as the file has it.
        let mut patched = new.to_string();
        if text.ends_with('\n') {
            patched.push('\n');
        }
        return Ok(FileEdit {
            filename,
            start: 0,
            unpatched: text,
            patched,
        });
    }
    let decls = declarations(&text).ok_or_else(|| MethodError::Unparsed {
        file: filename.clone(),
    })?;
    let d = find(&filename, &decls, r.method.as_deref(), r.line)?;
    let start = match &d.javadoc {
        Some(doc) if new.starts_with("/**") => doc.start,
        _ => d.range.start,
    };
    let unpatched = text
        .get(start..d.range.end)
        .ok_or_else(|| MethodError::Unparsed {
            file: filename.clone(),
        })?
        .to_string();
    Ok(FileEdit {
        filename,
        start,
        unpatched,
        patched: new.to_string(),
    })
}

/// Whether `text` is a whole Java file rather than one method: it declares a top-level type
/// (or a package) where a file does.
fn whole_file(text: &str) -> bool {
    let mut p = tree_sitter::Parser::new();
    if p.set_language(&tree_sitter_java::LANGUAGE.into()).is_err() {
        return false;
    }
    let Some(tree) = p.parse(text, None) else {
        return false;
    };
    let root = tree.root_node();
    let mut c = root.walk();
    let found = root.named_children(&mut c).any(|n| {
        matches!(
            n.kind(),
            "package_declaration"
                | "class_declaration"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration"
                | "annotation_type_declaration"
        )
    });
    found
}

#[cfg(test)]
#[path = "whole_method_tests.rs"]
mod tests;
