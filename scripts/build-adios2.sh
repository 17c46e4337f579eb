#!/usr/bin/env bash
# Builds ADIOS2 (the library behind WRF's io_form 14 package) once per machine into a cache
# OUTSIDE the checkout, from ../shared/adios2 alone (nothing downloaded): MPI, Fortran, Blosc
# (Debian's libblosc-dev), BP4/BP5; no tests, examples, Python, HDF5, SST or network engines.
#
#   scripts/build-adios2.sh            builds (or finds) the cache and prints its prefix
#   source scripts/build-adios2.sh     (after scripts/setup.sh) defines:
#     nwpio_adios2_build               builds (or finds) it; sets NWPIO_ADIOS2_PREFIX
#     nwpio_adios2_cached              true when the cache is built (sets NWPIO_ADIOS2_PREFIX)
#
# The cache key hashes the tarball and the CMake options below, so another tarball or other
# options build a new prefix and an old one is never half-reused. A prefix counts as built only
# when its stamp file exists (written last); an interrupted build is wiped and started again.
NWPIO_ADIOS2_TARBALL=${NWPIO_ADIOS2_TARBALL:-$NWPIO_ROOT/../shared/adios2/ADIOS2-2.8.3-src.tar.gz}
[[ -f $NWPIO_ADIOS2_TARBALL ]] || NWPIO_ADIOS2_TARBALL=/work/shared/adios2/ADIOS2-2.8.3-src.tar.gz
NWPIO_ADIOS2_CACHE=${NWPIO_ADIOS2_CACHE:-/var/cache/nwpio}
NWPIO_ADIOS2_PACKAGES=(cmake make g++ gfortran openmpi-bin libopenmpi-dev libblosc-dev)
# What WRF's package needs (MPI, Fortran bindings, Blosc, the BP engines) is ON; every optional
# dependency is named OFF, so a package installed later on the machine cannot change the build.
NWPIO_ADIOS2_OPTIONS=(-DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON
  -DADIOS2_USE_MPI=ON -DADIOS2_USE_Fortran=ON -DADIOS2_USE_Blosc=ON -DADIOS2_USE_BP5=ON
  -DADIOS2_USE_CUDA=OFF -DADIOS2_USE_Python=OFF -DADIOS2_USE_HDF5=OFF -DADIOS2_USE_SST=OFF
  -DADIOS2_USE_ZFP=OFF -DADIOS2_USE_SZ=OFF -DADIOS2_USE_BZip2=OFF -DADIOS2_USE_PNG=OFF
  -DADIOS2_USE_ZeroMQ=OFF -DADIOS2_USE_DataMan=OFF -DADIOS2_USE_MGARD=OFF
  -DADIOS2_USE_LIBPRESSIO=OFF -DADIOS2_USE_DAOS=OFF -DADIOS2_USE_DataSpaces=OFF
  -DADIOS2_USE_MHS=OFF -DADIOS2_USE_IME=OFF -DADIOS2_USE_Sodium=OFF -DADIOS2_USE_Profiling=OFF
  -DBUILD_TESTING=OFF -DADIOS2_BUILD_EXAMPLES=OFF -DADIOS2_RUN_INSTALL_TEST=OFF)

nwpio_adios2_key() {
  local hash
  hash=$({ sha256sum <"$NWPIO_ADIOS2_TARBALL"; printf '%s\n' "${NWPIO_ADIOS2_OPTIONS[@]}"; } | sha256sum | cut -c1-12)
  echo "adios2-$hash"
}

nwpio_adios2_cached() {
  local dir=$NWPIO_ADIOS2_CACHE/$(nwpio_adios2_key)
  NWPIO_ADIOS2_PREFIX=$dir/prefix
  [[ -f $dir/built.stamp ]]
}

nwpio_adios2_build() {
  local key dir start src
  key=$(nwpio_adios2_key)
  dir=$NWPIO_ADIOS2_CACHE/$key
  NWPIO_ADIOS2_PREFIX=$dir/prefix
  mkdir -p "$NWPIO_ADIOS2_CACHE"
  # One build per machine even when two scripts start at once: the second waits for the first.
  exec {NWPIO_ADIOS2_LOCK}>"$NWPIO_ADIOS2_CACHE/$key.lock"
  flock "$NWPIO_ADIOS2_LOCK"
  if [[ -f $dir/built.stamp ]]; then
    nwpio_log "ADIOS2: cached build $NWPIO_ADIOS2_PREFIX ($(cat "$dir/built.stamp"))"
    flock -u "$NWPIO_ADIOS2_LOCK"
    return 0
  fi
  start=$(date +%s)
  nwpio_log "ADIOS2: building into $NWPIO_ADIOS2_PREFIX; log $dir/build.log"
  rm -rf "$dir"
  mkdir -p "$dir"
  tar xzf "$NWPIO_ADIOS2_TARBALL" -C "$dir"
  src=$(find "$dir" -mindepth 1 -maxdepth 1 -type d -name 'ADIOS2*' | head -1)
  # The installed libraries find each other through their rpath, so wrf.exe needs only its own.
  if ! {
    cmake -S "$src" -B "$dir/build" "${NWPIO_ADIOS2_OPTIONS[@]}" -DCMAKE_INSTALL_PREFIX="$NWPIO_ADIOS2_PREFIX" \
      -DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_INSTALL_RPATH="$NWPIO_ADIOS2_PREFIX/lib" &&
      cmake --build "$dir/build" -j "$NWPIO_JOBS" && cmake --install "$dir/build"
  } >"$dir/build.log" 2>&1; then
    nwpio_log "ADIOS2: build failed; last lines of $dir/build.log:"
    tail -20 "$dir/build.log" >&2
    flock -u "$NWPIO_ADIOS2_LOCK"
    return 1
  fi
  # The build tree is 1 GB of objects nobody reads again; the log stays.
  rm -rf "$dir/build" "$src"
  echo "built in $(($(date +%s) - start)) s on $(date -u +%FT%TZ)" >"$dir/built.stamp"
  nwpio_log "ADIOS2: $(cat "$dir/built.stamp")"
  flock -u "$NWPIO_ADIOS2_LOCK"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  set -euo pipefail
  source "$(dirname "$0")/setup.sh"
  nwpio_install_packages "${NWPIO_ADIOS2_PACKAGES[@]}"
  nwpio_adios2_build
  echo "$NWPIO_ADIOS2_PREFIX"
fi
