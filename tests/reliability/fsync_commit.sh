#!/usr/bin/env bash
# Atomic commit, observed at the system-call level: under strace, a run with
# fsync_before_rename = true must fsync each file under its temporary name BEFORE renaming it to
# its final name, and fsync the directory after; with fsync_before_rename = false it renames
# without any fsync of the file. In both cases the rename is the last thing that happens to a
# file, and only complete files are renamed. (The writers' background threads make these calls
# when the file is written behind the model: strace -f follows threads.)
#   fsync_commit.sh WRITER NWPIO_CHECK MPIEXEC SCRATCH
set -uo pipefail
WRITER=$1 CHECK=$2 MPIEXEC=$3 SCRATCH=$4
read -ra PREFLAGS <<<"${MPIEXEC_PREFLAGS:-}"  # set by ctest: --oversubscribe under Open MPI
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if ! command -v strace > /dev/null || ! strace -qq -e trace=none true 2> /dev/null; then
  echo "strace is missing or ptrace is refused here: fsync order not tested (SKIPPED)"
  exit 77
fi
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for fsync in 1 0; do
  dir=$SCRATCH/fsync$fsync
  rm -rf "$dir" && mkdir -p "$dir/out"
  # -y: file descriptors shown with their paths; -f: every rank (children of mpiexec).
  # LeakSanitizer cannot run under ptrace (sanitizer build): leaks are checked everywhere else.
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -y -e trace=fsync,fdatasync,rename,renameat,renameat2 -o "$dir/trace" \
    "$MPIEXEC" -n 2 "${PREFLAGS[@]}" "$WRITER" --dir "$dir/out" --frames 2 --fsync $fsync > "$dir/log" 2>&1 ||
    { fail "run with fsync=$fsync failed"; cat "$dir/log"; continue; }
  # One line per event, in the order the calls returned: "fsync <path>" or "rename <from> <to>".
  # The writers' background threads make these calls, so a call may be split into an
  # "<unfinished ...>" line and a "<... resumed>" line of the same thread: joined first.
  events=$(awk '
      / <unfinished \.\.\.>$/ { pid = $1; sub(/ <unfinished \.\.\.>$/, ""); pending[pid] = $0; next }
      /^[0-9]+ +<\.\.\. [a-z0-9]+ resumed>/ { pid = $1; sub(/^[0-9]+ +<\.\.\. [a-z0-9]+ resumed>/, ""); print pending[pid] $0; delete pending[pid]; next }
      { print }' "$dir/trace" |
    sed -nE 's/^[0-9]+ +(fsync|fdatasync)\([0-9]+<([^>]*)>\) += 0$/fsync \2/p;
             s/^[0-9]+ +rename(at2?)?\((AT_FDCWD[^,]*, )?"([^"]*)", (AT_FDCWD[^,]*, )?"([^"]*)".*= 0$/rename \3 \5/p')
  echo "fsync_before_rename=$fsync:"
  sed 's/^/    /' <<< "$events"
  for t in 0 1; do
    final=$dir/out/wrfout_d01_2019-06-01_0${t}_00_00
    temp=$dir/out/.nwpio-tmp-$(id -u)/wrfout_d01_2019-06-01_0${t}_00_00.nwpio-tmp
    # The rename names the temporary file through the private folder's descriptor
    # (/proc/self/fd/N/<name>: temp_files.hpp) or, where /proc is missing, by its path.
    rename_line=$(grep -nE "^rename ($temp|/proc/self/fd/[0-9]+/${temp##*/}) $final$" <<< "$events" | cut -d: -f1)
    [[ -n $rename_line ]] || { fail "fsync=$fsync: no rename of $temp"; continue; }
    fsync_line=$(grep -n "^fsync $temp$" <<< "$events" | head -1 | cut -d: -f1)
    if [[ $fsync == 1 ]]; then
      [[ -n $fsync_line && $fsync_line -lt $rename_line ]] || fail "fsync=1: $temp not fsynced before its rename"
      dir_line=$(awk -v r="$rename_line" -v d="fsync $dir/out" 'NR > r && $0 == d { print NR; exit }' <<< "$events")
      [[ -n $dir_line ]] || fail "fsync=1: directory not fsynced after renaming $temp"
    else
      [[ -z $fsync_line ]] || fail "fsync=0: $temp was fsynced although fsync_before_rename is false"
    fi
    "$CHECK" "$final" > /dev/null || fail "fsync=$fsync: $final is not complete: $("$CHECK" "$final")"
  done
done
((failures == 0)) && echo "fsync_commit: all checks passed" && exit 0
echo "fsync_commit: $failures failures"
exit 1
