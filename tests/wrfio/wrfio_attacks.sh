#!/usr/bin/env bash
# WRF's I/O package in a shared output directory: before wrfio_driver writes its restart file
# (DATASET=RESTART, wrfrst_d01_2001-01-01_00_00_00, as WRF writes one), another user (uid 65534,
# through setpriv; the test runs as root) plants a name where the package will write, as
# tests/reliability/shared_dir_test.cpp does for the Writer:
#   temp_*         at the temporary name inside the job user's private folder (0700, so
#                  planted as root and given to the other user: names only root or the user could
#                  have left there)
#   private_dir_*  at the private folder's own name
#   final_*        at the final name
# After each run: the files the planted names point to are untouched (bytes and mtime),
# nothing outside the output directory changed, and either the run wrote the restart file
# correctly (the driver read it back through the package, verify_wrfio_output read every value
# through netCDF-C, ncvalidator, nwpio-check OK) or every rank printed the package's error naming
# what is there and the driver failed (no hang: each run has 60 s). Then the restart file is
# written under umask 077 and 022: 0600 and 0644. Every attack runs at the rank counts given but
# 1; at 1 rank one attack of each place (ONE_RANK), and no umask run.
#
#   wrfio_attacks.sh DRIVER VERIFY NCVALIDATOR NWPIO_CHECK MPIEXEC SCRATCH NP...
set -uo pipefail
DRIVER=$1 VERIFY=$2 NCVALIDATOR=$3 CHECK=$4 MPIEXEC=$5 SCRATCH=$6
shift 6
read -ra PREFLAGS <<<"${MPIEXEC_PREFLAGS:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if [[ $(id -u) -ne 0 ]]; then
  echo "SKIP: needs root, to plant names as another user"
  exit 77
fi
NAME=wrfrst_d01_2001-01-01_00_00_00
PRIVATE=.nwpio-tmp-0
failures=0
fail() {
  echo "FAIL ($case, $np ranks): $*"
  failures=$((failures + 1))
}
as_other() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# attack  outcome  what every rank's error must say (for "refused")
ATTACKS=(
  "temp_symlink refused a symbolic link is there"
  "temp_dangling_symlink refused a symbolic link is there"
  "temp_fifo refused a FIFO is there"
  "temp_folder refused a folder is there"
  "temp_others_file refused a file of user id 65534 is there"
  "temp_hard_link_to_own_file written"
  "private_dir_symlink refused is a symbolic link, not a folder"
  "private_dir_fifo refused is a FIFO, not a folder"
  "private_dir_of_other_user refused belongs to user id 65534"
  "private_dir_of_other_user_mode_0777 refused belongs to user id 65534"
  "private_dir_own_mode_0777 written"
  "final_symlink written"
  "final_dangling_symlink written"
  "final_fifo written"
  "final_folder refused Is a directory"
  "final_hard_link written"
)

plant() {
  local out=$1/out outside=$1/outside
  local temp=$out/$PRIVATE/$NAME.nwpio-tmp final=$out/$NAME
  case $case in
    temp_*) mkdir -m 700 "$out/$PRIVATE" ;;
  esac
  case $case in
    temp_symlink) ln -s "$outside/precious" "$temp" && chown -h 65534:65534 "$temp" ;;
    temp_dangling_symlink) ln -s "$outside/nothing_here" "$temp" ;;
    temp_fifo) mkfifo "$temp" && chown 65534:65534 "$temp" ;;
    temp_folder) mkdir "$temp" && chown 65534:65534 "$temp" ;;
    temp_others_file) echo x >"$temp" && chown 65534:65534 "$temp" ;;
    temp_hard_link_to_own_file) ln "$outside/precious" "$temp" ;;
    private_dir_symlink) as_other ln -s "$outside/elsewhere" "$out/$PRIVATE" ;;
    private_dir_fifo) as_other mkfifo "$out/$PRIVATE" ;;
    private_dir_of_other_user) as_other mkdir -m 700 "$out/$PRIVATE" ;;
    private_dir_of_other_user_mode_0777) as_other mkdir -m 777 "$out/$PRIVATE" ;;
    private_dir_own_mode_0777) mkdir "$out/$PRIVATE" && chmod 777 "$out/$PRIVATE" ;;
    final_symlink) as_other ln -s "$outside/precious" "$final" ;;
    final_dangling_symlink) as_other ln -s "$outside/nothing_here" "$final" ;;
    final_fifo) as_other mkfifo "$final" ;;
    final_folder) as_other mkdir "$final" ;;
    final_hard_link) as_other ln "$outside/others_file" "$final" ;;
  esac
}

# Everything under the case's folder except out/ and the run's log: type, owner, mode, size,
# mtime, target, bytes.
snapshot() {
  (cd "$1" && find . -mindepth 1 \( -path ./out -o -path ./run.log \) -prune -o -printf '%p %y %U %m %s %T@ %l\n' | sort)
  find "$1/outside" -type f -print0 | sort -z | xargs -0 -r md5sum
}

# Every name inside the output directory: type, owner, link target. What another user planted
# there must still be there after a refused run (nwpio removes only its own names).
planted_names() { (cd "$1/out" && find . -mindepth 1 -printf '%p %y %U %l\n' | sort); }

# Runs the driver (restart) in $1 at $np ranks; sets RC; its output in $1/run.log.
run_driver() {
  (cd "$1" && timeout 60 "$MPIEXEC" -n "$np" "${PREFLAGS[@]}" "$DRIVER" out RESTART >run.log 2>&1)
  RC=$?
}

check_written() {
  local dir=$1 out=$1/out
  ((RC == 0)) || { fail "the driver failed: $(grep -m3 -E 'FAILED|nwpio \[' "$dir/run.log")"; return; }
  [[ -f $out/$NAME && ! -L $out/$NAME ]] || fail "$out/$NAME is not a regular file"
  "$VERIFY" "$out" "$NAME" >"$dir/verify.log" 2>&1 || fail "read-back: $(tail -3 "$dir/verify.log")"
  "$NCVALIDATOR" -q "$out/$NAME" >/dev/null 2>&1 || fail "ncvalidator rejects $out/$NAME"
  "$CHECK" "$out/$NAME" >"$dir/check.log" 2>&1 || fail "nwpio-check: $(cat "$dir/check.log")"
}

check_refused() {
  local dir=$1 says=$2 r
  ((RC != 0 && RC != 124)) || fail "the driver exited $RC (expected a failure, not success or a hang)"
  for ((r = 0; r < np; ++r)); do
    # (unanchored: mpiexec may interleave one rank's line into another's)
    grep -q "nwpio \[rank $r\] .*$says" "$dir/run.log" ||
      fail "rank $r did not print the package's error saying '$says': $(grep -m2 "nwpio \[rank $r\]" "$dir/run.log")"
  done
  local missing
  missing=$(comm -23 <(echo "$planted") <(planted_names "$dir"))
  [[ -z $missing ]] || fail "planted names changed or removed: $missing"
  if [[ -f $dir/out/$NAME && ! -L $dir/out/$NAME ]] && [[ $case != final_hard_link ]]; then
    "$CHECK" "$dir/out/$NAME" >/dev/null 2>&1 || fail "an incomplete file under the final name"
  fi
}

# At 1 rank (after every attack at the other rank counts) one attack of each place: the
# temporary name, the private folder, the final name (a link, a folder).
ONE_RANK=" temp_symlink private_dir_symlink final_symlink final_folder "
SECONDS=0
runs=0
for np in "$@"; do
  for attack in "${ATTACKS[@]}"; do
    read -r case outcome says <<<"$attack"
    [[ $np -ne 1 || $ONE_RANK == *" $case "* ]] || continue
    runs=$((runs + 1))
    dir=$SCRATCH/np$np/$case
    rm -rf "$dir"
    mkdir -p "$dir/out" "$dir/outside/elsewhere"
    chmod 777 "$dir/out"  # a shared directory: anyone may add, rename and remove names
    echo "the job user's own file: must never change" >"$dir/outside/precious"
    echo "the other user's file: must never change" >"$dir/outside/others_file"
    chown 65534:65534 "$dir/outside/others_file"
    touch -d @1000000000 "$dir/outside/precious" "$dir/outside/others_file"
    plant "$dir"
    before=$(snapshot "$dir")
    planted=$(planted_names "$dir")
    run_driver "$dir"
    after=$(snapshot "$dir")
    [[ $before == "$after" ]] || fail "something outside the output directory changed: $(diff <(echo "$before") <(echo "$after") | head -5)"
    [[ ! -e $dir/outside/nothing_here && ! -L $dir/outside/nothing_here ]] || fail "a file appeared where a dangling link pointed"
    if [[ $outcome == written ]]; then
      check_written "$dir"
    else
      check_refused "$dir" "$says"
    fi
    echo "--- $np ranks, $case: exit $RC, $outcome$([[ $outcome == refused ]] && echo ": $(grep -m1 "^nwpio \[rank 0\]" "$dir/run.log")")"
  done
  # Modes follow the umask.
  for mask in 077 022; do
    [[ $np -ne 1 ]] || continue
    case=umask_$mask
    dir=$SCRATCH/np$np/$case
    rm -rf "$dir" && mkdir -p "$dir/out"
    (umask $mask && cd "$dir" && timeout 60 "$MPIEXEC" -n "$np" "${PREFLAGS[@]}" "$DRIVER" out RESTART >run.log 2>&1)
    RC=$?
    check_written "$dir"
    want=$([[ $mask == 077 ]] && echo 600 || echo 644)
    mode=$(stat -c %a "$dir/out/$NAME")
    [[ $mode == "$want" ]] || fail "$NAME is $mode under umask $mask, expected $want"
    echo "--- $np ranks, umask $mask: $NAME mode $mode"
  done
done
echo "wrfio_attacks: $runs attacks and the umask runs in $SECONDS s, $failures failures"
((failures == 0))
