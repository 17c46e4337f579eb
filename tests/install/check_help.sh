#!/usr/bin/env bash
# nwpio-check --help explains its verdicts and exit codes; the exit codes are those it documents.
#   check_help.sh NWPIO_CHECK WORKDIR
set -euo pipefail
check=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
help=$("$check" --help)
for word in "OK " "TEMP " "BAD " "Exit code: 0" "1 at least one file is TEMP or BAD" "2 usage error"; do
  grep -qF -- "$word" <<<"$help" || { echo "$help"; echo "FAIL: --help does not explain '$word'"; exit 1; }
done
: >"$work/wrfout_d01_2019-06-01_00_00_00.nwpio-tmp"
set +e
"$check" "$work/wrfout_d01_2019-06-01_00_00_00.nwpio-tmp" >"$work/temp.log"; temp_rc=$?
"$check" >/dev/null 2>&1; usage_rc=$?
set -e
grep -q "^TEMP " "$work/temp.log" || { cat "$work/temp.log"; echo "FAIL: a .nwpio-tmp file is not TEMP"; exit 1; }
((temp_rc == 1)) || { echo "FAIL: exit code $temp_rc for a TEMP file, documented 1"; exit 1; }
((usage_rc == 2)) || { echo "FAIL: exit code $usage_rc without a file, documented 2"; exit 1; }
echo "PASS: nwpio-check --help explains OK/TEMP/BAD and exit codes 0/1/2, and keeps to them"
