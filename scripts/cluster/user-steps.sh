#!/usr/bin/env bash
# The cluster stage's user side (scripts/cluster-check.sh runs it as an unprivileged user in a
# login shell): what a WRF team does on a cluster, following docs/INSTALL.md and docs/WRF.md.
#   1. clone nwpio, `module load` the site's MPI, netCDF-C and PnetCDF (1.15: a static library
#      whose pnetcdf.pc pkg-config refuses), configure (tests off), build, install into $HOME,
#      and check that libnwpio holds the site's PnetCDF;
#   2. `module load nwpio` from the install, build examples/mini_wrf with its Makefile through
#      pkg-config and run it with sbatch on the local Slurm; check its files and that the hint
#      report names what PnetCDF chose;
#   3. link a copy of the real WRF with `nwpio-wrf link`, run it (io_form 2 and 11 through
#      nwpio, compared value by value), `nwpio-wrf unlink`, run it again with WRF's own package.
# One "PASS <check>: ..." or "FAIL <check>: ..." line per check; exit 1 on any failure.
# Environment (set by cluster-check.sh): NWPIO_BUNDLE (git bundle of the commit under test),
# NWPIO_SITE (site prefixes and modulefiles), NWPIO_WRF_SOURCE (the WRF stage's built tree),
# NWPIO_WRF_NAMELIST (WRF's em_quarter_ss reference namelist), SLURM_CONF, NWPIO_JOBS,
# CCACHE_DIR (the user's own, optional).
set -euo pipefail
T0=$SECONDS
failures=0
say() { echo "[cluster] $*"; }
report() {  # report PASS|FAIL name detail
  echo "$1 $2: $3"
  [[ $1 == PASS ]] || failures=$((failures + 1))
}
die() {
  report FAIL "$1" "$2"
  say "user steps stopped after $((SECONDS - T0)) s: $failures failed check(s)"
  exit 1
}
step() { say "--- $* ($((SECONDS - T0)) s)"; }
indent() { sed 's/^/    /'; }

: "${NWPIO_BUNDLE:?}" "${NWPIO_SITE:?}" "${NWPIO_WRF_SOURCE:?}" "${NWPIO_WRF_NAMELIST:?}" "${SLURM_CONF:?}"
JOBS=${NWPIO_JOBS:-2}
VERSION_DIR=$HOME/sw/nwpio
cd "$HOME"

step "clone, module load openmpi netcdf-c pnetcdf, configure, build, install"
rm -rf src build runs mini_wrf WRF "$VERSION_DIR"
git -c advice.detachedHead=false clone -q "$NWPIO_BUNDLE" src/nwpio || die clone "git clone of $NWPIO_BUNDLE"
# The version the clone declares, read as docs/INSTALL.md reads it; the install prefix is named after it.
version=$(sed -n 's/^project(nwpio VERSION \([0-9.]*\).*/\1/p' src/nwpio/CMakeLists.txt)
[[ -n $version ]] || die version "no project(nwpio VERSION ...) in src/nwpio/CMakeLists.txt"
PREFIX=$VERSION_DIR/$version
module use "$NWPIO_SITE/modulefiles"
module load openmpi netcdf-c pnetcdf || die modules "module load openmpi netcdf-c pnetcdf"
launcher=()
if [[ -n ${CCACHE_DIR:-} ]] && command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# The netCDF-C WRF links (serial here), the site's PnetCDF through CMAKE_PREFIX_PATH (the module).
cmake -S src/nwpio -B build/nwpio -DCMAKE_BUILD_TYPE=Release -DNWPIO_BUILD_TESTS=OFF -DNWPIO_BUILD_BENCH=OFF \
  -DNWPIO_NETCDF=serial -DCMAKE_INSTALL_PREFIX="$PREFIX" "${launcher[@]}" >configure.log 2>&1 ||
  { cat configure.log; die configure "cmake failed"; }
sed -n 's/^-- nwpio:   //p' configure.log
# The site's PnetCDF 1.15 is a static libpnetcdf.a whose pnetcdf.pc pkg-config refuses (it
# requires a gio.pc PnetCDF does not install): found by its files, with nothing edited.
pnetcdf_version=$(module -t list 2>&1 | sed -n 's|^pnetcdf/||p')
pnetcdf_root=$NWPIO_SITE/pnetcdf/$pnetcdf_version
if grep -q "PnetCDF *$pnetcdf_version: $pnetcdf_root/lib/libpnetcdf.a" configure.log &&
  grep -q "netCDF-C *serial build .*from $NWPIO_SITE/netcdf-c/4.9.0" configure.log; then
  report PASS configure "the summary names the site's PnetCDF and netCDF-C prefixes"
else
  report FAIL configure "the summary does not name the site prefixes (see above)"
fi
cmake --build build/nwpio -j "$JOBS" >build.log 2>&1 || { tail -30 build.log; die build "cmake --build failed"; }
grep -i "warning:" build.log | head -5 || true
cmake --install build/nwpio >install.log 2>&1 || { cat install.log; die install "cmake --install failed"; }
# libnwpio holds PnetCDF itself: no libpnetcdf to load, and none of its symbols exported (a
# WRF linking another PnetCDF cannot mix the two).
pnetcdf_lib=$(ldd "$PREFIX/lib/libnwpio.so" | awk '$1 ~ /^libpnetcdf/ { print $3 }')
dynamic=$(nm -D "$PREFIX/lib/libnwpio.so")
exported=$(grep -c ' [TDB] ncmpi_' <<<"$dynamic" || true)
needed=$(grep -c ' U ncmpi_' <<<"$dynamic" || true)
if [[ -z $pnetcdf_lib && $exported == 0 && $needed == 0 ]]; then
  report PASS install "nwpio in $PREFIX, PnetCDF $pnetcdf_version linked into libnwpio, its symbols private"
else
  report FAIL install "libnwpio loads PnetCDF '$pnetcdf_lib', exports $exported and needs $needed ncmpi_* symbols"
fi

step "module load nwpio"
module use "$PREFIX/share/modulefiles"
module load nwpio || die module "module load nwpio"
if [[ $NWPIO_ROOT == "$PREFIX" && $(command -v nwpio-wrf) == "$NWPIO_ROOT/bin/nwpio-wrf" &&
  $(pkg-config --variable=prefix nwpio) -ef $NWPIO_ROOT && $(nwpio-wrf --version) == "nwpio-wrf $version" &&
  $(nwpio-check --version) == "nwpio-check $version" && $(pkg-config --modversion nwpio) == "$version" ]]; then
  report PASS module "NWPIO_ROOT=$NWPIO_ROOT; nwpio-wrf, nwpio-check and pkg-config nwpio $version from it"
else
  report FAIL module "NWPIO_ROOT=${NWPIO_ROOT:-unset}, nwpio-wrf at $(command -v nwpio-wrf || echo none), version $(nwpio-wrf --version 2>&1 || true) (expected $version)"
fi

step "mini_wrf: make through pkg-config, sbatch"
cp -r "$NWPIO_ROOT/share/nwpio/examples/mini_wrf" mini_wrf
make -C mini_wrf FC=mpif90 >mini_wrf/make.log 2>&1 || { cat mini_wrf/make.log; die mini_wrf "make failed"; }
mkdir -p runs
out=$HOME/runs/mini_wrf
set +e
job=$(cd runs && MODEL_EXE=$HOME/mini_wrf/mini_wrf NAMELIST=$HOME/mini_wrf/namelist.input OUTPUT_DIR=$out \
  LAUNCHER="srun --mpi=pmix" MPIIO=ompio NWPIO_HINT_REPORT=full sbatch --parsable --wait -n 4 -t 10 "$NWPIO_ROOT/share/nwpio/slurm/run_mini_wrf.sbatch")
rc=$?
set -e
job=${job##*;}
files=("$out"/wrfout_d01_*)
if ((rc == 0)) && [[ -f ${files[0]} ]] && nwpio-check "${files[@]}" >runs/mini_wrf.check; then
  report PASS mini_wrf "job $job COMPLETED, ${#files[@]} file(s) nwpio-check OK, $(grep -c 'Timing for Writing' "runs/log.$job") frames"
  # The hint report says what PnetCDF 1.15 chose itself (its GIO driver, intra-node aggregation).
  chose=$(grep -m1 -o 'PnetCDF chose:.*' "runs/log.$job" || true)
  if [[ $chose == *nc_driver=gio* && $chose == *nc_num_aggrs_per_node=* ]]; then
    report PASS hint-report "$chose"
  else
    report FAIL hint-report "no 'PnetCDF chose: ... nc_driver=gio' line in runs/log.$job (NWPIO_HINT_REPORT=full)"
  fi
else
  tail -20 "runs/log.$job" 2>/dev/null || true
  report FAIL mini_wrf "job ${job:-?} exit $rc, files: ${files[*]}"
fi
if nwpio-check --plan mini_wrf/namelist.input --ranks 4 --ranks-per-node 4 --fs local --caller api >runs/mini_wrf.plan 2>&1 &&
  grep -q "^  frame " runs/mini_wrf.plan; then
  report PASS plan "$(grep '^  frame ' runs/mini_wrf.plan | sed 's/^ *//')"
else
  cat runs/mini_wrf.plan
  report FAIL plan "nwpio-check --plan on mini_wrf's namelist"
fi

step "WRF: a copy of the tree, nwpio-wrf link, runs, unlink"
mkdir -p WRF
cp -a "$NWPIO_WRF_SOURCE" WRF/ || die wrf-copy "cp -a $NWPIO_WRF_SOURCE"
tree=$HOME/WRF/$(basename "$NWPIO_WRF_SOURCE")
# (outputs are kept in variables and searched there: a grep -q in a pipeline would stop reading
# early, and the writer's SIGPIPE fail the pipeline)
status=$(nwpio-wrf status "$tree")
indent <<<"$status"
[[ $status == *"wrf.exe: WRF's own io_form 11 package"* ]] ||
  report FAIL status-before "wrf.exe of the copy does not take WRF's own package"
t=$SECONDS
nwpio-wrf link "$tree" >runs/link.log 2>&1 || { cat runs/link.log; die link "nwpio-wrf link $tree"; }
indent <runs/link.log
status=$(nwpio-wrf status "$tree")
indent <<<"$status"
if [[ $status == *"wrf.exe: nwpio's io_form 11 package, shared: $NWPIO_ROOT/lib/libwrfio_pnf.so"* ]]; then
  report PASS link "relinked in $((SECONDS - t)) s; nwpio-wrf status: wrf.exe takes $NWPIO_ROOT/lib/libwrfio_pnf.so"
else
  report FAIL link "nwpio-wrf status after link: $status"
fi

# Run directories with run.sh's helpers (the case's files, ideal.exe once per grid), runs by sbatch.
export NWPIO_WRF_TREE=$tree NWPIO_WRF_WORK=$HOME/runs/wrf NWPIO_WRF_NAMELIST
# shellcheck source=../wrf/run.sh
source "$HOME/src/nwpio/scripts/wrf/run.sh"
case_dir() { echo "$NWPIO_WRF_WORK/$1"; }
wrf_jobs() {  # wrf_jobs NAME [MPI-IO layer] DIR...: one sbatch job running wrf.exe at 2 ranks in each DIR
  local name=$1 io=$2 d
  shift 2
  {
    echo "#!/bin/bash"
    echo "set -eu"
    echo "export OMPI_MCA_io=$io"
    for d in "$@"; do
      echo "cd $d && rm -f rsl.* && ulimit -s unlimited 2>/dev/null || true; srun --mpi=pmix -n 2 ./wrf.exe >run.log 2>&1"
      echo "grep -q 'SUCCESS COMPLETE WRF' $d/rsl.out.0000"
    done
  } >"runs/$name.sbatch"
  (cd runs && sbatch --parsable --wait -n 2 -t 15 -o "$name.%j.log" "$name.sbatch" >/dev/null)
}
hist=wrfout_d01_0001-01-01_00:00:00
hist11=wrfout_d01_0001-01-01_00_00_00
mkdir -p "$NWPIO_WRF_WORK"
nwpio_wrf_case "$(case_dir io2)" "$tree/main/wrf.exe" io_form_history=2 nproc_x=1 nproc_y=2
nwpio_wrf_case "$(case_dir io11)" "$tree/main/wrf.exe" io_form_history=11 nproc_x=1 nproc_y=2
t=$SECONDS
if wrf_jobs wrf_nwpio ompio "$(case_dir io2)" "$(case_dir io11)" &&
  out=$(nwpio-compare "$(case_dir io2)/$hist" "$(case_dir io11)/$hist11"); then
  report PASS wrf-nwpio "io_form 11 through nwpio equals io_form 2: ${out#EQUAL } ($((SECONDS - t)) s)"
else
  report FAIL wrf-nwpio "${out:-a run failed: see $NWPIO_WRF_WORK/io2, io11}"
fi

t=$SECONDS
nwpio-wrf unlink "$tree" >runs/unlink.log 2>&1 || { cat runs/unlink.log; die unlink "nwpio-wrf unlink $tree"; }
indent <runs/unlink.log
status=$(nwpio-wrf status "$tree")
indent <<<"$status"
if [[ $status == *"wrf.exe: WRF's own io_form 11 package"* ]]; then
  report PASS unlink "relinked in $((SECONDS - t)) s; nwpio-wrf status: wrf.exe takes WRF's own package again"
else
  report FAIL unlink "nwpio-wrf status after unlink: $status"
fi
# WRF's own package under ROMIO: OMPIO's write sieving corrupts its collective writes (docs/WRF.md).
nwpio_wrf_case "$(case_dir own11)" "$tree/main/wrf.exe" io_form_history=11 nproc_x=1 nproc_y=2
t=$SECONDS
if wrf_jobs wrf_own romio321 "$(case_dir own11)" &&
  out=$(nwpio-compare "$(case_dir io2)/$hist" "$(case_dir own11)/$hist11"); then
  report PASS wrf-own "WRF's own io_form 11 package again, equal to io_form 2: ${out#EQUAL } ($((SECONDS - t)) s)"
else
  report FAIL wrf-own "${out:-the run failed: see $(case_dir own11)}"
fi

say "user steps: $failures failed check(s), $((SECONDS - T0)) s"
((failures == 0))
