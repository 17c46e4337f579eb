#!/usr/bin/env bash
# A model's build gets everything from the installed package's own metadata: installs the library
# package alone (`cmake --install BUILD --component nwpio`) into a fresh prefix, then, in a clean
# environment (no CPATH, no LD_LIBRARY_PATH) and with no -std flag of its own, builds and runs
#  - consumer_cxx/consumer.cpp (the C++ API, C++20 headers) with `CXX $(pkg-config --cflags --libs nwpio-cxx)`,
#  - consumer_c/consumer.c (the C API) with `CC -Werror $(pkg-config --cflags --libs nwpio)`: the C
#    route carries no C++ flag,
#  - the same two through the CMake package: consumer_cxx/ (find_package(nwpio), nwpio::nwpio) and
#    consumer_c/ (a project without C++).
# Each program prints the version of the libnwpio it runs with, which must be VERSION, and
# share/doc/nwpio/LICENSE and the licence of nwpio.pc are checked. The compiler's own default
# C++ standard is printed: the C++ builds prove the flags only where it is older than C++20.
#   cxx_consumer.sh CMAKE BUILD_DIR WORKDIR CC CXX VERSION
set -euo pipefail
cmake=$1 build=$2 work=$3 cc=$4 cxx=$5 version=$6
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" --component nwpio >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "cmake --install --component nwpio"; }
pcdir=$(echo "$prefix"/lib*/pkgconfig)
clean=(env -i "PATH=/usr/bin:/bin" "PKG_CONFIG_PATH=$pcdir")
default_std=$("$cxx" -x c++ -dM -E /dev/null | sed -n 's/^#define __cplusplus //p')
echo "$cxx defaults to __cplusplus $default_std"

# run_consumer NAME PROGRAM: runs it (RUNPATH only) and checks the version it prints.
run_consumer() {
  local out
  out=$("${clean[@]}" "$2" 2>&1) || { echo "$out"; fail "$1 does not run"; }
  [[ $out == *"nwpio $version (headers $version)"* ]] || { echo "$out"; fail "$1 runs with another nwpio than $version"; }
  echo "$1: $out"
}

# pkg-config: the compile line of a Makefile, nothing added.
"${clean[@]}" bash -c "\"\$1\" -o \"\$2\" \"\$3\" \$(pkg-config --cflags --libs nwpio-cxx)" build \
  "$cxx" "$work/pc_cxx" "$here/consumer_cxx/consumer.cpp" >"$work/pc_cxx.log" 2>&1 ||
  { head -20 "$work/pc_cxx.log"; fail "C++ consumer with \$(pkg-config --cflags --libs nwpio-cxx)"; }
run_consumer "pkg-config nwpio-cxx" "$work/pc_cxx"
"${clean[@]}" bash -c "\"\$1\" -Werror -o \"\$2\" \"\$3\" \$(pkg-config --cflags --libs nwpio)" build \
  "$cc" "$work/pc_c" "$here/consumer_c/consumer.c" >"$work/pc_c.log" 2>&1 ||
  { head -20 "$work/pc_c.log"; fail "C consumer with -Werror \$(pkg-config --cflags --libs nwpio)"; }
run_consumer "pkg-config nwpio (C)" "$work/pc_c"

# The CMake package: configure and build each project, nothing but the prefix given.
for lang in cxx c; do
  { "${clean[@]}" "$cmake" -S "$here/consumer_$lang" -B "$work/cmake_$lang" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" &&
    "${clean[@]}" "$cmake" --build "$work/cmake_$lang" --verbose; } >"$work/cmake_$lang.log" 2>&1 ||
    { tail -30 "$work/cmake_$lang.log"; fail "consumer_$lang through find_package(nwpio)"; }
  run_consumer "find_package consumer_$lang" "$work/cmake_$lang/consumer_$lang"
done

[[ -f $prefix/share/doc/nwpio/LICENSE ]] || fail "LICENSE not installed in $prefix/share/doc/nwpio"
grep -qx 'License: Apache-2.0' "$pcdir/nwpio.pc" || fail "nwpio.pc does not name its licence (License: Apache-2.0)"
echo "PASS: C++ and C consumers built from pkg-config's and the CMake package's flags alone against $prefix"
