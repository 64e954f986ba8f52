#!/usr/bin/env bash
# Installs what patchval needs on a Debian machine (as root or with sudo): a JDK 17, JUnit 4,
# Hamcrest, JUnit 5 (the agent is built against its launcher), ASM (the agent's instrumenter) and
# bc (the demo's timings): what `scripts/demo.sh` needs, nothing more.
# With --tests, also what the test suite needs: Maven with its dependency plugin (the Maven
# fixtures), python3, Slurm and munge (scripts/slurm-test.sh), stress-ng (tests/stress.rs), Logback and Log4j 2 (testdata/logback, testdata/log4j), chromium (tests/report.rs), a deb-src entry and the corpus projects' test dependencies
# (scripts/corpus.sh --install-only), and cargo-nextest. Safe to run again.
set -euo pipefail
tests=false
[ "${1:-}" = "--tests" ] && tests=true

need=()
[ -x /usr/lib/jvm/java-17-openjdk-amd64/bin/javac ] || need+=(openjdk-17-jdk-headless)
[ -f /usr/share/java/junit4.jar ] || need+=(junit4)
[ -f /usr/share/java/hamcrest-core.jar ] || need+=(libhamcrest-java)
[ -f /usr/share/java/junit-platform-launcher.jar ] || need+=(junit5)
[ -f /usr/share/java/asm.jar ] || need+=(libasm-java)
command -v bc >/dev/null || need+=(bc)
if $tests; then
  command -v mvn >/dev/null || need+=(maven)
  [ -d /usr/share/maven-repo/org/apache/maven/plugins/maven-dependency-plugin ] || need+=(libmaven-dependency-plugin-java)
  command -v python3 >/dev/null || need+=(python3)
  # scripts/slurm-test.sh: a single-node Slurm cluster.
  command -v slurmd >/dev/null || need+=(slurm-wlm)
  command -v munged >/dev/null || need+=(munge)
  # tests/stress.rs: verdicts with both cores loaded.
  command -v stress-ng >/dev/null || need+=(stress-ng)
  # testdata/logback: SLF4J and Logback (libslf4j-java comes with it).
  [ -f /usr/share/java/logback-classic.jar ] || need+=(liblogback-java)
  # testdata/log4j: Log4j 2.
  [ -f /usr/share/java/log4j-core.jar ] || need+=(liblog4j2-java)
  # tests/report.rs: the report page rendered by a headless browser.
  command -v chromium >/dev/null || need+=(chromium)
fi
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${need[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >&2
fi
$tests || exit 0
"$(dirname "$0")/corpus.sh" --install-only
if ! cargo nextest --version >/dev/null 2>&1; then
  echo "installing cargo-nextest" >&2
  cargo install cargo-nextest --locked >&2
fi
