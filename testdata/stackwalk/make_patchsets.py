#!/usr/bin/env python3
"""Regenerate the stackwalk fixture's patch set and patches/expected.json, and verify every
expected verdict by plain validation.

Usage:  python3 testdata/stackwalk/make_patchsets.py [--no-verify] [--only SET ...] [-v]

The spec format, the manifest writer and the verifier are those of
testdata/soundness/make_patchsets.py (imported), compiling with --release 11 as the fixture's
patchval.toml says (StackWalker is Java 9+).
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.dirname(HERE)

_spec = importlib.util.spec_from_file_location(
    "soundness_make_patchsets", os.path.join(TESTDATA, "soundness", "make_patchsets.py"))
sound = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sound)

PKG = "src/main/java/org/example/stackwalk/"

# A StackWalker sees the frames of the running code: in a callee (`note`, `depth`) and in the
# patch's own text. Under plain validation `charge` is the caller; in a woven patch, its
# isolation unit, one frame more.
CHARGE = [
    ("cost = units * 3;", "s"),
    ("Meter.note();\n        cost = units * 3;", "s"),
    ("cost = units * 3 + (int) Meter.depth() - 2;", "s"),
    ("cost = \"charge\".equals(StackWalker.getInstance().walk(f -> f.findFirst().get().getMethodName())) ? units * 3 : 0;", "s"),
    ("Meter.note();\n        cost = units * 4;", "F"),
    ("cost = units * 3 + (int) Meter.depth();", "F"),
    ("cost = units * 3", "C"),
]

# A frame's line (`StackFrame.getLineNumber`, `StackTraceElement.getLineNumber`): the test wants
# `mark();`'s line of the unpatched file. In the patch's text (an inline patch's lines are the
# plainly patched file's, its first at the location's line), and after the location, where a
# patch adding a line moves `mark();` one line down. A woven class whose line table is not
# plain's shows the woven file's lines there, whichever patch runs.
BILL = [
    ("cost = units * 2;", "s"),
    ("cost = units * 2; mark();", "s"),
    ("cost = units * 2;\n        cost += 0;", "F"),
    ("cost = units * 2 + 0;", "s"),
    ("cost = units * 3;", "F"),
    ("cost = units * 2;\n        mark();\n        cost += 0;", "F"),
]

MARK = [
    ("mark();", "s"),
    ("mark(); cost += 0;", "s"),
    ("mark();\n        cost += 0;", "s"),
    ("cost += 0;\n        mark();", "F"),
    (";", "F"),
    ("if (units > 0) mark();", "s"),
    ("if (units > 0) {\n            mark();\n        }", "F"),
    ("markedAt = new Throwable().getStackTrace()[0].getLineNumber();", "s"),
    ("markedAt = new Throwable().getStackTrace()[1].getLineNumber();", "F"),
    ("mark()", "C"),
]

# A blank final local (`final int cost;`) assigned at the location, beside patches that walk the
# stack: every patch runs inline (src/weave/finals.rs), each assigning it in a branch of its own;
# before, the stack readers ran inline and the others in generated methods whose write-back javac
# refused beside them. `depth()` is 2 in `fee` as plain runs it, 3 in a generated method.
FEE = [
    ("cost = units * 4;", "s"),
    ("cost = units * 4 + (Thread.currentThread().getStackTrace().length > 0 ? 0 : 1);", "s"),
    ("note(); cost = units * 4;", "s"),
    ("cost = units * 5;", "F"),
    ("cost = units * 4; cost = 1;", "C"),
    ("units++;", "C"),
    ("if (depth() > 1) { cost = 0; } else { cost = units * 4; }", "F"),
    ("cost = (int) depth() * 20;", "s"),
]

SETS = [
    ("charge", PKG + "Meter.java", "public static int charge(", "cost = units * 3;", 0, CHARGE),
    ("bill", PKG + "Meter.java", "public static int bill(", "cost = units * 2;", 0, BILL),
    ("mark", PKG + "Meter.java", "public static int bill(", "mark();", 0, MARK),
    ("fee", PKG + "Meter.java", "public static int fee(", "cost = units * 4;", 0, FEE),
]


def main():
    return sound.main_for(__doc__, "stackwalk", HERE, SETS, release="11")


if __name__ == "__main__":
    sys.exit(main())
