//! Weaving Java snippets: the woven text re-parses cleanly and javac's verdicts map to the right units.

use super::*;
use std::process::Command;

const CALC: &str = r#"package p;

import java.io.IOException;

public class Calc {
    private int total;

    public static int sumTo(int n) {
        int sum = 0;
        outer:
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < 1; j++) {
                sum += i;
            }
        }
        return sum;
    }

    public void add(int v) throws IOException {
        if (v < 0) {
            throw new IOException("negative");
        }
        total += v;
    }

    public int total() {
        return total;
    }

    public <T extends Comparable<T>> T max(T a, T b) {
        T best = a;
        if (b.compareTo(a) > 0) {
            best = b;
        }
        return best;
    }

    public Calc(int start) {
        super();
        total = start;
    }
}
"#;

fn plan_for(unpatched: &str, patches: &[&str]) -> Plan {
    let start = CALC.find(unpatched).expect("unpatched text in CALC");
    let patches: Vec<String> = patches.iter().map(|s| s.to_string()).collect();
    plan(CALC, start..start + unpatched.len(), &patches).expect("plan")
}

fn javac_home() -> std::path::PathBuf {
    crate::toolchain::find_jdk().expect("a JDK")
}

/// Compiles the woven text with the javac command and returns the error lines.
fn javac_errors(woven: &Woven) -> Vec<usize> {
    let dir = tempfile::tempdir().unwrap();
    let agent = crate::agent::extract(dir.path()).unwrap();
    let src = dir.path().join("Calc.java");
    std::fs::write(&src, &woven.text).unwrap();
    let out = Command::new(javac_home().join("bin/javac"))
        .args([
            "--release",
            "8",
            "-nowarn",
            "-Xmaxerrs",
            "10000",
            "-XDshould-stop.ifError=FLOW",
            "-cp",
        ])
        .arg(&agent)
        .arg("-d")
        .arg(dir.path().join("out"))
        .arg(&src)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    err.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix(&format!("{}:", src.display()))?;
            let (line, msg) = rest.split_once(':')?;
            msg.trim_start()
                .starts_with("error")
                .then(|| line.parse().ok())?
        })
        .collect()
}

fn failing(woven: &Woven, kind: UnitKind) -> Vec<usize> {
    let mut v: Vec<usize> = javac_errors(woven)
        .into_iter()
        .filter_map(|l| woven.unit_at(l).filter(|u| u.kind == kind).map(|u| u.patch))
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn woven_loop_body_reparses_and_javac_isolates_errors() {
    let p = plan_for(
        "sum += i;",
        &[
            "sum += i * 2;",
            "sum += undefinedName;",
            "sum = \"text\";",
            "break;",
            "continue outer;",
            "break outer;",
            "return sum;",
            "return sum; sum++;",
            "sum += i; }",
        ],
    );
    assert_eq!(
        p.excluded.iter().filter(|e| e.is_some()).count(),
        1,
        "{:?}",
        p.excluded
    );
    assert!(
        p.excluded[8].as_deref().unwrap().contains("structure")
            || p.excluded[8].as_deref().unwrap().contains("parse")
    );
    let woven = p.weave(&p.weavable(), true, false, 0).unwrap();
    assert_eq!(syntax_errors(&woven.text), 0);
    assert_eq!(failing(&woven, UnitKind::Context), vec![1, 2, 7]);
    // Round two: only compilable patches, no context copies, no errors at all.
    let ok: Vec<usize> = vec![0, 3, 4, 5, 6];
    let woven = p.weave(&ok, false, false, 0).unwrap();
    assert!(javac_errors(&woven).is_empty(), "{}", woven.text);
    assert!(woven.text.contains("break outer;") && woven.text.contains("continue outer;"));
}

#[test]
fn missing_return_and_checked_exceptions_in_context() {
    let p = plan_for(
        "return best;",
        &[
            "return a;",
            "best = b;",
            "throw new IllegalStateException();",
        ],
    );
    assert!(p.site.ends_method);
    let woven = p.weave(&p.weavable(), true, true, 0).unwrap();
    assert_eq!(failing(&woven, UnitKind::Context), vec![1]);
    let woven = p.weave(&[0, 2], false, true, 0).unwrap();
    assert!(javac_errors(&woven).is_empty(), "{}", woven.text);

    let p = plan_for(
        "total += v;",
        &[
            "throw new IOException(\"x\");",
            "throw new Exception();",
            "total -= v;",
        ],
    );
    let woven = p.weave(&p.weavable(), true, false, 0).unwrap();
    assert_eq!(failing(&woven, UnitKind::Context), vec![1]);
    let woven = p.weave(&[0, 2], false, false, 0).unwrap();
    assert!(javac_errors(&woven).is_empty(), "{}", woven.text);
}

#[test]
fn constructors_and_generic_methods_weave() {
    let p = plan_for(
        "total = start;",
        &[
            "total = start + 1;",
            "total = -start;",
            "this.total = nothing;",
        ],
    );
    let woven = p.weave(&p.weavable(), true, false, 0).unwrap();
    assert_eq!(failing(&woven, UnitKind::Context), vec![2]);
    let p = plan_for("best = b;", &["best = a;", "best = null;", "best = 3;"]);
    let woven = p.weave(&p.weavable(), true, false, 0).unwrap();
    assert_eq!(failing(&woven, UnitKind::Context), vec![2]);
}

#[test]
fn terminal_stub_for_last_return() {
    // `return sum;` is the last statement of a non-void method: a stub that can complete
    // normally leaves the method without a return, so the weave needs the terminal form.
    let p = plan_for("return sum;", &["return sum + 1;", "return 0;"]);
    let plain = p.weave(&[0, 1], false, false, 0).unwrap();
    assert!(!javac_errors(&plain).is_empty());
    let terminal = p.weave(&[0, 1], false, true, 0).unwrap();
    assert!(javac_errors(&terminal).is_empty(), "{}", terminal.text);
}

#[test]
fn unsupported_locations_are_reported() {
    let start = CALC.find("int sum = 0;").unwrap();
    let e = plan(CALC, start..start + 12, &["int sum = 1;".into()]).unwrap_err();
    assert_eq!(e, Unsupported::Declaration);
    let p = plan_for(
        "sum += i;",
        &[
            "int sum = 1; sum += i;",
            "sum += i; // note",
            "sum += i; // \\u000a sum++;",
            "int k = 1; sum += k;",
        ],
    );
    // `sum` is named after the location (`return sum;`); `k` is not, and ends with the unit.
    assert!(p.excluded[0].is_some() && p.excluded[2].is_some());
    assert!(p.excluded[3].is_none(), "{:?}", p.excluded[3]);
    // A comment is blanked where it is (a `//` one would swallow what weaving puts after it).
    assert!(p.excluded[1].is_none(), "{:?}", p.excluded[1]);
    let woven = p.weave(&[1], true, false, 0).unwrap();
    assert!(javac_errors(&woven).is_empty(), "{}", woven.text);
    // An unpatched text that takes the newline after its statement along (a manifest's way of
    // cutting) is a location that cannot be woven, not a panic.
    let start = CALC.find("return total;").unwrap();
    let e = plan(CALC, start..start + 14, &["return 0;\n".into()]).unwrap_err();
    assert!(
        matches!(e, Unsupported::PastTarget { .. }) && e.to_string().contains("reaches past"),
        "{e}"
    );
}

const SNIPPETS: &str = r#"package p;

public class Snip {
    static int braceless(int[] xs, boolean c) {
        int sum = 0;
        for (int i = 0; i < xs.length; i++) {
            if (xs[i] > 0)
                sum += xs[i];
            else
                sum--;
        }
        int x;
        int y = 0;
        if (c) x = 1; else x = 2;
        y = sum;
        return x + y;
    }

    static String unassigned(int n) {
        int found;
        for (int i = 0; ; i++) {
            if (i * i >= n) {
                found = i;
                break;
            }
        }
        return "r" + found;
    }

    static int caught(String s) {
        try {
            if (s == null) throw new java.io.IOException();
            int n = s.length();
            n++;
            return n;
        } catch (java.io.IOException | IllegalStateException e) {
            return -1;
        }
    }
}
"#;

fn snippet_plan(unpatched: &str, patches: &[&str]) -> Plan {
    let start = SNIPPETS
        .find(unpatched)
        .expect("unpatched text in SNIPPETS");
    let patches: Vec<String> = patches.iter().map(|s| s.to_string()).collect();
    plan(SNIPPETS, start..start + unpatched.len(), &patches).expect("plan")
}

fn snippet_errors(woven: &Woven) -> Vec<usize> {
    let w = Woven {
        text: woven.text.replace("public class Snip", "public class Calc"),
        ..woven.clone()
    };
    javac_errors(&w)
}

#[test]
fn braceless_bodies_take_exactly_one_statement() {
    // Plain `if (c) sum += 1; break;` runs `break` always, and `if (c) ;`-less `""` is no statement.
    let p = snippet_plan(
        "sum += xs[i];",
        &[
            "sum += 2;",
            "sum += 1; break;",
            "",
            "if (sum > 3) sum = 0;",
            "{ sum++; break; }",
        ],
    );
    let why = |i: usize| p.excluded[i].as_deref().unwrap_or("");
    assert!(
        p.excluded[0].is_none() && p.excluded[4].is_none(),
        "{:?}",
        p.excluded
    );
    assert!(why(1).contains("braces") && why(2).contains("braces"));
    // A trailing `if` without `else` would capture the body's `else` in the plain file.
    assert!(why(3).contains("braces"), "{:?}", p.excluded);
    let woven = p.weave(&p.weavable(), true, false, 0).unwrap();
    assert!(snippet_errors(&woven).is_empty(), "{}", woven.text);
}

#[test]
fn locals_maybe_assigned_are_neither_passed_nor_replaced() {
    // `x` is assigned in both branches: javac sees it assigned, the weaver cannot tell; writing a
    // default back for patches that do not touch it would clobber its value.
    let p = snippet_plan("y = sum;", &["x = 7;", "y = sum + 1;"]);
    assert!(p.excluded[0].as_deref().unwrap().contains("may or may not"));
    assert!(p.excluded[1].is_none());
    let woven = p.weave(&[1], false, false, 0).unwrap();
    assert!(!woven.text.contains("x = __pv_o"), "{}", woven.text);
}

#[test]
fn unassigned_locals_leave_on_normal_completion_and_break() {
    let p = snippet_plan(
        "found = i;\n                break;",
        &[
            "found = i + 1; break;",
            "if (i > 2) { found = 9; break; } found = i; break;",
        ],
    );
    assert_eq!(p.weavable(), vec![0, 1]);
    let woven = p.weave(&[0, 1], true, false, 0).unwrap();
    assert!(snippet_errors(&woven).is_empty(), "{}", woven.text);
    let p = snippet_plan("found = i;", &["found = i * 2;", "found = 1; break outer;"]);
    assert!(p.excluded[0].is_none());
    assert!(p.excluded[1].as_deref().unwrap().contains("label"));
}

#[test]
fn exceptions_caught_around_the_location_may_leave_the_unit() {
    let p = snippet_plan(
        "n++;",
        &[
            "if (n > 0) throw new java.io.IOException();",
            "if (n > 1) throw new IllegalStateException();",
        ],
    );
    assert_eq!(
        p.site.caught,
        vec!["java.io.IOException", "IllegalStateException"]
    );
    let woven = p.weave(&[0, 1], true, false, 0).unwrap();
    assert!(snippet_errors(&woven).is_empty(), "{}", woven.text);
}

#[test]
fn woven_frames_read_as_the_patched_files() {
    // Patch 0 keeps the line count; patch 1 adds two lines, so later lines move by two for it.
    let plan = plan_for(
        "total += v;",
        &[
            "total += v + 1;",
            "if (v > 100) {\n            throw new IllegalStateException(\"big\"); }\n        total += v;",
        ],
    );
    let mut w = plan.weave(&[0, 1], false, false, 0).unwrap();
    w.frames.file_name = "Calc.java".into();
    let line_of =
        |text: &str, needle: &str| text[..text.find(needle).unwrap()].matches('\n').count() + 1;
    let site = line_of(CALC, "total += v;");
    let total_getter = line_of(CALC, "return total;");
    assert_eq!(w.frames.site_line, site);
    assert_eq!(w.frames.package, "p");
    assert_eq!(w.frames.method, "add");
    // Before the location: the same line; after it: shifted by the patch's extra line.
    assert_eq!(w.frames.line(0, 8), Some(8));
    let getter_woven = line_of(&w.text, "return total;");
    assert!(getter_woven > total_getter, "generated code sits before it");
    assert_eq!(w.frames.line(0, getter_woven), Some(total_getter));
    assert_eq!(w.frames.line(1, getter_woven), Some(total_getter + 2));
    // The throw inside patch 1's generated method: its line in the file patched with patch 1.
    let throw_woven = line_of(&w.text, "throw new IllegalStateException(\"big\")");
    assert_eq!(w.frames.line(1, throw_woven), Some(site + 1));
    let detail = format!(
        "java.lang.IllegalStateException: big @ p.Calc.__pv_p1(Calc.java:{throw_woven}) \
         via q.Calc.x(Calc.java:{throw_woven}) and p.Calc.total(Calc.java:{getter_woven})"
    );
    assert_eq!(
        w.frames.rewrite(1, &detail),
        format!(
            "java.lang.IllegalStateException: big @ p.Calc.add(Calc.java:{}) \
             via q.Calc.x(Calc.java:{throw_woven}) and p.Calc.total(Calc.java:{})",
            site + 1,
            total_getter + 2
        ),
        "frames of another package's Calc.java are left alone"
    );
}

#[test]
fn a_cases_bytes_grow_with_the_locals_it_passes() {
    // At `sum += i;` the locals in scope are `j`, `i`, `sum` and the parameter `n`; a case passes
    // those its patch names, besides the unit's two arrays.
    let p = plan_for(
        "sum += i;",
        &["sum += i;", "sum += i + j + n;", "sum += foo;", "sum++;"],
    );
    let bytes = |args: usize| emit::CASE_BYTES + emit::ARG_BYTES * (args + 2);
    assert_eq!(p.case_bytes(0), bytes(2));
    assert_eq!(p.case_bytes(1), bytes(4));
    assert_eq!(p.case_bytes(2), bytes(1), "`foo` is not a local");
    assert_eq!(p.case_bytes(3), bytes(1));
}

#[test]
fn a_top_level_local_declaration_is_told_apart() {
    assert!(super::declares_local("int t = 0; count++;"));
    assert!(super::declares_local("count++; String a, b;"));
    assert!(!super::declares_local("count++;"));
    assert!(!super::declares_local("{ int t = 0; count += t; }"));
    assert!(!super::declares_local(
        "for (int i = 0; i < 2; i++) count++;"
    ));
}

#[test]
fn a_class_line_table_for_patches_that_shift_lines_alike() {
    // Two one-line patches: every line after the location is where the original has it, and each
    // patch's line is the location's, so one line table is both patched files'.
    let plan = plan_for("total += v;", &["total += v + 1;", "total += 2 * v;"]);
    let w = plan.weave(&[0, 1], false, false, 0).unwrap();
    let line_of =
        |text: &str, needle: &str| text[..text.find(needle).unwrap()].matches('\n').count() + 1;
    let site = line_of(CALC, "total += v;");
    assert_eq!(w.frames.common_shift(), Some(frames::Shift::default()));
    assert_eq!(w.frames.plain_line(8), Some(8));
    assert_eq!(
        w.frames.plain_line(line_of(&w.text, "return total;")),
        Some(line_of(CALC, "return total;"))
    );
    assert_eq!(
        w.frames.plain_line(line_of(&w.text, "total += 2 * v;")),
        Some(site)
    );
    // A patch that adds lines shifts what follows differently: no single table.
    let plan = plan_for(
        "total += v;",
        &["total += v + 1;", "total += v;\n        total--;"],
    );
    let w = plan.weave(&[0, 1], false, false, 0).unwrap();
    assert_eq!(w.frames.common_shift(), None);
    assert_eq!(w.frames.plain_line(8), None);
    // One table per shift instead, for the classes each shift's patches run in.
    let shift = |delta| frames::Shift {
        delta,
        remap: frames::Remap::default(),
    };
    assert_eq!(
        w.frames.by_shift(),
        vec![(shift(0), vec![0]), (shift(1), vec![1])]
    );
    let after = line_of(&w.text, "return total;");
    let plain = line_of(CALC, "return total;");
    assert_eq!(w.frames.plain_line_at(&shift(0), after), Some(plain));
    assert_eq!(w.frames.plain_line_at(&shift(1), after), Some(plain + 1));
    assert_eq!(
        w.frames
            .plain_line_at(&shift(1), line_of(&w.text, "total--;")),
        Some(site + 1)
    );
}

#[test]
fn comments_between_a_locations_statements_go_into_its_unit() {
    // A whole body's patches span its comments: the location is the statements and the
    // comments among them, woven, and javac isolates the patch that does not compile.
    let body = "int found;\n        for (int i = 0; ; i++) {\n            if (i * i >= n) {\n                found = i;\n                break;\n            }\n        }\n        return \"r\" + found;";
    let start = SNIPPETS.find(body).unwrap();
    let mut src = SNIPPETS.to_string();
    let commented = body.replacen(
        "int found;",
        "// the root\n        int found; /* none yet */",
        1,
    );
    src.replace_range(start..start + body.len(), &commented);
    let range = start..start + commented.len();
    let patches = [
        "// the root, by a loop\n        int k = 0;\n        while (k * k < n) k++;\n        return \"r\" + k;",
        "return \"r\" + (int) Math.ceil(Math.sqrt(n)); // not quite",
        "int k = 0;\n        return k;",
    ]
    .map(String::from);
    let p = plan(&src, range, &patches).expect("plan");
    assert!(p.excluded.iter().all(Option::is_none), "{:?}", p.excluded);
    // It runs to the end of a method that returns a value: the stub ends abruptly.
    assert!(p.site.ends_method);
    let woven = p.weave(&[0, 1, 2], true, true, 0).unwrap();
    let w = Woven {
        text: woven.text.replace("public class Snip", "public class Calc"),
        ..woven.clone()
    };
    assert_eq!(failing(&w, UnitKind::Context), vec![2], "{}", w.text);
    // Every error javac gives lies in patch 2's context copy.
    let lines = javac_errors(&w);
    assert!(!lines.is_empty(), "{}", w.text);
    for l in lines {
        assert!(
            w.unit_at(l).is_some_and(|u| u.patch == 2),
            "line {l}:\n{}",
            w.text
        );
    }
}

#[test]
fn an_inline_patch_runs_in_the_enclosing_method_as_written() {
    let mut plan = plan_for(
        "total += v;",
        &[
            "total += v + 1;",
            "total += new Throwable().getStackTrace().length;",
        ],
    );
    plan.inline[1] = Some("it reads the stack".into());
    let w = plan.weave(&[0, 1], true, false, 0).unwrap();
    assert!(javac_errors(&w).is_empty(), "{}", w.text);
    let unit = format!("{}1(", crate::protocol::woven::UNIT_PREFIX);
    assert!(
        !w.text.contains(&unit),
        "no generated method for it:\n{}",
        w.text
    );
    let head = "if (__pv_in == 1) {\ntotal += new Throwable().getStackTrace().length;\n";
    assert!(w.text.contains(head), "{}", w.text);
    // Its line is the location's, in the woven method, and a compile error there is its own.
    let line_of =
        |text: &str, needle: &str| text[..text.find(needle).unwrap()].matches('\n').count() + 1;
    let at = line_of(&w.text, "total += new Throwable()");
    assert_eq!(w.frames.plain_line(at), Some(line_of(CALC, "total += v;")));
    assert_eq!(
        w.unit_at(at).map(|u| (u.patch, u.kind)),
        Some((1, UnitKind::Patch))
    );
}
