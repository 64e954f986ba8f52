#!/usr/bin/env bash
# A long differential fuzzing run (README, "Differential fuzzing"): for each testdata fixture and,
# when $PATCHVAL_CORPUS is prepared (scripts/corpus.sh), each corpus project listed in its READY
# file: `patchval init` once, then `patchval fuzz` for every seed. Prints each run's summary and
# the totals; exits 1 when any run found a disagreement (reproducers in OUT/NAME/seed-N/disagreements).
#
#   scripts/fuzz.sh [NAME...]          NAME: a fixture (calc textutil dedup junit5 ...) or a corpus project
#
# Environment: FUZZ_SEEDS (default "1 2 3"), FUZZ_LOCATIONS (20), FUZZ_PATCHES (15), FUZZ_JOBS (2),
# FUZZ_OUT (default /tmp/patchval-fuzz; work dirs are kept there and reused by later runs),
# FUZZ_BIN (a patchval binary to use instead of building one: a long run is then not disturbed by
# later builds), FUZZ_EXTRA (more `patchval fuzz` options for every run, e.g. "--file '**/math/*.java' --test '*.math.*'"
# to cut a large corpus project to one package and its tests), PATCHVAL_CORPUS (the prepared corpus cache).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
seeds=${FUZZ_SEEDS:-1 2 3}
locations=${FUZZ_LOCATIONS:-20}
patches=${FUZZ_PATCHES:-15}
jobs=${FUZZ_JOBS:-2}
out=${FUZZ_OUT:-/tmp/patchval-fuzz}
eval "extra=(${FUZZ_EXTRA:-})"
if [ -n "${FUZZ_BIN:-}" ]; then
  bin=$FUZZ_BIN
else
  (cd "$repo" && cargo build --release --quiet) || exit 1
  bin=$repo/target/release/patchval
fi

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  names=(calc textutil dedup junit5)
  if [ -n "${PATCHVAL_CORPUS:-}" ] && [ -f "$PATCHVAL_CORPUS/READY" ]; then
    while read -r n; do [ -n "$n" ] && names+=("$n"); done <"$PATCHVAL_CORPUS/READY"
  else
    echo "fuzz.sh: PATCHVAL_CORPUS is not prepared; fuzzing the fixtures only" >&2
  fi
fi

mkdir -p "$out"
failed=0
for name in "${names[@]}"; do
  dir=$out/$name
  if [ -d "$repo/testdata/$name" ]; then
    project=$dir/project
    if [ ! -d "$project" ]; then mkdir -p "$dir" && cp -r "$repo/testdata/$name" "$project"; fi
  elif [ -n "${PATCHVAL_CORPUS:-}" ] && [ -d "$PATCHVAL_CORPUS/src/$name" ]; then
    project=$PATCHVAL_CORPUS/src/$name
  else
    echo "fuzz.sh: no fixture or corpus project named $name" >&2; failed=1; continue
  fi
  if [ ! -f "$dir/work/state.json" ]; then
    echo "== $name: patchval init" >&2
    kind=--project
    # A Maven multi-module project (testdata/multimodule) has no sources at its root.
    [ -f "$project/pom.xml" ] && [ ! -d "$project/src/main/java" ] && kind=--maven
    "$bin" init "$kind" "$project" --work-dir "$dir/work" || { failed=1; continue; }
  fi
  for seed in $seeds; do
    echo "== $name: patchval fuzz --seed $seed --locations $locations --patches $patches -j $jobs" >&2
    "$bin" fuzz --work-dir "$dir/work" --seed "$seed" --locations "$locations" \
      --patches "$patches" -j "$jobs" --out "$dir/seed-$seed" "${extra[@]}" | tee "$dir/seed-$seed.log"
    rc=${PIPESTATUS[0]}
    [ "$rc" -eq 0 ] || failed=1
  done
done

SEEDS="$seeds" python3 - "$out" "${names[@]}" <<'PY'
import json, os, sys, pathlib
out, names = pathlib.Path(sys.argv[1]), sys.argv[2:]
seeds = os.environ["SEEDS"].split()
tp = tw = tt = td = tb = 0
for n in names:
    for seed in seeds:
        s = out / n / f"seed-{seed}" / "summary.json"
        if not s.exists():
            print(f"{n} seed {seed}: no summary (the run failed)")
            continue
        j = json.loads(s.read_text())
        tb_here = len(j.get("timing_borderline", []))
        tp += j["patches"]; tw += j["woven"]; tt += j["tree_patches"]; td += len(j["disagreements"]); tb += tb_here
        share = 100.0 * j["tree_patches"] / j["woven"] if j["woven"] else 0.0
        print(f"{n} seed {j['seed']}: {j['patches']} patches, {len(j['disagreements'])} disagreements "
              f"({tb_here} timing-borderline apart), "
              f"tree path {j['tree_patches']}/{j['woven']} woven ({share:.1f} %), verdicts {j['counts']['plain']}")
        for d in j["disagreements"]:
            print(f"  {d['verdicts']} {d['place']} patch {d['patch']} ({d['op']}): {d['text']!r} -> {d['reproducer']}")
share = 100.0 * tt / tw if tw else 0.0
print(f"total: {tp} patches, {td} disagreements ({tb} timing-borderline apart), tree path {tt}/{tw} woven ({share:.1f} %)")
PY
exit $failed
