//! Tests of tree eligibility on patched statements, with an oracle over fixed facts.
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

/// An oracle over a fixed set of facts, recording the calls asked about.
struct Facts {
    pure: Vec<(&'static str, &'static str)>,
    unsafe_classes: Vec<&'static str>,
    unsafe_statics: Vec<&'static str>,
    asked: std::cell::RefCell<Vec<(Option<String>, String)>>,
}

impl Oracle for Facts {
    fn call_is_pure(&self, q: Option<&str>, name: &str, _arity: usize) -> bool {
        self.asked
            .borrow_mut()
            .push((q.map(str::to_string), name.to_string()));
        let q = q.unwrap_or("");
        q == "Math" || name == "length" || self.pure.iter().any(|&(c, m)| c == q && m == name)
    }
    fn init_is_safe(&self, class: &str) -> bool {
        !self.unsafe_classes.contains(&class)
    }
    fn static_read_is_safe(&self, field: &str) -> bool {
        !self.unsafe_statics.contains(&field)
    }
}

fn facts() -> Facts {
    Facts {
        pure: vec![
            ("IllegalStateException", "<init>"),
            ("Plain", "<init>"),
            ("A", "factor"),
            ("Cfg", "limit"),
            ("Pure", "toString"),
            ("String", "trim"),
            ("String", "valueOf"),
            ("Integer", "toHexString"),
        ],
        unsafe_classes: vec!["Cfg", "Loud"],
        unsafe_statics: vec!["MAX"],
        asked: Default::default(),
    }
}

#[test]
fn locals_fields_and_pure_calls_are_eligible() {
    let s = site();
    let f = facts();
    let ok = |stmt: &str| check(stmt, &s, &fields(), Some("A"), &f);
    assert_eq!(ok("y += Math.abs(x) + s.length();").unwrap(), vec![]);
    let assigned = ok("this.total += y; count++;").unwrap();
    let names: Vec<&str> = assigned.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["count", "total"]);
    assert!(ok("if (x > 0) return y; else throw new IllegalStateException();").is_ok());
    assert!(ok("throw new MyException(\"m\");")
        .unwrap_err()
        .to_string()
        .contains("constructs `MyException`"));
    assert!(ok("throw new Plain(\"m\");").is_ok());
    assert!(ok("s = new String(\"x\");")
        .unwrap_err()
        .to_string()
        .contains("object"));
    assert!(ok("y = helper(x);")
        .unwrap_err()
        .to_string()
        .contains("helper"));
    assert!(ok("names = null;")
        .unwrap_err()
        .to_string()
        .contains("List"));
    assert!(ok("LIMIT = 3;").unwrap_err().to_string().contains("final"));
    assert!(ok("while (y > 0) y--;")
        .unwrap_err()
        .to_string()
        .contains("loop"));
    assert!(ok("other.total = 1;")
        .unwrap_err()
        .to_string()
        .contains("another object"));
    assert!(ok("if (x > 0) { y = 1; } else { y = -1; }").is_ok());
    assert!(ok("return y * 2;").is_ok());
}

#[test]
fn unqualified_and_this_calls_are_calls_on_the_enclosing_class() {
    let s = site();
    let f = facts();
    assert!(check("y = x * factor();", &s, &fields(), Some("A"), &f).is_ok());
    assert!(check("y = x * this.factor();", &s, &fields(), Some("A"), &f).is_ok());
    let asked = f.asked.borrow().clone();
    assert_eq!(asked, vec![(Some("A".into()), "factor".into()); 2]);
    // In an anonymous class (no name) the receiver's class is unknown.
    assert!(check("y = x * factor();", &s, &fields(), None, &f)
        .unwrap_err()
        .to_string()
        .contains("factor"));
    assert!(check("y = super.factor();", &s, &fields(), Some("A"), &f).is_err());
}

#[test]
fn string_conversion_counts_as_a_call_of_to_string() {
    let s = site();
    let f = facts();
    let ok = |stmt: &str| check(stmt, &s, &fields(), Some("A"), &f);
    for fine in [
        "s = s + x;",
        "s = \"v\" + y + 'c' + 1.5 + null;",
        "s += x;",
        "s = s + (x > 0 ? 1 : 2) + (long) y;",
        "y = x + s.length();",
        "s = s + s.trim() + String.valueOf(x) + Integer.toHexString(y);",
        "throw new IllegalStateException(\"bad \" + x);",
        "assert x > 0 : \"x = \" + x;",
    ] {
        assert!(ok(fine).is_ok(), "{fine}: {:?}", ok(fine));
    }
    let p = |name: &str, ty: &str| Field {
        name: name.into(),
        ty: ty.into(),
        is_static: false,
    };
    let mut with_objects = fields();
    with_objects.push((p("pureObj", "Pure"), false));
    with_objects.push((p("obj", "Object"), false));
    let with = |stmt: &str| check(stmt, &s, &with_objects, Some("A"), &f);
    assert!(
        with("s = s + pureObj;").is_ok(),
        "Pure.toString is pure and closed"
    );
    for bad in [
        "s = s + names;",
        "s = \"\" + obj;",
        "s += obj;",
        "s = s + helper2();",
        "s = s + obj.hashCode();",
        "throw new IllegalStateException(obj);",
        "assert x > 0 : obj;",
    ] {
        let why = with(bad).unwrap_err().to_string();
        assert!(why.contains("toString"), "{bad}: {why}");
    }
    assert!(with("y = x + obj.hashCode();")
        .unwrap_err()
        .to_string()
        .contains("hashCode"));
}

#[test]
fn naming_a_class_with_an_effectful_initialiser_is_not_eligible() {
    let s = site();
    let f = facts();
    let ok = |stmt: &str| check(stmt, &s, &fields(), Some("A"), &f);
    for bad in [
        "y = Cfg.limit();",
        "y = Cfg.max;",
        "y = x + MAX;",
        "throw new Loud();",
    ] {
        let why = ok(bad).unwrap_err().to_string();
        assert!(why.contains("initialis"), "{bad}: {why}");
    }
    assert!(ok("y = Math.max(x, total) + count;").is_ok());
    assert!(
        ok("{ int MAX = 3; y = MAX; }").is_ok(),
        "a local of the patch"
    );
    // The enclosing class is initialised already.
    let f2 = Facts {
        unsafe_classes: vec!["A"],
        ..facts()
    };
    assert!(check("y = A.factor();", &s, &fields(), Some("A"), &f2).is_ok());
}
