#!/usr/bin/env bash
# kill -9 at random moments, 100 times (CI runs 10 of these: ctest -R reliability_random_kills):
# tests/reliability/random_kills.sh with an nwpio build's frame writer and nwpio-check. Prints
# every run and a summary of the variants (one rank killed, every rank killed), rank counts,
# io_forms and kill points (between files, before commit, during commit); exit 1 on any loss.
#
# Usage: scripts/random_kills.sh [runs, default 100]
# Environment: NWPIO_BUILD_DIR (default build; built first when the programs are missing),
# NWPIO_KILLS_WORK (run directories; default /tmp/nwpio-random-kills).
set -euo pipefail
source "$(dirname "$0")/setup.sh"
runs=${1:-100}
build=${NWPIO_BUILD_DIR:-$NWPIO_ROOT/build}
writer=$build/bin/nwpio_frame_writer
check=$build/bin/nwpio-check
if [[ ! -x $writer || ! -x $check ]]; then
  nwpio_build "$build"
fi
# 3 ranks on fewer cores: Open MPI needs to be told (ctest passes the same flag).
# (Open MPI 4's mpiexec names itself "mpiexec (OpenRTE) 4.1.4"; 5 says "Open MPI".)
if [[ -z ${MPIEXEC_PREFLAGS:-} && $(mpiexec --version 2>&1) =~ OpenRTE|Open\ MPI ]]; then
  export MPIEXEC_PREFLAGS=--oversubscribe
fi
exec bash "$NWPIO_ROOT/tests/reliability/random_kills.sh" "$writer" "$check" "$(command -v ncvalidator)" \
  "$(command -v mpiexec)" "${NWPIO_KILLS_WORK:-/tmp/nwpio-random-kills}" "$runs"
