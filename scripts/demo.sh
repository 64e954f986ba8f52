#!/usr/bin/env bash
# Sets up, builds, and validates the bundled demo: the calc fixture's patch sets, first with
# patchval's schemata, then with the plain reference technique, printing verdicts and wall times.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
cargo build --release --quiet
bin=target/release/patchval

demo=$(mktemp -d)
trap 'rm -rf "$demo"' EXIT
cp -r testdata/calc "$demo/calc"
echo "== patchval init (compile, discover and run the tests once)"
$bin init --project "$demo/calc" --work-dir "$demo/work"
echo
echo "== patchval run: $(ls "$demo/calc/patches"/*.json | grep -vc expected.json) patch sets, mutant schemata"
start=$(date +%s.%N)
$bin run --work-dir "$demo/work" "$demo/calc/patches"
fast=$(echo "$(date +%s.%N) - $start" | bc)
echo
echo "== the same patch sets, plain validation (javac + a fresh JVM per patch)"
start=$(date +%s.%N)
$bin run --work-dir "$demo/work" --technique plain "$demo/calc/patches"
slow=$(echo "$(date +%s.%N) - $start" | bc)
echo
printf 'schemata %.1fs, plain %.1fs (%.1fx); results in result.jsonl (s plausible, F test fails, C compile error, T timeout)\n' \
  "$fast" "$slow" "$(echo "$slow / $fast" | bc -l)"
