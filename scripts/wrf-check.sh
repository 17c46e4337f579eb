#!/usr/bin/env bash
# The real WRF model writing through nwpio: WRF 4.7.1 (../shared/wrf) built once per machine
# into a cache outside the checkout (scripts/wrf/build.sh), relinked against nwpio's drop-in
# libwrfio_pnf, and run on its em_quarter_ss case. One line per check; exit 1 on any difference.
#
#   io2-vs-nwpio npN  WRF's own io_form 2 against nwpio as io_form 11 at 2 ranks (1x2) and 3
#                     ranks: every variable and attribute equal, data bit for bit (at 3 ranks with
#                     an &nwpio group in namelist.input: gather = 'direct', a statistics file)
#   header            nwpio's file against WRF's reference files of this case (header: the values
#                     hold only for WRF's default -O2 build)
#   one frame per file  frames_per_outfile = 1: every file against io_form 2's, the files committed
#                     behind the model, the run's statistics listing every file and its commit time
#   restart           10 minutes straight against 5 minutes + a restart from the 5-minute restart
#                     file that nwpio wrote and read back: the final history frames equal
#   quilt nioN        WRF built with PNETCDF_QUILT (relinked), 2 compute ranks + N I/O servers
#                     writing through nwpio, against io_form 2
#
# On the emulated cluster (NWPIO_CLUSTER_NODES set: scripts/emulated-cluster.sh, as CI's
# multi-node stage runs it) every run's ranks go to its nodes: dealt over two nodes; the restart
# read back with each rank on the other node than the one whose rank wrote its patch; the I/O
# servers on a node of their own (the last ranks, as WRF places them). NWPIO_WRF_WORK then
# belongs on the shared volume.
#
# Usage: scripts/wrf-check.sh            (CI: a stage of scripts/test.sh)
# Environment: NWPIO_BUILD_DIR (nwpio build to use/extend; default build-wrf), NWPIO_WRF_WORK
# (run directories; default /tmp/nwpio-wrf-check), NWPIO_WRF_CACHE, NWPIO_WRF_FCOPTIM (see
# scripts/wrf/build.sh). The larger-grid timing comparison is scripts/wrf-bench.sh.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
source "$NWPIO_ROOT/scripts/wrf/build.sh"
source "$NWPIO_ROOT/scripts/wrf/run.sh"

NWPIO_BUILD_DIR=${NWPIO_BUILD_DIR:-$NWPIO_ROOT/build-wrf}
NWPIO_WRF_WORK=${NWPIO_WRF_WORK:-/tmp/nwpio-wrf-check}
t0=$SECONDS
failures=0
report() {  # report PASS|FAIL name detail
  echo "$1 $2: $3"
  [[ $1 == PASS ]] || failures=$((failures + 1))
}

nwpio_install_packages "${NWPIO_WRF_PACKAGES[@]}"
nwpio_log "nwpio: building the package and nwpio-compare in $NWPIO_BUILD_DIR"
mkdir -p "$NWPIO_BUILD_DIR"
if [[ ! -f $NWPIO_BUILD_DIR/CMakeCache.txt ]]; then
  cmake -S "$NWPIO_ROOT" -B "$NWPIO_BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >"$NWPIO_BUILD_DIR/configure.log" 2>&1 ||
    { cat "$NWPIO_BUILD_DIR/configure.log" >&2; exit 1; }
fi
cmake --build "$NWPIO_BUILD_DIR" -j "$NWPIO_JOBS" --target wrfio_pnf nwpio-compare 2>&1 | nwpio_drop_progress
pkg=$NWPIO_BUILD_DIR/lib
compare=$NWPIO_BUILD_DIR/bin/nwpio-compare
nwpio_log "nwpio built ($((SECONDS - t0)) s)"

t=$SECONDS
nwpio_wrf_build
nwpio_wrf_quilt_library
nwpio_log "WRF ready ($((SECONDS - t)) s)"
rm -rf "$NWPIO_WRF_WORK"
mkdir -p "$NWPIO_WRF_WORK/bin"
bin=$NWPIO_WRF_WORK/bin
nwpio_wrf_link "$bin/wrf_nwpio.exe" "$pkg"
nwpio_wrf_link "$bin/wrf_nwpio_quilt.exe" "$pkg" quilt
# The relinked wrf.exe must take its ext_pnc_* from nwpio's shared libwrfio_pnf, not WRF's own
# (nwpio-wrf status: ldd names the library, and it is nwpio's package).
for exe in wrf_nwpio.exe wrf_nwpio_quilt.exe; do
  if out=$("$NWPIO_BUILD_DIR/bin/nwpio-wrf" status "$bin/$exe") && [[ $out == *"nwpio's io_form 11 package, shared: $pkg/libwrfio_pnf.so"* ]]; then
    report PASS "link $exe" "${out#"$bin/"}"
  else
    report FAIL "link $exe" "nwpio-wrf status: $out"
  fi
done
case_dir() { echo "$NWPIO_WRF_WORK/$1"; }
# Node K of the emulated cluster ("" on one host): for runs placed by hand.
read -r -a cluster_nodes <<<"${NWPIO_CLUSTER_NODES:-}"
node() { echo "${cluster_nodes[$1 - 1]:-}"; }
# HOSTS for nwpio_wrf_run: "" (its default) on one host, else the given list.
hosts() { if [[ -n ${NWPIO_CLUSTER_NODES:-} ]]; then echo "$1"; fi; }
hist=wrfout_d01_0001-01-01_00:00:00
hist11=wrfout_d01_0001-01-01_00_00_00

# --- WRF's io_form 2 against nwpio's io_form 11, same wrf.exe -------------------------------
for np in 2 3; do
  t=$SECONDS
  out=
  split=()
  [[ $np == 2 ]] && split=(nproc_x=1 nproc_y=2)
  nwpio_wrf_case "$(case_dir io2_np$np)" "$bin/wrf_nwpio.exe" io_form_history=2 "${split[@]}"
  nwpio_wrf_case "$(case_dir io11_np$np)" "$bin/wrf_nwpio.exe" io_form_history=11 "${split[@]}"
  # At 3 ranks the package also reads an &nwpio group from WRF's namelist.input (WRF ignores it).
  [[ $np == 3 ]] && printf "&nwpio\n gather = 'direct',\n stats_json = 'nwpio_stats.json',\n/\n" \
    >>"$(case_dir io11_np$np)/namelist.input"
  if nwpio_wrf_run "$(case_dir io2_np$np)" "$np" && nwpio_wrf_run "$(case_dir io11_np$np)" "$np"; then
    a=$(case_dir io2_np$np)/$hist
    b=$(case_dir io11_np$np)/$hist11
    if out=$("$compare" "$a" "$b"); then
      report PASS "io2-vs-nwpio np$np" "${out#EQUAL } ($((SECONDS - t)) s)"
    else
      report FAIL "io2-vs-nwpio np$np" "$out"
    fi
    if [[ $np == 3 ]]; then
      if grep -q '"gather": "direct"' "$(case_dir io11_np3)/nwpio_stats.json" 2>/dev/null; then
        report PASS "&nwpio np3" "the package read gather = 'direct' and stats_json from namelist.input"
      else
        report FAIL "&nwpio np3" "no nwpio_stats.json with gather direct: the &nwpio group was not read"
      fi
    fi
    if out=$(ncvalidator -q "$b" 2>&1); then
      report PASS "ncvalidator np$np" "$b"
    else
      report FAIL "ncvalidator np$np" "$out"
    fi
  else
    report FAIL "io2-vs-nwpio np$np" "wrf.exe failed (see $(case_dir io2_np$np), $(case_dir io11_np$np))"
  fi
done

# --- one frame per file, committed behind the model: every file against io_form 2 -------------
t=$SECONDS
out=
one2=$(case_dir io2_per_file)
one11=$(case_dir io11_per_file)
nwpio_wrf_case "$one2" "$bin/wrf_nwpio.exe" io_form_history=2 frames_per_outfile=1 nproc_x=1 nproc_y=2
nwpio_wrf_case "$one11" "$bin/wrf_nwpio.exe" io_form_history=11 frames_per_outfile=1 nproc_x=1 nproc_y=2 \
  "stats_json='nwpio_stats.json'"
if nwpio_wrf_run "$one2" 2 && nwpio_wrf_run "$one11" 2; then
  n=0 bad=""
  for a in "$one2"/wrfout_d01_*; do
    name=$(basename "$a")
    b=$one11/${name//:/_}
    n=$((n + 1))
    out=$("$compare" "$a" "$b") || bad+=" $name: ${out%%$'\n'*};"
  done
  # ioclose returned before each file was committed; ioexit waited for all of them, and the
  # run's statistics list every file with the seconds from its frame's end to its final name.
  # Each file's hint record sizes the file it was opened for (one frame: what stripe_count =
  # auto decides from), within 10% of the file written.
  stats=$(python3 - "$one11/nwpio_stats.json" "$n" "$one11" <<'PY'
import json, os, sys
run = json.load(open(sys.argv[1]))
frames = run["frames"]
files = {f["file"] for f in frames}
after = [f["committed"]["after_seconds"] for f in frames if "committed" in f]
ok = len(frames) == int(sys.argv[2]) and len(files) == len(frames) and len(after) == len(frames)
sized = []
for key, rec in run.items():
    if key.startswith("hints:") and isinstance(rec, dict):
        path = os.path.join(sys.argv[3], os.path.basename(rec["file"]))
        real = os.path.getsize(path)
        sized.append(rec["expected_file_bytes"] / real)
ok = ok and len(sized) == len(frames) and all(0.9 <= r <= 1.1 for r in sized)
print(("OK " if ok else "BAD ") + "%d frames in %d files, %d with a commit time (max %.3f s), "
      "%d hint records sizing their file at %s of it" %
      (len(frames), len(files), len(after), max(after) if after else -1, len(sized),
       "-".join("%.3fx" % r for r in (min(sized), max(sized))) if sized else "?"))
PY
  )
  if [[ $n -ge 3 && -z $bad && $stats == OK* && -z $(find "$one11" -name '*.nwpio-tmp') ]]; then
    report PASS "one frame per file" "$n files equal to io_form 2's; statistics: ${stats#OK } ($((SECONDS - t)) s)"
  else
    report FAIL "one frame per file" "${bad:-} statistics: $stats"
  fi
else
  report FAIL "one frame per file" "wrf.exe failed (see $one2, $one11)"
fi

# --- header against WRF's own reference files of this case ----------------------------------
for ref in wrfout_io_form11.nc wrfout_io_form2.nc; do
  refpath=$(dirname "$NWPIO_WRF_NAMELIST")/$ref
  if out=$("$compare" --header-only "$(case_dir io11_np2)/$hist11" "$refpath"); then
    report PASS "header vs $ref" "${out#EQUAL }"
  else
    report FAIL "header vs $ref" "$out"
  fi
done

# --- restart: written and read back by nwpio ----------------------------------------------------
t=$SECONDS
out=
full=$(case_dir restart_full)
rest=$(case_dir restart_from_5min)
nwpio_wrf_case "$full" "$bin/wrf_nwpio.exe" io_form_history=11 io_form_restart=11 restart_interval=5 \
  nproc_x=1 nproc_y=2
nwpio_wrf_case "$rest" "$bin/wrf_nwpio.exe" io_form_history=11 io_form_restart=11 restart_interval=5 \
  nproc_x=1 nproc_y=2 restart=.true. run_minutes=5 start_minute=05
if nwpio_wrf_run "$full" 2; then
  rst=wrfrst_d01_0001-01-01_00_05_00
  if [[ -f $full/$rst ]]; then
    cp "$full/$rst" "$rest/"
    # each rank reads its patch on the other node than the rank that wrote it there
    if nwpio_wrf_run "$rest" 2 "$(hosts "$(node 2):1,$(node 1):1")" &&
      out=$("$compare" --last-record --ignore-global START_DATE "$full/$hist11" "$rest/wrfout_d01_0001-01-01_00_10_00"); then
      report PASS restart "final frames equal: ${out#EQUAL } ($((SECONDS - t)) s)"
    else
      report FAIL restart "${out:-the restarted run failed (see $rest)}"
    fi
  else
    report FAIL restart "no $rst written by nwpio in $full"
  fi
else
  report FAIL restart "the 10-minute run failed (see $full)"
fi

# --- I/O servers (PNETCDF_QUILT) ---------------------------------------------------------------
for nio in 1 2; do
  t=$SECONDS
  out=
  dir=$(case_dir quilt_nio$nio)
  nwpio_wrf_case "$dir" "$bin/wrf_nwpio_quilt.exe" io_form_history=11 nproc_x=1 nproc_y=2 \
    nio_tasks_per_group=$nio nio_groups=1
  if nwpio_wrf_run "$dir" $((2 + nio)) "$(hosts "$(node 1):1,$(node 2):1,$(node 3):$nio")" && out=$("$compare" "$(case_dir io2_np2)/$hist" "$dir/$hist11"); then
    report PASS "quilt nio$nio" "2 compute + $nio I/O ranks: ${out#EQUAL } ($((SECONDS - t)) s)"
  else
    report FAIL "quilt nio$nio" "${out:-wrf.exe failed (see $dir)}"
  fi
done

nwpio_log "wrf-check: $failures failed check(s), $((SECONDS - t0)) s"
((failures == 0))
