#!/usr/bin/env bash
# Benchmark, side by side in one run on every testdata patch set, same -j: plain validation,
# patchval without deduplication (--no-dedup), and patchval. Prints wall times, the ratios, test
# rounds, and verdict agreement with plain. Usage: [BENCH_FIXTURES='calc textutil ...'] scripts/bench.sh [-j N]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=2
[ "${1:-}" = "-j" ] && jobs=${2:-2}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
cargo build --release --quiet
bin=$PWD/target/release/patchval
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
# run NAME LABEL [FLAGS...]: one technique on one fixture; keeps its result.jsonl as LABEL.jsonl
run() {
  local name=$1 label=$2; shift 2
  local t; t=$(now)
  $bin run -j "$jobs" -w "$tmp/$name.w" "$@" "$tmp/$name/patches" >/dev/null 2>&1 || true
  echo "$(now) - $t" | bc > "$tmp/$name.$label.s"
  mv "$tmp/$name.w/result.jsonl" "$tmp/$name.$label.jsonl"
}
printf '%-9s %7s %8s %8s %8s %7s %7s %12s %12s %s\n' fixture patches plain_s nodedup_s patchval_s plain/pv nodedup/pv rounds_nodedup rounds_pv agree
for fx in ${BENCH_FIXTURES:-testdata/*/}; do
  [ -d "$fx" ] || fx=testdata/$fx # a bare fixture name
  name=$(basename "$fx")
  [ -f "$fx/patches/expected.json" ] || continue
  cp -r "$fx" "$tmp/$name"
  kind=--project
  [ -f "$fx/pom.xml" ] && kind=--maven
  $bin init "$kind" "$tmp/$name" --work-dir "$tmp/$name.w" >/dev/null 2>&1
  run "$name" plain --technique plain
  run "$name" nodedup --no-dedup
  run "$name" pv
  python3 - "$tmp" "$name" <<'PY'
import json, sys
tmp, name = sys.argv[1:]
def load(label):
    return [json.loads(l) for l in open(f"{tmp}/{name}.{label}.jsonl")]
def secs(label):
    return float(open(f"{tmp}/{name}.{label}.s").read())
plain, nodedup, pv = load("plain"), load("nodedup"), load("pv")
by = lambda rs: {r["patches_path"]: r["succlist"] for r in rs}
a, b, c = by(plain), by(nodedup), by(pv)
n = sum(len(v) for v in a.values())
same = sum(x == y == z for k in a for x, y, z in zip(a[k], b.get(k, ""), c.get(k, "")))
rounds = lambda rs: sum(r["extra"]["rounds"] for r in rs)
tp, tn, tv = secs("plain"), secs("nodedup"), secs("pv")
print(f"{name:<9} {n:>7} {tp:>8.1f} {tn:>8.1f} {tv:>8.1f} {tp/tv:>7.1f}x {tn/tv:>6.2f}x {rounds(nodedup):>12} {rounds(pv):>12} {same}/{n}")
with open(f"{tmp}/totals", "a") as f:
    f.write(f"{tp} {tn} {tv} {rounds(nodedup)} {rounds(pv)} {same} {n}\n")
PY
done
python3 - "$tmp/totals" <<'PY'
import sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
tp, tn, tv, rn, rv, same, n = (sum(r[i] for r in rows) for i in range(7))
print(f"{'all':<9} {int(n):>7} {tp:>8.1f} {tn:>8.1f} {tv:>8.1f} {tp/tv:>7.1f}x {tn/tv:>6.2f}x {int(rn):>12} {int(rv):>12} {int(same)}/{int(n)}")
PY
