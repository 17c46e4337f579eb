#!/usr/bin/env bash
# What a run prints, counted: nwpio-demo writes 3 frames, 2 per file (2 files), at the default
# hint report, at NWPIO_HINT_REPORT=full and =off. Per file: 1 hint line by default (named by its
# final name, never .nwpio-tmp), 1 + 14 (one per setting) + 2 (the nodes: one line, and one per
# node: both ranks run on this machine) in full, plus the aggregators line where MPI-IO opens the
# file and the write-behind line where write-behind applies (both io_form 11), 0 when off; per
# frame exactly one WRF timing line naming that frame's own date; and nothing else but the demo's
# own 4 lines (banner, output directory, what was written, the rate).
# With PnetCDF 1.14 and later, one more line per io_form 11 file: what PnetCDF chose.
#   log_lines_case.sh MPIEXEC DEMO WORKDIR IO_FORM [PNETCDF_CHOICE_LINES (0 or 1)]
set -euo pipefail
read -r -a preflags <<<"${NWPIO_MPIEXEC_PREFLAGS:-}"  # the build's MPIEXEC_PREFLAGS (ctest sets it)
mpiexec=$1 demo=$2 work=$3 io_form=$4 pnetcdf_lines=${5:-0}
rm -rf "$work" && mkdir -p "$work"
run() {  # run LEVEL: prints the run's whole output (stdout and stderr)
  local level=$1 env=()
  [[ $level != default ]] && env=(env "NWPIO_HINT_REPORT=$level")
  "${env[@]}" "$mpiexec" -n 2 "${preflags[@]}" "$demo" --e-we 21 --e-sn 17 --e-vert 5 --frames 3 --frames-per-file 2 \
    --io-form "$io_form" --output-dir "$work/$level" 2>&1
}
for level in default full off; do
  log=$(run "$level") || { echo "$log"; echo "FAIL: nwpio-demo failed at hint report $level"; exit 1; }
  echo "--- $level"; echo "$log"
  heads=$(grep -c '^nwpio hints: ' <<<"$log" || true)
  rows=$(grep -c '^  ' <<<"$log" || true)
  timing=$(grep -c '^Timing for Writing wrfout_d01_2019-06-01_0[012]:00:00 for domain        1: ' <<<"$log" || true)
  total=$(wc -l <<<"$log")
  case $level in
    default) want_heads=2 want_rows=0 ;;
    full)
      want_heads=2 want_rows=32
      # "aggregators (...)", "write-behind: on ..." and (PnetCDF >= 1.14) "PnetCDF chose: ..." per file
      [[ $io_form == 11 ]] && want_rows=$((36 + 2 * pnetcdf_lines))
      ;;
    off) want_heads=0 want_rows=0 ;;
  esac
  ((heads == want_heads)) || { echo "FAIL: $level: $heads hint report lines, expected $want_heads (one per file)"; exit 1; }
  ((rows == want_rows)) || { echo "FAIL: $level: $rows table rows, expected $want_rows"; exit 1; }
  ((timing == 3)) || { echo "FAIL: $level: $timing timing lines naming 00:00, 01:00, 02:00, expected 3 (one per frame)"; exit 1; }
  [[ $(grep '^Timing for Writing' <<<"$log" | sort -u | wc -l) == 3 ]] || { echo "FAIL: $level: timing lines repeat a date"; exit 1; }
  ((total == 4 + want_heads + want_rows + 3)) || { echo "FAIL: $level: $total lines, expected $((4 + want_heads + want_rows + 3))"; exit 1; }
  ! grep -q 'nwpio-tmp' <<<"$log" || { echo "FAIL: $level: the log names a .nwpio-tmp file"; exit 1; }
  if [[ $io_form == 2 ]] && grep -q ' via OMPIO\| via ROMIO' <<<"$log"; then
    echo "FAIL: $level: io_form 2 names an MPI-IO layer"; exit 1
  fi
done
echo "PASS: io_form $io_form: per file 1 hint line (full: 1 + 14 settings + 2 node lines, off: 0), per frame 1 timing line with its own date"
