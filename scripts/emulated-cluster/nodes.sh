# shellcheck shell=bash
# The nodes of the emulated cluster (scripts/emulated-cluster.sh; sourced, not run). Node nI is a
# UTS namespace (its host name) and a mount namespace (its own mounts: a private tmpfs, its own
# file-system client), both kept alive by bind mounts of their nsfs files:
#   $D/ns/nI.uts, $D/ns/nI.mnt   on $D/ns, a private bind mount of itself (an nsfs file cannot
#                                be bound onto a shared mount)
#   $D/nodefs                    empty on the host; each node mounts its private tmpfs there
# The network namespace is the host's: node nI has the loopback address 127.0.0.(I+1), named in
# one marked block of /etc/hosts, so every address any daemon or MPI library uses is in 127/8.
# Needs D (the state directory) and emu_log from the caller.

NODE_FS_SIZE=${NWPIO_CLUSTER_NODEFS_SIZE:-512m}

node_addr() { echo "127.0.0.$((${1#n} + 1))"; }

hosts_marker() { echo "# nwpio emulated cluster $D"; }

# The nodes the state directory holds namespaces for (also after a partial up), in order.
nodes_present() {
  local f
  for f in "$D"/ns/n*.mnt; do [[ -e $f ]] && basename "$f" .mnt; done | sort -V
}

# True when $1 is a mounted nsfs file (a namespace kept alive), not the empty file under it.
ns_file_live() { [[ -e $1 && $(stat -f -c %T "$1" 2>/dev/null) == nsfs ]]; }

# Names the block would add that /etc/hosts (files only: a DNS query would leave 127/8) already
# resolves: another cluster or the machine's own names.
hosts_names_taken() {
  local name
  for name in "$@"; do
    getent -s files hosts "$name" >/dev/null && echo "$name"
  done
  return 0
}

# Writes /etc/hosts in place (it may be a bind mount, which a rename would fail on).
hosts_write() {
  local content
  content=$(cat)
  printf '%s\n' "$content" >/etc/hosts
}

hosts_add() { # hosts_add "ADDRESS NAME"...
  local marker line
  marker=$(hosts_marker)
  {
    cat /etc/hosts
    echo "$marker BEGIN"
    for line in "$@"; do echo "$line"; done
    echo "$marker END"
  } | hosts_write
}

hosts_remove() {
  local marker
  marker=$(hosts_marker)
  grep -qxF "$marker BEGIN" /etc/hosts || return 0
  awk -v b="$marker BEGIN" -v e="$marker END" '$0 == b {skip = 1} !skip {print} $0 == e {skip = 0}' /etc/hosts | hosts_write
}

hosts_block_present() { grep -qF "$(hosts_marker)" /etc/hosts; }

# The private mount that holds the namespace files.
ns_dir_prepare() {
  mkdir -p "$D/ns" "$D/nodefs"
  if ! mountpoint -q "$D/ns"; then
    mount --bind "$D/ns" "$D/ns"
    mount --make-private "$D/ns"
  fi
}

# Node $1: its namespaces, its host name, its private tmpfs with the TmpFS directory Slurm uses.
# Inside, the copy of $D/ns goes (lazily): it holds the other nodes' UTS files, which would keep
# their namespaces alive after down.
node_create() {
  local n=$1
  : >"$D/ns/$n.uts"
  : >"$D/ns/$n.mnt"
  unshare --uts="$D/ns/$n.uts" --mount="$D/ns/$n.mnt" --propagation private /bin/sh -ec "
    hostname $n
    umount -l '$D/ns'
    mount -t tmpfs -o mode=755,size=$NODE_FS_SIZE nwpio-$n '$D/nodefs'
    mkdir -m 1777 '$D/nodefs/tmp'"
}

# The rsh-like agent: `nwpio-rsh NODE COMMAND...` runs the words of COMMAND, joined by spaces, with
# /bin/sh -c on NODE, as `rsh NODE COMMAND` does; Open MPI's plm_rsh_agent and Hydra's
# -launcher-exec call it so. The working directory and the environment are kept.
agent_write() {
  mkdir -p "$D/bin"
  cat >"$D/bin/nwpio-rsh" <<EOF
#!/bin/sh
# nwpio-rsh NODE COMMAND...: runs COMMAND on node NODE of the emulated cluster in $D
# (written by scripts/emulated-cluster.sh up).
node=\${1:?usage: nwpio-rsh NODE COMMAND...}
shift
ns=$D/ns/\$node
if [ -z "\${node##*/*}" ] || [ ! -e "\$ns.uts" ]; then
  echo "nwpio-rsh: no node '\$node' in $D" >&2
  exit 255
fi
if [ "\$(stat -f -c %T "\$ns.mnt" 2>/dev/null)" != nsfs ]; then
  # inside a node the other nodes' namespace files are not mounted (a mount namespace copies no
  # nsfs mount of a mount namespace): only the host reaches the nodes
  echo "nwpio-rsh: node '\$node' cannot be reached from here, only from the host of $D" >&2
  exit 255
fi
exec nsenter --uts="\$ns.uts" --mount="\$ns.mnt" --wd="\$PWD" /bin/sh -c "\$*"
EOF
  chmod 755 "$D/bin/nwpio-rsh"
}

# Every process of the cluster, except this shell and its ancestors: command lines that name
# $D/ (daemons, file-system clients, bricks) and processes inside a node's or the storage
# server's mount namespace (slurmd's jobs, ranks, whatever `exec` left running).
cluster_pids() {
  local p pid a=$BASHPID skip=" " args=() ns=() f
  while [[ $a -gt 1 ]]; do
    skip+="$a "
    a=$(awk '{print $4}' "/proc/$a/stat" 2>/dev/null || echo 1)
  done
  for f in "$D"/ns/*.mnt; do ns_file_live "$f" && ns+=("$f"); done
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    [[ $skip == *" $pid "* ]] && continue
    mapfile -d '' -t args 2>/dev/null <"$p/cmdline" || continue
    ((${#args[@]})) || continue # kernel threads
    if [[ " ${args[*]} " == *"$D/"* ]]; then
      echo "$pid"
      continue
    fi
    for f in "${ns[@]}"; do
      if [[ $p/ns/mnt -ef $f ]]; then
        echo "$pid"
        break
      fi
    done
  done
}

# TERM every process of the cluster, KILL what is left after $1 s; true when none is left.
kill_cluster_pids() {
  local t=$1 pids i
  pids=$(cluster_pids | tr '\n' ' ')
  [[ -z ${pids// /} ]] && return 0
  emu_log "stopping $(wc -w <<<"$pids") process(es) of the cluster"
  # shellcheck disable=SC2086
  kill -TERM $pids 2>/dev/null || true
  for ((i = 0; i < t * 10; i++)); do
    pids=$(cluster_pids | tr '\n' ' ')
    [[ -z ${pids// /} ]] && return 0
    sleep 0.1
  done
  emu_log "sending KILL to: $pids"
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null || true
  sleep 0.2
  [[ -z $(cluster_pids) ]]
}

# Unmounts the namespace files (the namespaces go with their last process) and their directory.
nodes_release() {
  local f
  for f in "$D"/ns/*; do
    [[ -e $f ]] || continue
    if ns_file_live "$f"; then umount "$f" 2>/dev/null || umount -l "$f"; fi
  done
  if mountpoint -q "$D/ns" 2>/dev/null; then umount "$D/ns" 2>/dev/null || umount -l "$D/ns"; fi
}
