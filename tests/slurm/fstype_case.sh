#!/usr/bin/env bash
# slurm/output_dir.sh's file-system detection on real stacked mounts, in a private mount
# namespace (unshare -m) so nothing is left mounted: two mounts on one point (findmnt --target
# lists both), the profile chosen per family, OUTPUT_FSTYPE, BeeGFS striping through a stand-in
# beegfs-ctl; and nwpio's own hint report (nwpio-demo) names the same type as the script.
#   fstype_case.sh SOURCE_DIR DEMO WORKDIR
# Needs root (mounts); exits 77 (skipped) where the sandbox refuses a mount namespace.
set -euo pipefail
src=$(cd "$1" && pwd) demo=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

if ! unshare -m --propagation private true 2>/dev/null; then
  echo "SKIP: no private mount namespace here (unshare -m refused)"
  exit 77
fi

# The rest runs inside the namespace; its mounts vanish with it.
exec unshare -m --propagation private bash -s -- "$src" "$demo" "$work" <<'INNER'
set -euo pipefail
src=$1 demo=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
# shellcheck source=/dev/null
NWPIO_DATA=$src
source "$src/slurm/output_dir.sh"

# The type of the mount that holds DIR, from the kernel's own table: the entry with the longest
# mount point containing DIR that no other entry on that point has as its parent.
kernel_type() {
  python3 - "$1" <<'EOF'
import os, sys
path = os.path.realpath(sys.argv[1])
def unescape(s):
    return s.encode().decode('unicode_escape')
rows = []
for line in open('/proc/self/mountinfo'):
    f = line.split()
    dash = f.index('-', 6)
    rows.append((int(f[0]), int(f[1]), unescape(f[4]), f[dash + 1]))
def holds(mp):
    return mp == '/' or path == mp or path.startswith(mp + '/')
best = max(len(mp) for _, _, mp, _ in rows if holds(mp))
stack = [r for r in rows if holds(r[2]) and len(r[2]) == best]
top = [r for r in stack if not any(o[1] == r[0] for o in stack if o is not r)]
print(top[-1][3])
EOF
}

choose() {  # DIR -> "HINTS_FILE HINTS_PROFILE" as the job scripts choose them
  local HINTS_FILE='' HINTS_PROFILE='' HINTS_CHOSEN_BY=''
  nwpio_choose_hints "$1"
  echo "$(basename "$HINTS_FILE") $HINTS_PROFILE"
}

# 1. A tmpfs over a tmpfs: findmnt --target prints two lines.
a=$work/stacked_tmpfs && mkdir -p "$a"
mount -t tmpfs lower "$a" && mount -t tmpfs upper "$a"
lines=$(findmnt -n -o FSTYPE --target "$a" | wc -l)
((lines == 2)) || fail "expected findmnt to list 2 stacked mounts on $a, got $lines"
want=$(kernel_type "$a/out")
[[ $(nwpio_fstype "$a/out") == "$want" ]] || fail "nwpio_fstype $a/out = '$(nwpio_fstype "$a/out")', kernel says '$want'"
[[ $(choose "$a/out") == "local.toml tmpfs" ]] || fail "tmpfs over tmpfs chose '$(choose "$a/out")'"
echo "ok: tmpfs over tmpfs: $want, local.toml [tmpfs]"

# 2. Different types stacked, both orders: the one mounted last holds the directory.
for order in "ramfs tmpfs" "tmpfs ramfs"; do
  read -r lower upper <<<"$order"
  d=$work/stacked_${lower}_${upper} && mkdir -p "$d"
  mount -t "$lower" lower "$d" && mount -t "$upper" upper "$d"
  want=$(kernel_type "$d")
  [[ $want == "$upper" ]] || fail "the kernel's table says $want holds $d, expected the last mount ($upper)"
  got=$(nwpio_fstype "$d/not/yet/made")
  [[ $got == "$upper" ]] || fail "$upper over $lower: nwpio_fstype said '$got'"
  profile=default
  [[ $upper == tmpfs ]] && profile=tmpfs
  [[ $(choose "$d") == "local.toml $profile" ]] || fail "$upper over $lower chose '$(choose "$d")'"
  # nwpio's own report, on the same stacked mount, names the same type (its statistics JSON: every
  # build has io_form 2, and the report probes the file system whatever the io_form).
  log=$("$demo" --e-we 21 --e-sn 17 --e-vert 5 --frames 1 --io-form 2 --output-dir "$d/out" --stats-json "$d/stats.json" 2>&1) ||
    { echo "$log"; fail "nwpio-demo on $d"; }
  reported=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
print(" ".join(v["file_system"]["type"] + "/" + v["file_system"]["family"] for k, v in j.items() if k.startswith("hints:")))' "$d/stats.json")
  [[ $reported == "$upper/local" ]] || fail "nwpio's hint report names '$reported' for $d, expected $upper/local"
  echo "ok: $upper over $lower: $got, local.toml [$profile]; nwpio's report agrees"
done

# 3. Every family by OUTPUT_FSTYPE, as a family name or as the mount table names it: its
#    shipped profile, which exists.
for pair in lustre:lustre gpfs:gpfs nfs:nfs nfs4:nfs fuse.glusterfs:glusterfs beegfs:beegfs ceph:cephfs \
  fuse.ceph-fuse:cephfs cephfs:cephfs xfs:local ext2/ext3:local local:local; do
  type=${pair%%:*} family=${pair#*:}
  [[ $(nwpio_fs_family "$type") == "$family" ]] || fail "nwpio_fs_family $type = $(nwpio_fs_family "$type"), expected $family"
  got=$(OUTPUT_FSTYPE=$type choose "$work")
  [[ $got == "$family.toml default" ]] || fail "OUTPUT_FSTYPE=$type chose '$got'"
  [[ -f $src/configs/hints/$family.toml ]] || fail "no shipped profile $family.toml"
done
[[ $(OUTPUT_FSTYPE=fuse.sshfs choose "$work") == "local.toml default" ]] || fail "an unknown type must fall back to local.toml"
HINTS_FILE='' HINTS_PROFILE='' HINTS_CHOSEN_BY='' OUTPUT_FSTYPE=fuse.sshfs
nwpio_choose_hints "$work"
[[ $HINTS_CHOSEN_BY == *"unknown to nwpio"* ]] || fail "the fallback must say the type is unknown: $HINTS_CHOSEN_BY"
unset OUTPUT_FSTYPE
echo "ok: every family's profile by OUTPUT_FSTYPE; unknown types fall back to local.toml and say so"

# 4. BeeGFS: the profile's concrete stripe_count / stripe_size go to beegfs-ctl.
mkdir -p "$work/fakebin"
printf '#!/bin/sh\necho "$*" >>%q\n' "$work/beegfs-calls" >"$work/fakebin/beegfs-ctl"
chmod +x "$work/fakebin/beegfs-ctl"
count=$(sed -n 's/^stripe_count *= *\([0-9]*\).*/\1/p' "$src/configs/hints/beegfs.toml" | head -1)
size=$(sed -n 's/^stripe_size *= *"\([0-9]*\)MiB".*/\1/p' "$src/configs/hints/beegfs.toml" | head -1)
[[ -n $count && -n $size ]] || fail "beegfs.toml [default] has no concrete stripe_count / stripe_size to test with"
out=$(PATH=$work/fakebin:$PATH OUTPUT_FSTYPE=beegfs OUTPUT_DIR=$work/bee HINTS_FILE=$src/configs/hints/beegfs.toml \
  HINTS_PROFILE=default nwpio_stripe_output_dir)
grep -qxF -- "--setpattern --numtargets=$count --chunksize=${size}M $work/bee" "$work/beegfs-calls" ||
  fail "beegfs-ctl was called as '$(head -1 "$work/beegfs-calls")'"
grep -qF "striping: beegfs-ctl --setpattern" <<<"$out" || fail "the log line does not name beegfs-ctl: $out"
echo "ok: BeeGFS striping from the profile through beegfs-ctl"
echo "PASS: file-system detection and profile choice of slurm/output_dir.sh"
INNER
