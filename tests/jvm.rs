//! The embedded JVM in this test process (one JVM, shared by every test here): agent calls,
//! in-process javac, and woven code reaching Rust through the registered `Rt.choose` native.

mod common;
use common::{java_home, write_file};
use patchval::worker::jvm::{self, Jvm};
use std::sync::OnceLock;

struct Shared {
    jvm: Jvm,
    dir: tempfile::TempDir,
}

// SAFETY of sharing: `Jvm` wraps a `JavaVM`, which is Send + Sync; threads attach on use.
fn shared() -> &'static Shared {
    static JVM: OnceLock<Shared> = OnceLock::new();
    JVM.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let agent = patchval::agent::extract(dir.path()).unwrap();
        let cp = format!(
            "{}:/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar",
            agent.display()
        );
        // The workers' options (javac's internals exported to the agent's `JavacPrune` among
        // them), with a smaller heap.
        let mut options = patchval::toolchain::default_jvm_options();
        options.push("-Xmx512m".to_string());
        let jvm = Jvm::start(&java_home(), &cp, &options).expect("JVM starts");
        Shared { jvm, dir }
    })
}

fn call(args: &[&str]) -> Vec<String> {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    shared().jvm.call(&args).expect("agent call")
}

const WOVEN: &str = r#"
package t;
public class Pick {
    public static int value() {
        switch (patchval.agent.Rt.choose(0)) {
            case 0: return 10;
            case 1: return 11;
            default: return -1;
        }
    }
}
"#;

const TEST: &str = r#"
package t;
public class PickTest {
    @org.junit.Test public void isEleven() { org.junit.Assert.assertEquals(11, Pick.value()); }
}
"#;

fn compile(dir: &std::path::Path, name: &str, text: &str, cp: &str) -> Vec<String> {
    let src = write_file(&dir.join("src"), name, text);
    let out = dir.join("classes");
    let opts = format!("-d\t{}\t-cp\t{cp}\t--release\t8\t-nowarn", out.display());
    let opts: Vec<&str> = opts.split('\t').collect();
    let n = opts.len().to_string();
    let mut args = vec!["compile", n.as_str()];
    args.extend(opts.iter().copied());
    let src = src.display().to_string();
    args.extend(["1", src.as_str(), "0", "0"]);
    call(&args)
}

#[test]
fn agent_answers() {
    assert_eq!(call(&["version"]), ["patchval-agent 1"]);
}

#[test]
fn woven_code_reaches_rust_and_tests_see_the_selected_patch() {
    let s = shared();
    let dir = s.dir.path().join("woven");
    let agent = dir.parent().unwrap().join("patchval-agent.jar");
    let cp = format!("{}:/usr/share/java/junit4.jar", agent.display());
    assert_eq!(compile(&dir, "Pick.java", WOVEN, &cp), ["OK"]);
    let cp2 = format!("{cp}:{}", dir.join("classes").display());
    assert_eq!(compile(&dir, "PickTest.java", TEST, &cp2), ["OK"]);
    let classes = dir.join("classes").display().to_string();
    let before = jvm::choose_calls();
    jvm::select_patch(1);
    assert_eq!(
        call(&["runTest", "1", &classes, "t.PickTest", "isEleven"]),
        ["PASS"]
    );
    jvm::select_patch(0);
    let r = call(&["runTest", "1", &classes, "t.PickTest", "isEleven"]);
    assert!(r[0].starts_with("FAIL\tjava.lang.AssertionError"), "{r:?}");
    assert!(jvm::choose_calls() >= before + 2);
    let listed = call(&["listTests", "1", &classes, "1", "t.PickTest"]);
    assert_eq!(listed, ["t.PickTest#isEleven"]);
}

#[test]
fn compile_errors_come_back_with_lines() {
    let dir = shared().dir.path().join("broken");
    let r = compile(
        &dir,
        "Bad.java",
        "class Bad {\n int f() { return \"s\"; }\n}\n",
        "",
    );
    assert_eq!(r[0], "ERRORS");
    let fields: Vec<&str> = r[1].split('\t').collect();
    assert_eq!(fields[1], "2", "{r:?}");
}

/// A class whose methods on lines 5 to 13 may be left out: context copies on 5-7 (does not
/// attribute), 9-11 (fails definite assignment) and 13 (compiles), a generated method on 12
/// (compiles); the others are kept.
const PRUNABLE: &str = "package t;
import java.util.function.IntSupplier;
public class Prune {
    int good(int x) { IntSupplier s = () -> x + 1; return s.getAsInt(); }
    int __pv_ctx0_good(int x) {
        return y;
    }
    static class Inner { int h() { Runnable r = () -> {}; r.run(); return 2; } }
    int __pv_ctx1_good(int x) {
        int z; return z;
    }
    int __pv_p2(int x) { return x * 2; }
    int __pv_ctx2_good(int x) { IntSupplier s = () -> x + 2; return s.getAsInt(); }
    int later(int x) { java.util.function.IntUnaryOperator g = v -> v * 3; return g.applyAsInt(x); }
}
";

/// The context copies' lines in [`PRUNABLE`].
const COPIES: [(usize, usize); 3] = [(5, 7), (9, 11), (13, 13)];

fn compile_pruning(
    dir: &std::path::Path,
    text: &str,
    prunable: &[(usize, usize)],
    unused: &[(usize, usize)],
) -> Vec<String> {
    let src = write_file(&dir.join("src"), "t/Prune.java", text);
    let out = dir.join("classes");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let request = patchval::pool::protocol::Request::Compile {
        options: [
            "-d",
            out.to_str().unwrap(),
            "--release",
            "8",
            "-g",
            "-nowarn",
        ]
        .iter()
        .chain(["-XDshould-stop.ifError=FLOW"].iter())
        .map(|s| s.to_string())
        .collect(),
        files: vec![src.display().to_string()],
        prunable: prunable.to_vec(),
        unused: unused.to_vec(),
    };
    let args = request.agent_args();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    call(&args)
}

fn class_bytes(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.join("classes/t"))
        .map(|d| {
            d.flatten()
                .map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    (name, std::fs::read(e.path()).unwrap())
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// `text` with the lines of `ranges` (1-based, inclusive) left blank: every other line keeps its
/// number.
fn blanked(text: &str, ranges: &[(usize, usize)]) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            if ranges.iter().any(|&(a, b)| (a..=b).contains(&(i + 1))) {
                "\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect()
}

/// Errors only inside prunable methods: javac writes the class files without those methods and
/// without the unused ones (the copies), byte for byte the ones it writes for the text without
/// them; the errors still come back. With no error the unused ones are left out alike. An error
/// outside them, or a method holding one that declares a class, writes nothing, as a plain call.
#[test]
fn methods_holding_errors_are_left_out_of_the_class_files() {
    let base = shared().dir.path().join("prune");
    let pruned = compile_pruning(&base.join("a"), PRUNABLE, &[(5, 13)], &COPIES);
    assert_eq!(pruned[0], "PRUNED", "{pruned:?}");
    let lines: Vec<&str> = pruned[1..]
        .iter()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(lines, ["6", "10"], "{pruned:?}");
    let without = blanked(PRUNABLE, &COPIES);
    assert_eq!(compile_pruning(&base.join("b"), &without, &[], &[]), ["OK"]);
    let (a, b) = (class_bytes(&base.join("a")), class_bytes(&base.join("b")));
    assert_eq!(a.len(), 2, "Prune and Prune$Inner");
    assert!(
        a == b,
        "the pruned compile's class files differ from the text's without the methods"
    );

    // No error: the copies are left out all the same.
    let clean = PRUNABLE
        .replace("return y;", "return x;")
        .replace("int z; return z;", "int z = 1; return z;");
    let r = compile_pruning(&base.join("e"), &clean, &[(5, 13)], &COPIES);
    assert_eq!(r, ["OK"]);
    assert_eq!(
        compile_pruning(&base.join("f"), &blanked(&clean, &COPIES), &[], &[]),
        ["OK"]
    );
    assert!(class_bytes(&base.join("e")) == class_bytes(&base.join("f")));

    // An error outside the prunable lines: nothing written.
    let outside = PRUNABLE.replace("return x * 2;", "return q;");
    let r = compile_pruning(&base.join("c"), &outside, &[(5, 11)], &COPIES);
    assert_eq!(r[0], "ERRORS", "{r:?}");
    assert!(class_bytes(&base.join("c")).is_empty());
    // A method holding an error declares an anonymous class: its name would be taken.
    let anonymous = PRUNABLE.replace("return y;", "Object o = new Object() {}; return y;");
    let r = compile_pruning(&base.join("d"), &anonymous, &[(5, 13)], &COPIES);
    assert_eq!(r[0], "ERRORS", "{r:?}");
    assert!(class_bytes(&base.join("d")).is_empty());
}

const JUNIT3: [(&str, &str); 6] = [
    (
        "PlainCase",
        "public class PlainCase extends junit.framework.TestCase {
            public void testA() {} public void testB() {} }",
    ),
    (
        "DefaultSuite",
        "public class DefaultSuite extends junit.framework.TestCase {
            public static junit.framework.TestSuite suite() { return new junit.framework.TestSuite(DefaultSuite.class); }
            public void testA() {} public void testB() { fail(\"b\"); } }",
    ),
    (
        "StoredSuite",
        "public class StoredSuite extends junit.framework.TestCase {
            public static junit.framework.Test suite() {
                junit.framework.TestSuite s = new junit.framework.TestSuite(StoredSuite.class); return s; }
            public void testA() {} }",
    ),
    (
        "SettingSuite",
        "public class SettingSuite extends junit.framework.TestCase {
            static int skip;
            public static junit.framework.TestSuite suite() { skip = 1; return new junit.framework.TestSuite(SettingSuite.class); }
            public void testA() { assertEquals(1, skip); } }",
    ),
    (
        "OtherSuite",
        "public class OtherSuite extends junit.framework.TestCase {
            public static junit.framework.TestSuite suite() { return new junit.framework.TestSuite(PlainCase.class); }
            public void testA() {} }",
    ),
    (
        "AddingSuite",
        "public class AddingSuite extends junit.framework.TestCase {
            public static junit.framework.Test suite() {
                junit.framework.TestSuite s = new junit.framework.TestSuite(AddingSuite.class);
                s.addTestSuite(PlainCase.class); return s; }
            public void testA() {} }",
    ),
];

/// A JUnit 3 class whose suite() only returns `new TestSuite(ItsClass.class)` is listed method by
/// method, like one without suite(); any other suite() keeps the class one whole test (JUnit runs
/// what it builds). A method of such a class runs alone through its suite().
#[test]
fn junit3_default_suites_are_listed_by_method() {
    let s = shared();
    let dir = s.dir.path().join("junit3");
    let cp = "/usr/share/java/junit4.jar".to_string();
    let sources: Vec<(String, String)> = JUNIT3
        .iter()
        .map(|(name, body)| (format!("t3/{name}.java"), format!("package t3;\n{body}\n")))
        .collect();
    let src_dir = dir.join("src");
    for (path, text) in &sources {
        write_file(&src_dir, path, text);
    }
    let out = dir.join("classes");
    let mut args: Vec<String> = vec!["compile".into(), "7".into()];
    args.extend(
        [
            "-d",
            out.to_str().unwrap(),
            "-cp",
            &cp,
            "--release",
            "8",
            "-nowarn",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    args.push(sources.len().to_string());
    args.extend(
        sources
            .iter()
            .map(|(p, _)| src_dir.join(p).display().to_string()),
    );
    args.extend(["0".into(), "0".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(call(&args), ["OK"]);
    let classes = out.display().to_string();
    let mut list = vec!["listTests", "1", &classes, "6"];
    let names: Vec<String> = JUNIT3.iter().map(|(n, _)| format!("t3.{n}")).collect();
    list.extend(names.iter().map(String::as_str));
    assert_eq!(
        call(&list),
        [
            "t3.AddingSuite#*",
            "t3.DefaultSuite#testA",
            "t3.DefaultSuite#testB",
            "t3.OtherSuite#*",
            "t3.PlainCase#testA",
            "t3.PlainCase#testB",
            "t3.SettingSuite#*",
            "t3.StoredSuite#testA",
        ]
    );
    assert_eq!(
        call(&["runTest", "1", &classes, "t3.DefaultSuite", "testA"]),
        ["PASS"]
    );
    let r = call(&["runTest", "1", &classes, "t3.DefaultSuite", "testB"]);
    assert!(
        r[0].starts_with("FAIL\tjunit.framework.AssertionFailedError\tb"),
        "{r:?}"
    );
    assert_eq!(
        call(&["runTest", "1", &classes, "t3.SettingSuite", "*"]),
        ["PASS"]
    );
}
