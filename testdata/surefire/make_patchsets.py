#!/usr/bin/env python3
"""Regenerate the surefire fixture's patch set and patches/expected.json, and verify every expected
verdict the way Maven's surefire runs the tests: the project's classes, its resources and JUnit on
the JVM's own class path, one JVM for all the tests (`JUnitCore`).

Usage:  python3 testdata/surefire/make_patchsets.py [--no-verify]

The spec format and the manifest writer are those of testdata/make_patchsets.py (imported; its SPEC
is replaced by this fixture's). For every patch: context_above + patch + context_below replaces the
file in a copy of the fixture, main and test sources are compiled with javac --release 8 (C when
javac fails), the resources are copied beside the classes, and every test class runs in one JVM
with `-cp test-classes:classes:junit` (F when a test fails, s when all pass). A letter that differs
from the spec is printed and the script exits 1.
"""
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.dirname(HERE)
JUNIT = ["/usr/share/java/junit4.jar", "/usr/share/java/hamcrest-core.jar"]
RATES = "src/main/java/org/example/rates/Rates.java"

_spec = importlib.util.spec_from_file_location("base_make_patchsets",
                                               os.path.join(TESTDATA, "make_patchsets.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

SETS = [
    # The seeded bug: the loop overwrites the sum instead of adding to it. The two trigger tests
    # read their rates through the system class loader (ClassLoader.getSystemResource in the test,
    # getSystemResourceAsStream in the code under test). LedgerTest passes only run whole.
    ("total_sum", RATES, "public int total(", "sum = get(names[i]);", 0, [
        ("sum += get(names[i]);", "s"),
        ("sum = sum + get(names[i]);", "s"),
        ("sum -= get(names[i]);", "F"),
        ("sum += get(names[0]);", "F"),
        ("sum += get(names[i]) + 1;", "F"),
        ("sum = get(names[i]);", "F"),
        # Right for two or more names, wrong for one: only LedgerTest, which passes only when its
        # class runs whole, tells it apart.
        ("sum += names.length == 1 ? get(names[i]) + 1 : get(names[i]);", "F"),
        ("sum += names[i];", "C"),
        ("sum += get(name);", "C"),
    ]),
]


def tool(name):
    home = os.environ.get("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64")
    return os.path.join(home, "bin", name)


def java_files(root):
    return [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".java")]


def copy_tree(src, dst):
    if os.path.isdir(src):
        shutil.copytree(src, dst, dirs_exist_ok=True)


def verdict(project):
    """Compile the copy in `project` and run its tests as surefire would; returns s, F or C."""
    classes, tests = os.path.join(project, "classes"), os.path.join(project, "test-classes")
    main = subprocess.run([tool("javac"), "--release", "8", "-nowarn", "-d", classes]
                          + java_files(os.path.join(project, "src/main/java")), capture_output=True)
    if main.returncode != 0:
        return "C"
    test = subprocess.run([tool("javac"), "--release", "8", "-nowarn", "-d", tests, "-cp",
                           os.pathsep.join([classes] + JUNIT)]
                          + java_files(os.path.join(project, "src/test/java")), capture_output=True)
    assert test.returncode == 0, test.stderr.decode()
    copy_tree(os.path.join(project, "src/main/resources"), classes)
    copy_tree(os.path.join(project, "src/test/resources"), tests)
    # Surefire's default includes: classes named *Test.
    names = sorted(os.path.relpath(f, os.path.join(project, "src/test/java"))[:-5].replace(os.sep, ".")
                   for f in java_files(os.path.join(project, "src/test/java")) if f.endswith("Test.java"))
    run = subprocess.run([tool("java"), "-cp", os.pathsep.join([tests, classes] + JUNIT),
                          "org.junit.runner.JUnitCore"] + names, capture_output=True)
    return "s" if run.returncode == 0 else "F"


def verify():
    bad = 0
    for name, fname, _anchor, _unpatched, _occ, patches in SETS:
        with open(os.path.join(HERE, "patches", name + ".json"), encoding="utf-8") as f:
            manifest = json.load(f)
        for i, (text, letter) in enumerate(patches):
            with tempfile.TemporaryDirectory() as tmp:
                project = os.path.join(tmp, "p")
                shutil.copytree(os.path.join(HERE, "src"), os.path.join(project, "src"))
                with open(os.path.join(project, fname), "w", encoding="utf-8", newline="") as f:
                    f.write(manifest["context_above"] + text + manifest["context_below"])
                got = verdict(project)
            print("%s patch %d: %s (expected %s)  %s" % (name, i, got, letter, text))
            bad += got != letter
    return bad


def main():
    base.SPEC = {"surefire": ("surefire-1", SETS)}
    base.HERE = TESTDATA
    code = base.main()
    if code or "--no-verify" in sys.argv:
        return code
    bad = verify()
    if bad:
        print("%d verdicts differ from the spec" % bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
