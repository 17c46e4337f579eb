#!/usr/bin/env bash
# nwpio-check --plan against what nwpio really writes and holds: nwpio-demo writes a namelist's
# history (3 frames, 2 per file: one full file and one with a single frame) and reports every
# rank's peak resident memory; the plan of the same namelist for the same ranks must give
#   - the frame size: exactly the difference between the two files' sizes,
#   - the file size: exactly the full file's size (and the one-frame file's, less a frame),
#   - every rank's memory within 15% of what the run held (peak RSS less what it held before the
#     stream and the model's own arrays).
# The files are valid (ncvalidator). Prints PASS:/FAIL: lines.
#   sizing_case.sh DEMO CHECK MPIEXEC "PREFLAGS" WORKDIR HINTS_FILE NCVALIDATOR NP IO_FORM [namelist lines...]
set -euo pipefail
demo=$1 check=$2 mpiexec=$3 preflags=$4 work=$5 hints=$6 ncvalidator=$7 np=$8 io_form=$9
shift 9
read -r -a flags <<<"$preflags"
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work"
classic=""
[[ $io_form == 2 ]] && classic="use_netcdf_classic = .true.,"
{
  echo " &time_control"
  echo " start_year = 2019, start_month = 06, start_day = 01, start_hour = 00,"
  echo " end_year = 2019, end_month = 06, end_day = 01, end_hour = 02,"
  echo " history_interval = 60, frames_per_outfile = 2, io_form_history = $io_form, $classic"
  echo " /"
  echo " &domains"
  echo " time_step = 60, max_dom = 1, e_we = 161, e_sn = 121, e_vert = 41, dx = 12000, dy = 12000,"
  echo " /"
  echo " &nwpio"
  echo " output_dir = 'out'"
  echo " hints_file = '$hints'"
  # every rank a node of its own, as ranks on different nodes: a rank's resident memory is then
  # its own (on one node the writers' slabs are shared pages, counted by every rank touching them)
  echo " shared_memory_exchange = .false."
  for line in "$@"; do echo " $line"; done
  echo " /"
} >namelist.input

"$mpiexec" -n "$np" "${flags[@]}" "$demo" --namelist namelist.input --frames 3 --memory-report >demo.log 2>&1 ||
  { cat demo.log; fail "nwpio-demo failed"; }
"$check" --plan namelist.input --ranks "$np" --ranks-per-node "$np" --fs local --caller api --json plan.json >plan.txt 2>&1 ||
  { cat plan.txt; fail "nwpio-check --plan failed"; }
cat plan.txt
grep "memory rank" demo.log
mapfile -t files < <(find out -name "wrfout_d01_*" | sort)
((${#files[@]} == 2)) || fail "expected 2 files in out/, found ${#files[@]}"
if [[ -x $ncvalidator ]]; then
  # (through a link: ncvalidator reads the text before a ':' of io_form 2's names as a prefix)
  for f in "${files[@]}"; do
    ln -sfn "$PWD/$f" check.nc
    "$ncvalidator" -q check.nc >/dev/null || fail "ncvalidator: $f"
  done
fi
python3 - "${files[0]}" "${files[1]}" <<'PY' || exit 1
import json, os, re, sys
full, single = os.path.getsize(sys.argv[1]), os.path.getsize(sys.argv[2])
plan = json.load(open("plan.json"))["domains"][0]
ok = True
def check(what, got, want):
    global ok
    print(f"{'PASS' if got == want else 'FAIL'}: {what}: plan {got} B, files {want} B")
    ok &= got == want
if plan["file_exact"]:
    check("frame size", plan["frame_bytes"], full - single)
    check("file size (2 frames)", plan["file_bytes"], full)
    check("file size (1 frame)", plan["file_bytes"] - plan["frame_bytes"], single)
else:
    # A build without PnetCDF cannot read a classic header back: the plan gives the data (each
    # record variable unpadded) and the reserved header space, a bound the file exceeds by the
    # header's metadata and padding of at most 3 bytes per record variable.
    nvars = 202
    good = 0 <= (full - single) - plan["frame_bytes"] <= 3 * nvars and 0 < full - plan["file_bytes"] < 1 << 20
    print(f"{'PASS' if good else 'FAIL'}: frame and file size as bounds (no PnetCDF): frame {plan['frame_bytes']} B "
          f"(files {full - single} B), file {plan['file_bytes']} B (file {full} B)")
    ok &= good
model = [r["bytes"] for r in plan["configured"]["ranks"]]
for line in open("demo.log"):
    m = re.match(r"nwpio-demo: memory rank (\d+): .* output (-?\d+) B", line)
    if not m:
        continue
    rank, held = int(m.group(1)), int(m.group(2))
    off = (model[rank] - held) / held
    good = abs(off) <= 0.15
    print(f"{'PASS' if good else 'FAIL'}: memory rank {rank}: plan {model[rank] / 1e6:.1f} MB, run held {held / 1e6:.1f} MB ({off:+.1%})")
    ok &= good
sys.exit(0 if ok else 1)
PY
echo "PASS: nwpio-check --plan sizes io_form $io_form at $np ranks as nwpio wrote and held them"
