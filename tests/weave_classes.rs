//! Weaving in each kind of method: instance methods writing fields, constructors after `super(…)`
//! and `this(…)`, generic methods, and methods of inner, anonymous and static nested classes,
//! enums and interfaces (default and static).
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
            "instance_method_fields",
            r#"
    int count;
    int[] hist = new int[3];
    void add(int v) {
        if (v < 0) {
            throw new IllegalArgumentException("neg " + v);
        }
        count += v;
        hist[v % 3]++;
    }
    static String run(int... vs) {
        Main m = new Main();
        for (int v : vs) {
            try { m.add(v); } catch (RuntimeException e) { return "ex " + e.getMessage() + " " + m.count; }
        }
        return m.count + " " + Arrays.toString(m.hist);
    }"#,
            r#"
        show("a", () -> run(1, 2, 3, 4));
        show("b", () -> run(5, -1, 2));
        show("c", () -> run());"#,
            "count += v;",
            &[
                "count -= v;",
                "this.count = count * 2 + v;",
                "return;",
                "count += v; hist[0] += 10;",
                "count += w;",
                "throw new UnsupportedOperationException(\"no \" + v);",
                "if (v > 2) return; count++;",
            ],
        ),
        case(
            "constructor_after_super",
            r#"
    static class Base {
        final String tag;
        Base(String t) { tag = t; }
    }
    static class Point extends Base {
        int x, y;
        Point(int x, int y) {
            super("p" + x);
            this.x = x;
            this.y = y;
        }
        public String toString() { return tag + "(" + x + "," + y + ")"; }
    }"#,
            r#"
        show("a", () -> new Point(1, 2));
        show("b", () -> new Point(-3, 7));"#,
            "this.x = x;",
            &[
                "this.x = y;",
                "this.x = x + y;",
                "return;",
                "this.x = -x; this.y = 5;",
                "throw new IllegalStateException(\"ctor \" + tag);",
                "this.x = z;",
                "x = 9;",
            ],
        ),
        case(
            "constructor_after_this",
            r#"
    static class Pair {
        int x, y;
        Pair(int x, int y) { this.x = x; this.y = y; }
        Pair(int v) {
            this(v, v);
            y++;
        }
        public String toString() { return x + "/" + y; }
    }"#,
            r#"
        show("a", () -> new Pair(4));
        show("b", () -> new Pair(0));"#,
            "y++;",
            &[
                "y--;",
                "x++;",
                "return;",
                "y += 10; x = y;",
                "v = 2; y = v;",
                "final int q = 1;",
            ],
        ),
        case(
            "generic_method",
            r#"
    static <T extends Comparable<T>> T maxOf(List<T> xs) {
        T best = null;
        for (T x : xs) {
            if (best == null || x.compareTo(best) > 0) {
                best = x;
            }
        }
        return best;
    }"#,
            r#"
        show("a", () -> maxOf(Arrays.asList(3, 9, 2)));
        show("b", () -> maxOf(Arrays.asList("pear", "apple", "zoo")));
        show("c", () -> maxOf(new ArrayList<Integer>()));"#,
            "best = x;",
            &[
                "best = best == null ? x : best;",
                "best = x; break;",
                "return x;",
                "best = xs.get(0);",
                "best = 3;",
                "continue;",
            ],
        ),
        case(
            "inner_class",
            r#"
    int base = 10;
    class Inner {
        int k = 1;
        int get(int v) {
            int r = v + k;
            r += base;
            return r * 10 + k;
        }
    }
    static int run(int v) { Main m = new Main(); Inner in = m.new Inner(); return in.get(v) + m.base * 1000; }"#,
            r#"
        show("a", () -> run(3));
        show("b", () -> run(-20));"#,
            "r += base;",
            &[
                "r += base * 2;",
                "r -= Main.this.base;",
                "base++; r += base;",
                "return r * 100;",
                "k = 5;",
                "r += missing;",
            ],
        ),
        case(
            "anonymous_class",
            r#"
    static Comparator<String> cmp = new Comparator<String>() {
        @Override
        public int compare(String a, String b) {
            int d = a.length() - b.length();
            if (d == 0) d = a.compareTo(b);
            return d;
        }
    };
    static String sorted(String... xs) { List<String> l = new ArrayList<>(Arrays.asList(xs)); Collections.sort(l, cmp); return l.toString(); }"#,
            r#"
        show("a", () -> sorted("bb", "a", "ab", "ccc", "ba"));
        show("b", () -> cmp.compare("x", "y"));"#,
            "d = a.compareTo(b);",
            &[
                "d = b.compareTo(a);",
                "return 0;",
                "d = 0;",
                "throw new RuntimeException(a + b);",
                "d = a;",
                "a = b; d = 1;",
            ],
        ),
        case(
            "enum_method",
            r#"
    enum Op {
        ADD, MUL;
        int apply(int a, int b) {
            int r;
            switch (this) {
                case ADD:
                    r = a + b;
                    break;
                default:
                    r = a * b;
            }
            return r;
        }
    }"#,
            r#"
        show("a", () -> Op.ADD.apply(3, 4));
        show("b", () -> Op.MUL.apply(3, 4));"#,
            "r = a + b;",
            &[
                "r = a - b;",
                "r = a + b; break;",
                "break;",
                "return 0;",
                "r = ordinal() + a;",
                "r = \"x\";",
            ],
        ),
        case(
            "interface_default",
            r#"
    interface Shape {
        int sides();
        default String describe(int scale) {
            String s = "shape";
            s = s + sides() * scale;
            return s;
        }
        static int twice(int x) {
            int y = x;
            y *= 2;
            return y;
        }
    }
    static class Tri implements Shape { public int sides() { return 3; } }"#,
            r#"
        show("a", () -> new Tri().describe(2));
        show("b", () -> Shape.twice(21));"#,
            "s = s + sides() * scale;",
            &[
                "s = s + sides();",
                "return \"no\";",
                "scale = 0; s += scale;",
                "s = this.toString().substring(0, 0) + sides();",
                "s = sides();",
            ],
        ),
        case(
            "interface_static",
            r#"
    interface Util {
        static int twice(int x) {
            int y = x;
            y *= 2;
            return y;
        }
    }"#,
            r#"
        show("a", () -> Util.twice(21));
        show("b", () -> Util.twice(-1));"#,
            "y *= 2;",
            &[
                "y *= 3;",
                "return x;",
                "x = 0; y = x;",
                "y = this.y;",
                "throw new ArithmeticException(\"y\" + y);",
            ],
        ),
        case(
            "static_nested_class",
            r#"
    static class Acc {
        static long total;
        static long add(long v) {
            long t = total;
            t += v;
            total = t;
            return t;
        }
    }
    static String run() { Acc.total = 0; Acc.add(5); Acc.add(7); return Acc.total + ""; }"#,
            r#"
        show("a", () -> run());"#,
            "t += v;",
            &[
                "t -= v;",
                "t += v * v;",
                "return -1;",
                "total = 100; t += total;",
                "t = v;",
                "t += \"\";",
            ],
        ),
    ]
}
