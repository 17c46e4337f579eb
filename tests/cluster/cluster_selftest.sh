#!/usr/bin/env bash
# The emulated cluster (scripts/emulated-cluster.sh) does what it promises, checked from outside:
#
#   cluster_selftest.sh SOURCE BUILD
#
# Brings a cluster of 4 nodes up (or uses the one named by an exported NWPIO_CLUSTER_DIR, which
# it then leaves up) and checks, printing PASS/FAIL per check:
#   - Open MPI (mpirun through the agent) and MPICH (Hydra through the agent): every rank's
#     processor name is the node the hostfile puts it on, MPI_COMM_TYPE_SHARED makes one group
#     per node, no TCP connection of any rank leaves 127.0.0.0/8; under Open MPI every pair of
#     ranks on different nodes is joined by a TCP connection (the probe: cluster_probe.c)
#   - Slurm: sbatch -N 2 --wait of a job running srun hostname, mpirun hostname, srun
#     --mpi=pmix (Open MPI) and srun --mpi=pmi2 (MPICH) over both nodes: COMPLETED, every task
#     on the node Slurm gave it
#   - GlusterFS: a file written on n1 reads back the same on n2 and on the host; every node
#     has its own glusterfs client process, running in the node's mount namespace, and its own
#     FUSE connection
#   - down (of its own cluster): exit 0, then no process naming the state directory, no mount of
#     the volume or under the state directory, no /etc/hosts block, no state directory.
# Needs root, Open MPI and MPICH compilers; up installs Slurm and GlusterFS when missing.
set -euo pipefail

SRC=$(cd "${1:?usage: cluster_selftest.sh SOURCE BUILD}" && pwd)
BUILD=$(cd "${2:?usage: cluster_selftest.sh SOURCE BUILD}" && pwd)
EMU=$SRC/scripts/emulated-cluster.sh
SCRATCH=$BUILD/test-scratch/cluster
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# settings of an outer Slurm job would change what sbatch and srun do here
while read -r v; do unset "$v"; done < <(env | sed -n 's/^\(S\(LURM\|BATCH\|RUN\)_[A-Z_0-9]*\)=.*/\1/p')

failures=0 passes=0
say() { echo "[cluster-test] $*"; }
pass() { passes=$((passes + 1)); echo "PASS: $*"; }
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }
check() { # check DESCRIPTION COMMAND...: PASS when the command succeeds
  local what=$1
  shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}
ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }

OWN=0
cleanup() {
  if ((OWN)) && [[ -n ${NWPIO_CLUSTER_DIR:-} && -e $NWPIO_CLUSTER_DIR ]]; then
    say "bringing the cluster down after a failure"
    "$EMU" down || true
  fi
}
trap cleanup EXIT

rm -rf "$SCRATCH"
mkdir -p "$SCRATCH"
cd "$SCRATCH"

# ---- the cluster -------------------------------------------------------------------------
if [[ -n ${NWPIO_CLUSTER_DIR:-} ]]; then
  say "using the cluster in $NWPIO_CLUSTER_DIR (left up)"
  env_lines=$("$EMU" env) || { fail "no cluster up in NWPIO_CLUSTER_DIR=$NWPIO_CLUSTER_DIR"; exit 1; }
else
  t=$(date +%s%N)
  OWN=1
  env_lines=$("$EMU" up --nodes 4) || { fail "up --nodes 4 exited with $?"; exit 1; }
  say "up --nodes 4 took $(ms_since "$t") ms"
fi
eval "$env_lines"
for v in NWPIO_CLUSTER_DIR NWPIO_CLUSTER_NODES NWPIO_CLUSTER_HOSTFILE NWPIO_CLUSTER_HYDRA_FLAGS \
  NWPIO_CLUSTER_HYDRA_HOSTFILE SLURM_CONF NWPIO_CLUSTER_SHARED OMPI_MCA_plm_rsh_agent; do
  [[ -n ${!v:-} ]] || { fail "env does not export $v"; exit 1; }
done
read -ra NODES <<<"$NWPIO_CLUSTER_NODES"
((${#NODES[@]} >= 2)) || { fail "the cluster has ${#NODES[@]} node(s); the checks need 2 or more"; exit 1; }
STATE=$NWPIO_CLUSTER_DIR
say "nodes ${NODES[*]}, state in $STATE, volume at $NWPIO_CLUSTER_SHARED"

# ---- MPI through the agent ---------------------------------------------------------------
mpicc -O1 -o probe.ompi "$SRC/tests/cluster/cluster_probe.c"
mpicc.mpich -O1 -o probe.mpich "$SRC/tests/cluster/cluster_probe.c"
# two ranks per node, placed by the hostfile: rank r on node r/2
for n in "${NODES[@]}"; do echo "$n slots=2"; done >hostfile.ompi
for n in "${NODES[@]}"; do echo "$n:2"; done >hostfile.hydra
expected=()
for n in "${NODES[@]}"; do expected+=("$n" "$n"); done

# check_probe LABEL FILE TCP EXPECTED_NAME...: the probe's report in FILE against the names the
# ranks should have; TCP=1: every pair of ranks on different nodes must share a TCP connection.
check_probe() {
  local label=$1 file=$2 tcp=$3 r name group want_group ok=1 pairs
  shift 3
  local want=("$@") names=() groups=()
  while read -r _ r _ name _ group; do names[r]=$name groups[r]=$group; done < <(grep '^rank [0-9]* name ' "$file")
  if ((${#names[@]} != ${#want[@]})); then
    fail "$label: ${#names[@]} ranks reported, ${#want[@]} started"
    return
  fi
  for r in "${!want[@]}"; do
    [[ ${names[r]} == "${want[r]}" ]] || { ok=0; echo "    rank $r runs on '${names[r]}', the hostfile says ${want[r]}"; }
    # the group is named by its lowest world rank: the first rank on the same node
    for want_group in "${!want[@]}"; do [[ ${want[want_group]} == "${want[r]}" ]] && break; done
    [[ ${groups[r]} == "$want_group" ]] || { ok=0; echo "    rank $r is in group ${groups[r]}, its node's group is $want_group"; }
  done
  check "$label: each rank's processor name is its node, one MPI_COMM_TYPE_SHARED group per node" test "$ok" == 1
  check "$label: no TCP connection leaves 127.0.0.0/8" grep -qx 'tcp nonloopback 0' "$file"
  pairs=$(sed -n 's/^tcp pairs //p' "$file")
  if ((tcp)); then
    check "$label: every pair of ranks on different nodes talks over TCP on loopback ($pairs)" \
      test "${pairs%% of *}" == "${pairs##* of }" -a "${pairs##* of }" -gt 0
  else
    say "$label: pairs of ranks on different nodes joined by TCP: $pairs (the rest through shared memory)"
  fi
}

t=$(date +%s%N)
if timeout 120 mpirun --hostfile hostfile.ompi -np ${#expected[@]} ./probe.ompi >ompi.out 2>&1; then
  sed 's/^/    /' ompi.out
  check_probe "Open MPI mpirun" ompi.out 1 "${expected[@]}"
else
  sed 's/^/    /' ompi.out
  # shellcheck disable=SC2154 # (exported by the env lines)
  fail "Open MPI: mpirun --hostfile through $OMPI_MCA_plm_rsh_agent failed"
fi
say "Open MPI run: $(ms_since "$t") ms"

# MPICH's ranks busy-poll: as many as nodes, placed by the cluster's hostfile ("node:slots" lines,
# filled in order)
t=$(date +%s%N)
read -ra hydra_flags <<<"$NWPIO_CLUSTER_HYDRA_FLAGS"
hydra_expected=()
while IFS=: read -r n slots; do
  for ((i = 0; i < slots; i++)); do hydra_expected+=("$n"); done
done <"$NWPIO_CLUSTER_HYDRA_HOSTFILE"
hydra_expected=("${hydra_expected[@]:0:${#NODES[@]}}")
if timeout 120 mpiexec.mpich "${hydra_flags[@]}" -f "$NWPIO_CLUSTER_HYDRA_HOSTFILE" -n ${#NODES[@]} ./probe.mpich \
  >mpich.out 2>&1; then
  sed 's/^/    /' mpich.out
  check_probe "MPICH mpiexec" mpich.out 0 "${hydra_expected[@]}"
else
  sed 's/^/    /' mpich.out
  fail "MPICH: mpiexec.mpich $NWPIO_CLUSTER_HYDRA_FLAGS failed"
fi
say "MPICH run: $(ms_since "$t") ms"

# ---- Slurm: a job on two nodes -------------------------------------------------------------
cat >job.sh <<'EOF'
#!/bin/bash
#SBATCH -o job.%j.out
set -euo pipefail
echo "nodes $(scontrol show hostnames "$SLURM_JOB_NODELIST" | tr '\n' ' ')"
srun hostname | sed 's/^/srun-hostname /'
mpirun hostname | sed 's/^/mpirun-hostname /'
srun --mpi=pmix ./probe.ompi | sed 's/^/pmix /'
srun --mpi=pmi2 ./probe.mpich | sed 's/^/pmi2 /'
EOF
t=$(date +%s%N)
rc=0
jobid=$(timeout 240 sbatch --parsable --wait -N 2 --ntasks-per-node=2 -t 5 job.sh) || rc=$?
jobid=${jobid%%;*}
say "sbatch -N 2 --wait: exit $rc after $(ms_since "$t") ms"
out=job.$jobid.out
if [[ $jobid =~ ^[0-9]+$ && -f $out ]]; then
  sed 's/^/    | /' "$out"
  state=$(SLURM_LOCAL_DIR=$STATE/slurm bash "$SRC/slurm/slurm-local.sh" jobstate "$jobid" || true)
  check "sbatch -N 2: job $jobid COMPLETED with exit 0 (state: $state)" test "$rc" == 0 -a "$state" == "COMPLETED 0:0"
  read -ra job_nodes <<<"$(sed -n 's/^nodes //p' "$out")"
  check "sbatch -N 2: the allocation has 2 nodes (${job_nodes[*]})" test ${#job_nodes[@]} == 2
  job_expected=()
  for n in "${job_nodes[@]}"; do job_expected+=("$n" "$n"); done
  for how in srun mpirun; do
    check "$how hostname in the job: one line per task, from the task's node" \
      test "$(sed -n "s/^$how-hostname //p" "$out" | sort | tr '\n' ' ')" == "$(printf '%s\n' "${job_expected[@]}" | sort | tr '\n' ' ')"
  done
  sed -n 's/^pmix //p' "$out" >pmix.out
  sed -n 's/^pmi2 //p' "$out" >pmi2.out
  check_probe "srun --mpi=pmix (Open MPI)" pmix.out 1 "${job_expected[@]}"
  check_probe "srun --mpi=pmi2 (MPICH)" pmi2.out 0 "${job_expected[@]}"
else
  fail "sbatch -N 2 gave no job id or no log (exit $rc, id '$jobid')"
fi

# ---- GlusterFS -----------------------------------------------------------------------------
probe_file=$NWPIO_CLUSTER_SHARED/selftest.$$
written=$("$EMU" exec "${NODES[0]}" sh -c "head -c 1048576 /dev/urandom >$probe_file && sha256sum <$probe_file")
on_second=$("$EMU" exec "${NODES[1]}" sh -c "sha256sum <$probe_file" || echo "unreadable")
on_host=$(sha256sum <"$probe_file" || echo "unreadable")
check "a file written on ${NODES[0]} reads back the same on ${NODES[1]}" test "$written" == "$on_second"
check "a file written on ${NODES[0]} reads back the same on the host" test "$written" == "$on_host"
back_file=$NWPIO_CLUSTER_SHARED/selftest-back.$$
written=$("$EMU" exec "${NODES[-1]}" sh -c "head -c 1048576 /dev/urandom >$back_file && sha256sum <$back_file")
on_first=$("$EMU" exec "${NODES[0]}" sh -c "sha256sum <$back_file" || echo "unreadable")
check "a file written on ${NODES[-1]} reads back the same on ${NODES[0]}" test "$written" == "$on_first"
rm -f "$probe_file" "$back_file"

# every node: its own FUSE connection (device of the mount) and exactly one glusterfs process in
# its mount namespace, none shared with another node or the host
declare -A client_of=() device_of=()
host_dev=$(awk -v m="$NWPIO_CLUSTER_SHARED" '$5 == m && / - fuse.glusterfs / {print $3}' /proc/self/mountinfo)
clients_ok=1
for n in "${NODES[@]}"; do
  ns=$("$EMU" exec "$n" stat -L -c %i /proc/self/ns/mnt)
  # shellcheck disable=SC2016 # (awk's own $3 and $5)
  device_of[$n]=$("$EMU" exec "$n" awk -v m="$NWPIO_CLUSTER_SHARED" '$5 == m && / - fuse.glusterfs / {print $3}' /proc/self/mountinfo)
  pids=()
  for p in /proc/[0-9]*; do
    [[ $(cat "$p/comm" 2>/dev/null) == glusterfs ]] || continue
    [[ $(stat -L -c %i "$p/ns/mnt" 2>/dev/null) == "$ns" ]] && pids+=("${p#/proc/}")
  done
  client_of[$n]=${pids[*]:-none}
  say "$n: mount device ${device_of[$n]:-none}, glusterfs client(s) ${client_of[$n]}"
  [[ ${#pids[@]} == 1 && -n ${device_of[$n]} && ${device_of[$n]} != "$host_dev" ]] || clients_ok=0
done
say "host: mount device ${host_dev:-none}"
distinct_clients=$(printf '%s\n' "${client_of[@]}" | sort -u | wc -l)
distinct_devices=$(printf '%s\n' "${device_of[@]}" | sort -u | wc -l)
check "one glusterfs client process and FUSE connection per node (${#NODES[@]} nodes: $distinct_clients clients, $distinct_devices connections)" \
  test "$clients_ok" == 1 -a "$distinct_clients" == ${#NODES[@]} -a "$distinct_devices" == ${#NODES[@]}

# ---- down ----------------------------------------------------------------------------------
if ((OWN)); then
  t=$(date +%s%N)
  rc=0
  "$EMU" down || rc=$?
  say "down took $(ms_since "$t") ms"
  OWN=0
  check "down exits 0" test "$rc" == 0
  left=""
  for p in /proc/[0-9]*; do
    if { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -qF -- "$STATE/"; then
      left+=" ${p#/proc/}:$(cat "$p/comm" 2>/dev/null)"
    fi
  done
  check "no process names $STATE after down${left:+ (left:$left)}" test -z "$left"
  check "no GlusterFS mount and nothing under $STATE mounted after down" \
    test -z "$(grep -e ' fuse.glusterfs ' -e " $STATE" /proc/self/mountinfo | grep -F -e "$NWPIO_CLUSTER_SHARED" -e "$STATE" || true)"
  check "no /etc/hosts block of the cluster after down" test -z "$(grep -F "emulated cluster $STATE" /etc/hosts || true)"
  check "no state directory $STATE after down" test ! -e "$STATE"
fi

echo "$passes passed, $failures failed"
((failures == 0))
