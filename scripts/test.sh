#!/usr/bin/env bash
# Installs what is missing, builds every configuration and runs the whole test suite.
# CI runs exactly this (.ci/run). Exit code 0 only when every stage passed.
#   stage 1: default build (Release, PnetCDF) and its tests, except the Slurm ones
#   stage 2: the job scripts on a throw-away local Slurm (ctest -L slurm)
#   stage 3: a build without PnetCDF (io_form 0 and 2 only) and its tests
set -euo pipefail
source "$(dirname "$0")/setup.sh"
# Slurm and munge for the job-script tests; python3 is the tests' independent reader of TOML/JSON.
nwpio_install_packages slurmctld slurmd slurm-client munge python3
t0=$SECONDS
stage() { nwpio_log "=== $* ($((SECONDS - t0)) s)"; }
run_ctest() { (cd "$1" && shift && ctest --output-on-failure --timeout 600 "$@"); }

stage "build: default configuration (Release, PnetCDF)"
mkdir -p "$NWPIO_ROOT/build"
nwpio_build "$NWPIO_ROOT/build"
stage "test: default configuration"
run_ctest "$NWPIO_ROOT/build" -j "${NWPIO_CTEST_JOBS:-2}" -LE slurm

stage "test: job scripts on a local Slurm (ctest -L slurm)"
run_ctest "$NWPIO_ROOT/build" -L slurm

stage "build: without PnetCDF (io_form 0 and 2 only)"
mkdir -p "$NWPIO_ROOT/build-nopnetcdf"
nwpio_build "$NWPIO_ROOT/build-nopnetcdf" -DNWPIO_WITH_PNETCDF=OFF -DNWPIO_BUILD_BENCH=OFF
stage "test: without PnetCDF"
run_ctest "$NWPIO_ROOT/build-nopnetcdf" -j "${NWPIO_CTEST_JOBS:-2}" -LE slurm

stage "all stages passed in $((SECONDS - t0)) s"
