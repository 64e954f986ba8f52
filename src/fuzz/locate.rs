//! Where the fuzzer patches: the project's main source files parsed with tree-sitter, every
//! statement inside a method or constructor body as a candidate location (weighted towards simple
//! statements, statements inside loops, statements that pass arguments to a call and files that
//! have a test class), a seeded sample of them, and the facts about one location that the
//! mutation operators need (`Spot`, with what `declared` reads of the class).

use super::declared::{members, modifiers_have};
use super::rng::Rng;
pub use super::spot::SourceFile;
use super::spot::{ExceptionClass, Mutant, Spot, Var};
use crate::project::Project;
use crate::weave::{scope, split};
use std::collections::BTreeSet;
use std::ops::Range;
use std::path::{Path, PathBuf};
use tree_sitter::Node;

/// Statements longer than this are not patched (their patches would be mostly unrelated text).
const MAX_STATEMENT_BYTES: usize = 600;

/// A statement kind the fuzzer may patch, with its base weight.
const KINDS: &[(&str, f64)] = &[
    ("expression_statement", 3.0),
    ("return_statement", 3.0),
    ("throw_statement", 2.0),
    ("break_statement", 1.0),
    ("continue_statement", 1.0),
    ("assert_statement", 1.0),
    ("local_variable_declaration", 1.0),
    ("if_statement", 2.0),
    ("while_statement", 1.0),
    ("for_statement", 1.0),
    ("enhanced_for_statement", 1.0),
    ("do_statement", 1.0),
    ("try_statement", 0.5),
    // A field with an initialiser (`field_enclosing`).
    ("field_declaration", 1.0),
];

/// A statement that may be patched.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub file: usize,
    pub range: Range<usize>,
    pub in_loop: bool,
    pub weight: f64,
}

fn parser() -> tree_sitter::Parser {
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_java::LANGUAGE.into())
        .expect("tree-sitter-java matches the tree-sitter version");
    p
}

fn java_files(dirs: &[PathBuf], root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in dirs {
        let d = if d.is_absolute() {
            d.clone()
        } else {
            root.join(d)
        };
        for e in walkdir::WalkDir::new(&d)
            .sort_by_file_name()
            .into_iter()
            .flatten()
        {
            if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "java") {
                out.push(e.into_path());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Parses every main source file of the project (sorted, so the sample depends only on the seed).
pub fn scan(project: &Project) -> Vec<SourceFile> {
    let tests: BTreeSet<String> = java_files(&project.test_dirs, &project.root)
        .iter()
        .map(|p| stem(p))
        .collect();
    let mut out = Vec::new();
    for path in project.main_sources().0 {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(rel) = path.strip_prefix(&project.root) else {
            continue;
        };
        let s = stem(&path);
        let tested = tests.iter().any(|t| {
            t == &format!("Test{s}") || t.strip_prefix(&s).is_some_and(|rest| rest.contains("Test"))
        });
        out.extend(parse_source(&rel.to_string_lossy(), text, tested));
    }
    out
}

/// One source file parsed (`None` when it does not parse cleanly).
pub fn parse_source(rel: &str, text: String, tested: bool) -> Option<SourceFile> {
    let tree = parser().parse(&text, None)?;
    if tree.root_node().has_error() {
        return None;
    }
    let package = package_of(&text, tree.root_node());
    Some(SourceFile {
        rel: rel.to_string(),
        text,
        tree,
        tested,
        package,
    })
}

fn package_of(src: &str, root: Node) -> String {
    let mut c = root.walk();
    let pkg = root
        .children(&mut c)
        .find(|n| n.kind() == "package_declaration");
    pkg.and_then(|n| {
        let mut c = n.walk();
        let name = n
            .named_children(&mut c)
            .find(|k| matches!(k.kind(), "scoped_identifier" | "identifier"));
        name.map(|k| src[k.byte_range()].to_string())
    })
    .unwrap_or_default()
}

/// How a statement sits in its method.
struct Enclosing<'t> {
    method: Node<'t>,
    in_loop: bool,
    breakable: bool,
    in_lambda: bool,
}

const LOOPS: &[&str] = &[
    "for_statement",
    "enhanced_for_statement",
    "while_statement",
    "do_statement",
];

fn enclosing(n: Node) -> Option<Enclosing> {
    let (mut in_loop, mut breakable, mut in_lambda) = (false, false, false);
    let mut cur = n.parent();
    while let Some(p) = cur {
        match p.kind() {
            // A static initialiser block stands as a static method.
            "method_declaration" | "constructor_declaration" | "static_initializer" => {
                return Some(Enclosing {
                    method: p,
                    in_loop,
                    breakable,
                    in_lambda,
                })
            }
            // An instance initialiser block of a named class stands as a constructor (the weave
            // hoists its statements into an instance method: `weave::hoist::block`).
            "block"
                if p.parent().is_some_and(|b| {
                    b.kind() == "class_body"
                        && b.parent().is_some_and(|c| c.kind() == "class_declaration")
                }) =>
            {
                return Some(Enclosing {
                    method: p,
                    in_loop,
                    breakable,
                    in_lambda,
                })
            }
            "lambda_expression" => in_lambda = true,
            "class_body" | "interface_body" | "enum_body" | "field_declaration" | "program" => {
                return None
            }
            // `break`/`continue` inside a lambda cannot reach a loop outside it.
            k if LOOPS.contains(&k) && !in_lambda => {
                let body = p.child_by_field_name("body");
                if body.is_some_and(|b| {
                    b.start_byte() <= n.start_byte() && n.end_byte() <= b.end_byte()
                }) {
                    in_loop = true;
                    breakable = true;
                }
            }
            "switch_block" if !in_lambda => breakable = true,
            _ => {}
        }
        cur = p.parent();
    }
    None
}

/// A field declaration with an initialiser that is an expression, in a class, enum or interface
/// body, stands in its type declaration as a statement in its method: `method` is the type
/// declaration.
fn field_enclosing(n: Node) -> Option<Enclosing> {
    let mut c = n.walk();
    let value = n
        .children_by_field_name("declarator", &mut c)
        .last()?
        .child_by_field_name("value")?;
    if value.kind() == "array_initializer" {
        return None;
    }
    let body = n.parent()?;
    if !matches!(
        body.kind(),
        "class_body" | "enum_body_declarations" | "interface_body"
    ) {
        return None;
    }
    let decl = std::iter::successors(body.parent(), |p| p.parent()).find(|p| {
        matches!(
            p.kind(),
            "class_declaration" | "enum_declaration" | "interface_declaration"
        )
    })?;
    Some(Enclosing {
        method: decl,
        in_loop: false,
        breakable: false,
        in_lambda: false,
    })
}

/// Where a statement stands on its own (not a `for` header's declaration); a declaration only
/// directly in a block.
fn in_statement_position(n: Node) -> bool {
    let Some(p) = n.parent() else { return false };
    match p.kind() {
        "block" | "constructor_body" | "switch_block_statement_group" => true,
        "labeled_statement" | "if_statement" | "while_statement" | "do_statement" => {
            n.kind() != "local_variable_declaration"
        }
        "for_statement" | "enhanced_for_statement" => {
            n.kind() != "local_variable_declaration"
                && p.child_by_field_name("body").map(|b| b.id()) == Some(n.id())
        }
        _ => false,
    }
}

/// Every patchable statement of every file, weighted.
pub fn candidates(files: &[SourceFile]) -> Vec<Candidate> {
    let any_untested = files.iter().any(|f| !f.tested);
    let mut out = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        let mut stack = vec![f.tree.root_node()];
        while let Some(n) = stack.pop() {
            let mut c = n.walk();
            let kids: Vec<Node> = n.named_children(&mut c).collect();
            stack.extend(kids.into_iter().rev());
            let Some(&(_, base)) = KINDS.iter().find(|(k, _)| *k == n.kind()) else {
                continue;
            };
            if n.byte_range().len() > MAX_STATEMENT_BYTES {
                continue;
            }
            let enc = if n.kind() == "field_declaration" {
                field_enclosing(n)
            } else if in_statement_position(n) {
                enclosing(n)
            } else {
                None
            };
            let Some(enc) = enc else { continue };
            let mut weight = base;
            if enc.in_loop {
                weight *= 3.0;
            }
            if enc.in_lambda {
                weight *= 0.3;
            }
            if any_untested && f.tested {
                weight *= 3.0;
            }
            if passes_arguments(n) {
                weight *= 2.0;
            }
            out.push(Candidate {
                file: fi,
                range: n.byte_range(),
                in_loop: enc.in_loop,
                weight,
            });
        }
    }
    out
}

/// The statement calls a method with arguments (in its own text, its nested statements included).
/// Such a statement is where a value hole can form: the state-transition tree may not take a
/// call whose effects it cannot capture, and a hole family (`hazard::hole_burst`) rewrites a call's
/// argument or the condition of an `if` guarding the call.
fn passes_arguments(stmt: Node) -> bool {
    let mut stack = vec![stmt];
    while let Some(n) = stack.pop() {
        if n.kind() == "method_invocation"
            && n.child_by_field_name("arguments")
                .is_some_and(|a| a.named_child_count() > 0)
        {
            return true;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    false
}

/// `k` distinct candidates drawn by weight (all of them when there are fewer).
/// A statement of `c`'s file that starts after `c` ends, at most [`PAIR_REACH`] bytes later, for
/// a patch that changes both (in one method or two); `None` when there is none.
pub fn pair(cands: &[Candidate], c: &Candidate, rng: &mut Rng) -> Option<Candidate> {
    let later: Vec<&Candidate> = cands
        .iter()
        .filter(|d| {
            d.file == c.file
                && d.range.start > c.range.end
                && d.range.end - c.range.start <= PAIR_REACH
        })
        .collect();
    (!later.is_empty()).then(|| later[rng.below(later.len())].clone())
}

/// How far a paired location may reach, in bytes from the first's start.
const PAIR_REACH: usize = 3000;

pub fn sample(cands: &[Candidate], k: usize, rng: &mut Rng) -> Vec<Candidate> {
    let mut weights: Vec<f64> = cands.iter().map(|c| c.weight).collect();
    let mut out = Vec::new();
    while out.len() < k {
        let Some(i) = rng.weighted(&weights) else {
            break;
        };
        weights[i] = 0.0;
        out.push(cands[i].clone());
    }
    out
}

/// The statement node at exactly `range`.
fn statement_at<'t>(root: Node<'t>, range: &Range<usize>) -> Option<Node<'t>> {
    let mut n = root.descendant_for_byte_range(range.start, range.end)?;
    while n.byte_range() != *range || !KINDS.iter().any(|(k, _)| *k == n.kind()) {
        n = n.parent()?;
    }
    Some(n)
}

/// The weaver's scope analysis of a location (`weave::scope`); for a whole local declaration,
/// which it refuses, that of the declaration split as the weaver splits it (`weave::split`),
/// where the locals before it are the same (the declared one is not yet assigned).
fn site_of(src: &str, root: Node, stmt: Node, range: &Range<usize>) -> Option<scope::Site> {
    if let Ok(site) = scope::analyse(src, root, range.clone()) {
        return Some(site);
    }
    if stmt.kind() != "local_variable_declaration" {
        return None;
    }
    let value = split::last_initialiser(stmt)?;
    let split = split::split_declaration(src, value.byte_range())?;
    let tree = parser().parse(&split.src, None)?;
    scope::analyse(&split.src, tree.root_node(), split.statement).ok()
}

/// What the mutation operators know about one location. The visible locals come from the
/// weaver's own scope analysis (`site_of`); when it refuses the location (a declaration that
/// cannot be split, a lambda), only fields are known.
pub fn spot<'t>(
    file: &'t SourceFile,
    range: &Range<usize>,
    exceptions: &'t [ExceptionClass],
) -> Option<Spot<'t>> {
    let src = file.text.as_str();
    let root = file.tree.root_node();
    let stmt = statement_at(root, range)?;
    let is_field = stmt.kind() == "field_declaration";
    let enc = if is_field {
        field_enclosing(stmt)?
    } else {
        enclosing(stmt)?
    };
    let mut locals = Vec::new();
    let mut all_locals = BTreeSet::new();
    if let Some(site) = site_of(src, root, stmt, range) {
        for l in &site.locals {
            all_locals.insert(l.name.clone());
            if l.assigned && l.unusable.is_none() {
                locals.push(Var {
                    name: l.name.clone(),
                    ty: l.ty.trim().to_string(),
                    is_final: l.is_final,
                });
            }
        }
    }
    let mut class = if is_field {
        Some(enc.method)
    } else {
        enc.method.parent()
    };
    while let Some(c) = class {
        if matches!(
            c.kind(),
            "class_declaration"
                | "enum_declaration"
                | "record_declaration"
                | "interface_declaration"
        ) {
            break;
        }
        class = c.parent();
    }
    let class = class?;
    let class_name = src[class.child_by_field_name("name")?.byte_range()].to_string();
    let (fields, methods) = members(src, class.child_by_field_name("body")?);
    // An instance initialiser block runs as part of every constructor.
    let is_constructor = matches!(enc.method.kind(), "constructor_declaration" | "block");
    let return_type = if is_constructor || is_field {
        "void".to_string()
    } else {
        enc.method
            .child_by_field_name("type")
            .map(|t| src[t.byte_range()].to_string())
            .unwrap_or_else(|| "void".into())
    };
    Some(Spot {
        src,
        stmt,
        locals,
        all_locals,
        fields,
        methods,
        class_name,
        is_static: enc.method.kind() == "static_initializer"
            || modifiers_have(src, if is_field { stmt } else { enc.method }, "static"),
        return_type,
        in_loop: enc.in_loop,
        breakable: enc.breakable,
        in_lambda: enc.in_lambda,
        exceptions,
    })
}

/// For a declaration statement (a local's or a field's), the range of its last declarator's
/// initialiser and the mutants that change only that initialiser, cut down to it; `None` when
/// the statement is no such declaration or fewer than two mutants qualify.
pub fn initialiser_location(
    spot: &Spot,
    mutants: &[Mutant],
) -> Option<(Range<usize>, Vec<Mutant>)> {
    let stmt = spot.stmt;
    if !matches!(
        stmt.kind(),
        "local_variable_declaration" | "field_declaration"
    ) {
        return None;
    }
    let value = split::last_initialiser(stmt)?;
    let src = spot.src;
    let prefix = &src[stmt.start_byte()..value.start_byte()];
    let suffix = &src[value.end_byte()..stmt.end_byte()];
    let kept: Vec<Mutant> = mutants
        .iter()
        .filter_map(|m| {
            let inner = m.text.strip_prefix(prefix)?.strip_suffix(suffix)?;
            (!inner.trim().is_empty()).then(|| Mutant {
                text: inner.to_string(),
                op: m.op,
            })
        })
        .collect();
    (kept.len() >= 2).then(|| (value.byte_range(), kept))
}
