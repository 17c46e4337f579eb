# shellcheck shell=bash
# The "site" of the cluster stage (scripts/cluster-check.sh): what a cluster's administrators
# provide, as prefixes with modulefiles, built or linked once per machine into a cache outside
# the checkout. Sourced, not run; needs setup.sh's nwpio_log and NWPIO_JOBS.
#
#   nwpio_site_prepare DIR   DIR/openmpi/4.1.4     links to Debian's Open MPI (the MPI WRF is built with)
#                            DIR/netcdf-c/4.9.0    links to Debian's serial netCDF-C (the one WRF links)
#                            DIR/netcdf-c-mpi/4.9.0  a copy of Debian's MPI netCDF-C laid out as a
#                                                  Spack or RPM install (nwpio_site_netcdf_mpi)
#                            DIR/pnetcdf/1.15.0    PnetCDF 1.15.0 (GIO driver) from ../shared/pnetcdf,
#                                                  built with that Open MPI (rebuilt when its stamp
#                                                  differs): static, C API only, installed as
#                                                  upstream installs it (see nwpio_site_pnetcdf)
#                            DIR/modulefiles/{openmpi,netcdf-c,netcdf-c-mpi,pnetcdf}/<version>.lua
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

# The MPI build of netCDF-C as a site (Spack, an RPM) installs it: one prefix of its own with
# include/, lib/libnetcdf.so and bin/nc-config (no CMake package: an autotools build has none),
# not Debian's layout (libnetcdf_mpi, headers in a private folder, no nc-config). A copy of
# Debian's files (there is no netCDF-C source to build from); the library keeps its SONAME
# libnetcdf_mpi.so.19, so the prefix holds that name too. nc-config is netCDF's own script with
# this prefix's paths and its parallel build's answers.
nwpio_site_netcdf_mpi() {
  local p=$1/netcdf-c-mpi/4.9.0 lib=/usr/lib/x86_64-linux-gnu deb=/usr/lib/x86_64-linux-gnu/netcdf/mpi
  local so stamp t
  so=$(readlink -f "$lib/libnetcdf_mpi.so.19")
  stamp="copy of $(sha256sum "$so" | cut -c1-64) $so"
  # Made once and renamed into place: a build using the prefix never sees it half made.
  [[ -f $p/.nwpio-stamp && $(cat "$p/.nwpio-stamp") == "$stamp" ]] && return 0
  t=$(mktemp -d "$1/netcdf-c-mpi-build.XXXXXX")
  mkdir -p "$t/include" "$t/lib/pkgconfig" "$t/bin"
  cp "$deb"/include/*.h "$t/include/"
  cp "$so" "$t/lib/libnetcdf.so.19"
  ln -s libnetcdf.so.19 "$t/lib/libnetcdf.so"
  ln -s libnetcdf.so.19 "$t/lib/libnetcdf_mpi.so.19"
  sed -e "s|^prefix=.*|prefix=$p|" -e "s|^libdir=.*|libdir=\${prefix}/lib|" -e "s|^includedir=.*|includedir=\${prefix}/include|" \
    -e 's|-lnetcdf_mpi|-lnetcdf|' "$lib/pkgconfig/netcdf-mpi.pc" >"$t/lib/pkgconfig/netcdf.pc"
  sed -e "s|^prefix=.*|prefix=\"$p\"|" -e "s|^exec_prefix=.*|exec_prefix=\"$p\"|" -e "s|^libdir=.*|libdir=\"$p/lib\"|" \
    -e "s|^includedir=.*|includedir=\"$p/include\"|" -e 's|^cc=.*|cc="mpicc"|' -e "s|^cflags=.*|cflags=\"-I$p/include\"|" \
    -e "s|^libs=.*|libs=\"-L$p/lib -lnetcdf\"|" -e 's|^has_parallel4=.*|has_parallel4="ON"|' \
    -e 's|^has_parallel=.*|has_parallel="ON"|' /usr/bin/nc-config >"$t/bin/nc-config"
  chmod 755 "$t/bin/nc-config"
  echo "$stamp" >"$t/.nwpio-stamp"
  rm -rf "$p"
  mkdir -p "$(dirname "$p")"
  mv "$t" "$p"
}

# PnetCDF 1.15.0 (with its GIO driver) built with the site's Open MPI, once per machine, as its
# upstream `make install` leaves it: PnetCDF 1.15's configure builds shared libraries only with an
# MPI it recognises as built shared, which Debian's Open MPI is not, so a static libpnetcdf.a
# (-fPIC, so that a shared library can take it in); its pnetcdf.pc says `Requires: gio`, and no
# gio.pc is installed (GIO is inside libpnetcdf.a), so `pkg-config pnetcdf` fails there: nwpio's
# configure must cope with that (cmake/NwpioPnetcdf.cmake). C only: nothing on the site uses the
# Fortran or C++ interfaces (the WRF tree links Debian's PnetCDF). The prefix appears complete or
# not at all (installed with DESTDIR into a staging directory, then renamed); its stamp records
# the tarball's hash, the configure line and the MPI, and a differing stamp rebuilds it.
NWPIO_SITE_PNETCDF_VERSION=1.15.0
nwpio_site_pnetcdf() {
  local site=$1 shared tarball sha p mpi stamp_want configure t0=$SECONDS v=$NWPIO_SITE_PNETCDF_VERSION
  shared=$(nwpio_shared_dir) || return 1
  tarball=$shared/pnetcdf/pnetcdf-$v-gio-src.tar.gz
  sha=$(sha256sum "$tarball" | cut -c1-64)
  p=$site/pnetcdf/$v
  mpi=$site/openmpi/4.1.4/bin
  configure=(--prefix="$p" --disable-shared --enable-static --disable-cxx --disable-fortran MPICC="$mpi/mpicc"
    "CFLAGS=-O2 -fPIC")
  stamp_want=$(printf 'tarball sha256 %s\nconfigure %s\n%s\n' "$sha" "${configure[*]}" "$("$mpi/ompi_info" --version | awk 'NR == 1')")
  (
    flock 9
    if [[ -f $p/.nwpio-stamp && $(sed -n '1,3p' "$p/.nwpio-stamp") == "$stamp_want" ]]; then
      nwpio_log "site: PnetCDF $v for Open MPI cached in $p"
      exit 0
    fi
    nwpio_log "site: building PnetCDF $v with $mpi/mpicc into $p"
    local work
    work=$(mktemp -d "$site/pnetcdf-build.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    {
      tar xzf "$tarball" -C "$work" && cd "$work/pnetcdf-$v" &&
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
# nwpio_site_module FILE WHATIS ROOT [PREREQ]: the common head (whatis, prereq, root, PATH); the
# module's own lines follow from stdin.
nwpio_site_module() {
  mkdir -p "$(dirname "$1")"
  {
    echo "whatis(\"$2\")"
    [[ -z ${4:-} ]] || echo "prereq(\"$4\")"
    echo "local root = \"$3\""
    echo 'prepend_path("PATH", pathJoin(root, "bin"))'
    cat
  } >"$1"
}

nwpio_site_modulefiles() {
  local site=$1 m=$1/modulefiles v=$NWPIO_SITE_PNETCDF_VERSION
  nwpio_site_module "$m/openmpi/4.1.4.lua" "Open MPI 4.1.4 (the site's MPI)" "$site/openmpi/4.1.4" <<'EOF'
setenv("MPI_HOME", root)
family("mpi")
EOF
  nwpio_site_module "$m/netcdf-c/4.9.0.lua" "netCDF-C 4.9.0 (serial)" "$site/netcdf-c/4.9.0" <<'EOF'
prepend_path("PKG_CONFIG_PATH", pathJoin(root, "lib/pkgconfig"))
prepend_path("CMAKE_PREFIX_PATH", root)
setenv("NETCDF_ROOT", root)
EOF
  # (no CMAKE_PREFIX_PATH: an autotools install has no CMake package; nc-config is on PATH)
  nwpio_site_module "$m/netcdf-c-mpi/4.9.0.lua" "netCDF-C 4.9.0, MPI build (parallel HDF5, Open MPI 4.1.4)" \
    "$site/netcdf-c-mpi/4.9.0" openmpi <<'EOF'
prepend_path("LD_LIBRARY_PATH", pathJoin(root, "lib"))
prepend_path("PKG_CONFIG_PATH", pathJoin(root, "lib/pkgconfig"))
setenv("NETCDF_ROOT", root)
EOF
  rm -f "$m/pnetcdf/"*.lua  # one PnetCDF on the site: the one built above
  nwpio_site_module "$m/pnetcdf/$v.lua" "PnetCDF $v for Open MPI 4.1.4 (static, GIO driver)" "$site/pnetcdf/$v" openmpi <<'EOF'
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
  nwpio_site_netcdf_mpi "$site"
  nwpio_site_pnetcdf "$site" || return 1
  nwpio_site_modulefiles "$site"
  chmod -R a+rX "$site"
}
