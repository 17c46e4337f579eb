#!/usr/bin/env bash
# The installed programs run from a prefix with a clean environment: installs the
# build into a fresh temporary prefix (`cmake --install BUILD --prefix P`, every component),
# then runs P/bin/nwpio-check, nwpio-demo and nwpio-bench under `env -i` with only PATH (and,
# as root, Open MPI's two run-as-root variables): no LD_LIBRARY_PATH, no build tree. nwpio-demo
# writes and verifies files (every value, netCDF-C), nwpio-check validates them, nwpio-bench
# runs a small frame and verifies it.
# The demo writes io_form 11 where the build has PnetCDF, io_form 2 where it has not; the
# launcher flags are the build's MPIEXEC_PREFLAGS (--oversubscribe under Open MPI only). Every
# installed program, nwpio-wrf included, answers --version with the build's VERSION.
#   installed_programs.sh CMAKE BUILD_DIR WORKDIR MPIEXEC [with-bench: 0|1] [io-form] [launcher flags] [VERSION]
set -euo pipefail
cmake=$1 build=$2 work=$3 mpiexec=$4 with_bench=${5:-1} io_form=${6:-11} version=${8:-}
read -r -a preflags <<<"${7:-}"
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log"
clean_env=(env -i "PATH=$prefix/bin:$(dirname "$mpiexec"):/usr/bin:/bin")
[[ $(id -u) == 0 ]] && clean_env+=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
# Under the sanitizer stage the sanitizers' options (suppressions of MPI's own leaks) go along.
for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
  [[ -n ${!v:-} ]] && clean_env+=("$v=${!v}")
done
programs=(nwpio-check nwpio-demo)
((with_bench)) && programs+=(nwpio-bench)
for p in "${programs[@]}"; do
  [[ -x $prefix/bin/$p ]] || { echo "FAIL: $p not installed in $prefix/bin"; exit 1; }
  runpath=$(readelf -d "$prefix/bin/$p" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  [[ $runpath == *'$ORIGIN/../lib'* ]] || { echo "FAIL: $p has RUNPATH '$runpath', not \$ORIGIN/../lib..."; exit 1; }
  "${clean_env[@]}" "$p" --help >"$work/$p.help" 2>&1 || { cat "$work/$p.help"; echo "FAIL: $p --help"; exit 1; }
  echo "$p: RUNPATH $runpath, --help runs"
done
if [[ -n $version ]]; then
  for p in "${programs[@]}" nwpio-compare nwpio-wrf; do
    [[ -x $prefix/bin/$p ]] || continue  # (nwpio-wrf: only with the WRF package)
    got=$("${clean_env[@]}" "$p" --version 2>&1) || true
    [[ $got == "$p $version" ]] || { echo "FAIL: installed $p --version says '$got', expected '$p $version'"; exit 1; }
  done
  echo "installed programs: --version says $version"
fi
# The installed headers are the API a model needs: no synthetic-model table (the demo models'
# table stays in the source tree, model/), the demo models' helpers under nwpio_model/.
if grep -rlE "history_schema|kHistoryVariableCount" "$prefix/include" >"$work/table.txt"; then
  cat "$work/table.txt"; echo "FAIL: the installed headers hold the synthetic wrfout table"; exit 1
fi
for h in nwpio/nwpio.hpp nwpio/nwpio.h nwpio/version.h nwpio_model/model_settings.hpp nwpio_model/nwpio_model.h; do
  [[ -f $prefix/include/$h ]] || { echo "FAIL: $h not installed under $prefix/include"; exit 1; }
done
# The libraries come from the prefix, not from the build tree.
ldd_out=$("${clean_env[@]}" ldd "$prefix/bin/nwpio-demo")
grep -qE "libnwpio.so.0 => $prefix/(bin/\.\./)?lib/libnwpio" <<<"$ldd_out" || { echo "$ldd_out"; echo "FAIL: libnwpio not from $prefix/lib"; exit 1; }

out=$work/out
"${clean_env[@]}" "$mpiexec" -n 2 "${preflags[@]}" nwpio-demo --io-form "$io_form" --e-we 21 --e-sn 17 --e-vert 5 \
  --frames 2 --output-dir "$out" --verify >"$work/demo.log" 2>&1 || { cat "$work/demo.log"; echo "FAIL: installed nwpio-demo"; exit 1; }
grep -c "OK: " "$work/demo.log" | grep -qx 2 || { cat "$work/demo.log"; echo "FAIL: nwpio-demo did not verify 2 files"; exit 1; }
for f in "$out"/wrfout_d01_*; do
  "${clean_env[@]}" nwpio-check "$f" >"$work/check.log" 2>&1 || { cat "$work/check.log"; echo "FAIL: nwpio-check $f"; exit 1; }
  grep -q "^OK" "$work/check.log" || { cat "$work/check.log"; echo "FAIL: nwpio-check does not say OK for $f"; exit 1; }
done
if ((with_bench)); then
  "${clean_env[@]}" "$mpiexec" -n 2 "${preflags[@]}" nwpio-bench --workload wrf --e-we 21 --e-sn 17 --e-vert 5 \
    --methods nwpio-io11,ceiling --repeat 1 --warmup 0 --dir "$work/bench" --json "$work/bench.json" --verify \
    >"$work/bench.log" 2>&1 ||
    { cat "$work/bench.log"; echo "FAIL: installed nwpio-bench"; exit 1; }
fi
echo "PASS: ${programs[*]} run from $prefix with a clean environment"
