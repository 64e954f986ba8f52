#!/usr/bin/env bash
# Benchmark of a repair loop's latency, side by side in one run: the median wall time of a
# one-patch request to a warm `patchval serve` (after two warm-up requests) against `patchval run`
# of the same patch in a fresh process (process, worker JVM, class-data archive, cold javac, then
# the same tests). Per target: init time, then each patch of the target's first set (up to
# ROUNDS of them), both ways.
#
# Usage: scripts/bench-serve.sh [TARGET ...]
#   TARGET: a fixture name (default: d4jmath) or corpus:NAME (the cache of scripts/corpus.sh).
#   PATCHVAL_BIN=path: the binary (default: this tree's release build); ROUNDS (default 7);
#   SETTLE: seconds between the server's start and its first request (default 15).
set -euo pipefail
source "$(dirname "$0")/bench-common.sh"
cd "$root"
rounds=${ROUNDS:-7}
settle=${SETTLE:-15}
bench_bin
bench_tmp
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(d4jmath)

for target in "${targets[@]}"; do
  bench_target "$target" || continue
  # The target's first set: a fixture's first file, the corpus project's only one.
  if [ -d "$sets" ]; then
    sets=$(ls "$sets"/*.json | grep -v expected.json | head -1)
  fi
  work=$tmp/$name.w
  start=$(date +%s.%N)
  "$bin" init $kind "$project" --work-dir "$work" >/dev/null 2>"$tmp/$name.init.log" \
    || { echo "$target: init failed"; tail -5 "$tmp/$name.init.log"; continue; }
  init_s=$(echo "$(date +%s.%N) - $start" | bc)
  python3 - "$bin" "$work" "$sets" "$rounds" "$tmp/$name" "$target" "$init_s" "$settle" <<'EOF'
import json, statistics, subprocess, sys, time
bin, work, sets, rounds, scratch, target, init_s, settle = sys.argv[1:9]
rounds, settle = int(rounds), float(settle)
s = json.load(open(sets))
one = lambda p: {**s, "patches": [p], "names": []}
patches = s["patches"][:rounds]
# Fresh processes: `patchval run` of a one-patch set each.
fresh = []
for k, p in enumerate(patches):
    f = f"{scratch}.one{k}.json"
    json.dump(one(p), open(f, "w"))
    t = time.monotonic()
    subprocess.run([bin, "run", "-j", "1", "-w", work, f], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    fresh.append(time.monotonic() - t)
# One server, left SETTLE seconds to start and warm its worker (as a repair tool takes a while
# to make its first patch); its first request is timed on its own, then two more warm-up
# requests, then the same patches.
srv = subprocess.Popen([bin, "serve", "-j", "1", "-w", work], stdin=subprocess.PIPE,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
time.sleep(settle)
def ask(rid, p):
    t = time.monotonic()
    srv.stdin.write(json.dumps({"id": rid, "op": "validate", "set": one(p)}) + "\n")
    srv.stdin.flush()
    verdict = None
    for line in srv.stdout:
        m = json.loads(line)
        if m.get("id") == rid and m["event"] == "done":
            verdict = m["verdicts"]
            break
    return time.monotonic() - t, verdict
first, _ = ask("first", patches[0])
for w in range(2):
    ask(f"warm{w}", patches[-1 - w % len(patches)])
served, verdicts = [], []
for k, p in enumerate(patches):
    dt, v = ask(k, p)
    served.append(dt)
    verdicts.append(v)
srv.stdin.write(json.dumps({"id": "end", "op": "shutdown"}) + "\n")
srv.stdin.close()
srv.wait()
med = lambda xs: statistics.median(xs)
print(f"{target}: init {float(init_s):.1f}s; {len(patches)} one-patch requests ({''.join(verdicts)}): "
      f"serve median {med(served):.3f}s (min {min(served):.3f}, max {max(served):.3f}; "
      f"first request {first:.3f}s, {settle:.0f}s after start); "
      f"fresh run median {med(fresh):.3f}s (min {min(fresh):.3f}, max {max(fresh):.3f}); "
      f"ratio {med(fresh) / med(served):.1f}x")
EOF
done
