#!/usr/bin/env bash
# The whole test suite, as CI runs it: prepares the real-project corpus (scripts/corpus.sh
# --no-install: Debian source packages downloaded once into $PATCHVAL_CORPUS, unpacked afresh and
# seeded), then `cargo nextest run` with PATCHVAL_CORPUS set, so tests/corpus.rs validates the
# corpus projects too (alone on the machine, its output shown: .config/nextest.toml).
# First installs what the tests need and is missing (scripts/setup.sh --tests: apt, as root or
# with sudo; nothing when all is there). Extra arguments go to cargo nextest run.
# Without the corpus (a few minutes instead of about half an hour): `cargo nextest run`.
# Then scripts/slurm-test.sh (a sharded run on a single-node Slurm cluster).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
export PATCHVAL_CORPUS=${PATCHVAL_CORPUS:-$HOME/.cache/patchval-corpus}
scripts/corpus.sh --no-install
cargo nextest run "$@"
# The integration tier on a real job engine: a single-node Slurm cluster runs a sharded run as a
# job array, and the merged record must equal an unsharded run (skips, saying why, where slurmd
# cannot start).
scripts/slurm-test.sh
