//! Unit tests of `weave::completion`: each patch's answer is the one javac 17 gives the block
//! (checked by compiling each case: accepted, or "initializer must be able to complete
//! normally" / "return outside method").

use super::*;
use crate::weave::{hoist, in_place};

const SRC: &str = "class T {\n    static int n;\n    static final boolean ON = true;\n    static int[] xs = {1, 2};\n    static {\n        while (true) {\n            n++;\n            if (n > 3) break;\n        }\n    }\n    static {\n        n = 0;\n    }\n    int open;\n    {\n        open = 1;\n    }\n}\n";

/// The check of the block statement holding `unpatched` (its first occurrence after `after`).
fn at(src: &str, after: &str, unpatched: &str) -> BlockCompletion {
    let from = src.find(after).unwrap();
    let start = from + src[from..].find(unpatched).unwrap();
    let h = hoist::block(src, start..start + unpatched.len()).unwrap();
    assert_eq!(&h.src[h.range.clone()], unpatched);
    BlockCompletion::new(&h.src, h.range, &h.method)
}

fn judge(c: &BlockCompletion, cases: &[(&str, bool)]) {
    for (patch, completes) in cases {
        let why = c.check(patch);
        assert_eq!(why.is_none(), *completes, "{patch}: {why:?}");
    }
}

#[test]
fn a_patch_that_drops_the_loop_s_only_break_is_caught() {
    // `while (true)` completes only through its `break`: a patch without one keyword of its
    // own can still make the block an error.
    let c = at(SRC, "while", "if (n > 3) break;");
    judge(
        &c,
        &[
            ("if (n > 2) break;", true),
            ("if (n > 3) { n--; break; }", true),
            ("n += 2;", false),
            ("n = 10 / (4 - n);", false),
            // A break of an inner loop or switch does not exit the `while`.
            ("for (;;) { break; }", false),
            ("switch (n) { case 4: break; }", false),
            ("if (n > 3) return;", false),
            ("Runnable r = () -> { return; }; if (n > 3) break;", true),
        ],
    );
}

#[test]
fn statements_complete_as_jls_14_22_says() {
    let c = at(SRC, "static {\n        n = 0", "n = 0;");
    judge(
        &c,
        &[
            ("n = 1;", true),
            // A line comment ending the patch, in the one-line method the statement moves to.
            ("n = 1; // kept as it was", true),
            ("// removed", true),
            ("throw new IllegalStateException();", false),
            ("if (n == 0) throw new IllegalStateException();", true),
            ("if (n > 0) { throw new Error(); } else { n = 1; }", true),
            ("if (n > 0) { throw new Error(); } else { throw new Error(); }", false),
            // Loops: a condition that cannot be constant, or a break that exits.
            ("while (n < 3) n++;", true),
            ("while (ON) n++;", false),
            ("while (n < xs.length) n++;", true),
            ("while (Boolean.valueOf(true)) n++;", true),
            ("for (int i = 0; i < 3; i++) n += i;", true),
            ("for (final int i = 0; i < 3;) n += i;", false),
            ("for (;;) n++;", false),
            ("for (int k : xs) { while (k > 0) k--; }", true),
            ("do { n++; } while (n < 3);", true),
            ("do { throw new Error(); } while (n < 3);", false),
            ("do { if (n++ > 3) break; } while (true);", true),
            // A loop run once, as a repairer wraps a statement to `break` out of it.
            ("do { n++; } while (false);", true),
            ("do { n++; } while ((false));", true),
            ("do { throw new Error(); } while (false);", false),
            // `!true` is a constant `false` as well, but only the literal is recognised.
            ("do { n++; } while (!true);", false),
            ("do { if (n > 3) break; } while (false);", true),
            ("L: while (true) { if (n++ > 3) break L; }", true),
            ("L: while (true) { if (n++ > 3) break; }", true),
            ("L: { if (n > 0) break L; throw new Error(); }", true),
            ("L: while (true) { while (n < 3) { break L; } }", true),
            ("L: while (true) { while (n < 3) { break; } }", false),
            // try: the try block or a catch block, and the finally.
            ("try { n = 1; } finally { n = 2; }", true),
            ("try { throw new Error(); } catch (Error e) { n = 1; }", true),
            ("try { n = 1; } finally { throw new Error(); }", false),
            ("while (true) { try { break; } finally { throw new Error(); } }", false),
            ("while (true) { try { break; } finally { n = 2; } }", true),
            ("try (java.io.StringReader r = new java.io.StringReader(\"\")) { n = 1; } catch (Exception e) { }", true),
            // switch: no default, a break that exits, a last group or a rule that completes.
            ("switch (n) { case 1: n = 2; }", true),
            ("switch (n) { case 1: n = 2; break; default: throw new Error(); }", true),
            ("switch (n) { case 1: n = 2; default: throw new Error(); }", false),
            ("switch (n) { default: throw new Error(); }", false),
            ("switch (n) { case 1: throw new Error(); default: n = 1; }", true),
            ("switch (n) { case 1 -> n = 2; default -> throw new Error(); }", true),
            ("switch (n) { case 1 -> throw new Error(); default -> throw new Error(); }", false),
            ("synchronized (T.class) { throw new Error(); }", false),
            ("synchronized (T.class) { n = 3; }", true),
            // A return of another method is none of the block's.
            ("new Object() { int f() { return 1; } }.f();", true),
            ("n = 1; return;", false),
        ],
    );
}

#[test]
fn names_are_bound_as_javac_binds_them() {
    let c = at(SRC, "static {\n        n = 0", "n = 0;");
    judge(
        &c,
        &[
            // A local that is not final is never constant; a final one may be.
            ("{ boolean go = true; while (go) n++; }", true),
            ("{ final boolean go = true; while (go) n++; }", false),
            // Not a local here: the final field.
            ("{ { boolean ON = false; } while (ON) n++; }", false),
            // An enhanced `for` completes whatever its body does.
            (
                "for (boolean b : new boolean[] {ON}) { while (ON) n++; }",
                true,
            ),
            (
                "for (boolean b : new boolean[] {ON}) { while (ON) n++; } while (ON) n++;",
                false,
            ),
            (
                "for (boolean b : new boolean[] {ON}) { while (b) n++; }",
                true,
            ),
            (
                "try { n = 1; } catch (RuntimeException e) { while (e != null) n++; }",
                true,
            ),
            (
                "switch (n) { case 1: final boolean go = true; default: while (go) n++; }",
                false,
            ),
            (
                "switch (n) { case 1: boolean go = true; default: go = false; while (go) n++; }",
                true,
            ),
        ],
    );
}

#[test]
fn an_instance_block_is_judged_the_same_way() {
    let c = at(SRC, "open = 1", "open = 1;");
    judge(
        &c,
        &[
            ("open = 2;", true),
            ("throw new RuntimeException();", false),
            ("while (open < 3) open++;", true),
            ("return;", false),
        ],
    );
}

#[test]
fn the_block_hoisted_in_place_is_judged_whole() {
    // The method the plan sees is the whole block: a patch of its first statement is judged
    // with the loop after it, which completes only through its `break`.
    let src = "class T {\n    static int n;\n    static {\n        n = 0;\n        while (true) {\n            n++;\n            if (n > 3) break;\n        }\n    }\n}\n";
    let start = src.find("n = 0;").unwrap();
    let (h, _) = in_place::in_place(src, start..start + 6).unwrap();
    assert_eq!(&h.src[h.range.clone()], "n = 0;");
    let c = h.completion().unwrap();
    judge(
        &c,
        &[
            ("n = 1;", true),
            ("n = 1; // kept", true),
            ("return;", false),
            ("throw new Error();", false),
            ("int k = 2; n = k;", true),
        ],
    );
}

#[test]
fn a_return_of_the_patch_s_own_is_a_certain_error() {
    let src =
        "class T {\n    static int n;\n    static {\n        n = 0;\n        n++;\n    }\n}\n";
    let start = src.find("n = 0;").unwrap();
    let (h, _) = in_place::in_place(src, start..start + 6).unwrap();
    let c = h.completion().unwrap();
    assert_eq!(
        c.certain_error("n = 1;\nif (n > 0) return;"),
        Some((ErrorAt::Patch(18), "return outside method"))
    );
    for patch in [
        "n = 1;",
        // Returns of a lambda, an anonymous class, a local interface's method: javac takes them.
        "Runnable r = () -> { return; };",
        "Object o = new Object() { int f() { return 1; } };",
        "interface L { default int f() { return 1; } }",
        // Does not parse: no certain answer here (`return` alone would: `return n++;`).
        "return );",
        "throw new Error();",
    ] {
        assert_eq!(c.certain_error(patch), None, "{patch}");
    }
}

#[test]
fn a_block_whose_last_statement_surely_cannot_complete_is_a_certain_error() {
    let src = "class T {\n    static int n;\n    static {\n        n = 0;\n        while (true) {\n            n++;\n            if (n > 3) break;\n        }\n    }\n}\n";
    let start = src.find("if (n > 3) break;").unwrap();
    let (h, _) = in_place::in_place(src, start..start + 17).unwrap();
    let c = h.completion().unwrap();
    let never = Some((
        ErrorAt::Block,
        "initializer must be able to complete normally",
    ));
    for patch in [
        "n += 0;",
        "if (n > 3) throw new IllegalStateException();",
        "if (n > 3) { continue; }",
        // A `break` of a nested switch or loop, or in a lambda, does not exit the loop.
        "switch (n) { case 4: break; }",
        "for (int i = 0; i < n; i++) { if (i > 3) break; }",
        "Runnable r = () -> { while (n > 0) { break; } };",
    ] {
        assert_eq!(c.certain_error(patch), never, "{patch}");
    }
    for patch in [
        "if (n > 3) break;",
        "if ((n > 3)) { break; }",
        // A labelled `break` may name the loop (or an outer statement): left to the check.
        "inner: for (;;) { if (n > 3) break inner; }",
        "{ if (n > 3) { break; } }",
    ] {
        assert_eq!(c.certain_error(patch), None, "{patch}");
    }
    // The last statement a `throw`; one before the last is left to javac (`unreachable`).
    let start = src.find("n = 0;").unwrap();
    let (h, _) = in_place::in_place(src, start..start + 6).unwrap();
    let c = h.completion().unwrap();
    assert_eq!(c.certain_error("throw new Error();"), None);
    let src = "class T {\n    int n;\n    {\n        n = 0;\n        n++;\n    }\n}\n";
    let start = src.find("n++;").unwrap();
    let (h, _) = in_place::in_place(src, start..start + 4).unwrap();
    let c = h.completion().unwrap();
    assert_eq!(c.certain_error("throw new Error();"), never);
    assert_eq!(
        c.certain_error("if (n > 0) throw new Error(); else throw new Error();"),
        never
    );
    assert_eq!(c.certain_error("if (n > 0) throw new Error();"), None);
}
