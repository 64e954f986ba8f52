#!/usr/bin/env python3
"""Regenerate the purity fixture's patch sets and patches/expected.json.

Usage:  python3 testdata/purity/make_patchsets.py        (from anywhere)

The spec format and the writer are those of testdata/make_patchsets.py (imported; its SPEC is
replaced by this fixture's). Each set has patches that make the same state change at the location
as a plausible patch but also have an effect a test observes, through a rule of tree eligibility:
a call a test subclass overrides, a constructor that writes a static field, an implicit
`toString()`, `Map.get` on an access-ordered map, and a class whose initialiser has an effect.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.dirname(HERE)

_spec = importlib.util.spec_from_file_location("base_make_patchsets",
                                               os.path.join(TESTDATA, "make_patchsets.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

MAIN = "src/main/java/org/example/purity/"

SETS = [
    # 1. CountingScaler (a test class) overrides factor() and counts its calls.
    ("overridable_call", MAIN + "Scaler.java", "public int scale(", "y = x * 2;", 0, [
        ("y = x * 2;", "s"),
        ("y = x * factor();", "F"),
        ("y = x + x;", "s"),
        ("y = factor() * x;", "F"),
        ("y = this.factor() * x;", "F"),
        ("y = 2 * x;", "s"),
    ]),
    # 2. Tally's no-argument constructor writes a static field.
    ("constructor", MAIN + "Guard.java", "public static int check(",
     "throw new IllegalArgumentException();", 0, [
        ("throw new IllegalArgumentException();", "s"),
        ("throw new Tally();", "F"),
        ("throw new IllegalStateException();", "s"),
        ("throw new UnsupportedOperationException();", "s"),
        ("throw new IllegalArgumentException(\"negative\");", "s"),
    ]),
    # 3. Label renders as "" and counts its renderings: concatenation calls toString().
    ("implicit_tostring", MAIN + "Describer.java", "public static String describe(",
     "s = \"n=\" + n;", 0, [
        ("s = \"n=\" + n;", "s"),
        ("s = \"n=\" + n + label;", "F"),
        ("s = \"n=\" + (n + 0);", "s"),
        ("s = \"n\" + \"=\" + n;", "s"),
        ("s = label + \"n=\" + n;", "F"),
        ("s = \"n=\" + String.valueOf(n);", "s"),
        ("s = \"n=\" + n + String.valueOf(label);", "F"),
    ]),
    # 4. An access-ordered LinkedHashMap: get and getOrDefault move the entry read to the end.
    ("access_order", MAIN + "Cache.java", "public int present(", "found = 1;", 0, [
        ("found = 1;", "s"),
        ("found = entries.get(key) != null ? 1 : 0;", "F"),
        ("found = entries.containsKey(key) ? 1 : 0;", "s"),
        ("found = 2 - 1;", "s"),
        ("found = entries.getOrDefault(key, 0) > 0 ? 1 : 0;", "F"),
    ]),
    # 5. Plugin's static initialiser counts in Registry: reading Plugin.ID initialises it.
    ("class_init", MAIN + "Ids.java", "public static int id(", "r = x;", 0, [
        ("r = x;", "s"),
        ("r = Plugin.ID;", "F"),
        ("r = x + 0;", "s"),
        ("r = Plugin.ID + x - 7;", "F"),
        ("r = Math.max(x, 0);", "s"),
    ]),
]


def main():
    base.HERE = TESTDATA
    base.SPEC = {"purity": ("purity-1", SETS)}
    return base.main()


if __name__ == "__main__":
    sys.exit(main())
