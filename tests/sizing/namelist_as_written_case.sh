#!/usr/bin/env bash
# A namelist.input as users write it, through nwpio-check --plan: free text and comments between
# the groups, a key misspelled in &time_control (a warning naming the key nwpio reads) and
# hints_file written with $NWPIO_ROOT as docs/SIZING.md shows it (expanded; unset: an error
# naming the variable).
#   namelist_as_written_case.sh CHECK SOURCE_DIR WORKDIR
set -euo pipefail
check=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work/share/nwpio/configs/hints" && cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp "$src/configs/hints/lustre.toml" share/nwpio/configs/hints/
{
  echo "Run 12, 1 km nest: free text before the groups, as many namelist.input files have."
  sed -e 's/^ *&time_control.*/&\n histroy_interval = 30/' \
    -e "s|^ *&nwpio.*|Notes between groups: hints for Lustre below.\n&\n hints_file = '\$NWPIO_ROOT/share/nwpio/configs/hints/lustre.toml'|" \
    "$src/configs/namelist.input.demo"
} >namelist.input
grep -q "^ histroy_interval = 30" namelist.input || { echo "FAIL: the case file has no misspelled key"; exit 1; }

out=$(NWPIO_ROOT=$work "$check" --plan namelist.input --ranks 8 --ranks-per-node 4 --fs local 2>&1) ||
  { echo "$out"; echo "FAIL: nwpio-check --plan refused the namelist"; exit 1; }
echo "$out"
warnings=$(grep -cF "warning: nwpio reads no key 'histroy_interval' in &time_control; did you mean 'history_interval'?" <<<"$out" || true)
((warnings == 1)) || { echo "FAIL: $warnings warnings for histroy_interval, expected one"; exit 1; }
grep -qF "$work/share/nwpio/configs/hints/lustre.toml" <<<"$out" ||
  { echo "FAIL: the plan does not use \$NWPIO_ROOT/share/nwpio/configs/hints/lustre.toml expanded"; exit 1; }

if out=$(env -u NWPIO_ROOT "$check" --plan namelist.input --ranks 8 --ranks-per-node 4 --fs local 2>&1); then
  echo "$out"; echo "FAIL: an unset NWPIO_ROOT was accepted"; exit 1
fi
echo "$out"
grep -qE "namelist.input:[0-9]+:[0-9]+: cannot expand hints_file .*environment variable NWPIO_ROOT is not set" <<<"$out" ||
  { echo "FAIL: the error does not name NWPIO_ROOT and the place"; exit 1; }
echo "PASS: a namelist.input as written"
