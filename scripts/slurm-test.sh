#!/usr/bin/env bash
# Integration test on a real job engine: installs Debian's slurm-wlm and munge (when missing),
# starts a single-node Slurm cluster on this machine (munged, slurmctld and slurmd on localhost,
# with a slurm.conf written here, on ports of its own), initialises a fixture's work dir once,
# submits `sbatch --array=0-3` whose tasks each copy the work dir (as a node of a cluster gets
# it) and run `patchval run --shard auto` (the shard from SLURM_ARRAY_TASK_ID/COUNT), waits,
# merges the four runs with `patchval merge`, and checks that the merged verdicts, failing tests
# and totals equal one unsharded run. Stops the cluster at the end, whatever happened.
#
# Exit 0 when the merged run equals the unsharded one; 1 when it does not or a step failed.
# Where slurmd cannot start (no root, a container without the rights it needs), it prints
# `SKIPPED: <why>` and exits 0.
#
#   scripts/slurm-test.sh [FIXTURE]      (default: calc)
#   PATCHVAL_BIN=path: the binary to run (default: this tree's debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
fixture=${1:-calc}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
skip() { echo "SKIPPED: $*"; exit 0; }

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo -n true 2>/dev/null || skip "not root and no password-less sudo: slurmd and munged need root here"
  sudo="sudo -n"
fi
need=()
command -v slurmd >/dev/null || need+=(slurm-wlm)
command -v munged >/dev/null || need+=(munge)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}" >&2
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >&2
fi

if [ -n "${PATCHVAL_BIN:-}" ]; then
  bin=$PATCHVAL_BIN
else
  cargo build --quiet
  bin=$repo/target/debug/patchval
fi

tmp=$(mktemp -d /tmp/patchval-slurm.XXXXXX)
chmod 755 "$tmp"
export SLURM_CONF=$tmp/slurm.conf
started_munge=0
cleanup() {
  scontrol shutdown >/dev/null 2>&1 || true
  for pidfile in "$tmp/slurmd.pid" "$tmp/slurmctld.pid"; do
    [ -f "$pidfile" ] && $sudo kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  if [ $started_munge -eq 1 ]; then
    $sudo su -s /bin/sh munge -c "munged --stop" >/dev/null 2>&1 || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# 1. munge: the daemon Slurm authenticates with (the key the Debian package made).
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  $sudo mkdir -p /run/munge
  $sudo chown munge:munge /run/munge
  [ -f /etc/munge/munge.key ] || $sudo mungekey --create >/dev/null 2>&1 || true
  $sudo su -s /bin/sh munge -c "munged --force" || skip "munged would not start"
  started_munge=1
  for _ in $(seq 20); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.5; done
  munge -n | unmunge >/dev/null 2>&1 || skip "munged does not answer"
fi

# 2. A one-node cluster: this machine, all its CPUs, its own ports and directories.
host=$(hostname -s)
mkdir -p "$tmp/state" "$tmp/spool"
cat >"$SLURM_CONF" <<EOF
ClusterName=patchval
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=patchval Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
$sudo slurmctld -f "$SLURM_CONF" || skip "slurmctld would not start: $(tail -3 "$tmp/slurmctld.log" 2>/dev/null)"
$sudo slurmd -f "$SLURM_CONF" || skip "slurmd would not start: $(tail -3 "$tmp/slurmd.log" 2>/dev/null)"
for _ in $(seq 60); do
  sinfo -h -o '%t' 2>/dev/null | grep -qx idle && break
  sleep 0.5
done
sinfo -h -o '%t' 2>/dev/null | grep -qx idle \
  || skip "slurmd did not come up: $(tail -3 "$tmp/slurmd.log" 2>/dev/null)"
echo "== Slurm cluster up: $(sinfo -h -o '%P %D %t %N')" >&2

# 3. The work dir, made once; the unsharded run to compare with.
project=$tmp/project
cp -r "testdata/$fixture" "$project"
sets=$project/patches
"$bin" init --project "$project" --work-dir "$tmp/work" >/dev/null
rm -rf "$tmp/whole"
cp -r "$tmp/work" "$tmp/whole"
"$bin" run -j 2 -w "$tmp/whole" "$sets" >/dev/null 2>"$tmp/whole.log" || { cat "$tmp/whole.log" >&2; exit 1; }

# 4. Four array tasks, each on its own copy of the work dir, as nodes would have.
cat >"$tmp/task.sh" <<EOF
#!/usr/bin/env bash
set -euo pipefail
node=$tmp/node-\$SLURM_ARRAY_TASK_ID
mkdir -p "\$node"
cp -r "$tmp/work" "\$node/work"
export JAVA_HOME=$JAVA_HOME
exec "$bin" run -j 1 -w "\$node/work" --project-root "$project" --shard auto "$sets"
EOF
chmod +x "$tmp/task.sh"
echo "== sbatch --array=0-3" >&2
sbatch --wait --array=0-3 --cpus-per-task=1 --output="$tmp/task-%a.log" "$tmp/task.sh" >&2 || {
  tail -20 "$tmp"/task-*.log >&2
  echo "FAILED: an array task failed" >&2
  exit 1
}

# 5. Merge and compare.
runs=()
for k in 0 1 2 3; do runs+=("$tmp/node-$k/work/runs/0001"); done
"$bin" merge --out "$tmp/merged" "${runs[@]}"
python3 - "$tmp/merged" "$tmp/whole/runs/0001" "${runs[@]}" <<'EOF'
import json, os, sys
merged, whole, shards = sys.argv[1], sys.argv[2], sys.argv[3:]
def lines(p):
    return [json.loads(l) for l in open(p)]
def record(d):
    sets = {os.path.basename(l["patches_path"]): l["succlist"] for l in lines(f"{d}/result.jsonl")}
    patches = {(os.path.basename(x["patches_path"]), x["patch"]): (x["verdict"], x.get("test"))
               for x in lines(f"{d}/details.jsonl")}
    return sets, patches
m, w = record(merged), record(whole)
assert m == w, f"merged differs from the unsharded run:\n{m}\n{w}"
tm = json.load(open(f"{merged}/run.json"))["totals"]
tw = json.load(open(f"{whole}/run.json"))["totals"]
assert tm["sets"] == tw["sets"] and tm["verdicts"] == tw["verdicts"], (tm, tw)
per = [len(lines(f"{s}/result.jsonl")) for s in shards]
print(f"OK: {len(m[0])} sets, {len(m[1])} patches over 4 Slurm array tasks {per}: "
      f"merged verdicts equal the unsharded run ({tw['verdicts']})")
EOF
