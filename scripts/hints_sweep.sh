#!/usr/bin/env bash
# Hint sweep on the demo workload, under OMPIO and ROMIO, as ratios measured in one run.
#
#   scripts/hints_sweep.sh [demo options...]
#   NP=4 REPS=3 DIR=/var/tmp/nwpio-sweep BUILD=build scripts/hints_sweep.sh --e-we 426 --e-sn 301
#
# For each MPI-IO layer (OMPIO = Open MPI's default, ROMIO = OMPI_MCA_io=romio321) and each
# setting below, runs build/bin/nwpio-demo with NWPIO_HINTS=<setting> (the last level of nwpio's
# hint precedence), REPS times interleaved (so drift hits every setting alike), and prints the
# median MB/s of the whole run (Statistics "total") and its ratio to the first row (OMPIO,
# baseline). The files go to DIR, on disk (not /dev/shm); each run deletes its output.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
NP=${NP:-4}
REPS=${REPS:-3}
BUILD=${BUILD:-$ROOT/build}
DIR=${DIR:-/var/tmp/nwpio-hints-sweep}
DEMO=$BUILD/bin/nwpio-demo
[[ -x $DEMO ]] || { echo "build the demo first: cmake --build $BUILD --target nwpio-demo" >&2; exit 1; }
DEMO_ARGS=("$@")
((${#DEMO_ARGS[@]})) || DEMO_ARGS=(--frames 2)

# name | NWPIO_HINTS
SETTINGS=(
  "baseline|"
  "collective off|collective_write=false"
  "data sieving on|collective_write=false;data_sieving_write=true"
  "1 aggregator|aggregators=1"
  "all aggregators|aggregators=$NP"
  "1 MiB alignment|header_align=1MiB"
)
LAYERS=("OMPIO|" "ROMIO|romio321")

run_one() {  # layer-io name hints -> prints MB/s
  local io=$1 hints=$2 out="$DIR/run" stats="$DIR/stats.json"
  rm -rf "$out"
  mkdir -p "$out"
  env ${io:+OMPI_MCA_io=$io} NWPIO_HINTS="$hints" \
    mpirun -np "$NP" --oversubscribe "$DEMO" "${DEMO_ARGS[@]}" --output-dir "$out" --stats-json "$stats" \
    >"$DIR/last.log" 2>&1 || { echo "run failed (io=$io hints=$hints): see $DIR/last.log" >&2; exit 1; }
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"]["mb_per_s"])' "$stats"
  rm -rf "$out"
}

mkdir -p "$DIR"
declare -A results
for ((r = 0; r < REPS; ++r)); do
  for layer in "${LAYERS[@]}"; do
    for s in "${SETTINGS[@]}"; do
      key="${layer%%|*}|${s%%|*}"
      results[$key]+="$(run_one "${layer#*|}" "${s#*|}") "
    done
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
base=$(echo "${results[OMPIO|baseline]}" | median)
echo "demo: ${DEMO_ARGS[*]}, $NP ranks, $REPS reps, files in $DIR ($(stat -f -c %T "$DIR"))"
printf '| %-6s | %-18s | %-45s | %9s | %7s |\n' layer setting NWPIO_HINTS "MB/s" ratio
printf '|--------|--------------------|-----------------------------------------------|-----------|---------|\n'
for layer in "${LAYERS[@]}"; do
  for s in "${SETTINGS[@]}"; do
    key="${layer%%|*}|${s%%|*}"
    m=$(echo "${results[$key]}" | median)
    printf '| %-6s | %-18s | %-45s | %9.1f | %7.2f |\n' "${layer%%|*}" "${s%%|*}" "${s#*|}" "$m" \
      "$(awk -v a="$m" -v b="$base" 'BEGIN {print a / b}')"
  done
done
