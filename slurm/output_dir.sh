# Sourced by the job scripts (slurm/*.sbatch): what the output directory's file system asks for.
#   nwpio_fstype DIR          the file system type of DIR (or of its nearest existing parent), as
#                             the mount table names it ("lustre", "gpfs", "ext4", "tmpfs", ...);
#                             OUTPUT_FSTYPE forces it.
#   nwpio_choose_hints DIR    unless HINTS_FILE is set: the shipped profile file for DIR's file
#                             system (lustre.toml, gpfs.toml, else local.toml; on tmpfs local.toml's
#                             [tmpfs]), and HINTS_PROFILE unless set ("default").
#   nwpio_stripe_output_dir   on Lustre, `lfs setstripe` of OUTPUT_DIR from the profile's concrete
#                             stripe_count / stripe_size (new files inherit it).
# Needs NWPIO_DATA (configs/hints/ below it: the source tree, or <prefix>/share/nwpio).

nwpio_fstype() {
  local probe=$1
  while [[ ! -e $probe ]]; do probe=$(dirname "$probe"); done
  # The mount table's name (findmnt: "ext4", "tmpfs", "lustre"), as nwpio's hint report gives it;
  # `stat -f` cannot tell ext4 from ext2/ext3 (one magic number), so it is only the fallback.
  echo "${OUTPUT_FSTYPE:-$(findmnt -n -o FSTYPE --target "$probe" 2>/dev/null || stat -f -c %T "$probe")}"
}

nwpio_choose_hints() {
  local fstype
  fstype=$(nwpio_fstype "$1")
  if [[ -z ${HINTS_FILE:-} ]]; then
    case $fstype in
      lustre) HINTS_FILE=$NWPIO_DATA/configs/hints/lustre.toml ;;
      gpfs) HINTS_FILE=$NWPIO_DATA/configs/hints/gpfs.toml ;;
      tmpfs)
        HINTS_FILE=$NWPIO_DATA/configs/hints/local.toml
        HINTS_PROFILE=${HINTS_PROFILE:-tmpfs}
        ;;
      *) HINTS_FILE=$NWPIO_DATA/configs/hints/local.toml ;;
    esac
    HINTS_CHOSEN_BY="the output directory's file system ($fstype)"
  else
    HINTS_CHOSEN_BY="HINTS_FILE"
  fi
  HINTS_PROFILE=${HINTS_PROFILE:-default}
}

nwpio_stripe_output_dir() {
  local fstype count size args=()
  fstype=$(nwpio_fstype "$OUTPUT_DIR")
  if [[ $fstype != lustre ]] || ! command -v lfs > /dev/null; then
    echo "striping: skipped ($fstype is not Lustre)"
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
  [[ $count =~ ^-?[0-9]+$ ]] && args+=(-c "$count")
  # lfs takes bytes or a binary K/M/G suffix: "1MiB" and "1M" both become 1M
  [[ $size =~ ^([0-9]+)([kKmMgG]?)(i?[bB])?$ ]] && args+=(-S "${BASH_REMATCH[1]}${BASH_REMATCH[2]^^}")
  if ((${#args[@]} == 0)); then
    echo "striping: skipped (profile '$HINTS_PROFILE' has stripe_count=${count:-unset}, stripe_size=${size:-unset}: left to nwpio and the directory)"
  else
    mkdir -p "$OUTPUT_DIR"
    echo "striping: lfs setstripe ${args[*]} $OUTPUT_DIR (profile '$HINTS_PROFILE': stripe_count=${count:-unset}, stripe_size=${size:-unset})"
    lfs setstripe "${args[@]}" "$OUTPUT_DIR"
    lfs getstripe -d "$OUTPUT_DIR" || true
  fi
}
