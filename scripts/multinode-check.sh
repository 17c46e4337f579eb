#!/usr/bin/env bash
# nwpio across nodes, on a shared network file system: the checks of the emulated cluster
# (scripts/emulated-cluster.sh: nodes that are namespaces of this machine, each with its own
# host name and its own GlusterFS client, ranks on different nodes talking TCP over loopback).
# One line per check; exit 1 on any failure.
#
#   demo ioN          nwpio-demo at io_form N (11, 2, 13) with P ranks over K nodes (3 ranks on
#                     2 nodes, 5 on 4 (not io_form 13): uneven splits, ranks dealt out node by
#                     node), a file of two
#                     frames and one of one, on the shared volume: every value read back
#                     through netCDF-C (--verify), ncvalidator on every classic file, and every
#                     file equal to the same run's on one node writing to the local disk (byte for
#                     byte where the writer is deterministic: classic files; netCDF-4 files value
#                     for value and attribute for attribute with nwpio-compare)
#   servers           3 compute ranks on 3 nodes and 1 I/O server alone on the 4th (the last
#                     ranks, where WRF puts them): the same files as 3 ranks without servers
#   mpich             the demo across 2 nodes started by MPICH's Hydra (when build-mpich exists)
#   shared-directory and kill tests
#                     the suite's hostile-directory, killed-run and folder-swap tests with their
#                     ranks over 2 nodes and their files on the shared volume
#   job scripts       the suite's Slurm jobs (slurm/*.sbatch, unchanged) through sbatch -N 2
#   cluster self-test host names, node groups, TCP between nodes, a file-system client per node
#   read-only         the volume switched read-only while 3 ranks on 2 nodes write: every rank
#                     ends with an error naming the cause, no run hangs, no file under a final
#                     name is incomplete; under OMPIO and ROMIO
#
#   wrf               (--wrf) scripts/wrf-check.sh with its runs on the nodes and its run
#                     directories on the shared volume: the real WRF across 2 nodes against its
#                     io_form 2 output, a restart read back on the other node, I/O servers on a
#                     node of their own
#
# Usage: scripts/multinode-check.sh [--up] [--wrf]
#   --up    bring a cluster of 4 nodes (2 slots each) up first and down at the end (CI: the stage
#           of scripts/test.sh); otherwise the cluster must be up (eval the `up` lines of
#           scripts/emulated-cluster.sh first)
#   --wrf   also the real WRF (builds it once per machine, as scripts/wrf-check.sh does)
# Environment: NWPIO_BUILD_DIR (default build/), NWPIO_MPICH_BUILD_DIR (default build-mpich/).
set -euo pipefail
source "$(dirname "$0")/setup.sh"

up=0 with_wrf=0
for a in "$@"; do
  case $a in
    --up) up=1 ;;
    --wrf) with_wrf=1 ;;
    -h | --help) sed -n '2,45p' "$0"; exit 0 ;;
    *) echo "multinode-check.sh: unknown option $a" >&2; exit 2 ;;
  esac
done
if ((up)); then
  cluster_env=$("$NWPIO_ROOT/scripts/emulated-cluster.sh" up --nodes 4 --slots 2)
  eval "$cluster_env"
  # shellcheck disable=SC2317  # (the EXIT trap)
  cluster_down() { "$NWPIO_ROOT/scripts/emulated-cluster.sh" down >&2 || true; }
else
  cluster_down() { :; }
fi

BUILD=${NWPIO_BUILD_DIR:-$NWPIO_ROOT/build}
MPICH_BUILD=${NWPIO_MPICH_BUILD_DIR:-$NWPIO_ROOT/build-mpich}
[[ -n ${NWPIO_CLUSTER_SHARED:-} && -n ${NWPIO_CLUSTER_NODES:-} ]] ||
  { nwpio_log "multinode-check: no cluster (eval \"\$(scripts/emulated-cluster.sh up)\" first)"; exit 2; }
demo=$BUILD/bin/nwpio-demo
compare=$BUILD/bin/nwpio-compare
local_work=$(mktemp -d /tmp/nwpio-multinode.XXXXXX)
shared_work=$NWPIO_CLUSTER_SHARED/multinode-check
rm -rf "$shared_work"
mkdir -p "$shared_work"
trap 'rm -rf "$local_work"; cluster_down' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
failures=0
t0=$SECONDS
report() {  # report PASS|FAIL name detail
  echo "$1 $2: $3"
  [[ $1 == PASS ]] || failures=$((failures + 1))
}

read -r -a names <<<"$NWPIO_CLUSTER_NODES"

# mpirun on one node (this host, local disk) or over nodes (--host LIST, ranks dealt node by node).
run_local() { local np=$1; shift; mpirun --oversubscribe --host "localhost:$np" -np "$np" "$@"; }
run_nodes() { local hosts=$1 np=$2; shift 2; mpirun --oversubscribe --host "$hosts" --map-by node -np "$np" "$@"; }

# Every file of directory $1 equal to its namesake in $2; "" when all are, else what differs.
same_files() {
  local a b name out bad=""
  shopt -s nullglob
  for a in "$1"/wrfout_d01_*; do
    name=$(basename "$a")
    b=$2/$name
    if [[ ! -f $b ]]; then
      bad+=" $name missing;"
    elif ! cmp -s "$a" "$b"; then
      # netCDF-4 (HDF5) files are not byte-reproducible: their values and attributes must be
      if [[ $(head -c 4 "$a" | od -An -c | tr -d ' ') == *HDF* ]] && out=$("$compare" "$a" "$b" 2>&1); then
        continue
      fi
      bad+=" $name differs;"
    fi
  done
  echo "$bad"
}

validate_all() {  # ncvalidator on every classic file of $1; "" when all pass
  local f bad=""
  for f in "$1"/wrfout_d01_*; do
    [[ $(head -c 3 "$f") == CDF ]] || continue
    ncvalidator -q "$f" >/dev/null 2>&1 || bad+=" $(basename "$f")"
  done
  echo "$bad"
}

grid=(--e-we 61 --e-sn 43 --e-vert 8)

# --- the demo over 2 and 4 nodes against one node -------------------------------------------------
# 3 frames, 2 per file: a file of two frames and one of one. The reference: the same ranks on
# this host, on the local disk (the files name the rank count: WRF's NTASKS_* attributes).
# io_form 13 (parallel HDF5: collective calls per variable) on 2 nodes with two frames in one
# file, its ranks yielding the core while they wait (mpi_yield_when_idle): 3 ranks that poll on
# 2 cores took 58 s, yielding 4 s. Not on 4 nodes: 4 ranks, each talking TCP to every other on
# 2 cores, took more than 5 minutes for one frame in HDF5's collectives, polling or yielding;
# what that measures is the 2 cores, not nwpio. A spec is NODES:RANKS:FRAMES.
maybe_yield() { if ((yield)); then OMPI_MCA_mpi_yield_when_idle=1 "$@"; else "$@"; fi; }
for io in ${NWPIO_MULTINODE_IO_FORMS:-11 2 13}; do
  specs=(2:3:3 4:5:3)
  yield=0
  [[ $io == 13 ]] && specs=(2:3:2) yield=1
  for spec in "${specs[@]}"; do
    IFS=: read -r nodes np frames <<<"$spec"
    want=$(((frames + 1) / 2))
    args=("$demo" "${grid[@]}" --frames "$frames" --frames-per-file 2 --io-form "$io" --verify)
    t=$SECONDS
    name="demo io$io ${np} ranks on $nodes nodes"
    ref=$local_work/io$io-np$np out=$shared_work/io$io-n$nodes
    if ! log=$(maybe_yield run_local "$np" "${args[@]}" --output-dir "$ref" 2>&1); then
      report FAIL "$name" "the one-node run failed: $(tail -3 <<<"$log")"
      continue
    fi
    if ! log=$(maybe_yield run_nodes "$(nwpio_cluster_hosts "$nodes" 2)" "$np" "${args[@]}" --output-dir "$out" 2>&1); then
      report FAIL "$name" "the run failed: $(tail -3 <<<"$log")"
      continue
    fi
    files=$(find "$out" -maxdepth 1 -name 'wrfout_d01_*' | wc -l)
    diff=$(same_files "$ref" "$out") bad=$(validate_all "$out")
    if ((files == want)) && [[ -z $diff && -z $bad && -z $(find "$out" -name '*.nwpio-tmp') ]]; then
      report PASS "$name" "$files files read back, equal to one node's ($((SECONDS - t)) s)"
    else
      report FAIL "$name" "$files files;${diff:+ differ:$diff}${bad:+ ncvalidator:$bad}"
    fi
  done
done

# --- I/O servers alone on the last node --------------------------------------------------------
t=$SECONDS
namelist() {  # namelist FILE TASKS_PER_GROUP: the demo tests' namelist on 3 x 1 compute ranks
  sed -e 's/^ *nproc_x *=.*/ nproc_x = 3,/' -e 's/^ *nproc_y *=.*/ nproc_y = 1,/' \
    "$NWPIO_ROOT/tests/demo/data/namelist.demo.input" >"$1"
  printf " &namelist_quilt\n nio_tasks_per_group = %d,\n nio_groups = 1,\n /\n" "$2" >>"$1"
}
namelist "$local_work/namelist.plain" 0
namelist "$local_work/namelist.servers" 1
server_hosts=$(nwpio_cluster_hosts 4 1)
ref=$local_work/servers-ref out=$shared_work/servers
if log=$(run_local 3 "$demo" --namelist "$local_work/namelist.plain" --e-vert 5 --verify --output-dir "$ref" 2>&1) &&
  log=$(mpirun --oversubscribe --host "$server_hosts" --map-by slot -np 4 "$demo" --namelist "$local_work/namelist.servers" \
    --e-vert 5 --verify --output-dir "$out" 2>&1); then
  diff=$(same_files "$ref" "$out")
  served=$(grep -c '^Timing for Writing .*written by I/O server' <<<"$log" || true)
  if [[ -z $diff ]] && ((served > 0)); then
    report PASS servers "3 compute ranks on ${names[*]:0:3}, the server on ${names[3]}: $served frame(s), the same files ($((SECONDS - t)) s)"
  else
    report FAIL servers "$served frame(s) written by the server;${diff:+ differ:$diff}"
  fi
else
  report FAIL servers "a run failed: $(tail -3 <<<"$log")"
fi

# --- MPICH: the demo across 2 nodes, started by Hydra through the cluster's agent -----------------
mpich_demo=$MPICH_BUILD/bin/nwpio-demo
if [[ -x $mpich_demo ]]; then
  t=$SECONDS
  ref=$local_work/mpich-ref out=$shared_work/mpich
  read -r -a hydra <<<"${NWPIO_CLUSTER_HYDRA_FLAGS:-}"
  args=("$mpich_demo" "${grid[@]}" --frames 2 --frames-per-file 1 --verify)
  if log=$(mpiexec.mpich -n 3 "${args[@]}" --output-dir "$ref" 2>&1) &&
    log=$(mpiexec.mpich "${hydra[@]}" -hosts "$(nwpio_cluster_hosts 2 1)" -n 3 "${args[@]}" --output-dir "$out" 2>&1); then
    diff=$(same_files "$ref" "$out") bad=$(validate_all "$out")
    if [[ -z $diff && -z $bad ]]; then
      report PASS mpich "3 ranks on 2 nodes through Hydra: the same files as on one node ($((SECONDS - t)) s)"
    else
      report FAIL mpich "${diff:+differ:$diff}${bad:+ ncvalidator:$bad}"
    fi
  else
    report FAIL mpich "a run failed: $(tail -3 <<<"$log")"
  fi
else
  echo "SKIP mpich: no $mpich_demo (build-mpich is made by scripts/test.sh's MPICH stage)"
fi

# --- the test suite's runs on the nodes, their scratch on the shared volume ----------------------
# The build's test scratch folder is the volume on this host and on every node for as long as
# the tests below run (a bind mount in each mount namespace), and every MPI test's ranks are
# dealt over 2 nodes (NWPIO_TEST_MPIEXEC_FLAGS, read by the tests' launcher).
scratch=$BUILD/test-scratch
volume_scratch() {  # on | off
  local n
  if [[ $1 == on ]]; then
    mkdir -p "$scratch" "$NWPIO_CLUSTER_SHARED/test-scratch"
    mount --bind "$NWPIO_CLUSTER_SHARED/test-scratch" "$scratch"
    for n in $NWPIO_CLUSTER_NODES; do
      "$NWPIO_ROOT/scripts/emulated-cluster.sh" exec "$n" mount --bind "$NWPIO_CLUSTER_SHARED/test-scratch" "$scratch"
    done
  else
    for n in $NWPIO_CLUSTER_NODES; do "$NWPIO_ROOT/scripts/emulated-cluster.sh" exec "$n" umount "$scratch" || true; done
    umount "$scratch" || true
  fi
}
volume_scratch on
trap 'volume_scratch off; rm -rf "$local_work"; cluster_down' EXIT
run_tests() {  # run_tests NAME CTEST_ARGS...: one check line for a ctest selection
  local name=$1 t=$SECONDS out
  shift
  if out=$(cd "$BUILD" && ctest --output-on-failure --timeout 600 "$@" 2>&1); then
    report PASS "$name" "$(grep -E 'tests passed' <<<"$out") ($((SECONDS - t)) s)"
  else
    echo "$out" | tail -60
    report FAIL "$name" "$(grep -E 'tests passed|tests failed' <<<"$out")"
  fi
}
# A hostile directory, a killed run and a swapped folder, on the shared volume over 2 nodes;
# the ranks yield the core while they wait, as io_form 13's demo above.
NWPIO_TEST_MPIEXEC_FLAGS="--host $(nwpio_cluster_hosts 2 2) --map-by node --mca mpi_yield_when_idle 1" \
  run_tests "shared-directory and kill tests" \
  -R '^(nwpio_shared_dir_test_np3|reliability_killed_run|reliability_folder_swap)$'
# The job scripts of slurm/ through sbatch -N 2 on the cluster's Slurm.
NWPIO_TEST_SLURM_CLUSTER=$SLURM_LOCAL_DIR NWPIO_TEST_SLURM_NODES=2 run_tests "job scripts, sbatch -N 2" -L slurm
# The cluster itself: host names, node groups, TCP between nodes, one file-system client per node.
run_tests "cluster self-test" -L cluster
volume_scratch off
trap 'rm -rf "$local_work"; cluster_down' EXIT

# --- the volume turned read-only under running ranks, under OMPIO and ROMIO ------------------------
# tests/cluster/readonly_switch.sh: 3 ranks on 2 nodes write; the volume is switched read-only
# 2 to 6 s into a run of 20 frames (about 25 s undisturbed) and writable again after it. The
# reference files (an undisturbed run, every value checked) are shared by both layers: they
# write the same bytes.
# Under OMPIO with OMPI_MCA_sharedfp=sm, as docs/HINTS.md advises across nodes: its default
# shared-file-pointer component (lockedfile) creates a file on every rank inside each
# MPI_File_open, and a file system that fails under some ranks only there hangs the open inside
# Open MPI 4.1. Even without those files, a rank whose own open fails after rank 0 created the
# file hangs OMPIO (docs/RELIABILITY.md): nwpio's file_timeout_seconds must end such a run, so a
# hang the script has to kill fails under either layer. With the limit at 20 s, every rank
# names the step that never returned, which the script counts as an end with an error on every
# rank. NWPIO_MULTINODE_READONLY_RUNS: runs per layer (default 2).
flip() { echo "$NWPIO_ROOT/scripts/emulated-cluster.sh volume-set features.read-only $1"; }
{
  cat "$NWPIO_ROOT/tests/demo/data/namelist.demo.input"
  printf ' &nwpio\n file_timeout_seconds = 20,\n /\n'
} >"$local_work/namelist.readonly"
for layer in ompio romio321; do
  t=$SECONDS
  if out=$(OMPI_MCA_sharedfp=sm OMPI_MCA_io=$layer "$NWPIO_ROOT/tests/cluster/readonly_switch.sh" --runs "${NWPIO_MULTINODE_READONLY_RUNS:-2}" \
    --after 2-6 --timeout 120 --build "$BUILD" --mpiexec "mpirun --oversubscribe --host $(nwpio_cluster_hosts 2 2) --map-by node" \
    --flip "$(flip on)" --restore "$(flip off)" --reference "$shared_work/readonly-reference" \
    --logs "$local_work/readonly-$layer" "$shared_work/readonly-$layer" -- --namelist "$local_work/namelist.readonly" --e-we 161 --e-sn 121 --e-vert 21 --frames 20 2>&1); then
    report PASS "read-only volume, $layer" "$(tail -1 <<<"$out"), every rank the same error ($((SECONDS - t)) s)"
  else
    echo "$out" | tail -20
    report FAIL "read-only volume, $layer" "$(tail -1 <<<"$out")"
  fi
done

# --- the real WRF across 2 nodes -------------------------------------------------------------------
if ((with_wrf)); then
  t=$SECONDS
  if NWPIO_BUILD_DIR=$BUILD NWPIO_WRF_WORK=$NWPIO_CLUSTER_SHARED/wrf-check "$NWPIO_ROOT/scripts/wrf-check.sh"; then
    report PASS wrf "every check of scripts/wrf-check.sh with wrf.exe across 2 nodes ($((SECONDS - t)) s)"
  else
    report FAIL wrf "scripts/wrf-check.sh across 2 nodes (its FAIL lines above)"
  fi
fi

nwpio_log "multinode-check: $failures failed check(s), $((SECONDS - t0)) s"
((failures == 0))
