#!/usr/bin/env python3
"""Writes calc's patches in the shapes LLM-based repairers write them (tests/llm_inputs.rs):

- llm-methods/samples.jsonl: whole replacement methods, one JSON record per line, as
  function-level repair harnesses save a model's samples ({"bug_id", "sample", "model", "patch"?,
  "file", "method"?, "line"?, "text"}); two records share a `patch` id (two files, one patch);
  two records name neither method nor line and give the whole file.
- search-replace/*.md, *.txt: SEARCH/REPLACE edit blocks as aider and agentic repairers write
  them in a chat reply (prose, the path, a ```java fence, the block), one patch per file.
- method-diffs/diffs.jsonl: method-relative diffs as RepairBench / elle-elle-aime write them
  (difflib.unified_diff of the buggy and the fixed method's text saved as
  /tmp/<uuid>_buggy.java and /tmp/<uuid>_fixed.java, the method dedented, line numbers counted
  from the method's first line, its javadoc's), in records naming the file.

Expected verdicts (each directory's expected.json) were checked with
`patchval run --technique plain`, which compiles each patch with javac and runs the tests."""
import difflib, json, os, textwrap, uuid

HERE = os.path.dirname(os.path.abspath(__file__))
M = "src/main/java/org/example/calc/MathUtil.java"
A = "src/main/java/org/example/calc/Accumulator.java"
BUG = "        return -lo;\n"
with open(os.path.join(HERE, M)) as f:
    MATH = f.read()
with open(os.path.join(HERE, A)) as f:
    ACC = f.read()

# binarySearch with its javadoc, as in the file.
DOC = "    /**\n     * Searches the ascending array a for key."
START = MATH.index(DOC)
END = MATH.index("    /** Counts the rows")
SEARCH_METHOD = MATH[START:END].rstrip() + "\n"
# Without the javadoc, dedented, as a model returns the method.
HEAD = "    public static int binarySearch(int[] a, int key) {\n"
DECL = textwrap.dedent(SEARCH_METHOD[SEARCH_METHOD.index(HEAD):])


def write(path, text):
    path = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def jsonl(records):
    return "".join(json.dumps(r) + "\n" for r in records)


# --- whole methods -------------------------------------------------------------------------
FIXED = DECL.replace("return -lo;", "return -(lo + 1);")
methods = [
    # The fix, the method named.
    {"bug_id": "calc-1", "sample": 0, "model": "gpt-4o", "file": M, "method": "binarySearch",
     "text": FIXED},
    # A wrong fix, the method named with its parameter types, in a Markdown fence.
    {"bug_id": "calc-1", "sample": 1, "model": "gpt-4o", "file": M,
     "method": "binarySearch(int[], int)",
     "text": "```java\n" + DECL.replace("return -lo;", "return -lo - 2;") + "```"},
    # A new javadoc and the fix with locals renamed; only a line inside the method says which.
    {"bug_id": "calc-1", "sample": 2, "model": "gpt-4o",
     "file": "org/example/calc/MathUtil.java", "line": 30,
     "text": "/** Binary search; -(insertion point) - 1 when key is absent. */\n"
             + DECL.replace("lo", "low").replace("return -low;", "return -(low + 1);")},
    # Does not compile: a local that is not declared.
    {"bug_id": "calc-1", "sample": 3, "model": "gpt-4o", "file": M, "method": "binarySearch",
     "text": DECL.replace("return -lo;", "return -(lower + 1);")},
    # One patch of two records in two files: the fix, and Accumulator.add counting twice.
    {"bug_id": "calc-1", "sample": 4, "model": "gpt-4o", "patch": "fix-and-add", "file": M,
     "method": "binarySearch", "text": FIXED},
    {"bug_id": "calc-1", "sample": 4, "model": "gpt-4o", "patch": "fix-and-add", "file": A,
     "method": "add(int)",
     "text": "public void add(int value) {\n    total += value;\n    count += 2;\n"
             "    if (value > max) {\n        max = value;\n    }\n}\n"},
]
# Whole files, as repairers that return the file write them (neither method nor line): the fix
# with sumRange rewritten in closed form (two methods changed), and a wrong fix in a fence.
SUM = ("        int sum = 0;\n        for (int i = from; i <= to; i++) {\n            sum += i;\n"
       "        }\n        return sum;\n")
methods += [
    {"bug_id": "calc-1", "sample": 5, "model": "gpt-4o", "file": M,
     "text": MATH.replace(BUG, "        return -(lo + 1);\n").replace(
         SUM, "        return from > to ? 0 : (from + to) * (to - from + 1) / 2;\n")},
    {"bug_id": "calc-1", "sample": 6, "model": "gpt-4o", "file": M,
     "text": "```java\n" + MATH.replace(BUG, "        return -lo - 1 - 1;\n") + "```"},
]
write("llm-methods/samples.jsonl", jsonl(methods))
write("llm-methods/expected.json", json.dumps({
    "samples.jsonl:1": "s",
    "samples.jsonl:2": "F",
    "samples.jsonl:3": "s",
    "samples.jsonl:4": "C",
    "samples.jsonl (fix-and-add)": "F",
    "samples.jsonl:7": "s",
    "samples.jsonl:8": "F",
}, indent=1) + "\n")

# --- SEARCH/REPLACE blocks -----------------------------------------------------------------
def block(path, search, replace, fence=True):
    body = "<<<<<<< SEARCH\n" + search + "=======\n" + replace + ">>>>>>> REPLACE\n"
    return path + "\n" + ("```java\n" + body + "```\n" if fence else body)


write("search-replace/fix.md",
      "The not-found result is off by one: `Arrays.binarySearch` returns "
      "`-(insertion point) - 1`.\n\n"
      + block(M, BUG, "        return -(lo + 1);\n"))
# SEARCH lines re-indented by the model: found with the spaces at line ends ignored.
write("search-replace/wrong.txt",
      block(M, "while (lo <= hi) {\n    int mid = (lo + hi) >>> 1;\n",
            "while (lo < hi) {\n    int mid = (lo + hi) >>> 1;\n", fence=False))
write("search-replace/two_files.md",
      "I'll fix the search and tidy `add`.\n\n"
      + block(M, BUG, "        return -lo - 1;\n")
      + "\n" + block(A, "        total += value;\n", "        total = total + value;\n"))
write("search-replace/syntax.md",
      block(M, "        }\n        return -lo;\n    }\n",
            "        }\n        return -(lo + 1)\n    }\n"))
write("search-replace/expected.json", json.dumps({
    "fix.md": "s",
    "syntax.md": "C",
    "two_files.md": "s",
    "wrong.txt": "F",
}, indent=1) + "\n")

# --- method-relative diffs -----------------------------------------------------------------
BUGGY = textwrap.dedent(SEARCH_METHOD)


def method_diff(fixed, seed):
    tmp = "/tmp/" + str(uuid.UUID(int=seed))
    return "".join(difflib.unified_diff(BUGGY.splitlines(True), fixed.splitlines(True),
                                        tmp + "_buggy.java", tmp + "_fixed.java"))


diffs = [
    # The fix, the method named.
    {"bug_id": "calc-1", "file": M, "method": "binarySearch",
     "diff": method_diff(BUGGY.replace("return -lo;", "return -(lo + 1);"), 1)},
    # A wrong fix, a line inside the method as the hint.
    {"bug_id": "calc-1", "file": M, "line": 36,
     "diff": method_diff(BUGGY.replace("return -lo;", "return -lo - 2;"), 2)},
    # Does not compile.
    {"bug_id": "calc-1", "file": M, "method": "binarySearch",
     "diff": method_diff(BUGGY.replace("return -lo;", "return -(low + 1);"), 3)},
    # Two hunks, no hint: each found by its lines alone.
    {"bug_id": "calc-1", "file": "org/example/calc/MathUtil.java",
     "diff": method_diff(BUGGY.replace("(lo + hi) >>> 1", "lo + (hi - lo) / 2")
                         .replace("return -lo;", "return -lo - 1;"), 4)},
]
write("method-diffs/diffs.jsonl", jsonl(diffs))
write("method-diffs/expected.json", json.dumps({
    "diffs.jsonl:1": "s",
    "diffs.jsonl:2": "F",
    "diffs.jsonl:3": "C",
    "diffs.jsonl:4": "s",
}, indent=1) + "\n")
