#!/usr/bin/env bash
# io_form 13 measurement (docs/COMPRESSION.md): the real-field workload (wrfreal, 200 x 150 x 41),
# 2 ranks 2x1 and 4 ranks 2x2, /dev/shm and disk with fsync, all cells in one run.
#   scripts/bench_compression.sh [OUT_DIR]     (needs build/ with nwpio-bench, NWPIO_NETCDF=mpi)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
out=${1:-$NWPIO_ROOT/build/bench-compression}
mkdir -p "$out"
bench=$NWPIO_ROOT/build/bin/nwpio-bench
methods=nwpio-io11,nwpio-io13,nwpio-io13-gbr3,wrf-io13,wrf-io2,ceiling,ceiling-io13
for cfg in "2 2 1 shm" "4 2 2 shm" "2 2 1 disk" "4 2 2 disk"; do
  set -- $cfg
  dir=/dev/shm/nwpio-bench-compression extra=()
  if [[ $4 == disk ]]; then dir=$NWPIO_ROOT/build/bench-disk extra=(--fsync); fi
  uptime >"$out/$4_np$1.uptime"
  mpirun -np "$1" --oversubscribe "$bench" --workload wrfreal --e-we 200 --e-sn 150 --nproc-x "$2" --nproc-y "$3" \
    --dir "$dir" "${extra[@]}" --repeat 3 --json "$out/$4_np$1.json" --methods "$methods" >"$out/$4_np$1.txt" 2>"$out/$4_np$1.log"
  uptime >>"$out/$4_np$1.uptime"
  nwpio_log "$4 np$1: $out/$4_np$1.txt"
done
