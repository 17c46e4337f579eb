#!/usr/bin/env bash
# PnetCDF 1.12.3 built with MPICH's compilers, once per machine (Debian's libpnetcdf-dev is
# built for Open MPI only). Run it, or source it and call nwpio_pnetcdf_mpich:
#   scripts/build-pnetcdf-mpich.sh          prints the install prefix (builds it when missing)
#   source scripts/build-pnetcdf-mpich.sh; nwpio_pnetcdf_mpich   sets NWPIO_PNETCDF_MPICH_PREFIX
# Source: $NWPIO_SHARED/pnetcdf/pnetcdf-1.12.3-src.tar.gz (the upstream tag checkpoint.1.12.3,
# a git checkout: autoreconf first). Installed into
#   ${NWPIO_CACHE_DIR:-/var/cache/nwpio}/pnetcdf-mpich-1.12.3-<first 12 hex of the tarball's sha256>
# outside the checkout. The prefix appears only complete: PnetCDF is installed with DESTDIR
# into a staging directory and renamed into place; the stamp file .nwpio-stamp in it records
# the tarball's hash, the configure line and the MPICH version, and a prefix whose stamp
# differs from what this script would build is rebuilt. PnetCDF's own tests are not run (three
# of their data files are missing from that copy of the source).
[[ -n ${NWPIO_ROOT:-} ]] || source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

NWPIO_PNETCDF_MPICH_PACKAGES=(mpich libmpich-dev autoconf automake libtool m4 make gfortran)

# The shared sources: ../shared beside the checkout (CI's layout), else /work/shared.
nwpio_shared_dir() {
  local d
  for d in "${NWPIO_SHARED:-}" "$NWPIO_ROOT/../shared" /work/shared; do
    [[ -n $d && -d $d/pnetcdf ]] && { (cd "$d" && pwd); return 0; }
  done
  nwpio_log "no shared sources (set NWPIO_SHARED to the folder holding pnetcdf/)"
  return 1
}

nwpio_pnetcdf_mpich() {
  nwpio_install_packages "${NWPIO_PNETCDF_MPICH_PACKAGES[@]}" || return 1
  local shared tarball sha cache prefix configure stamp_want t0=$SECONDS
  shared=$(nwpio_shared_dir) || return 1
  tarball=$shared/pnetcdf/pnetcdf-1.12.3-src.tar.gz
  sha=$(sha256sum "$tarball" | cut -c1-64)
  cache=${NWPIO_CACHE_DIR:-/var/cache/nwpio}
  prefix=$cache/pnetcdf-mpich-1.12.3-${sha:0:12}
  # nwpio uses PnetCDF's C API only, and the Fortran and C++ interfaces are most of the build
  # (make: 167 s with them, 22 s without). A WRF built with MPICH links PnetCDF's Fortran API:
  # NWPIO_PNETCDF_MPICH_FORTRAN=1 builds the C++ and Fortran interfaces too.
  configure=(--prefix="$prefix" --enable-shared --disable-static MPICC=mpicc.mpich "CFLAGS=-O2")
  if [[ ${NWPIO_PNETCDF_MPICH_FORTRAN:-0} == 1 ]]; then
    configure+=(MPICXX=mpicxx.mpich MPIF77=mpif77.mpich MPIF90=mpif90.mpich "CXXFLAGS=-O2"
      "FFLAGS=-O2 -fallow-argument-mismatch" "FCFLAGS=-O2 -fallow-argument-mismatch")
  else
    configure+=(--disable-cxx --disable-fortran)
  fi
  stamp_want=$(printf 'tarball sha256 %s\nconfigure %s\n%s\n' "$sha" "${configure[*]}" "$(mpichversion | head -1)")
  NWPIO_PNETCDF_MPICH_PREFIX=$prefix
  export NWPIO_PNETCDF_MPICH_PREFIX
  mkdir -p "$cache"
  (
    # One build at a time on this machine; a second caller waits and then finds it done.
    flock 9
    if [[ -f $prefix/.nwpio-stamp && $(sed -n '1,3p' "$prefix/.nwpio-stamp") == "$stamp_want" ]]; then
      nwpio_log "PnetCDF for MPICH: cached in $prefix"
      exit 0
    fi
    nwpio_log "PnetCDF for MPICH: building $tarball into $prefix"
    local work
    work=$(mktemp -d "$cache/pnetcdf-mpich-build.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    local log=$work/build.log
    {
      tar xzf "$tarball" -C "$work" &&
        cd "$work/pnetcdf-1.12.3" &&
        autoreconf -i &&
        ./configure "${configure[@]}" &&
        make -j "$NWPIO_JOBS" &&
        make install DESTDIR="$work/stage"
    } >"$log" 2>&1 || {
      tail -n 60 "$log" >&2
      nwpio_log "PnetCDF for MPICH: build failed (last lines above)"
      exit 1
    }
    echo "$stamp_want" >"$work/stage$prefix/.nwpio-stamp"
    echo "built $(date -u +%FT%TZ) in $((SECONDS - t0)) s" >>"$work/stage$prefix/.nwpio-stamp"
    rm -rf "$prefix"
    mv "$work/stage$prefix" "$prefix"
    nwpio_log "PnetCDF for MPICH: built in $((SECONDS - t0)) s"
  ) 9>"$cache/.pnetcdf-mpich.lock"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  set -euo pipefail
  nwpio_pnetcdf_mpich
  echo "$NWPIO_PNETCDF_MPICH_PREFIX"
fi
