#!/usr/bin/env bash
# nwpio-demo --namelist honours &nwpio output_dir, an explicit --output-dir wins over it, and the
# banner names the source that won. Files are read back with --verify (every value).
#   output_dir_case.sh MPIEXEC DEMO SOURCE_DIR WORKDIR
set -euo pipefail
read -r -a preflags <<<"${NWPIO_MPIEXEC_PREFLAGS:-}"  # the build's MPIEXEC_PREFLAGS (ctest sets it)
mpiexec=$1 demo=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
{ cat "$src/tests/demo/data/namelist.demo.input"; printf " &nwpio\n output_dir = '%s'\n /\n" "$work/from_namelist"; } \
  >"$work/namelist.input"
run() { "$mpiexec" -n 2 "${preflags[@]}" "$demo" --namelist "$work/namelist.input" --e-vert 5 --verify "$@"; }
count() { shopt -s nullglob; local f=("$1"/wrfout_d01_*); echo ${#f[@]}; }

# 1. The namelist's directory.
log=$(run 2>&1) || { echo "$log"; echo "FAIL: run with the namelist's output_dir"; exit 1; }
echo "$log"
grep -qF "nwpio-demo: output to $work/from_namelist (from &nwpio output_dir of $work/namelist.input)" <<<"$log" ||
  { echo "FAIL: the banner does not name &nwpio output_dir"; exit 1; }
[[ $(count "$work/from_namelist") == 2 ]] || { echo "FAIL: expected 2 files in $work/from_namelist"; exit 1; }

# 2. --output-dir given: it wins, and nothing new goes to the namelist's directory.
rm -rf "$work/from_namelist"
log=$(run --output-dir "$work/from_command_line" 2>&1) || { echo "$log"; echo "FAIL: run with --output-dir"; exit 1; }
echo "$log"
grep -qF "nwpio-demo: output to $work/from_command_line (from --output-dir)" <<<"$log" ||
  { echo "FAIL: the banner does not name --output-dir"; exit 1; }
[[ $(count "$work/from_command_line") == 2 ]] || { echo "FAIL: expected 2 files in $work/from_command_line"; exit 1; }
[[ ! -e $work/from_namelist ]] || { echo "FAIL: the namelist's directory was used although --output-dir was given"; exit 1; }
echo "PASS: &nwpio output_dir honoured, --output-dir wins, the banner names the source"
