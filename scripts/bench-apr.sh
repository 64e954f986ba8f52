#!/usr/bin/env bash
# Issue 28's bench over bugs with seeded faults: the d4jmath and locate fixtures, and the corpus
# projects that scripts/corpus.sh prepared (joda-time, commons-math, and commons-codec from the
# --all tier), each initialised, localised, given generated candidates and validated by plain and
# the default technique side by side (`patchval bench`), then `patchval report`.
#
#   scripts/bench-apr.sh [OUT]          # default OUT=/tmp/bench-apr; run again to resume
#
# Environment: PATCHVAL_BIN (default: this tree's release build, built first), PATCHVAL_CORPUS
# (default ~/.cache/patchval-corpus), PATCHVAL_CORPUS_ALL (default ~/.cache/patchval-corpus-all),
# TECHNIQUES (plain,default), TOP (3), PER_LOCATION (10), JOBS (2). A project not prepared is
# left out, with a line saying so.
set -euo pipefail
source "$(dirname "$0")/bench-common.sh"
out=${1:-/tmp/bench-apr}
bench_bin
all=${PATCHVAL_CORPUS_ALL:-$HOME/.cache/patchval-corpus-all}
mkdir -p "$out/fixtures"
for f in d4jmath locate; do
  rm -rf "$out/fixtures/$f"
  cp -r "$root/testdata/$f" "$out/fixtures/$f"
done
{
  printf '[[bug]]\nname = "d4jmath"\ndefects4j = "fixtures/d4jmath"\n\n'
  printf '[[bug]]\nname = "shapes"\nproject = "fixtures/locate"\n\n'
  for p in "$corpus/src/joda-time" "$all/src/commons-codec" "$corpus/src/commons-math"; do
    if [ -d "$p" ]; then
      printf '[[bug]]\nname = "%s"\nproject = "%s"\n\n' "$(basename "$p")" "$p"
    else
      echo "bench-apr: $p is not prepared (scripts/corpus.sh): left out" >&2
    fi
  done
} > "$out/bugs.toml"
status=0
"$bin" bench --bugs "$out/bugs.toml" --out "$out/bench" --techniques "${TECHNIQUES:-plain,default}" \
  --top "${TOP:-3}" --per-location "${PER_LOCATION:-10}" -j "${JOBS:-2}" || status=$?
"$bin" report --bench "$out/bench"
exit $status
