#!/usr/bin/env bash
# End to end: the dates in nwpio-demo's files decode to the frames' dates in CDO and xarray.
# Runs nwpio-demo (with --verify: every value, XTIME as minutes since the start), then for
# every file compares three readings of its time axis, each through another library:
#   Times                       ncdump (netCDF-C), the dates the model wrote
#   cdo showtimestamp           CDO's decoding of XTIME with its units "minutes since ..."
#   xarray decode_times         /usr/bin/python3 (Debian's xarray + netCDF4), decode_dates.py
# All three must give exactly the same dates, frame by frame.
#   dates_case.sh MPIEXEC DEMO SOURCE_DIR WORKDIR RANKS FILES demo-options...
set -euo pipefail
read -r -a preflags <<<"${NWPIO_MPIEXEC_PREFLAGS:-}"  # the build's MPIEXEC_PREFLAGS (ctest sets it)
mpiexec=$1 demo=$2 src=$3 work=$4 ranks=$5 expected_files=$6
shift 6
rm -rf "$work" && mkdir -p "$work"
"$mpiexec" -n "$ranks" "${preflags[@]}" "$demo" --output-dir "$work" --verify --e-we 21 --e-sn 17 --e-vert 5 "$@"
shopt -s nullglob
files=("$work"/wrfout_d01_*)
((${#files[@]} == expected_files)) || { echo "FAIL: expected $expected_files files, found ${#files[@]}"; exit 1; }
for f in "${files[@]}"; do
  # Times as netCDF-C reads it: one "YYYY-MM-DD_HH:MM:SS" per record.
  times=$(ncdump -v Times "$f" | sed -n '/^ Times =/,/;/p' | grep -oE '[0-9]{4}-[0-9]{2}-[0-9]{2}_[0-9:]{8}' | tr '\n' ' ')
  [[ -n $times ]] || { echo "FAIL: no Times in $f"; exit 1; }
  cdo_times=$(cdo -s showtimestamp "$f" | tr -s ' \n' '  ' | sed -e 's/T/_/g' -e 's/^ *//' -e 's/ *$/ /')
  xr_times=$(/usr/bin/python3 "$src/tests/demo/decode_dates.py" "$f" | tr '\n' ' ')
  echo "$(basename "$f"): Times [$times] cdo [$cdo_times] xarray [$xr_times]"
  [[ $cdo_times == "$times" ]] || { echo "FAIL: cdo showtimestamp differs from Times in $f"; exit 1; }
  [[ $xr_times == "$times" ]] || { echo "FAIL: xarray decode_times differs from Times in $f"; exit 1; }
done
echo "PASS: ${#files[@]} files, CDO and xarray decode exactly the dates in Times"
