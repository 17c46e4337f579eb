#!/usr/bin/env bash
# The private folder swapped while a run uses it: another user (uid 65534, through setpriv; the
# test runs as root) with write access to the output directory runs nwpio_folder_swapper, which
# replaces the job user's private folder by a symbolic link to its own folder of planted links
# a moment (DELAY microseconds) after the folder appears: after nwpio checked it and created
# its temporary file, before the libraries open that file (folder_swapper.cpp). When nwpio
# reached its files by their paths through the folder's name, the libraries truncated and wrote
# the file behind the planted links (measured before nwpio held the folder: in 7 of 8 runs --
# these three and one at 3 ranks swapping at once, twice -- a netCDF header was written into
# it). Whatever the swap hits now:
#   - the job user's file the planted links point to is untouched (bytes and mtime);
#   - every name in the output directory that carries a final name is a regular file holding
#     exactly its frame (the writer's --verify-dir, nwpio-check OK, ncvalidator);
#   - the run either ended well or every rank reported the error (no hang).
# Three runs: 1 rank (swap at once) and 3 ranks (after 300 and 1000 microseconds), io_form 11.
#
#   folder_swap.sh WRITER SWAPPER NWPIO_CHECK NCVALIDATOR MPIEXEC SCRATCH
set -uo pipefail
WRITER=$1 SWAPPER=$2 CHECK=$3 NCVALIDATOR=$4 MPIEXEC=$5 SCRATCH=$6
read -ra PREFLAGS <<<"${MPIEXEC_PREFLAGS:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if [[ $(id -u) -ne 0 ]]; then
  echo "SKIP: needs root, to run the swapper as another user"
  exit 77
fi
GRID=(--e-we 40 --e-sn 32 --e-vert 8)
failures=0
fail() {
  echo "FAIL ($np ranks, swap after $delay us): $*"
  failures=$((failures + 1))
}

for run in "1 0" "3 300" "3 1000"; do
  read -r np delay <<<"$run"
  dir=$SCRATCH/np${np}_$delay
  rm -rf "$dir"
  mkdir -p "$dir/out" "$dir/outside"
  chmod 777 "$dir/out" "$SCRATCH" "$dir"
  victim=$dir/outside/precious
  echo "the job user's own file: must never change" >"$victim"
  touch -d @1000000000 "$victim"
  before=$(stat -c '%s %Y %h' "$victim")$(md5sum <"$victim")
  setpriv --reuid=65534 --regid=65534 --clear-groups "$SWAPPER" "$dir/out" ".nwpio-tmp-0" "$victim" "$delay" 60 \
    >"$dir/swapper.log" 2>&1 &
  swapper=$!
  sleep 0.2
  timeout 60 "$MPIEXEC" -n "$np" "${PREFLAGS[@]}" "$WRITER" --dir "$dir/out" --frames 4 \
    "${GRID[@]}" >"$dir/run.log" 2>&1
  rc=$?
  kill "$swapper" 2>/dev/null
  wait "$swapper" 2>/dev/null
  after=$(stat -c '%s %Y %h' "$victim")$(md5sum <"$victim")
  [[ $before == "$after" ]] || fail "the job user's file behind the planted links changed: $before -> $after"
  ((rc != 124)) || fail "the run hung"
  if ((rc != 0)); then
    for ((r = 0; r < np; ++r)); do
      grep -q "^rank $r: error: " "$dir/run.log" || fail "rank $r reported no error although the run failed"
    done
  fi
  for f in "$dir"/out/wrfout_d01_*; do
    [[ -e $f || -L $f ]] || continue
    [[ -f $f && ! -L $f ]] || { fail "$f is not a regular file: $(ls -l "$f")"; continue; }
    [[ $("$CHECK" "$f" | head -1) == OK* ]] || fail "nwpio-check: $("$CHECK" "$f")"
    "$NCVALIDATOR" -q "$f" >/dev/null 2>&1 || fail "ncvalidator rejects $f"
  done
  # Only the final names: the swapper's own names are not the run's to check.
  mkdir -p "$dir/finals"
  for f in "$dir"/out/wrfout_d01_*; do [[ -f $f && ! -L $f ]] && ln "$f" "$dir/finals/"; done
  "$WRITER" --verify-dir "$dir/finals" "${GRID[@]}" >"$dir/verify.log" 2>&1 || fail "values: $(grep -v ': OK' "$dir/verify.log" | head -3)"
  echo "--- $np ranks, swap after $delay us: run exit $rc, $(cat "$dir/swapper.log"), $(ls "$dir/finals" | wc -l) files under final names"
  grep -m1 "error" "$dir/run.log"
done
((failures == 0)) && echo "folder_swap: all checks passed" || echo "folder_swap: $failures failures"
((failures == 0))
