#!/usr/bin/env bash
# The benchmark sweep (docs/PERFORMANCE.md): every method of nwpio-bench on the WRF 202-variable frame at
# 1, 2 and 4 ranks on a disk directory and on /dev/shm (2 ranks also with --fsync on disk), the
# HAPS 1 km frame at a scale that fits the machine, and the shape x type x decomposition matrix.
# Writes one JSON per run, a combined markdown table and a PNG chart (MB/s per method and rank
# count) into the results directory.
#
#   scripts/bench.sh [--quick | --haps] [--out DIR] [--disk DIR] [--shm DIR] [--build DIR] [--no-build]
#
#   --quick     CI smoke: tiny grids, one repetition, 1 and 2 ranks (about a minute)
#   --haps      instead of the sweep, the HAPS-size cell alone (scripts/bench-haps.sh): the frame on
#               1281 x 961 x 70 (7.8 GB) at 2 ranks on --disk with --fsync, against the netCDF
#               floor, the ceiling, WRF's patterns and ADIOS2 (when built); about 16 GB of memory
#   --out DIR   results directory (default bench/results)
#   --disk DIR  directory on a disk file system (default /var/tmp/nwpio-bench)
#   --shm DIR   directory on tmpfs (default /dev/shm/nwpio-bench)
#   --build DIR build tree (default build); --no-build uses it as it is
# Environment: NP_LIST (default "1 2 4"), REPEAT (default 3), HAPS_SCALE (default 0.35).
# Default sweep, with the twelve raw-*/floor-* variants: 48 min on the 2-core machine shared with
# other builds (load average 11-19, 2026-12-01).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

quick=0 haps=0 out=$NWPIO_ROOT/bench/results disk=/var/tmp/nwpio-bench shm=/dev/shm/nwpio-bench
build=$NWPIO_ROOT/build do_build=1
while (($#)); do
  case $1 in
    --quick) quick=1 ;;
    --haps) haps=1 ;;
    --out) out=$2; shift ;;
    --disk) disk=$2; shift ;;
    --shm) shm=$2; shift ;;
    --build) build=$2; shift ;;
    --no-build) do_build=0 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

if ((haps)); then
  args=(--out "$out" --disk "$disk" --build "$build")
  ((do_build)) || args+=(--no-build)
  exec "$NWPIO_ROOT/scripts/bench-haps.sh" "${args[@]}"
fi

# gnuplot draws the chart, jq combines the JSON files.
nwpio_install_packages gnuplot-nox jq
if ((do_build)); then
  mkdir -p "$build"
  nwpio_build "$build"
fi
bench=$build/bin/nwpio-bench
[[ -x $bench ]] || { echo "bench.sh: $bench not found (build first)" >&2; exit 1; }
mkdir -p "$out" "$disk" "$shm"

NP_LIST=${NP_LIST:-"1 2 4"}
REPEAT=${REPEAT:-3}
HAPS_SCALE=${HAPS_SCALE:-0.35}
if ((quick)); then
  NP_LIST="1 2"; REPEAT=1; HAPS_SCALE=0.05
  grid=(--e-we 61 --e-sn 47 --e-vert 11); matrix_mb=1
else
  grid=(); matrix_mb=16
fi
cores=$(nproc)

# run NAME NP ARGS...: one nwpio-bench run, its JSON in $out/NAME.json, its table in NAME.txt.
run() {
  local name=$1 np=$2
  shift 2
  local extra=()
  ((np > cores)) && extra=(--oversubscribe)
  nwpio_log "run $name: $np rank(s): $*"
  mpirun -np "$np" "${extra[@]}" "$bench" --json "$out/$name.json" "$@" 2>"$out/$name.log" | tee "$out/$name.txt"
}

# 2 ranks split along west_east (the cell of the targets in docs/PERFORMANCE.md), 1 and 4 ranks
# as WRF chooses.
decomp() { if [[ $1 == 2 ]]; then echo "--nproc-x 2 --nproc-y 1"; fi; }

start=$(date +%s)
for np in $NP_LIST; do
  r=$REPEAT; ((np != 2 && REPEAT > 2)) && r=2
  # shellcheck disable=SC2046
  run "wrf_shm_np$np" "$np" --workload wrf "${grid[@]}" $(decomp "$np") --dir "$shm" --repeat "$r"
  # A disk directory varies more (ext4 here is mounted with online discard): more repetitions at 2 ranks.
  rd=$r; ((np == 2 && !quick && r < 5)) && rd=5
  # shellcheck disable=SC2046
  run "wrf_disk_np$np" "$np" --workload wrf "${grid[@]}" $(decomp "$np") --dir "$disk" --repeat "$rd"
done
# With --fsync a disk (here a virtual one) varies several-fold from one sync to the next: more repetitions.
run wrf_disk_fsync_np2 2 --workload wrf "${grid[@]}" --nproc-x 2 --nproc-y 1 --dir "$disk" --fsync \
  --repeat "$(( quick ? 1 : (REPEAT > 5 ? REPEAT : 5) ))"
# tmpfs page allocation spikes one repetition in a few by 2x at this size: 3 repetitions.
run "haps_shm_np2" 2 --workload haps --scale "$HAPS_SCALE" --nproc-x 2 --nproc-y 1 --dir "$shm" --repeat "$(( quick ? 1 : 3 ))"
run "matrix_shm_np2" 2 --workload matrix "${grid[@]}" --matrix-mb "$matrix_mb" --dir "$shm" --repeat "$(( REPEAT > 2 ? 2 : REPEAT ))"
# Peak RSS with nothing else in the process: io_form 11 and io_form 2 each in a run of its own.
for m in nwpio-io11 nwpio-io11-messages nwpio-io2 ceiling; do
  run "memory_${m}_np2" 2 --workload wrf "${grid[@]}" --nproc-x 2 --nproc-y 1 --dir "$shm" --repeat 1 --methods "$m"
done
# The staging bound at work: rounds of 64 MB instead of one 224 MB slab per writer.
run "memory_nwpio-io11-round64_np2" 2 --workload wrf "${grid[@]}" --nproc-x 2 --nproc-y 1 --dir "$shm" --repeat 1 \
  --methods nwpio-io11 --round-mb 64
nwpio_log "sweep took $(( $(date +%s) - start )) s"

# --- combined table ------------------------------------------------------------------------
tsv=$out/all.tsv
for f in "$out"/*.json; do
  jq -r --arg run "$(basename "$f" .json)" '.config as $c | .results[] |
    [$run, $c.workload, $c.file_system, $c.ranks, $c.ranks_exceed_cores, $c.fsync, .case, .method, .bytes,
     .seconds_median, .seconds_min, .seconds_max, .mb_per_s, (.ratio_to_ceiling // "-"),
     (.ratio_to_wrf_style // "-"), .peak_rss_bytes] | @tsv' "$f"
done >"$tsv"
md=$out/RESULTS.md
{
  echo "# nwpio-bench results"
  echo
  echo "Measured $(date -u +%Y-%m-%d) on $(hostname) ($cores cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)),"
  echo "$(jq -r '.config.mpiio.library // "?"' "$(ls "$out"/*.json | head -1)" | cut -d, -f1),"
  echo "MPI-IO $(jq -r '.config.mpiio.io_layer // "?"' "$(ls "$out"/*.json | head -1)"). Command: \`scripts/bench.sh$( ((quick)) && echo ' --quick')\`."
  echo "Ratios: reference median seconds / method median seconds (x ceiling 1.0 = raw MPI-IO speed; x wrf-style 2.0 = twice WRF's PnetCDF path)."
  echo "Peak RSS: per rank, the process high-water mark while the method ran (see docs/PERFORMANCE.md)."
  echo
  echo "| run | fs | ranks | fsync | case | method | MB | median s | min-max s | MB/s | x ceiling | x wrf-style | peak RSS MB |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' '{
    ranks = $4 ($5 == "true" ? " (>cores)" : "");
    rc = ($14 == "-") ? "-" : sprintf("%.2f", $14); rw = ($15 == "-") ? "-" : sprintf("%.2f", $15);
    printf "| %s | %s | %s | %s | %s | %s | %.1f | %.3f | %.3f-%.3f | %.0f | %s | %s | %.0f |\n",
      $1, $3, ranks, $6, $7, $8, $9 / 1e6, $10, $11, $12, $13, rc, rw, $16 / 1e6 }' "$tsv"
} >"$md"
nwpio_log "table: $md"

# --- chart: MB/s per method and rank count (WRF frame; tmpfs, disk, disk + fsync) ------------
# The null backend writes nothing (its "MB/s" is library overhead alone): it is in the table,
# not in the chart, where it would set the scale.
dat=$out/chart.dat
methods=(nwpio-io11 nwpio-io11-rearrange nwpio-io11-messages nwpio-io11-direct wrf-style nwpio-io2 ceiling netcdf-floor)
{
  printf 'method'
  for np in $NP_LIST; do printf '\tshm_np%s\tdisk_np%s' "$np" "$np"; done
  printf '\tdisk_fsync_np2\n'
  for m in "${methods[@]}"; do
    printf '%s' "$m"
    for np in $NP_LIST; do
      for where in shm disk; do
        v=$(awk -F'\t' -v r="wrf_${where}_np$np" -v m="$m" '$1 == r && $8 == m {print $13}' "$tsv")
        printf '\t%s' "${v:-0}"
      done
    done
    v=$(awk -F'\t' -v m="$m" '$1 == "wrf_disk_fsync_np2" && $8 == m {print $13}' "$tsv")
    printf '\t%s\n' "${v:-0}"
  done
} >"$dat"
ncol=$(head -1 "$dat" | awk -F'\t' '{print NF}')
gnuplot <<GP
set terminal pngcairo size 1400,700 noenhanced font ",10"
set output "$out/bench.png"
set title "nwpio-bench: WRF 202-variable frame (426x301x36), MB/s per method, ranks and directory (higher is better; $cores cores)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set key outside right top
set ylabel "MB/s"
set xtics rotate by -30
set grid ytics
set datafile separator "\t"
plot for [c=2:$ncol] "$dat" using c:xtic(1) title columnheader(c)
GP
nwpio_log "chart: $out/bench.png"
