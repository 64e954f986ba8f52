#!/usr/bin/env python3
"""Regenerate the stackjdk fixture's patch set and patches/expected.json, and verify every
expected verdict by plain validation.

Usage:  python3 testdata/stackjdk/make_patchsets.py [--no-verify] [--only SET ...] [-v]

The spec format, the manifest writer and the verifier are those of
testdata/soundness/make_patchsets.py (imported).
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

PKG = "src/main/java/org/example/stackjdk/"

# Stack reads the patch's text does not show: in a project method the JDK calls back
# (`String.valueOf`, `Objects.toString`), in a lambda run through the JDK's `Supplier.get`, in an
# `equals` called on a `Tag`, and in the `iterator()` an enhanced `for` calls (which JDK code may
# call back too). `equals` on a `String` runs JDK code only: those patches are woven although a
# class-path `equals` reads the stack.
TOTAL_FEE = [
    ("fee = amount / 10;", "s"),
    ("fee = String.valueOf(new Tag()).length() == 3 ? amount / 10 : 0;", "s"),
    ("fee = java.util.Objects.toString(new Tag(), \"\").isEmpty() ? 0 : amount / 10;", "s"),
    ("fee = note().get().length() == 5 ? amount / 10 : 0;", "s"),
    ("fee = new Tag().equals(\"tag\") ? 0 : amount / 10;", "s"),
    ("fee = \"tag\".equals(label) ? amount / 10 : 0;", "s"),
    ("fee = label.equals(\"tag\") ? amount / 10 : amount;", "s"),
    ("fee = 0;\n        for (int d : new Tab()) { fee += amount / d; }", "s"),
    # A callee's lambda run by JDK code outside the allowlist (`List.forEach`).
    ("Audit.each(java.util.Arrays.asList(\"a\"));\n        fee = amount / 10;", "s"),
    # A reader of variable arity, called with two arguments (its descriptor has one parameter).
    ("Audit.noteAll(\"a\", \"b\");\n        fee = amount / 10;", "s"),
    # java.util.logging infers the caller: through the `Logger` field, and through a logger of no
    # declared type in the statement.
    ("JUL.info(\"fee\");\n        fee = amount / 10;", "s"),
    ("java.util.logging.Logger.getLogger(\"receipt\").warning(\"fee\");\n        fee = amount / 10;", "s"),
    ("fee = String.valueOf(new Tag()).length() == 3 ? amount / 9 : 0;", "F"),
    ("fee = note().get().length() == 5 ? amount / 9 : 0;", "F"),
    ("fee = \"tag\".equals(label) ? amount / 9 : 0;", "F"),
    ("fee = label.equals(\"tags\") ? amount / 10 : amount;", "F"),
    ("fee = 0;\n        for (int d : new Tab()) { fee += amount / (d - 1); }", "F"),
    ("fee = amount / ten;", "C"),
]

# A static initialiser that reads the stack: under plain its frame is the JVM's `<clinit>`; a
# warm loader that re-runs it as a method of another name must not show that name.
BOOT_INIT = [
    ("loads++;", "s"),
    ("loads++;\n        initIn = Thread.currentThread().getStackTrace()[1].getMethodName();", "s"),
    ("initIn = new Throwable().getStackTrace()[0].getMethodName();\n        loads++;", "s"),
    # A throwable made there and kept: its trace was fixed in `<clinit>`.
    ("loads++;\n        origin = new Throwable();", "s"),
    ("origin = new IllegalStateException(\"boot\");\n        loads++;", "s"),
    ("loads++;\n        origin = new Throwable();\n        loads++;", "F"),
    ("loads += 2;", "F"),
    ("loads++;\n        initIn = new Throwable().getStackTrace()[1].getMethodName();", "F"),
    ("loads++", "C"),
]

# Throwables a callee makes or catches and keeps, unthrown: their stack traces were fixed under
# the patch, so a woven patch's would show its isolation unit. One that a callee only throws out
# (`Audit.check`) leaves the unit thrown and is woven.
KEPT_FEE = [
    ("Audit.mark();\n        fee = amount / 10;", "s"),
    ("Audit.last = Audit.made();\n        fee = amount / 10;", "s"),
    ("Audit.guard(-amount);\n        fee = amount / 10;", "s"),
    ("fee = Audit.check(amount) / 10;", "s"),
    ("Audit.mark();\n        fee = amount / 9;", "F"),
    ("fee = Audit.check(-amount) / 10;", "F"),
    ("fee = Audit.check(amount) / 9;", "F"),
    ("Audit.mark()", "C"),
]

# Project objects that JDK code outside the allowlist calls back: a `Tag` whose `toString()` a
# `StringBuilder` calls, an `Order` (a class, not a lambda) `Collections.sort` calls, a `Tick`
# `Thread.run` calls on the calling thread. Each reads the stack in the callee. The calls are in
# a class-path method (`Audit`) or in the patch's own text.
CALLBACK_FEE = [
    ("fee = amount / 10;", "s"),
    ("fee = Audit.appended(new Tag()) == 3 ? amount / 10 : 0;", "s"),
    ("Audit.sortNames();\n        fee = amount / 10;", "s"),
    ("Audit.runHere(new Audit.Tick());\n        fee = amount / 10;", "s"),
    # The same hand-overs in the patch's own text.
    ("fee = new StringBuilder().append(new Tag()).length() == 3 ? amount / 10 : 0;", "s"),
    ("java.util.Collections.sort(new java.util.ArrayList<>(java.util.Arrays.asList(\"b\", \"a\")), new Audit.Order());\n        fee = amount / 10;", "s"),
    ("new Thread(new Audit.Tick()).run();\n        fee = amount / 10;", "s"),
    ("fee = Audit.appended(new Tag()) == 3 ? amount / 9 : 0;", "F"),
    ("fee = new StringBuilder().append(new Tag()).length() == 3 ? amount / 9 : 0;", "F"),
    ("Audit.sortNames();\n        fee = amount / 9;", "F"),
    ("Audit.runHere(new Audit.Tick());\n        fee = amount / 11;", "F"),
    ("Audit.runHere(new Audit.Tick())", "C"),
]

SETS = [
    ("boot_init", PKG + "Boot.java", "static {", "loads++;", 0, BOOT_INIT),
    ("callback_fee", PKG + "Receipt.java", "public static int total(", "fee = amount / 10;", 0, CALLBACK_FEE),
    ("kept_fee", PKG + "Receipt.java", "public static int total(", "fee = amount / 10;", 0, KEPT_FEE),
    ("total_fee", PKG + "Receipt.java", "public static int total(", "fee = amount / 10;", 0, TOTAL_FEE),
]


def main():
    return sound.main_for(__doc__, "stackjdk", HERE, SETS)


if __name__ == "__main__":
    sys.exit(main())
