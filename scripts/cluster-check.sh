#!/usr/bin/env bash
# A stage that plays a cluster: an unprivileged user who sees MPI, PnetCDF and netCDF-C only
# through "site" prefixes and their Lmod modulefiles builds nwpio from a clean clone (tests off),
# installs it in $HOME, loads it with `module load nwpio`, builds mini_wrf through pkg-config
# and runs it with sbatch, then links a copy of the real WRF with nwpio-wrf, runs it, unlinks it
# and runs it again (scripts/cluster/user-steps.sh, which prints one PASS/FAIL line per check).
#
# As root, once per machine into ${NWPIO_CACHE_DIR:-/var/cache/nwpio}/cluster:
#   site/      Open MPI 4.1.4 (links to Debian's, the MPI WRF is built with), netCDF-C 4.9.0 (links
#              to Debian's serial one, which WRF links), PnetCDF 1.12.3 built from ../shared/pnetcdf
#              with that MPI, and their modulefiles (scripts/cluster/site.sh)
#   ccache/    the user's own compiler cache
# and per run: the user (NWPIO_CLUSTER_USER, default nwpio-user; created when missing, home
# emptied of the last run's files), a git bundle of the commit under test (the user clones it:
# uncommitted changes are not part of the stage), a throw-away local Slurm (slurm/slurm-local.sh)
# and the WRF tree of the WRF stage (scripts/wrf/build.sh: built when missing), which the user
# copies into $HOME (a tree the user may write, as a team's own WRF is).
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

nwpio_install_packages lmod slurmctld slurmd slurm-client munge autoconf automake libtool m4 \
  "${NWPIO_WRF_PACKAGES[@]}"
nwpio_log "cluster: site prefixes and modulefiles in $SITE"
nwpio_site_prepare "$SITE"
nwpio_log "cluster: site ready ($((SECONDS - t0)) s)"

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
