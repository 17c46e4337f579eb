#!/usr/bin/env bash
# Installs what is missing, builds every configuration and runs the test suite. CI runs exactly
# this (.ci/run). Exit code 0 only when every stage passed. Each stage line prints the seconds
# since the start; at the end (also when a stage fails) a table gives each stage's duration.
#
# Every kind of check runs, but each test only where it can find something new: the default
# build runs every test at every rank count; the other configurations differ from it in their
# compiler instrumentation, libraries or MPI, so they run the unit tests and each MPI test once,
# at one uneven rank count (scripts/ctest_select.py picks it from the tests CMake registered).
#   stage 1: default build (Release, PnetCDF): every test except the Slurm ones and the emulated
#            cluster's (label cluster), which stage 6 runs
#   stage 2: a build without PnetCDF and with the serial netCDF-C (io_form 0 and 2 only: no 11, no
#            13): what differs is the code compiled without PnetCDF and the serial library; the
#            rank counts exercise the same rearranger code as in stage 1, so each MPI test once
#   stage 3: AddressSanitizer + UndefinedBehaviorSanitizer build with clang and clang++ (C, C++)
#            and gfortran (the Fortran module, WRF's package): the unit tests, the fuzz corpora
#            and each MPI test once (memory errors do not depend on the rank count; the uneven
#            split is the one with the most edge cases); not the tests labelled not_sanitized
#            (their CMake files say why). This is the suite's clang build (the other full builds
#            are GCC's) instead of a build more, and its Fortran compiler differs from its C++ one,
#            as at a site whose WRF is built with another compiler than nwpio; clang's UBSan also
#            has a check GCC's lacks (-fsanitize=function: calls through a mistyped pointer)
#   stage 4: libFuzzer runs of the namelist, iofields, hints and WRF-call readers (clang), two at
#            a time
#   stage 5: MPICH: PnetCDF built for MPICH (once per machine, scripts/build-pnetcdf-mpich.sh),
#            nwpio built against both (build-mpich/, -O1, no bench); the unit tests and each
#            MPI test once under mpiexec.mpich (what differs is the MPI library, ROMIO and the
#            launcher, not the decomposition), at 2 ranks: MPICH's ranks busy-poll, and 3 of them
#            on 2 cores wait for each other; then the Slurm job scripts with srun --mpi=pmi2
#   stage 6: across the nodes of a cluster emulated on this machine (scripts/multinode-check.sh
#            --up --wrf: 4 nodes, GlusterFS mounted by each node's own client, Slurm with a
#            slurmd per node): nwpio-demo at io_form 11, 2 and 13 against one node's files, I/O
#            servers on a node of their own, MPICH's launcher, the hostile-directory and kill
#            tests on the shared volume, the job scripts (ctest -L slurm) through sbatch -N 2, the
#            cluster's self-test (ctest -L cluster), and the real WRF model writing through
#            nwpio across 2 nodes (scripts/wrf-check.sh; WRF is built once per machine into
#            /var/cache/nwpio, so only the first run on a machine pays for it)
#   stage 7: a cluster played by an unprivileged user (scripts/cluster-check.sh): site modules
#            (PnetCDF 1.15.0 as upstream installs it, a Spack-style MPI netCDF-C), the io_form 11
#            and 13 MPI tests once against them (as root, build-site/), nwpio from a clean clone
#            installed in $HOME, module load nwpio, mini_wrf under sbatch, the real WRF linked
#            with nwpio-wrf and unlinked
# NWPIO_CTEST_JOBS (default 2) runs that many tests at once; NWPIO_FUZZ_SECONDS (default 20) is
# each fuzz run's length.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
source "$(dirname "$0")/build-pnetcdf-mpich.sh"
source "$(dirname "$0")/build-adios2.sh"
t0=$SECONDS
stage_name="" stage_t0=$SECONDS stage_times=()
# stage NAME: closes the running stage (its duration goes into the table) and opens NAME.
stage() {
  [[ -n $stage_name ]] && stage_times+=("$(printf '%6d s  %s' $((SECONDS - stage_t0)) "$stage_name")")
  stage_name=$* stage_t0=$SECONDS
  nwpio_log "=== $* (at $((SECONDS - t0)) s)"
}
# The table of stage durations; on failure the last line is the stage that failed.
stage_table() {
  local status=$?
  [[ -n $stage_name ]] && stage_times+=("$(printf '%6d s  %s' $((SECONDS - stage_t0)) "$stage_name")")
  nwpio_log "stage durations ($((SECONDS - t0)) s in all$( ((status)) && echo ", failed in the last one")):"
  printf '%s\n' "${stage_times[@]}"
}
trap stage_table EXIT

stage "packages: install what is missing"
# Slurm and munge for the job-script tests; python3 is the tests' independent reader of TOML/JSON;
# strace proves the fsync-before-rename order; gdb names where a hung run waits
# (tests/cluster/readonly_switch.sh); clang, its runtime and llvm-symbolizer for the
# fuzzers and the sanitizer reports; cdo and Debian's xarray + netCDF4 read the files' dates as
# users' tools do (tests/demo/dates_case.sh) and read the io_form 13 (parallel netCDF-4) files back;
# MPICH and autotools for the MPICH stage; Lmod loads the modulefiles an install writes
# (tests/install, the cluster stage); GlusterFS is the shared file system of the emulated cluster
# (scripts/emulated-cluster.sh, ctest -L cluster).
nwpio_install_packages slurmctld slurmd slurm-client munge python3 strace gdb clang libclang-rt-14-dev llvm-14 \
  cdo python3-xarray python3-netcdf4 lmod glusterfs-server glusterfs-client "${NWPIO_PNETCDF_MPICH_PACKAGES[@]}"
run_ctest() { (cd "$1" && shift && ctest --output-on-failure --timeout 600 "$@"); }
# The ctest -R of the unit tests and each MPI test once in build tree $1 (see above), without the
# tests whose labels match $2 (assigned first, so that a failure stops the script); more
# arguments go to ctest_select.py.
once() { python3 "$NWPIO_ROOT/scripts/ctest_select.py" "$1" --exclude-labels "$2" "${@:3}"; }
jobs=${NWPIO_CTEST_JOBS:-2}

stage "build: default configuration (Release, PnetCDF)"
mkdir -p "$NWPIO_ROOT/build"
# nwpio-bench's ADIOS2 peer and its test only when scripts/build-adios2.sh has already cached
# ADIOS2 on this machine: CI never builds it (about 30 minutes).
adios2_args=()
if nwpio_adios2_cached; then adios2_args=(-DCMAKE_PREFIX_PATH="$NWPIO_ADIOS2_PREFIX"); fi
nwpio_build "$NWPIO_ROOT/build" "${adios2_args[@]}"
stage "test: default configuration"
run_ctest "$NWPIO_ROOT/build" -j "$jobs" -LE 'slurm|cluster'

stage "build: without PnetCDF, serial netCDF-C (io_form 0 and 2 only)"
mkdir -p "$NWPIO_ROOT/build-nopnetcdf"
# (the Fortran bindings' io_form 2 path is tested in the default build: fortran_kinds_serial_np3)
# -O1, as the MPICH build: this build tests a configuration, the default build the code -O3 makes.
nopnetcdf_flags="-O1 -DNDEBUG"
nwpio_build "$NWPIO_ROOT/build-nopnetcdf" -DNWPIO_WITH_PNETCDF=OFF -DNWPIO_NETCDF=serial -DNWPIO_BUILD_BENCH=OFF \
  -DNWPIO_BUILD_FORTRAN=OFF "-DCMAKE_C_FLAGS_RELEASE=$nopnetcdf_flags" "-DCMAKE_CXX_FLAGS_RELEASE=$nopnetcdf_flags"
stage "test: without PnetCDF (unit tests, each MPI test once)"
selected=$(once "$NWPIO_ROOT/build-nopnetcdf" 'slurm|cluster')
run_ctest "$NWPIO_ROOT/build-nopnetcdf" -j "$jobs" -R "$selected"

stage "build: AddressSanitizer + UndefinedBehaviorSanitizer (clang, clang++, gfortran; no bench)"
mkdir -p "$NWPIO_ROOT/build-asan-clang"
# -O0 -g1: at -O1 the sanitizers (UBSan most) make a file compile 1.4 to 3.2 times as long as
# at -O0 (measured with GCC), and the tests' time under the sanitizers goes to Open MPI's
# allocations and process start, not to nwpio's own code (the suite took 306 s at -O0, 297 s at
# -O1); line tables are all a report's stack needs. The folder's name says the compiler: CMake
# takes CC and CXX only when it configures a folder the first time, and a tree switched to other
# compilers with -D loses its cache, the sanitizer options with it. gfortran's objects link
# through clang++ (cmake/NwpioWarnings.cmake).
asan_flags="-O0 -g1 -DNDEBUG"
CC=clang CXX=clang++ FC=gfortran nwpio_build "$NWPIO_ROOT/build-asan-clang" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNWPIO_SANITIZE=address,undefined \
  -DNWPIO_BUILD_BENCH=OFF "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$asan_flags" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$asan_flags" \
  "-DCMAKE_Fortran_FLAGS_RELWITHDEBINFO=$asan_flags"
stage "test: sanitizers: unit tests, fuzz corpora, each MPI test once (suppressions: tests/sanitizers/*.supp)"
# Not the install label either: installing and building consumers is not about memory, and the
# installed programs run the code the demo and MPI tests run here.
selected=$(once "$NWPIO_ROOT/build-asan-clang" 'slurm|cluster|fuzz|bench|install|not_sanitized')
"$NWPIO_ROOT/tests/sanitizers/run_ctest.sh" "$NWPIO_ROOT/build-asan-clang" -j "$jobs" --timeout 900 -R "$selected"

stage "build: fuzz targets (clang, libFuzzer + ASan + UBSan)"
mkdir -p "$NWPIO_ROOT/build-fuzz"
CC=clang CXX=clang++ NWPIO_BUILD_TARGET=nwpio_fuzz nwpio_build "$NWPIO_ROOT/build-fuzz" -DNWPIO_BUILD_FUZZ=ON \
  -DNWPIO_BUILD_FORTRAN=OFF -DNWPIO_BUILD_BENCH=OFF
stage "test: short fuzz runs (${NWPIO_FUZZ_SECONDS:-20} s each, $jobs at a time)"
run_ctest "$NWPIO_ROOT/build-fuzz" -j "$jobs" -L fuzz

stage "build: MPICH (PnetCDF for MPICH, cached per machine; nwpio with -DNWPIO_MPI=mpich, -O1, no bench)"
nwpio_pnetcdf_mpich
mkdir -p "$NWPIO_ROOT/build-mpich"
# (no nwpio-bench: it measures, and what it writes goes through the library the MPI tests check)
# -O1 instead of Release's -O3 (about 70% of the compile time): this build tests MPICH, its ROMIO
# and its launcher; the default build tests the code -O3 makes.
mpich_flags="-O1 -DNDEBUG"
nwpio_build "$NWPIO_ROOT/build-mpich" -DNWPIO_MPI=mpich -DCMAKE_PREFIX_PATH="$NWPIO_PNETCDF_MPICH_PREFIX" \
  -DNWPIO_BUILD_BENCH=OFF "-DCMAKE_C_FLAGS_RELEASE=$mpich_flags" "-DCMAKE_CXX_FLAGS_RELEASE=$mpich_flags" \
  "-DCMAKE_Fortran_FLAGS_RELEASE=-O1"
stage "test: MPICH (mpiexec.mpich; unit tests, each MPI test once, at 2 ranks)"
selected=$(once "$NWPIO_ROOT/build-mpich" 'slurm|cluster' --ranks 2)
run_ctest "$NWPIO_ROOT/build-mpich" -j "$jobs" -R "$selected"
stage "test: MPICH, job scripts on a local Slurm (mpiexec.mpich, srun --mpi=pmi2)"
run_ctest "$NWPIO_ROOT/build-mpich" -L slurm

stage "test: across 4 emulated nodes: nwpio-demo, Slurm -N 2, the real WRF 4.7.1 (scripts/multinode-check.sh)"
NWPIO_BUILD_DIR="$NWPIO_ROOT/build" "$NWPIO_ROOT/scripts/multinode-check.sh" --up --wrf

stage "test: a cluster as an unprivileged user (scripts/cluster-check.sh)"
"$NWPIO_ROOT/scripts/cluster-check.sh"

nwpio_log "all stages passed" # the table (trap) closes the last stage
