#!/usr/bin/env bash
# Killed runs: SIGKILL every rank of an mpiexec while it writes, then check that only complete
# files carry final names, that the interrupted file is left under its temporary name
# (.nwpio-tmp-<uid>/*.nwpio-tmp), and that nwpio-check says OK for the complete files, TEMP for the
# leftover and exits 1.
#
#   killed_run.sh WRITER NWPIO_CHECK NCVALIDATOR MPIEXEC SCRATCH
#
# Case 1 (deterministic): 3 ranks, frame 2 of 4 pauses after begin_frame and every put; the
#   test kills all ranks there. Frames 0 and 1 must be complete files (nwpio-check OK,
#   ncvalidator, every value read back with netCDF-C); frame 2 only a .nwpio-tmp; no frame 3.
# Kills at random moments (one rank or every rank, many runs, the kill points counted):
#   random_kills.sh.
set -uo pipefail
WRITER=$1 CHECK=$2 NCVALIDATOR=$3 MPIEXEC=$4 SCRATCH=$5
read -ra PREFLAGS <<<"${MPIEXEC_PREFLAGS:-}"  # set by ctest: --oversubscribe under Open MPI
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
note() { echo "--- $*"; }

# Starts the writer in the background: start_run DIR NP ARGS...; sets RUN_PID.
start_run() {
  local dir=$1 np=$2
  shift 2
  rm -rf "$dir"
  mkdir -p "$dir/out" "$dir/pids"
  "$MPIEXEC" -n "$np" "${PREFLAGS[@]}" "$WRITER" --dir "$dir/out" --pid-dir "$dir/pids" "$@" \
    > "$dir/run.log" 2>&1 &
  RUN_PID=$!
}

# SIGKILL every rank (pids the ranks wrote), then reap mpiexec.
kill_all_ranks() {
  local dir=$1 np=$2 pids=()
  for ((i = 0; i < 100; ++i)); do
    [[ $(ls "$dir/pids" | wc -l) -ge $np ]] && break
    sleep 0.1
  done
  for f in "$dir"/pids/rank.*; do pids+=("$(cat "$f")"); done
  note "kill -KILL ${pids[*]} (ranks of mpiexec $RUN_PID)"
  kill -KILL "${pids[@]}" 2> /dev/null
  local rc=0
  wait "$RUN_PID" || rc=$?
  note "mpiexec ended with $rc"
  [[ $rc -ne 0 ]] || fail "mpiexec reported success although its ranks were killed"
}

# Every final-name file: nwpio-check OK, ncvalidator, values; every other: .nwpio-tmp, TEMP.
# check_dir DIR -> sets FINALS and TEMPS (counts)
check_dir() {
  local out=$1/out
  FINALS=0 TEMPS=0
  local all=()
  # Final names in the output folder; files not complete in the user's private folder
  # (their completion ledgers, *.nwpio-done, are nwpio's bookkeeping, not data).
  for f in "$out"/* "$out/.nwpio-tmp-$(id -u)"/*.nwpio-tmp; do
    [[ -e $f ]] || continue
    all+=("$f")
    local line
    line=$("$CHECK" "$f")
    echo "    $line"
    case $f in
      *.nwpio-tmp)
        TEMPS=$((TEMPS + 1))
        [[ $line == TEMP* ]] || fail "nwpio-check does not call $f temporary"
        ;;
      *)
        FINALS=$((FINALS + 1))
        [[ $line == OK* ]] || fail "a file under its final name is not complete: $line"
        "$NCVALIDATOR" -q "$f" > /dev/null 2>&1 || fail "ncvalidator rejects $f"
        # Frame number from the date in the name (one frame per file, hourly from 00:00).
        local hour=${f##*_2019-06-01_}
        hour=$((10#${hour%%_*}))
        "$WRITER" --verify "$f" --first-frame "$hour" $VERIFY_GRID > "$1/verify.log" 2>&1 ||
          fail "values of $f: $(tail -3 "$1/verify.log")"
        ;;
    esac
  done
  if ((${#all[@]} > 0)); then
    local rc=0
    "$CHECK" "${all[@]}" > /dev/null || rc=$?
    if ((TEMPS > 0)); then
      [[ $rc -eq 1 ]] || fail "nwpio-check over all files exited $rc, expected 1 (a temporary file is there)"
    else
      [[ $rc -eq 0 ]] || fail "nwpio-check over complete files exited $rc, expected 0"
    fi
  fi
}

# ---- case 1: killed inside frame 2 -------------------------------------------------------
note "case 1: 3 ranks, SIGKILL inside frame 2 of 4"
dir=$SCRATCH/case1
VERIFY_GRID=""
start_run "$dir" 3 --frames 4 --pause-frame 2 --pause-seconds 120 --ready-file "$SCRATCH/case1.ready"
rm -f "$SCRATCH/case1.ready"
for ((i = 0; i < 600; ++i)); do
  [[ -e $SCRATCH/case1.ready ]] && break
  kill -0 "$RUN_PID" 2> /dev/null || break
  sleep 0.1
done
if [[ ! -e $SCRATCH/case1.ready ]]; then
  fail "the writer never reached frame 2"
  cat "$dir/run.log"
fi
kill_all_ranks "$dir" 3
ls -l "$dir/out"
check_dir "$dir"
[[ $FINALS -eq 2 ]] || fail "expected 2 complete files (frames 0, 1), found $FINALS"
[[ $TEMPS -eq 1 ]] || fail "expected 1 temporary file (frame 2), found $TEMPS"
[[ -e $dir/out/.nwpio-tmp-$(id -u)/wrfout_d01_2019-06-01_02_00_00.nwpio-tmp ]] || fail "no wrfout_d01_2019-06-01_02_00_00.nwpio-tmp"
[[ ! -e $dir/out/wrfout_d01_2019-06-01_02_00_00 ]] || fail "frame 2 has its final name although it was never finished"
[[ ! -e $dir/out/wrfout_d01_2019-06-01_03_00_00 ]] || fail "frame 3 exists although the run was killed before it"
out=$("$CHECK" "$dir"/out/* "$dir/out/.nwpio-tmp-$(id -u)"/*.nwpio-tmp)
rc=$?
echo "$out"
[[ $rc -eq 1 ]] || fail "nwpio-check exit code $rc, expected 1"
[[ $(grep -c '^OK' <<< "$out") -eq 2 && $(grep -c '^TEMP' <<< "$out") -eq 1 ]] || fail "nwpio-check lines: expected 2 OK and 1 TEMP"
# The output folder as the argument: its two files, then what the private folder holds (frame 2's
# file and its completion ledger).
out=$("$CHECK" "$dir/out")
rc=$?
echo "$out"
[[ $rc -eq 1 ]] || fail "nwpio-check $dir/out: exit code $rc, expected 1"
[[ $(grep -c '^OK' <<< "$out") -eq 2 ]] || fail "nwpio-check $dir/out: expected 2 OK lines"
grep -q "^TEMP $dir/out/.nwpio-tmp-$(id -u)/wrfout_d01_2019-06-01_02_00_00.nwpio-tmp: " <<< "$out" ||
  fail "nwpio-check $dir/out does not list frame 2's temporary file"

if ((failures > 0)); then
  echo "killed_run: $failures failures"
  exit 1
fi
echo "killed_run: all checks passed"
