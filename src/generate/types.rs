//! Types at one location for `generate`: source type names resolved to binary names (the file's
//! package, imports and classes, `java.lang`), the static type of an expression (literals,
//! variables, operators, calls and field accesses looked up in the compiled classes), and the
//! check that drops a candidate javac would refuse (operands, arguments, assignments, conditions
//! and returned values of the wrong type). Unknown types are never held against a candidate.

use super::classes::{Classes, UNKNOWN};
use crate::fuzz::spot::Spot;
use std::collections::HashMap;
use tree_sitter::Node;

/// A type: a primitive keyword, a binary class name with dots, `[]` per dimension, or `null`.
pub type Ty = String;

const NULL: &str = "null";
const STRING: &str = "java.lang.String";
const OBJECT: &str = "java.lang.Object";
const BOXES: &[(&str, &str)] = &[
    ("int", "java.lang.Integer"),
    ("long", "java.lang.Long"),
    ("short", "java.lang.Short"),
    ("byte", "java.lang.Byte"),
    ("char", "java.lang.Character"),
    ("float", "java.lang.Float"),
    ("double", "java.lang.Double"),
    ("boolean", "java.lang.Boolean"),
];
/// Numeric primitives, narrowest first along widening (`char` widens to `int` and up).
const WIDENING: &[&str] = &["byte", "short", "int", "long", "float", "double"];

/// What resolves names and types in one source file, at one class.
pub struct Typer<'c> {
    classes: &'c Classes,
    package: String,
    /// `import a.b.C;` as `a.b.C`; `import a.b.*;` as `a.b`.
    single: Vec<String>,
    wildcard: Vec<String>,
    /// Classes declared in the file: simple name and binary name.
    declared: Vec<(String, String)>,
    /// The binary name of the class enclosing the location (none in an anonymous class).
    this_class: Option<String>,
}

impl<'c> Typer<'c> {
    /// The typer of `root` (a file's tree over `src`) at `at` (a node inside it).
    pub fn new(classes: &'c Classes, src: &str, root: Node, at: Node) -> Typer<'c> {
        let text = |n: Node| src[n.byte_range()].to_string();
        let mut t = Typer {
            classes,
            package: String::new(),
            single: Vec::new(),
            wildcard: Vec::new(),
            declared: Vec::new(),
            this_class: None,
        };
        let mut c = root.walk();
        for n in root.named_children(&mut c) {
            match n.kind() {
                "package_declaration" => {
                    if let Some(name) =
                        n.named_child((n.named_child_count() as u32).saturating_sub(1))
                    {
                        t.package = text(name);
                    }
                }
                "import_declaration" => {
                    let body = text(n);
                    let body = body
                        .trim_start_matches("import")
                        .trim()
                        .trim_end_matches(';')
                        .trim();
                    if body.starts_with("static ") {
                        continue;
                    }
                    match body.strip_suffix(".*") {
                        Some(w) => t.wildcard.push(w.replace(' ', "")),
                        None => t.single.push(body.replace(' ', "")),
                    }
                }
                _ => {}
            }
        }
        let prefix = if t.package.is_empty() {
            String::new()
        } else {
            format!("{}.", t.package)
        };
        declared(src, root, &prefix, &mut t.declared);
        t.this_class = enclosing_class(src, at, &prefix);
        t
    }

    pub fn classes(&self) -> &Classes {
        self.classes
    }

    pub fn this_class(&self) -> Option<&str> {
        self.this_class.as_deref()
    }

    /// A type as the source writes it (`int`, `List<String>[]`, `Outer.Inner`, `a.b.C`)
    /// resolved to a [`Ty`]; `None` when unknown (a type variable, a class not found).
    pub fn resolve(&self, source: &str) -> Option<Ty> {
        let mut base = erase(source);
        let mut dims = 0;
        while let Some(b) = base.strip_suffix("[]") {
            base = b.trim_end().to_string();
            dims += 1;
        }
        if let Some(b) = base.strip_suffix("...") {
            base = b.trim_end().to_string();
            dims += 1;
        }
        let arrays = "[]".repeat(dims);
        if WIDENING.contains(&base.as_str()) || matches!(base.as_str(), "char" | "boolean" | "void")
        {
            return Some(format!("{base}{arrays}"));
        }
        if base.is_empty() || base == "var" {
            return None;
        }
        let (first, rest) = match base.split_once('.') {
            Some((f, r)) => (f, Some(r)),
            None => (base.as_str(), None),
        };
        let nested = |outer: String| match rest {
            Some(r) => format!("{outer}${}", r.replace('.', "$")),
            None => outer,
        };
        let found = self
            .simple(first)
            .map(nested)
            .filter(|b| self.classes.exists(b))
            .or_else(|| rest.and_then(|_| self.qualified(&base)))?;
        Some(format!("{found}{arrays}"))
    }

    /// A simple class name's binary name.
    fn simple(&self, name: &str) -> Option<String> {
        if let Some((_, b)) = self.declared.iter().find(|(s, _)| s == name) {
            return Some(b.clone());
        }
        if let Some(i) = self
            .single
            .iter()
            .find(|i| i.rsplit('.').next() == Some(name))
        {
            return self.qualified(i);
        }
        let here = if self.package.is_empty() {
            name.to_string()
        } else {
            format!("{}.{name}", self.package)
        };
        std::iter::once(here)
            .chain(std::iter::once(format!("java.lang.{name}")))
            .chain(self.wildcard.iter().map(|w| format!("{w}.{name}")))
            .find(|c| self.classes.exists(c))
    }

    /// A qualified name (`a.b.C.D`) as the binary name of an existing class (`a.b.C$D`).
    fn qualified(&self, name: &str) -> Option<String> {
        let mut candidate = name.to_string();
        loop {
            if self.classes.exists(&candidate) {
                return Some(candidate);
            }
            let i = candidate.rfind('.')?;
            candidate.replace_range(i..=i, "$");
        }
    }

    /// The static type of expression `n` (over `src`) at the location `s`; `inner`: variables
    /// declared inside the patched statement (`None`: declared without a usable type).
    pub fn type_of(
        &self,
        s: &Spot,
        src: &str,
        inner: &HashMap<String, Option<Ty>>,
        n: Node,
    ) -> Option<Ty> {
        let text = |n: Node| &src[n.byte_range()];
        let sub = |k: Node| self.type_of(s, src, inner, k);
        let field = |f: &str| n.child_by_field_name(f);
        let known = |t: Ty| (t != UNKNOWN).then_some(t);
        match n.kind() {
            "decimal_integer_literal"
            | "hex_integer_literal"
            | "octal_integer_literal"
            | "binary_integer_literal" => Some(
                if text(n).ends_with(['l', 'L']) {
                    "long"
                } else {
                    "int"
                }
                .into(),
            ),
            "decimal_floating_point_literal" | "hex_floating_point_literal" => Some(
                if text(n).ends_with(['f', 'F']) {
                    "float"
                } else {
                    "double"
                }
                .into(),
            ),
            "string_literal" | "text_block" => Some(STRING.into()),
            "character_literal" => Some("char".into()),
            "true" | "false" => Some("boolean".into()),
            "null_literal" => Some(NULL.into()),
            "this" => self.this_class.clone(),
            "parenthesized_expression" => n.named_child(0).and_then(sub),
            "identifier" => self.variable(s, inner, text(n)),
            "cast_expression" => field("type").and_then(|t| self.resolve(text(t))),
            "object_creation_expression" => field("type").and_then(|t| self.resolve(text(t))),
            "array_creation_expression" => {
                let base = self.resolve(text(field("type")?))?;
                let dims = text(n).matches('[').count();
                Some(format!("{base}{}", "[]".repeat(dims)))
            }
            "instanceof_expression" => Some("boolean".into()),
            "assignment_expression" => field("left").and_then(sub),
            "update_expression" => n.named_child(0).and_then(sub),
            "array_access" => {
                let a = sub(field("array")?)?;
                a.strip_suffix("[]").map(str::to_string)
            }
            "ternary_expression" => {
                let (a, b) = (sub(field("consequence")?), sub(field("alternative")?));
                (a == b).then_some(a).flatten()
            }
            "unary_expression" => {
                let op = text(field("operator")?);
                if op == "!" {
                    Some("boolean".into())
                } else {
                    promote(&[&sub(field("operand")?)?])
                }
            }
            "binary_expression" => {
                let op = text(field("operator")?);
                match op {
                    "<" | "<=" | ">" | ">=" | "==" | "!=" | "&&" | "||" => Some("boolean".into()),
                    _ => {
                        let (l, r) = (sub(field("left")?)?, sub(field("right")?)?);
                        match op {
                            "+" if l == STRING || r == STRING => Some(STRING.into()),
                            "&" | "|" | "^" if unbox(&l) == "boolean" => Some("boolean".into()),
                            "<<" | ">>" | ">>>" => promote(&[&l]),
                            _ => promote(&[&l, &r]),
                        }
                    }
                }
            }
            "field_access" => {
                let name = text(field("field")?);
                let object = field("object")?;
                if object.kind() == "this" {
                    return self.variable(s, &HashMap::new(), name);
                }
                let owner = self.receiver(s, src, inner, object)?;
                if owner.ends_with("[]") {
                    return (name == "length").then(|| "int".into());
                }
                known(self.classes.field(&owner, name)?.ty)
            }
            "method_invocation" => {
                let m = self.callee(s, src, inner, n)?;
                known(m.ret)
            }
            _ => None,
        }
    }

    /// A simple name's type: a variable declared in the patched statement, a visible local, a
    /// field of the class (declared in the source, or inherited as the compiled classes say).
    fn variable(&self, s: &Spot, inner: &HashMap<String, Option<Ty>>, name: &str) -> Option<Ty> {
        if let Some(t) = inner.get(name) {
            return t.clone();
        }
        if let Some(t) = s.type_of(name) {
            return self.resolve(t);
        }
        if s.all_locals.contains(name) {
            return None;
        }
        let f = self.classes.field(self.this_class.as_deref()?, name)?;
        (f.ty != UNKNOWN).then_some(f.ty)
    }

    /// The class whose members `object.x` names: a variable's or expression's type, or a class
    /// named by its name (a static access).
    fn receiver(
        &self,
        s: &Spot,
        src: &str,
        inner: &HashMap<String, Option<Ty>>,
        object: Node,
    ) -> Option<Ty> {
        let t = self.type_of(s, src, inner, object);
        if t.is_some() {
            return t;
        }
        let name = &src[object.byte_range()];
        let is_variable = object.kind() == "identifier"
            && (inner.contains_key(name)
                || s.all_locals.contains(name)
                || s.type_of(name).is_some());
        if matches!(
            object.kind(),
            "identifier" | "scoped_identifier" | "field_access"
        ) && !is_variable
        {
            return self.resolve(name);
        }
        None
    }

    /// The class a call's method is looked up in, and whether the call names it by a type name
    /// (a static call: `Math.max(..)`); none for `super` calls and where it is unknown.
    pub fn call_owner(
        &self,
        s: &Spot,
        src: &str,
        inner: &HashMap<String, Option<Ty>>,
        call: Node,
    ) -> Option<(Ty, bool)> {
        let owner = match call.child_by_field_name("object") {
            None => (self.this_class.clone()?, false),
            Some(o) if o.kind() == "this" => (self.this_class.clone()?, false),
            Some(o) if o.kind() == "super" => return None,
            Some(o) => match self.type_of(s, src, inner, o) {
                Some(t) => (t, false),
                None => (self.receiver(s, src, inner, o)?, true),
            },
        };
        (!owner.0.ends_with("[]") && owner.0 != NULL).then_some(owner)
    }

    /// The method a call names when the compiled classes have exactly one of that name taking
    /// that many arguments (not variable-arity) in the receiver's class and its ancestors.
    pub fn callee(
        &self,
        s: &Spot,
        src: &str,
        inner: &HashMap<String, Option<Ty>>,
        call: Node,
    ) -> Option<super::classes::Method> {
        let name = &src[call.child_by_field_name("name")?.byte_range()];
        let arity = call
            .child_by_field_name("arguments")
            .map_or(0, |a| a.named_child_count());
        let (owner, _) = self.call_owner(s, src, inner, call)?;
        let mut found = self
            .methods_of(s, &owner)
            .into_iter()
            .filter(|m| m.name == name && (m.params.len() == arity || m.is_varargs));
        let m = found.next()?;
        (found.next().is_none() && !m.is_varargs).then_some(m)
    }

    /// The methods of `owner` as the compiled classes list them; for the enclosing class when
    /// it is not compiled, its methods as the source declares them (generic ones left out).
    pub fn methods_of(&self, s: &Spot, owner: &str) -> Vec<super::classes::Method> {
        if self.classes.exists(owner) || self.this_class.as_deref() != Some(owner) {
            return self.classes.methods(owner);
        }
        let ty = |t: &str| self.resolve(t).unwrap_or_else(|| UNKNOWN.into());
        s.methods
            .iter()
            .map(|m| super::classes::Method {
                name: m.name.clone(),
                params: m.params.iter().map(|p| ty(p)).collect(),
                ret: ty(&m.ret),
                is_static: m.is_static,
                is_private: false,
                is_package: false,
                is_varargs: m.params.last().is_some_and(|p| p.ends_with("...")),
                throws: Vec::new(),
            })
            .collect()
    }

    /// May a value of type `from` be assigned to `to`? `None` when that cannot be told.
    /// `constant`: the value is a literal (an `int` constant may narrow to `byte`, `short`,
    /// `char`).
    pub fn assignable(&self, from: &str, to: &str, constant: bool) -> Option<bool> {
        if from == to || from == UNKNOWN || to == UNKNOWN || to == OBJECT && !is_primitive(from) {
            return Some(true);
        }
        if is_primitive(to) {
            let f = unbox(from);
            if !is_primitive(&f) {
                // A class that is no box: never a primitive, unless it is Object/Number whose
                // static type may stand for an erased type variable.
                return (!matches!(from, OBJECT | "java.lang.Number" | "java.lang.Comparable")
                    && self.classes.exists(from))
                .then_some(false);
            }
            if f == "boolean" || to == "boolean" {
                return Some(f == to);
            }
            let narrowing_constant =
                constant && f == "int" && matches!(to, "byte" | "short" | "char") && from == "int";
            return Some(widens(&f, to) || narrowing_constant);
        }
        if from == NULL {
            return Some(true);
        }
        if is_primitive(from) {
            // Boxing, then widening reference conversion.
            let boxed = BOXES.iter().find(|(p, _)| *p == from).map(|(_, b)| *b)?;
            if constant
                && from == "int"
                && BOXES
                    .iter()
                    .any(|(p, b)| *b == to && matches!(*p, "byte" | "short" | "char"))
            {
                return Some(true);
            }
            return self.subclass(boxed, to);
        }
        if from.ends_with("[]") || to.ends_with("[]") {
            return (from.ends_with("[]") && to.ends_with("[]"))
                .then_some(true)
                .or((!to.ends_with("[]")
                    && !matches!(to, "java.lang.Cloneable" | "java.io.Serializable"))
                .then_some(false));
        }
        self.subclass(from, to)
    }

    fn subclass(&self, from: &str, to: &str) -> Option<bool> {
        if !self.classes.exists(from) || !self.classes.exists(to) {
            return None;
        }
        Some(self.classes.is_subclass(from, to))
    }
}

/// Classes declared in the file (nested ones too), with their binary names.
fn declared(src: &str, n: Node, prefix: &str, out: &mut Vec<(String, String)>) {
    let mut c = n.walk();
    for k in n.named_children(&mut c) {
        if is_class(k) {
            if let Some(name) = k.child_by_field_name("name") {
                let simple = src[name.byte_range()].to_string();
                let binary = format!("{prefix}{simple}");
                out.push((simple, binary.clone()));
                if let Some(body) = k.child_by_field_name("body") {
                    declared(src, body, &format!("{binary}$"), out);
                }
            }
        } else if matches!(k.kind(), "class_body" | "enum_body_declarations") {
            declared(src, k, prefix, out);
        }
    }
}

fn is_class(n: Node) -> bool {
    matches!(
        n.kind(),
        "class_declaration"
            | "enum_declaration"
            | "interface_declaration"
            | "record_declaration"
            | "annotation_type_declaration"
    )
}

/// The binary name of the named class around `at` (none inside an anonymous or local class).
fn enclosing_class(src: &str, at: Node, prefix: &str) -> Option<String> {
    let mut names = Vec::new();
    let mut n = at.parent();
    while let Some(p) = n {
        if is_class(p) {
            names.push(src[p.child_by_field_name("name")?.byte_range()].to_string());
            if p.parent().is_some_and(|q| q.kind() == "block") {
                return None;
            }
        } else if p.kind() == "class_body"
            && p.parent()
                .is_some_and(|q| q.kind() == "object_creation_expression")
        {
            return None;
        }
        n = p.parent();
    }
    names.reverse();
    (!names.is_empty()).then(|| format!("{prefix}{}", names.join("$")))
}

/// A source type without type arguments or annotations' whitespace (`Map<K, V>[]` →
/// `Map[]`).
fn erase(source: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for ch in source.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            c if depth == 0 && !c.is_whitespace() => out.push(c),
            _ => {}
        }
    }
    out
}

fn is_primitive(t: &str) -> bool {
    WIDENING.contains(&t) || t == "char" || t == "boolean"
}

/// A box's primitive (`java.lang.Integer` → `int`), else the type itself.
pub fn unbox(t: &str) -> String {
    BOXES
        .iter()
        .find(|(_, b)| *b == t)
        .map_or(t, |(p, _)| p)
        .to_string()
}

/// Is `t` numeric after unboxing?
pub fn is_numeric(t: &str) -> bool {
    let u = unbox(t);
    WIDENING.contains(&u.as_str()) || u == "char"
}

/// Primitive widening (or identity) from `from` to `to`.
fn widens(from: &str, to: &str) -> bool {
    if from == to {
        return true;
    }
    let rank = |t: &str| WIDENING.iter().position(|w| *w == t);
    let from_rank = if from == "char" { Some(2) } else { rank(from) };
    match (from_rank, rank(to)) {
        (Some(f), Some(t)) => f < t || (f == t && from == "char" && to == "int"),
        _ => false,
    }
}

/// Binary numeric promotion of operand types (unboxed); `None` unless all are numeric.
fn promote(types: &[&Ty]) -> Option<Ty> {
    let mut widest = "int";
    for t in types {
        let u = unbox(t);
        if !is_numeric(&u) {
            return None;
        }
        for w in ["long", "float", "double"] {
            if u == w
                && WIDENING.iter().position(|x| *x == w)
                    > WIDENING.iter().position(|x| *x == widest)
            {
                widest = w;
            }
        }
    }
    Some(widest.into())
}
