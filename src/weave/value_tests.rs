//! Tests of the hole finder on Java snippets: which groups it forms, which contexts it refuses.
use super::*;

/// `holes` over `class A { … }` with the location the first occurrence of `stmt`.
fn find(body: &str, stmt: &str, patches: &[&str]) -> Option<Holes> {
    let src = format!("class A {{\n  {body}\n}}\n");
    let start = src.find(stmt).unwrap();
    let range = start..start + stmt.len();
    let mut p = parser();
    let t = p.parse(&src, None).unwrap();
    let site = super::super::scope::analyse(&src, t.root_node(), range.clone()).unwrap();
    let patches: Vec<String> = patches.iter().map(|s| s.to_string()).collect();
    holes(&src, range, &site, &patches, 2)
}

const BODY: &str = "void f(int x, long n, String s, Integer b) { byte y = 1; log(x + 1, s); }";

#[test]
fn arguments_that_differ_form_one_group_of_their_type() {
    let h = find(
        BODY,
        "log(x + 1, s);",
        &[
            "log(x + 2, s);",
            "log(x - 1, s);",
            "log(x * 3, s);",
            "log(n + 1, s);",
            "log(x + 1, s + \"!\");",
            "log(x, s);",
        ],
    )
    .unwrap();
    assert_eq!(h.ty, "int");
    let p: Vec<Option<&str>> = h.patches.iter().map(|p| p.as_deref()).collect();
    assert_eq!(
        p,
        vec![
            Some("__pv_hv = x + 2;"),
            Some("__pv_hv = x - 1;"),
            Some("__pv_hv = x * 3;"),
            None, // long: another overload could be chosen
            None, // another hole
            Some("__pv_hv = x;"),
        ]
    );
    assert!(
        h.src
            .contains("{ int __pv_hv = 0; __pv_hv = x + 1; log(__pv_hv, s); }"),
        "{}",
        h.src
    );
    assert_eq!(&h.src[h.range.clone()], "__pv_hv = x + 1;");
    assert_eq!(super::super::syntax_errors(&h.src), 0);
}

#[test]
fn a_hole_after_an_argument_that_may_throw_or_act_is_refused() {
    let body = "void f(int x, int[] a) { log(g(), x + 1); log(a[0], x + 1); log(x, x + 1); }";
    let ps = ["log(g(), x + 2);", "log(g(), x + 3);"];
    assert!(find(body, "log(g(), x + 1);", &ps).is_none());
    let ps = ["log(a[0], x + 2);", "log(a[0], x + 3);"];
    assert!(find(body, "log(a[0], x + 1);", &ps).is_none());
    let ps = ["log(x, x + 2);", "log(x, x + 3);"];
    assert!(find(body, "log(x, x + 1);", &ps).is_some());
}

#[test]
fn a_hole_evaluated_conditionally_or_on_a_receiver_that_may_throw_is_refused() {
    let body =
        "void f(int x, boolean c, A o) { if (c && p(x + 1)) {} o.k.p(x + 1); q(c ? x + 1 : 0); }";
    assert!(find(body, "o.k.p(x + 1);", &["o.k.p(x + 2);", "o.k.p(x + 3);"]).is_none());
    assert!(find(
        body,
        "q(c ? x + 1 : 0);",
        &["q(c ? x + 2 : 0);", "q(c ? x + 3 : 0);"]
    )
    .is_none());
    // `o.p(…)`: `o` is a local, read without effect; the call's null check comes after.
    let body = "void f(int x, A o) { o.p(x + 1); }";
    assert!(find(body, "o.p(x + 1);", &["o.p(x + 2);", "o.p(x + 3);"]).is_some());
}

#[test]
fn a_constant_that_narrows_or_folds_keeps_its_statement() {
    // `y = 1 + 2` compiles only because the value is a constant.
    let body = "void f(int x, byte y, int z) { y = 1; z = 1; }";
    assert!(find(body, "y = 1;", &["y = 2;", "y = 3;"]).is_none());
    assert!(find(body, "z = 1;", &["z = 2;", "z = 3;"]).is_some());
    // Below a `+`, the hole widens to the whole sum, whose type is then asked.
    let body = "void f(int x, String s) { log(\"a\" + 1); }";
    let h = find(
        body,
        "log(\"a\" + 1);",
        &["log(\"a\" + 2);", "log(\"a\" + 3);"],
    )
    .unwrap();
    assert_eq!(h.ty, "String");
    assert_eq!(h.patches[0].as_deref(), Some("__pv_hv = \"a\" + 2;"));
}

#[test]
fn holes_of_calls_fields_or_unknown_types_are_refused() {
    let body = "void f(int x, java.util.List<String> l) { log(x + 1); }";
    assert!(find(body, "log(x + 1);", &["log(g(x));", "log(h(x));"]).is_none());
    assert!(find(body, "log(x + 1);", &["log(this.k);", "log(this.j);"]).is_none());
    assert!(find(
        body,
        "log(x + 1);",
        &["log(l.size());", "log(l.size() + 1);"]
    )
    .is_none());
    assert!(find(body, "log(x + 1);", &["log(x++);", "log(x = 2);"]).is_none());
}

#[test]
fn returns_and_assignments_take_holes_when_they_widen_nothing() {
    let body = "long f(int x, long n) { n = x + 1; return n + 1; }";
    let h = find(body, "n = x + 1;", &["n = x + 2;", "n = x - 2;"]).unwrap();
    assert!(h
        .src
        .contains("{ int __pv_hv = 0; __pv_hv = x + 1; n = __pv_hv; }"));
    let h = find(body, "return n + 1;", &["return n + 2;", "return n - 2;"]).unwrap();
    assert_eq!(h.ty, "long");
    let body = "short f(int x) { return 1; }";
    assert!(find(body, "return 1;", &["return 2;", "return 3;"]).is_none());
}

#[test]
fn static_types_follow_javac() {
    let src = "class A { void f(byte b, char c, Integer i, long l, float f, String s) { g(); } }";
    let start = src.find("g();").unwrap();
    let mut p = parser();
    let t = p.parse(src, None).unwrap();
    let site = super::super::scope::analyse(src, t.root_node(), start..start + 4).unwrap();
    let ty = |e: &str| {
        let w = Wrapped::parse(&mut parser(), &format!("Object o = {e};")).unwrap();
        let s = single(&w).unwrap();
        let d = s.child_by_field_name("declarator").unwrap();
        let v = d.child_by_field_name("value").unwrap();
        type_of(&w.text, v, &site.locals)
    };
    assert_eq!(ty("b").as_deref(), Some("byte"));
    assert_eq!(ty("-b").as_deref(), Some("int"));
    assert_eq!(ty("b + c").as_deref(), Some("int"));
    assert_eq!(ty("c + 1L").as_deref(), Some("long"));
    assert_eq!(ty("i + f").as_deref(), Some("float"));
    assert_eq!(ty("l << b").as_deref(), Some("long"));
    assert_eq!(ty("b << l").as_deref(), Some("int"));
    assert_eq!(ty("s + l").as_deref(), Some("String"));
    assert_eq!(ty("1.5").as_deref(), Some("double"));
    assert_eq!(ty("(short) l").as_deref(), Some("short"));
    assert_eq!(ty("l > b && !(i == 3)").as_deref(), Some("boolean"));
    assert_eq!(ty("i").as_deref(), Some("Integer"));
    assert_eq!(ty("i == i"), None);
    assert_eq!(ty("null"), None);
    assert_eq!(ty("s.length()"), None);
}

#[test]
fn an_if_condition_is_a_hole_and_its_branches_stay() {
    let body = "void f(int x, java.util.List<Integer> l) { if (x > 0) { l.add(x); } }";
    let h = find(
        body,
        "if (x > 0) { l.add(x); }",
        &[
            "if (x >= 0) { l.add(x); }",
            "if (x > 1) { l.add(x); }",
            "if (!(x > 0)) { l.add(x); }",
            "if (x > 0) { l.add(-x); }",
        ],
    )
    .unwrap();
    assert_eq!(h.ty, "boolean");
    assert!(
        h.src
            .contains("{ boolean __pv_hv = false; __pv_hv = x > 0; if (__pv_hv) { l.add(x); } }"),
        "{}",
        h.src
    );
    let p: Vec<Option<&str>> = h.patches.iter().map(|p| p.as_deref()).collect();
    assert_eq!(
        p,
        [
            Some("__pv_hv = x >= 0;"),
            Some("__pv_hv = x > 1;"),
            Some("__pv_hv = !(x > 0);"),
            None
        ]
    );
    // A condition with a call, or one over several lines, stays whole.
    let body = "void f(int x, java.util.List<Integer> l) { if (l.isEmpty()) { l.add(x); } }";
    let ps = [
        "if (!l.isEmpty()) { l.add(x); }",
        "if (l.isEmpty() || x > 0) { l.add(x); }",
    ];
    assert!(find(body, "if (l.isEmpty()) { l.add(x); }", &ps).is_none());
    let body =
        "void f(int x, int y, java.util.List<Integer> l) { if (x > 0\n && y > 0) { l.add(x); } }";
    let ps = [
        "if (x > 1\n && y > 0) { l.add(x); }",
        "if (x > 2\n && y > 0) { l.add(x); }",
    ];
    assert!(find(body, "if (x > 0\n && y > 0) { l.add(x); }", &ps).is_none());
}

#[test]
fn the_class_own_fields_are_read_in_holes_and_a_local_hides_one() {
    // `real` is the class's own `double`, `k` an `int` hidden by the local `k` (a `long`).
    let fields = "private final double real = 1; int k; static final String NAME = \"n\"; int[] a;";
    let body = format!(
        "{fields} void f(double t, long k) {{ if (real >= 0.0) {{ log(t, real / (2.0 * t)); }} }}"
    );
    let h = find(
        &body,
        "log(t, real / (2.0 * t));",
        &[
            "log(t, real + (2.0 * t));",
            "log(t, real * (2.0 * t));",
            "log(t, real / (2.0 - t));",
        ],
    )
    .unwrap();
    assert_eq!(h.ty, "double");
    let stmt = "if (real >= 0.0) { log(t, real / (2.0 * t)); }";
    let h = find(
        &body,
        stmt,
        &[
            "if (real < 0.0) { log(t, real / (2.0 * t)); }",
            "if (real > 0.0) { log(t, real / (2.0 * t)); }",
        ],
    )
    .unwrap();
    assert_eq!(h.ty, "boolean");
    // The local `k` is a `long`: the hole `k + 1` is one.
    let h = find(
        &body,
        stmt,
        &[
            "if (k + 1 > 0) { log(t, real / (2.0 * t)); }",
            "if (k > 2) { log(t, real / (2.0 * t)); }",
        ],
    );
    assert_eq!(h.unwrap().ty, "boolean");
    // `k` is the local: a `long` like the patches' holes (the field `k`, an `int`, would not be).
    let h = find(
        &body.replace("} }", "} log2(k); }"),
        "log2(k);",
        &["log2(k + 1L);", "log2(k * 2L);"],
    );
    assert_eq!(h.unwrap().ty, "long");
    // A `String` constant is read like a literal; an array field is no known type.
    let h = find(
        &body.replace("} }", "} log3(NAME); }"),
        "log3(NAME);",
        &["log3(NAME + 1);", "log3(\"m\" + NAME);"],
    );
    assert_eq!(h.unwrap().ty, "String");
    assert!(find(
        &body,
        "log(t, real / (2.0 * t));",
        &["log(t, a[0]);", "log(t, a[1]);"]
    )
    .is_none());
    // In an inner class, the outer class's field is not the nearest class's own: refused.
    let body = "double real; class In { void f(double t) { log(t, 1.0); } }";
    assert!(find(
        body,
        "log(t, 1.0);",
        &["log(t, real);", "log(t, real + 1);"]
    )
    .is_none());
}
