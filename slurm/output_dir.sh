# Sourced by the job scripts (slurm/*.sbatch): what the output directory's file system asks for.
#   nwpio_fstype DIR          the file system type of DIR (or of its nearest existing parent), as
#                             the mount table names it ("lustre", "nfs4", "fuse.glusterfs", "ext4",
#                             "tmpfs", ...): of the mounts stacked on the point that holds DIR, the
#                             top one. OUTPUT_FSTYPE forces it (a type or a family name).
#   nwpio_fs_family TYPE      the family nwpio has a profile for: lustre, gpfs, nfs, glusterfs,
#                             beegfs, cephfs, local, or other (a type nwpio does not know).
#   nwpio_choose_hints DIR    unless HINTS_FILE is set: the shipped profile file of DIR's family
#                             (<family>.toml; local.toml for other; on tmpfs local.toml's
#                             [tmpfs]), and HINTS_PROFILE unless set ("default").
#   nwpio_stripe_output_dir   on Lustre `lfs setstripe`, on BeeGFS `beegfs-ctl --setpattern` of
#                             OUTPUT_DIR from the profile's concrete stripe_count / stripe_size
#                             (new files inherit it).
# Needs NWPIO_DATA (configs/hints/ below it: the source tree, or <prefix>/share/nwpio).
# The same rules as nwpio's hint report (src/hints/file_system.cpp), which logs the type per file.

nwpio_fstype() {
  local probe=$1 mounts top
  while [[ ! -e $probe ]]; do probe=$(dirname "$probe"); done
  if [[ -n ${OUTPUT_FSTYPE:-} ]]; then
    echo "$OUTPUT_FSTYPE"
    return 0
  fi
  # findmnt --target prints every mount stacked on the point that holds DIR (e.g. a tmpfs
  # mounted over /dev/shm's tmpfs), one line each; the one holding DIR is the top: the mount
  # no other on that point has as its parent (the last line where none says).
  mounts=$(findmnt -n -r -o ID,PARENT,FSTYPE --target "$probe" 2>/dev/null) || mounts=
  top=$(awk '{ id[NR] = $1; parent[NR] = $2; type[NR] = $3 }
    END {
      for (i = NR; i >= 1; i--) {
        covered = 0
        for (j = 1; j <= NR; j++) if (j != i && parent[j] == id[i]) covered = 1
        if (!covered) { print type[i]; exit }
      }
    }' <<<"$mounts")
  # statfs's name where findmnt cannot tell (it names ext2/3/4 "ext2/ext3", FUSE "fuseblk").
  echo "${top:-$(stat -f -c %T "$probe")}"
}

nwpio_fs_family() {
  case $1 in
    lustre) echo lustre ;;
    gpfs) echo gpfs ;;
    nfs | nfs4) echo nfs ;;
    fuse.glusterfs | glusterfs) echo glusterfs ;;
    beegfs) echo beegfs ;;
    ceph | fuse.ceph-fuse | fuse.ceph | cephfs) echo cephfs ;;
    ext2 | ext3 | ext4 | ext2/ext3 | xfs | btrfs | tmpfs | ramfs | zfs | f2fs | overlay | overlayfs | squashfs | \
      jfs | reiserfs | vfat | exfat | ntfs3 | bcachefs | nilfs2 | devtmpfs | local) echo local ;;
    *) echo other ;;
  esac
}

nwpio_choose_hints() {
  local fstype family
  fstype=$(nwpio_fstype "$1")
  family=$(nwpio_fs_family "$fstype")
  if [[ -z ${HINTS_FILE:-} ]]; then
    case $family in
      other)
        HINTS_FILE=$NWPIO_DATA/configs/hints/local.toml
        HINTS_CHOSEN_BY="the output directory's file system ($fstype: unknown to nwpio, local.toml)"
        ;;
      *)
        HINTS_FILE=$NWPIO_DATA/configs/hints/$family.toml
        HINTS_CHOSEN_BY="the output directory's file system ($fstype: $family)"
        ;;
    esac
    [[ $fstype == tmpfs ]] && HINTS_PROFILE=${HINTS_PROFILE:-tmpfs}
  else
    HINTS_CHOSEN_BY="HINTS_FILE"
  fi
  HINTS_PROFILE=${HINTS_PROFILE:-default}
}

nwpio_stripe_output_dir() {
  local fstype family count size args=()
  fstype=$(nwpio_fstype "$OUTPUT_DIR")
  family=$(nwpio_fs_family "$fstype")
  local tool=lfs
  [[ $family == beegfs ]] && tool=beegfs-ctl
  if [[ $family != lustre && $family != beegfs ]] || ! command -v $tool > /dev/null; then
    if [[ $family == lustre || $family == beegfs ]]; then
      echo "striping: skipped ($tool is not on the PATH)"
    else
      echo "striping: skipped ($fstype is not Lustre or BeeGFS)"
    fi
    return 0
  fi
  # stripe_count / stripe_size of the profile, following `extends`: plain `key = value` lines
  # under [profile.<name>]. Only concrete values go to lfs; "auto" (nwpio sizes the stripe
  # count per file at create) and "default" (keep the directory's layout) do not.
  profile_value() {
    awk -v want="$1" -v prof="${HINTS_PROFILE:-default}" '
      /^[[:space:]]*\[/ { sec = $0; gsub(/[][[:space:]"]/, "", sec); next }
      sec ~ /^profile\.[^.]+$/ && index($0, "=") > 0 {
        line = $0; sub(/#.*/, "", line); eq = index(line, "=")
        k = substr(line, 1, eq - 1); v = substr(line, eq + 1)
        gsub(/[[:space:]"]/, "", k); gsub(/[[:space:]"]/, "", v)
        val[substr(sec, 9) SUBSEP k] = v
      }
      END {
        for (p = prof; p != "" && n++ < 20; p = val[p SUBSEP "extends"])
          if ((p SUBSEP want) in val) { print val[p SUBSEP want]; exit }
      }' "$HINTS_FILE"
  }
  count=$(profile_value stripe_count) size=$(profile_value stripe_size)
  # lfs takes bytes or a binary K/M/G suffix: "1MiB" and "1M" both become 1M; so does beegfs-ctl
  if [[ $family == lustre ]]; then
    [[ $count =~ ^-?[0-9]+$ ]] && args+=(-c "$count")
    [[ $size =~ ^([0-9]+)([kKmMgG]?)(i?[bB])?$ ]] && args+=(-S "${BASH_REMATCH[1]}${BASH_REMATCH[2]^^}")
  else
    [[ $count =~ ^[0-9]+$ ]] && args+=(--numtargets="$count")
    [[ $size =~ ^([0-9]+)([kKmMgG]?)(i?[bB])?$ ]] && args+=(--chunksize="${BASH_REMATCH[1]}${BASH_REMATCH[2]^^}")
  fi
  if ((${#args[@]} == 0)); then
    echo "striping: skipped (profile '$HINTS_PROFILE' has stripe_count=${count:-unset}, stripe_size=${size:-unset}: left to nwpio and the directory)"
  elif [[ $family == lustre ]]; then
    mkdir -p "$OUTPUT_DIR"
    echo "striping: lfs setstripe ${args[*]} $OUTPUT_DIR (profile '$HINTS_PROFILE': stripe_count=${count:-unset}, stripe_size=${size:-unset})"
    lfs setstripe "${args[@]}" "$OUTPUT_DIR"
    lfs getstripe -d "$OUTPUT_DIR" || true
  else
    # BeeGFS: no MPI-IO driver reads striping hints; the directory's pattern decides (7.x's tool).
    mkdir -p "$OUTPUT_DIR"
    echo "striping: beegfs-ctl --setpattern ${args[*]} $OUTPUT_DIR (profile '$HINTS_PROFILE': stripe_count=${count:-unset}, stripe_size=${size:-unset})"
    beegfs-ctl --setpattern "${args[@]}" "$OUTPUT_DIR"
    beegfs-ctl --getentryinfo "$OUTPUT_DIR" || true
  fi
}
