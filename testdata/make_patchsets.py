#!/usr/bin/env python3
"""Regenerate the ExpressAPR (manifest v3) patch sets and expected.json files.

Usage:  python3 testdata/make_patchsets.py        (from anywhere)

Each spec entry is:
    (set_name, file, anchor, unpatched, occurrence, [(patch_text, expected_letter), ...])

The location is the `occurrence`-th (0-based) match of `unpatched` at or after the
first character of `anchor` (a method signature that must occur exactly once in
the file).  The script asserts this, and that no other `public `/`private `
member header lies between the anchor and the match (so the location is inside
the anchored method), and that above + unpatched + below == file.  Letters: s plausible,
F some test fails, C compile error, T timeout.  After editing a source file,
rerun this script; it prints the 1-based line of every location.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

CALC_MU = "src/main/java/org/example/calc/MathUtil.java"
CALC_ACC = "src/main/java/org/example/calc/Accumulator.java"
TEXT_TU = "src/main/java/org/example/text/TextUtil.java"
TEXT_TOK = "src/main/java/org/example/text/Tokenizer.java"
FLAKY_CLAMP = "src/main/java/org/example/flaky/Clamp.java"
UNSTABLE_SPAN = "src/main/java/org/example/unstable/Span.java"
ENVDEP_RATIO = "src/main/java/org/example/envdep/Ratio.java"

SPEC = {
    "calc": ("calc-1", [
        # The seeded bug: wrong "not found" encoding (-lo instead of -(lo + 1)).
        ("binsearch_return", CALC_MU, "public static int binarySearch(", "return -lo;", 0, [
            ("return -(lo + 1);", "s"),
            ("return -lo - 1;", "s"),
            ("return ~lo;", "s"),
            ("return -(hi + 2);", "s"),
            ("return (lo == 0) ? -1 : -(lo + 1);", "s"),
            ("return -lo;", "F"),
            ("return lo;", "F"),
            ("return -1;", "F"),
            ("return -(lo - 1);", "F"),
            ("throw new IllegalStateException(\"not found: \" + key);", "F"),
            ("return -(mid + 1);", "C"),                 # undefined symbol (mid out of scope)
            ("return \"-\" + lo;", "C"),                 # type mismatch String -> int
            ("lo++;", "C"),                              # missing return
            ("if (lo >= 0) {\n            return -(lo + 1);\n        }", "C"),  # missing return
            ("return -(lo + 1);\n        lo = 0;", "C"),  # unreachable statement
            ("return -(lo + 1); }", "C"),                # stray brace
            ("", "C"),                                   # empty -> missing return
        ]),
        # Location inside a local variable declaration's initializer.
        ("binsearch_mid_init", CALC_MU, "public static int binarySearch(", "(lo + hi) >>> 1", 0, [
            ("(lo + hi) >>> 1", "F"),
            ("(lo + hi) / 2", "F"),
            ("lo + (hi - lo) / 2", "F"),
            ("lo", "F"),
            ("hi", "F"),
            ("lo + hi", "F"),
            ("\"mid\"", "C"),                            # type mismatch
            ("(long) (lo + hi) >>> 1", "C"),             # lossy long -> int
            ("middle(lo, hi)", "C"),                     # undefined method
            ("", "C"),                                   # `int mid = ;` syntax error
        ]),
        # Expression part of an expression statement (context_below starts with ';').
        ("sumrange_acc", CALC_MU, "public static int sumRange(", "sum += i", 0, [
            ("sum += i", "F"),
            ("sum += i * 2", "F"),
            ("sum = sum + from", "F"),                   # reads a parameter
            ("sum += to", "F"),
            ("sum -= i", "F"),
            ("sum += (long) i", "F"),                    # compound assignment narrows implicitly: compiles
            ("", "F"),                                   # empty statement `;`
            ("sum = sum + (long) i", "C"),               # lossy long -> int
            ("sum = \"x\"", "C"),                        # type mismatch
            ("sum += j", "C"),                           # undefined symbol
            ("while (true) { }", "C"),                   # `while (true) { };` -> unreachable empty statement
        ]),
        # Labelled continue inside a nested loop.
        ("rows_continue_outer", CALC_MU, "public static int countRowsWithoutZero(", "continue outer;", 0, [
            ("continue outer;", "F"),
            ("break outer;", "F"),
            ("break;", "F"),
            ("continue;", "F"),
            ("", "F"),
            ("count--;\n                    continue outer;", "F"),
            ("return count;", "F"),
            ("return 0;", "F"),
            ("throw new IllegalArgumentException(\"zero at \" + r + \",\" + c);", "F"),
            ("continue inner;", "C"),                    # undefined label
            ("break outer;\n                    count++;", "C"),  # unreachable
            ("count = m;", "C"),                         # type mismatch int[][] -> int
        ]),
        # Method declaring a checked exception.
        ("factorial_mul", CALC_MU, "public static long factorial(", "result *= i;", 0, [
            ("result *= i;", "F"),
            ("result += i;", "F"),
            ("result *= i + 1;", "F"),
            ("result *= n;", "F"),
            ("result = i;", "F"),
            ("throw new CalcException(\"step \" + i);", "F"),   # checked, declared
            ("throw new ArithmeticException(\"step \" + i);", "F"),
            ("return result;", "F"),
            ("break;", "F"),
            ("continue;", "F"),
            ("result = \"1\";", "C"),
            ("result *= k;", "C"),
            ("throw new Exception(\"step\");", "C"),     # unreported checked exception
        ]),
        # Instance method writing a field of `this`; also the infinite loop.
        ("acc_add_max", CALC_ACC, "public void add(", "max = value;", 0, [
            ("max = value;", "F"),
            ("this.max = value;", "F"),
            ("max = total;", "F"),
            ("max += value;", "F"),
            ("max = count;", "F"),
            ("value = max;", "F"),                       # writes a parameter
            ("", "F"),
            ("return;", "F"),                            # return in a void method
            ("while (true) { }", "F"),                   # loops forever, but the trigger tests run first and fail
            ("this.max = this.value;", "C"),             # undefined field
            ("max = Integer.toString(value);", "C"),
        ]),
        # Void method, enhanced-for loop.
        ("acc_addall_continue", CALC_ACC, "public void addAll(", "continue;", 0, [
            ("continue;", "F"),
            ("return;", "F"),
            ("break;", "F"),
            ("", "F"),
            ("add(-v);\n                continue;", "F"),
            ("total += v;\n                continue;", "F"),
            ("continue;\n                add(v);", "C"),   # unreachable
            ("return 0;", "C"),                          # void method cannot return a value
        ]),
    ]),
    "textutil": ("textutil-1", [
        # The seeded bug: overlapping search (idx + 1 instead of idx + sub.length()).
        ("count_advance", TEXT_TU, "public static int countOccurrences(", "idx = text.indexOf(sub, idx + 1)", 0, [
            ("idx = text.indexOf(sub, idx + sub.length())", "s"),
            ("idx = text.indexOf(sub, sub.length() + idx)", "s"),
            ("idx = text.indexOf(sub, idx + Math.max(1, sub.length()))", "s"),
            ("idx = text.indexOf(sub, idx + 1)", "F"),
            ("idx = text.indexOf(sub, idx + 2)", "F"),
            ("idx = text.indexOf(sub, idx + 3)", "F"),
            ("idx = text.indexOf(sub, idx + sub.length() + 1)", "F"),
            ("idx = -1", "F"),
            ("idx = text.indexOf(sub, idx)", "T"),       # never advances: infinite loop
            ("idx = text.indexOf(sub, idx + len)", "C"), # undefined symbol
            ("idx = sub", "C"),                          # type mismatch
            ("idx = text.indexOf(sub, idx + 1); }", "C"),  # stray brace
        ]),
        # The fix, except that it never advances on an 11-character text: it passes the trigger
        # tests and loops in `countSingleChar`, a test of the class after the head of the order.
        ("count_late_loop", TEXT_TU, "public static int countOccurrences(", "idx = text.indexOf(sub, idx + 1)", 0, [
            ("idx = text.indexOf(sub, idx + sub.length())", "s"),
            ("idx = text.indexOf(sub, text.length() == 11 ? idx : idx + sub.length())", "T"),
            ("idx = text.indexOf(sub, idx + 1)", "F"),
        ]),
        # A JDK class whose initialiser the worker's runtime first runs at a stack's end: the
        # second patch recurses forever (woven, its overflow is framed where it leaves the
        # isolation unit, deep in the recursion), the first fixes the loop and reads the stack
        # (its own compile, in the same JVM). Plain validation: a fresh JVM for each.
        ("count_stack_after_overflow", TEXT_TU, "public static int countOccurrences(",
         "while (idx >= 0) {\n            count++;\n            idx = text.indexOf(sub, idx + 1);\n        }", 0, [
            ("if (!\"countOccurrences\".equals(Thread.currentThread().getStackTrace()[1].getMethodName())) "
             "throw new IllegalStateException(\"seen from another frame\"); "
             "while (idx >= 0) {\n            count++;\n            idx = text.indexOf(sub, idx + sub.length());\n        }", "s"),
            ("while (TextUtil.countOccurrences(text, sub) >= 0) {\n            count++;\n"
             "            idx = text.indexOf(sub, idx + 1);\n        }", "F"),
        ]),
        # Statement before the buggy one; some patches compensate for the bug.
        ("count_increment", TEXT_TU, "public static int countOccurrences(", "count++;", 0, [
            ("count++;\n            idx += sub.length() - 1;", "s"),
            ("count += 1;\n            idx = idx + sub.length() - 1;", "s"),
            ("count++;", "F"),
            ("count += 2;", "F"),
            ("count--;", "F"),
            ("", "F"),
            ("idx += sub.length();", "F"),
            ("count++;\n            idx += sub.length();", "F"),
            ("count++;\n            if (count > 1) {\n                break;\n            }", "F"),
            ("return count;", "C"),                      # following statement unreachable
            ("count = sub;", "C"),
            ("count++;\n            idx += len;", "C"),
        ]),
        # Labelled break inside a nested loop.
        ("find_break_outer", TEXT_TU, "public static int[] findFirst(", "break outer;", 0, [
            ("break outer;", "F"),
            ("break;", "F"),
            ("continue outer;", "F"),
            ("continue;", "F"),
            ("", "F"),
            ("return found;", "F"),
            ("return new int[] {c, r};", "F"),
            ("found = null;\n                    break outer;", "F"),
            ("break inner;", "C"),                       # undefined label
            ("break outer;\n                    found = null;", "C"),  # unreachable
            ("return r;", "C"),                          # int -> int[]
        ]),
        # Location inside a local variable declaration's initializer.
        ("reverse_sb_init", TEXT_TU, "public static String reverse(", "new StringBuilder(s.length())", 0, [
            ("new StringBuilder(s.length())", "F"),
            ("new StringBuilder()", "F"),
            ("new StringBuilder(0)", "F"),
            ("new StringBuilder(s.length() * 2)", "F"),
            ("new StringBuilder(s)", "F"),
            ("new StringBuilder(-1)", "F"),
            ("null", "F"),
            ("s", "C"),                                  # String -> StringBuilder
            ("new StringBuilder(len)", "C"),
        ]),
        # First `i++;` in isPalindrome (followed by `continue;`).
        ("palindrome_skip_left", TEXT_TU, "public static boolean isPalindrome(", "i++;", 0, [
            ("i++;", "F"),
            ("i += 1;", "F"),
            ("j--;", "F"),
            ("i += 2;", "F"),
            ("i = j;", "F"),
            ("i++;\n                j--;", "F"),
            ("if (i >= 0) {\n                    throw new IllegalArgumentException(\"not a letter: \" + a);\n                }", "F"),
            ("return false;", "C"),                     # the original `continue;` after it becomes unreachable
            ("i = i + \"1\";", "C"),
            ("i++;\n                continue;", "C"),   # the original `continue;` becomes unreachable
        ]),
        # Instance void method, field `pos` of `this`.
        ("tok_skip_pos", TEXT_TOK, "public void skipWhitespace(", "pos++;", 0, [
            ("pos++;", "F"),
            ("this.pos++;", "F"),
            ("pos += 1;", "F"),
            ("pos += 2;", "F"),
            ("pos = input.length();", "F"),
            ("return;", "F"),                            # return in a void method
            ("break;", "F"),
            ("input = \"\";", "C"),                      # final field
            ("pos++; }", "C"),                           # stray brace
        ]),
        # throw statement in a method declaring a checked exception.
        ("tok_next_throw", TEXT_TOK, "public String next()", "throw new TokenizeException(\"no more tokens at position \" + pos);", 0, [
            ("throw new TokenizeException(\"no more tokens at position \" + pos);", "F"),
            ("throw new TokenizeException(\"eof\");", "F"),
            ("throw new IllegalStateException(\"no more tokens\");", "F"),
            ("return null;", "F"),
            ("return \"\";", "F"),
            ("", "F"),
            ("throw new Exception(\"eof\");", "C"),      # unreported checked exception
            ("return pos;", "C"),                        # int -> String
        ]),
    ]),
    "flaky": ("flaky-1", [
        # The seeded bug: the branch for x > hi returns x. EverySecondRunTest fails on every second
        # run in a directory: the plausible patches must stay plausible in both techniques.
        ("clamp_high", FLAKY_CLAMP, "public static int clamp(", "return x;", 0, [
            ("return hi;", "s"),
            ("return Math.min(x, hi);", "s"),
            ("return x > 100 ? x : hi;", "s"),           # overfits: clamp(1000, 0, 10) is 1000
            ("return hi == lo ? x : hi;", "F"),          # fixes the trigger, fails clampsToASingleValue
            ("return x;", "F"),
            ("return lo;", "F"),
            ("return hi - 1;", "F"),
            ("return \"hi\";", "C"),
            ("return high;", "C"),
        ]),
    ]),
    "unstable": ("unstable-1", [
        # The seeded bug: count leaves out one end. ChanceTest fails by chance only where its
        # environment variable says so (tests/instability.rs): these verdicts are without it.
        ("span_count", UNSTABLE_SPAN, "public static int count(", "return hi - lo;", 0, [
            ("return hi - lo + 1;", "s"),
            ("return hi - lo - 1;", "F"),
            ("return lo - hi + 1;", "F"),
            ("return hi + 1 - lo;", "s"),
            ("return hi - lo + one;", "C"),
            ("return (hi - lo) + 1;", "s"),
            ("return hi;", "F"),
        ]),
    ]),
    "envdep": ("envdep-1", [
        # The seeded bug: a factor of 10 for 100. AuditTest depends on the tests before it in the
        # JVM and is left out at init: these verdicts are the other tests' (tests/instability.rs).
        ("ratio_percent", ENVDEP_RATIO, "public static int percent(", "return part * 10 / whole;", 0, [
            ("return part * 100 / whole;", "s"),
            ("return 100 * part / whole;", "s"),
            ("return part * 100 / (whole + 1);", "F"),
            ("return part / whole * 100;", "F"),
            ("return part * 100.0 / whole;", "C"),
            ("return part * 100 / whole - 1;", "F"),
        ]),
    ]),
}


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def main():
    ok = True
    for proj, (bug, sets) in SPEC.items():
        root = os.path.join(HERE, proj)
        outdir = os.path.join(root, "patches")
        os.makedirs(outdir, exist_ok=True)
        expected = {}
        for name, fname, anchor, unpatched, occ, patches in sets:
            with open(os.path.join(root, fname), "r", encoding="utf-8", newline="") as f:
                src = f.read()
            assert src.count(anchor) == 1, (name, "anchor must occur exactly once", anchor)
            a = src.index(anchor)
            pos = a - 1
            for _ in range(occ + 1):
                pos = src.find(unpatched, pos + 1)
                assert pos >= 0, (name, "unpatched text not found", unpatched)
            # the location must belong to the anchored method: no other method header in between
            between = src[a + len(anchor):pos]
            assert "public " not in between and "private " not in between, (name, "location escapes anchored method")
            end = pos + len(unpatched)
            above, below = src[:pos], src[end:]
            assert above + unpatched + below == src
            letters = "".join(l for _, l in patches)
            assert all(l in "sFCT" for l in letters), name
            texts = [p for p, _ in patches]
            assert len(set(texts)) == len(texts), (name, "duplicate patch")
            manifest = {
                "manifest_version": 3,
                "interface": "local",
                "bug": bug,
                "filename": fname,
                "context_above": above,
                "unpatched": unpatched,
                "context_below": below,
                "patches": texts,
            }
            setfile = name + ".json"
            with open(os.path.join(outdir, setfile), "w", encoding="utf-8", newline="\n") as f:
                json.dump(manifest, f, indent=2, ensure_ascii=False)
                f.write("\n")
            expected[setfile] = letters
            print("%-10s %-26s %s:%d  %2d patches  %s" % (
                proj, setfile, os.path.basename(fname), line_of(src, pos), len(texts), letters))
        with open(os.path.join(outdir, "expected.json"), "w", encoding="utf-8", newline="\n") as f:
            json.dump(expected, f, indent=2)
            f.write("\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
