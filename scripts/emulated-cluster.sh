#!/usr/bin/env bash
# emulated-cluster.sh - a cluster of N nodes emulated on this machine, for running nwpio across
# nodes without one: each node has its own host name and its own mounts (namespaces), Open MPI
# and MPICH start ranks on the nodes through an rsh-like agent, Slurm has one slurmd per node,
# and a GlusterFS volume is mounted on every node through the node's own client. Root only.
#
#   scripts/emulated-cluster.sh up [--nodes N] [--slots S] [--no-slurm] [--no-gluster]
#        brings the cluster up (N nodes n1..nN, default 4; S slots per node in the hostfiles,
#        default 1) and prints export lines:  eval "$(scripts/emulated-cluster.sh up)"
#   scripts/emulated-cluster.sh env              the export lines again
#   scripts/emulated-cluster.sh status           nodes, mounts, daemons, processes
#   scripts/emulated-cluster.sh exec NODE CMD... runs CMD on NODE (its host name and mounts)
#   scripts/emulated-cluster.sh volume-set KEY VALUE   gluster volume set (e.g. features.read-only on)
#   scripts/emulated-cluster.sh down             stops everything, removes what up added; exits 1
#                                                if anything of the cluster is left
#
# What up adds, and down removes: the state directory; a marked block in /etc/hosts naming the
# nodes (127.0.0.2 n1, 127.0.0.3 n2, ...) and the storage server (127.0.0.1 nwpio-storage); the
# mount point of the shared volume when missing. Every address used is in 127.0.0.0/8: the nodes
# keep the host's network namespace, and every daemon and MPI library is told to use lo.
#
# Settings (environment):
#   NWPIO_CLUSTER_DIR            the state directory [/run/nwpio-cluster]
#   NWPIO_CLUSTER_SHARED         where every node and the host mount the volume [/mnt/nwpio-shared]
#   NWPIO_CLUSTER_VOLUME         the volume's name [nwpio]
#   NWPIO_CLUSTER_BRICKS         bricks of the distributed volume [2]
#   NWPIO_CLUSTER_VOLUME_OPTIONS "key=value ..." set on the volume before it starts [the
#                                client-side caches off, see below; "" keeps GlusterFS's own]
#   NWPIO_CLUSTER_MOUNT_OPTIONS  more options of every glusterfs mount [entry-timeout=0,
#                                negative-timeout=0,attribute-timeout=0; "" keeps the defaults]
#   NWPIO_CLUSTER_GLUSTER_PORT   glusterd's port [24007]; NWPIO_CLUSTER_BRICK_PORT the bricks'
#                                first port [49152]
#   NWPIO_CLUSTER_NODEFS_SIZE    size of each node's private tmpfs [512m]
#   SLURM_LOCAL_CPUS, SLURM_LOCAL_PARTITION, ... reach slurm/slurm-local.sh, which runs Slurm
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

# The volume as coherent across nodes as Lustre and GPFS keep theirs (a name, its attributes and
# its bytes are seen by every client as soon as another client's call has returned), the file
# systems nwpio's users write to: GlusterFS's FUSE client caches names, attributes and pages
# for about a second by default, as an NFS client does, and a file another node has just
# created or renamed is then not there yet. Set both to "" to test with those caches.
NWPIO_CLUSTER_MOUNT_OPTIONS=${NWPIO_CLUSTER_MOUNT_OPTIONS-entry-timeout=0,negative-timeout=0,attribute-timeout=0}
NWPIO_CLUSTER_VOLUME_OPTIONS=${NWPIO_CLUSTER_VOLUME_OPTIONS-performance.stat-prefetch=off performance.quick-read=off \
performance.io-cache=off performance.read-ahead=off performance.write-behind=off}

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
D=${NWPIO_CLUSTER_DIR:-/run/nwpio-cluster}
D=${D%/}
SHARED=${NWPIO_CLUSTER_SHARED:-/mnt/nwpio-shared}
VOLUME=${NWPIO_CLUSTER_VOLUME:-nwpio}
BRICKS=${NWPIO_CLUSTER_BRICKS:-2}
GLUSTER_PORT=${NWPIO_CLUSTER_GLUSTER_PORT:-24007}
STORAGE_NAME=nwpio-storage
SLURM_LOCAL=$ROOT/slurm/slurm-local.sh
# what the parts need (scripts/test.sh installs the same for CI)
SLURM_PACKAGES=(slurmctld slurmd slurm-client munge)
GLUSTER_PACKAGES=(glusterfs-server glusterfs-client)

emu_log() { echo "[emulated-cluster] $*" >&2; }
die() {
  emu_log "$*"
  exit 1
}

source "$HERE/emulated-cluster/nodes.sh"
source "$HERE/emulated-cluster/gluster.sh"

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# Directories up creates outside $D, removed again by down (only when empty).
made_dir() {
  [[ -d $1 ]] && return 0
  mkdir -p "$1"
  echo "$1" >>"$D/made"
}

# A directory that a tool may create on its own while the cluster runs (libmount's /run/mount at
# the first mount with userspace options): removed by down too when it was not there before.
made_by_tools() { [[ -e $1 ]] || echo "$1" >>"$D/made"; }

# The settings of the cluster in $D (written by up, read by every other command).
state_write() {
  {
    printf 'NODES=%q\n' "$NODES"
    printf 'SLOTS=%q\n' "$SLOTS"
    printf 'WITH_SLURM=%q\n' "$WITH_SLURM"
    printf 'WITH_GLUSTER=%q\n' "$WITH_GLUSTER"
    printf 'SHARED=%q\n' "$SHARED"
    printf 'VOLUME=%q\n' "$VOLUME"
    printf 'GLUSTER_PORT=%q\n' "$GLUSTER_PORT"
  } >"$D/cluster.env"
}

state_load() {
  [[ -f $D/cluster.env ]] || die "no cluster in $D (up first, or set NWPIO_CLUSTER_DIR)"
  # shellcheck source=/dev/null
  source "$D/cluster.env"
}

print_env() {
  local agent=$D/bin/nwpio-rsh
  printf 'export NWPIO_CLUSTER_DIR=%q\n' "$D"
  printf 'export NWPIO_CLUSTER_NODES=%q\n' "$NODES"
  printf 'export NWPIO_CLUSTER_AGENT=%q\n' "$agent"
  printf 'export NWPIO_CLUSTER_HOSTFILE=%q\n' "$D/hostfile"
  # MPICH's Hydra: flags, not HYDRA_LAUNCHER/HYDRA_LAUNCHER_EXEC, which would also replace its
  # srun launcher inside Slurm jobs; the hostfile apart (Hydra takes one -f only)
  printf 'export NWPIO_CLUSTER_HYDRA_FLAGS=%q\n' "-launcher rsh -launcher-exec $agent"
  printf 'export NWPIO_CLUSTER_HYDRA_HOSTFILE=%q\n' "$D/hostfile.hydra"
  printf 'export OMPI_MCA_plm_rsh_agent=%q\n' "$agent"
  # each orted is started from the host: a node cannot reach the other nodes' namespaces
  echo "export OMPI_MCA_plm_rsh_no_tree_spawn=1"
  echo "export OMPI_MCA_btl=self,vader,tcp"
  echo "export OMPI_MCA_btl_tcp_if_include=lo"
  echo "export OMPI_MCA_oob_tcp_if_include=lo"
  # the cluster runs as root, and so do its jobs
  echo "export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
  # UCX (MPICH's transport): no device but lo, should it ever choose TCP
  echo "export UCX_NET_DEVICES=lo"
  if ((WITH_GLUSTER)); then
    printf 'export NWPIO_CLUSTER_SHARED=%q\n' "$SHARED"
    printf 'export NWPIO_CLUSTER_VOLUME=%q\n' "$VOLUME"
  fi
  if ((WITH_SLURM)); then cat "$D/slurm.env"; fi
}

hostfiles_write() {
  local n
  for n in $NODES; do echo "$n slots=$SLOTS"; done >"$D/hostfile"
  for n in $NODES; do echo "$n:$SLOTS"; done >"$D/hostfile.hydra"
}

# True when any process or namespace of the cluster in $D is alive.
cluster_alive() {
  local f
  for f in "$D"/ns/*.mnt; do ns_file_live "$f" && return 0; done
  [[ -n $(cluster_pids) ]]
}

port_in_use() { [[ -n $(ss -Hltn "sport = :$1" 2>/dev/null) ]]; }

up_usage() { die "usage: $0 up [--nodes N] [--slots S] [--no-slurm] [--no-gluster]"; }

UP_STEP=""
# A failed up leaves nothing behind: down removes whatever was made.
up_exit() {
  local rc=$?
  ((rc == 0)) && return 0
  emu_log "up failed while ${UP_STEP:-starting} (exit $rc); bringing down what was started"
  down >&2 || true
  exit "$rc"
}

up() {
  local nnodes=4 i n t0 hosts=() taken
  SLOTS=1 WITH_SLURM=1 WITH_GLUSTER=1
  while (($#)); do
    case $1 in
      --nodes) (($# >= 2)) || up_usage; nnodes=$2; shift 2 ;;
      --nodes=*) nnodes=${1#*=}; shift ;;
      --slots) (($# >= 2)) || up_usage; SLOTS=$2; shift 2 ;;
      --slots=*) SLOTS=${1#*=}; shift ;;
      --no-slurm) WITH_SLURM=0; shift ;;
      --no-gluster) WITH_GLUSTER=0; shift ;;
      *) up_usage ;;
    esac
  done
  if ! [[ $nnodes =~ ^[1-9][0-9]*$ ]] || ((nnodes > 250)); then die "--nodes must be 1 to 250, not '$nnodes'"; fi
  [[ $SLOTS =~ ^[1-9][0-9]*$ ]] || die "--slots must be a positive count, not '$SLOTS'"
  [[ $BRICKS =~ ^[1-9][0-9]*$ ]] || die "NWPIO_CLUSTER_BRICKS must be a positive count, not '$BRICKS'"
  [[ $(id -u) == 0 ]] || die "up needs root (namespaces, mounts, /etc/hosts)"
  # the daemons' unix sockets live under it (munge's, glusterd's): 108 bytes at most
  if [[ $D != /* ]] || ((${#D} > 70)); then die "NWPIO_CLUSTER_DIR must be an absolute path of 70 characters at most: $D"; fi
  NODES=$(for ((i = 1; i <= nnodes; i++)); do printf 'n%d ' "$i"; done)
  NODES=${NODES% }

  source "$HERE/setup.sh"
  local packages=()
  ((WITH_SLURM)) && packages+=("${SLURM_PACKAGES[@]}")
  ((WITH_GLUSTER)) && packages+=("${GLUSTER_PACKAGES[@]}")
  ((${#packages[@]})) && nwpio_install_only "${packages[@]}"

  if cluster_alive; then
    # shellcheck source=/dev/null
    die "a cluster is up in $D (nodes $(. "$D/cluster.env" 2>/dev/null && echo "$NODES")): run down first"
  fi
  if [[ -e $D ]] || hosts_block_present; then
    emu_log "removing the remains of an earlier cluster in $D"
    down || die "the remains of the earlier cluster in $D could not be removed"
  fi
  local names
  read -ra names <<<"$NODES"
  ((WITH_GLUSTER)) && names+=("$STORAGE_NAME")
  taken=$(hosts_names_taken "${names[@]}" | tr '\n' ' ')
  [[ -z $taken ]] || die "/etc/hosts already names $taken(another emulated cluster?): down that one first"
  if ((WITH_GLUSTER)) && port_in_use "$GLUSTER_PORT"; then
    die "port $GLUSTER_PORT (glusterd) is in use: set NWPIO_CLUSTER_GLUSTER_PORT"
  fi

  t0=$(now_ms)
  trap up_exit EXIT
  UP_STEP="creating the nodes"
  mkdir -p "$D/log"
  chmod 755 "$D"
  state_write
  made_by_tools /run/mount
  ((WITH_GLUSTER)) && hosts+=("127.0.0.1 $STORAGE_NAME")
  for n in $NODES; do hosts+=("$(node_addr "$n") $n"); done
  hosts_add "${hosts[@]}"
  ns_dir_prepare
  for n in $NODES; do node_create "$n"; done
  agent_write
  hostfiles_write
  emu_log "nodes $NODES up ($(($(now_ms) - t0)) ms)"

  if ((WITH_GLUSTER)); then
    UP_STEP="starting GlusterFS"
    made_dir "$SHARED"
    gluster_start
    UP_STEP="mounting the volume on the nodes"
    for n in $NODES; do gluster_mount "$n"; done
    # the host last: a namespace made after this mount would hold a copy of it
    gluster_mount host
    emu_log "volume $VOLUME mounted at $SHARED on the host and on every node ($(($(now_ms) - t0)) ms)"
  fi

  if ((WITH_SLURM)); then
    UP_STEP="starting Slurm"
    local slurm_nodes=""
    for n in $NODES; do slurm_nodes+="$n=$(node_addr "$n") "; done
    SLURM_LOCAL_DIR=$D/slurm SLURM_LOCAL_NODES=$slurm_nodes SLURM_LOCAL_NODE_EXEC=$D/bin/nwpio-rsh \
      SLURM_LOCAL_TMPFS=$D/nodefs/tmp bash "$SLURM_LOCAL" start >"$D/slurm.env"
  fi
  UP_STEP=""
  trap - EXIT
  emu_log "cluster up in $(($(now_ms) - t0)) ms: $nnodes node(s)$( ((WITH_SLURM)) && echo ", Slurm")$( ((WITH_GLUSTER)) && echo ", GlusterFS at $SHARED")"
  print_env
}

# What is left of the cluster, one line each (nothing: all gone); $1: directories up made.
leftovers() {
  local pid d
  for d in ${1:-}; do
    if [[ -e $d ]]; then echo "directory $d (made by up)"; fi
  done
  for pid in $(cluster_pids); do
    echo "process $pid: $(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline")"
  done
  grep -F -e " $D/" -e " $D " /proc/self/mountinfo | awk '{print "mount " $5}' || true
  if findmnt -n -t fuse.glusterfs "$SHARED" >/dev/null 2>&1; then echo "mount $SHARED (GlusterFS)"; fi
  if hosts_block_present; then echo "/etc/hosts block '$(hosts_marker)'"; fi
  if [[ -e $D ]]; then echo "state directory $D"; fi
  return 0
}

down() {
  local t0 left n d made=""
  t0=$(now_ms)
  if [[ ! -e $D ]] && ! hosts_block_present; then
    emu_log "no cluster in $D"
    return 0
  fi
  if [[ -f $D/cluster.env ]]; then
    # shellcheck source=/dev/null
    source "$D/cluster.env"
  fi
  if [[ -f $D/slurm/etc/slurm.conf ]]; then
    SLURM_LOCAL_DIR=$D/slurm bash "$SLURM_LOCAL" stop || emu_log "Slurm left processes behind (killed below)"
  fi
  for n in host $(nodes_present); do gluster_unmount "$n"; done
  kill_cluster_pids 5 || true
  nodes_release
  hosts_remove
  if [[ -f $D/made ]]; then
    made=$(tac "$D/made")
    for d in $made; do rmdir "$d" 2>/dev/null || true; done
  fi
  if grep -qF -e " $D/" /proc/self/mountinfo; then
    emu_log "something is still mounted under $D: keeping it"
  else
    rm -rf "$D"
  fi
  left=$(leftovers "$made")
  if [[ -n $left ]]; then
    emu_log "still there after down:"
    echo "    ${left//$'\n'/$'\n'    }" >&2
    return 1
  fi
  emu_log "down in $(($(now_ms) - t0)) ms: nothing of the cluster is left"
}

status() {
  state_load
  local n pid
  echo "cluster in $D: nodes $NODES, $SLOTS slot(s) each"
  for n in $NODES; do
    if ! ns_file_live "$D/ns/$n.mnt"; then
      echo "  $n: namespace gone"
      continue
    fi
    pid=$(gluster_client_pid "$n" || true)
    echo "  $n $(node_addr "$n"): hostname $("$D/bin/nwpio-rsh" "$n" hostname)$( ((WITH_GLUSTER)) &&
      echo ", $SHARED: $(nsenter --mount="$D/ns/$n.mnt" findmnt -n -o SOURCE,FSTYPE "$SHARED" || echo "not mounted") (client pid ${pid:-none})")"
  done
  if ((WITH_GLUSTER)); then
    echo "host: $SHARED: $(findmnt -n -o SOURCE,FSTYPE "$SHARED" || echo "not mounted") (client pid $(gluster_client_pid host || echo none))"
    gluster_cli volume status "$VOLUME" || true
  fi
  if ((WITH_SLURM)); then SLURM_LOCAL_DIR=$D/slurm bash "$SLURM_LOCAL" status || true; fi
  echo "processes:"
  for pid in $(cluster_pids); do echo "  $pid $(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline")"; done
}

case ${1:-} in
  up) shift; up "$@" ;;
  down) down ;;
  env) state_load; print_env ;;
  status) status ;;
  exec)
    (($# >= 3)) || die "usage: $0 exec NODE COMMAND..."
    state_load
    node=$2
    shift 2
    # the agent joins its words for /bin/sh -c, as rsh does: quote them so the command keeps them
    exec "$D/bin/nwpio-rsh" "$node" "$(printf '%q ' "$@")"
    ;;
  volume-set)
    (($# == 3)) || die "usage: $0 volume-set KEY VALUE"
    state_load
    ((WITH_GLUSTER)) || die "the cluster in $D has no GlusterFS (up without --no-gluster)"
    gluster_cli volume set "$VOLUME" "$2" "$3"
    ;;
  *) die "usage: $0 up [--nodes N] [--slots S] [--no-slurm] [--no-gluster] | env | status | exec NODE CMD... | volume-set KEY VALUE | down" ;;
esac
