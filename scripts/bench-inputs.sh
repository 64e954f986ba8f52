#!/usr/bin/env bash
# Benchmark of inputs as converters write them, side by side in one run: each fixture's patch sets
# as they are, and the same patches as whole-line manifests (the region widened to the whole lines
# it touches, indentation and line ends included, each patch with the same text around it; no
# `interface`, as a converter working line by line writes them), validated by the default
# technique and by plain. Per target: wall seconds, patches validated one by one (`fallback`), and
# whether every verdict of the whole-line sets equals plain's and the original sets'.
#
# Usage: scripts/bench-inputs.sh [-j N] [TARGET ...]
#   TARGET: a fixture name (default: every fixture with patches/expected.json) or
#   corpus:NAME (the cache of scripts/corpus.sh).
#   PATCHVAL_BIN=path: the binary to measure (default: this tree's release build);
#   PATCHVAL_BIN_BEFORE=path: also the whole-line sets with that binary (an older build).
set -euo pipefail
source "$(dirname "$0")/bench-common.sh"
cd "$root"
bench_targets "$@"
bench_bin
before=${PATCHVAL_BIN_BEFORE:-}
bench_tmp

# wholeline SRC_DIR_OR_FILE OUT_DIR: the manifests as whole-line manifests.
wholeline() {
  python3 - "$1" "$2" <<'EOF'
import json, os, pathlib, sys
src, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
files = [src] if src.is_file() else sorted(src.glob("*.json"))
for f in files:
    if f.name == "expected.json":
        continue
    s = json.loads(f.read_text())
    above, below = s["context_above"], s["context_below"]
    start = above.rfind("\n") + 1
    nl = below.find("\n")
    end = len(below) if nl < 0 else nl + 1
    lead, trail = above[start:], below[:end]
    s["context_above"], s["context_below"] = above[:start], below[end:]
    s["unpatched"] = lead + s["unpatched"] + trail
    s["patches"] = [lead + p + trail for p in s["patches"]]
    s.pop("interface", None)
    (out / f.name).write_text(json.dumps(s, indent=1))
    # The same with `interface`, for a binary that still requires it.
    (out.parent / (out.name + ".iface")).mkdir(exist_ok=True)
    (out.parent / (out.name + ".iface") / f.name).write_text(json.dumps({**s, "interface": "local"}, indent=1))
EOF
}

# timed LABEL CMD...: runs CMD, writes its wall seconds to $tmp/LABEL.time
timed() {
  local label=$1; shift
  local TIMEFORMAT='%R'
  { time "$@" >"$tmp/$label.out" 2>"$tmp/$label.err"; } 2>"$tmp/$label.time" || true
}

# verdicts WORK: "set patch verdict" lines of the latest run, sorted
verdicts() {
  python3 - "$1/runs/latest/details.jsonl" <<'EOF'
import json, os, sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    print(os.path.basename(d["patches_path"]), d["patch"], d["verdict"])
EOF
}

# fallback WORK: patches validated one by one in the latest run
fallback() {
  python3 -c 'import json,sys; print(sum(json.loads(l)["extra"].get("fallback",0) for l in open(sys.argv[1])))' \
    "$1/runs/latest/result.jsonl"
}

printf '%-20s %7s | %9s %9s %9s %9s | %9s %9s %9s | %s\n' target patches \
  sets_s lines_s plain_s before_s fb_sets fb_lines fb_before agree
for target in "${targets[@]}"; do
  bench_target "$target" || continue
  work=$tmp/$name.w
  "$bin" init $kind "$project" --work-dir "$work" >/dev/null 2>"$tmp/$name.init.err" \
    || { echo "$target: init failed (see $tmp/$name.init.err)"; continue; }
  wholeline "$sets" "$tmp/$name.lines"
  patches=$(python3 -c 'import json,sys,pathlib
p=pathlib.Path(sys.argv[1]); fs=[p] if p.is_file() else [f for f in p.glob("*.json") if f.name!="expected.json"]
print(sum(len(json.loads(f.read_text())["patches"]) for f in fs))' "$sets")
  timed "$name.sets" "$bin" run -j "$jobs" -w "$work" "$sets"
  verdicts "$work" >"$tmp/$name.sets.v"; fb_sets=$(fallback "$work")
  timed "$name.lines" "$bin" run -j "$jobs" -w "$work" "$tmp/$name.lines"
  verdicts "$work" >"$tmp/$name.lines.v"; fb_lines=$(fallback "$work")
  timed "$name.plain" "$bin" run -j "$jobs" -w "$work" --technique plain "$tmp/$name.lines"
  verdicts "$work" >"$tmp/$name.plain.v"
  before_s=-; fb_before=-
  if [ -n "$before" ]; then
    timed "$name.before" "$before" run -j "$jobs" -w "$work" "$tmp/$name.lines.iface"
    before_s=$(cat "$tmp/$name.before.time"); fb_before=$(fallback "$work")
  fi
  agree=yes
  cmp -s <(sort "$tmp/$name.lines.v") <(sort "$tmp/$name.plain.v") || agree="NO (whole lines vs plain)"
  cmp -s <(sort "$tmp/$name.sets.v") <(sort "$tmp/$name.lines.v") \
    || agree="$agree; NO (whole lines vs original sets)"
  printf '%-20s %7s | %9s %9s %9s %9s | %9s %9s %9s | %s\n' "$target" "$patches" \
    "$(cat "$tmp/$name.sets.time")" "$(cat "$tmp/$name.lines.time")" "$(cat "$tmp/$name.plain.time")" \
    "$before_s" "$fb_sets" "$fb_lines" "$fb_before" "$agree"
done
