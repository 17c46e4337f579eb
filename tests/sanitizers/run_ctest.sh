#!/usr/bin/env bash
# Runs ctest in a sanitizer build tree with the sanitizer options set (sanitizer_env.sh).
#   tests/sanitizers/run_ctest.sh BUILD_DIR [ctest arguments...]
# e.g. tests/sanitizers/run_ctest.sh build-asan -j2 -L 'unit|mpi' -LE 'slow_under_asan|slurm'
set -euo pipefail
build=$1
shift
source "$(dirname "${BASH_SOURCE[0]}")/sanitizer_env.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd "$build"
exec ctest --output-on-failure "$@"
