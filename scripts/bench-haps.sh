#!/usr/bin/env bash
# The HAPS-size cell of nwpio-bench (opt-in: scripts/bench.sh --haps runs this): WRF's
# 202-variable history frame on the HAPS 1 km grid, 1281 x 961 x 70 staggered (7.8 GB per
# frame), at 2 ranks (2 x 1) on a disk directory with --fsync, as a new user would run it:
#
#   mpirun -np 2 nwpio-bench --workload wrf --e-we 1281 --e-sn 961 --e-vert 70 --nproc-x 2 \
#     --nproc-y 1 --fsync --dir DIR --methods ...
#
# The methods run in one process per group (a process holds the model, 3.9 GB per rank, plus the
# method's buffers: one group at a time fits 24 GiB); every group measures the raw ceiling and the
# netCDF floor again, so that each ratio is of one run (methods alternate within a run). Groups:
#   core    nwpio-io11, nwpio-io11-sync (write-behind off) and wrf-style (WRF's own io_form 11
#           pattern: PnetCDF, one collective put per variable)
#   serial  nwpio-io2 (serial netCDF through one rank) and nwpio-io13 (deflate 2 + shuffle)
#   adios2  adios2 and adios2-bp4 (WRF's io_form 14 pattern, BP4, one aggregator per node, with
#           Blosc lz4 as the package's default, and without); only when
#           nwpio-bench was built with ADIOS2 (scripts/build-adios2.sh; this script configures
#           the build with it when its cache exists)
# Writes DIR_OUT/haps_full_<group>_np2.{json,txt,log} and prints a table (seconds, MB/s,
# x ceiling, x netcdf-floor, x wrf-style, peak RSS per rank, and the model's view of nwpio:
# blocked and final-name seconds; ADIOS2: seconds to a netCDF file).
#
#   scripts/bench-haps.sh [--out DIR] [--disk DIR] [--build DIR] [--no-build] [--repeat N]
#                         [--groups "core serial adios2"] [--floors LIST]
# --floors: the raw variants measured for the ceiling and the netCDF floor (default: six).
# Refuses to start with less than NWPIO_HAPS_MIN_GIB (default 16) GiB of available memory.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
source "$NWPIO_ROOT/scripts/build-adios2.sh"

floors=raw-at,raw-all,raw-pwrite,floor-at,floor-all,floor-pwrite
out=$NWPIO_ROOT/bench/results disk=/var/tmp/nwpio-bench build=$NWPIO_ROOT/build do_build=1 repeat=3
groups="core serial adios2"
while (($#)); do
  case $1 in
    --out) out=$2; shift ;;
    --disk) disk=$2; shift ;;
    --build) build=$2; shift ;;
    --no-build) do_build=0 ;;
    --repeat) repeat=$2; shift ;;
    --groups) groups=$2; shift ;;
    --floors) floors=$2; shift ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "bench-haps.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

if ((do_build)); then
  mkdir -p "$build"
  if nwpio_adios2_cached; then
    nwpio_build "$build" -DCMAKE_PREFIX_PATH="$NWPIO_ADIOS2_PREFIX"
  else
    nwpio_build "$build"
  fi
fi
bench=$build/bin/nwpio-bench
[[ -x $bench ]] || { echo "bench-haps.sh: $bench not found (build first)" >&2; exit 1; }
mkdir -p "$out" "$disk"

# The raw write of the frame's bytes (ceiling) and the same plus the byte swap (netcdf-floor), in
# the variants that were fastest on this disk; the report names the fastest of each family.
declare -A methods=([core]=nwpio-io11,nwpio-io11-sync,wrf-style [serial]=nwpio-io2,nwpio-io13 [adios2]=adios2,adios2-bp4)
min_gib=${NWPIO_HAPS_MIN_GIB:-16}

for g in $groups; do
  [[ -n ${methods[$g]:-} ]] || { echo "bench-haps.sh: unknown group $g" >&2; exit 2; }
  if [[ $g == adios2 ]] && ! grep -q '^-- nwpio: ADIOS2 .*: ON' "$build/configure.log" 2>/dev/null; then
    nwpio_log "HAPS cell: $build has no ADIOS2 (scripts/build-adios2.sh, then this script): adios2 group left out"
    continue
  fi
  avail=$(awk '/MemAvailable/ { printf "%d", $2 / 1048576 }' /proc/meminfo)
  if ((avail < min_gib)); then
    echo "bench-haps.sh: only $avail GiB of memory available, the cell needs $min_gib GiB (NWPIO_HAPS_MIN_GIB)" >&2
    exit 1
  fi
  name=haps_full_${g}_np2
  nwpio_log "HAPS cell $g: ${methods[$g]} ($avail GiB available, load $(cut -d' ' -f1-3 /proc/loadavg))"
  start=$(date +%s)
  mpirun -np 2 "$bench" --workload wrf --e-we 1281 --e-sn 961 --e-vert 70 --nproc-x 2 --nproc-y 1 --fsync \
    --dir "$disk" --repeat "$repeat" --verify --methods "${methods[$g]},$floors" --json "$out/$name.json" \
    2>"$out/$name.log" | tee "$out/$name.txt"
  nwpio_log "HAPS cell $g took $(($(date +%s) - start)) s (load after: $(cut -d' ' -f1-3 /proc/loadavg))"
done

# One table over the groups; the ratios are each group's own.
python3 - "$out" <<'PY'
import glob, json, os, sys
rows = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "haps_full_*_np2.json"))):
    run = json.load(open(path))
    case = run["cases"][0]
    res = {r["method"]: r for r in run["results"]}
    floor, wrf = res.get("netcdf-floor"), res.get("wrf-style")
    field = case["model_bytes_per_rank"]
    for r in run["results"]:
        if r["method"].startswith(("raw-", "floor-")):
            continue
        med = r["seconds_median"]
        ph = r["phases_median_seconds"]
        slab = r.get("buffer_bytes", 0)
        rss = r["peak_rss_bytes_per_rank"]
        rows.append("| %s | %s | %.2f (%.2f-%.2f) | %.0f | %s | %s | %s | %s | %s | %s |" % (
            os.path.basename(path)[10:-9], r["method"], med, r["seconds_min"], r["seconds_max"], r["mb_per_s"],
            "%.2f" % r["ratio_to_ceiling"] if r.get("ratio_to_ceiling") else "-",
            "%.2f" % (floor["seconds_median"] / med) if floor and med else "-",
            "%.2f" % (wrf["seconds_median"] / med) if wrf and med else "-",
            " / ".join("%.2f" % (b / 1e9) for b in rss),
            " / ".join("%.2f" % (b / (f + slab)) for b, f in zip(rss, field)),
            ", ".join("%s %.2f" % (k, ph[k]) for k in ("blocked", "final_name", "to_netcdf") if k in ph) or "-"))
print("| group | method | median s (min-max) | MB/s | x ceiling | x netcdf-floor | x wrf-style | peak RSS GB per rank "
      "| RSS / (fields + slab) | model's view s |")
print("|---|---|---|---|---|---|---|---|---|---|")
print("\n".join(rows))
PY
