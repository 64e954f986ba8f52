#!/usr/bin/env python3
"""Regenerate the statics fixture's patch sets and patches/expected.json, and verify every
expected verdict against each test run in a JVM of its own.

Usage:  python3 testdata/statics/make_patchsets.py [--no-verify] [--only SET ...] [-v]

The spec format, the manifest writer and the verifier are those of
testdata/soundness/make_patchsets.py (imported), with one difference: every test runs in a
fresh JVM (FORK_PER_TEST), the reference for what a fresh class loader plus patchval's
restoring of system properties, the default Locale and the default TimeZone must give.
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

PKG = "src/main/java/org/example/statics/"

# A static list that RegistryATest and RegistryBTest each expect to start empty.
REGISTRY_ADD = [
    ("NAMES.add(name);", "s"),
    ("if (!NAMES.contains(name)) NAMES.add(name);", "s"),
    ("NAMES.add(0, name);", "s"),
    ("NAMES.add(name.trim());", "s"),
    ("NAMES.add(name);\n        NAMES.add(name);", "F"),
    ("NAMES.clear();\n        NAMES.add(name);", "F"),
    ("NAMES.set(0, name);", "F"),
    (";", "F"),
    ("NAMES.add(name)", "C"),
]

# A static counter whose start comes from a system property (PropertyTest sets it).
COUNTER_NEXT = [
    ("return ++count;", "s"),
    ("count = count + 1;\n        return count;", "s"),
    ("return count += 1;", "s"),
    ("return Counter.count = count + 1;", "s"),
    ("return count++;", "F"),
    ("return count + 1;", "F"),
    ("++count;\n        return 1;", "F"),
    ("return ++count + Integer.getInteger(\"statics.start\", 0);", "F"),
    ("return ++counter;", "C"),
]

# A greeting that reads a system property and the default Locale, which GlobalsALeakTest
# changes and leaves changed for GlobalsBReadTest.
GREETER_TEXT = [
    ("String text = \"hello \" + name;", "s"),
    ("String text = \"hello \".concat(name);", "s"),
    ("String text = \"hello \" + name.trim();", "s"),
    ("String text = mode.equals(\"loud\") ? \"hello \" + name : \"hi \" + name;", "F"),
    ("String text = \"hello \" + name.toUpperCase();", "F"),
    ("String text = \"Hello \" + name;", "F"),
    ("String text = \"hello\" + name;", "F"),
    ("String text = \"hello \" + nam;", "C"),
]

SETS = [
    ("registry_add", PKG + "Registry.java", "public static int add(", "NAMES.add(name);", 0, REGISTRY_ADD),
    ("counter_next", PKG + "Counter.java", "public static int next(", "return ++count;", 0, COUNTER_NEXT),
    ("greeter_text", PKG + "Greeter.java", "public static String greet(", "String text = \"hello \" + name;", 0,
     GREETER_TEXT),
]


def main():
    return sound.main_for(__doc__, "statics", HERE, SETS, fork_per_test=True)


if __name__ == "__main__":
    sys.exit(main())
