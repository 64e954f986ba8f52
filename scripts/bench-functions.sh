#!/usr/bin/env bash
# Issue 66's benchmark: function-level candidate patches at corpus methods (written by
# scripts/function_sets.py as a function-level repairer's outputs become diffs: bodies rewritten,
# javadoc edited, a private helper added, a second method changed), validated by plain and by the
# default technique side by side at one -j. Per method: patches, how many the default wove,
# validated one by one, javac calls, test runs (rounds), wall time of each, the ratio, and
# whether every verdict agrees with plain's. The default's run of median wall time of
# BENCH_REPEAT (default 1); plain once.
#
# Usage: scripts/bench-functions.sh [-j N] [--count N] [--seed S] [PROJECT:FILE:METHOD ...]
#   default: three commons-math 2.2 methods of the corpus (scripts/corpus.sh prepares it): the
#   seeded bug's `indicator(double)`, `gcd`, `StatUtils.sumLog`. METHOD as function_sets.py takes
#   it (`name(type` picks an overload).
#   PATCHVAL_BIN=path: measure that binary, without building. OUT (default: a temporary
#   directory) keeps the work dir, the generated diffs and each run's record.
set -euo pipefail
source "$(dirname "$0")/bench-common.sh"
jobs=2 count=40 seed=1
while [ $# -gt 0 ]; do
  case "$1" in
    -j) jobs=${2:?}; shift 2 ;;
    --count) count=${2:?}; shift 2 ;;
    --seed) seed=${2:?}; shift 2 ;;
    *) break ;;
  esac
done
U=src/main/java/org/apache/commons/math/util
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(
  "commons-math:$U/MathUtils.java:indicator(double"
  "commons-math:$U/MathUtils.java:gcd"
  "commons-math:src/main/java/org/apache/commons/math/stat/StatUtils.java:sumLog"
)
bench_bin
out=${OUT:-}
if [ -z "$out" ]; then
  bench_tmp
  out=$tmp
fi
mkdir -p "$out"
repeat=${BENCH_REPEAT:-1}

# fields RUN_DIR: "patches woven alone javac rounds verdicts" of a run's record.
fields() {
  python3 - "$1" <<'EOF'
import json, sys
p = w = f = j = r = 0
verdicts = {}
for line in open(sys.argv[1] + "/result.jsonl"):
    x = json.loads(line)
    e = x.get("extra", {})
    p += len(x["succlist"])
    w += e.get("woven", 0)
    f += len(x["succlist"]) if x["technique"] == "fallback" else e.get("fallback", 0)
    j += e.get("javac_invocations", 0) + e.get("fallback_compiles", 0)
    r += e.get("rounds", 0)
for line in open(sys.argv[1] + "/details.jsonl"):
    d = json.loads(line)
    verdicts[d.get("name")] = d["verdict"]
print(p, w, f, j, r, "".join(verdicts[k] for k in sorted(verdicts)))
EOF
}

printf '%-44s %7s %6s %6s %6s %7s | %8s %8s %7s | %5s\n' \
  method patches woven alone javac rounds plain_s default_s plain/def agree
for t in "${targets[@]}"; do
  IFS=: read -r project file method <<<"$t"
  src=$corpus/src/$project
  if [ ! -d "$src" ]; then
    echo "bench-functions: $src is not prepared (scripts/corpus.sh): left out" >&2
    continue
  fi
  work=$out/$project.w
  if [ ! -f "$work/state.json" ]; then
    "$bin" init --project "$src" -w "$work" -j "$jobs" >"$out/$project.init.log" 2>&1
  fi
  name=${method%%(*}
  diffs=$out/$name
  python3 "$root/scripts/function_sets.py" "$src" "$file" "$method" "$diffs" \
    --count "$count" --seed "$seed" >&2
  TIMEFORMAT=%R
  plain_s=$( { time "$bin" run -w "$work" -j "$jobs" --diff --technique plain "$diffs" \
    >/dev/null 2>"$out/$name.plain.err"; } 2>&1 )
  plain=$(fields "$work/runs/latest")
  best=""
  for _ in $(seq "$repeat"); do
    s=$( { time "$bin" run -w "$work" -j "$jobs" --diff "$diffs" >/dev/null \
      2>"$out/$name.default.err"; } 2>&1 )
    best="$best $s:$(readlink -f "$work/runs/latest")"
  done
  pick=$(echo "$best" | tr ' ' '\n' | sed '/^$/d' | sort -n | sed -n "$(( (repeat + 1) / 2 ))p")
  default_s=${pick%%:*}
  read -r n woven alone javac rounds dv <<<"$(fields "${pick#*:}")"
  pv=${plain##* }
  agree=no
  [ "$pv" = "$dv" ] && agree=yes
  ratio=$(python3 -c "print(f'{$plain_s / $default_s:.1f}')")
  printf '%-44s %7s %6s %6s %6s %7s | %8s %8s %7s | %5s\n' \
    "$project:$name" "$n" "$woven" "$alone" "$javac" "$rounds" "$plain_s" "$default_s" "$ratio" "$agree"
done
