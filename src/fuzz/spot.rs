//! The fuzzer's vocabulary of a location: the parsed file (`SourceFile`), the statement and what operators may use there
//! (`Spot`: locals, fields, methods, exceptions), and a generated patch (`Mutant`); read by
//! `locate`, the operators of `mutate` and `hazard`.

use std::collections::BTreeSet;
use std::ops::Range;
use tree_sitter::Node;

/// One main source file, parsed.
pub struct SourceFile {
    /// Path relative to the project root, as the manifest names it.
    pub rel: String,
    pub text: String,
    pub tree: tree_sitter::Tree,
    /// A test source file is named after this file's class (`FooTest`, `TestFoo`, `FooTests`).
    pub tested: bool,
    pub package: String,
}

/// A local variable that a patch may read (definitely assigned, passable).
#[derive(Debug, Clone)]
pub struct Var {
    pub name: String,
    pub ty: String,
    pub is_final: bool,
}

/// A field of the enclosing class.
#[derive(Debug, Clone)]
pub struct Member {
    pub name: String,
    pub ty: String,
    pub is_static: bool,
    pub is_final: bool,
}

/// A method of the enclosing class (generic methods are left out).
#[derive(Debug, Clone)]
pub struct MethodSig {
    pub name: String,
    pub ret: String,
    pub params: Vec<String>,
    pub is_static: bool,
}

/// One location and what the operators may use there.
pub struct Spot<'t> {
    pub src: &'t str,
    /// The statement replaced by every patch.
    pub stmt: Node<'t>,
    pub locals: Vec<Var>,
    /// Names of every visible local, usable or not (they shadow fields).
    pub all_locals: BTreeSet<String>,
    pub fields: Vec<Member>,
    pub methods: Vec<MethodSig>,
    pub class_name: String,
    /// The enclosing method is static.
    pub is_static: bool,
    /// `void` for constructors.
    pub return_type: String,
    pub in_loop: bool,
    pub breakable: bool,
    pub in_lambda: bool,
    pub exceptions: &'t [ExceptionClass],
}

/// A generated patch and the operator that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutant {
    pub text: String,
    pub op: &'static str,
}

/// An exception class declared in the project, with its constructors' parameter types.
#[derive(Debug, Clone)]
pub struct ExceptionClass {
    /// Fully qualified name (usable from any package).
    pub name: String,
    pub ctors: Vec<Vec<String>>,
}

const INTEGRAL: &[&str] = &["int", "long", "short", "byte", "char"];
const NUMERIC: &[&str] = &["int", "long", "short", "byte", "char", "float", "double"];

impl<'t> Spot<'t> {
    pub fn text(&self, n: Node) -> &'t str {
        &self.src[n.byte_range()]
    }

    /// The unpatched statement.
    pub fn orig(&self) -> &'t str {
        self.text(self.stmt)
    }

    /// The statement with the absolute byte range `r` replaced.
    pub fn replace(&self, r: Range<usize>, with: &str) -> String {
        let base = self.stmt.start_byte();
        let o = self.orig();
        format!("{}{with}{}", &o[..r.start - base], &o[r.end - base..])
    }

    /// Every node of the statement, in source order.
    pub fn nodes(&self) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        let mut stack = vec![self.stmt];
        while let Some(n) = stack.pop() {
            out.push(n);
            let mut c = n.walk();
            let kids: Vec<Node> = n.children(&mut c).collect();
            stack.extend(kids.into_iter().rev());
        }
        out
    }

    /// The declared type of a simple name used at the location: a visible local, else a field
    /// (unless an unusable local shadows it).
    pub fn type_of(&self, name: &str) -> Option<&str> {
        if let Some(l) = self.locals.iter().find(|l| l.name == name) {
            return Some(&l.ty);
        }
        if self.all_locals.contains(name) {
            return None;
        }
        self.fields
            .iter()
            .find(|f| f.name == name && (f.is_static || !self.is_static))
            .map(|f| f.ty.as_str())
    }

    /// How the code at the location names a field explicitly: `Class.f` or `this.f`.
    pub fn qualified(&self, f: &Member) -> Option<String> {
        if f.is_static {
            Some(format!("{}.{}", self.class_name, f.name))
        } else if !self.is_static {
            Some(format!("this.{}", f.name))
        } else {
            None
        }
    }

    /// An identifier that names a variable (not a method, a member after `.`, a label or a
    /// declared name) and whose type is known.
    pub fn var_ref(&self, n: Node) -> Option<&str> {
        if n.kind() != "identifier" {
            return None;
        }
        let p = n.parent()?;
        let is = |field: &str| p.child_by_field_name(field).map(|c| c.id()) == Some(n.id());
        let excluded = match p.kind() {
            "method_invocation" => is("name"),
            "field_access" => is("field"),
            "variable_declarator" | "formal_parameter" | "catch_formal_parameter" => is("name"),
            "labeled_statement" | "break_statement" | "continue_statement" => true,
            "lambda_expression" | "inferred_parameters" => true,
            _ => false,
        };
        if excluded {
            return None;
        }
        self.type_of(self.text(n))
    }

    /// The identifier is read, not assigned.
    pub fn is_read(&self, n: Node) -> bool {
        let Some(p) = n.parent() else { return true };
        match p.kind() {
            "assignment_expression" => {
                p.child_by_field_name("left").map(|l| l.id()) != Some(n.id())
            }
            "update_expression" => false,
            _ => true,
        }
    }

    /// Variables readable at the location (locals, then fields not shadowed), as expressions.
    pub fn readable(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .locals
            .iter()
            .map(|l| (l.name.clone(), l.ty.clone()))
            .collect();
        for f in &self.fields {
            if !f.is_static && self.is_static {
                continue;
            }
            let expr = if self.all_locals.contains(&f.name) {
                match self.qualified(f) {
                    Some(q) => q,
                    None => continue,
                }
            } else {
                f.name.clone()
            };
            out.push((expr, f.ty.clone()));
        }
        out
    }

    /// Expressions of type `ty`: variables of that type first, then a few literals.
    pub fn values_of(&self, ty: &str) -> Vec<String> {
        let mut out: Vec<String> = self
            .readable()
            .into_iter()
            .filter(|(_, t)| t == ty)
            .map(|(e, _)| e)
            .collect();
        let lits: &[&str] = match ty {
            "int" | "long" | "short" | "byte" | "Integer" | "Long" => &["0", "1", "(-1)", "2"],
            "char" | "Character" => &["'a'", "' '"],
            "boolean" | "Boolean" => &["true", "false"],
            "double" | "float" | "Double" | "Float" => &["0.0", "1.5"],
            "String" => &["\"\"", "\"fuzz\"", "null"],
            "Throwable" | "Exception" | "RuntimeException" => &[
                "new IllegalStateException(\"cause\")",
                "new IllegalArgumentException(\"other cause\")",
                "null",
            ],
            _ => &["null"],
        };
        let lits = lits.iter().map(|l| match ty {
            "float" | "Float" => format!("{l}f"),
            "long" | "Long" if !l.starts_with('(') => format!("{l}L"),
            _ => l.to_string(),
        });
        out.extend(lits);
        out
    }

    /// Boolean guards for inserted jumps and throws, built from the visible locals.
    pub fn guards(&self) -> Vec<String> {
        let mut out = Vec::new();
        for l in &self.locals {
            match l.ty.as_str() {
                "int" | "long" | "short" | "byte" if out.len() < 3 => {
                    out.push(format!("{} > 0", l.name));
                    out.push(format!("{} == 2", l.name));
                }
                "boolean" if out.len() < 3 => out.push(l.name.clone()),
                "String" if out.len() < 3 => out.push(format!("{}.isEmpty()", l.name)),
                _ => {}
            }
        }
        out.push("true".into());
        out
    }

    /// The statement is one whose successor is reachable (so text may follow it).
    pub fn completes(&self) -> bool {
        matches!(
            self.stmt.kind(),
            "expression_statement" | "local_variable_declaration" | "assert_statement"
        )
    }
}

/// Is `ty` a primitive numeric type (or `char`)?
pub fn is_numeric(ty: &str) -> bool {
    NUMERIC.contains(&ty)
}

/// Is `ty` an integral primitive type?
pub fn is_integral(ty: &str) -> bool {
    INTEGRAL.contains(&ty)
}
