#!/usr/bin/env bash
# Benchmark, side by side in one run at the same -j: plain validation, patchval without
# deduplication (--no-dedup), patchval running every test (--all-tests) and patchval (the
# default), on testdata fixtures and on the real-project corpus. Per target: init time, then per
# technique wall time, core-seconds per patch (user + system CPU of patchval and every worker or
# JVM it started), test rounds, the ratios to the default, the tests the default ran against the
# suite (summed over sets), and whether every verdict agrees with plain's.
#
# Usage: scripts/bench.sh [-j N] [TARGET ...]
#   TARGET: a fixture name (calc, textutil, ...) or corpus:NAME (corpus:commons-math, ...);
#   default: every fixture with patches/expected.json. Corpus targets need the cache that
#   scripts/corpus.sh prepares (PATCHVAL_CORPUS, default ~/.cache/patchval-corpus).
#   PATCHVAL_BIN=path: measure that binary, without building.
#   PATCHVAL_BIN_BEFORE=path: also run that binary's default technique, after this one's, for a
#   before/after of a change (its wall time and rounds in the last columns, and its verdicts
#   in the agreement). The `holes` column counts the default's patches in value holes.
#   BENCH_REPEAT=N: run each technique but plain N times (default 1) and report the run of median
#   wall time: a run of a second or two varies by a third from one run to the next on a 2-core
#   machine, plain's minute-long runs by a few percent.
set -euo pipefail
source "$(dirname "$0")/bench-common.sh"
cd "$root"
bench_targets "$@"
bench_bin
before=${PATCHVAL_BIN_BEFORE:-}
bench_tmp

# timed LABEL CMD...: runs CMD, writes "wall user sys" seconds to $tmp/LABEL.time
timed() {
  local label=$1; shift
  local TIMEFORMAT='%R %U %S'
  { time "$@" >"$tmp/$label.out" 2>"$tmp/$label.err"; } 2>"$tmp/$label.time" || true
}

printf '%-22s %7s %7s | %8s %8s %8s %8s | %9s %9s %9s | %7s %7s %7s | %8s %8s | %11s | %9s | %5s | %8s %10s\n' \
  target patches init_s plain_s nodedup_s alltests_s default_s plain_cs/p nodedup_cs/p default_cs/p \
  plain/def nodedup/def all/def rounds_nd rounds_def tests/suite agree holes before_s rounds_bef
for target in "${targets[@]}"; do
  bench_target "$target" || continue
  work=$tmp/$name.w
  timed "$name.init" "$bin" init "$kind" "$project" --work-dir "$work"
  if [ ! -f "$work/state.json" ]; then
    echo "$target: init failed:" >&2
    tail -5 "$tmp/$name.init.err" >&2
    continue
  fi
  for label in plain nodedup alltests default ${before:+before}; do
    run_bin=$bin
    case $label in
      plain) flags=(--technique plain) ;;
      nodedup) flags=(--no-dedup) ;;
      alltests) flags=(--all-tests) ;;
      default) flags=() ;;
      before) flags=(); run_bin=$before ;;
    esac
    times=1
    [ "$label" = plain ] || times=${BENCH_REPEAT:-1}
    for ((k = 1; k <= times; k++)); do
      rm -f "$work/result.jsonl"
      timed "$name.$label.$k" "$run_bin" run -j "$jobs" -w "$work" "${flags[@]}" "$sets"
      mv "$work/result.jsonl" "$tmp/$name.$label.jsonl" 2>/dev/null || : >"$tmp/$name.$label.jsonl"
      mv "$tmp/$name.$label.$k.out" "$tmp/$name.$label.out"
      mv "$tmp/$name.$label.$k.err" "$tmp/$name.$label.err"
    done
    # The run of median wall time (the lower middle one for an even count).
    cat "$tmp/$name.$label".*.time | sort -n | sed -n "$(((times + 1) / 2))p" >"$tmp/$name.$label.time"
    rm -f "$tmp/$name.$label".*.time
  done
  python3 - "$tmp" "$name" "$target" <<'PY'
import json, os, sys
tmp, name, target = sys.argv[1:]
def load(label):
    return [json.loads(l) for l in open(f"{tmp}/{name}.{label}.jsonl")]
def times(label):
    wall, user, system = map(float, open(f"{tmp}/{name}.{label}.time").read().split())
    return wall, user + system
labels = ("plain", "nodedup", "alltests", "default")
runs = {l: load(l) for l in labels}
by = lambda rs: {r["patches_path"]: r["succlist"] for r in rs}
a, b, d, c = (by(runs[l]) for l in labels)
n = sum(len(v) for v in a.values())
has_before = os.path.exists(f"{tmp}/{name}.before.jsonl")
e = by(load("before")) if has_before else c
same = sum(x == y == z == w == v for k in a
           for x, y, z, w, v in zip(a[k], b.get(k, ""), c.get(k, ""), d.get(k, ""), e.get(k, "")))
rounds = lambda rs: sum(r["extra"].get("rounds", 0) for r in rs)
# Tests the default ran per set against the suite (summed over sets).
sel = sum(r["extra"].get("tests_selected", 0) for r in runs["default"])
suite = sum(r["extra"].get("tests_selected", 0) + r["extra"].get("tests_skipped", 0) for r in runs["default"])
init_s, _ = times("init")
(tp, cp), (tn, cn), (ta, ca), (tv, cv) = (times(l) for l in labels)
per = lambda cpu: cpu / max(n, 1)
print(f"{target:<22} {n:>7} {init_s:>7.1f} | {tp:>8.1f} {tn:>8.1f} {ta:>8.1f} {tv:>8.1f} | "
      f"{per(cp):>9.2f} {per(cn):>9.2f} {per(cv):>9.2f} | {tp/tv:>6.1f}x {tn/tv:>6.2f}x {ta/tv:>6.2f}x | "
      f"{rounds(runs['nodedup']):>8} {rounds(runs['default']):>8} | {sel:>5}/{suite:<5} | {same:>4}/{n:<4} | "
      f"{sum(r['extra'].get('value_holes', 0) for r in runs['default']):>5} | "
      + (f"{times('before')[0]:>8.1f} {rounds(load('before')):>10}" if has_before else f"{'-':>8} {'-':>10}"))
with open(f"{tmp}/totals", "a") as f:
    f.write(f"{tp} {tn} {ta} {tv} {cp} {cn} {cv} {same} {n}\n")
PY
done
[ -f "$tmp/totals" ] && python3 - "$tmp/totals" <<'PY'
import sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
tp, tn, ta, tv, cp, cn, cv, same, n = (sum(r[i] for r in rows) for i in range(9))
print(f"{'all':<22} {int(n):>7} {'':>7} | {tp:>8.1f} {tn:>8.1f} {ta:>8.1f} {tv:>8.1f} | "
      f"{cp/n:>9.2f} {cn/n:>9.2f} {cv/n:>9.2f} | {tp/tv:>6.1f}x {tn/tv:>6.2f}x {ta/tv:>6.2f}x | "
      f"{'':>8} {'':>8} | {'':>11} | {int(same)}/{int(n)}")
PY
