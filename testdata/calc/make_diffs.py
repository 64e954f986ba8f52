#!/usr/bin/env python3
"""Writes calc's unified-diff patches (diffs/*.diff, diffs/more.jsonl, and methods/*.diff: whole
methods rewritten; members/*.diff: several methods changed, a private helper added) and its edit-list manifest (edits/edits.json): each patch is made by editing a copy of the project in a scratch
git repository and taking `git diff` (git's a/ b/ headers; some diffs use `diff -u`'s plain
paths). Expected verdicts (diffs/expected.json, edits/expected.json) were checked with
`patchval run --technique plain`, which compiles each patch with javac and runs the tests."""
import json, os, re, shutil, subprocess, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
M = "src/main/java/org/example/calc/MathUtil.java"
A = "src/main/java/org/example/calc/Accumulator.java"
H = "src/main/java/org/example/calc/Helper.java"
BUG = "        return -lo;\n"

# name -> (list of (file, old, new); old None creates the file), expected verdict
PATCHES = {
    # One hunk at the bug: these four share a set and one compile.
    "fix_paren": ([(M, BUG, "        return -(lo + 1);\n")], "s"),
    "fix_minus_one": ([(M, BUG, "        return -lo - 1;\n")], "s"),
    "wrong_sign": ([(M, BUG, "        return lo;\n")], "F"),
    "syntax": ([(M, BUG, "        return -lo\n")], "C"),
    # An insertion before the bug's line (a hunk that only adds).
    "insert_increment": ([(M, BUG, "        lo = lo + 1;\n" + BUG)], "s"),
    "insert_guard": ([(M, BUG, "        if (lo > 0) {\n            return 0;\n        }\n" + BUG)], "F"),
    # Two hunks in two files.
    "two_files_fix": ([(M, BUG, "        return -(lo + 1);\n"),
                       (A, "        total += value;\n", "        total = total + value;\n")], "s"),
    "two_files_break": ([(M, BUG, "        return -(lo + 1);\n"),
                         (A, "        count++;\n", "        count += 2;\n")], "F"),
    "two_files_new_method": ([(M, BUG, "        return Accumulator.notFound(lo);\n"),
                              (A, "    public int getTotal() {\n",
                               "    static int notFound(int lo) {\n        return -(lo + 1);\n    }\n\n    public int getTotal() {\n")], "s"),
    "two_files_missing_method": ([(M, BUG, "        return Accumulator.notFound(lo);\n"),
                                  (A, "        count++;\n", "        count += 1;\n")], "C"),
    # A hunk that adds a method, and one that calls it, in one file.
    "add_method_and_call": ([(M, BUG, "        return notFound(lo);\n"),
                             (M, "    /** Counts the rows of m that contain no zero. */\n",
                              "    private static int notFound(int lo) {\n        return -(lo + 1);\n    }\n\n    /** Counts the rows of m that contain no zero. */\n")], "s"),
    # Only a method added: the bug stays.
    "add_method_only": ([(M, "    /** Counts the rows of m that contain no zero. */\n",
                          "    static int unused() {\n        return 1;\n    }\n\n    /** Counts the rows of m that contain no zero. */\n")], "F"),
    # Two hunks in two methods of one file.
    "two_methods": ([(M, "        int sum = 0;\n", "        int sum = 0 * from;\n"),
                     (M, BUG, "        return -(lo + 1);\n")], "s"),
    # A new file and a call to it.
    "new_file": ([(M, BUG, "        return Helper.notFound(lo);\n"),
                  (H, None, "package org.example.calc;\n\nfinal class Helper {\n    static int notFound(int lo) {\n        return -(lo + 1);\n    }\n}\n")], "s"),
}
# Patches written to diffs/more.jsonl instead of their own .diff files.
JSONL = ["wrong_sign", "two_methods"]
# Written with `diff -u` paths (no a/ b/ prefixes).
PLAIN_PATHS = ["fix_minus_one"]

# Whole-method rewrites, as a function-level LLM repairer's output becomes a patch (the model
# returns the whole fixed method, the harness writes it in and takes `git diff`): binarySearch's
# body replaced, locals renamed, loops rewritten. Written to methods/ (one set: tests/diff.rs).
HEAD = "    public static int binarySearch(int[] a, int key) {\n"
with open(os.path.join(HERE, M)) as f:
    SOURCE = f.read()
BODY = SOURCE[SOURCE.index(HEAD) + len(HEAD):SOURCE.index(BUG) + len(BUG)]
METHODS = {
    "fix_renamed": (re.sub(r"\b(lo|hi|mid|v)\b",
                           lambda m: {"lo": "low", "hi": "high", "mid": "middle", "v": "value"}[m[1]],
                           BODY).replace("return -low;", "return -(low + 1);"), "s"),
    "jdk": ("        return java.util.Arrays.binarySearch(a, key);\n", "s"),
    "for_loop": ("""        int lo = 0, hi = a.length - 1;
        for (; lo <= hi; ) {
            int mid = lo + (hi - lo) / 2;
            if (a[mid] == key) {
                return mid;
            }
            if (a[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return -lo - 1;
""", "s"),
    "half_open": ("""        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (a[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo < a.length && a[lo] == key ? lo : -lo;
""", "F"),
    "linear": ("""        for (int i = 0; i < a.length; i++) {
            if (a[i] == key) {
                return i;
            }
            if (a[i] > key) {
                return -i - 1;
            }
        }
        return -a.length - 1;
""", "s"),
    "long_mid": ("""        int lo = 0;
        int hi = a.length - 1;
        while (lo <= hi) {
            long mid = (lo + hi) >>> 1;
            int v = a[mid];
            if (v < key) lo = mid + 1; else if (v > key) hi = mid - 1; else return mid;
        }
        return -(lo + 1);
""", "C"),
}

# Patches whose hunks lie in several methods of MathUtil, or add a private helper (one set, its
# location from sumRange to binarySearch's end): their tests are the tests of the methods they
# change, not every test (tests/diff.rs). Written to members/.
SUM = "        int sum = 0;\n"
MEMBERS = {
    "sum_and_search": ([(SUM, "        int sum = 0 * from;\n"), (BUG, "        return -(lo + 1);\n")], "s"),
    "sum_broken_and_search": ([(SUM, "        int sum = 1;\n"), (BUG, "        return -(lo + 1);\n")], "F"),
    "private_helper": ([(BUG + "    }\n", "        return notFound(lo);\n    }\n\n"
                        "    private static int notFound(int lo) {\n        return -(lo + 1);\n    }\n")], "s"),
}


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                          text=True).stdout


def main():
    src = os.path.join(HERE, "src")
    diffs_dir = os.path.join(HERE, "diffs")
    edits_dir = os.path.join(HERE, "edits")
    for d in (diffs_dir, edits_dir):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    expected, jsonl, listed = {}, [], []
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(src, os.path.join(tmp, "src"))
        git(tmp, "init", "-q")
        git(tmp, "add", "-A")
        git(tmp, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-qm", "base")
        for name, (edits, verdict) in PATCHES.items():
            listed_edits = []
            for f, old, new in edits:
                path = os.path.join(tmp, f)
                if old is None:
                    open(path, "w").write(new)
                    continue
                text = open(path).read()
                assert text.count(old) == 1, (name, old)
                line = text[:text.index(old)].count("\n") + 1
                open(path, "w").write(text.replace(old, new))
                listed_edits.append({"filename": f, "line": line, "unpatched": old,
                                     "patched": new})
            git(tmp, "add", "-A")
            diff = git(tmp, "diff", "--cached")
            if name in PLAIN_PATHS:
                diff = "".join(l for l in diff.splitlines(True)
                               if not l.startswith(("diff --git", "index ")))
                diff = diff.replace("--- a/", "--- ").replace("+++ b/", "+++ ")
            git(tmp, "reset", "-q", "--hard")
            git(tmp, "clean", "-qfd")
            if name in JSONL:
                jsonl.append(json.dumps({"name": name, "diff": diff}))
                expected[f"more.jsonl:{len(jsonl)} ({name})"] = verdict
            else:
                open(os.path.join(diffs_dir, name + ".diff"), "w").write(diff)
                expected[name + ".diff"] = verdict
            if all(old is not None for _, old, _ in edits):
                listed.append(({"name": name, "edits": listed_edits}, verdict))
    open(os.path.join(diffs_dir, "more.jsonl"), "w").write("\n".join(jsonl) + "\n")
    json.dump(expected, open(os.path.join(diffs_dir, "expected.json"), "w"), indent=1,
              sort_keys=True)
    json.dump({"bug": "calc-1", "patches": [p for p, _ in listed]},
              open(os.path.join(edits_dir, "edits.json"), "w"), indent=1)
    json.dump({p["name"]: v for p, v in listed},
              open(os.path.join(edits_dir, "expected.json"), "w"), indent=1, sort_keys=True)
    methods_dir = os.path.join(HERE, "methods")
    shutil.rmtree(methods_dir, ignore_errors=True)
    os.makedirs(methods_dir)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(src, os.path.join(tmp, "src"))
        git(tmp, "init", "-q")
        git(tmp, "add", "-A")
        git(tmp, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-qm", "base")
        path = os.path.join(tmp, M)
        text = open(path).read()
        assert text.count(BODY) == 1
        expected = {}
        for name, (body, verdict) in METHODS.items():
            open(path, "w").write(text.replace(BODY, body))
            open(os.path.join(methods_dir, name + ".diff"), "w").write(git(tmp, "diff"))
            git(tmp, "checkout", "-q", "--", M)
            expected[name + ".diff"] = verdict
        json.dump(expected, open(os.path.join(methods_dir, "expected.json"), "w"), indent=1,
                  sort_keys=True)
        members_dir = os.path.join(HERE, "members")
        shutil.rmtree(members_dir, ignore_errors=True)
        os.makedirs(members_dir)
        expected = {}
        for name, (edits, verdict) in MEMBERS.items():
            patched = text
            for old, new in edits:
                assert patched.count(old) == 1, (name, old)
                patched = patched.replace(old, new)
            open(path, "w").write(patched)
            open(os.path.join(members_dir, name + ".diff"), "w").write(git(tmp, "diff"))
            git(tmp, "checkout", "-q", "--", M)
            expected[name + ".diff"] = verdict
        json.dump(expected, open(os.path.join(members_dir, "expected.json"), "w"), indent=1,
                  sort_keys=True)


main()
