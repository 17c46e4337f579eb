#!/usr/bin/env bash
# Installs what is missing, builds nwpio-demo, and runs it: a synthetic WRF-like model that writes
# its history through nwpio. Options are passed to build/bin/nwpio-demo (see --help);
# NP ranks (default 4).
#   scripts/demo.sh                       # 3 frames of the CONUS-like 426x301x36 grid, 4 ranks
#   NP=2 scripts/demo.sh --frames 2 --output-dir /dev/shm/out
set -euo pipefail
source "$(dirname "$0")/setup.sh"
nwpio_install_packages
mkdir -p "$NWPIO_ROOT/build"
# Only what the demo needs (nwpio-demo, libnwpio, the synthetic model); scripts/test.sh builds
# the rest (tests, Fortran module, benchmarks) in the same build folder.
NWPIO_BUILD_TARGET=nwpio-demo nwpio_build "$NWPIO_ROOT/build"
NP=${NP:-4}
oversub=()
((NP > $(nproc))) && oversub=(--oversubscribe)
nwpio_log "running nwpio-demo on $NP ranks"
mpirun -np "$NP" "${oversub[@]}" "$NWPIO_ROOT/build/bin/nwpio-demo" "$@"
