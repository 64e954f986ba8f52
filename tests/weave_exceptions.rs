//! Weaving where exceptions matter: checked exceptions thrown, declared or caught in the method,
//! a location inside `try`, `catch` and `finally`, and the stack trace an exception leaving a
//! patch shows to code that inspects it.
//!
//! One differential test (`common::weave`): each case's woven program with patch i selected
//! prints what the plain program with patch i applied prints, and compiles where it does.

mod common;
use common::weave::{case, woven_behaves_like_plain, Case};

#[test]
fn woven_programs_behave_like_plain_ones() {
    woven_behaves_like_plain(cases());
}

fn cases() -> Vec<Case> {
    vec![
        // What code inspecting a stack trace sees: the patched method where the exception left the
        // statement, the caller below it, no generated frame (`Rt.framed`).
        case(
            "stack_frames",
            r#"
    static int quot;
    static int helper(int a, int b) {
        if (b == 3) throw new IllegalStateException("three");
        return a - b;
    }
    static int div(int a, int b) {
        quot = a / b;
        return quot;
    }
    static String where(Call c) {
        try {
            return "none " + c.call();
        } catch (Throwable e) {
            StackTraceElement[] st = e.getStackTrace();
            Throwable cause = e.getCause();
            return e.getClass().getSimpleName() + " at " + st[0].getMethodName() + " < "
                + st[1].getMethodName() + " < " + st[2].getMethodName()
                + (cause == null ? "" : " cause at " + cause.getStackTrace()[0].getMethodName());
        }
    }"#,
            r#"
        show("a", () -> where(() -> div(6, 0)));
        show("b", () -> where(() -> div(6, 3)));
        show("c", () -> where(() -> div(7, 2)));"#,
            "quot = a / b;",
            &[
                "quot = a / (b - 3);",
                "quot = helper(a, b);",
                "if (b == 0) throw new IllegalStateException(\"zero\"); else quot = a / b;",
                "if (b != 2) throw new RuntimeException(new IllegalArgumentException(\"w\"));",
                "quot = a % b;",
            ],
        ),
        case(
            "throws_checked",
            r#"
    static int parse(String s) throws java.io.IOException {
        if (s == null) throw new java.io.IOException("null");
        int n = s.length();
        n = n * 2;
        return n;
    }"#,
            r#"
        show("a", () -> parse("abc"));
        show("b", () -> parse(null));
        show("c", () -> parse("abcdef"));"#,
            "n = n * 2;",
            &[
                "throw new java.io.IOException(\"x\" + n);",
                "throw new Exception(\"e\");",
                "n = n * 3;",
                "if (n > 4) throw new java.io.FileNotFoundException(s);",
                "return n + 1;",
                "n = Integer.parseInt(s);",
            ],
        ),
        case(
            "try_return_with_finally",
            r#"
    static int calls, fin;
    static int f(int v) {
        try {
            calls++;
            if (v > 3) throw new IllegalStateException("big");
            return v * 2;
        } catch (IllegalStateException e) {
            return -1;
        } finally {
            fin++;
        }
    }
    static String g(int v) { int r = f(v); return r + " calls=" + calls + " fin=" + fin; }"#,
            r#"
        show("a", () -> g(1));
        show("b", () -> g(5));
        show("c", () -> g(3));"#,
            "return v * 2;",
            &[
                "return v * 3;",
                "fin += 100;",
                "return fin;",
                "throw new IllegalStateException(\"p\" + v);",
                "calls++; return calls;",
                "return w;",
                "if (v == 3) return 33; fin += 10;",
            ],
        ),
        case(
            "in_catch",
            r#"
    static int fin;
    static int f(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        } finally {
            fin++;
        }
    }
    static String g(String s) { int r = f(s); return r + " fin=" + fin; }"#,
            r#"
        show("a", () -> g("12"));
        show("b", () -> g("x1"));"#,
            "return -1;",
            &[
                "return e.getMessage().length();",
                "throw e;",
                "return s.length();",
                "e = null; return 0;",
                "throw new java.io.IOException();",
                "fin = 50; return fin;",
            ],
        ),
        case(
            "in_finally",
            r#"
    static int fin;
    static int f(int v) {
        int r = 0;
        try {
            r = 10 / v;
        } finally {
            fin++;
        }
        return r + fin;
    }"#,
            r#"
        show("a", () -> f(2));
        show("b", () -> f(0));
        show("c", () -> f(5));"#,
            "fin++;",
            &[
                "fin += 2;",
                "fin--;",
                "r = 7;",
                "v = 1; r += v;",
                "return r;",
            ],
        ),
        case(
            "checked_caught_locally",
            r#"
    static String read(String s) {
        try {
            if (s.isEmpty()) throw new java.io.IOException("empty");
            int n = s.length();
            n++;
            return "n" + n;
        } catch (java.io.IOException | IllegalStateException e) {
            return "caught " + e.getMessage();
        }
    }"#,
            r#"
        show("a", () -> read("abc"));
        show("b", () -> read(""));
        show("c", () -> read("abcdef"));"#,
            "n++;",
            &[
                "if (n > 0) throw new java.io.IOException(\"p\" + n);",
                "if (n > 4) throw new java.io.FileNotFoundException(s);",
                "n--;",
                "if (n == 3) throw new IllegalStateException(\"i\");",
                "if (n > 0) throw new Exception(\"e\");",
            ],
        ),
    ]
}
