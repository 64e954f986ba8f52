#!/usr/bin/env python3
"""Regenerate the multimodule fixture's patch sets and patches/expected.json.

Usage:  python3 testdata/multimodule/make_patchsets.py [--verify]     (from anywhere)

The spec format and the writer are those of testdata/make_patchsets.py (imported; its SPEC is
replaced by this fixture's). Each entry:
    (set_name, file, anchor, unpatched, occurrence, [(patch_text, expected_letter), ...])
`file` is relative to the fixture root (app/... or core/...). Letters: s plausible, F some test
fails, C compile error. --verify checks every letter by plain validation: patch the file, javac
--release 8 all main sources of both modules (class path JUnit 4 + Hamcrest), then the tests,
and run them with JUnit 4 (trigger tests first, stop at the first failure).
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.dirname(HERE)

_spec = importlib.util.spec_from_file_location("base_make_patchsets",
                                               os.path.join(TESTDATA, "make_patchsets.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

HIST = "app/src/main/java/org/example/mm/app/Histogram.java"
STATS = "core/src/main/java/org/example/mm/core/Stats.java"
BUCKET_RANGE = "public Range bucketRange("

SETS = [
    # The seeded bug: the bucket's upper bound is one past its last value.
    ("bucket_range_hi", HIST, BUCKET_RANGE, "lo + width", 0, [
        ("lo + width - 1", "s"),
        ("width + lo - 1", "s"),
        ("lo - 1 + width", "s"),
        ("lo + (width - 1)", "s"),
        ("lo + width", "F"),
        ("lo + width + 1", "F"),
        ("lo + 1", "F"),
        ("width - 1", "F"),                          # right for bucket 0 only
        ("range.hi()", "F"),
        ("lo", "F"),
        ("Stats.minOf(lo, width)", "C"),             # no such method in core's Stats
        ("range.upper()", "C"),                      # no such method in core's Range
        ("lo + width - 1L", "C"),                    # Math.min(long, int) -> long into int
        ("\"x\"", "C"),
    ]),
    # The whole statement, with fixes through core's API.
    ("bucket_range_stmt", HIST, BUCKET_RANGE, "int hi = Math.min(lo + width, range.hi());", 0, [
        ("int hi = Math.min(lo + width - 1, range.hi());", "s"),
        ("int hi = Stats.clamp(lo + width - 1, lo, range.hi());", "s"),
        ("int hi = new Range(lo, lo + width - 1).intersect(range).hi();", "s"),
        ("int hi = Math.min(lo + width, range.hi());", "F"),
        ("int hi = Math.max(lo + width - 1, range.hi());", "F"),
        ("int hi = Stats.clamp(lo + width, lo, range.hi());", "F"),
        ("int hi = lo + width - 1;", "F"),           # last bucket not clamped
        ("int hi = range.lo() + width - 1;", "F"),
        ("int hi = Stats.minOf(lo + width - 1, range.hi());", "C"),  # missing core method
        ("long hi = lo + width - 1;", "C"),          # new Range(int, long)
        ("int hi = Math.min(lo + width - 1, range.hi())", "C"),      # missing semicolon
    ]),
    # Not the bug: the trigger tests still fail.
    ("bucket_of_div", HIST, "public int bucketOf(", "(value - range.lo()) / width", 0, [
        ("(value - range.lo()) / width", "F"),
        ("value / width", "F"),
        ("(value - range.lo()) % width", "F"),
        ("(value - range.hi()) / width", "F"),
        ("Stats.clamp(value, 0, width)", "F"),
        ("(value - range.lo()) / width + 1", "F"),
        ("value - range.lo() / width", "F"),
        ("(value - range.lo) / width", "C"),         # private field of core's Range
        ("(value - range.lo()) / (double) width", "C"),
        ("Stats.bucket(value, width)", "C"),
    ]),
    # A location in the other module (core), checked by app's tests too.
    ("stats_sum_add", STATS, "public static int sum(", "total += x;", 0, [
        ("total += x;", "F"),
        ("total = x;", "F"),
        ("total -= x;", "F"),
        ("total += x * 2;", "F"),
        ("", "F"),
        ("total++;", "F"),
        ("return total;", "F"),
        ("total += (long) x;", "F"),                 # compound assignment narrows implicitly
        ("total += y;", "C"),
        ("total = total + (long) x;", "C"),
    ]),
]

TRIGGERS = ["org.example.mm.app.HistogramTest#bucketRangeFirst",
            "org.example.mm.app.HistogramTest#bucketRangesPartition"]
JARS = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar"
RUNNER = """
import org.junit.runner.*;
import org.junit.runner.notification.Failure;
public class PvRun {
    public static void main(String[] a) throws Exception {
        for (String t : a) {
            String[] p = t.split("#");
            Result r = new JUnitCore().run(Request.method(Class.forName(p[0]), p[1]));
            if (!r.wasSuccessful()) {
                for (Failure f : r.getFailures()) System.out.println("FAIL " + t + ": " + f.getMessage());
                System.exit(1);
            }
        }
    }
}
"""


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def java_files(root, kind):
    out = []
    for mod in ("core", "app"):
        for d, _, fs in os.walk(os.path.join(root, mod, "src", kind, "java")):
            if os.path.basename(d) == "bench":
                continue  # app/pom.xml's <testExcludes>: **/bench/* needs JMH
            out += [os.path.join(d, f) for f in fs if f.endswith(".java")]
    return sorted(out)


def tests_in_order(tmp):
    """All test methods, trigger tests first (a fresh listing of @Test methods by source scan)."""
    tests = []
    for f in java_files(tmp, "test"):
        src = open(f, encoding="utf-8").read()
        pkg = src.split("package ", 1)[1].split(";", 1)[0]
        cls = pkg + "." + os.path.basename(f)[:-5]
        for part in src.split("@Test")[1:]:
            name = part.split("public void ", 1)[1].split("(", 1)[0]
            tests.append(cls + "#" + name)
    return TRIGGERS + [t for t in tests if t not in TRIGGERS]


def verdict(tmp):
    out = os.path.join(tmp, "out")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    r = sh(["javac", "-nowarn", "--release", "8", "-cp", JARS, "-d", out + "/c"] + java_files(tmp, "main"))
    if r.returncode:
        return "C", r.stderr.splitlines()[0] if r.stderr else "?"
    r = sh(["javac", "-nowarn", "--release", "8", "-cp", out + "/c:" + JARS, "-d", out + "/t",
            os.path.join(tmp, "PvRun.java")] + java_files(tmp, "test"))
    assert r.returncode == 0, r.stderr
    r = sh(["java", "-cp", ":".join([out + "/c", out + "/t", JARS]), "PvRun"] + tests_in_order(tmp),
           timeout=60)
    return ("s", "") if r.returncode == 0 else ("F", r.stdout.strip()[:100])


def verify():
    import json
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for mod in ("core", "app"):
            shutil.copytree(os.path.join(HERE, mod), os.path.join(tmp, mod))
        with open(os.path.join(tmp, "PvRun.java"), "w") as f:
            f.write(RUNNER)
        assert verdict(tmp)[0] == "F", "the unpatched program must fail its trigger tests"
        expected = json.load(open(os.path.join(HERE, "patches", "expected.json")))
        for name, *_ in SETS:
            m = json.load(open(os.path.join(HERE, "patches", name + ".json")))
            target = os.path.join(tmp, m["filename"])
            got = ""
            for i, p in enumerate(m["patches"]):
                with open(target, "w", encoding="utf-8", newline="") as f:
                    f.write(m["context_above"] + p + m["context_below"])
                v, why = verdict(tmp)
                got += v
                if v != expected[name + ".json"][i]:
                    ok = False
                    print("MISMATCH %s #%d %r: got %s (%s)" % (name, i, p, v, why))
            with open(target, "w", encoding="utf-8", newline="") as f:
                f.write(m["context_above"] + m["unpatched"] + m["context_below"])
            print("verified %-20s %s" % (name, got))
    return 0 if ok else 1


def main():
    base.HERE = TESTDATA
    base.SPEC = {"multimodule": ("multimodule-1", SETS)}
    rc = base.main()
    if rc == 0 and "--verify" in sys.argv:
        rc = verify()
    return rc


if __name__ == "__main__":
    sys.exit(main())
