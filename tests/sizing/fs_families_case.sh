#!/usr/bin/env bash
# nwpio-check --plan --fs: every file-system family, by its name and by the mount table's names
# for it, plans with that family's shipped profile and starts its writer count from the family's
# rule (docs/SIZING.md), computed here from the run's shape; a type nwpio does not know is a
# usage error naming the families.
#   fs_families_case.sh CHECK SOURCE_DIR WORKDIR
set -euo pipefail
check=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ranks=24 per_node=4
nodes=$(((ranks + per_node - 1) / per_node))
cp "$src/configs/namelist.input.demo" namelist.input
for pair in lustre:lustre gpfs:gpfs nfs:nfs nfs4:nfs glusterfs:glusterfs fuse.glusterfs:glusterfs beegfs:beegfs \
  cephfs:cephfs ceph:cephfs fuse.ceph-fuse:cephfs local:local ext4:local tmpfs:local; do
  fs=${pair%%:*} family=${pair#*:}
  out=$("$check" --plan namelist.input --ranks $ranks --ranks-per-node $per_node --fs "$fs" --json plan.json 2>&1) ||
    { echo "$out"; echo "FAIL: --fs $fs refused"; exit 1; }
  grep -qF "configs/hints/$family.toml" <<<"$out" || { echo "$out"; echo "FAIL: --fs $fs did not plan with $family.toml"; exit 1; }
  read -r got_family stripes writers < <(python3 -c 'import json,sys
j = json.load(open("plan.json")); d = j["domains"][0]
print(j["fs_family"], d["stripe_count"], d["writer_ranks_recommended"])')
  [[ $got_family == "$family" ]] || { echo "FAIL: --fs $fs: family $got_family, expected $family"; exit 1; }
  # The family's rule (one round per frame at this size, so nothing is added to it).
  case $family in
    lustre | beegfs) want=$((stripes > 0 ? 2 * stripes : nodes)) ;;
    nfs | glusterfs) want=$((nodes < 4 ? nodes : 4)) ;;
    gpfs | cephfs) want=$nodes ;;
    local) want=2 ;;
  esac
  ((want > ranks)) && want=$ranks
  ((writers == want)) || { echo "$out"; echo "FAIL: --fs $fs: $writers writers advised, the $family rule gives $want"; exit 1; }
  echo "ok: --fs $fs: $family.toml, $writers writers"
done
if out=$("$check" --plan namelist.input --ranks $ranks --ranks-per-node $per_node --fs fuse.sshfs 2>&1); then
  echo "$out"; echo "FAIL: --fs fuse.sshfs accepted"; exit 1
else
  rc=$?
  ((rc == 2)) || { echo "$out"; echo "FAIL: --fs fuse.sshfs: exit $rc, expected 2 (usage)"; exit 1; }
  grep -qF "lustre, gpfs, nfs, glusterfs, beegfs, cephfs, local" <<<"$out" || { echo "$out"; echo "FAIL: the refusal does not name the families"; exit 1; }
fi
echo "PASS: nwpio-check --plan --fs takes every family and its mount types"
