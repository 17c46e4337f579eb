#!/usr/bin/env bash
# What nwpio asks of MPI per frame, counted, not timed: nwpio-demo runs twice under the PMPI
# counter bench/mpi_counts (LD_PRELOAD into the ranks), with F and 2F frames, one frame per file
# unless the demo arguments say otherwise; the difference divided by F is one frame's (its
# file's create and close included), per rank. Counted on communicators of more than one rank:
# collective calls, MPI-IO opens, point-to-point and MPI_Alltoallv messages and bytes; not the
# MPI library's own internal calls. Prints one JSON object: per counter, the per-frame count of
# each rank.
#
#   scripts/count-mpi.sh [--np N] [--frames F] [--mpiexec "CMD ARGS"] [--build DIR] [--demo PATH] -- DEMO ARGS
#
# --np       ranks (default 3)
# --frames   F (default 4)
# --mpiexec  the launcher and its arguments (default "mpirun --oversubscribe")
# --build    build tree holding bin/nwpio-demo and lib/libnwpio_mpi_counts.so (default build)
# --demo     another nwpio-demo to count (another build's, to compare versions)
# Example: scripts/count-mpi.sh --np 3 -- --e-we 60 --e-sn 40 --e-vert 5 --frames-per-file 1
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
np=3 frames=4 mpiexec="mpirun --oversubscribe" build=$NWPIO_ROOT/build demo=
while (($#)); do
  case $1 in
    --np) np=$2; shift ;;
    --frames) frames=$2; shift ;;
    --mpiexec) mpiexec=$2; shift ;;
    --build) build=$2; shift ;;
    --demo) demo=$2; shift ;;
    --) shift; break ;;
    -h | --help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "count-mpi.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
lib=$build/lib/libnwpio_mpi_counts.so
demo=${demo:-$build/bin/nwpio-demo}
[[ -f $lib ]] || { echo "count-mpi.sh: $lib is missing (build the target nwpio_mpi_counts)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/nwpio-count-mpi.XXXXXX")
trap 'rm -rf "$work"' EXIT
read -ra launcher <<<"$mpiexec"
for f in "$frames" "$((2 * frames))"; do
  mkdir -p "$work/counts-$f" "$work/out-$f"
  "${launcher[@]}" -np "$np" -x LD_PRELOAD="$lib" -x NWPIO_MPI_COUNTS_DIR="$work/counts-$f" \
    "$demo" --frames "$f" --output-dir "$work/out-$f" "$@" > "$work/log-$f" 2>&1 ||
    { cat "$work/log-$f" >&2; echo "count-mpi.sh: nwpio-demo failed with $f frames" >&2; exit 1; }
done
python3 - "$work/counts-$frames" "$work/counts-$((2 * frames))" "$frames" "$np" <<'PY'
import json, os, sys
once, twice, frames, ranks = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def load(d):
    return {int(json.load(open(os.path.join(d, f)))["rank"]): json.load(open(os.path.join(d, f)))
            for f in os.listdir(d)}
a, b = load(once), load(twice)
if len(a) != ranks or len(b) != ranks:
    sys.exit(f"count-mpi.sh: counts of {len(a)} and {len(b)} ranks, expected {ranks}")
keys = [k for k in a[0] if k != "rank"]
per_frame = {k: [round((b[r][k] - a[r][k]) / frames, 2) for r in range(ranks)] for k in keys}
print(json.dumps({"ranks": ranks, "frames": [frames, 2 * frames], "per_frame": per_frame}, indent=1))
PY
