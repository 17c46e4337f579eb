#!/usr/bin/env bash
# SIGKILL at random moments while a run writes many frames, one file per frame, files committed
# behind the model: nothing that was finished is lost and nothing unfinished carries a final name.
#
#   random_kills.sh WRITER NWPIO_CHECK NCVALIDATOR MPIEXEC SCRATCH RUNS [IO_FORMS]
#
# IO_FORMS: the io_forms the build writes (default "11 2 13"; a build without parallel netCDF-4,
# such as the MPICH one, has no 13).
#
# Runs alternate between two variants and between 2 and 3 ranks:
#   one   SIGKILL of ONE rank (chosen at random); mpiexec then aborts the others (Open MPI
#         sends them SIGTERM, then SIGKILL), so they stop at whatever they were doing too;
#   all   SIGKILL of every rank at once.
# Every run writes io_form 11 (its files are written and committed behind the model, where most
# can go wrong); every fourth run io_form 2 or 13 instead (committed at end_frame by rank 0). A
# run is killed at a random moment between 0 and 1.5 s after its first file got its final name,
# while the model "computes" 0-60 ms between frames (--step-seconds), so kills land in every
# phase of a file's life. After each kill:
#   - mpiexec has ended (a hang is a failure);
#   - nwpio-check on the output folder: OK for every file under a final name, TEMP only for
#     what is in the private folder .nwpio-tmp-<uid>/;
#   - ncvalidator on every final-name file (classic formats);
#   - the writer's --verify-dir: every final-name file holds exactly the values written for its
#     frame (netCDF-C, every value), and nothing else carries a name in the folder.
# Where the kill hit is read from what it left in the private folder, for the oldest file
# not committed:
#   between files   nothing left: the last file was committed, the next not created yet
#   before commit   a temporary file whose completion ledger has no mark, or no ledger: its
#                   frame was being written (or the file created)
#   during commit   a temporary file whose ledger has marks: some writers had their bytes in
#                   and marked, the rename had not happened
# The summary counts runs, variants and kill points. Exit 0 only when every check held.
set -uo pipefail
WRITER=$1 CHECK=$2 NCVALIDATOR=$3 MPIEXEC=$4 SCRATCH=$5 RUNS=$6
read -ra FORMS <<<"${7:-11 2 13}"
OTHERS=()  # the io_forms of every fourth run
for f in "${FORMS[@]}"; do [[ $f == 11 ]] || OTHERS+=("$f"); done
read -ra PREFLAGS <<<"${MPIEXEC_PREFLAGS:-}"  # set by ctest: --oversubscribe under Open MPI
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
GRID=(--e-we 80 --e-sn 64 --e-vert 12)
PRIVATE=.nwpio-tmp-$(id -u)
failures=0
declare -A count=()
fail() {
  echo "FAIL (run $run): $*"
  failures=$((failures + 1))
}
bump() { count[$1]=$((${count[$1]:-0} + 1)); }

# Seconds as a decimal from a random number of milliseconds below $1.
random_seconds() {
  local ms=$((RANDOM % $1))
  printf '%d.%03d' $((ms / 1000)) $((ms % 1000))
}

# Where the kill hit (see the header), from the private folder's contents.
kill_point() {
  local dir=$1/out/$PRIVATE temp ledger
  temp=$(compgen -G "$dir/*.nwpio-tmp" | sort | head -1)
  if [[ -z $temp ]]; then
    echo "between files"
    return
  fi
  ledger=${temp%.nwpio-tmp}.nwpio-done
  if [[ -f $ledger ]] && od -An -tu1 -v "$ledger" | grep -qw 1; then
    echo "during commit"
  else
    echo "before commit"
  fi
}

# Waits until mpiexec ($RUN_PID) has ended, at most 60 s; 0 when it did.
reap() {
  for ((i = 0; i < 600; ++i)); do
    kill -0 "$RUN_PID" 2>/dev/null || {
      wait "$RUN_PID" 2>/dev/null
      return 0
    }
    sleep 0.1
  done
  return 1
}

check_run() {
  local dir=$1 io=$2 out lines f
  out=$dir/out
  lines=$("$CHECK" "$out")
  grep -v '^OK ' <<<"$lines" | sed 's/^/    /'  # what is not complete, and any failure
  while read -r verdict f _; do
    f=${f%:}
    case $verdict in
      OK) [[ $f == "$out"/wrfout_d01_* ]] || fail "OK for a file that is not a final name: $f" ;;
      TEMP) [[ $f == "$out/$PRIVATE"/* ]] || fail "a file not complete outside the private folder: $f" ;;
      # A ledger left by a kill between the rename and its removal: nothing but bookkeeping.
      STALE) [[ $f == "$out/$PRIVATE"/*.nwpio-done ]] || fail "STALE for something not a ledger: $f" ;;
      *) fail "nwpio-check: $verdict $f" ;;
    esac
  done <<<"$lines"
  for f in "$out"/wrfout_d01_*; do
    [[ -e $f ]] || continue
    if [[ $io != 13 ]]; then
      "$NCVALIDATOR" -q "$f" >/dev/null 2>&1 || fail "ncvalidator rejects $f"
    fi
  done
  "$WRITER" --verify-dir "$out" "${GRID[@]}" >"$dir/verify.log" 2>&1 || fail "values: $(grep -v ': OK' "$dir/verify.log" | head -5)"
  FINALS=$(compgen -G "$out/wrfout_d01_*" | wc -l)
}

SECONDS=0
for ((run = 1; run <= RUNS; ++run)); do
  np=$((2 + (run - 1) / 2 % 2))
  variant=$([[ $((run % 2)) -eq 1 ]] && echo one || echo all)
  io=11
  ((run % 4 == 0 && ${#OTHERS[@]} > 0)) && io=${OTHERS[$(((run / 4 - 1) % ${#OTHERS[@]}))]}
  dir=$SCRATCH/run$run
  rm -rf "$dir"
  mkdir -p "$dir/out" "$dir/pids"
  step=0.0$((RANDOM % 6))$((RANDOM % 10))
  "$MPIEXEC" -n "$np" "${PREFLAGS[@]}" "$WRITER" --dir "$dir/out" --pid-dir "$dir/pids" --frames 100000 \
    --io-form "$io" --step-seconds "$step" "${GRID[@]}" >"$dir/run.log" 2>&1 &
  RUN_PID=$!
  for ((i = 0; i < 600; ++i)); do
    compgen -G "$dir/out/wrfout_d01_*" >/dev/null && break
    kill -0 "$RUN_PID" 2>/dev/null || break
    sleep 0.05
  done
  sleep "$(random_seconds 1500)"
  pids=()
  for f in "$dir"/pids/rank.*; do pids+=("$(cat "$f")"); done
  if ! kill -0 "$RUN_PID" 2>/dev/null || ((${#pids[@]} != np)); then
    fail "the run ended or never started before the kill"
    tail -5 "$dir/run.log"
    continue
  fi
  if [[ $variant == one ]]; then
    victim=$((RANDOM % np))
    kill -KILL "${pids[$victim]}" 2>/dev/null
  else
    kill -KILL "${pids[@]}" 2>/dev/null
  fi
  reap || {
    fail "mpiexec did not end within 60 s after the kill"
    kill -KILL "${pids[@]}" "$RUN_PID" 2>/dev/null
    wait "$RUN_PID" 2>/dev/null
  }
  point=$(kill_point "$dir")
  echo "--- run $run: io_form $io, $np ranks, kill $variant$([[ $variant == one ]] && echo " (rank $victim)"), step ${step}s: $point"
  check_run "$dir" "$io"
  echo "    $FINALS complete files"
  ((FINALS >= 1)) || fail "no complete file"
  bump "variant $variant"
  bump "kill point: $point"
  bump "io_form $io"
  bump "$np ranks"
  rm -rf "$dir"
done
echo "=== random_kills: $RUNS runs in $SECONDS s"
for key in "${!count[@]}"; do echo "    ${count[$key]}  $key"; done | sort -k2
if ((failures > 0)); then
  echo "random_kills: $failures failures"
  exit 1
fi
echo "random_kills: all checks passed"
