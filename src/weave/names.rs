//! What a patch's names and expressions refer to, for tree eligibility (`eligible`): the
//! location's locals, the class's fields and the patch's own declarations; the static type a call
//! is made on; what an expression's type is as far as string conversion cares; and whether an
//! exception the patch throws is made without effects.

use super::scope::Site;
use super::sequential::{is_value_type, Field, PurityOracle, Sequential};
use super::text;
use tree_sitter::Node;

/// Whether a call of `(name, arity)` on a receiver of a declared type returns a primitive:
/// `(type, name, arity)`.
pub(super) type ReturnsPrimitive<'a> = dyn Fn(&str, &str, usize) -> bool + 'a;

/// What a patch's names refer to: the location's locals, the class's fields, locals the patch
/// declares itself, and the enclosing class.
pub(super) struct Names<'a> {
    pub(super) site: &'a Site,
    pub(super) fields: &'a [(Field, bool)],
    pub(super) declared: Vec<String>,
    pub(super) class_name: Option<&'a str>,
    /// Whether a call of `(name, arity)` on a receiver of this declared type (simple name)
    /// returns a primitive, where the class path says (`Purity::call_returns_primitive`).
    pub(super) returns_primitive: Option<&'a ReturnsPrimitive<'a>>,
}

impl Names<'_> {
    /// The declared type of a local or field of this name.
    pub(super) fn type_of(&self, id: &str) -> Option<&str> {
        match self.site.locals.iter().find(|l| l.name == id) {
            Some(l) => Some(&l.ty),
            None => self
                .fields
                .iter()
                .find(|(f, _)| f.name == id)
                .map(|(f, _)| f.ty.as_str()),
        }
    }
    pub(super) fn is_variable(&self, id: &str) -> bool {
        self.type_of(id).is_some() || self.declared.iter().any(|d| d == id)
    }
}

/// The static type (simple name) a call or field access is made on: unqualified and `this`
/// calls are calls on the enclosing class (virtual ones dispatch to subclasses: the oracle
/// accounts for them); a class name must be safe to initialise; `"?"` when unknown.
pub(super) fn receiver_type(
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
pub(super) fn is_variable_read(n: Node) -> bool {
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
pub(super) enum Kind {
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
    pub(super) fn may_be_string(&self) -> bool {
        matches!(self, Kind::String | Kind::Jdk | Kind::Unknown)
    }
    /// Whether converting it to a string may call a `toString()` that is not final JDK code.
    pub(super) fn may_call_to_string(&self) -> bool {
        matches!(self, Kind::Ref(_) | Kind::Unknown)
    }
    pub(super) fn of_type(ty: &str) -> Kind {
        match ty.trim() {
            "String" | "java.lang.String" => Kind::String,
            t if is_value_type(t) => Kind::Value,
            t => Kind::Ref(simple_type(t)),
        }
    }
}

pub(super) fn kind_of(src: &str, n: Node, names: &Names) -> Kind {
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
            let primitive = names.returns_primitive.zip(call_receiver(src, n, names));
            let name = n.child_by_field_name("name").map(|m| text(src, m));
            let arity = n
                .child_by_field_name("arguments")
                .map(|a| a.named_child_count());
            if let (Some((returns, (ty, _))), Some(name), Some(arity)) = (primitive, name, arity) {
                if returns(ty, name, arity) {
                    return Kind::Value;
                }
            }
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

/// The declared type of a call's receiver where the statement says it, and whether the call is
/// static (the receiver names a class): a string literal, a local or field, a class name; for an
/// unqualified or `this.` call, the enclosing class, unless the call is in a class body the
/// statement writes (an anonymous or local class, whose own methods it calls).
pub(super) fn call_receiver<'s>(
    src: &'s str,
    call: Node,
    names: &'s Names,
) -> Option<(&'s str, bool)> {
    let enclosing = || {
        let bodies = std::iter::successors(call.parent(), |p| p.parent())
            .filter(|p| matches!(p.kind(), "class_body" | "enum_body" | "interface_body"))
            .count();
        // The statement is parsed inside a class of its own: one body is that one.
        names.class_name.filter(|_| bodies <= 1).map(|c| (c, false))
    };
    let Some(object) = call.child_by_field_name("object") else {
        return enclosing();
    };
    match object.kind() {
        "this" => enclosing(),
        "string_literal" => Some(("String", false)),
        "identifier" => {
            let id = text(src, object);
            // A name the statement declares may hide a field of another type.
            if names.declared.iter().any(|d| d == id) {
                return None;
            }
            match names.type_of(id) {
                Some(ty) => Some((ty, false)),
                None if names.is_variable(id) => None,
                None => id.starts_with(char::is_uppercase).then_some((id, true)),
            }
        }
        _ => None,
    }
}

/// A final JDK value class by its simple name (`String`, `Integer`, ...): its methods return only
/// strings, primitives, boxed values and arrays or streams of them.
pub(super) fn is_jdk_value_class(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase()) && is_value_type(name)
}

/// A value converted to a string (concatenation, `+=` on a string, an `assert` message, a
/// one-argument exception constructor): its `toString()` must be pure and closed.
pub(super) fn to_string_is_pure(kind: &Kind, pure: PurityOracle) -> Result<(), Sequential> {
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
pub(super) fn thrown_exception(
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
pub(super) fn simple_type(ty: &str) -> String {
    let base = ty.split('<').next().unwrap_or(ty).trim_end_matches("[]");
    base.rsplit('.').next().unwrap_or(base).to_string()
}
