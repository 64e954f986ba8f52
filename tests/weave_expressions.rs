//! Locations that are part of a statement: an expression before its semicolon, the n-th
//! occurrence of a text, and patches of boolean and ternary expressions.
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
    let mut v = vec![
        case(
            "expression_before_semicolon",
            r#"
    static long total(int[] xs) {
        long sum = 0;
        for (int x : xs)
            sum += x;
        return sum;
    }"#,
            r#"
        show("a", () -> total(new int[] {1, 2, 3}));
        show("b", () -> total(new int[] {-4, 9}));"#,
            "sum += x",
            &[
                "sum -= x",
                "sum += x * x",
                "sum++",
                "sum = \"s\"",
                "x++",
                "sum = x",
            ],
        ),
        case(
            "nth_occurrence",
            r#"
    static String count(String s) {
        int vowels = 0, others = 0;
        for (char ch : s.toCharArray()) {
            if ("aeiou".indexOf(ch) >= 0) {
                vowels++;
            } else {
                others++;
            }
        }
        return vowels + ":" + others;
    }"#,
            r#"
        show("a", () -> count("hello world"));
        show("b", () -> count(""));"#,
            "++;",
            &[
                "+= 2;",
                "--;",
                "++; vowels = -1;",
                "= ch;",
                "= 'x' + others;",
            ],
        ),
        case(
            "boolean_and_ternary",
            r#"
    static String flags(int n) {
        boolean even = n % 2 == 0;
        boolean pos;
        pos = n > 0;
        String r = even ? "E" : "O";
        r = r + (pos ? "+" : "-");
        return r + even + pos;
    }"#,
            r#"
        show("a", () -> flags(4));
        show("b", () -> flags(-3));"#,
            "r = r + (pos ? \"+\" : \"-\");",
            &[
                "even = !even; pos = !pos;",
                "r = r + pos;",
                "r = pos;",
                "return even ? null : r;",
                "r += n > 2 && even ? \"big\" : \"small\";",
            ],
        ),
    ];
    for c in &mut v {
        if c.name == "nth_occurrence" {
            c.nth = 1; // the `++;` of `others++;`
        }
    }
    v
}
