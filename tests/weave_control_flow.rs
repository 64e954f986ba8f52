//! Weaving where control flow matters: an `if` body without braces, switch fall-through, labelled,
//! `do`/`while` and enhanced `for` loops, the last statement of a method, and patches that break,
//! continue or return there.
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
        // Comments in the patched statement (blanked in place before weaving): a block whose
        // body holds `//` comments, and patches ending in one.
        case(
            "comments_in_the_statement",
            r#"
    static int firstBig(int[] xs, int limit) {
        int found = -1;
        for (int i = 0; i < xs.length; i++) {
            if (xs[i] > limit && found < 0) {
                // Got the first one: keep it.
                found = i; /* and go on */
            }
        }
        return found;
    }"#,
            r#"
        show("a", () -> firstBig(new int[] {1, 9, 3, 12}, 5));
        show("b", () -> firstBig(new int[] {}, 0));
        show("c", () -> firstBig(new int[] {4, 4}, 3));"#,
            "if (xs[i] > limit && found < 0) {\n                // Got the first one: keep it.\n                found = i; /* and go on */\n            }",
            &[
                "if (xs[i] >= limit && found < 0) {\n                // Got the first one: keep it.\n                found = i; /* and go on */\n            }",
                "if (xs[i] > limit) {\n                // Got the last one.\n                found = i;\n            }",
                "if (xs[i] > limit && found < 0) { found = i; break; } // stop at the first",
                "found = i; // always",
                "/* nothing */",
                "if (xs[i] > limit && found < 0) {\n                // a comment \"with */ a quote\n                found = i + 1; /* // */\n            }",
            ],
        ),
        case(
            "if_body_without_braces",
            r#"
    static int sumEven(int[] xs) {
        int sum = 0;
        for (int i = 0; i < xs.length; i++) {
            if (xs[i] % 2 == 0)
                sum += xs[i];
        }
        return sum;
    }"#,
            r#"
        show("a", () -> sumEven(new int[] {1, 2, 3, 4, 6}));
        show("b", () -> sumEven(new int[] {}));
        show("c", () -> sumEven(new int[] {5, 8, 7}));"#,
            "sum += xs[i];",
            &[
                "sum += xs[i] * 2;",
                "break;",
                "continue;",
                "return -1;",
                "throw new IllegalArgumentException(\"even \" + i);",
                "sum += undefined;",
                "sum += i; break;",
                "",
            ],
        ),
        case(
            "switch_fallthrough",
            r#"
    static String name(int d) {
        String r = "?";
        switch (d) {
            case 0:
                r = "zero";
                break;
            case 1:
                r = "one";
            case 2:
                r += "two";
                break;
            default:
                r = "many";
        }
        return r;
    }"#,
            r#"
        for (int i = 0; i < 4; i++) { final int k = i; show("d" + i, () -> name(k)); }"#,
            "r = \"one\";",
            &[
                "r = \"uno\";",
                "r = \"uno\"; break;",
                "break;",
                "return \"R\";",
                "r = 1;",
                "continue;",
                "d = 0;",
            ],
        ),
        case(
            "labelled_loops",
            r#"
    static int search(int[][] g, int t) {
        int found = -1;
        int steps = 0;
        outer:
        for (int i = 0; i < g.length; i++) {
            inner:
            for (int j = 0; j < g[i].length; j++) {
                steps++;
                if (g[i][j] == t) {
                    found = i * 10 + j;
                }
            }
        }
        return found * 1000 + steps;
    }"#,
            r#"
        int[][] g = {{1, 2, 3}, {4, 2, 6}, {2, 8, 9}};
        show("a", () -> search(g, 2));
        show("b", () -> search(g, 7));"#,
            "found = i * 10 + j;",
            &[
                "found = i * 10 + j; break outer;",
                "found = i; continue outer;",
                "break;",
                "continue;",
                "found = j; break inner;",
                "return i + j;",
                "break nowhere;",
            ],
        ),
        case(
            "do_while",
            r#"
    static int digits(int n) {
        int c = 0;
        do {
            n /= 10;
            c++;
        } while (n != 0);
        return c;
    }"#,
            r#"
        show("a", () -> digits(12345));
        show("b", () -> digits(0));
        show("c", () -> digits(-70));"#,
            "c++;",
            &[
                "c += 2;",
                "break;",
                "continue;",
                "if (c > 1) break; c++;",
                "return c * 100;",
                "c = c + 1L;",
                "n = n / 10; c++;",
            ],
        ),
        case(
            "while_true_return_last",
            r#"
    static int loopy(int n) {
        int x = 0;
        while (true) {
            x += n;
            if (x > 30) return -x;
            if (x < 10) continue;
            return x;
        }
    }"#,
            r#"
        show("a", () -> loopy(3));
        show("b", () -> loopy(11));
        show("c", () -> loopy(40));"#,
            "return x;",
            &[
                "return x + 1;",
                "x++;",
                "break;",
                "",
                "continue;",
                "n = 1;",
                "return;",
            ],
        ),
        case(
            "last_return",
            r#"
    static int clamp(int v, int lo, int hi) {
        if (v < lo) return lo;
        if (v > hi) return hi;
        return v;
    }"#,
            r#"
        show("a", () -> clamp(5, 0, 10));
        show("b", () -> clamp(-5, 0, 10));
        show("c", () -> clamp(50, 0, 10));"#,
            "return v;",
            &[
                "return v + 1;",
                "return lo;",
                "v = 0;",
                "throw new IllegalArgumentException(\"v\" + v);",
                "if (v == 5) return 50; return v;",
                "return;",
                "if (v == 5) return 50;",
            ],
        ),
        case(
            "void_last_statement",
            r#"
    static StringBuilder log = new StringBuilder();
    static void note(int v) {
        if (v > 5) {
            log.append("big;");
        }
        log.append(v).append(';');
    }
    static String run() { log.setLength(0); note(1); note(7); return log.toString(); }"#,
            r#"
        show("a", () -> run());"#,
            "log.append(v).append(';');",
            &[
                "log.append(-v);",
                "return;",
                "",
                "throw new RuntimeException(\"v\" + v);",
                "v++; log.append(v);",
            ],
        ),
        case(
            "multi_statement_and_incdec",
            r#"
    static String step(int a, int b) {
        int i = 0;
        while (i < 3) {
            a += i;
            i++;
        }
        return a + "," + b + "," + i;
    }"#,
            r#"
        show("a", () -> step(1, 10));
        show("b", () -> step(-5, 0));"#,
            "a += i;",
            &[
                "a++; b--;",
                "--a; ++b;",
                "a *= 2; b -= a;",
                "if (a > 3) break;",
                "if (i == 1) { i += 5; continue; }",
                "a += i; a++;",
            ],
        ),
        case(
            "enhanced_for_break_continue",
            r#"
    static String join(List<String> xs) {
        StringBuilder sb = new StringBuilder();
        for (String x : xs) {
            sb.append(x).append(',');
        }
        return sb.toString();
    }"#,
            r#"
        show("a", () -> join(Arrays.asList("a", "bb", "", "c")));
        show("b", () -> join(null));"#,
            "sb.append(x).append(',');",
            &[
                "if (x.isEmpty()) break; sb.append(x);",
                "if (x.isEmpty()) continue; sb.append(x).append(';');",
                "x = x + x; sb.append(x);",
                "sb = new StringBuilder(x);",
                "return x;",
                "sb.append(x.length());",
            ],
        ),
    ]
}
