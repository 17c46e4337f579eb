#!/usr/bin/env bash
# Who creates the temporary data file, traced: nwpio-demo at 3 ranks (3 x 1, an uneven split of
# the 22 mass points), one and three frames per file, with stripe hints from NWPIO_HINTS, under
# one MPI-IO layer of Open MPI (OMPIO or ROMIO):
#   io_form 11, 13  every MPI_File_open is logged by a PMPI library (mpiio_open_trace.c, loaded
#                   with LD_PRELOAD into the ranks only); the first open of each temporary file
#                   must carry MPI_MODE_CREATE, find no file there before it, and hold the stripe
#                   keys with the values asked (check_mpiio_trace.py): the MPI-IO layer creates
#                   the file, so a Lustre driver can lay it out as asked. io_form 13 opens it on
#                   every rank; io_form 11, whose writers write their own slabs, on rank 0 alone
#                   (over MPI_COMM_SELF), and no other rank opens it through MPI-IO;
#   io_form 2       serial netCDF-C opens no file through MPI-IO: every rank's open(2) calls are
#                   traced with strace instead, and the file's first open must be its only create,
#                   an exclusive one (check_strace_create.py).
# Every file is then read back: nwpio-demo --verify (netCDF-C, every value against the fill
# rule), and ncvalidator for the classic files (io_form 11, and io_form 2 written as CDF-2;
# io_form 13 files are HDF5, which ncvalidator does not read).
#   create_trace.sh DEMO TRACE_LIB NCVALIDATOR MPIEXEC SCRATCH LAYER IO_FORMS
# LAYER: ompio or romio321 (OMPI_MCA_io); IO_FORMS: e.g. "11 13 2".
set -uo pipefail
DEMO=$1 TRACE_LIB=$2 NCVALIDATOR=$3 MPIEXEC=$4 SCRATCH=$5 LAYER=$6 IO_FORMS=$7
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
read -ra PREFLAGS <<<"${MPIEXEC_PREFLAGS:-}"  # set by ctest: --oversubscribe under Open MPI
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
STRIPE_COUNT=4 STRIPE_SIZE=2097152
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# WRF's dated names keep no ':' (ROMIO cannot open them: docs/HINTS.md); io_form 2 writes CDF-2,
# so that ncvalidator reads its files too.
write_namelist() {
  cat > "$1" <<'EOF'
 &time_control
 start_year = 2019, start_month = 06, start_day = 01, start_hour = 00, start_minute = 00, start_second = 00,
 end_year = 2019, end_month = 06, end_day = 01, end_hour = 02, end_minute = 00, end_second = 00,
 history_interval = 60,
 frames_per_outfile = 1,
 nocolons = .true.,
 use_netcdf_classic = .true.,
 /
 &domains
 time_step = 60, max_dom = 1, e_we = 23, e_sn = 17, e_vert = 5, dx = 12000, dy = 12000,
 /
EOF
}

if [[ " $IO_FORMS " == *" 2 "* ]] && { ! command -v strace > /dev/null || ! strace -qq -e trace=none true 2> /dev/null; }; then
  echo "strace is missing or ptrace is refused here: io_form 2 left out"
  IO_FORMS=${IO_FORMS//2/}
fi

for io in $IO_FORMS; do
  for per_file in 1 3; do
    case_name="io_form $io, $per_file frame(s) per file, $LAYER"
    dir=$SCRATCH/io$io-per$per_file
    rm -rf "$dir" && mkdir -p "$dir/trace" "$dir/out"
    write_namelist "$dir/namelist.input"
    run=("$MPIEXEC" -n 3 "${PREFLAGS[@]}" -x "OMPI_MCA_io=$LAYER"
      -x "NWPIO_HINTS=stripe_count=$STRIPE_COUNT;stripe_size=$STRIPE_SIZE")
    demo=("$DEMO" --namelist "$dir/namelist.input" --io-form "$io" --e-we 23 --e-sn 17 --e-vert 5
      --frames 3 --frames-per-file "$per_file" --nproc-x 3 --nproc-y 1 --output-dir "$dir/out"
      --stats-json "$dir/stats.json" --verify)
    if [[ $io == 2 ]]; then
      # LeakSanitizer cannot run under ptrace (a sanitizer build): leaks are checked elsewhere.
      ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -qq -e trace=open,openat,openat2,creat -o "$dir/strace" "${run[@]}" "${demo[@]}" > "$dir/log" 2>&1
    else
      "${run[@]}" -x "LD_PRELOAD=$TRACE_LIB" -x "NWPIO_MPIIO_TRACE=$dir/trace" "${demo[@]}" > "$dir/log" 2>&1
    fi
    status=$?
    echo "== $case_name"
    grep -E '^nwpio-demo: (verify|wrote)' "$dir/log" | sed 's/^/  /'
    if ((status != 0)); then
      fail "$case_name: nwpio-demo exited with $status"
      sed 's/^/    /' "$dir/log"
      continue
    fi
    mapfile -t finals < <(find "$dir/out" -maxdepth 1 -type f -name 'wrfout_d01_*' | sort)
    expected=$(((3 + per_file - 1) / per_file))
    ((${#finals[@]} == expected)) || fail "$case_name: ${#finals[@]} files under final names, expected $expected"
    verified=$(grep -c ': OK: ' "$dir/log")
    ((verified == expected)) || fail "$case_name: nwpio-demo --verify passed $verified files, expected $expected"
    if [[ $io == 2 ]]; then
      temps=()
      for f in "${finals[@]}"; do temps+=("$(basename "$f").nwpio-tmp"); done
      python3 "$HERE/check_strace_create.py" "$dir/strace" "${temps[@]}" | sed 's/^/  /'
    else
      # io_form 11's writers write their own slabs (no collective buffering asked): rank 0 alone
      # creates the file and keeps its header.
      who=all
      [[ $io == 11 ]] && who=rank0
      python3 "$HERE/check_mpiio_trace.py" "$dir/trace" "$dir/stats.json" 3 "$expected" "$STRIPE_COUNT" "$STRIPE_SIZE" "$who" |
        sed 's/^/  /'
    fi
    ((PIPESTATUS[0] == 0)) || fail "$case_name: the trace breaks a rule (above)"
    if [[ $io != 13 ]]; then
      for f in "${finals[@]}"; do
        "$NCVALIDATOR" "$f" > "$dir/ncvalidator.log" 2>&1 || { fail "$case_name: ncvalidator rejects $f"; cat "$dir/ncvalidator.log"; }
      done
    fi
  done
done
((failures == 0)) && echo "create_trace ($LAYER): all checks passed" && exit 0
echo "create_trace ($LAYER): $failures failures"
exit 1
