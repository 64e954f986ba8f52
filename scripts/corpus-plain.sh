#!/usr/bin/env bash
# Checks a corpus project's recorded verdicts with plain validation and records them in
# corpus/NAME.json as "plain_checked" (the stamp of what the verdicts depend on, plain's verdicts,
# the date, plain's time). tests/corpus.rs compares the default and --no-dedup with these verdicts
# and runs plain itself only on a sample, so whenever a project's set, version, patchval.toml,
# edits or seeded bug change (its stamp changes, and the test says so), run this for it:
#
#   scripts/corpus-plain.sh [-j N] NAME...        NAME: corpus/NAME.json
#
# For each NAME: prepares it (scripts/corpus.sh --no-install NAME), `patchval init`, then
# `patchval run --technique plain` on its set. Plain's verdicts must equal the set's "expected";
# where they differ, plain validates the set again (3 times, as rules::instability) and the record
# is written only when each such difference was plain's own instability. Uses target/release/patchval
# (built when missing) or $PATCHVAL_BIN; the cache is $PATCHVAL_CORPUS (default
# ~/.cache/patchval-corpus). Exit 1 when some project's plain verdicts do not match.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
export PATCHVAL_CORPUS=${PATCHVAL_CORPUS:-$HOME/.cache/patchval-corpus}
jobs=2
if [ "${1:-}" = "-j" ]; then jobs=$2; shift 2; fi
[ $# -gt 0 ] || { sed -n '2,15p' "$0" >&2; exit 2; }
bin=${PATCHVAL_BIN:-$repo/target/release/patchval}
if [ -z "${PATCHVAL_BIN:-}" ]; then
  cargo build --release --quiet
fi
status=0
for name in "$@"; do
  scripts/corpus.sh --no-install "$name"
  work=$(mktemp -d)
  echo "== $name: init" >&2
  "$bin" init --project "$PATCHVAL_CORPUS/src/$name" --work-dir "$work" >/dev/null
  set_file="$PATCHVAL_CORPUS/patches/$name.json"
  echo "== $name: plain validation (-j $jobs)" >&2
  start=$(date +%s)
  "$bin" run --work-dir "$work" -j "$jobs" --technique plain "$set_file" >&2 || true
  seconds=$(( $(date +%s) - start ))
  if ! python3 - "$repo/corpus/$name.json" "$work/result.jsonl" "$PATCHVAL_CORPUS/patches/$name.stamp" \
      "$seconds" "$work" "$set_file" "$bin" "$jobs" <<'PY'
import datetime, json, subprocess, sys
spec_path, results, stamp_path, seconds, work, set_file, binary, jobs = sys.argv[1:]
spec = json.load(open(spec_path))
line = json.loads(open(results).read().splitlines()[-1])
plain = line["succlist"]
expected = spec["patch_set"]["expected"]
stamp = open(stamp_path).read().strip()
unstable = line.get("extra", {}).get("unstable", [])
for note in unstable:
    print(f"   plain: unstable: {note}", file=sys.stderr)
if plain != expected:
    # Where plain differs from the recorded verdicts it validates the set again, 3 times (the
    # rule of rules::instability, PLAIN_AGAIN): the record holds only where plain then gives the
    # recorded verdict at least once, i.e. did not repeat its own.
    differ = [i for i, (a, b) in enumerate(zip(plain, expected)) if a != b]
    print(f"   plain gave {plain}, recorded {expected}: validating the set again", file=sys.stderr)
    seen = {i: {plain[i]} for i in differ}
    for _ in range(3):
        subprocess.run([binary, "run", "--work-dir", work, "-j", jobs, "--technique", "plain",
                        set_file], stdout=subprocess.DEVNULL, check=False)
        again = json.loads(open(results).read().splitlines()[-1])["succlist"]
        print(f"   plain again: {again}", file=sys.stderr)
        for i in differ:
            seen[i].add(again[i])
    real = [i for i in differ if expected[i] not in seen[i]]
    if real or len(plain) != len(expected):
        sys.exit(f"{spec_path}: plain's verdicts {plain} are not the recorded {expected} "
                 f"(patches {real} every time)")
spec["plain_checked"] = {
    "stamp": stamp,
    "verdicts": expected,
    "date": datetime.date.today().isoformat(),
    "plain_seconds": int(seconds),
    "by": "scripts/corpus-plain.sh",
}
with open(spec_path, "w", encoding="utf-8") as f:
    json.dump(spec, f, indent=2, ensure_ascii=False)
    f.write("\n")
print(f"   {spec_path}: plain_checked {stamp} {expected} ({seconds} s of plain)", file=sys.stderr)
PY
  then
    status=1
  fi
  rm -rf "$work"
done
exit $status
