#!/bin/bash
# The model-loop matrix of docs/IO_SERVERS.md: nwpio-bench model-loop with
# 1 compute + 1 server and 2 compute + 1 server (oversubscribed on 2 cores), on /dev/shm and on
# disk with fsync, and over TCP (the multi-node path) with both hand-off modes. Every cell runs
# all its methods in the same job (rotated per repetition); the load average is recorded.
#   bench/model_loop.sh BUILD_DIR RESULT_DIR [DISK_DIR]
set -euo pipefail
BUILD=${1:?usage: model_loop.sh BUILD_DIR RESULT_DIR [DISK_DIR]}
OUT=${2:?usage: model_loop.sh BUILD_DIR RESULT_DIR [DISK_DIR]}
DISK=${3:-$OUT/disk}
BENCH=$BUILD/bin/nwpio-bench
SHM=/dev/shm/nwpio-model-loop
REPEAT=${REPEAT:-2}
mkdir -p "$OUT" "$DISK"
if [[ $(id -u) == 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
run() {  # name np [mpirun options --] bench options...
  local name=$1 np=$2; shift 2
  local mpi=()
  while [[ $# -gt 0 && $1 != -- ]]; do mpi+=("$1"); shift; done
  [[ ${1:-} == -- ]] && shift
  echo "=== $name: $(uptime)"
  mpirun -n "$np" --oversubscribe "${mpi[@]}" "$BENCH" model-loop --repeat "$REPEAT" --json "$OUT/$name.json" "$@" \
    2>&1 | tee "$OUT/$name.txt" | grep -v '^nwpio: quilting'
}
shm_methods=none,io0,io11,servers-io0,servers-io11
disk_methods=none,io0,io11,servers-io11
# /dev/shm: 2 s of compute between frames, 6 timed frames of the 447.9 MB WRF frame.
run shm_1p1 2 -- --steps 60 --every 10 --step-seconds 0.2 --servers 1 --dir "$SHM" --methods $shm_methods
run shm_2p1 3 -- --steps 60 --every 10 --step-seconds 0.2 --servers 1 --dir "$SHM" --methods $shm_methods
# Disk with fsync (~170 MB/s here): 5 s of compute between frames, 4 timed frames.
run disk_1p1 2 -- --steps 40 --every 10 --step-seconds 0.5 --servers 1 --dir "$DISK" --fsync --methods $disk_methods
run disk_2p1 3 -- --steps 40 --every 10 --step-seconds 0.5 --servers 1 --dir "$DISK" --fsync --methods $disk_methods
# TCP between the ranks (what nodes without RDMA use): nonblocking and blocking hand-off.
run tcp_1p1 2 --mca btl self,tcp -- --steps 40 --every 10 --step-seconds 0.2 --servers 1 --dir "$SHM" \
  --methods io0,servers-io11
run tcp_1p1_blocking 2 --mca btl self,tcp -- --steps 40 --every 10 --step-seconds 0.2 --servers 1 --dir "$SHM" \
  --methods io0,servers-io11 --blocking
rm -rf "$SHM"
echo "=== done: $(uptime)"
