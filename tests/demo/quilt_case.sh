#!/usr/bin/env bash
# nwpio-demo --namelist honours &namelist_quilt as WRF does: with nio_tasks_per_group = 1 the last
# rank serves and nproc_x x nproc_y (2 x 1) counts the compute ranks, so a 3-rank run writes
# through one I/O server (every timing line says so) the same files, byte for byte, as a 2-rank
# run without servers. Both runs read every value back (--verify).
#   quilt_case.sh MPIEXEC DEMO SOURCE_DIR WORKDIR
set -euo pipefail
read -r -a preflags <<<"${NWPIO_MPIEXEC_PREFLAGS:-}"  # the build's MPIEXEC_PREFLAGS (ctest sets it)
mpiexec=$1 demo=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
namelist() {  # namelist NAME TASKS_PER_GROUP
  sed -e 's/^ *nproc_x *=.*/ nproc_x = 2,/' -e 's/^ *nproc_y *=.*/ nproc_y = 1,/' "$src/tests/demo/data/namelist.demo.input"
  printf " &namelist_quilt\n nio_tasks_per_group = %d,\n nio_groups = 1,\n /\n" "$2"
  printf " &nwpio\n output_dir = '%s'\n /\n" "$work/$1"
}
namelist servers 1 >"$work/namelist.servers"
namelist plain 0 >"$work/namelist.plain"
run() {  # run NP NAMELIST
  "$mpiexec" -n "$1" "${preflags[@]}" "$demo" --namelist "$2" --e-vert 5 --verify 2>&1
}
log=$(run 3 "$work/namelist.servers") || { echo "$log"; echo "FAIL: the 3-rank run with one I/O server"; exit 1; }
echo "$log"
grep -qF "on 2 ranks (2 x 1)" <<<"$log" || { echo "FAIL: the compute ranks are not 2 x 1"; exit 1; }
grep -qF "1 I/O server rank(s) in 1 group(s) of 1" <<<"$log" || { echo "FAIL: the banner does not name the server"; exit 1; }
timing=$(grep -c '^Timing for Writing' <<<"$log" || true)
served=$(grep -c '^Timing for Writing .*written by I/O server group 0' <<<"$log" || true)
((timing == 4 && served == 4)) || { echo "FAIL: $served of $timing timing lines say the server wrote the frame (expected 4 of 4)"; exit 1; }
log=$(run 2 "$work/namelist.plain") || { echo "$log"; echo "FAIL: the 2-rank run without servers"; exit 1; }
echo "$log"
shopt -s nullglob
files=("$work"/plain/wrfout_d01_*)
((${#files[@]} == 2)) || { echo "FAIL: expected 2 files without servers, found ${#files[@]}"; exit 1; }
for f in "${files[@]}"; do
  other=$work/servers/$(basename "$f")
  [[ -e $other ]] || { echo "FAIL: the servers wrote no $(basename "$f")"; exit 1; }
  cmp "$f" "$other" || { echo "FAIL: $(basename "$f") differs between the runs with and without the server"; exit 1; }
done
echo "PASS: &namelist_quilt: 2 x 1 compute ranks + 1 I/O server, the same ${#files[@]} files as 2 ranks alone"
