# shellcheck shell=bash
# The "site" of the cluster stage (scripts/cluster-check.sh): what a cluster's administrators
# provide, as prefixes with modulefiles, built or linked once per machine into a cache outside
# the checkout. Sourced, not run; needs setup.sh's nwpio_log and NWPIO_JOBS.
#
#   nwpio_site_prepare DIR   DIR/openmpi/4.1.4     links to Debian's Open MPI (the MPI WRF is built with)
#                            DIR/netcdf-c/4.9.0    links to Debian's serial netCDF-C (the one WRF links)
#                            DIR/pnetcdf/1.12.3    PnetCDF 1.12.3 from ../shared/pnetcdf, built with
#                                                  that Open MPI (rebuilt when its stamp differs):
#                                                  the C API (nwpio) and Fortran (WRF's own
#                                                  io_form 11 package), no C++ interface, which
#                                                  nothing on the site uses
#                            DIR/modulefiles/{openmpi,netcdf-c,pnetcdf}/<version>.lua
# Everything is world-readable; a user loads the modules and sees nothing else of them.

nwpio_site_links() {  # nwpio_site_links DIR TARGET... : DIR/<name> -> TARGET for each
  local dir=$1 t
  shift
  mkdir -p "$dir"
  for t in "$@"; do ln -sfn "$t" "$dir/$(basename "$t")"; done
}

nwpio_site_openmpi() {
  local p=$1/openmpi/4.1.4 w
  mkdir -p "$p/bin"
  for w in mpicc mpicxx mpic++ mpif77 mpif90 mpifort mpirun mpiexec; do
    ln -sfn "/usr/bin/$w.openmpi" "$p/bin/$w"
  done
  ln -sfn /usr/bin/ompi_info "$p/bin/ompi_info"
  ln -sfn /usr/lib/x86_64-linux-gnu/openmpi/include "$p/include"
  ln -sfn /usr/lib/x86_64-linux-gnu/openmpi/lib "$p/lib"
}

nwpio_site_netcdf() {
  local p=$1/netcdf-c/4.9.0 lib=/usr/lib/x86_64-linux-gnu
  nwpio_site_links "$p/include" /usr/include/netcdf*.h
  nwpio_site_links "$p/lib" "$lib"/libnetcdf.so "$lib"/libnetcdf.so.19
  nwpio_site_links "$p/lib/cmake" "$lib/cmake/netCDF"
  nwpio_site_links "$p/bin" /usr/bin/nc-config /usr/bin/ncdump
  mkdir -p "$p/lib/pkgconfig"
  # the .pc file names its own prefix, as a site install's does
  sed -e "s|^prefix=.*|prefix=$p|" -e "s|^exec_prefix=.*|exec_prefix=$p|" -e "s|^libdir=.*|libdir=$p/lib|" \
    -e "s|^includedir=.*|includedir=$p/include|" "$lib/pkgconfig/netcdf.pc" >"$p/lib/pkgconfig/netcdf.pc"
}

# PnetCDF built with the site's Open MPI, once per machine. The prefix appears complete or not
# at all (installed with DESTDIR into a staging directory, then renamed); its stamp records the
# tarball's hash, the configure line and the MPI, and a differing stamp rebuilds it.
nwpio_site_pnetcdf() {
  local site=$1 shared tarball sha p mpi stamp_want configure t0=$SECONDS
  shared=$(nwpio_shared_dir) || return 1
  tarball=$shared/pnetcdf/pnetcdf-1.12.3-src.tar.gz
  sha=$(sha256sum "$tarball" | cut -c1-64)
  p=$site/pnetcdf/1.12.3
  mpi=$site/openmpi/4.1.4/bin
  configure=(--prefix="$p" --enable-shared --disable-static --disable-cxx MPICC="$mpi/mpicc"
    MPIF77="$mpi/mpif77" MPIF90="$mpi/mpif90" "CFLAGS=-O2"
    "FFLAGS=-O2 -fallow-argument-mismatch" "FCFLAGS=-O2 -fallow-argument-mismatch")
  stamp_want=$(printf 'tarball sha256 %s\nconfigure %s\n%s\n' "$sha" "${configure[*]}" "$("$mpi/ompi_info" --version | awk 'NR == 1')")
  (
    flock 9
    if [[ -f $p/.nwpio-stamp && $(sed -n '1,3p' "$p/.nwpio-stamp") == "$stamp_want" ]]; then
      nwpio_log "site: PnetCDF 1.12.3 for Open MPI cached in $p"
      exit 0
    fi
    nwpio_log "site: building PnetCDF 1.12.3 with $mpi/mpicc into $p"
    local work
    work=$(mktemp -d "$site/pnetcdf-build.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    {
      tar xzf "$tarball" -C "$work" && cd "$work/pnetcdf-1.12.3" && autoreconf -i &&
        ./configure "${configure[@]}" && make -j "$NWPIO_JOBS" && make install DESTDIR="$work/stage"
    } >"$work/build.log" 2>&1 || {
      tail -n 40 "$work/build.log" >&2
      nwpio_log "site: PnetCDF build failed (last lines above)"
      exit 1
    }
    echo "$stamp_want" >"$work/stage$p/.nwpio-stamp"
    echo "built $(date -u +%FT%TZ) in $((SECONDS - t0)) s" >>"$work/stage$p/.nwpio-stamp"
    rm -rf "$p"
    mkdir -p "$(dirname "$p")"
    mv "$work/stage$p" "$p"
    nwpio_log "site: PnetCDF built in $((SECONDS - t0)) s"
  ) 9>"$site/.pnetcdf.lock"
}

# Lmod modulefiles as a site writes them: PATH, the library directory, the CMake and pkg-config
# search paths, and the <PKG>_ROOT / PNETCDF / NETCDF variables WRF's configure reads.
nwpio_site_modulefiles() {
  local site=$1 m=$1/modulefiles
  mkdir -p "$m/openmpi" "$m/netcdf-c" "$m/pnetcdf"
  cat >"$m/openmpi/4.1.4.lua" <<EOF
whatis("Open MPI 4.1.4 (the site's MPI)")
local root = "$site/openmpi/4.1.4"
prepend_path("PATH", pathJoin(root, "bin"))
setenv("MPI_HOME", root)
family("mpi")
EOF
  cat >"$m/netcdf-c/4.9.0.lua" <<EOF
whatis("netCDF-C 4.9.0 (serial)")
local root = "$site/netcdf-c/4.9.0"
prepend_path("PATH", pathJoin(root, "bin"))
prepend_path("PKG_CONFIG_PATH", pathJoin(root, "lib/pkgconfig"))
prepend_path("CMAKE_PREFIX_PATH", root)
setenv("NETCDF_ROOT", root)
EOF
  cat >"$m/pnetcdf/1.12.3.lua" <<EOF
whatis("PnetCDF 1.12.3 for Open MPI 4.1.4")
prereq("openmpi")
local root = "$site/pnetcdf/1.12.3"
prepend_path("PATH", pathJoin(root, "bin"))
prepend_path("LD_LIBRARY_PATH", pathJoin(root, "lib"))
prepend_path("PKG_CONFIG_PATH", pathJoin(root, "lib/pkgconfig"))
prepend_path("CMAKE_PREFIX_PATH", root)
setenv("PNETCDF", root)
setenv("PNETCDF_ROOT", root)
EOF
}

nwpio_site_prepare() {
  local site=$1
  mkdir -p "$site"
  nwpio_site_openmpi "$site"
  nwpio_site_netcdf "$site"
  nwpio_site_pnetcdf "$site" || return 1
  nwpio_site_modulefiles "$site"
  chmod -R a+rX "$site"
}
