#!/usr/bin/env bash
# Installs what is missing, builds every configuration and runs the whole test suite.
# CI runs exactly this (.ci/run). Exit code 0 only when every stage passed.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
nwpio_install_packages
t0=$SECONDS

stage() { nwpio_log "=== $* ($((SECONDS - t0)) s)"; }

stage "build: default configuration (Release, PnetCDF)"
mkdir -p "$NWPIO_ROOT/build"
nwpio_build "$NWPIO_ROOT/build"
stage "test: default configuration"
(cd "$NWPIO_ROOT/build" && ctest --output-on-failure -j "${NWPIO_CTEST_JOBS:-2}" --timeout 600)

stage "all stages passed in $((SECONDS - t0)) s"
