#!/usr/bin/env bash
# Benchmark of set size at one location: N generated single-expression patches at
# testdata/d4jmath's `return sum / values.length;` (Mean.arithmetic), for each N the default
# technique's wall time, time per patch, javac calls on the schemata, woven files (groups),
# patches woven and validated one by one, test rounds; then plain validation on a sample of the
# set's patches and whether its verdicts equal the default's on them.
#
# Usage: scripts/bench-size.sh [N ...]        (default: 100 500 2000 10000)
#   PATCHVAL_BIN=path: the binary to measure (default: this tree's release build);
#   PATCHVAL_BIN_BEFORE=path: also the same sets with that binary (an older build), side by side;
#   SAMPLE=K: patches per size validated by plain (default 30).
set -euo pipefail
source "$(dirname "$0")/bench-common.sh"
cd "$root"
bench_bin
before=${PATCHVAL_BIN_BEFORE:-}
sample=${SAMPLE:-30}
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(100 500 2000 10000)
bench_tmp

cp -r testdata/d4jmath "$tmp/proj"
"$bin" init --defects4j "$tmp/proj" -w "$tmp/work" >/dev/null 2>"$tmp/init.err" \
  || { cat "$tmp/init.err" >&2; exit 1; }

# gen N SAMPLE: the set of N patches ($tmp/setN.json) and a sample of SAMPLE of them
# ($tmp/sampleN.json, their indices in $tmp/sampleN.idx). Six families, in turn: `values[0]`
# added k times (k = 1 is the fix), the fix plus `k * 0.0` (plausible, all alike), a constant
# added, a constant added and taken away (the bug, all alike), a String returned (C), another
# element added times a constant (some out of bounds).
gen() {
  python3 - "$1" "$2" "$tmp" <<'EOF'
import json, random, sys
n, k, tmp = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
base = json.load(open("testdata/d4jmath/patches/mean_return.json"))
families = [
    lambda j: f"return (sum + values[0] * {j}) / values.length;",
    lambda j: f"return (sum + values[0]) / values.length + {j} * 0.0;",
    lambda j: f"return (sum + {j}) / values.length;",
    lambda j: f"return sum / values.length - {j} + {j};",
    lambda j: f"return (sum + values[0]) / values.length + \"{j}\";",
    lambda j: f"return (sum + values[{j % 3}]) / values.length + {j % 2} * {j};",
]
patches = [families[i % len(families)](i // len(families)) for i in range(n)]
json.dump(dict(base, patches=patches), open(f"{tmp}/set{n}.json", "w"))
idx = sorted(random.Random(n).sample(range(n), min(k, n)))
json.dump(dict(base, patches=[patches[i] for i in idx]), open(f"{tmp}/sample{n}.json", "w"))
open(f"{tmp}/sample{n}.idx", "w").write(" ".join(map(str, idx)))
EOF
}

# measure LABEL BIN SET [FLAG ...]: wall seconds and the set's result line
# (runs/latest/result.jsonl).
measure() {
  local label=$1 b=$2 set=$3 TIMEFORMAT='%R'
  shift 3
  { time "$b" run -w "$tmp/work" "$@" "$set" >"$tmp/$label.out" 2>"$tmp/$label.err"; } 2>"$tmp/$label.time" \
    || { echo "$label failed:" >&2; tail -5 "$tmp/$label.err" >&2; }
  cp "$tmp/work/runs/latest/result.jsonl" "$tmp/$label.json"
}

# row LABEL N [SAMPLE_LABEL]: one line of the table.
row() {
  python3 - "$tmp" "$1" "$2" "${3:-}" <<'EOF'
import json, sys
tmp, label, n, plain = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
wall = float(open(f"{tmp}/{label}.time").read().split()[0])
r = json.loads(open(f"{tmp}/{label}.json").readline())
e = r["extra"]
agree = "-"
if plain:
    idx = [int(i) for i in open(f"{tmp}/sample{n}.idx").read().split()]
    p = json.loads(open(f"{tmp}/{plain}.json").readline())["succlist"]
    mine = "".join(r["succlist"][i] for i in idx)
    agree = f"{sum(a == b for a, b in zip(mine, p))}/{len(idx)}"
print(f"{label:<16} {n:>6} {wall:>8.1f} {1000 * wall / n:>8.1f} {e['javac_invocations']:>6} "
      f"{e.get('schemata_groups', 1 if e['woven'] else 0):>6} {e['woven']:>6} {e['fallback']:>6} "
      f"{e['rounds']:>7} {e['compile_ms'] / 1000:>8.1f} {e['run_ms'] / 1000:>7.1f} {agree:>8}")
EOF
}

printf '%-16s %6s %8s %8s %6s %6s %6s %6s %7s %8s %7s %8s\n' \
  run patches wall_s ms/patch javac groups woven 1by1 rounds compile_s run_s plain=
for n in "${sizes[@]}"; do
  gen "$n" "$sample"
  measure "plain-$n" "$bin" "$tmp/sample$n.json" --technique plain
  if [ -n "$before" ]; then
    measure "before-$n" "$before" "$tmp/set$n.json"
    row "before-$n" "$n" "plain-$n"
  fi
  measure "default-$n" "$bin" "$tmp/set$n.json"
  row "default-$n" "$n" "plain-$n"
done
