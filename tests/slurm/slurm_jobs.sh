#!/usr/bin/env bash
# The slurm/ job scripts on a real single-node Slurm (slurm/slurm-local.sh), as ctest runs them:
#
#   slurm_jobs.sh start    SOURCE BUILD   start a cluster in a new temporary directory (fixture)
#   slurm_jobs.sh demo     SOURCE BUILD   run_demo.sbatch: Lustre path (fake lfs), ROMIO, mpirun
#                                         (mpiexec.mpich in a build against MPICH)
#   slurm_jobs.sh mini_wrf SOURCE BUILD   run_mini_wrf.sbatch against an installed prefix, srun
#   slurm_jobs.sh bench    SOURCE BUILD   bench.sbatch: one JSON result per job
#   slurm_jobs.sh fail     SOURCE BUILD   run_demo.sbatch into an output directory that cannot
#                                         exist: the job must end FAILED with nwpio's message
#   slurm_jobs.sh stop     SOURCE BUILD   stop the cluster, fail if any process of it is left
#
# Each job is submitted with `sbatch --wait` at 4 tasks on one node (on NWPIO_TEST_SLURM_NODES
# nodes when set), then checked: sbatch's exit
# code, the final state in the jobcomp file (sbatch --wait returns 0 for a cancelled job), the
# log (the timing lines and the hint report come from the binaries), and every netCDF file
# written, through ncvalidator. A cluster that cannot start is a failure, never a skip.
# NWPIO_TEST_SLURM_CLUSTER=DIR: use the running slurm-local cluster in DIR (the emulated
# cluster's, scripts/emulated-cluster.sh) instead of starting one; stop then leaves it up.
set -euo pipefail

ACTION=${1:?usage: slurm_jobs.sh start|demo|mini_wrf|bench|fail|stop SOURCE BUILD}
SRC=$(cd "${2:?source dir}" && pwd)
BUILD=$(cd "${3:?build dir}" && pwd)
SCRATCH=$BUILD/test-scratch/slurm
STATE=$SCRATCH/cluster-dir # holds the cluster's directory, from start to stop
LOCAL=$SRC/slurm/slurm-local.sh
NTASKS=4

say() { echo "[slurm-test] $*"; }
fail() {
  echo "[slurm-test] FAIL: $*" >&2
  exit 1
}
elapsed() { echo "$((($(date +%s%N) - T0) / 1000000)) ms"; }
T0=$(date +%s%N)

# Settings inherited from an outer Slurm job or the user's shell would change what sbatch does.
# (SLURM_LOCAL_* are slurm-local.sh's own settings and stay.)
while read -r v; do unset "$v"; done < <(env | sed -n 's/^\(S\(LURM\|BATCH\|RUN\)_[A-Z_0-9]*\)=.*/\1/p' | grep -v '^SLURM_LOCAL_')
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# The MPI the build uses (ctest passes it; tests/slurm/CMakeLists.txt). Open MPI: mpirun, srun
# through PMIx, OMPIO unless MPIIO=romio. MPICH: its Hydra mpiexec (which starts its proxies
# through srun inside a job), srun through Slurm's pmi2 plugin (it also speaks MPICH's PMI-1),
# ROMIO whatever MPIIO says (the job scripts' MPIIO sets OMPI_MCA_io, which MPICH ignores).
if [[ ${NWPIO_TEST_MPI:-Open MPI} == "Open MPI" ]]; then
  MPIRUN=mpirun SRUN="srun --mpi=pmix" MPIF90=mpif90 OMPIO_OR_ROMIO=OMPIO
else
  MPIRUN=${NWPIO_TEST_MPIEXEC:?NWPIO_TEST_MPIEXEC} SRUN="srun --mpi=pmi2" MPIF90=${NWPIO_TEST_MPIF90:?NWPIO_TEST_MPIF90}
  OMPIO_OR_ROMIO=ROMIO
fi

# The cluster this test run started (start writes its directory into $STATE).
use_cluster() {
  [[ -s $STATE ]] || fail "no cluster: the fixture test slurm_cluster_start did not run or failed"
  export SLURM_LOCAL_DIR
  SLURM_LOCAL_DIR=$(<"$STATE")
  export SLURM_CONF=$SLURM_LOCAL_DIR/etc/slurm.conf
  [[ -f $SLURM_CONF ]] || fail "cluster directory $SLURM_LOCAL_DIR has no slurm.conf"
}

# Processes of the cluster in directory $1, found independently of slurm-local.sh: Slurm and
# munge daemons whose command line names the directory, and anything named slurm* (slurmstepd,
# slurmscriptd) whose environment holds the cluster's SLURM_CONF.
cluster_processes() {
  local dir=$1 p comm
  for p in /proc/[0-9]*; do
    read -r comm 2>/dev/null <"$p/comm" || continue
    case $comm in slurm* | munged) ;; *) continue ;; esac
    if tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -qF -- "$dir/" ||
      grep -qzx "SLURM_CONF=$dir/etc/slurm.conf" "$p/environ" 2>/dev/null; then
      echo "${p#/proc/} $comm"
    fi
  done
}

do_start() {
  mkdir -p "$SCRATCH"
  if [[ -n ${NWPIO_TEST_SLURM_CLUSTER:-} ]]; then
    [[ -f $NWPIO_TEST_SLURM_CLUSTER/etc/slurm.conf ]] || fail "no slurm-local cluster in $NWPIO_TEST_SLURM_CLUSTER"
    echo "$NWPIO_TEST_SLURM_CLUSTER" >"$STATE"
    touch "$STATE.given"
    SLURM_CONF=$NWPIO_TEST_SLURM_CLUSTER/etc/slurm.conf sinfo -N -o '%N %T %c' | sed 's/^/    /'
    say "using the running cluster in $NWPIO_TEST_SLURM_CLUSTER"
    return
  fi
  rm -f "$STATE.given"
  # a cluster left by an interrupted earlier run goes first
  if [[ -s $STATE && -d $(<"$STATE") ]]; then
    say "stopping the cluster of an earlier run in $(<"$STATE")"
    SLURM_LOCAL_DIR=$(<"$STATE") bash "$LOCAL" stop || true
    rm -rf "$(<"$STATE")"
  fi
  rm -f "$STATE"
  local missing=() c dir out
  for c in slurmctld slurmd sbatch munged mungekey; do command -v "$c" >/dev/null || missing+=("$c"); done
  ((${#missing[@]} == 0)) ||
    fail "Slurm cannot start: ${missing[*]} missing (apt-get install slurmctld slurmd slurm-client munge)"
  dir=$(mktemp -d /tmp/nwpio-slurm-test.XXXXXX)
  echo "$dir" >"$STATE"
  if ! out=$(SLURM_LOCAL_DIR=$dir bash "$LOCAL" start 2>&1); then
    echo "$out"
    for c in "$dir"/log/{slurmctld,munged}.log "$dir"/log/slurmd-*.log; do [[ -f $c ]] && tail -n 20 "$c"; done
    fail "Slurm cannot start (see above)"
  fi
  echo "$out"
  SLURM_CONF=$dir/etc/slurm.conf sinfo -N -o '%N %T %c' | sed 's/^/    /'
  say "cluster up in $(elapsed)"
}

do_stop() {
  [[ -s $STATE ]] || fail "no cluster directory recorded in $STATE"
  if [[ -f $STATE.given ]]; then
    rm -f "$STATE" "$STATE.given"
    say "the given cluster stays up"
    return
  fi
  local dir left rc=0
  dir=$(<"$STATE")
  SLURM_LOCAL_DIR=$dir bash "$LOCAL" stop || rc=$?
  left=$(cluster_processes "$dir")
  if [[ -n $left ]]; then
    while read -r l; do echo "    left: $l" >&2; done <<<"$left"
    fail "processes of the cluster in $dir are still running after stop"
  fi
  ((rc == 0)) || fail "slurm-local.sh stop exited with $rc"
  rm -rf "$dir" "$STATE"
  say "cluster stopped, no slurmctld/slurmd/slurmstepd/munged of it left ($(elapsed))"
}

# A fresh run directory for one job (kept after the test for inspection).
new_rundir() {
  RUN=$SCRATCH/$1
  rm -rf "$RUN"
  mkdir -p "$RUN"
  cd "$RUN"
}

# Submits $1 with sbatch --wait at $NTASKS tasks; sets JOBID and SBATCH_RC; prints the log.
submit() {
  local script=$1 t
  t=$(date +%s%N)
  SBATCH_RC=0
  JOBID=$(timeout 400 sbatch --parsable --wait -N "${NWPIO_TEST_SLURM_NODES:-1}" -n "$NTASKS" -t 5 "$script") || SBATCH_RC=$?
  JOBID=${JOBID%%;*}
  [[ $JOBID =~ ^[0-9]+$ ]] || fail "sbatch $script gave no job id (exit $SBATCH_RC)"
  say "job $JOBID ($(basename "$script")): sbatch --wait exit $SBATCH_RC after $((($(date +%s%N) - t) / 1000000)) ms"
  LOG=$RUN/log.$JOBID
  [[ -f $LOG ]] || fail "job $JOBID wrote no log $LOG"
  sed 's/^/    | /' "$LOG"
  read -r JOBSTATE JOBEXIT < <(bash "$LOCAL" jobstate "$JOBID") || fail "job $JOBID has no final state in the jobcomp file"
  say "job $JOBID final state $JOBSTATE, exit code $JOBEXIT"
}

expect_completed() {
  ((SBATCH_RC == 0)) || fail "job $JOBID: sbatch --wait exit $SBATCH_RC"
  [[ $JOBSTATE == COMPLETED && $JOBEXIT == 0:0 ]] || fail "job $JOBID ended $JOBSTATE $JOBEXIT, not COMPLETED 0:0"
}

# Every netCDF file in $1 passes ncvalidator; exactly $2 of them (when given).
validate_files() {
  local dir=$1 want=${2:-} f n=0
  command -v ncvalidator >/dev/null || fail "ncvalidator missing (apt-get install pnetcdf-bin)"
  while IFS= read -r f; do
    ncvalidator -q "$f" >/dev/null 2>&1 || { ncvalidator "$f" || true; fail "ncvalidator rejects $f"; }
    n=$((n + 1))
  done < <(find "$dir" -type f \( -name 'wrfout_*' -o -name '*.nc' \) | sort)
  ((n > 0)) || fail "no netCDF file in $dir"
  [[ -z $want || $n == "$want" ]] || fail "$n netCDF files in $dir, expected $want"
  say "ncvalidator: all $n file(s) in $dir valid"
}

# The log has one "Timing for Writing <name> for domain        1:" line per frame, as WRF prints
# it: the name carries the frame's own date (colons kept), so all names differ, and every file
# (named by its first frame, colons as '_' on io_form 11) is one of them.
check_timing_lines() {
  local want=$1 n f names
  n=$(grep -c '^Timing for Writing .* for domain        1: .* elapsed seconds' "$LOG" || true)
  ((n == want)) || fail "log.$JOBID has $n 'Timing for Writing' lines, expected $want"
  names=$(sed -n 's/^Timing for Writing \(.*\) for domain.*/\1/p' "$LOG" | tr ':' '_' | sort)
  [[ $(uniq <<<"$names" | wc -l) == "$want" ]] || fail "timing lines do not name $want different frames: $names"
  while read -r f; do
    grep -qxF "$(basename "$f" | tr ':' '_')" <<<"$names" || fail "file $f is named by no timing line"
  done < <(find "$OUT" -maxdepth 1 -type f -name 'wrfout_*' ! -name '*.nwpio-tmp')
}

# nwpio's hint report, logged by rank 0 at each file open: one per file ($1), through the MPI-IO
# layer the job chose ($2: ROMIO or OMPIO), with the profile the job script exported ($3 file,
# $4 name).
check_hint_report() {
  local files=$1 layer=$2 hints=$3 profile=$4 n
  n=$(grep -c '^nwpio hints: ' "$LOG" || true)
  ((n == files)) || fail "log.$JOBID has $n hint reports ('nwpio hints: ...'), expected one per file: $files"
  n=$(grep '^nwpio hints: ' "$LOG" | grep -c " via $layer: " || true)
  ((n == files)) || fail "log.$JOBID: $((files - n)) hint report(s) not via $layer"
  # The one-line summary (the default): "... via ROMIO: profile [name] of /path/file.toml; set ..."
  n=$(grep '^nwpio hints: ' "$LOG" | grep -cF "profile [$profile] of $(realpath "$hints")" || true)
  ((n == files)) || fail "log.$JOBID: $n hint report(s) name the profile $hints [$profile], expected $files"
}

# The lfs setstripe options that profile $2 of TOML file $1 asks for, read with Python's own
# TOML parser (following `extends`): "-c N -S SIZE", a part of it, or nothing when the profile
# leaves both to nwpio ("auto") or to the directory ("default").
expected_stripes() {
  command -v python3 >/dev/null || fail "python3 missing (needed to read the TOML profile independently)"
  python3 - "$1" "$2" <<'EOF'
import re, sys, tomllib
with open(sys.argv[1], "rb") as f:
    profiles = tomllib.load(f)["profile"]
def get(name, key):
    while name:
        if key in profiles[name]:
            return profiles[name][key]
        name = profiles[name].get("extends")
    return None
out = []
count, size = get(sys.argv[2], "stripe_count"), get(sys.argv[2], "stripe_size")
if isinstance(count, int):
    out += ["-c", str(count)]
if isinstance(size, int):
    out += ["-S", str(size)]
elif isinstance(size, str) and (m := re.fullmatch(r"(\d+)\s*([kKmMgG]?)(i?[bB])?", size)):
    out += ["-S", m.group(1) + m.group(2).upper()]
print(" ".join(out))
EOF
}

# The shipped profile file the job scripts pick for directory $1, from the mount table here: the
# suite's scratch is on a local disk, or on the emulated cluster's GlusterFS volume.
profile_for() {
  case $(findmnt -n -o FSTYPE --target "$1" | tail -1) in
    fuse.glusterfs) echo "$SRC/configs/hints/glusterfs.toml" ;;
    *) echo "$SRC/configs/hints/local.toml" ;;
  esac
}

need_bin() {
  [[ -x $BUILD/bin/$1 ]] || fail "$BUILD/bin/$1 is missing: build it first (cmake --build $BUILD --target $1)"
}

do_demo() {
  need_bin nwpio-demo
  use_cluster
  new_rundir demo
  local frames=2 per_file=1 hints=$SRC/configs/hints/lustre.toml profile=large want
  OUT=$RUN/out
  # The Lustre branch on a machine without Lustre: the file system type is forced and lfs is a
  # stand-in that records its arguments.
  mkdir -p fakebin
  printf '#!/bin/sh\necho "$*" >>%q\n' "$RUN/lfs-calls" >fakebin/lfs
  chmod +x fakebin/lfs
  want=$(expected_stripes "$hints" "$profile")
  [[ -n $want ]] || fail "profile $profile of $hints sets no concrete stripe count or size to test with"
  PATH=$RUN/fakebin:$PATH OUTPUT_FSTYPE=lustre NWPIO_ROOT=$SRC NWPIO_BIN=$BUILD/bin \
    NAMELIST=$SRC/configs/namelist.input.demo HINTS_FILE=$hints HINTS_PROFILE=$profile MPIIO=romio LAUNCHER=$MPIRUN \
    OUTPUT_DIR=$OUT DEMO_ARGS="--e-we 41 --e-sn 33 --e-vert 9 --frames $frames --frames-per-file $per_file --verify" \
    submit "$SRC/slurm/run_demo.sbatch"
  expect_completed
  check_timing_lines "$frames"
  check_hint_report $((frames / per_file)) ROMIO "$hints" "$profile"
  grep -q '^ *MPI-IO *romio (OMPI_MCA_io=romio321)' "$LOG" || fail "log does not show MPI-IO romio"
  grep -qxF "setstripe $want $OUT" "$RUN/lfs-calls" ||
    fail "lfs was called as '$(head -1 "$RUN/lfs-calls" 2>/dev/null)', expected 'setstripe $want $OUT'"
  grep -qF "striping: lfs setstripe $want $OUT" "$LOG" || fail "log does not report the striping"
  validate_files "$OUT" $((frames / per_file))
  say "demo job passed ($(elapsed))"
}

do_fail() {
  need_bin nwpio-demo
  use_cluster
  new_rundir fail
  # root may write anywhere, so the output directory is made impossible: its parent is a file
  touch blocker
  OUT=$RUN/blocker/out
  local fstype
  fstype=$(findmnt -n -o FSTYPE --target "$RUN" 2>/dev/null || stat -f -c %T "$RUN")
  NWPIO_ROOT=$SRC NWPIO_BIN=$BUILD/bin NAMELIST=$SRC/configs/namelist.input.demo \
    MPIIO=ompio LAUNCHER=$MPIRUN OUTPUT_DIR=$OUT DEMO_ARGS="--e-we 21 --e-sn 17 --e-vert 5 --frames 1" \
    submit "$SRC/slurm/run_demo.sbatch"
  ((SBATCH_RC != 0)) || fail "sbatch --wait returned 0 for a job that cannot write"
  [[ $JOBSTATE == FAILED ]] || fail "job ended $JOBSTATE, expected FAILED"
  [[ $JOBEXIT != 0:0 ]] || fail "job exit code $JOBEXIT"
  grep -qF "striping: skipped ($fstype is not Lustre or BeeGFS)" "$LOG" || fail "log does not say that striping was skipped"
  # nwpio's own message (rank 0 speaks for all) names the directory it could not create
  grep '^nwpio-demo: error: ' "$LOG" | grep -qF "$OUT" || fail "log.$JOBID lacks nwpio's error message naming $OUT"
  grep -q '^error: nwpio-demo failed' "$LOG" || fail "the job script did not report the failure"
  [[ ! -e $OUT ]] || fail "$OUT exists"
  say "failing job ended FAILED with nwpio's message ($(elapsed))"
}

# Frames and files a WRF namelist asks for: output at start and every history_interval minutes
# up to the end date, frames_per_outfile frames per file. Prints "FRAMES FILES".
namelist_frames() {
  awk -F= '
    { gsub(/[ \t,]/, "", $1); gsub(/[ \t,]/, "", $2); v[$1] = $2 }
    END {
      printf "%04d-%02d-%02d %02d:%02d:%02d\n", v["start_year"], v["start_month"], v["start_day"], v["start_hour"], v["start_minute"], v["start_second"]
      printf "%04d-%02d-%02d %02d:%02d:%02d\n", v["end_year"], v["end_month"], v["end_day"], v["end_hour"], v["end_minute"], v["end_second"]
      print v["history_interval"] * 60, (v["frames_per_outfile"] == "" ? 1 : v["frames_per_outfile"])
    }' "$1" | {
    local start end interval per frames
    read -r start && read -r end && read -r interval per
    frames=$((($(date -u -d "$end" +%s) - $(date -u -d "$start" +%s)) / interval + 1))
    echo "$frames $(((frames + per - 1) / per))"
  }
}

do_mini_wrf() {
  use_cluster
  new_rundir mini_wrf
  local prefix=$RUN/prefix src=$SRC/examples/mini_wrf pcdir frames files
  [[ -f $src/Makefile ]] || fail "examples/mini_wrf/Makefile is missing (the Fortran model is not there yet)"
  say "installing the build tree into $prefix"
  cmake --install "$BUILD" --prefix "$prefix" >install.log 2>&1 || { cat install.log; fail "cmake --install $BUILD failed"; }
  pcdir=$(dirname "$(find "$prefix" -name nwpiof.pc | head -1)")
  [[ -f $pcdir/nwpiof.pc ]] || fail "the install has no nwpiof.pc (Fortran bindings not built or not installed)"
  cp -r "$src" model
  say "building mini_wrf with its Makefile against $prefix"
  (cd model && make clean >/dev/null && PKG_CONFIG_PATH=$pcdir make FC="$MPIF90") >make.log 2>&1 ||
    { cat make.log; fail "make in examples/mini_wrf failed"; }
  [[ -x model/mini_wrf ]] || fail "make built no model/mini_wrf"
  read -r frames files < <(namelist_frames "$src/namelist.input")
  OUT=$RUN/out
  NWPIO_ROOT=$SRC NWPIO_PREFIX=$prefix MODEL_EXE=$RUN/model/mini_wrf NAMELIST=$src/namelist.input \
    MPIIO=ompio LAUNCHER="$SRUN" OUTPUT_DIR=$OUT submit "$SRC/slurm/run_mini_wrf.sbatch"
  expect_completed
  check_timing_lines "$frames"
  check_hint_report "$files" "$OMPIO_OR_ROMIO" "$(profile_for "$RUN")" default
  cmp -s "$src/namelist.input" "$OUT/namelist.input" || fail "the run directory's namelist.input is not the one given"
  validate_files "$OUT" "$files"
  say "mini_wrf job passed ($(elapsed))"
}

do_bench() {
  need_bin nwpio-bench
  use_cluster
  new_rundir bench
  OUT=$RUN/scratch
  # a few methods on a small grid (the WRF-style path alone takes ~20 s here)
  local methods=nwpio-io11,nwpio-io2,ceiling
  NWPIO_ROOT=$SRC NWPIO_BIN=$BUILD/bin MPIIO=ompio LAUNCHER=$MPIRUN OUTPUT_DIR=$OUT WORKLOAD=wrf REPEAT=1 \
    BENCH_ARGS="--e-we 41 --e-sn 33 --e-vert 9 --methods $methods --verify" \
    submit "$SRC/slurm/bench.sbatch"
  expect_completed
  local json=$RUN/bench-$JOBID.json
  [[ -s $json ]] || fail "no $json"
  command -v python3 >/dev/null || fail "python3 missing (needed to read the JSON)"
  python3 - "$json" "$methods" "$NTASKS" wrf "$OMPIO_OR_ROMIO" "$(realpath "$(profile_for "$RUN")")" default <<'EOF' ||
import json, sys
path, methods, ranks, workload, layer, hints_file, profile = sys.argv[1:]
doc = json.load(open(path))
res = doc["results"]
got = sorted(r["method"] for r in res)
# every method asked for, plus the raw variants that `ceiling` / `netcdf-floor` run (raw-*, floor-*)
asked = set(methods.split(","))
assert asked <= set(got) and all(m in asked or m.startswith(("raw-", "floor-")) for m in got), \
    f"methods {got}, asked for {methods}"
for r in res:
    assert r["bytes"] > 0 and r["seconds_median"] > 0 and r["mb_per_s"] > 0, r
    # --verify: the benchmark read its files back (netCDF-C) before removing them
    assert r.get("verify_ok", True) is not False, f'{r["method"]}: {r.get("verify")}'
# the job's settings arrived: rank count, workload, MPI-IO layer, hint profile
cfg = doc["config"]
assert cfg["ranks"] == int(ranks), f"config.ranks {cfg['ranks']}, job had {ranks} tasks"
assert cfg["workload"] == workload, cfg["workload"]
assert cfg["mpiio"].get("io_layer") == layer, f"config.mpiio {cfg['mpiio']}, expected io_layer {layer}"
prof = cfg["hint_profile"]["profile"]
assert (prof.get("file"), prof.get("name")) == (hints_file, profile), f"config.hint_profile.profile {prof}"
print("    bench JSON:", ", ".join(f'{r["method"]} {r["mb_per_s"]:.0f} MB/s' for r in res))
EOF
    fail "$json does not hold what the job ran"
  if [[ -d $OUT ]] && find "$OUT" -type f \( -name 'wrfout_*' -o -name '*.nc' \) | grep -q .; then validate_files "$OUT"; fi
  say "bench job passed ($(elapsed))"
}

case $ACTION in
  start) do_start ;;
  stop) do_stop ;;
  demo) do_demo ;;
  fail) do_fail ;;
  mini_wrf) do_mini_wrf ;;
  bench) do_bench ;;
  *) fail "unknown action $ACTION" ;;
esac
