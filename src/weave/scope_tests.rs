//! Unit tests of `weave::scope`: what a location's site says of Java snippets.

use super::*;

fn site(src: &str, unpatched: &str) -> Result<Site, Unsupported> {
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_java::LANGUAGE.into()).unwrap();
    let tree = p.parse(src, None).unwrap();
    let start = src.find(unpatched).unwrap();
    analyse(src, tree.root_node(), start..start + unpatched.len())
}

const SRC: &str = r#"
class A {
    private int f;
    @Override
    public <T> int m(int a, final String s, T t, int... rest) throws java.io.IOException {
        int x = 0, y[] = new int[2];
        int z;
        z = 4;
        int w;
        outer:
        for (int i = 0; i < a; i++) {
            for (String e : new String[0]) {
                x += i;
            }
        }
        switch (a) { case 1: y[0] = 2; break; }
        return x;
    }
    static void s() { Runnable r = () -> { int q = 1; q++; }; }
    int total;
    void t(java.util.List<String> words) { words.forEach(e -> { total += e.length(); }); }
    A(int k) { super(); f = k; }
}
"#;

#[test]
fn finds_statement_locals_labels_and_loops() {
    let s = site(SRC, "x += i").unwrap();
    assert_eq!(&SRC[s.target.clone()], "x += i;");
    assert!(s.in_loop && s.breakable && s.last_in_block);
    assert_eq!(
        s.labels,
        vec![Label {
            name: "outer".into(),
            is_loop: true
        }]
    );
    let names: Vec<&str> = s.locals.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["e", "i", "w", "z", "x", "y", "a", "s", "t", "rest"]);
    let get = |n: &str| s.locals.iter().find(|l| l.name == n).unwrap().clone();
    assert!(
        get("z").assigned,
        "z is assigned by a plain statement before"
    );
    assert!(!get("w").assigned);
    assert_eq!(get("y").ty, "int[]");
    assert_eq!(get("rest").ty, "int[]");
    assert!(get("s").is_final);
    assert_eq!(s.return_type, "int");
    assert_eq!(s.type_params, "<T>");
    assert_eq!(s.throws, "throws java.io.IOException");
    assert_eq!(s.annotations.len(), 1);
    assert!(!s.is_static && !s.is_constructor);
}

#[test]
fn names_read_after_the_location_include_the_loop_around_it() {
    // After `z = 4;`: the loops and the switch read `a`, `x`, `y`, `i`; `z` is dead (`w`'s
    // declaration after it counts, conservatively).
    let s = site(SRC, "z = 4;").unwrap();
    for live in ["a", "x", "y", "i", "e"] {
        assert!(s.read_after.contains(live), "{live}");
    }
    assert!(!s.read_after.contains("z") && s.read_after.contains("w"));
    // In the inner loop: the outer loop's header runs again, so `i` and `a` are read.
    let s = site(SRC, "x += i").unwrap();
    assert!(s.read_after.contains("i") && s.read_after.contains("a"));
    // In a lambda, the location is the statement around it: the method reads nothing after.
    let s = site(SRC, "total += e.length();").unwrap();
    assert!(SRC[s.target.clone()].starts_with("words.forEach"));
    assert!(s.read_after.is_empty(), "{:?}", s.read_after);
    // A field read as `this.f` is not a local's read; the last statement reads nothing.
    let s = site(SRC, "f = k;").unwrap();
    assert!(s.read_after.is_empty(), "{:?}", s.read_after);
}

#[test]
fn a_local_only_assigned_after_the_location_is_not_read() {
    let src = "class B { int m(String[] ws) { int n = 0; int last = -1; \
                   for (int k = 0; k < ws.length; k++) { last = ws[k].length(); n++; } \
                   int tail = n; tail = 0; return n; } }";
    let s = site(src, "n++;").unwrap();
    assert!(s.in_loop);
    // `last` is only assigned (in the loop, before the location: it runs again), `tail`
    // declared and assigned; `n`, `k`, `ws` are read.
    assert!(!s.read_after.contains("last") && !s.read_after.contains("tail"));
    for live in ["n", "k", "ws"] {
        assert!(s.read_after.contains(live), "{live}");
    }
}

#[test]
fn switch_statement_is_breakable_not_loop() {
    let s = site(SRC, "y[0] = 2;").unwrap();
    assert!(s.breakable && !s.in_loop);
    assert!(!s.last_in_block);
}

#[test]
fn statement_runs_and_unsupported_places() {
    let s = site(SRC, "z = 4;\n        int w;").unwrap_err();
    assert_eq!(s, Unsupported::Declaration);
    let s = site(SRC, "return x").unwrap();
    assert_eq!(&SRC[s.target.clone()], "return x;");
    assert!(s.last_in_block);
    // In a lambda the statement around it is the target: here a declaration, the last of
    // its block, so that nothing after it sees `r` (a declaration before other statements
    // is refused, `int w;` above).
    let d = site(SRC, "q++;").unwrap();
    assert_eq!(
        &SRC[d.target.clone()],
        "Runnable r = () -> { int q = 1; q++; };"
    );
    let l = site(SRC, "total += e.length();").unwrap();
    assert_eq!(
        &SRC[l.target.clone()],
        "words.forEach(e -> { total += e.length(); });"
    );
    assert!(l.locals.iter().any(|v| v.name == "words"));
    assert!(!l.locals.iter().any(|v| v.name == "e"));
    assert!(s.ends_method);
    assert!(site(SRC, "private int f").is_err());
    let c = site(SRC, "f = k;").unwrap();
    assert!(c.is_constructor);
    assert_eq!(c.return_type, "void");
    let run = site(SRC, "z = 4;").unwrap();
    assert_eq!(&SRC[run.target.clone()], "z = 4;");
}
