//! Tree eligibility: a woven patch may be deduplicated through the state-transition tree only when
//! its change scope is small and comparable — it writes only locals and fields of this class of
//! allowlisted types (primitives, boxed primitives, `String`), calls only pure methods, creates no
//! objects and holds no loops. Every other patch runs sequentially, one round per patch.

use super::scope::Site;
use tree_sitter::Node;

/// A field of the enclosing class that a patch may assign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub ty: String,
    pub is_static: bool,
}

/// Whether a call `qualifier.name(arity args)` is free of side effects.
pub type PurityOracle<'a> = &'a dyn Fn(Option<&str>, &str, usize) -> bool;

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

fn text<'a>(src: &'a str, n: Node) -> &'a str {
    &src[n.byte_range()]
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

/// Decides one patched statement: `Ok(fields it may assign)` or why it runs sequentially.
pub fn check(
    stmt: &str,
    site: &Site,
    fields: &[(Field, bool)],
    class_name: Option<&str>,
    pure: PurityOracle,
) -> Result<Vec<Field>, String> {
    let wrapped = format!("class __PV {{ void __m() {{\n{stmt}\n}} }}");
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_java::LANGUAGE.into())
        .expect("tree-sitter-java matches the tree-sitter version");
    let tree = p.parse(&wrapped, None).ok_or("does not parse")?;
    let mut assigned: Vec<Field> = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
        match n.kind() {
            "while_statement" | "for_statement" | "enhanced_for_statement" | "do_statement" => {
                return Err("it holds a loop".into())
            }
            "object_creation_expression" if thrown_exception(&wrapped, n, pure) => {}
            "object_creation_expression" | "array_creation_expression" => {
                return Err("it creates an object".into())
            }
            "lambda_expression" | "method_reference" | "class_body"
                if n.parent().is_some_and(|p| p.kind() != "class_declaration") =>
            {
                return Err("it holds a lambda or a class".into())
            }
            "synchronized_statement" | "try_statement" | "try_with_resources_statement" => {
                return Err("it holds a try or synchronized block".into())
            }
            "method_invocation" => {
                let name = n
                    .child_by_field_name("name")
                    .map(|x| text(&wrapped, x))
                    .unwrap_or("");
                let arity = n
                    .child_by_field_name("arguments")
                    .map(|a| a.named_child_count())
                    .unwrap_or(0);
                let qualifier = n
                    .child_by_field_name("object")
                    .and_then(|o| match o.kind() {
                        "identifier" => {
                            let id = text(&wrapped, o);
                            match site.locals.iter().find(|l| l.name == id) {
                                Some(l) => Some(simple_type(&l.ty)),
                                None => fields
                                    .iter()
                                    .find(|(f, _)| f.name == id)
                                    .map(|(f, _)| simple_type(&f.ty))
                                    .or(Some(id.to_string())),
                            }
                        }
                        "this" => class_name.map(str::to_string),
                        // A receiver of unknown type: no class is named like this, so not pure.
                        _ => Some("?".to_string()),
                    });
                if !pure(qualifier.as_deref(), name, arity) {
                    return Err(format!("it calls `{name}`, which may change state"));
                }
            }
            "assignment_expression" | "update_expression" => {
                let target = match n.kind() {
                    "assignment_expression" => n.child_by_field_name("left"),
                    _ => n.named_child(0),
                };
                let Some(target) = target else { continue };
                let field = match target.kind() {
                    "identifier" => {
                        let id = text(&wrapped, target);
                        if let Some(l) = site.locals.iter().find(|l| l.name == id) {
                            if !is_value_type(&l.ty) {
                                return Err(format!("it assigns `{id}` of type {}", l.ty));
                            }
                            continue;
                        }
                        id
                    }
                    "field_access" => {
                        let obj = target
                            .child_by_field_name("object")
                            .map(|o| text(&wrapped, o));
                        let own = obj == Some("this") || (obj.is_some() && obj == class_name);
                        if !own {
                            return Err("it assigns a field of another object".into());
                        }
                        target
                            .child_by_field_name("field")
                            .map(|f| text(&wrapped, f))
                            .unwrap_or("")
                    }
                    _ => return Err("it assigns an array element or other location".into()),
                };
                match fields.iter().find(|(f, _)| f.name == field) {
                    Some((f, false)) if is_value_type(&f.ty) => {
                        if site.locals.iter().any(|l| l.name == f.name) && !f.is_static {
                            // `this.f` while a local `f` shadows it: fine, restored through `this.`.
                        }
                        if !assigned.contains(f) {
                            assigned.push(f.clone());
                        }
                    }
                    Some((f, true)) => return Err(format!("it assigns final field `{}`", f.name)),
                    Some((f, _)) => {
                        return Err(format!("it assigns `{}` of type {}", f.name, f.ty))
                    }
                    None => return Err(format!("it assigns `{field}`, not a field of this class")),
                }
            }
            "return_statement"
                if n.named_child_count() > 0 && !is_value_type(&site.return_type) =>
            {
                return Err(format!("it returns a {}", site.return_type));
            }
            _ => {}
        }
    }
    Ok(assigned)
}

/// JDK exceptions whose construction changes no existing state.
const JDK_EXCEPTIONS: &[&str] = &[
    "Exception",
    "RuntimeException",
    "Error",
    "AssertionError",
    "IllegalStateException",
    "IllegalArgumentException",
    "ArithmeticException",
    "UnsupportedOperationException",
    "NullPointerException",
    "IndexOutOfBoundsException",
    "ArrayIndexOutOfBoundsException",
    "StringIndexOutOfBoundsException",
    "NumberFormatException",
    "ClassCastException",
];

/// `throw new X(...)` where constructing X changes no existing state.
fn thrown_exception(src: &str, n: Node, pure: PurityOracle) -> bool {
    if n.parent().is_none_or(|p| p.kind() != "throw_statement") {
        return false;
    }
    let Some(ty) = n.child_by_field_name("type") else {
        return false;
    };
    let name = simple_type(text(src, ty));
    let arity = n
        .child_by_field_name("arguments")
        .map(|a| a.named_child_count())
        .unwrap_or(0);
    n.child_by_field_name("body").is_none()
        && (JDK_EXCEPTIONS.contains(&name.as_str()) || pure(Some(&name), "<init>", arity))
}

/// `java.util.List<T>` → `List`.
fn simple_type(ty: &str) -> String {
    let base = ty.split('<').next().unwrap_or(ty).trim_end_matches("[]");
    base.rsplit('.').next().unwrap_or(base).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields() -> Vec<(Field, bool)> {
        let f = |n: &str, t: &str, s: bool| Field {
            name: n.into(),
            ty: t.into(),
            is_static: s,
        };
        vec![
            (f("total", "int", false), false),
            (f("names", "java.util.List<String>", false), false),
            (f("LIMIT", "int", true), true),
            (f("count", "long", true), false),
        ]
    }

    fn site() -> Site {
        let src = "class A { int f(int x, String s) { int y = 0; y += x; return y; } }";
        let mut p = tree_sitter::Parser::new();
        p.set_language(&tree_sitter_java::LANGUAGE.into()).unwrap();
        let t = p.parse(src, None).unwrap();
        let start = src.find("y += x;").unwrap();
        super::super::scope::analyse(src, t.root_node(), start..start + 7).unwrap()
    }

    fn pure_math(q: Option<&str>, name: &str, _arity: usize) -> bool {
        q == Some("Math") || name == "length"
    }

    #[test]
    fn locals_fields_and_pure_calls_are_eligible() {
        let s = site();
        let ok = |stmt: &str| check(stmt, &s, &fields(), Some("A"), &pure_math);
        assert_eq!(ok("y += Math.abs(x) + s.length();").unwrap(), vec![]);
        let assigned = ok("this.total += y; count++;").unwrap();
        let names: Vec<&str> = assigned.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["count", "total"]);
        assert!(ok("if (x > 0) return y; else throw new IllegalStateException();").is_ok());
        assert!(ok("throw new MyException(\"m\");")
            .unwrap_err()
            .contains("object"));
        assert!(ok("s = new String(\"x\");").unwrap_err().contains("object"));
        assert!(ok("y = helper(x);").unwrap_err().contains("helper"));
        assert!(ok("names = null;").unwrap_err().contains("List"));
        assert!(ok("LIMIT = 3;").unwrap_err().contains("final"));
        assert!(ok("while (y > 0) y--;").unwrap_err().contains("loop"));
        assert!(ok("other.total = 1;")
            .unwrap_err()
            .contains("another object"));
        assert!(ok("if (x > 0) { y = 1; } else { y = -1; }").is_ok());
        assert!(ok("return y * 2;").is_ok());
    }
}
