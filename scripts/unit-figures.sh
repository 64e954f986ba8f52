#!/usr/bin/env bash
# What the isolation unit costs, set by set: for the corpus' seeded sets and the fixtures whose
# patches read the stack (and d4jmath's, and the soundness sets), one init each and one default
# run of every set, then a table of patches, how many went one by one, compiler calls (the
# schemata's javac calls plus one per patch compiled alone), compile seconds, test seconds and
# compile's share of the two. The figures issue 65 asks for before and after the inline unit.
#
#   scripts/unit-figures.sh [-j N] OUT [TARGET...]
#
# TARGET: a corpus project (needs PATCHVAL_CORPUS, prepared by scripts/corpus.sh) or a directory
# under testdata/; default: the three corpus projects, d4jmath, stackjdk, stackwalk, logback,
# log4j, soundness. Uses target/release/patchval (built when missing) or $PATCHVAL_BIN. OUT keeps
# each target's work dir (scripts/woven_share.py reads them too); the table goes to stdout.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
export PATCHVAL_CORPUS=${PATCHVAL_CORPUS:-$HOME/.cache/patchval-corpus}
jobs=2
if [ "${1:-}" = "-j" ]; then jobs=$2; shift 2; fi
[ $# -ge 1 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(commons-math commons-lang3 joda-time d4jmath stackjdk stackwalk logback log4j soundness)
bin=${PATCHVAL_BIN:-$repo/target/release/patchval}
[ -n "${PATCHVAL_BIN:-}" ] || (cd "$repo" && cargo build --release --quiet)
for t in "${targets[@]}"; do
  work="$out/$t/work"
  rm -rf "$out/$t" && mkdir -p "$out/$t"
  if [ -d "$repo/testdata/$t" ]; then
    cp -r "$repo/testdata/$t" "$out/$t/project"
    kind=--project
    [ -f "$out/$t/project/defects4j.build.properties" ] && kind=--defects4j
    sets=()
    for s in "$out/$t/project/patches/"*.json; do
      [ "$(basename "$s")" = expected.json ] || sets+=("$s")
    done
    project="$out/$t/project"
  elif [ -f "$PATCHVAL_CORPUS/patches/$t.json" ]; then
    kind=--project project="$PATCHVAL_CORPUS/src/$t" sets=("$PATCHVAL_CORPUS/patches/$t.json")
  else
    echo "unit-figures.sh: $t is neither testdata/$t nor a prepared corpus project" >&2
    exit 2
  fi
  echo "== $t: init, then ${#sets[@]} set(s)" >&2
  "$bin" init "$kind" "$project" --work-dir "$work" >/dev/null 2>"$out/$t/init.log"
  "$bin" run --work-dir "$work" -j "$jobs" "${sets[@]}" >/dev/null 2>"$out/$t/run.log" || true
done
python3 - "$out" "${targets[@]}" <<'EOF'
import json, os, sys
out, targets = sys.argv[1], sys.argv[2:]
print("| target | set | patches | one by one | compiler calls | compile s | tests s | compile share |")
print("|---|---|---|---|---|---|---|---|")
tot = dict(patches=0, alone=0, calls=0, compile=0.0, tests=0.0, sets=0)
for t in targets:
    with open(os.path.join(out, t, "work", "result.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            e = r.get("extra", {})
            n, alone = len(r.get("succlist", "")), e.get("fallback", 0)
            calls = e.get("javac_invocations", 0) + e.get("fallback_compiles", 0)
            c, x = e.get("compile_ms", 0) / 1000, e.get("run_ms", 0) / 1000
            share = 100 * c / (c + x) if c + x else 0
            name = os.path.basename(r.get("patches_path", "?"))
            print(f"| {t} | {name} | {n} | {alone} | {calls} | {c:.2f} | {x:.2f} | {share:.0f} % |")
            for k, v in (("patches", n), ("alone", alone), ("calls", calls), ("compile", c), ("tests", x), ("sets", 1)):
                tot[k] += v
woven = 100 * (tot["patches"] - tot["alone"]) / tot["patches"] if tot["patches"] else 0
share = 100 * tot["compile"] / (tot["compile"] + tot["tests"]) if tot["compile"] + tot["tests"] else 0
print(f"| **all** | {tot['sets']} sets | {tot['patches']} | {tot['alone']} ({woven:.1f} % woven) | "
      f"{tot['calls']} ({tot['calls'] / max(tot['sets'], 1):.1f} a set) | {tot['compile']:.2f} | {tot['tests']:.2f} | {share:.0f} % |")
EOF
