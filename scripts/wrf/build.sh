# Builds the real WRF 4.7.1 (em_quarter_ss) once per machine into a cache OUTSIDE the checkout.
# Sourced by scripts/wrf-check.sh and scripts/wrf-bench.sh, not run.
#
#   nwpio_wrf_build            builds (or finds) the cached tree; sets NWPIO_WRF_TREE
#
# Flavour: with NWPIO_WRF_ADIOS2=<ADIOS2 prefix> (scripts/build-adios2.sh) WRF is configured with
# both PnetCDF and ADIOS2, so one wrf.exe writes io_form 11 (WRF's package, or nwpio's after
# nwpio_wrf_link) and io_form 14 (WRF's ADIOS2 package, external/io_adios2).
#
# The cache key is the tarball's hash plus the optimisation flag (and the ADIOS2 cache's key for
# the ADIOS2 flavour), so a new tarball or other flags build a new tree and an old tree is never
# half-reused. A tree counts as built only when its
# stamp file exists (written last); an interrupted build is wiped and started again.
NWPIO_WRF_TARBALL=${NWPIO_WRF_TARBALL:-$NWPIO_ROOT/../shared/wrf/WRF-4.7.1-nwpio-test.tar.gz}
[[ -f $NWPIO_WRF_TARBALL ]] || NWPIO_WRF_TARBALL=/work/shared/wrf/WRF-4.7.1-nwpio-test.tar.gz
NWPIO_WRF_CACHE=${NWPIO_WRF_CACHE:-/var/cache/nwpio}
# -O0: correctness needs no -O2 (values are compared between runs of the same wrf.exe). Measured
# on 2 idle cores: -O0 builds in 194 s and wrf-check runs its checks in 122 s; -O1 built in 1830 s
# (under load 5-15) with checks of 35 s. A fresh CI machine pays the build once, so -O0.
NWPIO_WRF_FCOPTIM=${NWPIO_WRF_FCOPTIM:--O0}
NWPIO_WRF_JOBS=${NWPIO_WRF_JOBS:-2}
# Packages WRF's build needs beyond nwpio's own (its configure/compile are csh + m4 + perl).
NWPIO_WRF_PACKAGES=(gfortran gcc g++ libnetcdff-dev libnetcdf-dev libpnetcdf-dev openmpi-bin
  libopenmpi-dev csh tcsh m4 perl make file)

# Debian splits netCDF-C and netCDF-Fortran and keeps pnetcdf.inc in the multiarch folder, so
# WRF's NETCDF=/usr / PNETCDF=/usr do not work: give it two prefixes made of symlinks.
nwpio_wrf_prefixes() {
  local root=$1 f
  mkdir -p "$root/netcdf/include" "$root/netcdf/lib" "$root/netcdf/bin" \
    "$root/pnetcdf/include" "$root/pnetcdf/lib"
  for f in /usr/include/netcdf*; do ln -sfn "$f" "$root/netcdf/include/"; done
  for f in /usr/lib/x86_64-linux-gnu/libnetcdf*; do ln -sfn "$f" "$root/netcdf/lib/"; done
  ln -sfn /usr/bin/nc-config "$root/netcdf/bin/nc-config"
  ln -sfn /usr/bin/nf-config "$root/netcdf/bin/nf-config"
  ln -sfn /usr/include/pnetcdf.h "$root/pnetcdf/include/pnetcdf.h"
  ln -sfn /usr/include/x86_64-linux-gnu/pnetcdf.inc "$root/pnetcdf/include/pnetcdf.inc"
  ln -sfn /usr/lib/x86_64-linux-gnu/fortran/gfortran-mod-15/pnetcdf.mod "$root/pnetcdf/include/pnetcdf.mod"
  for f in /usr/lib/x86_64-linux-gnu/libpnetcdf.{a,so}; do ln -sfn "$f" "$root/pnetcdf/lib/"; done
}

nwpio_wrf_key() {
  local hash
  hash=$(sha256sum "$NWPIO_WRF_TARBALL" | cut -c1-12)
  echo "wrf-$hash${NWPIO_WRF_FCOPTIM//[^A-Za-z0-9]/}${NWPIO_WRF_ADIOS2:+-$(basename "$(dirname "$NWPIO_WRF_ADIOS2")")-c256}"
}

# WRF 4.7.1's io_form 14 package declares the Blosc compressor's name `character*32 :: compressor`
# in ext_adios2_open_for_write_begin and fills it with nl_get_adios2_blosc_compressor, whose
# argument is character*256: the copy writes 224 blanks past the variable on the stack, and with
# adios2_compression_enable = .true. (the package's default) wrf.exe dies with SIGSEGV at its
# first history file (gfortran 12, -O0; the backtrace is all 0x2020202020202020). The ADIOS2
# flavour widens that one declaration to the getter's length (cache key suffix -c256).
nwpio_wrf_fix_adios2_compressor() {
  local f=$1/external/io_adios2/wrf_io.F90
  grep -q '^  character\*32 *:: compressor$' "$f" || { nwpio_log "WRF: $f: the compressor declaration to widen is not there"; return 1; }
  sed -i 's/^  character\*32\( *\):: compressor$/  character*256\1:: compressor/' "$f"
}

# Configures and compiles em_quarter_ss in $1 (an unpacked WRF-4.7.1). Output goes to $1/../*.log.
nwpio_wrf_compile_tree() {
  local tree=$1 logdir
  logdir=$(dirname "$tree")
  (
    cd "$tree" &&
      export NETCDF=$logdir/prefix/netcdf PNETCDF=$logdir/prefix/pnetcdf &&
      unset PNETCDF_QUILT ADIOS2 &&
      { [[ -z ${NWPIO_WRF_ADIOS2:-} ]] || { export ADIOS2=$NWPIO_WRF_ADIOS2 && nwpio_wrf_fix_adios2_compressor "$tree"; }; } &&
      printf '34\n1\n' | ./configure >"$logdir/configure.log" 2>&1 &&
      sed -i "s|^FCOPTIM\([[:space:]]*\)=.*|FCOPTIM\1=       $NWPIO_WRF_FCOPTIM|" configure.wrf &&
      # ADIOS2's libraries are shared and live in the cache: wrf.exe finds them by its rpath.
      { [[ -z ${NWPIO_WRF_ADIOS2:-} ]] ||
        sed -i "s|^LDFLAGS_LOCAL\([[:space:]]*\)=.*|LDFLAGS_LOCAL\1=       -Wl,-rpath,$NWPIO_WRF_ADIOS2/lib|" configure.wrf; } &&
      ./compile -j "$NWPIO_WRF_JOBS" em_quarter_ss >"$logdir/compile.log" 2>&1
  )
  # ./compile runs make -i: a failed file does not stop it, so the executables are the verdict.
  [[ -x $tree/main/wrf.exe && -x $tree/main/ideal.exe ]]
}

nwpio_wrf_build() {
  local key dir start
  key=$(nwpio_wrf_key)
  dir=$NWPIO_WRF_CACHE/$key
  NWPIO_WRF_TREE=$dir/WRF-4.7.1
  mkdir -p "$NWPIO_WRF_CACHE"
  # One build per machine even when two scripts start at once: the second waits for the first.
  exec {NWPIO_WRF_LOCK}>"$NWPIO_WRF_CACHE/$key.lock"
  flock "$NWPIO_WRF_LOCK"
  if [[ -f $dir/built.stamp ]]; then
    nwpio_log "WRF: cached build $dir ($(cat "$dir/built.stamp"))"
    flock -u "$NWPIO_WRF_LOCK"
    return 0
  fi
  start=$(date +%s)
  nwpio_log "WRF: building em_quarter_ss (FCOPTIM=$NWPIO_WRF_FCOPTIM${NWPIO_WRF_ADIOS2:+, ADIOS2 $NWPIO_WRF_ADIOS2}) into $dir; log $dir/compile.log"
  rm -rf "$dir"
  mkdir -p "$dir"
  nwpio_wrf_prefixes "$dir/prefix"
  tar xzf "$NWPIO_WRF_TARBALL" -C "$dir"
  if ! nwpio_wrf_compile_tree "$NWPIO_WRF_TREE"; then
    nwpio_log "WRF: build failed; last lines of $dir/compile.log:"
    grep -iE 'error' "$dir/compile.log" | tail -20 >&2
    flock -u "$NWPIO_WRF_LOCK"
    return 1
  fi
  echo "built in $(($(date +%s) - start)) s on $(date -u +%FT%TZ)" >"$dir/built.stamp"
  nwpio_log "WRF: $(cat "$dir/built.stamp")"
  flock -u "$NWPIO_WRF_LOCK"
}

# The PNETCDF_QUILT variant (WRF's I/O servers writing through ext_pnc_*): only
# frame/module_quilt_outbuf_ops.F and frame/module_io_quilt.F look at PNETCDF_QUILT, so they
# are compiled again with it (same commands as in compile.log, into $dir/quilt) and put into a
# copy of libwrflib.a; wrf.exe is then only relinked. Sets NWPIO_WRF_QUILT_LIB.
nwpio_wrf_quilt_library() {
  local tree=$NWPIO_WRF_TREE base dir log f cpp std fc
  base=$(dirname "$tree")
  dir=$base/quilt
  log=$base/compile.log
  NWPIO_WRF_QUILT_LIB=$dir/libwrflib_quilt.a
  [[ -f $dir/built.stamp ]] && return 0
  rm -rf "$dir"
  mkdir -p "$dir"
  for f in module_quilt_outbuf_ops module_io_quilt; do
    cpp=$(grep -m1 -F "$f.G  > $f.bb" "$log") || { nwpio_log "WRF: no cpp line for $f in $log"; return 1; }
    std=$(grep -m1 -F "standard.exe $f.bb" "$log")
    fc=$(grep -m1 -F "mpif90  -o $f.o " "$log")
    cpp=${cpp/\/lib\/cpp /\/lib\/cpp -DPNETCDF_QUILT=1 }
    cpp=${cpp/$f.G  > $f.bb/$dir/$f.G > $dir/$f.bb}
    std=${std/$f.bb |/$dir/$f.bb |}
    std=${std/> $f.f90/> $dir/$f.f90}
    # Compiled in $dir: gfortran looks for .mod files in the working directory first, and frame/
    # holds the modules of the default build.
    fc=${fc#time }
    fc=${fc/-o $f.o/-o $f.o -J$dir}
    fc=${fc//-I..\//-I$tree/}
    (
      cd "$tree/frame" &&
        sed -e "s/^\!.*'.*//" -e "s/^ *\!.*'.*//" $f.F >"$dir/$f.G" &&
        eval "$cpp" && eval "$std" && cd "$dir" && eval "$fc"
    ) >>"$dir/build.log" 2>&1 || { nwpio_log "WRF: quilt compile of $f failed; see $dir/build.log"; return 1; }
  done
  cp "$tree/main/libwrflib.a" "$NWPIO_WRF_QUILT_LIB"
  ar r "$NWPIO_WRF_QUILT_LIB" "$dir/module_quilt_outbuf_ops.o" "$dir/module_io_quilt.o"
  date -u +%FT%TZ >"$dir/built.stamp"
}

# nwpio_wrf_link OUT [package-lib-dir] [quilt]: relinks wrf.exe as OUT with WRF's link line from
# compile.log; with a package directory, -lwrfio_pnf comes from there (nwpio's drop-in, with an
# rpath) instead of WRF's external/io_pnetcdf; "quilt" links the PNETCDF_QUILT libwrflib copy.
nwpio_wrf_link() {
  local out=$1 pkg=${2:-} quilt=${3:-} tree=$NWPIO_WRF_TREE line
  line=$(grep -m1 -F "mpif90  -o wrf.exe " "$(dirname "$tree")/compile.log")
  line=${line#time }
  line=${line/-o wrf.exe/-o $out}
  [[ $quilt == quilt ]] && line=${line/ libwrflib.a / $NWPIO_WRF_QUILT_LIB }
  if [[ -n $pkg ]]; then
    line=${line/-L$tree\/external\/io_pnetcdf -lwrfio_pnf/-L$pkg -lwrfio_pnf -Wl,-rpath,$pkg}
  fi
  (cd "$tree/main" && eval "$line") >"$out.link.log" 2>&1 || {
    nwpio_log "WRF: linking $out failed:"
    tail -20 "$out.link.log" >&2
    return 1
  }
}
