#!/usr/bin/env bash
# Installs what patchval needs on a Debian machine: a JDK 17, JUnit 4, Hamcrest, JUnit 5, Maven with its dependency plugin, and bc (for the demo's timings) (as root or with sudo),
# and checks for cargo-nextest. Safe to run again.
set -euo pipefail

need=()
[ -x /usr/lib/jvm/java-17-openjdk-amd64/bin/javac ] || need+=(openjdk-17-jdk-headless)
[ -f /usr/share/java/junit4.jar ] || need+=(junit4)
[ -f /usr/share/java/hamcrest-core.jar ] || need+=(libhamcrest-java)
[ -f /usr/share/java/junit-platform-launcher.jar ] || need+=(junit5)
command -v mvn >/dev/null || need+=(maven)
[ -d /usr/share/maven-repo/org/apache/maven/plugins/maven-dependency-plugin ] || need+=(libmaven-dependency-plugin-java)
command -v bc >/dev/null || need+=(bc)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${need[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >&2
fi
if ! cargo nextest --version >/dev/null 2>&1; then
  echo "installing cargo-nextest" >&2
  cargo install cargo-nextest --locked >&2
fi
