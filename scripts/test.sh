#!/usr/bin/env bash
# Installs what is missing, builds every configuration and runs the whole test suite.
# CI runs exactly this (.ci/run). Exit code 0 only when every stage passed.
#   stage 1: default build (Release, PnetCDF) and its tests, except the Slurm ones
#   stage 2: the job scripts on a throw-away local Slurm (ctest -L slurm)
#   stage 3: a build without PnetCDF and with the serial netCDF-C (io_form 0 and 2 only: no 11, no 13)
#   stage 4: AddressSanitizer + UndefinedBehaviorSanitizer build, unit and MPI tests
#   stage 5: libFuzzer runs of the namelist, iofields and hints readers (clang)
#   stage 6: MPICH: PnetCDF built for MPICH (once per machine, scripts/build-pnetcdf-mpich.sh),
#            nwpio built against both (build-mpich/), and the tests under mpiexec.mpich,
#            the Slurm job scripts included
#   stage 7: the real WRF model writing through nwpio (scripts/wrf-check.sh; WRF is built once per
#            machine into /var/cache/nwpio, so only the first run on a machine pays for it)
#   stage 8: a cluster played by an unprivileged user (scripts/cluster-check.sh): site modules,
#            nwpio from a clean clone installed in $HOME, module load nwpio, mini_wrf under sbatch,
#            the real WRF linked with nwpio-wrf and unlinked
set -euo pipefail
source "$(dirname "$0")/setup.sh"
source "$(dirname "$0")/build-pnetcdf-mpich.sh"
source "$(dirname "$0")/build-adios2.sh"
# Slurm and munge for the job-script tests; python3 is the tests' independent reader of TOML/JSON;
# strace proves the fsync-before-rename order; clang, its runtime and llvm-symbolizer for the
# fuzzers and the sanitizer reports; cdo and Debian's xarray + netCDF4 read the files' dates as
# users' tools do (tests/demo/dates_case.sh) and read the io_form 13 (parallel netCDF-4) files back;
# MPICH and autotools for the MPICH stage; Lmod loads the modulefiles an install writes
# (tests/install, the cluster stage).
nwpio_install_packages slurmctld slurmd slurm-client munge python3 strace clang libclang-rt-14-dev llvm-14 \
  cdo python3-xarray python3-netcdf4 lmod "${NWPIO_PNETCDF_MPICH_PACKAGES[@]}"
t0=$SECONDS
stage() { nwpio_log "=== $* ($((SECONDS - t0)) s)"; }
run_ctest() { (cd "$1" && shift && ctest --output-on-failure --timeout 600 "$@"); }

stage "build: default configuration (Release, PnetCDF)"
mkdir -p "$NWPIO_ROOT/build"
# nwpio-bench's ADIOS2 peer and its test only when scripts/build-adios2.sh has already cached
# ADIOS2 on this machine: CI never builds it (about 30 minutes).
adios2_args=()
if nwpio_adios2_cached; then adios2_args=(-DCMAKE_PREFIX_PATH="$NWPIO_ADIOS2_PREFIX"); fi
nwpio_build "$NWPIO_ROOT/build" "${adios2_args[@]}"
stage "test: default configuration"
run_ctest "$NWPIO_ROOT/build" -j "${NWPIO_CTEST_JOBS:-2}" -LE slurm

stage "test: job scripts on a local Slurm (ctest -L slurm)"
run_ctest "$NWPIO_ROOT/build" -L slurm

stage "build: without PnetCDF, serial netCDF-C (io_form 0 and 2 only)"
mkdir -p "$NWPIO_ROOT/build-nopnetcdf"
# (the Fortran bindings' io_form 2 path is tested in the default build: fortran_kinds_serial_np3)
nwpio_build "$NWPIO_ROOT/build-nopnetcdf" -DNWPIO_WITH_PNETCDF=OFF -DNWPIO_NETCDF=serial -DNWPIO_BUILD_BENCH=OFF \
  -DNWPIO_BUILD_FORTRAN=OFF
stage "test: without PnetCDF"
run_ctest "$NWPIO_ROOT/build-nopnetcdf" -j "${NWPIO_CTEST_JOBS:-2}" -LE slurm

stage "build: AddressSanitizer + UndefinedBehaviorSanitizer (no bench)"
mkdir -p "$NWPIO_ROOT/build-asan"
nwpio_build "$NWPIO_ROOT/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNWPIO_SANITIZE=address,undefined \
  -DNWPIO_BUILD_BENCH=OFF
stage "test: unit and MPI tests under the sanitizers (suppressions: tests/sanitizers/*.supp)"
# Not here: reliability_killed_run (91 s under ASan; it tests process kills, not memory),
# nwpio_ompio_writer_alone_np* (52-58 s each under ASan; Open MPI's sieving race after a Writer
# opened a stream, the guard's code runs in every stream here) and fortran_install_consumers (its
# consumer is built without the sanitizer against the sanitized library); all run in the Release
# stage.
"$NWPIO_ROOT/tests/sanitizers/run_ctest.sh" "$NWPIO_ROOT/build-asan" -j "${NWPIO_CTEST_JOBS:-2}" --timeout 900 \
  -LE 'slurm|^fuzz$|bench' -E 'reliability_killed_run|fortran_install_consumers|nwpio_ompio_writer_alone'

stage "build: fuzz targets (clang, libFuzzer + ASan + UBSan)"
mkdir -p "$NWPIO_ROOT/build-fuzz"
CC=clang CXX=clang++ NWPIO_BUILD_TARGET=nwpio_fuzz nwpio_build "$NWPIO_ROOT/build-fuzz" -DNWPIO_BUILD_FUZZ=ON \
  -DNWPIO_BUILD_FORTRAN=OFF -DNWPIO_BUILD_BENCH=OFF
stage "test: short fuzz runs (${NWPIO_FUZZ_SECONDS:-20} s each)"
run_ctest "$NWPIO_ROOT/build-fuzz" -L fuzz

stage "build: MPICH (PnetCDF for MPICH, cached per machine; nwpio with -DNWPIO_MPI=mpich)"
nwpio_pnetcdf_mpich
mkdir -p "$NWPIO_ROOT/build-mpich"
nwpio_build "$NWPIO_ROOT/build-mpich" -DNWPIO_MPI=mpich -DCMAKE_PREFIX_PATH="$NWPIO_PNETCDF_MPICH_PREFIX"
stage "test: MPICH (mpiexec.mpich)"
run_ctest "$NWPIO_ROOT/build-mpich" -j "${NWPIO_CTEST_JOBS:-2}" -LE slurm
stage "test: MPICH, job scripts on a local Slurm (mpiexec.mpich, srun --mpi=pmi2)"
run_ctest "$NWPIO_ROOT/build-mpich" -L slurm

stage "test: the real WRF 4.7.1 through nwpio's io_form 11 package (scripts/wrf-check.sh)"
NWPIO_BUILD_DIR="$NWPIO_ROOT/build" "$NWPIO_ROOT/scripts/wrf-check.sh"

stage "test: a cluster as an unprivileged user (scripts/cluster-check.sh)"
"$NWPIO_ROOT/scripts/cluster-check.sh"

stage "all stages passed in $((SECONDS - t0)) s"
