#!/usr/bin/env bash
# Shared set-up for scripts/demo.sh and scripts/test.sh (sourced, not run):
#   nwpio_install_packages [extra packages...]  installs missing Debian packages (as root)
#   nwpio_build [build dir] [cmake args...]     configures (Release, warnings on) and builds
#                                               (only $NWPIO_BUILD_TARGET when that is set)
# Open MPI refuses to run as root without these; CI and these machines run as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
NWPIO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NWPIO_JOBS=${NWPIO_JOBS:-$(nproc)}

# Packages needed to build and run nwpio (all from Debian 12).
NWPIO_BUILD_PACKAGES=(cmake make g++ gfortran pkg-config
  openmpi-bin libopenmpi-dev libpnetcdf-dev pnetcdf-bin libnetcdf-dev netcdf-bin
  libnetcdf-mpi-dev libhdf5-openmpi-dev
  libgtest-dev libtoml11-dev libcli11-dev nlohmann-json3-dev libfmt-dev)

nwpio_log() { echo "[nwpio] $*" >&2; }

nwpio_install_packages() {
  local wanted=("${NWPIO_BUILD_PACKAGES[@]}" "$@") missing=() p
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
  nwpio_log "configuring $dir $*"
  # The configure log lives inside the build folder (never beside it, in the checkout).
  mkdir -p "$dir"
  cmake -S "$NWPIO_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >"$dir/configure.log" 2>&1 ||
    { cat "$dir/configure.log" >&2; return 1; }
  nwpio_log "building $dir with $NWPIO_JOBS jobs"
  # progress lines are dropped; warnings and errors are shown; the status is cmake's
  local target=()
  [[ -n ${NWPIO_BUILD_TARGET:-} ]] && target=(--target "$NWPIO_BUILD_TARGET")
  cmake --build "$dir" -j "$NWPIO_JOBS" "${target[@]}" 2>&1 | { grep -vE '^\[ *[0-9]+%\]' || true; }
}
