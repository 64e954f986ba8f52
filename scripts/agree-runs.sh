#!/usr/bin/env bash
# Runs a corpus project's seeded set again and again with the default, --no-dedup and plain, and
# says, run after run, whether the three agree: the check that plain's own instability
# (docs/execution.md) and a busy machine leave every verdict as it is.
#
#   scripts/agree-runs.sh [--runs N] [--load K] [-j N] NAME
#
# NAME: a corpus project (corpus/NAME.json), prepared with scripts/corpus.sh --no-install. --load K
# keeps K cores busy with stress-ng for the whole time (default 0). Uses target/release/patchval
# (built when missing) or $PATCHVAL_BIN. One init, then N rounds (default 10), each the three
# techniques in turn; a line per round with the three verdict strings, plain's unstable notes,
# and at the end how many rounds agreed. Exit 1 when some round did not agree.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
export PATCHVAL_CORPUS=${PATCHVAL_CORPUS:-$HOME/.cache/patchval-corpus}
runs=10 load=0 jobs=2
while [ $# -gt 1 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --load) load=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
name=$1
bin=${PATCHVAL_BIN:-$repo/target/release/patchval}
[ -n "${PATCHVAL_BIN:-}" ] || cargo build --release --quiet
set_file="$PATCHVAL_CORPUS/patches/$name.json"
[ -f "$set_file" ] || { echo "agree-runs.sh: no $set_file (run scripts/corpus.sh --no-install $name)" >&2; exit 2; }
expected=$(cat "$PATCHVAL_CORPUS/patches/$name.expected")
stress=""
if [ "$load" -gt 0 ]; then
  command -v stress-ng >/dev/null || { echo "agree-runs.sh: --load needs stress-ng" >&2; exit 2; }
  stress-ng --cpu "$load" --timeout 0 --quiet &
  stress=$!
  trap 'kill $stress 2>/dev/null' EXIT
fi
work=$(mktemp -d)
echo "== $name: init ($(nproc) cores, $load loaded by stress-ng)" >&2
"$bin" init --project "$PATCHVAL_CORPUS/src/$name" --work-dir "$work" >/dev/null
agreed=0
for r in $(seq 1 "$runs"); do
  line="run $r:"
  lists=()
  for t in default no-dedup plain; do
    case $t in
      default) flags=() ;;
      no-dedup) flags=(--no-dedup) ;;
      plain) flags=(--technique plain) ;;
    esac
    start=$(date +%s)
    "$bin" run --work-dir "$work" -j "$jobs" "${flags[@]}" "$set_file" >/dev/null 2>"$work/run.log" || true
    got=$(tail -1 "$work/result.jsonl" | python3 -c 'import json,sys; l=json.load(sys.stdin); print(l["succlist"]); [print("   unstable:", u, file=sys.stderr) for u in l["extra"].get("unstable", [])]')
    lists+=("$got")
    line="$line $t $got ($(( $(date +%s) - start )) s)"
  done
  if [ "${lists[0]}" = "${lists[1]}" ] && [ "${lists[1]}" = "${lists[2]}" ] && [ "${lists[0]}" = "$expected" ]; then
    agreed=$((agreed + 1))
    echo "$line: agree"
  else
    echo "$line: DIFFER (recorded $expected)"
  fi
done
echo "$name: $agreed of $runs runs agree (default, --no-dedup, plain and the recorded $expected)"
rm -rf "$work"
[ "$agreed" -eq "$runs" ]
