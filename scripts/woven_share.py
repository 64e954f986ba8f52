#!/usr/bin/env python3
"""The share of patches decided on the woven path (issue 25): over every schemata run recorded in
the work dirs below the given directories (their `result.jsonl`, one line per set and run; the
copies under `runs/` are skipped), how many patches were validated one by one (`extra.fallback`)
and why, how many were given `C` by a rule without a compile (`extra.certain_errors`: neither
woven nor one by one), how many javac calls and how much compile time the sets took. Plain validation's lines are
left out (they weave nothing).

Usage: scripts/woven_share.py [--by-dir] [--reasons N] [--groups] DIR...

  DIR       a work dir, or a directory holding some (a corpus_table.py --out, a fuzz --out)
  --by-dir  a line per work dir besides the total
  --reasons the N most frequent reasons for one-by-one validation (default 10; `extra.fallback_reasons`
            is per set, so a reason counts once per set that gave it; a second table counts patches,
            from `details.jsonl`'s `one_by_one`, where the run wrote it)
  --groups  those per-patch reasons in the groups of issue 25's gaps (GROUPS below), with a share

Prints markdown on stdout.
"""

import argparse
import collections
import json
import os
import re
import sys


def result_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != "runs"]
        if "result.jsonl" in filenames:
            yield os.path.join(dirpath, "result.jsonl")


def tally(path, reasons):
    t = collections.Counter()
    with open(path) as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if r.get("technique") != "schemata":
                continue
            e = r.get("extra", {})
            t["sets"] += 1
            t["patches"] += len(r.get("succlist", ""))
            t["fallback"] += e.get("fallback", 0)
            t["certain"] += e.get("certain_errors", 0)
            t["javac"] += e.get("javac_invocations", 0)
            t["compile_ms"] += e.get("compile_ms", 0)
            for why in e.get("fallback_reasons", []):
                reasons[kind(why)] += 1
    return t


def kind(why):
    """Reasons name patches and lines: keep the kind, not the instance."""
    return re.sub(r"\d+", "N", why)[:110]


def tally_patches(path, per_patch):
    """Per-patch reasons from the `details.jsonl` beside a `result.jsonl` (`one_by_one`, written
    since 2026-11-29; older records have none)."""
    details = os.path.join(os.path.dirname(path), "details.jsonl")
    if not os.path.exists(details):
        return
    with open(details) as f:
        for line in f:
            try:
                why = json.loads(line).get("one_by_one")
            except ValueError:
                continue
            if why:
                per_patch[kind(why)] += 1


# The groups of one-by-one reasons, first match wins: what a patch would need to be woven.
GROUPS = [
    ("woven, then decided again without the stub (a timeout, an overflow)",
     ("decided again with the plainly patched file",)),
    ("may read the stack: the exact path of issue 26",
     ("read the call stack", "keep a stack trace", "its stack trace would show")),
    ("an initialiser block's rules (a local, `return`, completion, a field read too early)",
     ("initialiser block", "an initialiser may not read")),
    ("a declaration changed beyond its initialiser, or text outside a method's statements",
     ("more of the declaration", "not inside a statement of a method body",
      "not inside a method or constructor body")),
    ("the location declares a local", ("the location declares a local",)),
]


def group(why):
    for name, needles in GROUPS:
        if any(n in why for n in needles):
            return name
    return "other"


def row(name, t):
    woven = t["patches"] - t["fallback"] - t["certain"]
    share = 100.0 * woven / t["patches"] if t["patches"] else 0.0
    return "| %s | %d | %d | %d | %d | %.1f %% | %.1f | %.2f s |" % (
        name, t["sets"], t["patches"], t["fallback"], t["certain"], share,
        t["javac"] / t["sets"] if t["sets"] else 0, t["compile_ms"] / 1000 / max(t["sets"], 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--by-dir", action="store_true")
    ap.add_argument("--reasons", type=int, default=10)
    ap.add_argument("--groups", action="store_true")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    total = collections.Counter()
    reasons = collections.Counter()
    per_patch = collections.Counter()
    lines = []
    for d in args.dirs:
        if not os.path.isdir(d):
            print("woven_share.py: %s: not a directory" % d, file=sys.stderr)
            return 2
        for path in sorted(result_files(d)):
            t = tally(path, reasons)
            tally_patches(path, per_patch)
            if t["sets"]:
                total.update(t)
                lines.append(row(os.path.dirname(path), t))
    print("| work dir | schemata runs | patches | one by one | `C` by a rule | woven path | javac calls a run | compile a run |")
    print("|---|---|---|---|---|---|---|---|")
    if args.by_dir:
        for l in lines:
            print(l)
    print(row("**all**", total))
    table("| sets | why patches went one by one |", reasons, args.reasons)
    table("| patches | why they went one by one |", per_patch, args.reasons)
    if args.groups and per_patch:
        groups = collections.Counter()
        for why, k in per_patch.items():
            groups[group(why)] += k
        alone = sum(groups.values())
        print()
        print("| patches | share of those one by one | group |")
        print("|---|---|---|")
        for name, k in groups.most_common():
            print("| %d | %.1f %% | %s |" % (k, 100.0 * k / alone, name))
    return 0


def table(header, counts, n):
    """The `n` most frequent reasons as a markdown table, if there are any."""
    if not counts or not n:
        return
    print()
    print(header)
    print("|---|---|")
    for why, k in counts.most_common(n):
        print("| %d | %s |" % (k, why.replace("|", "\\|")))


if __name__ == "__main__":
    sys.exit(main())
