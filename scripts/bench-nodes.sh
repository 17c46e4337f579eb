#!/usr/bin/env bash
# nwpio-bench across nodes of the emulated cluster (scripts/emulated-cluster.sh; no Slurm, no
# shared volume: the files go to a local disk, the network is what is measured), against the
# same runs on one node, as ratios measured in the same job:
#
#   exchange  nwpio's exchange phase (method null: the frame through nwpio's data path, no file)
#             against `network`, the same bytes between the same ranks with plain MPI
#             (MPI_Isend/MPI_Irecv per peer): >= 1 means nwpio moves them as fast as MPI can
#   blocked   the model loop (nwpio-bench model-loop: calibrated compute, a frame every M steps,
#             io_form 11 written behind): the time the model was blocked per frame against
#             io_form 0's on the same nodes (nwpio's own work, exchange included, no file) and
#             against io_form 0's on one node (the pack alone: nothing crosses a node there)
#
# for each node count (1 = every rank on this host), one rank per node and slot (ranks = slots:
# Open MPI busy-polls, as on a production node), and again with `--mca mpi_yield_when_idle 1`.
# Prints one table and writes every run's JSON and log into the results directory.
#
#   scripts/bench-nodes.sh [--nodes "1 2 4"] [--repeat N] [--grid WExSNxV] [--out DIR] [--build DIR]
#
# --nodes    node counts (default "1 2 4"); 1 runs on this host without the cluster
# --repeat   repetitions of each nwpio-bench method and of the model loop (default 5 / 2)
# --grid     the WRF frame's staggered grid (default 100x80x10: 10.4 MB, 202 variables)
# --out      results directory (default bench/results/nodes)
# --build    build tree with nwpio-bench (default build)
# The cluster is brought up (--no-slurm --no-gluster) and down by this script unless one is up
# already (NWPIO_CLUSTER_NODES set), which it then uses and leaves up.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

node_counts="1 2 4" repeat=5 grid=100x80x10 out=$NWPIO_ROOT/bench/results/nodes build=$NWPIO_ROOT/build
while (($#)); do
  case $1 in
    --nodes) node_counts=$2; shift ;;
    --repeat) repeat=$2; shift ;;
    --grid) grid=$2; shift ;;
    --out) out=$2; shift ;;
    --build) build=$2; shift ;;
    -h | --help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "bench-nodes.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
IFS=x read -r we sn vert <<<"$grid"
bench=$build/bin/nwpio-bench
[[ -x $bench ]] || { echo "bench-nodes.sh: $bench not found (build first)" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
max_nodes=0
for n in $node_counts; do ((n > max_nodes)) && max_nodes=$n; done
if [[ -z ${NWPIO_CLUSTER_NODES:-} ]] && ((max_nodes > 1)); then
  eval "$("$NWPIO_ROOT/scripts/emulated-cluster.sh" up --nodes "$max_nodes" --no-slurm --no-gluster)"
  own_cluster=1
fi
# shellcheck disable=SC2317  # (the EXIT trap)
finish() {
  rm -rf "$files"
  if [[ -n ${own_cluster:-} ]]; then "$NWPIO_ROOT/scripts/emulated-cluster.sh" down >&2; fi
}
mkdir -p "$out"
files=$(mktemp -d /var/tmp/nwpio-bench-nodes.XXXXXX)
trap finish EXIT

# The launch for N nodes with R ranks per node: --host n1:R,n2:R,... ranks dealt node by node.
hosts_for() {
  local n=$1 r=$2
  if ((n == 1)); then echo "localhost:$r"; return; fi
  nwpio_cluster_hosts "$n" "$r"
}

results=()
for n in $node_counts; do
  for poll in busy yield; do
    mca=()
    [[ $poll == yield ]] && mca=(--mca mpi_yield_when_idle 1)
    tag=n${n}_$poll
    # nwpio-bench: 2 ranks per node's worth of the frame, one rank per node (2 on one node)
    ranks=$((n == 1 ? 2 : n))
    per=$((n == 1 ? 2 : 1))
    nwpio_log "bench-nodes: $tag: nwpio-bench network,null,nwpio-io11 on $ranks ranks"
    mpirun "${mca[@]}" --bind-to none --host "$(hosts_for "$n" "$per")" --map-by node -np "$ranks" \
      "$bench" --workload wrf --e-we "$we" --e-sn "$sn" --e-vert "$vert" --repeat "$repeat" \
      --methods network,null,nwpio-io11 --dir "$files" --json "$out/bench_$tag.json" >"$out/bench_$tag.log" 2>&1
    # the model loop: one compute rank per node (2 on one node) and one server rank that idles
    # for these synchronous methods, on the first node
    nwpio_log "bench-nodes: $tag: model-loop none,io0,io11"
    mpirun "${mca[@]}" --bind-to none --host "$(hosts_for "$n" "$((per + 1))")" --map-by node -np "$((ranks + 1))" \
      "$bench" model-loop --repeat 2 --steps 40 --every 5 --step-seconds 0.1 --servers 1 --e-we "$we" --e-sn "$sn" \
      --e-vert "$vert" --methods none,io0,io11 --dir "$files/loop" --json "$out/loop_$tag.json" >"$out/loop_$tag.log" 2>&1
    results+=("$tag")
  done
done

python3 - "$out" "${results[@]}" <<'PY'
import json, statistics, sys
out, tags = sys.argv[1], sys.argv[2:]
def blocked(tag, method):
    loop = json.load(open("%s/loop_%s.json" % (out, tag)))
    xs = [x for r in loop["runs"] if r["method"] == method for x in r["blocked_seconds"]]
    return statistics.median(xs), min(xs), max(xs)
print("%-10s %11s %10s %7s %13s %13s %8s %8s  %s" % ("run", "exchange s", "network s", "x ceil", "io0 blocked",
                                                     "io11 blocked", "x io0", "x pack", "io11 min-max"))
for tag in tags:
    b = json.load(open("%s/bench_%s.json" % (out, tag)))
    res = {r["method"]: r for r in b["results"]}
    ex, net = res["null"]["phases_median_seconds"]["exchange"], res["network"]["seconds_median"]
    io0, io11 = blocked(tag, "io0"), blocked(tag, "io11")
    # the pack alone: io_form 0 on one node (nothing crosses a node there), same busy/yield mode
    base = "n1_" + tag.split("_", 1)[1]
    pack = blocked(base, "io0")[0] if base in tags else float("nan")
    print("%-10s %11.4f %10.4f %7.2f %13.4f %13.4f %8.2f %8.2f  %.4f-%.4f" % (
        tag, ex, net, net / ex if ex > 0 else float("nan"), io0[0], io11[0], io11[0] / io0[0], io11[0] / pack,
        io11[1], io11[2]))
print("x ceil: network / exchange (1: as fast as plain MPI; one node moves nothing between nodes);")
print("x io0: the model blocked per frame with io_form 11 (written behind) / with io_form 0, same nodes;")
print("x pack: io_form 11 blocked / io_form 0 blocked on one node (the pack alone); medians over frames")
PY
uptime
