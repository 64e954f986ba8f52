//! Expressions and types of Recoder's printed AST as Java text (the statements' part is in
//! `recoder_tree.rs`, which this module belongs to).

use super::{cond, join, text, unsupported, word, words, Node, Printer, Res, TreeError};

/// The `[]` of a type's (or declarator's) dimensions.
pub(super) fn dims(n: &Node) -> Res<String> {
    let dim = |d: &Node| match d.kind() {
        "None" if d.kids.is_empty() => Ok("[]"),
        k => Err(Box::new(TreeError::BadDimension(k.into()))),
    };
    n.kids("dimensions").iter().map(dim).collect()
}

pub(super) fn ty(n: &Node) -> Res<String> {
    match n.kind() {
        "BasicType" | "Type" => {
            n.check(&["name", "dimensions"])?;
            let name = n.attr("name").map(text).transpose()?;
            Ok(name.unwrap_or_default() + &dims(n)?)
        }
        "ReferenceType" => {
            n.check(&["name", "dimensions", "arguments", "sub_type", "subtype"])?;
            let mut s = text(n.need("name")?)? + &type_args(n, "arguments")?;
            if let Some(sub) = n.attr("sub_type").or_else(|| n.attr("subtype")) {
                s += &format!(".{}", ty(sub.only()?)?);
            }
            Ok(s + &dims(n)?)
        }
        _ => Err(unsupported(n)),
    }
}

/// `T`, `?`, `? extends T` or `? super T`.
pub(super) fn type_arg(n: &Node) -> Res<String> {
    if n.kind() != "TypeArgument" {
        return ty(n);
    }
    n.check(&["type", "pattern_type"])?;
    let t = n.attr("type").map(|t| ty(t.only()?)).transpose()?;
    match (n.attr("pattern_type").map(text).transpose()?, t) {
        (Some(w), None) if w == "?" => Ok(w),
        (Some(bound), Some(t)) => Ok(format!("? {bound} {t}")),
        (None, Some(t)) => Ok(t),
        _ => Err(Box::new(TreeError::UntypedArgument)),
    }
}

pub(super) fn type_args(n: &Node, attr: &str) -> Res<String> {
    match n.attr(attr) {
        Some(a) => Ok(format!("<{}>", join(&a.kids, ", ", type_arg)?)),
        None => Ok(String::new()),
    }
}

pub(super) fn args(n: &Node) -> Res<String> {
    join(n.kids("arguments"), ", ", expr)
}

pub(super) fn expr(n: &Node) -> Res<String> {
    // One printer per kind keeps the recursion's stack frames small.
    let print: Printer = match n.kind() {
        "Literal" => |n| {
            n.check_expr(&["value"])
                .and_then(|()| text(n.need("value")?))
        },
        "MemberReference" => member_ref,
        "SuperMemberReference" => |n| Ok(format!("super.{}", member_ref(n)?)),
        "MethodInvocation" | "SuperMethodInvocation" => invocation,
        "ExplicitConstructorInvocation" | "SuperConstructorInvocation" => invocation,
        "This" => |n| n.check_expr(&[]).map(|()| "this".into()),
        "ClassCreator" | "InnerClassCreator" => creator,
        "ArrayCreator" => array_creator,
        "ArrayInitializer" => array_init,
        "ClassReference" | "VoidClassReference" => class_ref,
        "BinaryOperation" => binary,
        "TernaryExpression" => ternary,
        "Assignment" => |n| Ok(format!("({})", assignment(n)?)),
        "Cast" => cast,
        _ => return Err(unsupported(n)),
    };
    let core = print(n)?;
    decorate(n, core)
}

pub(super) fn member_ref(n: &Node) -> Res<String> {
    n.check_expr(&["member"])?;
    text(n.need("member")?)
}

/// A call: `<T>m(a, b)`, `super.m(a)`, `this(a)` or `super(a)`.
pub(super) fn invocation(n: &Node) -> Res<String> {
    if n.kind().ends_with("ConstructorInvocation") {
        n.check_expr(&["arguments", "type_arguments"])?;
    } else {
        n.check_expr(&["member", "arguments", "type_arguments"])?;
    }
    let targs = type_args(n, "type_arguments")?;
    let callee = match n.kind() {
        "ExplicitConstructorInvocation" => targs + "this",
        "SuperConstructorInvocation" => targs + "super",
        "SuperMethodInvocation" => format!("super.{targs}{}", text(n.need("member")?)?),
        _ => targs + &text(n.need("member")?)?,
    };
    Ok(format!("{callee}({})", args(n)?))
}

pub(super) fn creator(n: &Node) -> Res<String> {
    n.check_expr(&["type", "arguments", "constructor_type_arguments"])?;
    let targs = type_args(n, "constructor_type_arguments")?;
    Ok(format!("new {targs}{}({})", ty(n.one("type")?)?, args(n)?))
}

pub(super) fn array_creator(n: &Node) -> Res<String> {
    n.check_expr(&["type", "dimensions", "initializer"])?;
    let mut s = format!("new {}", ty(n.one("type")?)?);
    for d in n.kids("dimensions") {
        s += &match d.kind() {
            "None" if d.kids.is_empty() => "[]".into(),
            _ => format!("[{}]", expr(d)?),
        };
    }
    match n.attr("initializer") {
        Some(i) => Ok(s + &expr(i.only()?)?),
        None => Ok(s),
    }
}

pub(super) fn array_init(n: &Node) -> Res<String> {
    n.check_expr(&["initializers"])?;
    Ok(format!("{{{}}}", join(n.kids("initializers"), ", ", expr)?))
}

pub(super) fn class_ref(n: &Node) -> Res<String> {
    if n.kind() == "VoidClassReference" {
        return n.check_expr(&[]).map(|()| "void.class".into());
    }
    n.check_expr(&["type"])?;
    Ok(format!("{}.class", ty(n.one("type")?)?))
}

pub(super) fn binary(n: &Node) -> Res<String> {
    n.check_expr(&["operator", "operandl", "operandr"])?;
    let l = expr(n.one("operandl")?)?;
    let r = n.one("operandr")?;
    let r = match r.kind() {
        "ReferenceType" | "BasicType" => ty(r)?, // `instanceof`
        _ => expr(r)?,
    };
    Ok(format!("({l} {} {r})", text(n.need("operator")?)?))
}

pub(super) fn ternary(n: &Node) -> Res<String> {
    n.check_expr(&["condition", "if_true", "if_false"])?;
    let c = cond(n.need("condition")?)?;
    let (t, f) = (expr(n.one("if_true")?)?, expr(n.one("if_false")?)?);
    Ok(format!("({c}?{t}:{f})"))
}

pub(super) fn cast(n: &Node) -> Res<String> {
    n.check_expr(&["type", "expression"])?;
    Ok(format!(
        "({}){}",
        ty(n.one("type")?)?,
        expr(n.one("expression")?)?
    ))
}

/// An expression where Java takes a statement expression: an assignment is left bare.
pub(super) fn top_expr(n: &Node) -> Res<String> {
    match n.kind() {
        "Assignment" => assignment(n),
        _ => expr(n),
    }
}

pub(super) fn assignment(n: &Node) -> Res<String> {
    n.check(&["expressionl", "value", "type"])?;
    let target = expr(n.one("expressionl")?)?;
    let value = expr(n.one("value")?)?;
    Ok(format!("{target} {} {value}", text(n.need("type")?)?))
}

/// Puts prefix operators, qualifier, selectors and postfix operators around an expression's core.
pub(super) fn decorate(n: &Node, core: String) -> Res<String> {
    let qual = match n.attr("qualifier").map(Node::only).transpose()? {
        Some(q) if q.kids.is_empty() => word(q.kind())? + ".",
        Some(q) => expr(q)? + ".",
        None => String::new(),
    };
    let mut sels = String::new();
    for s in n.kids("selectors") {
        sels += &if s.kind() == "ArraySelector" {
            s.check(&["index"])?;
            format!("[{}]", expr(s.one("index")?)?)
        } else {
            format!(".{}", expr(s)?)
        };
    }
    let post = n.attr("postfix_operators").map(words).transpose()?;
    let post = post.unwrap_or_default().concat();
    let wrap = n.kind() == "Cast"; // `((T)x).m()` is not `(T)x.m()`
    let core = if wrap && !(qual.is_empty() && sels.is_empty() && post.is_empty()) {
        format!("({core})")
    } else {
        core
    };
    let pre = n.attr("prefix_operators").map(words).transpose()?;
    let mut out = String::new();
    for piece in pre
        .unwrap_or_default()
        .iter()
        .chain([&(qual + &core + &sels)])
    {
        // `-` before `-x` must not become the decrement `--x`.
        let sign = |c: Option<char>| matches!(c, Some('+' | '-'));
        if sign(out.chars().last()) && sign(piece.chars().next()) {
            out.push(' ');
        }
        out += piece;
    }
    Ok(out + &post)
}
