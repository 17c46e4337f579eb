#!/usr/bin/env bash
# End to end: iofields changes what is written. Runs nwpio-demo from a namelist whose
# iofields_filename removes W, PH, PHB, PB, P_HYD, QNICE, QNRAIN (configs/iofields/), with
# --verify (every value of every written variable against the fill rule, through netCDF-C),
# then checks with ncdump (netCDF-C's tool) that the removed variables are absent, kept ones
# present, and ncvalidator accepts the classic files.
#   iofields_case.sh MPIEXEC DEMO NCVALIDATOR SOURCE_DIR WORKDIR IO_FORM
set -euo pipefail
mpiexec=$1 demo=$2 ncvalidator=$3 src=$4 work=$5 io_form=$6
rm -rf "$work" && mkdir -p "$work"
sed -e "s|^ io_form_history .*| io_form_history = $io_form,\n iofields_filename = '$src/configs/iofields/remove_3d_diagnostics.txt',|" \
  "$src/tests/demo/data/namelist.demo.input" >"$work/namelist.input"
grep -q iofields_filename "$work/namelist.input"
read -ra preflags <<<"${MPIEXEC_PREFLAGS:-}"  # set by ctest: --oversubscribe under Open MPI
"$mpiexec" -n 3 "${preflags[@]}" "$demo" --namelist "$work/namelist.input" --output-dir "$work/out" --verify \
  --e-vert 5 --format cdf2
shopt -s nullglob
files=("$work"/out/wrfout_d01_*)
((${#files[@]} == 2)) || { echo "FAIL: expected 2 files, found ${#files[@]}"; exit 1; }
for f in "${files[@]}"; do
  header=$(ncdump -h "$f")
  for gone in W PH PHB PB P_HYD QNICE QNRAIN; do
    if grep -qE "^\s+float $gone\(" <<<"$header"; then echo "FAIL: $f still has $gone"; exit 1; fi
  done
  for kept in U V T QVAPOR T2 XLAT; do
    grep -qE "^\s+float $kept\(" <<<"$header" || { echo "FAIL: $f lacks $kept"; exit 1; }
  done
  "$ncvalidator" "ufs:$f" >/dev/null || { echo "FAIL: ncvalidator rejects $f"; exit 1; }
done
echo "PASS: io_form $io_form, ${#files[@]} files without the 7 removed variables, every value verified"
