#!/usr/bin/env bash
# The C and C++ examples as a model developer builds them, against an installed nwpio:
#  1. `cmake --install BUILD --prefix P` into a fresh prefix;
#  2. P/share/nwpio/examples/c copied elsewhere and built with its Makefile (mpicc, pkg-config
#     through PKG_CONFIG_PATH=P/lib/pkgconfig alone, no LD_LIBRARY_PATH);
#  3. P/share/nwpio/examples/cpp configured with CMAKE_PREFIX_PATH=P (find_package(nwpio)) and built;
#  4. each run at 2 and 3 ranks, every file read back through netCDF-C (python3-netcdf4) and
#     compared value by value with the examples' formula, ncvalidator on every file.
# io_form 11 (PnetCDF writes, netCDF-C reads); io_form 2 where the build has no PnetCDF.
#   build_and_run_examples.sh CMAKE BUILD_DIR WORKDIR MPIEXEC MPICC PYTHON3 IO_FORM [NCVALIDATOR] [launcher flags]
set -euo pipefail
cmake=$1 build=$2 work=$3 mpiexec=$4 mpicc=$5 python=$6 io_form=$7 ncvalidator=${8:-}
read -r -a preflags <<<"${9:-}"
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log"
examples=$prefix/share/nwpio/examples
[[ -d $examples/c && -d $examples/cpp ]] || { echo "FAIL: examples/c and examples/cpp not installed in $examples"; exit 1; }
export PKG_CONFIG_PATH=$(echo "$prefix"/lib*/pkgconfig)
unset LD_LIBRARY_PATH

cp -r "$examples/c" "$work/c"
if [[ $io_form == 2 ]]; then  # a build without PnetCDF: serial netCDF, classic format
  sed -i 's/io_form_history *= *11,/io_form_history = 2,\n use_netcdf_classic = .true.,/' "$work/c/namelist.input"
fi
make -C "$work/c" CC="$mpicc" >"$work/c-build.log" 2>&1 || { cat "$work/c-build.log"; echo "FAIL: make examples/c"; exit 1; }
{ "$cmake" -S "$examples/cpp" -B "$work/cpp" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release &&
  "$cmake" --build "$work/cpp"; } >"$work/cpp-build.log" 2>&1 ||
  { cat "$work/cpp-build.log"; echo "FAIL: cmake build of examples/cpp"; exit 1; }

validate=()
[[ -n $ncvalidator ]] && validate=(--ncvalidator "$ncvalidator")
for np in 2 3; do
  out=$work/out_c_np$np
  mkdir -p "$out"
  (cd "$work/c" && "$mpiexec" -n "$np" "${preflags[@]}" ./boxmodel_c "$out") >"$work/c_np$np.log" 2>&1 ||
    { cat "$work/c_np$np.log"; echo "FAIL: boxmodel_c at $np ranks"; exit 1; }
  "$python" "$here/check_boxmodel.py" "$out" boxmodel_c "${validate[@]}" || { echo "FAIL: boxmodel_c at $np ranks"; exit 1; }

  out=$work/out_cpp_np$np
  mkdir -p "$out"
  "$mpiexec" -n "$np" "${preflags[@]}" "$work/cpp/boxmodel_cpp" "$out" "$io_form" >"$work/cpp_np$np.log" 2>&1 ||
    { cat "$work/cpp_np$np.log"; echo "FAIL: boxmodel_cpp at $np ranks"; exit 1; }
  "$python" "$here/check_boxmodel.py" "$out" boxmodel_cpp "${validate[@]}" || { echo "FAIL: boxmodel_cpp at $np ranks"; exit 1; }
done
echo "PASS: examples/c (make + pkg-config) and examples/cpp (find_package) built against $prefix, io_form $io_form at 2 and 3 ranks, every value read back"
