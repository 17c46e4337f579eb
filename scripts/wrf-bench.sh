#!/usr/bin/env bash
# WRF's output time with its own io_form 11 package (external/io_pnetcdf) against nwpio's
# drop-in, on a larger em_quarter_ss grid, measured by WRF itself: the sum of its "Timing for
# Writing" lines (rank 0) per run. The two wrf.exe differ only in the package they link; runs
# alternate between them (interleaved, the order flipped every repetition) and each pair's
# files are compared value by value, so a fast wrong file shows up as one.
#
# Usage: scripts/wrf-bench.sh [--grid 202x202x41] [--ranks "2 4"] [--reps 3] [--minutes 3]
#                             [--history-seconds 60] [--dir DIR]
# Prints one line per run and a table (medians); raw lines go to DIR/wrf-bench.txt.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
source "$NWPIO_ROOT/scripts/wrf/build.sh"
source "$NWPIO_ROOT/scripts/wrf/run.sh"

grid=202x202x41
ranks="2 4"
reps=3
minutes=3
history=60
NWPIO_WRF_WORK=${NWPIO_WRF_WORK:-/tmp/nwpio-wrf-bench}
while (($#)); do
  case $1 in
    --grid) grid=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --history-seconds) history=$2; shift 2 ;;
    --dir) NWPIO_WRF_WORK=$2; shift 2 ;;
    *) echo "usage: $0 [--grid WExSNxVERT] [--ranks \"2 4\"] [--reps N] [--minutes M] [--history-seconds S] [--dir DIR]" >&2; exit 2 ;;
  esac
done
IFS=x read -r e_we e_sn e_vert <<<"$grid"
NWPIO_BUILD_DIR=${NWPIO_BUILD_DIR:-$NWPIO_ROOT/build-wrf}

nwpio_install_packages "${NWPIO_WRF_PACKAGES[@]}"
mkdir -p "$NWPIO_BUILD_DIR"
[[ -f $NWPIO_BUILD_DIR/CMakeCache.txt ]] ||
  cmake -S "$NWPIO_ROOT" -B "$NWPIO_BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >"$NWPIO_BUILD_DIR/configure.log" 2>&1
cmake --build "$NWPIO_BUILD_DIR" -j "$NWPIO_JOBS" --target wrfio_pnf nwpio-compare 2>&1 | { grep -vE '^\[ *[0-9]+%\]' || true; }
nwpio_wrf_build
rm -rf "$NWPIO_WRF_WORK"
mkdir -p "$NWPIO_WRF_WORK/bin"
bin=$NWPIO_WRF_WORK/bin
cp "$NWPIO_WRF_TREE/main/wrf.exe" "$bin/wrf_pnc.exe"  # WRF's own package, as WRF built it
nwpio_wrf_link "$bin/wrf_nwpio.exe" "$NWPIO_BUILD_DIR/lib"
compare=$NWPIO_BUILD_DIR/bin/nwpio-compare
raw=$NWPIO_WRF_WORK/wrf-bench.txt
: >"$raw"
hist11=wrfout_d01_0001-01-01_00_00_00
settings=(io_form_history=11 e_we=$e_we e_sn=$e_sn e_vert=$e_vert run_minutes=$minutes history_interval=0
  history_interval_s=$history)

declare -A seconds
for ((rep = 1; rep <= reps; rep++)); do
  for np in $ranks; do
    order=(pnc nwpio)
    ((rep % 2 == 0)) && order=(nwpio pnc)
    for pkg in "${order[@]}"; do
      dir=$NWPIO_WRF_WORK/np$np-$pkg
      nwpio_wrf_case "$dir" "$bin/wrf_$pkg.exe" "${settings[@]}"
      nwpio_wrf_run "$dir" "$np"
      s=$(nwpio_wrf_write_seconds "$dir")
      frames=$(grep -c "Timing for Writing" "$dir/rsl.out.0000")
      seconds[$np,$pkg]+="$s "
      echo "rep $rep np $np $pkg: $s s writing ($frames frames)" | tee -a "$raw"
    done
    if out=$("$compare" "$NWPIO_WRF_WORK/np$np-pnc/$hist11" "$NWPIO_WRF_WORK/np$np-nwpio/$hist11"); then
      echo "rep $rep np $np: files equal" | tee -a "$raw"
    else
      echo "rep $rep np $np: FILES DIFFER (WRF's own package under OMPIO data sieving, open-mpi/ompi#12718?): ${out%%$'\n'*}" |
        tee -a "$raw"
    fi
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
echo "em_quarter_ss $grid, $minutes min, history every $history s ($frames frames of $(($(stat -c %s "$NWPIO_WRF_WORK/np${ranks%% *}-nwpio/$hist11") / frames / 1000000)) MB in one file); WRF's Timing for Writing summed over the frames, median of $reps"
printf '| ranks | WRF io_pnetcdf s | nwpio s | speed-up | runs (io_pnetcdf; nwpio) |\n|---|---|---|---|---|\n'
for np in $ranks; do
  p=$(median <<<"${seconds[$np,pnc]}")
  n=$(median <<<"${seconds[$np,nwpio]}")
  printf '| %s | %s | %s | %.2fx | %s; %s |\n' "$np" "$p" "$n" "$(awk -v a="$p" -v b="$n" 'BEGIN { print a / b }')" \
    "${seconds[$np,pnc]% }" "${seconds[$np,nwpio]% }"
done
