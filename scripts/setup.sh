#!/usr/bin/env bash
# Shared set-up for scripts/demo.sh and scripts/test.sh (sourced, not run):
#   nwpio_install_packages [extra packages...]  installs missing Debian packages (as root): the
#                                               build's and the extra ones
#   nwpio_install_only PACKAGES...              the same for these packages alone
#   nwpio_build [build dir] [cmake args...]     configures (Release, warnings on) and builds
#                                               (only $NWPIO_BUILD_TARGET when that is set);
#                                               C and C++ through ccache when it is installed;
#                                               a new build folder gets Ninja when it is there
#   ... | nwpio_drop_progress                   a build's output without its progress lines
# ccache keeps its cache outside the checkout: $CCACHE_DIR, default /var/cache/nwpio/ccache
# (NWPIO_CCACHE=0 turns it off). CCACHE_BASEDIR = the checkout, so a clone in another folder
# hits the same entries (debug information names the checkout ".": cmake/NwpioWarnings.cmake).
# Each build's own hits and misses are counted in <build dir>/ccache-stats.log (ccache's stats
# log: one entry per compilation, naming the file) and summed after the build.
# Open MPI refuses to run as root without these; CI and these machines run as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
NWPIO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NWPIO_JOBS=${NWPIO_JOBS:-$(nproc)}

# Packages needed to build and run nwpio (all from Debian 12).
NWPIO_BUILD_PACKAGES=(cmake make ninja-build g++ gfortran pkg-config ccache
  openmpi-bin libopenmpi-dev libpnetcdf-dev pnetcdf-bin libnetcdf-dev netcdf-bin
  libnetcdf-mpi-dev libhdf5-openmpi-dev zlib1g-dev
  libgtest-dev libtoml11-dev libcli11-dev nlohmann-json3-dev libfmt-dev
  libblosc-dev)

nwpio_log() { echo "[nwpio] $*" >&2; }

# The first COUNT nodes of the emulated cluster in the environment (NWPIO_CLUSTER_NODES, exported
# by scripts/emulated-cluster.sh), as Open MPI's --host list with SLOTS slots each: n1:2,n2:2.
nwpio_cluster_hosts() {
  local count=$1 slots=$2 n hosts=()
  for n in ${NWPIO_CLUSTER_NODES:-}; do
    ((${#hosts[@]} < count)) && hosts+=("$n:$slots")
  done
  (IFS=,; echo "${hosts[*]}")
}

nwpio_install_packages() { nwpio_install_only "${NWPIO_BUILD_PACKAGES[@]}" "$@"; }

nwpio_install_only() {
  local wanted=("$@") missing=() p
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    nwpio_log "all ${#wanted[@]} Debian packages present"
    return 0
  fi
  if [[ $(id -u) -ne 0 ]]; then
    nwpio_log "missing packages: ${missing[*]} (run as root, or install them with apt-get)"
    return 1
  fi
  nwpio_log "installing missing packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

nwpio_build() {
  local dir=${1:-$NWPIO_ROOT/build}
  shift || true
  local launcher=()
  if [[ ${NWPIO_CCACHE:-1} != 0 ]] && command -v ccache >/dev/null; then
    export CCACHE_DIR=${CCACHE_DIR:-/var/cache/nwpio/ccache} CCACHE_BASEDIR=${CCACHE_BASEDIR:-$NWPIO_ROOT}
    mkdir -p "$CCACHE_DIR"
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  # Ninja for a new build folder when it is installed: one dependency graph for the whole build
  # instead of make's recursion through every target; a folder configured before keeps the
  # generator it has (CMake refuses to switch).
  local generator=()
  if [[ ! -f $dir/CMakeCache.txt ]] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
  nwpio_log "configuring $dir ${generator[*]} $*"
  # The configure log lives inside the build folder (never beside it, in the checkout).
  mkdir -p "$dir"
  cmake -S "$NWPIO_ROOT" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >"$dir/configure.log" 2>&1 ||
    { cat "$dir/configure.log" >&2; return 1; }
  grep '^-- nwpio: ' "$dir/configure.log" >&2 || true  # which MPI and PnetCDF it found
  nwpio_log "building $dir with $NWPIO_JOBS jobs"
  # warnings and errors are shown; the status is cmake's
  local target=()
  [[ -n ${NWPIO_BUILD_TARGET:-} ]] && target=(--target "$NWPIO_BUILD_TARGET")
  ((${#launcher[@]})) && : >"$dir/ccache-stats.log"
  CCACHE_STATSLOG=$dir/ccache-stats.log cmake --build "$dir" -j "$NWPIO_JOBS" "${target[@]}" 2>&1 |
    nwpio_drop_progress
  local status=${PIPESTATUS[0]}
  ((${#launcher[@]})) && nwpio_log "ccache ($CCACHE_DIR): $(nwpio_ccache_summary "$dir/ccache-stats.log")"
  return "$status"
}

# Drops the progress lines of a build's output (make's "[ 42%]", Ninja's "[12/345]"); warnings
# and errors pass. Its own status is always 0: the build's is the caller's PIPESTATUS.
nwpio_drop_progress() { grep -vE '^\[ *[0-9]+%\]|^\[[0-9]+/[0-9]+\] ' || true; }

# "H hits, M misses in this build" from a ccache stats log, and the first files that missed.
nwpio_ccache_summary() {
  awk '/^# / {file = $2}
       $1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" {h++}
       $1 == "cache_miss" {m++; if (m <= 5) missed = missed " " file}
       END {printf "%d hits, %d misses in this build%s\n", h, m, m ? " (first:" missed (m > 5 ? " ..." : "") ")" : ""}' "$1"
}
