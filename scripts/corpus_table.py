#!/usr/bin/env python3
"""The corpus table (corpus/README.md): per prepared project, `init`, the seeded bug's patch set
validated side by side by plain, `--no-dedup` and the default technique, and generated sets at
real locations (`patchval fuzz`: the fuzzer's mutations, validated by the same three, with the
tests failing on the buggy program left out so that patches away from the bug can be plausible).

Usage: scripts/corpus_table.py [--cache DIR] [--out DIR] [--locations N] [--patches N] [NAME ...]

  --cache      the cache scripts/corpus.sh prepared (default $PATCHVAL_CORPUS, else
               ~/.cache/patchval-corpus-all); NAMEs default to its READY list
  --out        where work dirs, logs and results go (default /tmp/corpus-table)
  --locations  generated sets per project (default 2; 0: none), --patches at most per set
               (default 12)
  PATCHVAL_BIN the binary to measure (default: this tree's release build, built first)

Writes OUT/NAME.json per project and prints the markdown table (one row per project) on stdout;
progress goes to stderr. Exits 1 if any verdict differs between techniques or from the recorded
expectation.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def timed(cmd, logfile):
    """Runs cmd with stderr to logfile; returns (stdout, seconds, exit status)."""
    started = time.monotonic()
    with open(logfile, "a") as err:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=err, text=True)
    return p.stdout, time.monotonic() - started, p.returncode


def verdicts(stdout):
    """The succlist of the one set a `patchval run` printed (`NAME.json: VERDICTS (...)`)."""
    m = re.search(r"^\S+: ([sFCTE]*) \(", stdout, re.M)
    return m.group(1) if m else None


def project(binary, cache, name, out, args):
    work = os.path.join(out, name, "work")
    logfile = os.path.join(out, name, "log")
    os.makedirs(os.path.dirname(work), exist_ok=True)
    subprocess.run(["rm", "-rf", work, os.path.join(out, name, "fuzz")], check=True)
    row = {"project": name}
    with open(os.path.join(ROOT, "corpus", name + ".json")) as f:
        config = json.load(f)
    row["debian"] = "%s %s" % (config["source_package"], config["version"])
    log("== %s: init" % name)
    _, secs, status = timed([binary, "init", "--project", os.path.join(cache, "src", name),
                             "--work-dir", work], logfile)
    if status != 0:
        row["error"] = "init exited %d (see %s)" % (status, logfile)
        return row
    with open(os.path.join(work, "state.json")) as f:
        state = json.load(f)
    row["init_s"] = round(secs, 1)
    row["tests"] = len(state["tests"])
    row["whole_classes"] = sum(1 for t in state["tests"] if t["id"]["method"] == "*")
    row["excluded"] = len(state.get("excluded", []))
    row["failing"] = sum(1 for t in state["tests"] if not t["passed"])
    seeded = os.path.join(cache, "patches", name + ".json")
    with open(os.path.join(cache, "patches", name + ".expected")) as f:
        row["expected"] = f.read().strip()
    row["seeded"] = {}
    for label, flags in [("default", []), ("no-dedup", ["--no-dedup"]),
                         ("plain", ["--technique", "plain"])]:
        log("== %s: the seeded set, %s" % (name, label))
        stdout, secs, status = timed([binary, "run", "-w", work, seeded] + flags, logfile)
        row["seeded"][label] = {"verdicts": verdicts(stdout), "seconds": round(secs, 1),
                                "status": status}
    if args.locations == 0:
        row["generated"] = {"skipped": True}
        return row
    log("== %s: %d generated sets (fuzz)" % (name, args.locations))
    fuzz = os.path.join(out, name, "fuzz")
    _, secs, status = timed([binary, "fuzz", "-w", work, "--seed", "1", "--locations",
                             str(args.locations), "--patches", str(args.patches), "--out", fuzz],
                            logfile)
    try:
        with open(os.path.join(fuzz, "summary.json")) as f:
            summary = json.load(f)
        row["generated"] = {
            "sets": summary["sets"], "patches": summary["patches"],
            "counts": summary["counts"].get("plain", {}), "seconds": summary["seconds"],
            "disagreements": len(summary["disagreements"]), "status": status,
        }
    except (OSError, ValueError, KeyError) as e:
        row["generated"] = {"error": "fuzz exited %d, no summary (%s)" % (status, e)}
    return row


def agrees(row):
    s = row.get("seeded", {})
    letters = {v.get("verdicts") for v in s.values()}
    seeded_ok = len(letters) == 1 and row.get("expected") in letters
    g = row.get("generated", {})
    return seeded_ok and (g.get("skipped") or (g.get("disagreements") == 0 and "error" not in g))


def markdown(row):
    if "error" in row:
        return "| %s | %s | %s |" % (row["project"], row["debian"], row["error"])
    s, g = row["seeded"], row["generated"]
    d, n, p = s["default"], s["no-dedup"], s["plain"]
    speed = p["seconds"] / d["seconds"] if d["seconds"] else 0
    if g.get("skipped"):
        gen = "not run"
    elif "error" in g:
        gen = g["error"]
    else:
        counts = " ".join("%d %s" % (c, v) for v, c in sorted(g["counts"].items()))
        secs = g["seconds"]
        gen = "%d sets, %d patches (%s): %.0f s (%.0f s) vs plain %.0f s, %d disagreements" % (
            g["sets"], g["patches"], counts, secs.get("default", 0), secs.get("no-dedup", 0),
            secs.get("plain", 0), g["disagreements"])
    whole = " (%d classes whole)" % row["whole_classes"] if row["whole_classes"] else ""
    return "| %s | %s | %d%s (%d excluded) | %.0f s | `%s`: %.1f s (%.1f s) vs %.1f s, %.1fx | %s | %s |" % (
        row["project"], row["debian"], row["tests"], whole, row["excluded"], row["init_s"],
        d["verdicts"], d["seconds"], n["seconds"], p["seconds"], speed, gen,
        "100 %" if agrees(row) else "**DIFFERS**")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", default=os.environ.get("PATCHVAL_CORPUS")
                    or os.path.expanduser("~/.cache/patchval-corpus-all"))
    ap.add_argument("--out", default="/tmp/corpus-table")
    ap.add_argument("--locations", type=int, default=2)
    ap.add_argument("--patches", type=int, default=12)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    os.environ.setdefault("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64")
    binary = os.environ.get("PATCHVAL_BIN")
    if not binary:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        binary = os.path.join(ROOT, "target", "release", "patchval")
    names = args.names
    if not names:
        with open(os.path.join(args.cache, "READY")) as f:
            names = [l.strip() for l in f if l.strip()]
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for name in names:
        row = project(binary, args.cache, name, args.out, args)
        with open(os.path.join(args.out, name + ".json"), "w") as f:
            json.dump(row, f, indent=2)
        log(markdown(row))
        rows.append(row)
    print("| project | Debian source | tests | init | seeded set: default (`--no-dedup`) vs plain, "
          "speed-up | generated sets: default (`--no-dedup`) vs plain | agreement |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print(markdown(row))
    return 0 if all(agrees(r) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
