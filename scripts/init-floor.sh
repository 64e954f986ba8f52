#!/usr/bin/env bash
# What `init` costs against the floor it cannot go under (issue 25: "init in seconds, the
# passes as close to one warm run of the suite as they can get"), measured side by side on one
# corpus project, REPS times over, in this order each time:
#   - `patchval init -j JOBS` into a new work dir, its phases read from its log (compile of the
#     main sources, of the tests, purity scan with test discovery, baseline with coverage, the
#     workers' class-data archive);
#   - the floor's parts by hand: the JDK's javac on the same main and test sources with init's
#     options, and one JVM running the same test classes with JUnit 4's JUnitCore (the plain
#     way a developer runs the suite: no probes, no resets, one class after another).
# Prints one line per measure on stdout (seconds).
#
# Usage: scripts/init-floor.sh [--reps N] [-j N] BIN PROJECT
#   BIN: a patchval binary; PROJECT: a corpus project prepared by scripts/corpus.sh in
#   PATCHVAL_CORPUS (default ~/.cache/patchval-corpus).
set -euo pipefail
source "$(dirname "$0")/bench-common.sh"
bench_reps "$@"
set -- "${rest[@]}"
bin=${1:?usage: scripts/init-floor.sh [--reps N] [-j N] BIN PROJECT}
project=${2:?usage: scripts/init-floor.sh [--reps N] [-j N] BIN PROJECT}
src=$corpus/src/$project
[ -d "$src" ] || { echo "init-floor.sh: $src is missing (scripts/corpus.sh --no-install $project)" >&2; exit 2; }
java_home=$JAVA_HOME
bench_tmp
now() { date +%s.%N; }
for rep in $(seq "$reps"); do
  rm -rf "$tmp/work"
  start=$(now)
  "$bin" init --project "$src" --work-dir "$tmp/work" -j "$jobs" > /dev/null 2> "$tmp/log"
  end=$(now)
  # Phases from the log's timestamps (each line opens with an RFC 3339 time).
  python3 - "$tmp/log" "$start" "$end" "$project" "$rep" <<'PY'
import datetime, re, sys
log, start, end, project, rep = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
marks = {}
baseline = None
for line in open(log):
    m = re.match(r"\x1b?\[?[0-9;]*m?(\d{4}-\d\d-\d\dT[\d:.]+)Z", line)
    if not m:
        continue
    t = datetime.datetime.fromisoformat(m.group(1)).replace(tzinfo=datetime.timezone.utc).timestamp()
    for key, text in [("main", "source files"), ("tests", "test files"), ("purity", "purity scan"),
                      ("baseline", " tests on "), ("archive", "class-data archive")]:
        if text in line and key not in marks:
            marks[key] = t
            if key == "baseline":
                baseline = float(re.search(r"in ([\d.]+)s", line).group(1))
def span(a, b):
    return f"{marks[b] - marks[a]:.1f}" if a in marks and b in marks else "?"
discover = f"{marks['baseline'] - baseline - marks['purity']:.1f}" if baseline and "purity" in marks else "?"
print(f"{project}\trep {rep}\tinit {end - start:.1f} s\tcompile main {span('main', 'tests')} s\t"
      f"compile tests + purity scan {span('tests', 'purity')} s\tdiscovery {discover} s\t"
      f"baseline {baseline} s\tarchive and the rest {end - marks.get('baseline', end):.1f} s")
PY
  # The floor's parts, with init's own compiler options and class path.
  python3 - "$tmp/work/state.json" > "$tmp/floor.env" <<'PY'
import json, shlex, sys
s = json.load(open(sys.argv[1]))
p, t = s["project"], s["tools"]
def q(x): return shlex.quote(x)
print("release=" + q(p.get("release") or ""))
print("cp=" + q(":".join(p.get("classpath", []))))
print("junit=" + q(":".join(t.get("junit", []))))
print("jvm=" + q(" ".join(p.get("jvm_options", []))))
print("classes=" + q(" ".join(dict.fromkeys(x["id"]["class"] for x in s["tests"]))))
print("main_dirs=" + q(" ".join(p["source_dirs"])))
print("test_dirs=" + q(" ".join(p["test_dirs"])))
PY
  # shellcheck disable=SC1091
  . "$tmp/floor.env"
  # shellcheck disable=SC2086
  find $main_dirs -name '*.java' > "$tmp/main.txt"
  # shellcheck disable=SC2086
  find $test_dirs -name '*.java' > "$tmp/test.txt"
  rm -rf "$tmp/m" "$tmp/t"
  rel=()
  [ -n "$release" ] && rel=(--release "$release")
  a=$(now)
  "$java_home/bin/javac" -nowarn -encoding UTF-8 "${rel[@]}" -cp "$cp" -d "$tmp/m" @"$tmp/main.txt" 2>/dev/null
  b=$(now)
  "$java_home/bin/javac" -nowarn -encoding UTF-8 "${rel[@]}" -cp "$tmp/m:$cp:$junit" -d "$tmp/t" @"$tmp/test.txt" 2>/dev/null
  c=$(now)
  # The suite on init's own class dirs, which hold the resources too; run from the project's root.
  rm -rf "$tmp/proj" && cp -r "$src" "$tmp/proj"
  # shellcheck disable=SC2086
  (cd "$tmp/proj" && "$java_home/bin/java" $jvm -cp "$tmp/work/test-classes:$tmp/work/classes:$cp:$junit" \
    org.junit.runner.JUnitCore $classes > "$tmp/junit.log" 2>&1) || true
  d=$(now)
  printf '%s\trep %d\tjavac main %.1f s\tjavac tests %.1f s\tone JVM, JUnitCore, %s\t%.1f s\n' "$project" "$rep" \
    "$(echo "$b - $a" | bc)" "$(echo "$c - $b" | bc)" "$(grep -E '^(OK|Tests run)' "$tmp/junit.log" | tail -1)" \
    "$(echo "$d - $c" | bc)"
done
