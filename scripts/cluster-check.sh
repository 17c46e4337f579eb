#!/usr/bin/env bash
# A stage that plays a cluster: an unprivileged user who sees MPI, PnetCDF and netCDF-C only
# through "site" prefixes and their Lmod modulefiles builds nwpio from a clean clone (tests off),
# installs it in $HOME, loads it with `module load nwpio`, builds mini_wrf through pkg-config
# and runs it with sbatch, then links a copy of the real WRF with nwpio-wrf, runs it, unlinks it
# and runs it again (scripts/cluster/user-steps.sh, which prints one PASS/FAIL line per check).
#
# As root, once per machine into ${NWPIO_CACHE_DIR:-/var/cache/nwpio}/cluster:
#   site/      Open MPI 4.1.4 (links to Debian's, the MPI WRF is built with), netCDF-C 4.9.0 (links
#              to Debian's serial one, which WRF links), the MPI netCDF-C 4.9.0 (a copy of Debian's
#              in a Spack-style prefix with its own nc-config), PnetCDF 1.15.0 built from
#              ../shared/pnetcdf with that MPI as upstream installs it, and their modulefiles
#              (scripts/cluster/site.sh)
#   ccache/    the user's own compiler cache
# and per run: the user (NWPIO_CLUSTER_USER, default nwpio-user; created when missing, home
# emptied of the last run's files), a git bundle of the commit under test (the user clones it:
# uncommitted changes are not part of the stage), a throw-away local Slurm (slurm/slurm-local.sh)
# and the WRF tree of the WRF stage (scripts/wrf/build.sh: built when missing), which the user
# copies into $HOME (a tree the user may write, as a team's own WRF is).
#
# Before the user steps, as root: nwpio's io_form 11 and 13 tests built against the site's
# PnetCDF 1.15 and MPI netCDF-C (build-site/, see below).
#
# Usage: scripts/cluster-check.sh   (CI: the last stage of scripts/test.sh; needs root)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
source "$NWPIO_ROOT/scripts/build-pnetcdf-mpich.sh"  # nwpio_shared_dir
source "$NWPIO_ROOT/scripts/wrf/build.sh"
source "$NWPIO_ROOT/scripts/wrf/run.sh"
source "$NWPIO_ROOT/scripts/cluster/site.sh"

[[ $(id -u) == 0 ]] || { nwpio_log "cluster-check: run as root (it creates the user and the site)"; exit 2; }
CLUSTER_USER=${NWPIO_CLUSTER_USER:-nwpio-user}
CACHE=${NWPIO_CACHE_DIR:-/var/cache/nwpio}/cluster
SITE=$CACHE/site
t0=$SECONDS
# What the site-stack tests leave to the default build: what does not touch PnetCDF or netCDF-C.
NWPIO_SITE_TEST_EXCLUDE='slurm|cluster|unit|config|corpus|fuzz|sizing|install|examples|jobscripts'
# And what PnetCDF 1.15.0's GIO driver breaks (docs/INSTALL.md, "A site's PnetCDF 1.14 or 1.15"):
# a failed create crashes inside GIO_open (mpi_backend_contract, nwpio_disk_failure_test: a rank
# left waiting; nwpio's own check of the folder before the create keeps a run from reaching it),
# and the MPI-IO layer no longer opens PnetCDF's file (create_trace, hints_mpi).
NWPIO_SITE_TEST_KNOWN='^(mpi_backend_contract|nwpio_disk_failure_test|create_trace|hints_mpi)'

nwpio_install_packages lmod slurmctld slurmd slurm-client munge autoconf automake libtool m4 \
  "${NWPIO_WRF_PACKAGES[@]}"
nwpio_log "cluster: site prefixes and modulefiles in $SITE"
nwpio_site_prepare "$SITE"
nwpio_log "cluster: site ready ($((SECONDS - t0)) s)"

# nwpio's own tests against the site's PnetCDF 1.15 and its parallel netCDF-C laid out as a
# Spack or RPM install (found through -DPNETCDF_ROOT and -DNWPIO_NETCDF_ROOT alone): built as
# root into build-site/ with the default build's flags, so that the compiler cache of the default
# build serves every object that includes neither library's header; the MPI tests of io_form
# 11 and 13 run once each (scripts/ctest_select.py), the rest of the suite is the default
# build's. NWPIO_CLUSTER_SITE_TESTS=0 skips it.
if [[ ${NWPIO_CLUSTER_SITE_TESTS:-1} == 1 ]]; then
  t=$SECONDS
  site_build=$NWPIO_ROOT/build-site
  mkdir -p "$site_build"
  nwpio_build "$site_build" -DNWPIO_BUILD_BENCH=OFF -DPNETCDF_ROOT="$SITE/pnetcdf/$NWPIO_SITE_PNETCDF_VERSION" \
    -DNWPIO_NETCDF=mpi -DNWPIO_NETCDF_ROOT="$SITE/netcdf-c-mpi/4.9.0"
  grep -E "nwpio:   (PnetCDF|netCDF-C) " "$site_build/configure.log"
  grep -q "PnetCDF *$NWPIO_SITE_PNETCDF_VERSION: $SITE/pnetcdf/" "$site_build/configure.log" &&
    grep -q "netCDF-C *mpi build .*from $SITE/netcdf-c-mpi/4.9.0/bin/nc-config" "$site_build/configure.log" ||
    { nwpio_log "cluster: build-site did not take the site's PnetCDF and netCDF-C"; exit 1; }
  selected=$(python3 "$NWPIO_ROOT/scripts/ctest_select.py" "$site_build" --exclude-labels "$NWPIO_SITE_TEST_EXCLUDE")
  (cd "$site_build" && ctest --output-on-failure --timeout 600 -j "${NWPIO_CTEST_JOBS:-2}" -R "$selected" \
    -E "$NWPIO_SITE_TEST_KNOWN")
  nwpio_log "cluster: nwpio's io_form 11 and 13 tests against the site's PnetCDF and netCDF-C passed ($((SECONDS - t)) s)"
fi

t=$SECONDS
nwpio_wrf_build
nwpio_log "cluster: WRF tree $NWPIO_WRF_TREE ready ($((SECONDS - t)) s)"

# The user, with nothing left from an earlier run but its compiler cache.
if ! id "$CLUSTER_USER" >/dev/null 2>&1; then
  useradd --create-home --shell /bin/bash "$CLUSTER_USER"
fi
home=$(getent passwd "$CLUSTER_USER" | cut -d: -f6)
find "$home" -mindepth 1 -maxdepth 1 ! -name '.*' -exec rm -rf {} +
mkdir -p "$CACHE/ccache"
chown "$CLUSTER_USER:" "$CACHE/ccache"
bundle=$CACHE/nwpio-$(git -C "$NWPIO_ROOT" rev-parse --short HEAD).bundle
git -C "$NWPIO_ROOT" bundle create "$bundle" HEAD 2>/dev/null
chmod a+r "$bundle"

# A throw-away Slurm; stopped (and every process of it ended) whatever happens below.
slurm_dir=$(mktemp -d /tmp/nwpio-cluster-slurm.XXXXXX)
chmod 755 "$slurm_dir"
# shellcheck disable=SC2317  # (called by the EXIT trap)
stop_slurm() {
  SLURM_LOCAL_DIR=$slurm_dir bash "$NWPIO_ROOT/slurm/slurm-local.sh" stop >/dev/null 2>&1 || true
  rm -rf "$slurm_dir" "$bundle"
}
trap stop_slurm EXIT
SLURM_LOCAL_DIR=$slurm_dir bash "$NWPIO_ROOT/slurm/slurm-local.sh" start >"$slurm_dir.start.log" 2>&1 ||
  { cat "$slurm_dir.start.log"; nwpio_log "cluster: Slurm did not start"; exit 1; }
rm -f "$slurm_dir.start.log"

nwpio_log "cluster: the user steps as $CLUSTER_USER (login shell, Lmod)"
t=$SECONDS
rc=0
runuser -u "$CLUSTER_USER" -- env -i HOME="$home" USER="$CLUSTER_USER" LOGNAME="$CLUSTER_USER" SHELL=/bin/bash \
  PATH=/usr/local/bin:/usr/bin:/bin TERM=dumb LANG=C.UTF-8 \
  NWPIO_BUNDLE="$bundle" NWPIO_SITE="$SITE" NWPIO_WRF_SOURCE="$NWPIO_WRF_TREE" \
  NWPIO_WRF_NAMELIST="$NWPIO_WRF_NAMELIST" SLURM_CONF="$slurm_dir/etc/slurm.conf" NWPIO_JOBS="$NWPIO_JOBS" \
  CCACHE_DIR="$CACHE/ccache" \
  bash -l "$NWPIO_ROOT/scripts/cluster/user-steps.sh" || rc=$?
nwpio_log "cluster: user steps $((SECONDS - t)) s; stage $((SECONDS - t0)) s"
exit "$rc"
