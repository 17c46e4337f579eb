#!/usr/bin/env bash
# WRF's output time with its own io_form 11 package (external/io_pnetcdf) against nwpio's
# drop-in, on a larger em_quarter_ss grid, measured by WRF itself: the sum of its "Timing for
# Writing" lines (rank 0) per run. The two wrf.exe differ only in the package they link; runs
# alternate between them (interleaved, the order flipped every repetition) and each pair's
# files are compared value by value, so a fast wrong file shows up as one.
#
# Usage: scripts/wrf-bench.sh [--grid 202x202x41] [--ranks "2 4"] [--reps 3] [--minutes 3]
#                             [--history-seconds 60] [--frames-per-outfile N] [--dir DIR]
#                             [--packages "pnc nwpio nwpio-sync adios2 adios2-nocomp"]
# Packages: pnc (WRF's io_pnetcdf), nwpio (nwpio's drop-in, its defaults), nwpio-sync (the
# drop-in with &nwpio write_behind = .false.: every frame in the file before WRF goes on),
# adios2 (WRF's io_form 14 package, external/io_adios2, its defaults: BP4, Blosc lz4, one
# aggregator per node) and adios2-nocomp (the same with &namelist_adios2
# adios2_compression_enable = .false.). With an ADIOS2 package every wrf.exe comes from WRF built
# with PnetCDF and ADIOS2 (scripts/build-adios2.sh, NWPIO_WRF_ADIOS2 of scripts/wrf/build.sh), so
# all packages run the same WRF. ADIOS2 writes BP directories, which no netCDF tool reads: each
# run's BP output is converted to netCDF with nwpio-bp2nc (ADIOS2's own reader) after the run,
# timed ("to netCDF"), and the converted files are checked by variable name, every value and
# attribute, against WRF's io_form 2 output of the same case (one untimed reference run per rank
# count), so that no package wins by writing less.
# --frames-per-outfile: WRF's frames_per_outfile (default: every frame of the run in one file;
# 1 is what operational runs do). Every file of every pair of runs is compared.
# Prints one line per run (output seconds, the run's wall seconds, and for nwpio the seconds from
# a file's last frame to its final name, median and max over the run's files, from the run's
# statistics JSON; for ADIOS2 the conversion's seconds) and the bytes on disk, and a table
# (medians); raw lines go to DIR/wrf-bench.txt.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
source "$NWPIO_ROOT/scripts/wrf/build.sh"
source "$NWPIO_ROOT/scripts/wrf/run.sh"

grid=202x202x41
ranks="2 4"
reps=3
minutes=3
history=60
per_file=0
packages="pnc nwpio"
NWPIO_WRF_WORK=${NWPIO_WRF_WORK:-/tmp/nwpio-wrf-bench}
while (($#)); do
  case $1 in
    --grid) grid=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --history-seconds) history=$2; shift 2 ;;
    --frames-per-outfile) per_file=$2; shift 2 ;;
    --dir) NWPIO_WRF_WORK=$2; shift 2 ;;
    --packages) packages=$2; shift 2 ;;
    *) echo "usage: $0 [--grid WExSNxVERT] [--ranks \"2 4\"] [--reps N] [--minutes M] [--history-seconds S] [--frames-per-outfile N] [--dir DIR] [--packages \"pnc nwpio nwpio-sync adios2 adios2-nocomp\"]" >&2; exit 2 ;;
  esac
done
IFS=x read -r e_we e_sn e_vert <<<"$grid"
NWPIO_BUILD_DIR=${NWPIO_BUILD_DIR:-$NWPIO_ROOT/build-wrf}
with_adios2=0
[[ " $packages " == *" adios2"* ]] && with_adios2=1

nwpio_install_packages "${NWPIO_WRF_PACKAGES[@]}"
targets=(wrfio_pnf nwpio-compare)
configure=(-DCMAKE_BUILD_TYPE=Release)
if ((with_adios2)); then
  source "$NWPIO_ROOT/scripts/build-adios2.sh"
  nwpio_install_packages "${NWPIO_ADIOS2_PACKAGES[@]}"
  nwpio_adios2_build
  export NWPIO_WRF_ADIOS2=$NWPIO_ADIOS2_PREFIX
  NWPIO_BUILD_DIR=$NWPIO_BUILD_DIR-adios2
  configure+=(-DCMAKE_PREFIX_PATH="$NWPIO_ADIOS2_PREFIX" -DNWPIO_ADIOS2=ON)
  targets+=(nwpio-bp2nc)
fi
mkdir -p "$NWPIO_BUILD_DIR"
[[ -f $NWPIO_BUILD_DIR/CMakeCache.txt ]] ||
  cmake -S "$NWPIO_ROOT" -B "$NWPIO_BUILD_DIR" "${configure[@]}" >"$NWPIO_BUILD_DIR/configure.log" 2>&1
cmake --build "$NWPIO_BUILD_DIR" -j "$NWPIO_JOBS" --target "${targets[@]}" 2>&1 | nwpio_drop_progress
nwpio_wrf_build
rm -rf "$NWPIO_WRF_WORK"
mkdir -p "$NWPIO_WRF_WORK/bin"
bin=$NWPIO_WRF_WORK/bin
cp "$NWPIO_WRF_TREE/main/wrf.exe" "$bin/wrf_pnc.exe"  # WRF's own package, as WRF built it
nwpio_wrf_link "$bin/wrf_nwpio.exe" "$NWPIO_BUILD_DIR/lib"
compare=$NWPIO_BUILD_DIR/bin/nwpio-compare
bp2nc=$NWPIO_BUILD_DIR/bin/nwpio-bp2nc
raw=$NWPIO_WRF_WORK/wrf-bench.txt
: >"$raw"
settings=(io_form_history=11 e_we=$e_we e_sn=$e_sn e_vert=$e_vert run_minutes=$minutes history_interval=0
  history_interval_s=$history)
((per_file > 0)) && settings+=(frames_per_outfile=$per_file)

# nwpio's statistics of a run: "median max" of the seconds from a file's last frame to its final
# name (committed_after_seconds of the frames that completed files).
commit_seconds() {
  python3 - "$1" <<'PY'
import json, statistics, sys
frames = json.load(open(sys.argv[1]))["frames"]
after = sorted(f["committed"]["after_seconds"] for f in frames if "committed" in f)
print("%.3f %.3f" % (statistics.median(after), after[-1]) if after else "- -")
PY
}

# Bytes on disk of a run's history output (netCDF files or ADIOS2's BP directories).
history_bytes() { du -sb --apparent-size "$1"/wrfout_d01_* | awk '{ s += $1 } END { print s + 0 }'; }

# WRF's io_form 2 output of the case at NP ranks, the reference of the ADIOS2 checks (untimed).
reference_run() {
  local np=$1 dir=$NWPIO_WRF_WORK/np$1-io2
  [[ -f $dir/done ]] && return 0
  nwpio_wrf_case "$dir" "$bin/wrf_pnc.exe" "${settings[@]}" io_form_history=2
  nwpio_wrf_run "$dir" "$np"
  touch "$dir/done"
}

# ADIOS2's BP output of run DIR as netCDF (DIR/nc/), timed, each file checked against the io_form 2
# reference of NP ranks. Prints "SECONDS CHECKED-FILES DIFFERING-FILES [first difference]".
convert_and_check() {
  local dir=$1 np=$2 t0 t1 bp name ok=0 bad=0 detail="" out
  rm -rf "$dir/nc"
  mkdir -p "$dir/nc"
  t0=$(date +%s.%N)
  for bp in "$dir"/wrfout_d01_*; do
    [[ -e $bp ]] || continue
    name=$(basename "$bp")
    "$bp2nc" convert "$bp" "$dir/nc/${name%.bp}" >>"$dir/nc/convert.log" 2>&1 ||
      { echo "- 0 1 conversion of $name failed: $(tail -1 "$dir/nc/convert.log")"; return 0; }
  done
  t1=$(date +%s.%N)
  for f in "$dir"/nc/wrfout_d01_*; do
    if out=$("$bp2nc" check "$NWPIO_WRF_WORK/np$np-io2/$(basename "$f")" "$f" 2>&1); then
      ok=$((ok + 1))
    else
      bad=$((bad + 1))
      detail=${detail:-"$(basename "$f"): $(sed -n 2p <<<"$out")"}
    fi
  done
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') $ok $bad $detail"
}

read -r -a order0 <<<"$packages"
declare -A seconds walls commits disk tonc
for ((rep = 1; rep <= reps; rep++)); do
  for np in $ranks; do
    ((with_adios2)) && reference_run "$np"
    order=("${order0[@]}")
    if ((rep % 2 == 0)); then  # flipped every repetition
      order=()
      for ((i = ${#order0[@]} - 1; i >= 0; i--)); do order+=("${order0[i]}"); done
    fi
    for pkg in "${order[@]}"; do
      dir=$NWPIO_WRF_WORK/np$np-$pkg
      extra=()
      exe=$bin/wrf_$pkg.exe
      case $pkg in
        nwpio-sync) exe=$bin/wrf_nwpio.exe extra=(write_behind=.false.) ;;
        adios2) exe=$bin/wrf_pnc.exe extra=(io_form_history=14 adios2_compression_enable=.true.) ;;
        adios2-nocomp) exe=$bin/wrf_pnc.exe extra=(io_form_history=14 adios2_compression_enable=.false.) ;;
      esac
      [[ $pkg == nwpio* ]] && extra+=("stats_json='stats.json'")
      nwpio_wrf_case "$dir" "$exe" "${settings[@]}" "${extra[@]}"
      t0=$(date +%s.%N)
      nwpio_wrf_run "$dir" "$np"
      wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
      s=$(nwpio_wrf_write_seconds "$dir")
      frames=$(grep -c "Timing for Writing" "$dir/rsl.out.0000")
      seconds[$np,$pkg]+="$s "
      walls[$np,$pkg]+="$wall "
      files=$(find "$dir" -maxdepth 1 -name 'wrfout_d01_*' | wc -l)
      bytes=$(history_bytes "$dir")
      disk[$np,$pkg]+="$bytes "
      committed=""
      if [[ -f $dir/stats.json ]]; then
        read -r c_median c_max < <(commit_seconds "$dir/stats.json")
        committed=", final name $c_median s after a file's last frame (max $c_max)"
        commits[$np,$pkg]+="$c_median "
      fi
      if [[ $pkg == adios2* ]]; then
        read -r c_seconds c_ok c_bad c_detail < <(convert_and_check "$dir" "$np")
        tonc[$np,$pkg]+="$c_seconds "
        if ((c_bad == 0 && c_ok > 0)); then
          committed=", netCDF $c_seconds s after the run (nwpio-bp2nc), $c_ok files equal to io_form 2"
        else
          committed=", netCDF $c_seconds s after the run, FILES DIFFER FROM io_form 2 ($c_bad of $((c_ok + c_bad))): $c_detail"
        fi
      fi
      echo "rep $rep np $np $pkg: $s s writing ($frames frames in $files files, $bytes bytes), run $wall s wall$committed" | tee -a "$raw"
    done
    first=${order0[0]}
    for pkg in "${order0[@]:1}"; do
      [[ $pkg == adios2* ]] && continue  # BP output: checked against io_form 2 above
      same=0 differ=0 missing=0 detail=""
      for f in "$NWPIO_WRF_WORK/np$np-$first"/wrfout_d01_*; do
        other=$NWPIO_WRF_WORK/np$np-$pkg/$(basename "$f")
        if [[ ! -f $other ]]; then
          missing=$((missing + 1))
        elif out=$("$compare" "$f" "$other"); then
          same=$((same + 1))
        else
          differ=$((differ + 1))
          detail=${detail:-": $(basename "$f"): ${out%%$'\n'*}"}
        fi
      done
      if ((differ == 0 && missing == 0)); then
        echo "rep $rep np $np: $first and $pkg files equal ($same files)" | tee -a "$raw"
      else
        echo "rep $rep np $np: $first and $pkg FILES DIFFER ($differ differ, $missing missing of $((same + differ + missing))$detail)" |
          tee -a "$raw"
      fi
    done
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
frame_mb=$(($(history_bytes "$NWPIO_WRF_WORK/np${ranks%% *}-${order0[0]}") / frames / 1000000))
echo "em_quarter_ss $grid, $minutes min, history every $history s ($frames frames of $frame_mb MB, $( ((per_file > 0)) && echo "$per_file per file" || echo "all in one file")); WRF's Timing for Writing summed over the frames (and the run's wall seconds), median of $reps"
header="| ranks |"
rule="|---|"
for pkg in "${order0[@]}"; do
  header+=" $pkg s (wall s) |"
  rule+="---|"
done
[[ " $packages " == *" pnc "* && " $packages " == *" nwpio "* ]] && { header+=" nwpio faster |"; rule+="---|"; }
echo "$header runs (output s, in the order of the header) |"
echo "$rule---|"
for np in $ranks; do
  line="| $np |"
  runs=""
  for pkg in "${order0[@]}"; do
    line+=" $(median <<<"${seconds[$np,$pkg]}") ($(median <<<"${walls[$np,$pkg]}")) |"
    runs+="${runs:+; }${seconds[$np,$pkg]% }"
  done
  if [[ " $packages " == *" pnc "* && " $packages " == *" nwpio "* ]]; then
    line+=" $(awk -v a="$(median <<<"${seconds[$np,pnc]}")" -v b="$(median <<<"${seconds[$np,nwpio]}")" 'BEGIN { printf "%.2fx", a / b }') |"
  fi
  echo "$line $runs |"
done
echo
echo "Bytes on disk (median of the runs) and, for ADIOS2, the seconds until its output is netCDF (nwpio-bp2nc, one process, after the run):"
for np in $ranks; do
  for pkg in "${order0[@]}"; do
    extra=""
    [[ -n ${tonc[$np,$pkg]:-} ]] && extra=", to netCDF $(median <<<"${tonc[$np,$pkg]}") s"
    echo "$np ranks, $pkg: $(median <<<"${disk[$np,$pkg]}") bytes$extra"
  done
done
for np in $ranks; do
  for pkg in "${order0[@]}"; do
    [[ -n ${commits[$np,$pkg]:-} ]] || continue
    echo "$np ranks, $pkg: a file carried its final name $(median <<<"${commits[$np,$pkg]}") s after its last frame ended (median over the runs of each run's median)"
  done
done
