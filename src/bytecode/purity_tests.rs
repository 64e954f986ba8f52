//! Tests of the purity scan on small compiled Java classes, jars and junit4.jar.
use super::*;
use crate::bytecode::classfile::tests::compile;
use std::path::PathBuf;

const SAMPLE: &str = r#"package p;
public class Sample {
private int x; private static int counter; private final int[] arr = new int[4];
public int getX() { return x; }
public void setX(int v) { x = v; }
public int absPlus(int v) { return Math.abs(v) + twice(v); }
private int twice(int v) { return v * 2; }
public int chain0(int v) { return chain1(v) + 1; }
int chain1(int v) { return chain2(v) + 1; }
int chain2(int v) { return chain3(v) + 1; }
static int chain3(int v) { counter = v; return v; }
public boolean isEven(int n) { return n == 0 || isOdd(n - 1); }
public boolean isOdd(int n) { return n != 0 && isEven(n - 1); }
public void store(int i, int v) { arr[i] = v; }
public static int bump() { return counter++; }
public String describe(int v) { return new StringBuilder().append(v).toString(); }
public int select(int k) {
    int a = k + 1;
    switch (k) { case 0: a = 3; break; case 1: a = 5; break; case 2: a = 8; break;
        case 3: a = 13; break; case 4: a = 21; break; case 5: a = 34; break; default: a = 1; }
    long l = 1234567890123L; double d = 2.5e300;
    return (int) (a + l + d) + Math.max(a, 2);
}
public long sparse(long v) {
    switch ((int) v) { case -100000: return 1L; case 7: return 99999999999L;
        case 1000000: return 3; default: return v * 77777777777L + twice(3); }
}
public int afterSwitches(int k) { x = k; return k; }
public int switchThenWrite(int k) {
    switch (k) { case 10: k++; case 11: k++; case 12: k++; case 13: k++; }
    counter = k; return k;
}
}
class Shape { int v; public int area(int s) { return s * s; } public int side() { return v; } }
class Square extends Shape { public int area(int s) { v = s; return s; } }
class Circle extends Shape { public int side() { return v + 1; } }
class User {
static int use(Shape s) { return s.area(2); }
static int sides(Shape s) { return s.side(); }
}
"#;

fn sample() -> (tempfile::TempDir, Purity) {
    let dir = compile(&[("Sample.java", SAMPLE)]);
    let purity = scan(&[dir.path().join("classes")]).unwrap();
    (dir, purity)
}

#[test]
fn methods_of_a_sample_class() {
    let (_dir, p) = sample();
    let pure = |name: &str, arity| p.call_is_pure(Some("Sample"), name, arity);
    assert!(pure("getX", 0), "a getter");
    assert!(!pure("setX", 1), "a setter");
    assert!(
        pure("absPlus", 1) && pure("twice", 1),
        "Math.abs and a pure helper"
    );
    for chain in ["chain0", "chain1", "chain2", "chain3"] {
        assert!(
            !pure(chain, 1),
            "{chain} calls an impure method 3 levels down"
        );
    }
    assert!(pure("isEven", 1) && pure("isOdd", 1), "mutual recursion");
    assert!(!pure("store", 2), "an array store");
    assert!(!pure("bump", 0), "a static counter");
    assert!(!pure("describe", 1), "StringBuilder.append");
    assert!(
        pure("select", 1) && pure("sparse", 1),
        "switches and long constants"
    );
    assert!(!pure("afterSwitches", 1) && !pure("switchThenWrite", 1));
    assert!(
        !p.call_is_pure(None, "area", 1),
        "an override writes a field"
    );
    assert!(!p.call_is_pure(Some("User"), "use", 1));
    assert!(
        p.call_is_pure(Some("Shape"), "side", 0) && p.call_is_pure(Some("User"), "sides", 1),
        "Circle overrides side() purely"
    );
    assert!(
        !p.call_is_pure(Some("Shape"), "area", 1),
        "a Shape may be a Square, whose area(int) writes a field"
    );
    assert!(
        p.call_is_pure(Some("Circle"), "area", 1),
        "Circle has no subclass"
    );
    assert!(
        !p.call_is_pure(None, "side", 0),
        "a receiver of unknown type"
    );
    assert!(p.call_is_pure(Some("Square"), "side", 0), "inherited");
    assert!(
        !p.call_is_pure(Some("Square"), "getX", 0),
        "Square has no getX"
    );
    assert!(!p.call_is_pure(None, "nosuch", 0));
    let (pure_count, impure_count) = p.summary();
    assert!(
        pure_count >= 10 && impure_count >= 10,
        "{pure_count} {impure_count}"
    );
    let json = serde_json::to_string(&p).unwrap();
    assert_eq!(serde_json::from_str::<Purity>(&json).unwrap(), p);
}

#[test]
fn jdk_allowlist_queries() {
    let p = Purity {
        callbacks_pure: true,
        fn_callbacks_pure: true,
        ..Purity::default()
    };
    for (q, name, arity) in [
        (Some("Math"), "abs", 1),
        (Some("java.lang.Math"), "max", 2),
        (Some("String"), "substring", 2),
        (Some("List<String>"), "size", 0),
        (Some("StringBuilder"), "length", 0),
        (Some("TreeMap"), "get", 1),
        (Some("Map"), "containsKey", 1),
        (Some("Object"), "equals", 1),
        (Some("IllegalStateException"), "<init>", 1),
        (Some("AssertionError"), "<init>", 0),
    ] {
        assert!(p.call_is_pure(q, name, arity), "{q:?} {name}/{arity}");
    }
    for (q, name, arity) in [
        (Some("Math"), "random", 0),
        (Some("StringBuilder"), "append", 1),
        (Some("List"), "add", 1),
        (Some("Character"), "toChars", 3),
        (Some("Iterator"), "next", 0),
        (Some("Iterator"), "hashCode", 0),
        (Some("Map"), "get", 1),
        (Some("HashMap"), "get", 1),
        (Some("String"), "intern", 0),
        (Some("Random"), "nextInt", 0),
        (None, "length", 0),
        (None, "abs", 1),
        (None, "append", 1),
        (None, "add", 1),
        (None, "put", 2),
        (None, "remove", 1),
        (None, "set", 2),
        (None, "clear", 0),
        (None, "sort", 1),
        (None, "get", 0),
        (None, "getChars", 4),
    ] {
        assert!(!p.call_is_pure(q, name, arity), "{q:?} {name}/{arity}");
    }
}

#[test]
fn jdk_methods_that_call_back_into_impure_project_methods_are_impure() {
    let source = r#"import java.util.*;
class Noisy { static int n; public String toString() { n++; return "x"; } }
class Uses {
static boolean has(List<Object> l, Object o) { return l.contains(o); }
static int count(List<Object> l) { return l.size(); }
static String show(Object o) { return String.valueOf(o); }
}"#;
    let dir = compile(&[("Uses.java", source)]);
    let p = scan(&[dir.path().join("classes")]).unwrap();
    assert!(!p.call_is_pure(Some("Uses"), "has", 2));
    assert!(!p.call_is_pure(Some("Uses"), "show", 1));
    assert!(p.call_is_pure(Some("Uses"), "count", 1));
    assert!(!p.call_is_pure(Some("String"), "valueOf", 1));
    assert!(p.call_is_pure(Some("String"), "length", 0));
}

#[test]
fn a_jar_is_read_like_a_directory() {
    let (dir, from_dir) = sample();
    let jar = dir.path().join("sample.jar");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&jar).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    for e in walkdir::WalkDir::new(dir.path().join("classes")) {
        let e = e.unwrap();
        if e.file_type().is_file() {
            let name = e.path().strip_prefix(dir.path().join("classes")).unwrap();
            zip.start_file(name.to_string_lossy(), options).unwrap();
            std::io::Write::write_all(&mut zip, &std::fs::read(e.path()).unwrap()).unwrap();
        }
    }
    zip.finish().unwrap();
    let from_jar = scan(&[jar, dir.path().join("missing")]).unwrap();
    assert_eq!(from_jar, from_dir);
    assert_eq!(from_jar.class_count(), 5);
}

#[test]
fn junit4_jar() {
    let jar = PathBuf::from("/usr/share/java/junit4.jar");
    let start = std::time::Instant::now();
    let p = scan(&[jar]).unwrap();
    let (pure, impure) = p.summary();
    eprintln!(
        "junit4.jar: {} classes, {} methods, {pure} pure, {:?}",
        p.class_count(),
        pure + impure,
        start.elapsed()
    );
    assert!(pure > 100, "{pure} pure methods");
}

const CALC: &str = r#"package m;
public class Calc {
    public int factor() { return 2; }
    public int scale(int x) { return x * factor(); }
    public final int base() { return 1; }
    public static int twice(int x) { return 2 * x; }
}
"#;

const COUNTING_CALC: &str = r#"package t;
public class CountingCalc extends m.Calc {
    public int calls;
    @Override public int factor() { calls++; return 2; }
}
"#;

const FINAL_CALC: &str = r#"package m;
public final class FinalCalc { public int factor() { return 2; } }
"#;

/// Scans main classes and, separately compiled against them, test classes.
pub(super) fn main_and_tests(
    main: &[(&str, &str)],
    tests: &[(&str, &str)],
) -> (tempfile::TempDir, Purity, Purity) {
    let dir = compile(main);
    let classes = dir.path().join("classes");
    let test_dir =
        crate::bytecode::classfile::tests::compile_with(tests, std::slice::from_ref(&classes));
    let test_classes = test_dir.path().join("classes");
    std::fs::rename(&test_classes, dir.path().join("test-classes")).unwrap();
    let main_only = scan(std::slice::from_ref(&classes)).unwrap();
    let with_tests = scan(&[classes, dir.path().join("test-classes")]).unwrap();
    (dir, main_only, with_tests)
}

#[test]
fn a_test_subclass_that_overrides_a_called_method_makes_the_call_open() {
    let (_dir, main_only, p) = main_and_tests(
        &[("Calc.java", CALC), ("FinalCalc.java", FINAL_CALC)],
        &[("CountingCalc.java", COUNTING_CALC)],
    );
    assert!(main_only.call_is_pure(Some("Calc"), "factor", 0));
    assert!(
        !p.call_is_pure(Some("Calc"), "factor", 0),
        "CountingCalc.factor counts"
    );
    assert!(
        !p.call_is_pure(Some("Calc"), "scale", 1),
        "scale calls factor virtually"
    );
    assert!(p.call_is_pure(Some("Calc"), "base", 0) && p.call_is_pure(Some("Calc"), "twice", 1));
    assert!(p.call_is_pure(Some("FinalCalc"), "factor", 0));
    assert!(!p.call_is_pure(Some("CountingCalc"), "factor", 0));
    assert_eq!(p.openness(), Openness::Closed);
}

#[test]
fn a_runtime_subclass_generator_opens_every_overridable_call() {
    let dir = compile(&[("Calc.java", CALC), ("FinalCalc.java", FINAL_CALC)]);
    let easymock = PathBuf::from("/usr/share/java/easymock.jar");
    let p = scan(&[dir.path().join("classes"), easymock]).unwrap();
    assert_eq!(p.openness(), Openness::Subclasses);
    assert!(!p.call_is_pure(Some("Calc"), "factor", 0), "a mock of Calc");
    assert!(!p.call_is_pure(Some("Calc"), "scale", 1));
    assert!(p.call_is_pure(Some("Calc"), "base", 0), "final method");
    assert!(p.call_is_pure(Some("Calc"), "twice", 1), "static method");
    assert!(
        p.call_is_pure(Some("FinalCalc"), "factor", 0),
        "final class"
    );
    assert!(!p.call_is_pure(Some("List"), "size", 0), "a mock of List");
    assert!(
        p.call_is_pure(Some("String"), "length", 0),
        "String is final"
    );
    assert!(p.call_is_pure(Some("Math"), "abs", 1));
}

#[test]
fn a_library_that_redefines_classes_opens_every_project_call() {
    let mockito = r#"package org.mockito; public class Mockito { }"#;
    let dir = compile(&[("Calc.java", CALC), ("Mockito.java", mockito)]);
    let p = scan(&[dir.path().join("classes")]).unwrap();
    assert_eq!(p.openness(), Openness::Redefines);
    for (name, arity) in [("factor", 0), ("base", 0), ("twice", 1), ("<init>", 0)] {
        assert!(!p.call_is_pure(Some("Calc"), name, arity), "{name}");
    }
    assert!(p.call_is_pure(Some("Math"), "abs", 1));
}

#[test]
fn a_proxy_opens_calls_on_interfaces() {
    let shapes = r#"package m;
public interface Shape { default int corners() { return 4; } }
class Square implements Shape { public int sides() { return 4; } }
"#;
    let proxies = r#"package m;
class Proxies {
    static Object make(java.lang.reflect.InvocationHandler h) {
        return java.lang.reflect.Proxy.newProxyInstance(null, new Class<?>[] { Shape.class }, h);
    }
}
"#;
    let dir = compile(&[("Shape.java", shapes)]);
    let p = scan(&[dir.path().join("classes")]).unwrap();
    assert!(p.call_is_pure(Some("Shape"), "corners", 0));
    assert!(p.call_is_pure(Some("CharSequence"), "length", 0));
    let dir = compile(&[("Shape.java", shapes), ("Proxies.java", proxies)]);
    let p = scan(&[dir.path().join("classes")]).unwrap();
    assert!(
        !p.call_is_pure(Some("Shape"), "corners", 0),
        "a proxy of Shape"
    );
    assert!(!p.call_is_pure(Some("CharSequence"), "length", 0));
    assert!(
        p.call_is_pure(Some("Square"), "sides", 0),
        "a class, not an interface"
    );
}

#[test]
fn constructors_and_their_super_chains_are_analysed() {
    let source = r#"package m;
class Plain extends RuntimeException { Plain(String m) { super(m); } Plain() { } }
class Counted extends RuntimeException { static int made; Counted() { made++; } }
class Sub extends Counted { Sub() { } Sub(int x) { } }
class Coded extends RuntimeException { final int code; Coded(int c) { code = c; } }
class Caused extends RuntimeException { Caused(Throwable t) { super(t); } }
class Noisy { static int n; public String toString() { n++; return "x"; } }
class Filled extends RuntimeException {
    static int fills;
    Filled() { }
    public synchronized Throwable fillInStackTrace() { fills++; return this; }
}
"#;
    let dir = compile(&[("Plain.java", source)]);
    let p = scan(&[dir.path().join("classes")]).unwrap();
    let init = |class: &str, arity| p.call_is_pure(Some(class), "<init>", arity);
    assert!(init("Plain", 1) && init("Plain", 0));
    assert!(!init("Counted", 0), "writes a static field");
    assert!(
        !init("Sub", 0) && !init("Sub", 1),
        "through the super constructor"
    );
    assert!(
        !init("Coded", 1),
        "a field write is not told apart from another object's"
    );
    assert!(
        !init("Caused", 1),
        "Throwable(Throwable) calls toString, Noisy's is impure"
    );
    assert!(
        !init("Filled", 0),
        "the JDK constructor calls the override of fillInStackTrace"
    );
    assert!(!init("Nosuch", 0) && !init("Object", 1));
}

#[test]
fn class_initialisers_with_effects_are_known() {
    let source = r#"package m;
class Other { static int hits; static final int K = 3; }
class Cfg { static int LIMIT = compute(); static int compute() { Other.hits++; return 3; } }
class Logged { static { System.out.println("loaded"); } static int two() { return 2; } }
class Consts { static final int[] TABLE = { 1, 2, 3 }; static int start = 5; static int get() { return start; } }
enum Color { RED, GREEN; int code() { return ordinal() + 1; } }
class Single { static final Single ONE = new Single(1); final int v; Single(int v) { this.v = v; } }
class Sub extends Cfg { }
class Uses {
    static int limit() { return Cfg.LIMIT; }
    static int two() { return Logged.two(); }
    static int table() { return Consts.TABLE.length + Consts.get(); }
    static int red() { return Color.RED.code(); }
}
"#;
    let dir = compile(&[("Other.java", source)]);
    let p = scan(&[dir.path().join("classes")]).unwrap();
    for safe in [
        "Other", "Consts", "Color", "Single", "Uses", "Math", "String",
    ] {
        assert!(p.init_is_safe(safe), "{safe}");
    }
    for unsafe_ in ["Cfg", "Logged", "Sub"] {
        assert!(!p.init_is_safe(unsafe_), "{unsafe_}");
    }
    assert!(!p.static_read_is_safe("LIMIT") && p.static_read_is_safe("TABLE"));
    assert!(!p.call_is_pure(Some("Uses"), "limit", 0), "initialises Cfg");
    assert!(
        !p.call_is_pure(Some("Uses"), "two", 0),
        "initialises Logged"
    );
    assert!(p.call_is_pure(Some("Uses"), "table", 0));
    assert!(p.call_is_pure(Some("Uses"), "red", 0));
}
