#!/usr/bin/env bash
# The environment modules an install writes (share/modulefiles/nwpio/<version>.lua and its Tcl
# twin <version>), loaded with Debian's Lmod in a login shell as a user would: every variable
# points into the prefix, the programs and pkg-config files are found through them, a CMake
# consumer finds the package through CMAKE_PREFIX_PATH alone, and unloading restores the
# environment. The Tcl file is loaded on its own (Lmod runs Tcl modulefiles too).
#   modulefiles.sh CMAKE BUILD_DIR WORKDIR VERSION
set -euo pipefail
cmake=$1 build=$2 work=$3 version=$4
fail() { echo "FAIL: $*"; exit 1; }
lmod_init=/usr/share/lmod/lmod/init/bash
[[ -f $lmod_init ]] || fail "Lmod is not installed ($lmod_init missing; apt-get install lmod)"
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
moddir=$prefix/share/modulefiles
[[ -f $moddir/nwpio/$version.lua ]] || fail "no $moddir/nwpio/$version.lua"
[[ -f $moddir/nwpio/$version ]] || fail "no Tcl modulefile $moddir/nwpio/$version"
head -1 "$moddir/nwpio/$version" | grep -q '^#%Module' || fail "the Tcl modulefile lacks the #%Module cookie"

# In a clean login-like shell: load, report, unload, report.
# shellcheck disable=SC2016  # the login shell expands its own arguments
probe() {  # probe MODULEPATH_DIR: prints KEY=VALUE lines after load and after unload
  env -i HOME="$work" PATH=/usr/bin:/bin bash --noprofile --norc -c '
    set -eu
    source "$1"
    module use "$2"
    before_path=$PATH
    module load nwpio
    echo "loaded=$(module -t list 2>&1 | grep -c "^nwpio/")"
    echo "NWPIO_ROOT=${NWPIO_ROOT:-}"
    echo "PATH1=${PATH%%:*}"
    echo "PKG_CONFIG_PATH=${PKG_CONFIG_PATH:-}"
    echo "CMAKE_PREFIX_PATH=${CMAKE_PREFIX_PATH:-}"
    echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-unset}"
    echo "check=$(command -v nwpio-check || true)"
    echo "wrf=$(command -v nwpio-wrf || true)"
    echo "pc=$(pkg-config --modversion nwpio 2>&1)"
    module unload nwpio
    echo "after_root=${NWPIO_ROOT:-unset}"
    [[ $PATH == "$before_path" ]] && echo "after_path=restored" || echo "after_path=$PATH"
  ' probe "$lmod_init" "$1"
}
expect() {  # expect OUTPUT KEY VALUE
  local got
  got=$(sed -n "s|^$2=||p" <<<"$1")
  [[ $got == "$3" ]] || { echo "$1"; fail "$4: $2 is '$got', expected '$3'"; }
}
check_module() {  # check_module DIR WHAT
  local out
  out=$(probe "$1" 2>"$work/probe.err") || { cat "$work/probe.err"; fail "$2: the shell failed"; }
  echo "$out" >"$work/$2.out"
  expect "$out" loaded 1 "$2"
  expect "$out" NWPIO_ROOT "$prefix" "$2"
  expect "$out" PATH1 "$prefix/bin" "$2"
  expect "$out" PKG_CONFIG_PATH "$prefix/lib/pkgconfig" "$2"
  expect "$out" CMAKE_PREFIX_PATH "$prefix" "$2"
  expect "$out" LD_LIBRARY_PATH unset "$2"
  expect "$out" check "$prefix/bin/nwpio-check" "$2"
  expect "$out" pc "$version" "$2"
  expect "$out" after_root unset "$2"
  expect "$out" after_path restored "$2"
  if [[ -f $build/bin/nwpio-wrf ]]; then expect "$out" wrf "$prefix/bin/nwpio-wrf" "$2"; fi
  echo "$2: module load nwpio sets NWPIO_ROOT, PATH, PKG_CONFIG_PATH, CMAKE_PREFIX_PATH (no LD_LIBRARY_PATH); unload restores"
}
check_module "$moddir" lua

mkdir -p "$work/tcl/nwpio"
cp "$moddir/nwpio/$version" "$work/tcl/nwpio/"
check_module "$work/tcl" tcl

# A CMake consumer finds nwpio through the module's CMAKE_PREFIX_PATH alone.
# shellcheck disable=SC2016
mkdir -p "$work/consumer"
cat >"$work/consumer/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(consumer LANGUAGES C CXX)
find_package(nwpio REQUIRED)
message(STATUS "consumer: nwpio ${nwpio_VERSION} from ${nwpio_DIR}")
EOF
env -i HOME="$work" PATH=/usr/bin:/bin bash --noprofile --norc -c '
  source "$1"; module use "$2"; module load nwpio
  cmake -S "$3/consumer" -B "$3/consumer/build"' probe "$lmod_init" "$moddir" "$work" >"$work/consumer.log" 2>&1 ||
  { cat "$work/consumer.log"; fail "find_package(nwpio) through the module's CMAKE_PREFIX_PATH"; }
grep -q "consumer: nwpio $version from $prefix/" "$work/consumer.log" || { cat "$work/consumer.log"; fail "find_package(nwpio) found another nwpio"; }
echo "PASS: the Lmod and Tcl modulefiles of $prefix load, point into it, and unload cleanly"
