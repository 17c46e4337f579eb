#!/usr/bin/env bash
# slurm-local.sh - a throw-away single-node Slurm cluster on this host, for trying the job
# scripts in slurm/ and for the test suite (tests/slurm). Debian 12 packages, no systemd:
# munged, slurmctld and slurmd are started directly, everything lives in one directory.
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
#   SLURM_LOCAL_CPUS       CPUs the node advertises [max(nproc,4)], so that the -n 4 jobs of
#                          the tests run on a 2-core machine (config_overrides)
#   SLURM_LOCAL_CTLD_PORT, SLURM_LOCAL_SLURMD_PORT  [first free pair from 6817/6818 upwards]
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

pick_ports() {
  local used p
  used=" $(listening_ports | tr '\n' ' ') "
  if [[ -n ${SLURM_LOCAL_CTLD_PORT:-} || -n ${SLURM_LOCAL_SLURMD_PORT:-} ]]; then
    CTLD_PORT=${SLURM_LOCAL_CTLD_PORT:-6817} SLURMD_PORT=${SLURM_LOCAL_SLURMD_PORT:-6818}
    return 0
  fi
  for ((p = 6817; p < 6917; p += 2)); do
    if [[ $used != *" $p "* && $used != *" $((p + 1)) "* ]]; then
      CTLD_PORT=$p SLURMD_PORT=$((p + 1))
      return 0
    fi
  done
  log "no free port pair in 6817-6917"
  return 1
}

write_conf() {
  local ncpu cpus mem overrides="" user
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
SlurmdSpoolDir=${D}/spool
SlurmctldPidFile=${D}/run/slurmctld.pid
SlurmdPidFile=${D}/run/slurmd.pid
SlurmctldLogFile=${D}/log/slurmctld.log
SlurmdLogFile=${D}/log/slurmd.log
# srun --mpi=pmix makes its spmix_appdir_* here
TmpFS=${D}/tmp
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
NodeName=${HOST} NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=${mem} State=UNKNOWN
PartitionName=${PART} Nodes=${HOST} Default=YES MaxTime=INFINITE State=UP
EOF
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
  if pid_ours "$D/run/slurmctld.pid" || pid_ours "$D/run/slurmd.pid" || pid_ours "$D/munge/munged.pid"; then
    log "a cluster is already running in $D (stop it first)"
    exit 1
  fi
  # a unix socket path is limited to 108 bytes
  ((${#SOCK} < 100)) || { log "directory path too long for the munge socket: $SOCK"; exit 1; }
  t0=$(date +%s%N)
  mkdir -p "$D"/{etc,state,spool,log,run,munge,tmp}
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
  log "starting slurmctld (port $CTLD_PORT) and slurmd (port $SLURMD_PORT) in $D"
  slurmctld -f "$CONF" -i || start_failed "slurmctld: $(tail -5 "$D/log/slurmctld.log" 2>/dev/null)"
  slurmd -f "$CONF" -N "$HOST" || start_failed "slurmd: $(tail -5 "$D/log/slurmd.log" 2>/dev/null)"
  local timeout=${SLURM_LOCAL_START_TIMEOUT:-60}
  local fatal
  for ((i = 0; i < timeout * 5; i++)); do
    # daemons that die after forking (a port in use, a bad setting) say why only in their
    # logs; and sinfo against a dead controller blocks for its message timeout, so look first
    fatal=$(grep -h 'fatal:' "$D/log/slurmctld.log" "$D/log/slurmd.log" 2>/dev/null | head -3 || true)
    [[ -z $fatal ]] || start_failed "$fatal"
    if ((i >= 5)); then
      pid_ours "$D/run/slurmctld.pid" || start_failed "slurmctld died: $(tail -3 "$D/log/slurmctld.log")"
      pid_ours "$D/run/slurmd.pid" || start_failed "slurmd died: $(tail -3 "$D/log/slurmd.log")"
    fi
    st=$(timeout 10 sinfo -h -N -n "$HOST" -o %T 2>/dev/null || true)
    [[ $st == idle ]] && break
    sleep 0.2
  done
  if [[ $st != idle ]]; then
    tail -n 15 "$D/log/slurmctld.log" "$D/log/slurmd.log" >&2 || true
    start_failed "node is '$st' after ${timeout}s"
  fi
  log "cluster up in $((($(date +%s%N) - t0) / 1000000)) ms: node $HOST idle, $(grep -o 'CPUs=[0-9]*' "$CONF")"
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
  stop_daemons 15 "$D/run/slurmd.pid" "$D/run/slurmctld.pid"
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
  for pf in munge/munged run/slurmctld run/slurmd; do
    if pid_ours "$D/$pf.pid"; then echo "${pf#*/}: running (pid $(<"$D/$pf.pid"))"; else echo "${pf#*/}: not running"; fi
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
