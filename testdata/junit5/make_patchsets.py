#!/usr/bin/env python3
"""Regenerate the junit5 fixture's patch sets and patches/expected.json.

Usage:  python3 testdata/junit5/make_patchsets.py        (from anywhere)

The spec format and the writer are those of testdata/make_patchsets.py (imported; its
SPEC is replaced by this fixture's). Each entry:
    (set_name, file, anchor, unpatched, occurrence, [(patch_text, expected_letter), ...])
Letters: s plausible, F some test fails, C compile error, T timeout; all checked by compiling
each patched file (javac --release 8 -cp junit-platform-console-standalone.jar) and running
the tests with `java -jar junit-platform-console-standalone.jar --select-method ...`, the
trigger test first, stopping at the first failure.
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

GRADER = "src/main/java/org/example/grades/Grader.java"
BOOK = "src/main/java/org/example/grades/Gradebook.java"


def cond(c, body="return 'B';"):
    """The whole `if` statement of the B grade in Grader.letter, with condition c."""
    return "if (%s) {\n            %s\n        }" % (c, body)


# Set 1: the seeded bug (`score > 80` should be `score >= 80`). The trigger test is
# GraderTest$Boundaries#lowerBoundOfEachGrade(int,java.lang.String) (90 A, 80 B, 70 C, 60 D);
# GraderTest#letters covers 95 90 85 79 70 65 59 0.
LETTER = [
    (cond("score >= 80"), "s"),
    (cond("score > 79"), "s"),
    (cond("80 <= score"), "s"),
    (cond("score >= 80 && score < 90"), "s"),
    (cond("score + 1 > 80"), "s"),
    (cond("!(score < 80)"), "s"),
    (cond("score >= 80L"), "s"),                     # long comparison
    (cond("score > 80"), "F"),                       # the original
    (cond("score > 81"), "F"),
    (cond("score == 80"), "F"),                      # passes the trigger, fails letters (85 B)
    (cond("score >= 79"), "F"),                      # passes the trigger, fails letters (79 C)
    (cond("score >= 80 && score != 85"), "F"),       # fails letters (85 B)
    (cond("score >= 80 || score == 60"), "F"),       # fails the trigger's 4th invocation (60 D)
    (cond("score < 80"), "F"),
    (cond("false"), "F"),
    (cond("score >= 80", "return 'C';"), "F"),
    ("", "F"),                                      # no B at all
    (cond("score >= \"80\""), "C"),                  # int >= String
    (cond("grade >= 80"), "C"),                      # undefined symbol
    (cond("score >= 80", "return \"B\";"), "C"),     # String -> char
    (cond("score >= 80") + " else {\n            return 'C';\n        }", "C"),  # rest unreachable
    (cond("score >= 80", "return;"), "C"),           # missing return value
]

# Set 2: `pct = points * 100 / max;` in Grader.percent; every compiling patch fails the trigger.
PERCENT = [
    ("pct = points * 100 / max;", "F"),
    ("pct = 100 * points / max;", "F"),
    ("pct = (points * 100) / max;", "F"),
    ("pct = points / max * 100;", "F"),
    ("pct = Math.round(points * 100f / max);", "F"),
    ("pct = (int) Math.floor(points * 100.0 / max);", "F"),
    ("pct = points * 100 % max;", "F"),
    ("return points * 100 / max;", "F"),
    ("pct = points * 100.0 / max;", "C"),            # lossy double -> int
    ("pct = pts * 100 / max;", "C"),                 # undefined symbol
    ("pct = Math.round(points * 100.0 / max);", "C"),  # lossy long -> int
]

# Set 3: `best = score;` in the void instance method Gradebook.add (fields count, total, best).
BEST = [
    ("best = score;", "F"),
    ("this.best = score;", "F"),
    ("best = Math.max(best, score);", "F"),
    ("best = total;", "F"),
    ("best += score;", "F"),
    ("count = score;", "F"),
    ("", "F"),
    ("return;", "F"),
    ("best = \"score\";", "C"),                     # String -> int
    ("best = score * 1.5;", "C"),                   # lossy double -> int
    ("best = scores;", "C"),                        # undefined symbol
]

SETS = [
    ("letter_b_cond", GRADER, "public static char letter(", cond("score > 80"), 0, LETTER),
    ("percent_assign", GRADER, "public static int percent(", "pct = points * 100 / max;", 0, PERCENT),
    ("book_best", BOOK, "public void add(", "best = score;", 0, BEST),
]


def main():
    base.HERE = TESTDATA
    base.SPEC = {"junit5": ("junit5-1", SETS)}
    return base.main()


if __name__ == "__main__":
    sys.exit(main())
