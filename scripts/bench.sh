#!/usr/bin/env bash
# Benchmark: plain vs patchval's schemata on every testdata patch set, same -j, side by side in one
# run. Prints wall times, their ratio, and verdict agreement. Usage: scripts/bench.sh [-j N]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${2:-2}
[ "${1:-}" = "-j" ] || jobs=2
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
cargo build --release --quiet
bin=$PWD/target/release/patchval
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
total_plain=0; total_fast=0
printf '%-10s %8s %8s %10s %10s %7s %s\n' fixture patches init_s plain_s schemata_s ratio agree
for fx in testdata/*/; do
  name=$(basename "$fx")
  [ -f "$fx/patches/expected.json" ] || continue
  cp -r "$fx" "$tmp/$name"
  t=$(now); $bin init --project "$tmp/$name" --work-dir "$tmp/$name.w" >/dev/null 2>&1; init=$(echo "$(now) - $t" | bc)
  t=$(now); $bin run -j "$jobs" -w "$tmp/$name.w" --technique plain "$tmp/$name/patches" >"$tmp/$name.plain" 2>/dev/null || true
  plain=$(echo "$(now) - $t" | bc)
  mv "$tmp/$name.w/result.jsonl" "$tmp/$name.plain.jsonl"
  t=$(now); $bin run -j "$jobs" -w "$tmp/$name.w" "$tmp/$name/patches" >"$tmp/$name.fast" 2>/dev/null || true
  fast=$(echo "$(now) - $t" | bc)
  agree=$(python3 - "$tmp/$name.plain.jsonl" "$tmp/$name.w/result.jsonl" <<'PY'
import json, sys
load = lambda p: {json.loads(l)["patches_path"]: json.loads(l)["succlist"] for l in open(p)}
a, b = load(sys.argv[1]), load(sys.argv[2])
same = sum(x == y for k in a for x, y in zip(a[k], b.get(k, "")))
print(f"{same}/{sum(len(v) for v in a.values())}")
PY
)
  n=$(python3 -c "import json;print(sum(len(json.loads(l)['succlist']) for l in open('$tmp/$name.plain.jsonl')))")
  printf '%-10s %8s %8.1f %10.1f %10.1f %6.1fx %s\n' "$name" "$n" "$init" "$plain" "$fast" "$(echo "$plain / $fast" | bc -l)" "$agree"
  total_plain=$(echo "$total_plain + $plain" | bc); total_fast=$(echo "$total_fast + $fast" | bc)
done
printf '%-10s %8s %8s %10.1f %10.1f %6.1fx\n' all "" "" "$total_plain" "$total_fast" "$(echo "$total_plain / $total_fast" | bc -l)"
