#!/usr/bin/env python3
"""Regenerate the dedup fixture's patch sets, patches/expected.json and
known-classes.json.

Usage:  python3 testdata/dedup/make_patchsets.py        (from anywhere)

The spec format and the writer are those of testdata/make_patchsets.py (imported; its
SPEC is replaced by this fixture's). Each entry:
    (set_name, file, anchor, unpatched, occurrence, [(patch_text, expected_letter), ...])
Letters: s plausible, F some test fails, C compile error, T timeout; all checked by compiling
and running JUnit per patch (trigger tests first, stop at the first failure).
"""
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.dirname(HERE)

_spec = importlib.util.spec_from_file_location("base_make_patchsets",
                                               os.path.join(TESTDATA, "make_patchsets.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

COUNTER = "src/main/java/org/example/dedup/Counter.java"
LEDGER = "src/main/java/org/example/dedup/Ledger.java"
PICKER = "src/main/java/org/example/dedup/Picker.java"


def cond(c):
    """The whole `if` statement of countPositive with condition c."""
    return "if (%s) {\n                count++;\n            }" % c


# Set 1: the seeded bug (`x >= 0` should be `x > 0`). No test input is 0 except in the two
# trigger tests; 1 occurs in countPositiveOnes, 7 in countPositiveMixed, 100 in countPositiveLarge.
COND = [
    # equivalent to the fix on every input
    (cond("x > 0"), "s"),
    (cond("0 < x"), "s"),
    (cond("x >= 1"), "s"),
    (cond("!(x <= 0)"), "s"),
    (cond("x > 0 && true"), "s"),
    (cond("x != 0 && x > 0"), "s"),
    (cond("!(x < 1)"), "s"),
    (cond("x >= 0 && x != 0"), "s"),
    (cond("x > 0 == true"), "s"),
    (cond("x > 0 ? true : false"), "s"),
    (cond("x - 1 >= 0"), "s"),
    (cond("-x < 0"), "s"),
    (cond("x + 1 > 1"), "s"),
    (cond("Math.max(x, 0) > 0"), "s"),
    (cond("Math.max(x, 0) != 0"), "s"),
    (cond("Math.signum(x) > 0"), "s"),
    (cond("Math.min(x, 0) == 0 && x != 0"), "s"),
    (cond("x * 2 > 0"), "s"),                      # differs only on overflow; not on the tests
    (cond("(x = x + 0) > 0"), "s"),                # assigns the local x its own value
    (cond("x > 0 && x == Math.abs(x)"), "s"),
    (cond("String.valueOf(x).charAt(0) != '-' && x != 0"), "s"),
    (cond("x > 0 && x < 1000"), "s"),              # equivalent on the tests only
    ("if (x > 0) count++;", "s"),
    ("if (x > 0) {\n                count += 1;\n            }", "s"),
    ("count += x > 0 ? 1 : 0;", "s"),              # writes count at every visit, same values
    ("count = count + (x > 0 ? 1 : 0);", "s"),
    ("count += Math.min(1, Math.max(0, x));", "s"),
    ("if (x <= 0) {\n            } else {\n                count++;\n            }", "s"),
    # plausible but NOT state-equivalent to the fix: also writes the (dead) local x
    ("if (x > 0) {\n                count++;\n                x = 0;\n            }", "s"),
    ("if (x > 0) {\n                count++;\n            } else {\n                x = -1;\n            }", "s"),
    # equivalent to the bug
    (cond("x >= 0"), "F"),
    (cond("x > -1"), "F"),
    (cond("!(x < 0)"), "F"),
    (cond("0 <= x"), "F"),
    (cond("x + 1 > 0"), "F"),
    # other wrong conditions / bodies
    (cond("x < 0"), "F"),
    (cond("x != 0"), "F"),
    (cond("true"), "F"),
    (cond("false"), "F"),
    (cond("x > 1"), "F"),
    (cond("x == 0"), "F"),
    (cond("x > 0 && x != 7"), "F"),
    (cond("x % 2 == 1"), "F"),
    (cond("Math.abs(x) > 0"), "F"),
    (cond("x > 0 && x < 100"), "F"),
    ("count++;", "F"),
    ("", "F"),
    # compile errors
    (cond("y > 0"), "C"),                          # undefined symbol
    (cond("x"), "C"),                              # int -> boolean
    (cond("x > \"0\""), "C"),                      # bad operand types
    ("if (x > 0) {\n                count += \"1\";\n            }", "C"),  # String -> int
    ("if (x > 0) {\n                count++;", "C"),  # missing closing brace
]

# Set 2: `sum += i * 2;` in doubledSum (loop i = 1..n; tests use n = 0, 1, 2, 10, -4).
ARITH = [
    # same value as the original at every visit
    ("sum += i * 2;", "F"),
    ("sum += 2 * i;", "F"),
    ("sum = sum + i + i;", "F"),
    ("sum += i << 1;", "F"),
    ("sum += i + i;", "F"),
    ("sum = sum + 2 * i;", "F"),
    ("sum -= -2 * i;", "F"),
    ("sum += Math.abs(i) * 2;", "F"),
    ("sum += Math.multiplyExact(i, 2);", "F"),
    ("sum += Math.addExact(i, i);", "F"),
    ("sum += i * 2 + 0;", "F"),
    ("sum += i * 2.0;", "F"),                       # compound assignment narrows double -> int
    ("sum += i * 2L;", "F"),
    ("sum = (int) (sum + i * 2L);", "F"),
    ("sum += Math.pow(i, 1) * 2;", "F"),
    ("sum += i * 2;\n            i += 0;", "F"),     # also writes the loop variable, same value
    # different values
    ("sum += i * 3;", "F"),
    ("sum += i;", "F"),
    ("sum += i * i;", "F"),                         # equal at i = 2 only
    ("sum += (int) Math.pow(2, i);", "F"),          # equal at i = 1, 2 (n <= 2), differs from i = 3
    ("sum = sum * 2 + i;", "F"),
    ("sum += i * 2 - 1;", "F"),
    ("sum += (i + 1) * 2;", "F"),
    ("sum = i * 2;", "F"),                          # equal at i = 1 only
    ("sum += 0;", "F"),
    ("", "F"),
    ("sum += n;", "F"),                             # reads the parameter
    ("sum += i * 2;\n            i++;", "F"),       # skips every other i
    # compile errors
    ("sum = sum + i * 2.0;", "C"),                  # lossy double -> int
    ("sum += j * 2;", "C"),                         # undefined symbol
    ("sum = Math.pow(i, 2);", "C"),                 # lossy double -> int
    ("sum += i * 2", "C"),                          # missing semicolon
]

# Set 3: `continue outer;` (the '#' case) in the labelled nested loop of countVisible.
CTRL = [
    ("continue outer;", "F"),
    ("break;", "F"),                                # same effect: nothing follows the inner loop
    ("continue;", "F"),
    ("break outer;", "F"),
    ("return count;", "F"),                         # same effect as break outer
    ("return -1;", "F"),
    ("count++;", "F"),
    ("if (c == ' ') continue;", "F"),               # never true here: same as the empty patch
    ("if (i > j) break outer;", "F"),
    ("", "F"),
    ("count--;", "F"),
    ("count += j;", "F"),
    ("count += 0;\n                    continue outer;", "F"),
    ("j = line.length();", "F"),                    # ends the inner loop, like break
    ("j += line.length();", "F"),                   # ends the inner loop, other value of j
    ("return Math.max(count, 0);", "F"),
    ("if (j == 0) continue;\n                    continue outer;", "F"),
    ("i = lines.length;\n                    continue outer;", "F"),  # like break outer
    ("if (count > 100) return count;\n                    continue outer;", "F"),
    # compile errors
    ("continue inner;", "C"),                       # undefined label
    ("break outer;\n                    count++;", "C"),  # unreachable statement
    ("return \"x\";", "C"),                         # String -> int
    ("return;", "C"),                               # missing return value
    ("continue outer; }", "C"),                     # stray brace
]

# Set 4: `total += v;`, the last statement of the void instance method Ledger.add (so `return;` compiles).
VOID = [
    ("total += v;", "F"),
    ("return;", "F"),
    ("if (v < 0) return;", "F"),
    ("if (v < 0) return;\n        total += v;", "F"),
    ("this.total += v;", "F"),
    ("total = total + v;", "F"),
    ("total = v + total;", "F"),
    ("if (v != 0) total += v;", "F"),
    ("", "F"),
    ("total += Math.abs(v);", "F"),
    ("total += v;\n        return;", "F"),           # the location is the last statement: same as the original
    ("total += v;\n        last = \"\";", "F"),
    ("return 0;", "C"),                             # void method returns a value
    ("total += \"v\";", "C"),                       # String -> int
]

# Set 5: `total -= v;` inside try { } finally { count++; } of Ledger.withdraw (throws LedgerException).
EXC = [
    ("total -= v;", "F"),
    ("total = total - v;", "F"),
    ("this.total -= v;", "F"),
    ("total = Math.subtractExact(total, v);", "F"),
    ("throw new LedgerException(\"neg\");", "F"),
    ("if (v < 0) throw new LedgerException(\"neg\");", "F"),
    ("if (v < 0) throw new LedgerException(\"neg\");\n            total -= v;", "F"),
    ("total -= Math.abs(v);", "F"),
    ("return;", "F"),                               # the finally block still runs
    ("total -= v;\n            return;", "F"),
    ("if (v == 0) return;\n            total -= v;", "F"),
    ("", "F"),
    ("throw new Exception(\"neg\");", "C"),         # unreported checked exception
    ("throw new LedgerException(v);", "C"),         # no LedgerException(int)
]

# Set 6: `r = v;` in Picker.pick; only KnownClassesTest.pickOnce calls pick, once, with v = 5.
# Group = value of r after the location on that call.
KNOWN = [
    ("r = v;", 5),
    ("r = v + 1;", 6),
    ("r = v - v;", 0),
    ("r = -v;", -5),
    ("r = 5;", 5),
    ("r = 6;", 6),
    ("r = 0;", 0),
    ("r = 0 - v;", -5),
    ("r = v * 1;", 5),
    ("r = 1 + v;", 6),
    ("r = v * 0;", 0),
    ("r = -5;", -5),
    ("r = v + 0;", 5),
    ("r = Math.max(v, 6);", 6),
    ("r = Math.min(v, 0);", 0),
    ("r = v * -1;", -5),
    ("r = Math.abs(v);", 5),
    ("r = r * v;", 0),                              # r is 0 before the location
    ("r -= v;", -5),
    ("r += v;", 5),
    ("", 0),                                        # no write at all: r stays 0
    ("r = v - -1;", 6),
]

SETS = [
    ("cond_rewrites", COUNTER, "public static int countPositive(", cond("x >= 0"), 0, COND),
    ("arith_rewrites", COUNTER, "public static int doubledSum(", "sum += i * 2;", 0, ARITH),
    ("control_flow", COUNTER, "public static int countVisible(", "continue outer;", 0, CTRL),
    ("void_return", LEDGER, "public void add(", "total += v;", 0, VOID),
    ("checked_exc", LEDGER, "public void withdraw(", "total -= v;", 0, EXC),
    # every patch compiles; all are F because the trigger tests run first and fail
    ("known_classes", PICKER, "public static int pick(", "r = v;", 0, [(p, "F") for p, _ in KNOWN]),
]


def main():
    base.HERE = TESTDATA
    base.SPEC = {"dedup": ("dedup-1", SETS)}
    rc = base.main()
    groups = {}
    for idx, (_, value) in enumerate(KNOWN):
        groups.setdefault(value, []).append(idx)
    classes = sorted(groups.values())
    assert len(classes) == 4
    out = {"test": "org.example.dedup.KnownClassesTest#pickOnce", "classes": classes}
    with open(os.path.join(HERE, "known-classes.json"), "w",
              encoding="utf-8", newline="\n") as f:
        json.dump(out, f)
        f.write("\n")
    print("known_classes on pickOnce:", " ".join(
        "r=%d:%s" % (KNOWN[c[0]][1], c) for c in classes))
    return rc


if __name__ == "__main__":
    sys.exit(main())
