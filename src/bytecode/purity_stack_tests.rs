//! Tests of the stack analysis (`purity/stack.rs`, `purity/handed.rs`) on small compiled Java
//! classes: which methods may read the call stack, keep a stack trace, or hand objects to JDK
//! code that calls them back.
use super::tests::main_and_tests;

/// The JDK's class hierarchy from `$JAVA_HOME/lib/ct.sym` (JDK 17 where it is unset).
fn jdk_types() -> crate::bytecode::jdk_types::Supertypes {
    let home = std::env::var("JAVA_HOME")
        .unwrap_or_else(|_| "/usr/lib/jvm/java-17-openjdk-amd64".to_string());
    crate::bytecode::jdk_types::read(std::path::Path::new(&home))
}

const TRACING: &str = r#"package m;
public class Tracing {
    public static String where() { return new Throwable().getStackTrace()[1].getMethodName(); }
    public static String via(int depth) { return depth > 0 ? via(depth - 1) : where(); }
    public static void note(String s) { java.util.logging.Logger.getLogger("m").info(s); }
    public static int plain(int x) { return x + 1; }
    public String label() { return "t"; }
    public String show() { return "<" + label() + ">"; }
    public Tracing() { }
    public Tracing(int marked) { where(); }
}
"#;

const TRACING_TEST: &str = r#"package t;
public class CallerLabel extends m.Tracing {
    @Override public String label() { return Thread.currentThread().getStackTrace()[2].getMethodName(); }
}
"#;

#[test]
fn methods_that_may_read_the_stack_are_known_by_name() {
    let (_dir, main_only, p) = main_and_tests(
        &[("Tracing.java", TRACING)],
        &[("CallerLabel.java", TRACING_TEST)],
    );
    for (name, arity) in [("where", 0), ("via", 1), ("note", 1), ("Tracing", 1)] {
        assert!(p.may_read_stack(name, Some(arity)), "{name}/{arity}");
    }
    assert!(
        p.may_read_stack("via", None),
        "a method reference, any arity"
    );
    assert!(!p.may_read_stack("plain", Some(1)));
    assert!(!p.may_read_stack("Tracing", Some(0)));
    assert!(!p.may_read_stack("via", Some(2)));
    assert!(p.may_read_stack("getStackTrace", Some(0)), "a JDK reader");
    assert!(!main_only.may_read_stack("show", Some(0)));
    assert!(
        p.may_read_stack("show", Some(0)),
        "a test subclass's override of label() reads the stack"
    );
}

const REACH: &str = r#"package m;
public class Reach {
    public interface Step { void go(); }
    public interface Action { void execute(); }
    static String last;
    public static String trace(Throwable t) { return t.getStackTrace()[0].getMethodName(); }
    public static void record(Throwable t) { last = trace(t); }
    public static void step(Step s) { s.go(); }
    public static void runIt(Runnable r) { r.run(); }
    public static void hand(java.util.concurrent.Executor e) { e.execute(() -> { }); }
    public static String message(java.util.concurrent.ExecutionException e) { return e.getMessage(); }
    public static String anyMessage(Exception e) { return e.getMessage(); }
    public static java.util.function.Supplier<String> where() { return () -> trace(new Throwable()); }
    @Override public boolean equals(Object o) { return trace(new Throwable()) != null; }
    @Override public int hashCode() { return 1; }
    static Throwable kept;
    public static class Oops extends IllegalStateException { }
    public static void mark() { kept = new IllegalStateException(); }
    public static Oops made() { return new Oops(); }
    public static int check(int x) { if (x < 0) throw new Oops(); return x; }
    public static void keepCaught(int x) { try { check(x); } catch (Oops e) { kept = e; } }
    public static int dropCaught(int x) { try { return check(x); } catch (Oops e) { return 0; } }
    public static Throwable passMade() { return made(); }
    public static void keepMade() { kept = passMade(); }
    public static void throwMade() { throw made(); }
    public static StringBuilder builder() { return new StringBuilder(); }
    public static int appended(Object o) { return new StringBuilder().append(o).length(); }
    public static void sorted(java.util.List<String> l) { java.util.Collections.sort(l); }
    public static void copied(Object[] a) { System.arraycopy(a, 0, a, 1, 1); }
    public static void printed(String s) { System.out.println(s); }
    public static Object called(java.lang.reflect.Method m) throws Exception { return m.invoke(null); }
    public static void each(java.util.List<String> l) { l.forEach(s -> trace(new Throwable())); }
    public static void eachPlain(java.util.List<String> l) { l.forEach(s -> last = s); }
    public static int sizes(java.util.List<String> l) { return l.size(); }
    public static void submit(java.util.concurrent.ExecutorService e) { e.submit(Reach::noted); }
    static void noted() { last = trace(new Throwable()); }
    public static void trail(Object... xs) { trace(new Throwable()); }
    public static class Wrapped extends RuntimeException {
        public Wrapped(String m) { super(m); }
        public Wrapped(Throwable t) { super(trace(t)); }
        public Wrapped(int code) { super("code " + code); }
    }
}
"#;

const REACH_TEST: &str = r#"package t;
public class ReachTest {
    static class Noisy extends Exception {
        @Override public String getMessage() { return m.Reach.trace(new Throwable()); }
    }
    void steps() { m.Reach.step(() -> new Throwable().printStackTrace()); }
    void runs() { m.Reach.runIt(() -> Thread.dumpStack()); }
    void actions() { m.Reach.Action a = () -> new Throwable().printStackTrace(); a.execute(); }
}
"#;

#[test]
fn the_stack_analysis_follows_every_call_and_lambda_and_dispatches_by_the_jdk_hierarchy() {
    let (dir, _, _) = main_and_tests(&[("Reach.java", REACH)], &[("ReachTest.java", REACH_TEST)]);
    let tests = dir.path().join("test-classes");
    let p = super::scan_with_jdk(&[dir.path().join("classes"), tests], &jdk_types()).unwrap();
    // A method with an effect (a static field write) still reaches the reader it calls.
    assert!(p.may_read_stack("record", Some(1)));
    // A test's lambda runs through a class-path functional interface and a JDK one.
    assert!(p.may_read_stack("step", Some(1)));
    assert!(p.may_read_stack("runIt", Some(1)));
    // JDK code outside the allowlist calls back what it is handed, or holds: an `Executor` may
    // hold project tasks (whose methods include `Reach.equals`, which reads the stack), as a
    // `StringBuilder` given an object calls its `toString`, and `Collections.sort` its
    // elements' `compareTo`; reflection may run any method. A copy, or a print of a string,
    // calls nothing back.
    assert!(p.may_read_stack("hand", Some(1)));
    assert!(p.may_read_stack("appended", Some(1)));
    assert!(p.may_read_stack("sorted", Some(1)));
    assert!(p.may_read_stack("called", Some(1)));
    assert!(!p.may_read_stack("copied", Some(1)));
    assert!(!p.may_read_stack("printed", Some(1)));
    // `getMessage` on an `ExecutionException` cannot run the test's `Noisy` (an `Exception`
    // that is no `ExecutionException`); on an `Exception` it can.
    assert!(!p.may_read_stack("message", Some(1)));
    assert!(p.may_read_stack("anyMessage", Some(1)));
    // A lambda that reads the stack is called through its functional method, here the JDK's
    // `Supplier.get`, which no class-path method declares.
    assert!(p.may_read_stack("get", Some(0)));
    // `Reach.equals` reads the stack: a call of `equals` may, unless only JDK code can run.
    assert!(p.may_read_stack("equals", Some(1)));
    assert!(p.may_read_stack_on("Object", false, "equals", 1));
    assert!(p.may_read_stack_on("Reach", false, "equals", 1));
    assert!(
        !p.may_read_stack_on("String", false, "equals", 1),
        "a final JDK class"
    );
    assert!(!p.may_read_stack_on("java.lang.String", false, "equals", 1));
    assert!(
        !p.may_read_stack_on("Objects", true, "isNull", 1),
        "a static JDK call"
    );
    assert!(
        p.may_read_stack_on("Objects", true, "equals", 2),
        "it calls `equals` back"
    );
    // So may any JDK method of that name that calls project objects back.
    assert!(p.may_read_stack("contains", Some(1)), "`List.contains`");
    assert!(p.may_read_stack("valueOf", None), "`String::valueOf`");
    assert!(!p.may_read_stack("size", Some(0)));
    assert!(
        p.may_read_stack_on("String[]", false, "equals", 1),
        "an array"
    );
    assert!(
        p.may_read_stack_on("Thread", false, "getStackTrace", 0),
        "a JDK reader"
    );
    // A throwable made or caught and kept, unthrown, is read later: it counts as a read, of
    // the JDK's classes and the project's; one only thrown or dropped does not.
    // A factory's throwable is kept by the caller that does not throw it, through any number of
    // methods returning it.
    for (kept, arity) in [("mark", 0), ("keepCaught", 1), ("keepMade", 0)] {
        assert!(p.may_read_stack(kept, Some(arity)), "{kept}");
    }
    for (not_kept, arity) in [
        ("check", 1),
        ("dropCaught", 1),
        ("made", 0),
        ("passMade", 0),
        ("throwMade", 0),
    ] {
        assert!(!p.may_read_stack(not_kept, Some(arity)), "{not_kept}");
    }
    assert!(!p.may_read_stack("builder", Some(0)), "no throwable");
    // JDK code outside the allowlist runs a lambda or method reference it is given.
    assert!(p.may_read_stack("each", Some(1)), "`Iterable.forEach`");
    assert!(p.may_read_stack("submit", Some(1)), "an executor");
    // A `Consumer` handed to JDK code may be any `Consumer`: `each`'s reads the stack.
    assert!(p.may_read_stack("eachPlain", Some(1)));
    assert!(
        !p.may_read_stack("sizes", Some(1)),
        "a size asks the elements nothing"
    );
    // A variable-arity reader, called with any number of arguments.
    for arity in [0, 1, 3] {
        assert!(p.may_read_stack("trail", Some(arity)), "trail/{arity}");
    }
    // Overloads of one arity told apart by what the arguments are known to be.
    use crate::bytecode::purity::Arg;
    assert!(p.may_read_stack("Wrapped", Some(1)));
    assert!(!p.may_read_stack_with("Wrapped", &[Arg::String]));
    assert!(!p.may_read_stack_with("Wrapped", &[Arg::Value]));
    assert!(p.may_read_stack_with("Wrapped", &[Arg::Unknown]));
    assert!(
        p.may_read_stack_with("trail", &[Arg::String, Arg::Value]),
        "variable arity"
    );
    assert!(p.may_read_stack_with("getStackTrace", &[]), "a JDK reader");
}

const QUIET: &str = r#"package m;
public class Quiet {
    public int where() { return 1; }
    public String label() { return "q"; }
    public int twice(int x) { return 2 * x; }
    public long twice(long x) { return 2 * x; }
}
"#;

/// A project class with a JDK class's simple name: a source-level `Thread` may mean either.
const THREAD: &str = r#"package m;
public class Thread {
    public int where() { return 1; }
}
"#;

#[test]
fn a_call_on_a_known_class_is_asked_of_that_class_and_its_subclasses() {
    let (dir, _, _) = main_and_tests(
        &[
            ("Tracing.java", TRACING),
            ("Quiet.java", QUIET),
            ("Thread.java", THREAD),
        ],
        &[("CallerLabel.java", TRACING_TEST)],
    );
    let jdk = jdk_types();
    let classes = dir.path().join("classes");
    let scan = |cp: &[std::path::PathBuf]| super::scan_with_jdk(cp, &jdk).unwrap();
    let main_only = scan(std::slice::from_ref(&classes));
    let p = scan(&[classes, dir.path().join("test-classes")]);
    // By name, `where()` reads the stack (`Tracing.where`); on a `Quiet` it cannot.
    assert!(p.may_read_stack("where", Some(0)));
    assert!(!p.may_read_stack_on("Quiet", false, "where", 0));
    assert!(p.may_read_stack_on("Tracing", true, "where", 0));
    assert!(
        p.may_read_stack_on("Thread", false, "where", 0),
        "a JDK namesake"
    );
    assert!(
        p.may_read_stack_on("Quiet[]", false, "where", 0),
        "an array"
    );
    // `Tracing.label()` reads nothing itself; a test subclass's override does.
    assert!(!main_only.may_read_stack_on("Tracing", false, "label", 0));
    assert!(p.may_read_stack_on("Tracing", false, "label", 0));
    // What the calls return: every `twice/1` of `Quiet` a primitive, `label()` a string.
    assert!(p.call_returns_primitive("Quiet", "where", 0));
    assert!(p.call_returns_primitive("Quiet", "twice", 1));
    assert!(!p.call_returns_primitive("Quiet", "label", 0));
    assert!(!p.call_returns_primitive("Thread", "where", 0));
    assert!(!p.call_returns_primitive("Unknown", "where", 0));
    // Without the JDK's classes nothing is known per class.
    let blind = super::scan(&[dir.path().join("classes")]).unwrap();
    assert!(blind.may_read_stack_on("Quiet", false, "where", 0));
    assert!(!blind.call_returns_primitive("Quiet", "where", 0));
}

/// Objects handed to JDK code, by declared type: a class whose JDK overrides (and its
/// subclasses') read no stack hands nothing, unless it extends a JDK container or is
/// serializable while a serialization hook reads the stack.
#[test]
fn a_handed_object_hands_nothing_when_no_override_of_its_type_reads_the_stack() {
    let sources: &[(&str, &str)] = &[
        ("Badge.java", "package m;\npublic class Badge { public String toString() { return \"tag\"; } }\n"),
        (
            "Loud.java",
            "package m;\npublic class Loud { public String toString() { return new Throwable().getStackTrace()[0].getMethodName(); } }\n",
        ),
        ("Base.java", "package m;\npublic class Base { public int size() { return 1; } }\n"),
        ("Bag.java", "package m;\npublic class Bag extends java.util.ArrayList<Object> { }\n"),
        ("Hue.java", "package m;\npublic enum Hue { RED }\n"),
        ("Plain.java", "package m;\npublic class Plain implements java.io.Serializable, Comparable<Plain> { public int compareTo(Plain o) { return 0; } }\n"),
        (
            "Keep.java",
            "package m;\npublic class Keep { private void writeObject(java.io.ObjectOutputStream o) { java.lang.Thread.dumpStack(); } }\n",
        ),
        ("Thread.java", THREAD),
    ];
    let sub = "package t;\npublic class Sub extends m.Base { public int hashCode() { return Thread.currentThread().getStackTrace().length; } }\n";
    let (dir, _, _) = main_and_tests(sources, &[("Sub.java", sub)]);
    let jdk = jdk_types();
    let classes = dir.path().join("classes");
    let main_only = super::scan_with_jdk(std::slice::from_ref(&classes), &jdk).unwrap();
    let p = super::scan_with_jdk(&[classes, dir.path().join("test-classes")], &jdk).unwrap();
    assert!(p.hands_nothing("Badge"));
    assert!(p.hands_nothing("Hue"), "an enum");
    assert!(!p.hands_nothing("Loud"), "its toString reads the stack");
    assert!(main_only.hands_nothing("Base"));
    assert!(
        !p.hands_nothing("Base"),
        "a subclass's hashCode reads the stack"
    );
    assert!(p.made_hands_nothing("Base"), "`new Base()` is no subclass");
    assert!(!p.made_hands_nothing("Loud") && !p.made_hands_nothing("Bag"));
    assert!(
        !p.hands_nothing("Bag"),
        "JDK code holding a list calls its elements"
    );
    assert!(
        !p.hands_nothing("Plain"),
        "serializable, and a hook reads the stack"
    );
    assert!(!p.hands_nothing("Keep"));
    assert!(!p.hands_nothing("Thread"), "a JDK namesake");
    assert!(!p.hands_nothing("Badge[]") && !p.hands_nothing("Unknown"));
    let blind = super::scan(&[dir.path().join("classes")]).unwrap();
    assert!(
        !blind.hands_nothing("Badge"),
        "without the JDK's classes, none"
    );
}

const DOUBLER: &str = r#"package m;
public class Doubler {
    public static int twice(int x) { if (x < 0) throw new IllegalArgumentException("neg"); return 2 * x; }
}
"#;

const PRINTS_TRACE: &str = r#"package t;
public class PrintsTrace {
    String trace() {
        try { m.Doubler.twice(-1); return ""; } catch (IllegalArgumentException e) {
            java.io.StringWriter w = new java.io.StringWriter();
            e.printStackTrace(new java.io.PrintWriter(w));
            return w.toString();
        }
    }
}
"#;

#[test]
fn frames_are_unread_only_where_no_project_method_reads_the_stack() {
    let (dir, _, _) = main_and_tests(
        &[("Doubler.java", DOUBLER)],
        &[("PrintsTrace.java", PRINTS_TRACE)],
    );
    let (classes, tests) = (dir.path().join("classes"), dir.path().join("test-classes"));
    let jdk = jdk_types();
    let scan = |own: &[std::path::PathBuf], deps: &[std::path::PathBuf]| {
        super::scan_project(own, deps, &jdk)
            .unwrap()
            .frames_unread()
    };
    assert!(scan(std::slice::from_ref(&classes), &[]));
    // A test that prints a caught exception's trace into a string reads its frames' lines.
    assert!(!scan(&[classes.clone(), tests.clone()], &[]));
    // The same class as a dependency's (a test framework's own reads report a failure).
    assert!(scan(
        std::slice::from_ref(&classes),
        std::slice::from_ref(&tests)
    ));
}
