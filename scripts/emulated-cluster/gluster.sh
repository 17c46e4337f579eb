# shellcheck shell=bash
# The shared file system of the emulated cluster (scripts/emulated-cluster.sh; sourced, not run):
# GlusterFS, a storage server on 127.0.0.1 and one FUSE client per node, each inside its node's
# mount namespace, all at the same path; the host (the login node) mounts the volume there too.
#
# glusterd runs in a mount namespace of its own (the "storage server", $D/ns/storage.mnt) in
# which $D/gluster/sys/lib and $D/gluster/sys/run are bound over /var/lib/glusterd and
# /run/gluster: glusterd and its bricks write a few files there whatever their volfile says (the
# geo-replication template, the bricks' sockets), and these land in the state directory instead.
# Everything else is set in $D/gluster/glusterd.vol: working directory, run directory, logs and
# the CLI's socket under $D, listening on 127.0.0.1 only (the bricks inherit the address).
# Needs D, SHARED, VOLUME, BRICKS, GLUSTER_PORT, STORAGE_NAME, emu_log and ns_file_live.

gluster_cli() {
  nsenter --mount="$D/ns/storage.mnt" gluster --mode=script --glusterd-sock="$D/gluster/run/glusterd.socket" \
    --log-file="$D/log/gluster-cli.log" "$@"
}

# The directories glusterd writes to whatever it is told: created when missing (and then removed
# by down, recorded in $D/made), so that the storage namespace can bind over them.
gluster_system_dirs() { echo /var/lib/glusterd "$(readlink -f /var/run)/gluster"; }

gluster_storage_create() {
  local lib run
  read -r lib run <<<"$(gluster_system_dirs)"
  mkdir -p "$D/gluster/sys/lib" "$D/gluster/sys/run" "$D/gluster/lib" "$D/gluster/run" "$D/log"
  made_dir "$lib"
  made_dir "$run"
  : >"$D/ns/storage.mnt"
  unshare --mount="$D/ns/storage.mnt" --propagation private /bin/sh -ec "
    umount -l '$D/ns'
    mount --bind '$D/gluster/sys/lib' '$lib'
    mount --bind '$D/gluster/sys/run' '$run'"
}

gluster_write_vol() {
  cat >"$D/gluster/glusterd.vol" <<EOF
# glusterd of the emulated cluster in $D (scripts/emulated-cluster.sh)
volume management
    type mgmt/glusterd
    option working-directory $D/gluster/lib
    option run-directory $D/gluster/run
    option logging-directory $D/log/gluster
    option glusterd-sockfile $D/gluster/run/glusterd.socket
    option transport-type socket
    option transport.address-family inet
    option transport.socket.bind-address 127.0.0.1
    option transport.socket.listen-port $GLUSTER_PORT
    option transport.socket.read-fail-log off
    option ping-timeout 0
    option event-threads 1
    option base-port ${NWPIO_CLUSTER_BRICK_PORT:-49152}
    option max-port $((${NWPIO_CLUSTER_BRICK_PORT:-49152} + 99))
end-volume
EOF
}

# glusterd, the volume (BRICKS bricks, distributed; `force`: bricks on the root file system) and
# the options of NWPIO_CLUSTER_VOLUME_OPTIONS ("key=value ...").
gluster_start() {
  local i brick_args=() kv t0=$SECONDS
  gluster_storage_create
  gluster_write_vol
  mkdir -p "$D/log/gluster"
  # glusterd returns once it listens (about 3 s: it probes for geo-replication first)
  nsenter --mount="$D/ns/storage.mnt" glusterd -f "$D/gluster/glusterd.vol" -l "$D/log/gluster/glusterd.log" \
    -p "$D/gluster/run/glusterd.pid"
  for ((i = 1; i <= BRICKS; i++)); do
    mkdir -p "$D/gluster/bricks/b$i"
    brick_args+=("$STORAGE_NAME:$D/gluster/bricks/b$i")
  done
  gluster_cli volume create "$VOLUME" "${brick_args[@]}" force >/dev/null
  for kv in ${NWPIO_CLUSTER_VOLUME_OPTIONS:-}; do
    gluster_cli volume set "$VOLUME" "${kv%%=*}" "${kv#*=}" >/dev/null
  done
  gluster_cli volume start "$VOLUME" >/dev/null
  emu_log "glusterd and volume $VOLUME ($BRICKS bricks) up in $((SECONDS - t0)) s"
}

# Mounts the volume at SHARED through a client of its own: in node $1's mount namespace, or on
# the host for "host".
gluster_mount() {
  local where=$1 enter=()
  [[ $where == host ]] || enter=(nsenter --mount="$D/ns/$where.mnt")
  "${enter[@]}" mount -t glusterfs \
    -o "log-file=$D/log/gluster/client-$where.log,server-port=$GLUSTER_PORT${NWPIO_CLUSTER_MOUNT_OPTIONS:+,$NWPIO_CLUSTER_MOUNT_OPTIONS}" \
    "127.0.0.1:/$VOLUME" "$SHARED"
}

# Unmounts the volume from SHARED in node $1's namespace (or the host's): a client that no
# longer answers, or a busy mount, is detached lazily.
gluster_unmount() {
  local where=$1 enter=()
  if [[ $where != host ]]; then
    ns_file_live "$D/ns/$where.mnt" || return 0
    enter=(nsenter --mount="$D/ns/$where.mnt")
  fi
  [[ $("${enter[@]}" findmnt -n -o SOURCE -t fuse.glusterfs "$SHARED" 2>/dev/null) == "127.0.0.1:/$VOLUME" ]] || return 0
  "${enter[@]}" umount "$SHARED" 2>/dev/null || "${enter[@]}" umount -l "$SHARED"
}

# The pid of the glusterfs client of $1 (a node or "host"), found by its log file.
gluster_client_pid() {
  local p comm args=()
  for p in /proc/[0-9]*; do
    read -r comm 2>/dev/null <"$p/comm" || continue
    [[ $comm == glusterfs ]] || continue
    mapfile -d '' -t args 2>/dev/null <"$p/cmdline" || continue
    if [[ " ${args[*]} " == *"--log-file=$D/log/gluster/client-$1.log "* ]]; then
      echo "${p#/proc/}"
      return 0
    fi
  done
  return 1
}
