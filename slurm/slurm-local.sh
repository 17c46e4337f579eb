#!/usr/bin/env bash
# slurm-local.sh - a throw-away Slurm cluster on this host, for trying the job scripts in slurm/
# and for the test suite (tests/slurm). Debian 12 packages, no systemd: munged, slurmctld and
# slurmd are started directly, everything lives in one directory. One node (this host) unless
# SLURM_LOCAL_NODES names more: scripts/emulated-cluster.sh gives each its own namespaces.
#
#   slurm/slurm-local.sh start       make $SLURM_LOCAL_DIR (a new mktemp dir when unset), write
#                                    slurm.conf, start munged + slurmctld + slurmd, wait until
#                                    the node is idle; prints export lines on stdout:
#                                      eval "$(slurm/slurm-local.sh start)"
#   slurm/slurm-local.sh stop        cancel every job, stop the daemons, kill what is left of
#                                    this cluster; exits 1 if any process of it survives
#   slurm/slurm-local.sh status      daemons and sinfo
#   slurm/slurm-local.sh env         the export lines again
#   slurm/slurm-local.sh jobstate ID final "STATE EXITCODE" of job ID from the jobcomp file
#   slurm/slurm-local.sh leftovers   pids (with command) of processes that belong to the cluster
#
# The cluster is found through $SLURM_LOCAL_DIR or, failing that, an exported SLURM_CONF that
# this script wrote. Packages: apt-get install slurmctld slurmd slurm-client munge
# (srun --mpi=pmix also needs libpmix-dev, which libopenmpi-dev pulls in).
#
# Settings (environment):
#   SLURM_LOCAL_DIR        cluster directory (config, state, spool, logs, munge key/socket)
#   SLURM_LOCAL_CPUS       CPUs each node advertises [max(nproc,4)], so that the -n 4 jobs of
#                          the tests run on a 2-core machine (config_overrides)
#   SLURM_LOCAL_NODES      the nodes, "NAME=ADDRESS ..." [this host's short name=127.0.0.1]
#   SLURM_LOCAL_NODE_EXEC  a command that runs a command line on a node, called as rsh is
#                          (`EXEC NODE slurmd -f CONF`): each slurmd starts on its node and takes
#                          the node's host name as its NodeName. Unset: every slurmd starts here
#                          with -N NAME (each has its own port and paths, so several can run)
#   SLURM_LOCAL_TMPFS      TmpFS of the nodes (srun --mpi=pmix's spmix_appdir_*) [$D/tmp]
#   SLURM_LOCAL_CTLD_PORT, SLURM_LOCAL_SLURMD_PORT  ports of slurmctld and of the first node's
#                          slurmd; node i listens on SLURMD_PORT+i [the first free run of ports
#                          from 6817 upwards]
#   SLURM_LOCAL_PARTITION  partition name [debug]
#   SLURM_LOCAL_START_TIMEOUT  seconds to wait for an idle node [60]
#   SLURM_LOCAL_EXTRA_CONF extra slurm.conf lines
set -euo pipefail

log() { echo "[slurm-local] $*" >&2; }

if [[ -n ${SLURM_LOCAL_DIR:-} ]]; then
  D=$SLURM_LOCAL_DIR
elif [[ -n ${SLURM_CONF:-} && -f $SLURM_CONF ]] && head -1 "$SLURM_CONF" | grep -q '^# nwpio slurm-local'; then
  D=$(cd "$(dirname "$SLURM_CONF")/.." && pwd)
else
  D=""
fi
CONF=${D:+$D/etc/slurm.conf}
SOCK=${D:+$D/munge/munge.socket}
HOST=$(hostname -s)
PART=${SLURM_LOCAL_PARTITION:-debug}
# the nodes: NODE_NAMES[i] at NODE_ADDRS[i]; those of the slurm.conf that start wrote, for the
# other commands
_nodes=${SLURM_LOCAL_NODES:-$HOST=127.0.0.1}
if [[ ${1:-} != start && -n $CONF && -f $CONF ]]; then
  _nodes=$(sed -n 's/^NodeName=\([^ ]*\) NodeAddr=\([^ ]*\) .*/\1=\2/p' "$CONF" | tr '\n' ' ')
fi
NODE_NAMES=() NODE_ADDRS=()
for _node in $_nodes; do
  NODE_NAMES+=("${_node%%=*}")
  NODE_ADDRS+=("${_node#*=}")
done
unset _node _nodes

need_dir() {
  [[ -n $D ]] || { log "no cluster: set SLURM_LOCAL_DIR (or export the SLURM_CONF that 'start' printed)"; exit 2; }
}

# True when the pid in pid file $1 is alive AND its command line names $D: a stale pid file
# whose number was reused by an unrelated process is never signalled.
pid_ours() {
  local pid
  [[ -s $1 ]] || return 1
  pid=$(<"$1")
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF -- "$D/"
}

# Every live process of this cluster, except this shell and its ancestors: the daemons (their
# command line names $D/), and slurmscriptd, slurmstepd and job processes (they carry
# SLURM_CONF=$CONF in their environment, as the daemons are started with it exported, and are
# named slurm* or have a SLURM_JOB_ID).
cluster_pids() {
  local p pid comm envtxt skip=" " a=$BASHPID args=() envs=() IFS=$'\n'
  while [[ $a -gt 1 ]]; do
    skip+="$a "
    a=$(awk '{print $4}' "/proc/$a/stat" 2>/dev/null || echo 1)
  done
  # builtins only (no fork per process): a busy machine has thousands of processes
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    [[ $skip == *" $pid "* ]] && continue
    mapfile -d '' -t args 2>/dev/null <"$p/cmdline" || continue
    if [[ " ${args[*]} " == *"$D/"* ]]; then
      echo "$pid"
      continue
    fi
    mapfile -d '' -t envs 2>/dev/null <"$p/environ" || continue
    envtxt=$'\n'"${envs[*]}"$'\n' # joined by IFS, a newline here
    [[ $envtxt == *$'\n'"SLURM_CONF=$CONF"$'\n'* ]] || continue
    read -r comm 2>/dev/null <"$p/comm" || continue
    if [[ $comm == slurm* || $envtxt == *$'\n'SLURM_JOB_ID=* ]]; then
      echo "$pid"
    fi
  done
}

# TERM the daemons named by pid files (all at once: each needs 1-2 s to exit), KILL after $1 s.
stop_daemons() {
  local t=$1 pf pid i alive pids=()
  shift
  for pf in "$@"; do
    if pid_ours "$pf"; then
      pid=$(<"$pf")
      log "stopping $(cat "/proc/$pid/comm" 2>/dev/null) (pid $pid)"
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
    fi
  done
  ((${#pids[@]})) || return 0
  for ((i = 0; i < t * 10; i++)); do
    alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || return 0
    sleep 0.1
  done
  for pid in "${pids[@]}"; do
    kill -0 "$pid" 2>/dev/null && { log "pid $pid ignored TERM for ${t}s, sending KILL"; kill -KILL "$pid" 2>/dev/null || true; }
  done
  return 0
}

# Listening TCP ports (decimal) from /proc/net/tcp{,6}: state 0A is LISTEN.
listening_ports() {
  local line f
  cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | while read -r line; do
    read -ra f <<<"$line"
    if [[ ${f[3]:-} == 0A ]]; then echo $((16#${f[1]##*:})); fi
  done | sort -u
}

# CTLD_PORT and SLURMD_PORT: slurmctld's port and the first node's; node i listens on
# SLURMD_PORT+i (every slurmd listens on all of this host's addresses).
pick_ports() {
  local used p q free n=${#NODE_NAMES[@]}
  used=" $(listening_ports | tr '\n' ' ') "
  if [[ -n ${SLURM_LOCAL_CTLD_PORT:-} || -n ${SLURM_LOCAL_SLURMD_PORT:-} ]]; then
    CTLD_PORT=${SLURM_LOCAL_CTLD_PORT:-6817} SLURMD_PORT=${SLURM_LOCAL_SLURMD_PORT:-6818}
    return 0
  fi
  for ((p = 6817; p < 6917; p += n + 1)); do
    free=1
    for ((q = p; q <= p + n; q++)); do [[ $used == *" $q "* ]] && free=0; done
    if ((free)); then
      CTLD_PORT=$p SLURMD_PORT=$((p + 1))
      return 0
    fi
  done
  log "no $((n + 1)) free ports in a row in 6817-6917"
  return 1
}

write_conf() {
  local ncpu cpus mem overrides="" user i
  ncpu=$(nproc)
  cpus=${SLURM_LOCAL_CPUS:-$((ncpu > 4 ? ncpu : 4))}
  # slurmd refuses a node that claims more CPUs than it has unless told to take the config
  ((cpus > ncpu)) && overrides="SlurmdParameters=config_overrides"
  mem=$(awk '/^MemTotal/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
  user=$(id -un)
  cat >"$CONF" <<EOF
# nwpio slurm-local cluster, written by slurm/slurm-local.sh on $(date -u +%FT%TZ)
ClusterName=nwpio-local
# slurmctld runs only where the first name is its own short host name
SlurmctldHost=${HOST}(127.0.0.1)
SlurmctldPort=${CTLD_PORT}
SlurmdPort=${SLURMD_PORT}
SlurmUser=${user}
SlurmdUser=${user}
# the private munged of this cluster, for the daemons and (through SLURM_CONF) the clients
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=${SOCK}
StateSaveLocation=${D}/state
# each node's own (%n: the node's name)
SlurmdSpoolDir=${D}/spool/%n
SlurmctldPidFile=${D}/run/slurmctld.pid
SlurmdPidFile=${D}/run/slurmd-%n.pid
SlurmctldLogFile=${D}/log/slurmctld.log
SlurmdLogFile=${D}/log/slurmd-%n.log
# srun --mpi=pmix makes its spmix_appdir_* here (a path as the node sees it: TmpFS takes no %n)
TmpFS=${SLURM_LOCAL_TMPFS:-$D/tmp}
# no cgroups (they would leave slurm_<node> directories behind), no accounting daemon;
# jobcomp/filetxt keeps every job's final state and exit code for the tests
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=${D}/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
# a request the partition can never satisfy fails at submit time instead of pending forever
EnforcePartLimits=ALL
ReturnToService=2
# sbatch --wait polls every 2 s while MinJobAge is small (it backs off up to 32 s otherwise);
# 5 s keeps finished jobs visible long enough for it to read the exit code
MinJobAge=5
InactiveLimit=0
KillWait=5
Waittime=0
MailProg=/bin/true
SlurmctldDebug=info
SlurmdDebug=info
${overrides}
${SLURM_LOCAL_EXTRA_CONF:-}
EOF
  for i in "${!NODE_NAMES[@]}"; do
    echo "NodeName=${NODE_NAMES[i]} NodeAddr=${NODE_ADDRS[i]} Port=$((SLURMD_PORT + i)) CPUs=${cpus} RealMemory=${mem} State=UNKNOWN"
  done >>"$CONF"
  echo "PartitionName=${PART} Nodes=$(IFS=,; echo "${NODE_NAMES[*]}") Default=YES MaxTime=INFINITE State=UP" >>"$CONF"
}

# The pid files of the daemons: munged, slurmctld, the slurmd of every node.
daemon_pid_files() {
  local name
  echo "$D/munge/munged.pid"
  echo "$D/run/slurmctld.pid"
  for name in "${NODE_NAMES[@]}"; do echo "$D/run/slurmd-$name.pid"; done
}

# Starts the slurmd of node $1: on that node (SLURM_LOCAL_NODE_EXEC), else here under its name.
start_slurmd() {
  if [[ -n ${SLURM_LOCAL_NODE_EXEC:-} ]]; then
    $SLURM_LOCAL_NODE_EXEC "$1" slurmd -f "$CONF"
  else
    slurmd -f "$CONF" -N "$1"
  fi
}

# The nodes that are not idle yet, as "name:state" ("name:unknown" while sinfo has no answer).
nodes_not_idle() {
  local out name line busy=()
  out=$(timeout 10 sinfo -h -N -o '%N:%T' 2>/dev/null) || out=""
  for name in "${NODE_NAMES[@]}"; do
    line=$(grep -m1 "^$name:" <<<"$out" || echo "$name:unknown")
    [[ $line == "$name:idle" ]] || busy+=("$line")
  done
  echo "${busy[*]}"
}

print_env() {
  echo "export SLURM_LOCAL_DIR=$D"
  echo "export SLURM_CONF=$CONF"
}

# Undo a half-started cluster and say why.
start_failed() {
  log "start failed: $*"
  stop >/dev/null 2>&1 || true
  exit 1
}

start() {
  local missing=() c t0 i st="" created=0
  for c in munged mungekey slurmctld slurmd sbatch sinfo; do command -v "$c" >/dev/null || missing+=("$c"); done
  if ((${#missing[@]})); then
    log "missing commands: ${missing[*]} (apt-get install slurmctld slurmd slurm-client munge)"
    exit 1
  fi
  if [[ -z $D ]]; then
    D=$(mktemp -d "${TMPDIR:-/tmp}/nwpio-slurm.XXXXXX")
    CONF=$D/etc/slurm.conf SOCK=$D/munge/munge.socket created=1
  fi
  local pf
  for pf in $(daemon_pid_files); do
    if pid_ours "$pf"; then
      log "a cluster is already running in $D (stop it first)"
      exit 1
    fi
  done
  # a unix socket path is limited to 108 bytes
  ((${#SOCK} < 100)) || { log "directory path too long for the munge socket: $SOCK"; exit 1; }
  t0=$(date +%s%N)
  mkdir -p "$D"/{etc,state,log,run,munge,tmp}
  for c in "${NODE_NAMES[@]}"; do mkdir -p "$D/spool/$c"; done
  # munged wants the socket directory traversable by everyone (mktemp -d gives 0700) and the
  # key readable by its owner only
  chmod 755 "$D" "$D/munge"
  if [[ ! -s $D/munge/munge.key ]]; then
    mungekey --create --bits=1024 --keyfile="$D/munge/munge.key" || start_failed "mungekey"
  fi
  chmod 600 "$D/munge/munge.key"
  local margs=(--key-file="$D/munge/munge.key" --socket="$SOCK" --pid-file="$D/munge/munged.pid"
    --log-file="$D/log/munged.log" --seed-file="$D/munge/munged.seed")
  log "starting munged"
  if ! munged "${margs[@]}" 2>"$D/log/munged.stderr"; then
    # a group/world-writable parent without sticky bit makes munged refuse its log file;
    # --force turns that into a warning
    log "munged refused ($(tr '\n' ' ' <"$D/log/munged.stderr")); retrying with --force"
    munged --force "${margs[@]}" || start_failed "munged: $(tail -3 "$D/log/munged.log" 2>/dev/null)"
  fi
  munge -n -S "$SOCK" | unmunge -S "$SOCK" >/dev/null || start_failed "munge self-test"
  pick_ports || start_failed "no free ports"
  write_conf
  export SLURM_CONF=$CONF
  log "starting slurmctld (port $CTLD_PORT) and ${#NODE_NAMES[@]} slurmd (ports from $SLURMD_PORT) in $D"
  slurmctld -f "$CONF" -i || start_failed "slurmctld: $(tail -5 "$D/log/slurmctld.log" 2>/dev/null)"
  for c in "${NODE_NAMES[@]}"; do
    start_slurmd "$c" || start_failed "slurmd of $c: $(tail -5 "$D/log/slurmd-$c.log" 2>/dev/null)"
  done
  local timeout=${SLURM_LOCAL_START_TIMEOUT:-60}
  local fatal logs=("$D/log/slurmctld.log")
  for c in "${NODE_NAMES[@]}"; do logs+=("$D/log/slurmd-$c.log"); done
  for ((i = 0; i < timeout * 5; i++)); do
    # daemons that die after forking (a port in use, a bad setting) say why only in their
    # logs; and sinfo against a dead controller blocks for its message timeout, so look first
    fatal=$(grep -H 'fatal:' "${logs[@]}" 2>/dev/null | head -3 || true)
    [[ -z $fatal ]] || start_failed "$fatal"
    if ((i >= 5)); then
      for pf in $(daemon_pid_files); do
        pid_ours "$pf" || start_failed "$(basename "$pf" .pid) died: $(tail -3 "$D/log/$(basename "$pf" .pid).log")"
      done
    fi
    st=$(nodes_not_idle)
    [[ -z $st ]] && break
    sleep 0.2
  done
  if [[ -n $st ]]; then
    tail -n 15 "${logs[@]}" >&2 || true
    start_failed "nodes not idle after ${timeout}s: $st"
  fi
  log "cluster up in $((($(date +%s%N) - t0) / 1000000)) ms: ${#NODE_NAMES[@]} node(s) idle (${NODE_NAMES[*]}), $(grep -m1 -o 'CPUs=[0-9]*' "$CONF") each"
  if ((created)); then log "cluster directory $D (remove it after 'stop')"; fi
  print_env
}

stop() {
  need_dir
  export SLURM_CONF=$CONF
  local jobs i left
  if pid_ours "$D/run/slurmctld.pid"; then
    # slurmd going away does not end running jobs (slurmstepd survives it): cancel by id first
    # (a bare 'scancel' with no ids or filter cancels nothing)
    jobs=$(squeue -h -o %i 2>/dev/null | tr '\n' ' ' || true)
    if [[ -n ${jobs// /} ]]; then
      log "cancelling jobs $jobs"
      # shellcheck disable=SC2086
      scancel $jobs 2>/dev/null || true
      for ((i = 0; i < 75; i++)); do # KillWait=5: SIGKILL comes 5 s after SIGTERM
        [[ -z $(squeue -h -o %i 2>/dev/null) ]] && break
        sleep 0.2
      done
    fi
  fi
  # every slurmd pid file, also of nodes that a changed SLURM_LOCAL_NODES no longer names
  stop_daemons 15 "$D"/run/slurmd-*.pid "$D/run/slurmctld.pid"
  left=$(cluster_pids | grep -vx "$(cat "$D/munge/munged.pid" 2>/dev/null || echo none)" | tr '\n' ' ' || true)
  if [[ -n ${left// /} ]]; then
    log "killing what is left of the jobs: $left"
    # shellcheck disable=SC2086
    kill -KILL $left 2>/dev/null || true
  fi
  stop_daemons 10 "$D/munge/munged.pid"
  for ((i = 0; i < 20; i++)); do
    left=$(cluster_pids | tr '\n' ' ')
    [[ -z ${left// /} ]] && break
    sleep 0.1
  done
  rm -f "$D"/run/*.pid "$D/munge/munged.pid"
  if [[ -n ${left// /} ]]; then
    log "still running after stop: $(leftovers | tr '\n' ';')"
    return 1
  fi
  log "stopped; nothing of the cluster is running (logs stay in $D)"
}

leftovers() {
  need_dir
  local pid
  for pid in $(cluster_pids); do
    echo "$pid $(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline")"
  done
}

status() {
  need_dir
  export SLURM_CONF=$CONF
  local pf
  for pf in $(daemon_pid_files); do
    if pid_ours "$pf"; then echo "$(basename "$pf" .pid): running (pid $(<"$pf"))"; else echo "$(basename "$pf" .pid): not running"; fi
  done
  if pid_ours "$D/run/slurmctld.pid"; then sinfo -N -l; fi
}

# The final state of a job: jobcomp/filetxt writes one line per finished job, kept for good
# (unlike squeue/scontrol, which forget a job MinJobAge seconds after it ended).
jobstate() {
  need_dir
  local id=${1:?usage: jobstate JOBID} rec="" i
  for ((i = 0; i < 50; i++)); do
    rec=$(grep "^JobId=$id " "$D/log/jobcomp.txt" 2>/dev/null | tail -1 || true)
    [[ -n $rec ]] && break
    sleep 0.2
  done
  [[ -n $rec ]] || { log "job $id has no record in $D/log/jobcomp.txt"; return 1; }
  sed -n 's/.* JobState=\([A-Z_]*\) .* ExitCode=\([0-9:]*\) .*/\1 \2/p' <<<"$rec"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  env) need_dir; print_env ;;
  jobstate) jobstate "${2:-}" ;;
  leftovers) leftovers ;;
  *) echo "usage: $0 start|stop|status|env|jobstate JOBID|leftovers" >&2; exit 2 ;;
esac
