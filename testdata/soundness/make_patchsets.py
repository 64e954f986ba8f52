#!/usr/bin/env python3
"""Regenerate the soundness fixture's patch sets and patches/expected.json, and verify every
expected verdict the way plain validation would give it.

Usage:  python3 testdata/soundness/make_patchsets.py [--no-verify] [--only SET ...] [-v]

The spec format and the manifest writer are those of testdata/make_patchsets.py (imported; its
SPEC is replaced by this fixture's). Each entry:
    (set_name, file, anchor, unpatched, occurrence, [(patch_text, expected_letter), ...])

Verification (skipped with --no-verify): the unpatched sources are compiled with javac
--release 8 and every test method (JUnit 4, listed from the test sources) runs once, each in a
fresh class loader (verify/TestOrderRunner.java), which gives the baseline: the tests failing
there are the trigger tests, and each test's timeout is 5 s + 1.5 x its baseline time. Then for
every patch: the patch is applied to a copy of the sources (context_above + patch +
context_below), the main sources are compiled with javac --release 8 (C when javac fails), and
the tests run in patchval's order — trigger tests first, then the rest sorted by class and
method — each in a fresh class loader, stopping at the first failing test (F) or the first test
past its timeout (T); s when every test passes. Any letter that differs from the spec is
printed and the script exits 1.
"""
import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.dirname(HERE)
RUNNER = os.path.join(HERE, "verify", "TestOrderRunner.java")

_spec = importlib.util.spec_from_file_location("base_make_patchsets",
                                               os.path.join(TESTDATA, "make_patchsets.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

PKG = "src/main/java/org/example/soundness/"
JAVA_HOME = os.environ.get("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64")
JUNIT = ["/usr/share/java/junit4.jar", "/usr/share/java/hamcrest-core.jar"]

# 1. A static field written through its class name while a parameter of the same name is in
# scope. A tree that emits the bare name snapshots, restores, keys and replays the parameter.
STATIC_SHADOW = [
    ("Limits.max = max;", "s"),
    ("Limits.max = max - 1;", "F"),                # the bug of issue 8's reproduction
    ("Limits.max = max + 1;", "F"),
    ("Limits.max = Math.abs(max);", "s"),
    ("Limits.max = max * 1;", "s"),
    ("Limits.max = Limits.max;", "F"),             # the field keeps its old value
    ("Limits.max = -max;", "F"),
    ("Limits.max = max;\n        max = 0;", "s"),  # then writes the parameter of the same name
    ("Limits.max = maximum;", "C"),                # undefined symbol
]

# 1b. The instance variant: `this.level = level ...` with the parameter `level` in scope.
INSTANCE_SHADOW = [
    ("this.level = level;", "s"),
    ("this.level = level + 1;", "F"),
    ("this.level = -level;", "F"),
    ("this.level = level * 1;", "s"),
    ("this.level = this.level;", "F"),
    ("this.level = level;\n        level = 0;", "s"),
    ("level = this.level;", "F"),                  # writes the parameter, not the field
    ("this.level = Math.max(level, 0);", "s"),     # the tests use positive levels
]

# 2. Exceptions with a constant message whose field (the position) the test reads.
EXCEPTION_FIELDS = [
    ("throw new ParseError(i);", "s"),
    ("throw new ParseError(i + 2);", "F"),
    ("throw new ParseError(i - 1);", "F"),
    ("throw new ParseError(i * 1);", "s"),
    ("throw new ParseError(0 + i);", "s"),
    ("throw new ParseError(total);", "F"),         # equal to i on "x1", not on "12x4"
    ("throw new ParseError(c - '0');", "F"),
    ("throw new IllegalArgumentException(\"parse error\");", "F"),
    ("throw new ParseError(i, 0);", "C"),          # no such constructor
]

# 2b. Exceptions that differ only in their cause.
EXCEPTION_CAUSE = [
    ("throw new ConfigError(\"bad port\", e);", "s"),
    ("throw new ConfigError(\"bad port\", null);", "F"),
    ("throw new ConfigError(\"bad \" + \"port\", e);", "s"),
    ("throw new ConfigError(\"bad port\", e.getCause());", "F"),  # the parse failure has no cause
    ("throw new ConfigError(\"bad port\", (Throwable) e);", "s"),
    ("throw new ConfigError(\"bad port\", new NumberFormatException(\"For input string: \\\"\" + text + \"\\\"\"));", "s"),
    ("throw new ConfigError(\"bad port\", new IllegalArgumentException(text));", "F"),
    ("throw new ConfigError(e.getMessage(), e);", "F"),
    ("throw e;", "F"),
    ("throw new ConfigError(\"bad port\", text);", "C"),  # String is not a Throwable
]

# 3. Identity of boxed values: equal by value, different by `==` above 127.
IDENTITY_BOXED = [
    ("last = v;", "s"),
    ("last = Integer.valueOf(v.intValue());", "F"),
    ("last = v + 0;", "F"),
    ("last = (Integer) v;", "s"),
    ("last = Integer.valueOf(v);", "F"),           # unboxes, then boxes anew
    ("last = v == null ? null : v;", "s"),
    ("last = -(-v);", "F"),
    ("last = v.intValue() >= 0 ? v : null;", "s"),
    ("last = v.toString();", "C"),                 # String -> Integer
]

# 3b. Identity of strings: `s + ""` is a new string (javac --release 8 concatenates with a
# StringBuilder); String.valueOf(s), s.toString() and the no-op String methods return s itself.
IDENTITY_STRING = [
    ("lastName = s;", "s"),
    ("lastName = String.valueOf(s);", "s"),
    ("lastName = s + \"\";", "F"),
    ("lastName = \"\" + s;", "F"),
    ("lastName = s.toString();", "s"),
    ("lastName = s.concat(\"\");", "s"),
    ("lastName = s.substring(0);", "s"),
    ("lastName = s.trim();", "s"),
    ("lastName = s.replace('x', 'y');", "s"),
    ("lastName = new String(s);", "F"),
    ("lastName = String.valueOf(s.toCharArray());", "F"),
    ("lastName = s.length();", "C"),               # int -> String
]

# 4. A call that a test class overrides: ScalerTest's subclasses count the calls to factor()
# and change the factor.
OVERRIDE_CALL = [
    ("y = x * factor();", "s"),
    ("y = factor() * x;", "s"),
    ("y = x * this.factor();", "s"),
    ("y = x * 2;", "F"),
    ("y = x + x;", "F"),
    ("y = x << 1;", "F"),
    ("y = x * factor() + 0 * factor();", "F"),     # calls factor() twice
    ("y = x * Math.abs(factor());", "s"),
    ("y = x * factor(2);", "C"),                   # no such method
]

# 5. A statement visited 100,000 times in one test (SeriesTest#sumBelowHundredThousand): 40
# rewrites, all equivalent for 0 <= i < 100,000 and all plausible.
HOT_LOOP = [(p, "s") for p in [
    "acc += i;",
    "acc = acc + i;",
    "acc += (i + 0);",
    "acc += i * 1;",
    "acc -= -i;",
    "acc = i + acc;",
    "acc += (long) i;",
    "acc += i + 0L;",
    "acc += 0 + i;",
    "acc = acc - (-i);",
    "acc += i << 0;",
    "acc += i >> 0;",
    "acc += i >>> 0;",
    "acc += i | 0;",
    "acc += i ^ 0;",
    "acc += i & -1;",
    "acc += Math.abs(i);",
    "acc += Math.max(i, 0);",
    "acc += Math.min(i, Integer.MAX_VALUE);",
    "acc += i / 1;",
    "acc += i % Integer.MAX_VALUE;",
    "acc = acc + (long) i;",
    "acc = (long) i + acc;",
    "acc += i - 0;",
    "acc += -(-i);",
    "acc = acc + i * 1L;",
    "acc += 2 * i - i;",
    "acc += i + i - i;",
    "acc += (i * 2) / 2;",
    "acc += Math.addExact(i, 0);",
    "acc += Math.multiplyExact(i, 1);",
    "acc = Math.addExact(acc, i);",
    "acc = Long.sum(acc, i);",
    "acc += Math.abs((long) i);",
    "acc += ~~i;",
    "acc += i == 0 ? 0 : i;",
    "acc += i > 0 ? i : 0;",
    "acc = acc + i + 0;",
    "acc += i * 3 - i * 2;",
    "acc = -(-acc - i);",
]]

# 6a. An exception whose getMessage() has a side effect (a static read counter) the test observes.
GETMESSAGE_SIDE_EFFECT = [
    ("throw new NoisyError(\"negative\");", "s"),
    ("throw new NoisyError(\"neg\" + \"ative\");", "s"),
    ("throw new NoisyError(\"NEGATIVE\".toLowerCase());", "s"),
    ("throw new NoisyError(\"negative!\");", "F"),
    ("throw new IllegalArgumentException(\"negative\");", "F"),
    ("throw new NoisyError(String.valueOf(x));", "F"),
    ("return -x;", "F"),
]

# 6b. A project exception whose constructor counts its instances in a static field.
CTOR_STATIC_COUNTER = [
    ("throw new CountedError(\"quota exhausted\");", "s"),
    ("throw new CountedError(\"quota \" + \"exhausted\");", "s"),
    ("throw new CountedError(\"Quota exhausted\".toLowerCase());", "s"),
    ("throw new CountedError(\"quota exhausted\", true);", "s"),
    ("throw new CountedError(\"quota exhausted\", false);", "F"),  # equal exception, not counted
    ("throw new CountedError(\"quota\");", "F"),
    ("throw new IllegalStateException(\"quota exhausted\");", "F"),
    ("return left;", "F"),
    ("throw new CountedError(new CountedError(\"quota exhausted\").getMessage());", "F"),  # two made
]

# 6c. String concatenation calls toString() implicitly; LabelsTest's item counts the calls.
CONCAT_TOSTRING = [
    ("text = \"<\" + item + \">\";", "s"),
    ("text = \"<\" + item.toString() + \">\";", "s"),
    ("text = \"<\" + String.valueOf(item) + \">\";", "s"),
    ("text = \"<\".concat(item.toString()).concat(\">\");", "s"),
    ("text = \"<\" + item + \">\" + \"\";", "s"),
    ("text = \"<\" + item.name() + \">\";", "F"),  # same text, toString() never called
    ("text = \"<\" + item + item + \">\";", "F"),
    ("text = item + \">\";", "F"),
    ("text = \"<\" + item + \">\" + item.toString().substring(0, 0);", "F"),  # calls it twice
]

# 6d. Map.get on an access-ordered LinkedHashMap: a lookup reorders; the value alone does not.
LRU_GET = [
    ("v = lengths.get(word);", "s"),
    ("v = lengths.getOrDefault(word, null);", "s"),
    ("v = lengths.containsKey(word) ? lengths.get(word) : null;", "s"),
    ("v = lengths.get(word.trim());", "s"),
    ("v = lengths.get(word + \"\");", "s"),
    ("v = lengths.containsKey(word) ? word.length() : null;", "F"),  # same value, no access
    ("v = word.length();", "F"),
    ("v = lengths.get(word.toUpperCase());", "F"),
    ("v = lengths.get(word).length();", "C"),      # Integer has no length()
]

# 6e. Reading a constant of another class whose static initializer has an observable effect.
CLINIT_SIDE_EFFECT = [
    ("y = x + 10;", "s"),
    ("y = 10 + x;", "s"),
    ("y = x + 2 * 5;", "s"),
    ("y = x + Integer.parseInt(\"10\");", "s"),
    ("y = x + Defaults.STEP;", "F"),               # equal value, but initialises Defaults
    ("y = Defaults.STEP > 0 ? x + 10 : x;", "F"),
    ("y = x + 11;", "F"),
    ("y = x + Defaults.STEPS;", "C"),              # undefined field
]

# 7. Reading the stack during the patch: the isolation unit is a generated method, so a caller's
# name read from the stack, or the top frame of a throwable the patch keeps, is not plain's.
STACK_CALLER = [
    ("fee = amount / 10;", "s"),
    ("fee = amount / 10 + (caller().equals(\"charge\") ? 0 : 1);", "s"),
    ("fee = caller().length() == 6 ? amount / 10 : 0;", "s"),
    ("fee = amount / 10 + Thread.currentThread().getStackTrace()[1].getMethodName().length() - 6;", "s"),
    ("fee = (lastMark = new IllegalStateException()) == null ? 0 : amount / 10;", "s"),
    ("try { fee = amount / (amount - 100); } catch (ArithmeticException e) { lastMark = e; fee = amount / 10; }",
     "s"),
    ("fee = (amount + 0) / 10;", "s"),
    # The stack read in a callee of a method with an effect, and in a lambda run through a JDK
    # functional interface: both missed by the stack analysis before it had its own call graph.
    ("fee = countedCaller().equals(\"charge\") ? amount / 10 : 0;", "s"),
    ("fee = lazyCaller().equals(\"charge\") ? amount / 10 : 0;", "s"),
    # A stack read in a call the patch makes without naming it: `close()` of a resource
    # (`iterator()` of an enhanced `for` is in testdata/stackjdk).
    ("try (Tab t = new Tab()) { fee = amount / 10; }", "s"),
    ("try (Tab t = new Tab()) { fee = amount / 9; }", "F"),
    ("fee = amount / 10 + (caller().equals(\"charge\") ? 1 : 0);", "F"),
    ("fee = countedCaller().equals(\"charge\") ? amount / 9 : 0;", "F"),
    ("fee = lazyCaller().equals(\"charge\") ? 0 : amount / 10;", "F"),
    ("fee = (lastMark = new IllegalStateException()) == null ? 0 : amount / 9;", "F"),
    ("fee = amount / 9;", "F"),
    ("fee = amount / ten;", "C"),                   # undefined name
]

# 15. Locations inside block lambdas: the statement around the lambda is woven, the lambda moves
# into the unit whole. A lambda returned and run later, with an inferred type-variable parameter
# (`v` is a T); one run at once by forEach, writing a field and reading a captured parameter; one
# whose loop returns from the lambda, `break` and `continue` staying inside it.
LAMBDA_LATER = [
    ("return prefix + s.length() + \":\" + s;", "s"),
    ("return prefix + (s.length() + \":\" + s);", "s"),
    ("return prefix + s.length() + \":\" + v;", "s"),      # String.valueOf(v) is v's text
    ("return prefix + \":\" + s;", "F"),
    ("return prefix + s.length() + s;", "F"),
    ("return s + prefix;", "F"),
    ("return prefix + v.length();", "C"),                  # v is a T
    ("return prefix + s.length;", "C"),
    ("return;", "C"),                                      # the lambda returns a value
    ("seen++;\n            return prefix + s;", "C"),      # no instance in a static method
]

LAMBDA_NOW = [
    ("seen++;", "s"),
    ("seen += 1;", "s"),
    ("this.seen++;", "s"),
    ("seen++;\n                return;", "s"),          # returns from the lambda, not record
    ("seen--;", "F"),
    ("seen += 2;", "F"),
    (";", "F"),
    ("seen++;\n                min++;", "C"),           # a captured parameter is effectively final
    ("seen = seen + w;", "C"),
    ("return seen;", "C"),                                 # forEach's lambda returns nothing
]

LAMBDA_LOOP = [
    ("return i;", "s"),
    ("{\n                    return i;\n                }", "s"),
    ("return i + 0;", "s"),
    ("break;", "F"),                                       # leaves the lambda's loop: -1
    ("continue;", "F"),
    ("return -1;", "F"),
    ("return i - from;", "F"),
    ("return key;", "F"),
    ("i = xs.length;", "F"),
    ("return;", "C"),
    ("return xs;", "C"),
    ("xs = null;\n                    return i;", "C"),   # captured: effectively final
]

LAMBDA_FIELD = [
    ("return h;", "s"),
    ("return h + 0;", "s"),
    ("return x / 2;", "s"),
    ("return x >> 1;", "F"),                               # -7 >> 1 is -4
    ("return h + 1;", "F"),
    ("return x;", "F"),
    ("return;", "C"),
    ("return y;", "C"),
]

# 16. Recursion to StackOverflowError: how deep a recursion gets depends on its frames, and the
# woven method's are not the plainly patched method's; an overflow in the schemata is decided
# again with the plainly patched file. Recursions that end (100 and 5,000 levels) pass.
STACK_OVERFLOW = [
    ("throw new CountedError(\"quota exhausted\");", "s"),
    ("return take(left);", "F"),                                 # StackOverflowError
    ("return take(left + 1);", "F"),                             # no CountedError
    ("throw new CountedError(take(left) + \"\");", "F"),         # StackOverflowError
    ("if (left < -100) { throw new CountedError(\"quota exhausted\"); } return take(left - 1);", "s"),
    ("if (left < -5000) { throw new CountedError(\"quota exhausted\"); } return take(left - 1) + 0;",
     "s"),
    ("throw new CountedError(\"quota \" + take(left));", "F"),  # StackOverflowError
    ("return take(left) - 1;", "F"),                             # StackOverflowError on take(3)
    ("if (left < -100) { throw new CountedError(\"quota\"); } return take(left - 1);", "F"),
]

# 17. Writes to locals at a location in a loop. `last` is read by nothing after it (dead), so
# patches that differ only in what they write there share a class; `penalty` is read in the catch
# block and the return, `k` and `words` by the loop's header, `w` in the catch block (live, though
# written again before the next read).
DEAD_LOCAL = [
    ("n++;", "s"),
    ("n++;\n                last = 0;", "s"),
    ("n++;\n                last = n;", "s"),
    ("n++;\n                last = penalty;", "s"),
    ("last = n;\n                n++;", "s"),
    ("n++;\n                penalty = 0;", "F"),        # the catch block and the return read it
    ("n++;\n                k++;", "F"),                # the loop's header reads it
    ("n++;\n                w = \"\";", "s"),           # written again before the catch reads it
    ("n++;\n                words = null;", "F"),       # the loop's header reads it
    ("n += 2;\n                last = 0;", "F"),
    ("n++;\n                last = x;", "C"),
]

# 17b. The same location, where a patch's own text reads `last` at the next visit: `last` is not
# dead there (the loop runs the patch again), or `last = 5` and `last = 0` would share a class.
DEAD_LOCAL_READ = [
    ("n++;", "s"),
    ("n++;\n                last = 0;", "s"),
    ("if (last == 5) {\n                    n += 7;\n                }\n                n++;\n                last = 5;", "F"),
    ("if (last == 5) {\n                    n += 7;\n                }\n                n++;", "s"),
    ("n++;\n                last += 1;", "s"),
    ("if (last > 0) {\n                    return last;\n                }\n                n++;\n                last = n;", "F"),
]

# 17c. A location that is a whole declaration, with patches that add statements before or after
# it (woven on the split declaration when the statements before do not name the variable:
# there `fee` is the static field), and calls the class path answers per class: `scale()` of
# `Ledger` reads no stack though `Probe.scale()` does; `rate()` may, through a test subclass's
# override, so its patches go one by one.
DECLARATION_AROUND = [
    ("int fee = amount / scale();", "s"),
    ("if (amount < 0) {\n            return 0;\n        }\n        int fee = amount / scale();", "s"),
    ("if (amount > 150) {\n            return amount;\n        }\n        int fee = amount / scale();", "F"),
    ("int fee = amount / scale();\n        if (fee > 5) {\n            fee = 5;\n        }", "F"),
    ("Ledger.fee = 3;\n        int fee = amount / scale();", "F"),
    ("fee = 3;\n        int fee = amount / scale();", "F"),                 # the field
    ("fee = 0;\n        int fee = amount / scale();", "s"),                 # the field
    ("if (amount < 0) {\n            return fee;\n        }\n        int fee = amount / scale();", "s"),
    ("if ((\"\" + scale()).isEmpty()) {\n            return 0;\n        }\n        int fee = amount / scale();", "s"),
    ("int fee = amount / scale() + rate() - 10;", "s"),
    ("if (amount < 0) {\n            return 0;\n        }\n        int fee = amount / scale() + rate() - 10;", "s"),
    ("if (amount < 0) {\n            return 0;\n        }\n        int fee = amount / 9;", "F"),
    ("int fee = amount / scale() + Probe.scale() * 0;", "s"),
    ("int fee = amount / scales();", "C"),                                # undefined method
    ("int fee = amount / scale() + this.scale() - 10;", "s"),
]

# 16b. A recursion through the location, on a thread with a 256 KB stack, whose overflow the
# project catches (`reach` answers -1): the woven frames (the stub's locals, the unit's call at
# every level) are larger than plain's, so a walk of 1,000 that ends in plain can overflow there
# and be caught without the test naming the overflow. `tooDeepIsBroken` catches one in any run.
CAUGHT_OVERFLOW = [
    ("return down(n, d + 1);", "s"),
    ("return down(n, d + 2);", "s"),
    ("return 1 + down(n, d + 1) - 1;", "s"),
    ("return down(n + 1, d + 1);", "F"),                   # 1001
    ("return down(n, d);", "F"),                           # overflows at any size: -1
    ("return d + 1 >= n ? n : down(n, d + 1);", "s"),
    ("return down(n, d + 1) + 0;", "s"),
    ("if (d > 400) { return d; } return down(n, d + 1);", "F"),  # 401
    ("return down(n - 1, d);", "F"),                       # 0
]

# 17d. A `final` local split like any other, unless the new initialiser may be a constant
# expression: then the local is a constant variable and `head + "b"` folds to the interned "ab".
FINAL_CONSTANT = [
    ("final String head = s.substring(0, 1);", "s"),
    ("final String head = \"a\";", "F"),                          # a constant variable
    ("final String head = \"a\" + \"\";", "F"),
    ("final String head = 'a' + \"\";", "F"),
    ("final String head = s.substring(0, 1).trim();", "s"),
    ("final String head = s.substring(1, 2);", "F"),
    ("final String head = s.isEmpty() ? \"\" : \"a\";", "s"),
    ("final String head = new String(\"a\");", "s"),
    ("final String head = String.valueOf('a');", "s"),
    ("final String head = s.charAt(0) + \"\";", "s"),
    ("if (s.isEmpty()) {\n            return false;\n        }\n        final String head = s.substring(0, 1);", "s"),
    ("if (s.length() > 2) {\n            return true;\n        }\n        final String head = s.substring(0, 1);", "F"),
    ("final String head = s.substring(0, 1)", "C"),                 # no semicolon
]

# Value holes (issue 25): patches of a statement that calls a method with an effect, differing
# only in one argument. Computed ahead of the statement, the argument's value is what the tree
# tells apart; the `long` hole picks the other overload and is no member of the hole.
VALUE_HOLE = [
    ("note(base + scale, \"r\");", "s"),
    ("note(scale + base, \"r\");", "s"),
    ("note(base + scale * 1, \"r\");", "s"),
    ("note(base - scale, \"r\");", "F"),
    ("note(base + scale + 0L, \"r\");", "F"),          # long: the other overload
    ("note(base * scale + 1, \"r\");", "F"),           # 7 and 11, but 1 for (0, 4)
    ("note(base / (scale - 1), \"r\");", "F"),         # ArithmeticException in the hole
    ("note(base + scale, \"R\");", "F"),               # another hole
    ("note((base + scale), \"r\");", "s"),
    ("note(base + scale + 2147483648, \"r\");", "C"),  # a literal too large for an int
    ("note(base % scale + 7, \"r\");", "F"),
    ("note(raw + raw + scale, \"r\");", "s"),
    ("note(base + scale, \"r\");\n        note(0, \"r\");", "F"),
]

# Value holes in an `if`'s condition, whose branch calls a method with an effect.
def _check(cond, body='note(v, "over");'):
    return "if (" + cond + ") {\n            " + body + "\n        }"


VALUE_HOLE_IF = [
    (_check("v > limit"), "s"),
    (_check("v >= limit"), "F"),
    (_check("limit < v"), "s"),
    (_check("v > limit + 1"), "s"),
    (_check("v > limit - 1"), "F"),
    (_check("v - limit > 0"), "s"),
    (_check("!(v <= limit)"), "s"),
    (_check("v > limit / 0"), "F"),                    # ArithmeticException in the hole
    (_check("v != limit"), "F"),
    (_check("v > limit", 'note(v + 1, "over");'), "F"),  # the branch differs: no member
    (_check("v > limit || v > 4"), "s"),
    (_check("v > limit && v > 9"), "F"),
]

# A statement of a static initialiser block, which a method of its own takes over for weaving: the
# block's `while (true)` completes only through its `break`, so a patch that leaves no `break`
# that exits it makes the block an error ("initializer must be able to complete normally"), where
# the method would compile and run (one ends in an ArithmeticException: F, not C).
INITIALISER_COMPLETION = [
    ("if (filled == 4) break;", "s"),
    ("if (filled >= 4) break;", "s"),
    ("if (filled == 4) { break; }", "s"),
    ("if (filled > 3) break; else continue;", "s"),
    ("if (filled == 5) break;", "F"),
    ("if (filled == 4) { TABLE[4] = 1; break; }", "F"),
    ("filled += 0;", "C"),                         # never exits: loops forever as a method
    ("TABLE[filled % 8] = 10 / (4 - filled);", "C"),  # throws as a method
    ("switch (filled) { case 4: break; }", "C"),   # the break exits the switch only
    ("if (filled == 4) return;", "C"),             # return outside method
    ("if (filled == 4) throw new IllegalStateException();", "C"),
]

# A body without braces given several statements: in the plainly patched file only the first is the
# `if`'s body, so the unit is the whole `if` (the location widened, `weave::widen`).
BRACELESS_WIDEN = [
    ("total += w;", "s"),
    ("total += w; count++;", "F"),                    # count++ runs for every weight
    ("total += w; count += 0;", "s"),
    ("{ total += w; count++; }", "F"),                # one statement: under the if
    ("total += 2 * w - w;", "s"),
    ("total += w; total -= 0;", "s"),
    ("total += w; total++;", "F"),
    ("total += w; int z = 1;", "s"),                  # a local nothing after reads
    ("total += w; else count--;", "F"),               # an else for the if around
    ("total += w; else", "F"),                       # the else takes the count++ after it
    ("total += w; break;", "C"),                      # count++ unreachable
]

# A declaration changed beyond its initialiser, which the rest of its block reads: the unit runs
# to the end of the block (the location widened).
DECLARATION_WIDEN = [
    ("int w = weight(k);", "s"),
    ("long w = weight(k);", "s"),                     # += narrows implicitly
    ("int w = weight(k) + 1;", "F"),                  # the initialiser only: split in place
    ("int w = weight(k); w = w * 2;", "F"),
    ("int w = weight(k), v = w;", "s"),
    ("short w = weight(k);", "C"),                    # lossy
    ("final int w = weight(k);", "s"),
    ("final int w = 2;", "F"),                        # a constant variable
    ("int w = weight(k); if (w < 0) continue;", "F"),
    ("Integer w = weight(k);", "s"),
    ("int w = weight(k); int count = 0;", "C"),       # count is already defined
    ("var w = weight(k);", "C"),                      # no `var` at release 8
]

# A location before a dereference whose NullPointerException message a test reads: the message
# names the local's slot, as plain's compile has no local variable table (javac's default debug
# information); a woven class compiled with `-g` named it `t` and failed every patch.
NPE_MESSAGE = [
    ("int extra = k * 2;", "s"),
    ("int extra = k + k;", "s"),
    ("int extra = 2 * k;", "s"),
    ("int extra = k * 3;", "F"),
    ("int extra = k << 1;", "s"),
    ("int extra = k - 2;", "F"),
    ("int extra = k * 2L;", "C"),                     # lossy
    ("int extra = (int) (k * 2.0);", "s"),
    ("int extra = k * two;", "C"),
]

SETS = [
    ("static_shadow", PKG + "Limits.java", "public static void setMax(", "Limits.max = max;", 0,
     STATIC_SHADOW),
    ("instance_shadow", PKG + "Gauge.java", "public void setLevel(", "this.level = level;", 0,
     INSTANCE_SHADOW),
    ("exception_fields", PKG + "Digits.java", "public static int sum(", "throw new ParseError(i);", 0,
     EXCEPTION_FIELDS),
    ("exception_cause", PKG + "Config.java", "public static int port(",
     "throw new ConfigError(\"bad port\", e);", 0, EXCEPTION_CAUSE),
    ("identity_boxed", PKG + "History.java", "public void record(", "last = v;", 0, IDENTITY_BOXED),
    ("identity_string", PKG + "History.java", "public void name(", "lastName = s;", 0,
     IDENTITY_STRING),
    ("override_call", PKG + "Scaler.java", "public int scale(", "y = x * factor();", 0, OVERRIDE_CALL),
    ("hot_loop", PKG + "Series.java", "public static long sumBelow(", "acc += i;", 0, HOT_LOOP),
    ("getmessage_side_effect", PKG + "Guard.java", "public static int check(",
     "throw new NoisyError(\"negative\");", 0, GETMESSAGE_SIDE_EFFECT),
    ("ctor_static_counter", PKG + "Quota.java", "public static int take(",
     "throw new CountedError(\"quota exhausted\");", 0, CTOR_STATIC_COUNTER),
    ("concat_tostring", PKG + "Labels.java", "public static String label(", "text = \"<\" + item + \">\";",
     0, CONCAT_TOSTRING),
    ("lru_get", PKG + "Recent.java", "public Integer lookup(", "v = lengths.get(word);", 0, LRU_GET),
    ("clinit_side_effect", PKG + "Stepper.java", "public static int next(", "y = x + 10;", 0,
     CLINIT_SIDE_EFFECT),
    ("stack_caller", PKG + "Audit.java", "public static int charge(", "fee = amount / 10;", 0, STACK_CALLER),
    ("lambda_later", PKG + "Relay.java", "public static <T> Function<T, String> labeller(",
     "return prefix + s.length() + \":\" + s;", 0, LAMBDA_LATER),
    ("lambda_now", PKG + "Relay.java", "public int record(", "seen++;", 0, LAMBDA_NOW),
    ("lambda_loop", PKG + "Relay.java", "public static IntBinaryOperator finder(", "return i;", 0,
     LAMBDA_LOOP),
    ("lambda_field", PKG + "Relay.java", "static final IntUnaryOperator HALF", "return h;", 0,
     LAMBDA_FIELD),
    ("stack_overflow", PKG + "Quota.java", "public static int take(",
     "throw new CountedError(\"quota exhausted\");", 0, STACK_OVERFLOW),
    ("dead_local", PKG + "Tally.java", "public static int count(", "n++;", 0, DEAD_LOCAL),
    ("dead_local_read", PKG + "Tally.java", "public static int count(", "n++;", 0, DEAD_LOCAL_READ),
    ("declaration_around", PKG + "Ledger.java", "public int charge(",
     "int fee = amount / scale();", 0, DECLARATION_AROUND),
    ("final_constant", PKG + "Prefix.java", "public static boolean folds(",
     "final String head = s.substring(0, 1);", 0, FINAL_CONSTANT),
    ("value_hole", PKG + "Meter.java", "public void read(", "note(base + scale, \"r\");", 0,
     VALUE_HOLE),
    ("value_hole_if", PKG + "Meter.java", "public void check(", _check("v > limit"), 0,
     VALUE_HOLE_IF),
    ("caught_overflow", PKG + "Depth.java", "static int down(",
     "return down(n, d + 1);", 0, CAUGHT_OVERFLOW),
    ("initialiser_completion", PKG + "Steps.java", "static {", "if (filled == 4) break;", 0,
     INITIALISER_COMPLETION),
    ("braceless_widen", PKG + "Bands.java", "public static int total(", "total += w;", 0,
     BRACELESS_WIDEN),
    ("declaration_widen", PKG + "Bands.java", "public static int total(", "int w = weight(k);", 0,
     DECLARATION_WIDEN),
    ("npe_message", PKG + "Measure.java", "public static int measure(", "int extra = k * 2;", 0,
     NPE_MESSAGE),
]


def tool(name):
    return os.path.join(JAVA_HOME, "bin", name)


def java_files(root):
    out = []
    for d, _, files in os.walk(root):
        out.extend(os.path.join(d, f) for f in files if f.endswith(".java"))
    return sorted(out)


def javac(sources, out, classpath):
    os.makedirs(out, exist_ok=True)
    cmd = [tool("javac"), "--release", RELEASE, "-nowarn", "-encoding", "UTF-8", "-d", out]
    if classpath:
        cmd += ["-cp", os.pathsep.join(classpath)]
    r = subprocess.run(cmd + sources, capture_output=True, text=True)
    return r.returncode == 0, r.stderr


def list_tests(test_root):
    """JUnit 4 test methods (Class#method) of the test sources, sorted as patchval lists them."""
    tests = []
    for path in java_files(test_root):
        rel = os.path.relpath(path, test_root)[:-len(".java")]
        cls = rel.replace(os.sep, ".")
        with open(path, encoding="utf-8") as f:
            src = f.read()
        for m in re.finditer(r"@Test\s+public\s+void\s+(\w+)\s*\(", src):
            tests.append(cls + "#" + m.group(1))
    return sorted(tests, key=lambda t: tuple(t.split("#", 1)))


def run_tests(runner_dir, mode, classpath, tests):
    """[(status, test, ms, why)] from TestOrderRunner; tests = [(test, timeout_ms)]."""
    cmd = [tool("java"), "-cp", os.pathsep.join([runner_dir] + JUNIT), "TestOrderRunner", mode,
           os.pathsep.join(classpath)]
    for t, ms in tests:
        cmd += [t, str(int(ms))]
    r = subprocess.run(cmd, capture_output=True, text=True)
    out = []
    for line in r.stdout.splitlines():
        parts = line.split(" ", 3)
        if parts[0] in ("PASS", "FAIL", "TIMEOUT"):
            out.append((parts[0], parts[1], int(parts[2]), parts[3] if len(parts) > 3 else ""))
    return out


# Whether every test runs in a JVM of its own (testdata/statics sets this: its tests change
# JVM-wide state, which one JVM would carry from test to test).
FORK_PER_TEST = False
# Jars the fixture's main code and tests need besides JUnit (on every class path).
LIBS = []
# The Java release the fixture compiles at (its patchval.toml's `release`, 8 by default).
RELEASE = "8"


def run_each(runner_dir, mode, classpath, tests):
    """run_tests with a JVM per test; "stop" stops after the first test that does not pass."""
    out = []
    for t in tests:
        out += run_tests(runner_dir, mode, classpath, [t])
        if mode == "stop" and (not out or out[-1][0] != "PASS"):
            break
    return out


def verify(only, verbose):
    work = tempfile.mkdtemp(prefix="soundness-verify-")
    try:
        return verify_in(work, only, verbose)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def verify_in(work, only, verbose):
    runner = os.path.join(work, "runner")
    ok, err = javac([RUNNER], runner, JUNIT)
    assert ok, err
    main_src = os.path.join(HERE, "src", "main", "java")
    test_src = os.path.join(HERE, "src", "test", "java")
    base_main = os.path.join(work, "base-main")
    test_out = os.path.join(work, "test")
    ok, err = javac(java_files(main_src), base_main, LIBS)
    assert ok, "the unpatched sources do not compile:\n" + err
    ok, err = javac(java_files(test_src), test_out, JUNIT + LIBS + [base_main])
    assert ok, "the tests do not compile:\n" + err

    tests = list_tests(test_src)
    run = run_each if FORK_PER_TEST else run_tests
    baseline = run(runner, "all", [base_main, test_out] + LIBS, [(t, 120000) for t in tests])
    assert [b[1] for b in baseline] == tests, "baseline did not run every test"
    failing = [t for s, t, _, _ in baseline if s != "PASS"]
    # patchval's order: trigger tests first, then the passing tests, each group in listed order
    ordered = failing + [t for t in tests if t not in failing]
    timeout = {t: 5000 + 1.5 * ms for _, t, ms, _ in baseline}
    print("baseline: %d tests, %d failing %s; slowest %s" % (
        len(tests), len(failing), failing, max(baseline, key=lambda b: b[2])[1:3]))

    with open(os.path.join(HERE, "patches", "expected.json"), encoding="utf-8") as f:
        expected = json.load(f)
    src_copy = os.path.join(work, "src")
    mismatches = 0
    for name, _fname, _a, _u, _o, _p in SETS:
        if only and name not in only:
            continue
        with open(os.path.join(HERE, "patches", name + ".json"), encoding="utf-8") as f:
            manifest = json.load(f)
        letters = []
        for i, patch in enumerate(manifest["patches"]):
            shutil.rmtree(src_copy, ignore_errors=True)
            shutil.copytree(main_src, src_copy)
            target = os.path.join(src_copy, os.path.relpath(manifest["filename"], "src/main/java"))
            with open(target, "w", encoding="utf-8", newline="") as f:
                f.write(manifest["context_above"] + patch + manifest["context_below"])
            classes = os.path.join(work, "patched", "%s-%d" % (name, i))
            ok, err = javac(java_files(src_copy), classes, LIBS)
            if not ok:
                letter, why = "C", err.strip().splitlines()[0]
            else:
                runs = run(runner, "stop", [classes, test_out] + LIBS,
                                 [(t, timeout[t]) for t in ordered])
                last = runs[-1] if runs else ("FAIL", "?", 0, "the runner printed nothing")
                letter = {"PASS": "s", "FAIL": "F", "TIMEOUT": "T"}[last[0]]
                if letter == "s" and len(runs) != len(ordered):
                    letter, last = "F", ("FAIL", "?", 0, "the runner stopped early")
                why = "" if letter == "s" else "%s: %s" % (last[1], last[3])
            shutil.rmtree(classes, ignore_errors=True)
            letters.append(letter)
            want = expected[name + ".json"][i]
            if verbose or letter != want:
                print("  %s %-3d %s (expected %s) %s | %s" % (
                    name, i, letter, want, patch.replace("\n", " "), why))
        got = "".join(letters)
        want = expected[name + ".json"]
        status = "ok" if got == want else "MISMATCH"
        if got != want:
            mismatches += 1
        print("%-24s %s  %s" % (name, got, status))
    return 0 if mismatches == 0 else 1


def main_for(doc, fixture, here, sets, fork_per_test=False, libs=(), release="8"):
    """The command line of a fixture's make_patchsets.py: write its manifests, then verify them
    (`libs`: jars the fixture needs besides JUnit; `release`: the fixture's Java release)."""
    global HERE, SETS, FORK_PER_TEST, LIBS, RELEASE
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--no-verify", action="store_true", help="only regenerate the manifests")
    ap.add_argument("--only", nargs="*", default=[], help="verify only these sets")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every patch's verdict")
    args = ap.parse_args()
    base.HERE = TESTDATA
    base.SPEC = {fixture: (fixture + "-1", sets)}
    rc = base.main()
    if rc != 0 or args.no_verify:
        return rc
    HERE, SETS, FORK_PER_TEST, LIBS, RELEASE = here, sets, fork_per_test, list(libs), release
    return verify(set(args.only), args.verbose)


def main():
    return main_for(__doc__, "soundness", HERE, SETS)


if __name__ == "__main__":
    sys.exit(main())
