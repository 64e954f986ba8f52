# What the benchmark scripts share (bench*.sh, init-floor.sh): sourced after `set -euo pipefail`,
# from any directory. It sets JAVA_HOME, `root` (the repository) and `corpus` (scripts/corpus.sh's
# cache), and defines the functions below.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
corpus=${PATCHVAL_CORPUS:-$HOME/.cache/patchval-corpus}

# bench_targets [-j N] [TARGET ...]: sets `jobs` (default 2) and the array `targets` (default:
# every fixture with an expected.json).
bench_targets() {
  jobs=2
  if [ "${1:-}" = "-j" ]; then
    jobs=${2:?-j needs a number}
    shift 2
  fi
  targets=("$@")
  [ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(bench_fixtures)
}

# bench_reps [--reps N] [-j N] ARG ...: sets `reps` (default 1), `jobs` (default 2) and the array
# `rest` (the arguments after the options).
bench_reps() {
  reps=1
  jobs=2
  while [ $# -gt 0 ]; do
    case "$1" in
      --reps) reps=${2:?--reps needs a number}; shift 2 ;;
      -j) jobs=${2:?-j needs a number}; shift 2 ;;
      *) break ;;
    esac
  done
  rest=("$@")
}

# bench_bin: sets `bin`, the binary to measure: PATCHVAL_BIN, else this tree's release build,
# built now.
bench_bin() {
  if [ -n "${PATCHVAL_BIN:-}" ]; then
    bin=$PATCHVAL_BIN
  else
    (cd "$root" && cargo build --release --quiet)
    bin=$root/target/release/patchval
  fi
}

# bench_tmp: sets `tmp`, a scratch directory removed when the script exits.
bench_tmp() {
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
}

# bench_fixtures: the fixtures with an expected.json for their patch sets, one name a line.
bench_fixtures() {
  local fx
  for fx in "$root"/testdata/*/; do
    [ -f "$fx/patches/expected.json" ] && basename "$fx"
  done
  return 0
}

# bench_target TARGET: resolves a fixture name or corpus:NAME. Sets `name`, `project` (a fixture
# is copied into $tmp first, so runs never write into testdata/), `sets` (the patch sets: a
# fixture's patches/ dir, the corpus project's JSON file) and `kind` (init's layout flag: --maven
# for a pom.xml, --defects4j for a Defects4J checkout, else --project). Returns 1, with a line on
# stderr, when the target is not there.
bench_target() {
  name=${1#corpus:}
  if [ "$1" != "$name" ]; then
    [ -f "$corpus/READY" ] || { echo "$1: no corpus at $corpus (scripts/corpus.sh)" >&2; return 1; }
    project=$corpus/src/$name
    sets=$corpus/patches/$name.json
    [ -d "$project" ] || { echo "$1: $project is missing (scripts/corpus.sh)" >&2; return 1; }
  else
    [ -d "$root/testdata/$name" ] || { echo "$1: no fixture testdata/$name" >&2; return 1; }
    project=$tmp/$name.p
    rm -rf "$project"
    cp -r "$root/testdata/$name" "$project"
    sets=$project/patches
  fi
  kind=--project
  if [ -f "$project/.defects4j.config" ]; then
    kind=--defects4j
  elif [ "$1" = "$name" ] && [ -f "$project/pom.xml" ]; then
    kind=--maven
  fi
}
