#!/usr/bin/env bash
# init's wall time (and its baseline's, from the log) for two builds, interleaved: the first
# build, then the second, on each corpus project, REPS times over; each init into a new work dir.
# Prints one line per init on stdout.
#
# Usage: scripts/bench-init.sh [--reps N] [-j N] BIN_BEFORE BIN_AFTER PROJECT...
#   BIN_*: patchval binaries (copy target/release/patchval aside before rebuilding);
#   PROJECT: a corpus project name (commons-math, commons-lang3, joda-time), prepared by
#   scripts/corpus.sh in PATCHVAL_CORPUS (default ~/.cache/patchval-corpus).
set -euo pipefail
source "$(dirname "$0")/bench-common.sh"
bench_reps "$@"
set -- "${rest[@]}"
before=${1:?usage: scripts/bench-init.sh [--reps N] [-j N] BIN_BEFORE BIN_AFTER PROJECT...}
after=${2:?usage: scripts/bench-init.sh [--reps N] [-j N] BIN_BEFORE BIN_AFTER PROJECT...}
shift 2
[ $# -gt 0 ] || { echo "bench-init.sh: name at least one corpus project" >&2; exit 2; }
bench_tmp
for rep in $(seq "$reps"); do
  for project in "$@"; do
    src="$corpus/src/$project"
    [ -d "$src" ] || { echo "bench-init.sh: $src is missing (scripts/corpus.sh --no-install $project)" >&2; exit 2; }
    for which in before after; do
      bin=$before
      [ "$which" = after ] && bin=$after
      rm -rf "$tmp/work"
      start=$(date +%s.%N)
      "$bin" init --project "$src" --work-dir "$tmp/work" -j "$jobs" > /dev/null 2> "$tmp/log"
      end=$(date +%s.%N)
      baseline=$(grep -o 'baseline: [0-9]* tests on [0-9]* workers in [0-9.]*s' "$tmp/log" | grep -o '[0-9.]*s$' || echo '?')
      printf '%s\t%s\trep %d\tinit %.1f s\tbaseline %s\n' "$project" "$which" "$rep" \
        "$(echo "$end - $start" | bc)" "$baseline"
    done
  done
done
