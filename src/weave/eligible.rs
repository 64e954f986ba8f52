//! Tree eligibility: a woven patch may be deduplicated through the state-transition tree only when
//! its change scope is small and comparable — it writes only locals and fields of this class of
//! allowlisted types (primitives, boxed primitives, `String`), calls only pure and closed methods
//! (explicitly, or implicitly through string conversion), creates no objects, initialises no
//! class whose initialiser has effects and holds no loops. Every other patch runs sequentially,
//! one round per patch.

use super::scope::Site;
use super::text;
use tree_sitter::Node;

/// Why a woven patch runs sequentially (one round of its own) rather than through the
/// state-transition tree; the message counts in `extra.sequential_reasons`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Sequential {
    /// The run does not deduplicate (`Plan::enable_tree` was not called).
    #[error("deduplication is off")]
    DedupOff,
    /// The patch is not woven at all (why, as `Plan::excluded` says).
    #[error("not woven: {0}")]
    NotWoven(String),
    #[error("does not parse")]
    DoesNotParse,
    #[error("it holds a loop")]
    Loop,
    #[error("it creates an object")]
    CreatesObject,
    #[error("it holds a lambda or a class")]
    LambdaOrClass,
    #[error("it holds a try or synchronized block")]
    TryOrSynchronized,
    /// It calls a method (by name) that may change state.
    #[error("it calls `{0}`, which may change state")]
    ImpureCall(String),
    /// It reads a name declared outside the class that may initialise a class with effects.
    #[error("it reads `{0}`, which may initialise a class whose initialiser has effects")]
    StaticRead(String),
    /// It assigns a local or field whose type is not a value type.
    #[error("it assigns `{name}` of type {ty}")]
    AssignsReference { name: String, ty: String },
    #[error("it assigns a field of another object")]
    ForeignField,
    #[error("it assigns an array element or other location")]
    OtherTarget,
    #[error("it assigns final field `{0}`")]
    FinalField(String),
    #[error("it assigns `{0}`, not a field of this class")]
    NotAField(String),
    /// It returns a value of this (not value) type.
    #[error("it returns a {0}")]
    Returns(String),
    /// It uses a class (by simple name) whose initialiser has effects.
    #[error("it uses class `{0}`, whose initialiser has effects")]
    ClassInit(String),
    /// It throws a new exception whose constructor may change state.
    #[error("it constructs `{0}`, which may change state")]
    ImpureConstructor(String),
    #[error("it converts a value to a string, which may call a `toString()` that changes state")]
    ToString,
    /// It assigns a static field, and no name of the enclosing class can be written here.
    #[error("it assigns static field `{0}` of a class that cannot be named here")]
    UnnameableStatic(String),
}

/// A field of the enclosing class that a patch may assign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub ty: String,
    pub is_static: bool,
}

/// What eligibility asks of the purity analysis (`project::purity::Purity`).
pub trait Oracle {
    /// Whether a call `qualifier.name(arity args)` (`qualifier`: a class simple name or a
    /// declared type; `None`: unknown receiver; `name` `<init>`: a constructor) changes no state,
    /// whatever class the receiver turns out to be.
    fn call_is_pure(&self, qualifier: Option<&str>, name: &str, arity: usize) -> bool;
    /// Whether initialising the class of this simple name can have no effect a test could see.
    fn init_is_safe(&self, class: &str) -> bool;
    /// Whether reading a static field of this name declared outside the enclosing class cannot
    /// initialise a class whose initialiser has effects.
    fn static_read_is_safe(&self, field: &str) -> bool;
}

impl Oracle for crate::bytecode::purity::Purity {
    fn call_is_pure(&self, qualifier: Option<&str>, name: &str, arity: usize) -> bool {
        crate::bytecode::purity::Purity::call_is_pure(self, qualifier, name, arity)
    }
    fn init_is_safe(&self, class: &str) -> bool {
        crate::bytecode::purity::Purity::init_is_safe(self, class)
    }
    fn static_read_is_safe(&self, field: &str) -> bool {
        crate::bytecode::purity::Purity::static_read_is_safe(self, field)
    }
}

/// A bare call oracle, for tests of weaving that do not depend on the class path: every class
/// initialisation counts as safe.
impl<F: Fn(Option<&str>, &str, usize) -> bool> Oracle for F {
    fn call_is_pure(&self, qualifier: Option<&str>, name: &str, arity: usize) -> bool {
        self(qualifier, name, arity)
    }
    fn init_is_safe(&self, _class: &str) -> bool {
        true
    }
    fn static_read_is_safe(&self, _field: &str) -> bool {
        true
    }
}

/// The purity oracle eligibility consults.
pub type PurityOracle<'a> = &'a dyn Oracle;

const VALUE_TYPES: &[&str] = &[
    "int",
    "long",
    "short",
    "byte",
    "char",
    "boolean",
    "float",
    "double",
    "Integer",
    "Long",
    "Short",
    "Byte",
    "Character",
    "Boolean",
    "Float",
    "Double",
    "String",
    "java.lang.Integer",
    "java.lang.Long",
    "java.lang.Short",
    "java.lang.Byte",
    "java.lang.Character",
    "java.lang.Boolean",
    "java.lang.Float",
    "java.lang.Double",
    "java.lang.String",
];

/// A type whose values can be copied, compared by value and restored.
pub fn is_value_type(ty: &str) -> bool {
    VALUE_TYPES.contains(&ty.trim())
}

/// Fields declared directly in the class body holding the enclosing method.
pub fn class_fields(src: &str, root: Node, site: &Site) -> Vec<(Field, bool)> {
    let Some(method) = root.descendant_for_byte_range(site.method.start, site.method.end) else {
        return vec![];
    };
    let Some(body) = method.parent() else {
        return vec![];
    };
    let mut out = Vec::new();
    let mut c = body.walk();
    for decl in body.named_children(&mut c) {
        if decl.kind() != "field_declaration" {
            continue;
        }
        let mods = decl
            .named_child(0)
            .filter(|m| m.kind() == "modifiers")
            .map(|m| text(src, m).to_string())
            .unwrap_or_default();
        let words: Vec<&str> = mods.split_whitespace().collect();
        let Some(ty) = decl.child_by_field_name("type") else {
            continue;
        };
        let mut dc = decl.walk();
        for d in decl.children_by_field_name("declarator", &mut dc) {
            let Some(name) = d.child_by_field_name("name") else {
                continue;
            };
            let dims = d.child_by_field_name("dimensions").is_some();
            out.push((
                Field {
                    name: text(src, name).to_string(),
                    ty: if dims {
                        format!("{}[]", text(src, ty))
                    } else {
                        text(src, ty).to_string()
                    },
                    is_static: words.contains(&"static"),
                },
                words.contains(&"final"),
            ));
        }
    }
    out
}

/// What a patch's names refer to: the location's locals, the class's fields, locals the patch
/// declares itself, and the enclosing class.
struct Names<'a> {
    site: &'a Site,
    fields: &'a [(Field, bool)],
    declared: Vec<String>,
    class_name: Option<&'a str>,
}

impl Names<'_> {
    /// The declared type of a local or field of this name.
    fn type_of(&self, id: &str) -> Option<&str> {
        match self.site.locals.iter().find(|l| l.name == id) {
            Some(l) => Some(&l.ty),
            None => self
                .fields
                .iter()
                .find(|(f, _)| f.name == id)
                .map(|(f, _)| f.ty.as_str()),
        }
    }
    fn is_variable(&self, id: &str) -> bool {
        self.type_of(id).is_some() || self.declared.iter().any(|d| d == id)
    }
}

/// Decides one patched statement: `Ok(fields it may assign)` or why it runs sequentially.
pub fn check(
    stmt: &str,
    site: &Site,
    fields: &[(Field, bool)],
    class_name: Option<&str>,
    pure: PurityOracle,
) -> Result<Vec<Field>, Sequential> {
    let wrapped = format!("class __PV {{ void __m() {{\n{stmt}\n}} }}");
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_java::LANGUAGE.into())
        .expect("tree-sitter-java matches the tree-sitter version");
    let tree = p.parse(&wrapped, None).ok_or(Sequential::DoesNotParse)?;
    let mut names = Names {
        site,
        fields,
        declared: Vec::new(),
        class_name,
    };
    let mut all = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
        if n.kind() == "variable_declarator" {
            if let Some(name) = n.child_by_field_name("name") {
                names.declared.push(text(&wrapped, name).to_string());
            }
        }
        all.push(n);
    }
    let src = wrapped.as_str();
    let mut assigned: Vec<Field> = Vec::new();
    for n in all {
        match n.kind() {
            "while_statement" | "for_statement" | "enhanced_for_statement" | "do_statement" => {
                return Err(Sequential::Loop)
            }
            "object_creation_expression"
                if n.parent().is_some_and(|p| p.kind() == "throw_statement") =>
            {
                thrown_exception(src, n, &names, pure)?
            }
            "object_creation_expression" | "array_creation_expression" => {
                return Err(Sequential::CreatesObject)
            }
            "lambda_expression" | "method_reference" | "class_body"
                if n.parent().is_some_and(|p| p.kind() != "class_declaration") =>
            {
                return Err(Sequential::LambdaOrClass)
            }
            "synchronized_statement" | "try_statement" | "try_with_resources_statement" => {
                return Err(Sequential::TryOrSynchronized)
            }
            "method_invocation" => {
                let name = n
                    .child_by_field_name("name")
                    .map(|x| text(src, x))
                    .unwrap_or("");
                let arity = n
                    .child_by_field_name("arguments")
                    .map(|a| a.named_child_count())
                    .unwrap_or(0);
                let qualifier = receiver_type(src, n.child_by_field_name("object"), &names, pure)?;
                if !pure.call_is_pure(Some(&qualifier), name, arity) {
                    return Err(Sequential::ImpureCall(name.to_string()));
                }
            }
            "field_access" => {
                if let Some(o) = n.child_by_field_name("object") {
                    receiver_type(src, Some(o), &names, pure)?;
                }
            }
            "identifier" if is_variable_read(n) => {
                let id = text(src, n);
                if !names.is_variable(id) && !pure.static_read_is_safe(id) {
                    return Err(Sequential::StaticRead(id.to_string()));
                }
            }
            "binary_expression"
                if n.child_by_field_name("operator").map(|o| text(src, o)) == Some("+") =>
            {
                let (Some(a), Some(b)) = (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ) else {
                    continue;
                };
                let (ka, kb) = (kind_of(src, a, &names), kind_of(src, b, &names));
                for (this, other) in [(&ka, &kb), (&kb, &ka)] {
                    if this.may_call_to_string() && other.may_be_string() {
                        to_string_is_pure(this, pure)?;
                    }
                }
            }
            "assert_statement" => {
                if let Some(detail) = n.named_child(1) {
                    to_string_is_pure(&kind_of(src, detail, &names), pure)?;
                }
            }
            "assignment_expression" | "update_expression" => {
                let target = match n.kind() {
                    "assignment_expression" => n.child_by_field_name("left"),
                    _ => n.named_child(0),
                };
                let Some(target) = target else { continue };
                let compound = n.child_by_field_name("operator").map(|o| text(src, o));
                if let (Some("+="), Some(right)) = (compound, n.child_by_field_name("right")) {
                    if kind_of(src, target, &names).may_be_string() {
                        to_string_is_pure(&kind_of(src, right, &names), pure)?;
                    }
                }
                let field = match target.kind() {
                    "identifier" => {
                        let id = text(src, target);
                        if let Some(l) = site.locals.iter().find(|l| l.name == id) {
                            if !is_value_type(&l.ty) {
                                return Err(Sequential::AssignsReference {
                                    name: id.to_string(),
                                    ty: l.ty.clone(),
                                });
                            }
                            continue;
                        }
                        id
                    }
                    "field_access" => {
                        let obj = target.child_by_field_name("object").map(|o| text(src, o));
                        let own = obj == Some("this") || (obj.is_some() && obj == class_name);
                        if !own {
                            return Err(Sequential::ForeignField);
                        }
                        target
                            .child_by_field_name("field")
                            .map(|f| text(src, f))
                            .unwrap_or("")
                    }
                    _ => return Err(Sequential::OtherTarget),
                };
                match fields.iter().find(|(f, _)| f.name == field) {
                    Some((f, false)) if is_value_type(&f.ty) => {
                        if !assigned.contains(f) {
                            assigned.push(f.clone());
                        }
                    }
                    Some((f, true)) => return Err(Sequential::FinalField(f.name.clone())),
                    Some((f, _)) => {
                        return Err(Sequential::AssignsReference {
                            name: f.name.clone(),
                            ty: f.ty.clone(),
                        })
                    }
                    None => return Err(Sequential::NotAField(field.to_string())),
                }
            }
            "return_statement"
                if n.named_child_count() > 0 && !is_value_type(&site.return_type) =>
            {
                return Err(Sequential::Returns(site.return_type.clone()));
            }
            _ => {}
        }
    }
    Ok(assigned)
}

/// The static type (simple name) a call or field access is made on: unqualified and `this`
/// calls are calls on the enclosing class (virtual ones dispatch to subclasses: the oracle
/// accounts for them); a class name must be safe to initialise; `"?"` when unknown.
fn receiver_type(
    src: &str,
    object: Option<Node>,
    names: &Names,
    pure: PurityOracle,
) -> Result<String, Sequential> {
    let enclosing = || names.class_name.unwrap_or("?").to_string();
    let Some(o) = object else {
        return Ok(enclosing());
    };
    let class_ref = |class: &str| -> Result<String, Sequential> {
        if Some(class) != names.class_name && !pure.init_is_safe(class) {
            return Err(Sequential::ClassInit(class.to_string()));
        }
        Ok(class.to_string())
    };
    match o.kind() {
        "identifier" => {
            let id = text(src, o);
            match names.type_of(id) {
                Some(ty) => Ok(simple_type(ty)),
                None if names.is_variable(id) => Ok("?".into()),
                None => class_ref(id),
            }
        }
        "this" => Ok(enclosing()),
        // `a.b.C` or `Outer.Inner`: possibly a nested class, initialised by the access.
        "field_access" | "scoped_identifier" => {
            let last = o
                .child_by_field_name("field")
                .or_else(|| o.child_by_field_name("name"))
                .map(|f| text(src, f))
                .unwrap_or("?");
            class_ref(last)?;
            Ok("?".into())
        }
        _ => Ok("?".into()),
    }
}

/// An identifier in a position where it names a variable (not a method, a field after `.`, a
/// label, a declaration or a class).
fn is_variable_read(n: Node) -> bool {
    let Some(p) = n.parent() else { return false };
    let is_field = |f: &str| p.child_by_field_name(f).is_some_and(|c| c.id() == n.id());
    match p.kind() {
        "method_invocation" => !is_field("name") && !is_field("object"),
        "field_access" => !is_field("field") && !is_field("object"),
        "variable_declarator" => !is_field("name"),
        "labeled_statement"
        | "break_statement"
        | "continue_statement"
        | "switch_label"
        | "method_declaration"
        | "class_declaration"
        | "formal_parameter"
        | "catch_formal_parameter"
        | "scoped_identifier"
        | "marker_annotation"
        | "annotation"
        | "inferred_parameters"
        | "lambda_expression" => false,
        _ => true,
    }
}

/// What an expression's static type is known to be, as far as string conversion cares.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// A primitive or a boxed primitive: converted by final JDK code.
    Value,
    String,
    Null,
    /// A reference of this declared (simple) type: converted by its `toString()`.
    Ref(String),
    /// Returned by a method of a final JDK value class: maybe a string, converted by JDK code.
    Jdk,
    Unknown,
}

impl Kind {
    fn may_be_string(&self) -> bool {
        matches!(self, Kind::String | Kind::Jdk | Kind::Unknown)
    }
    /// Whether converting it to a string may call a `toString()` that is not final JDK code.
    fn may_call_to_string(&self) -> bool {
        matches!(self, Kind::Ref(_) | Kind::Unknown)
    }
    fn of_type(ty: &str) -> Kind {
        match ty.trim() {
            "String" | "java.lang.String" => Kind::String,
            t if is_value_type(t) => Kind::Value,
            t => Kind::Ref(simple_type(t)),
        }
    }
}

fn kind_of(src: &str, n: Node, names: &Names) -> Kind {
    match n.kind() {
        "decimal_integer_literal"
        | "hex_integer_literal"
        | "octal_integer_literal"
        | "binary_integer_literal"
        | "decimal_floating_point_literal"
        | "hex_floating_point_literal"
        | "true"
        | "false"
        | "character_literal"
        | "unary_expression"
        | "update_expression"
        | "instanceof_expression" => Kind::Value,
        "string_literal" | "text_block" => Kind::String,
        "null_literal" => Kind::Null,
        "identifier" => names
            .type_of(text(src, n))
            .map_or(Kind::Unknown, Kind::of_type),
        "field_access" if n.child_by_field_name("object").map(|o| text(src, o)) == Some("this") => {
            n.child_by_field_name("field")
                .and_then(|f| names.fields.iter().find(|(x, _)| x.name == text(src, f)))
                .map_or(Kind::Unknown, |(f, _)| Kind::of_type(&f.ty))
        }
        "parenthesized_expression" => n
            .named_child(0)
            .map_or(Kind::Unknown, |e| kind_of(src, e, names)),
        "cast_expression" => n
            .child_by_field_name("type")
            .map_or(Kind::Unknown, |t| Kind::of_type(text(src, t))),
        "assignment_expression" => n
            .child_by_field_name("left")
            .map_or(Kind::Unknown, |l| kind_of(src, l, names)),
        "ternary_expression" => {
            let branch = |f: &str| {
                n.child_by_field_name(f)
                    .map_or(Kind::Unknown, |b| kind_of(src, b, names))
            };
            let (a, b) = (branch("consequence"), branch("alternative"));
            if a == b {
                a
            } else {
                Kind::Unknown
            }
        }
        "binary_expression" => {
            let op = n.child_by_field_name("operator").map(|o| text(src, o));
            if op != Some("+") {
                return Kind::Value;
            }
            let side = |f: &str| {
                n.child_by_field_name(f)
                    .map_or(Kind::Unknown, |b| kind_of(src, b, names))
            };
            match (side("left"), side("right")) {
                (Kind::String, _) | (_, Kind::String) => Kind::String,
                (Kind::Value, Kind::Value) => Kind::Value,
                _ => Kind::Unknown,
            }
        }
        "method_invocation" => {
            let Some(object) = n.child_by_field_name("object") else {
                return Kind::Unknown;
            };
            let class = (object.kind() == "identifier" && !names.is_variable(text(src, object)))
                .then(|| text(src, object));
            match (class, kind_of(src, object, names)) {
                (Some("Math" | "StrictMath"), _) => Kind::Value,
                // What final JDK value classes return (strings, primitives, arrays, streams of
                // them) converts to a string through JDK code.
                (Some(c), _) if is_jdk_value_class(c) => Kind::Jdk,
                (None, Kind::String | Kind::Value) => Kind::Jdk,
                _ => Kind::Unknown,
            }
        }
        _ => Kind::Unknown,
    }
}

/// A final JDK value class by its simple name (`String`, `Integer`, ...): its methods return only
/// strings, primitives, boxed values and arrays or streams of them.
fn is_jdk_value_class(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase()) && is_value_type(name)
}

/// A value converted to a string (concatenation, `+=` on a string, an `assert` message, a
/// one-argument exception constructor): its `toString()` must be pure and closed.
fn to_string_is_pure(kind: &Kind, pure: PurityOracle) -> Result<(), Sequential> {
    let ok = match kind {
        Kind::Value | Kind::String | Kind::Null | Kind::Jdk => true,
        Kind::Ref(ty) => pure.call_is_pure(Some(ty), "toString", 0),
        Kind::Unknown => false,
    };
    if ok {
        Ok(())
    } else {
        Err(Sequential::ToString)
    }
}

/// `throw new X(...)`: constructing X (and initialising its class) must change no existing
/// state. A one-argument constructor may convert its argument to a string (`Throwable(Throwable
/// cause)` calls `cause.toString()`, `AssertionError(Object)` `String.valueOf`).
fn thrown_exception(
    src: &str,
    n: Node,
    names: &Names,
    pure: PurityOracle,
) -> Result<(), Sequential> {
    let created = || Err(Sequential::CreatesObject);
    let Some(ty) = n.child_by_field_name("type") else {
        return created();
    };
    if n.child_by_field_name("body").is_some() {
        return created();
    }
    let name = simple_type(text(src, ty));
    let args = n.child_by_field_name("arguments");
    let arity = args.map(|a| a.named_child_count()).unwrap_or(0);
    if Some(name.as_str()) != names.class_name && !pure.init_is_safe(&name) {
        return Err(Sequential::ClassInit(name));
    }
    if !pure.call_is_pure(Some(&name), "<init>", arity) {
        return Err(Sequential::ImpureConstructor(name));
    }
    if let Some(arg) = args.and_then(|a| a.named_child(0)).filter(|_| arity == 1) {
        to_string_is_pure(&kind_of(src, arg, names), pure)?;
    }
    Ok(())
}

/// `java.util.List<T>` → `List`.
fn simple_type(ty: &str) -> String {
    let base = ty.split('<').next().unwrap_or(ty).trim_end_matches("[]");
    base.rsplit('.').next().unwrap_or(base).to_string()
}

#[cfg(test)]
#[path = "eligible_tests.rs"]
mod tests;
