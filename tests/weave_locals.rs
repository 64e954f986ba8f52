//! Weaving around local variables: locals assigned before the location, at it, or only maybe
//! before it, final locals, locals a lambda captures later, a local assigned before a `break`
//! (definite assignment as javac sees it), and locals a patch declares.
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
        case(
            "locals_assigned_before",
            r#"
    static String describe(int n) {
        String s;
        long big;
        s = "n=" + n;
        big = n * 1000L;
        char c = 'a';
        double d = n / 2.0;
        boolean neg = n < 0;
        int[] arr = {n, n + 1};
        s = s + c + d + neg + big;
        return s + "|" + c + "|" + d + "|" + neg + "|" + big + "|" + Arrays.toString(arr);
    }"#,
            r#"
        show("a", () -> describe(3));
        show("b", () -> describe(-8));"#,
            "s = s + c + d + neg + big;",
            &[
                "s = s + (char) (c + 1);",
                "c++; d *= 2; neg = !neg; big--; s = \"\" + c + d + neg + big;",
                "s = null;",
                "big += 'x'; arr = new int[] {9}; s = s + big;",
                "arr[0] = 42; --c; big <<= 2; d /= 4;",
                "s = 5;",
                "return s + \"!\";",
            ],
        ),
        case(
            "local_assigned_at_location",
            r#"
    static int compute(int k) { return k * 3; }
    static int useX(int k) {
        int x;
        int y = 2;
        x = compute(k);
        y += x;
        return x * 100 + y;
    }"#,
            r#"
        show("a", () -> useX(4));
        show("b", () -> useX(-1));"#,
            "x = compute(k);",
            &[
                "x = compute(k) + 1;",
                "x = k;",
                "y = 5;",
                "x = compute(y);",
                "x = 0; y = 100;",
                "return k;",
                "if (k > 0) x = 1; else x = 2;",
            ],
        ),
        case(
            "final_local",
            r#"
    static int withFinal(int n) {
        final int base = n * 2;
        int acc = 1;
        acc += base;
        return acc * 10 + base;
    }"#,
            r#"
        show("a", () -> withFinal(3));
        show("b", () -> withFinal(-2));"#,
            "acc += base;",
            &[
                "acc += base * 2;",
                "base = 1;",
                "acc = base - n;",
                "acc--;",
                "n++; acc = n;",
                "return base;",
            ],
        ),
        case(
            "lambda_capture_later",
            r#"
    static int lam(int n) {
        int m = n + 1;
        int t = 0;
        t += m;
        java.util.function.IntSupplier f = () -> m * 2;
        return t * 100 + f.getAsInt();
    }"#,
            r#"
        show("a", () -> lam(3));
        show("b", () -> lam(-3));"#,
            "t += m;",
            &["t += m * 2;", "m++;", "t = m = 3;", "t--;", "n = m; t = n;"],
        ),
        case(
            "maybe_assigned_local",
            r#"
    static int f(boolean c, int k) {
        int x;
        int y = 0;
        if (c) x = 1; else x = 2;
        y = k;
        return x * 10 + y;
    }"#,
            r#"
        show("a", () -> f(true, 3));
        show("b", () -> f(false, 4));"#,
            "y = k;",
            &[
                "x = 7;",
                "y = k + 1;",
                "y = x;",
                "x = x + y;",
                "y = -k;",
                "y = z;",
            ],
        ),
        case(
            // A patch that declares locals of its own: woven when nothing after the location
            // names them (the unit ends their scope), alone when something does (`tmp`, declared
            // again below; `total`, a local that would hide the field read below).
            "patch_declares_a_local",
            r#"
    static int total;
    static String helper(int n) {
        int sum = n * 2;
        total += sum;
        int tmp = sum + 1;
        return "sum=" + sum + " total=" + total + " tmp=" + tmp;
    }"#,
            r#"
        show("a", () -> helper(3));
        show("b", () -> helper(-2));"#,
            "total += sum;",
            &[
                "int extra = sum * 3; total += extra;",
                "int k = 1, j = 2; total += sum + k + j;",
                "final int[] box = {sum}; box[0]++; total += box[0];",
                "int tmp = 5; total += tmp;",
                "int sum2 = sum; total = sum2; sum = 0;",
                "int[] calls = {0}; Runnable r = () -> calls[0]++; r.run(); r.run(); total += calls[0];",
                "int total = 3; sum += total;",
                "int n = 4; total += n;",
                "String label; label = \"x\"; total += label.length();",
                "int unused; total -= sum;",
            ],
        ),
        case(
            // jackson-dataformat-xml's StaxUtil.sanitizeXmlTypeName: declared in the method's
            // block, assigned in the `if`'s block before the location (then in a loop's body and
            // in a switch group, below).
            "assigned_in_an_inner_block",
            r#"
    static String plural(String name, int k) {
        StringBuilder sb;
        if (name.endsWith("[]")) {
            name = name.substring(0, name.length() - 2);
            sb = new StringBuilder(name);
            if (!name.endsWith("s")) {
                sb.append("es");
            } else {
                sb.append('s');
            }
        } else {
            sb = new StringBuilder(name);
        }
        return sb.toString();
    }"#,
            r#"
        show("a", () -> plural("Address[]", 2));
        show("b", () -> plural("String[]", 1));
        show("c", () -> plural("Bus", 0));"#,
            "if (!name.endsWith(\"s\")) {\n                sb.append(\"es\");\n            } else {\n                sb.append('s');\n            }",
            &[
                "if (name.endsWith(\"s\")) { sb.append(\"es\"); } else { sb.append('s'); }",
                "sb = new StringBuilder(\"x\"); sb.append(name);",
                "sb.append(sb.length());",
                "if (name.length() > 3) { sb.append(\"es\"); }",
                "sb.append(k);",
            ],
        ),
        case(
            "assigned_in_a_loop_body",
            r#"
    static String loop(int k) {
        StringBuilder sb = new StringBuilder();
        int n;
        for (int i = 0; i < k; i++) {
            n = i * 2;
            sb.append(n);
        }
        return sb.toString();
    }"#,
            r#"
        show("a", () -> loop(3));
        show("b", () -> loop(1));"#,
            "sb.append(n);",
            &["sb.append(n + 1);", "n = -n; sb.append(n);", "sb.append(n * n);", "sb.append(i);"],
        ),
        case(
            "assigned_in_a_switch_group",
            r#"
    static String sw(int k) {
        StringBuilder sb = new StringBuilder();
        String t;
        switch (k) {
            case 1:
                t = "one";
                sb.append(t);
                break;
            default:
                sb.append('-');
        }
        return sb.toString();
    }"#,
            r#"
        show("a", () -> sw(1));
        show("b", () -> sw(2));"#,
            "sb.append(t);",
            &["sb.append(t + t);", "t = \"uno\"; sb.append(t);", "sb.append(t.length());"],
        ),
        case(
            "unassigned_local_break",
            r#"
    static String g(int n) {
        String s;
        int found;
        for (int i = 0; ; i++) {
            if (i * i >= n) {
                found = i;
                break;
            }
        }
        s = "r" + found;
        return s;
    }"#,
            r#"
        show("a", () -> g(10));
        show("b", () -> g(0));"#,
            "found = i;\n                break;",
            &[
                "found = i + 1; break;",
                "found = -i; break;",
                "break;",
                "if (i > 2) { found = 100; break; } found = i; break;",
                "return \"x\" + i;",
                "if (i < 3) { found = 7; break; } return \"big\";",
                "if (n > 5) found = 1; break;",
            ],
        ),
    ]
}
