#!/bin/bash
# Task counts of a run with I/O servers, from WRF's namelist.input (&namelist_quilt):
#   slurm/ntasks_for.sh NAMELIST [COMPUTE]   prints COMPUTE + nio_groups x nio_tasks_per_group
#                                            (COMPUTE default: nproc_x x nproc_y of &domains)
#   slurm/ntasks_for.sh --servers NAMELIST   prints nio_groups x nio_tasks_per_group (0: none)
# e.g.  sbatch -n "$(slurm/ntasks_for.sh namelist.input 64)" slurm/run_mini_wrf.sbatch
# The last nio_groups x nio_tasks_per_group ranks are the servers (WRF's convention, as nwpio's
# IoServers / nwpio_servers_start assign them).
set -euo pipefail
servers_only=0
if [[ ${1:-} == --servers ]]; then servers_only=1; shift; fi
NAMELIST=${1:?usage: ntasks_for.sh [--servers] NAMELIST [COMPUTE]}
[[ -r $NAMELIST ]] || { echo "ntasks_for.sh: cannot read $NAMELIST" >&2; exit 1; }
# key = value pairs of a group (first value, lower-case keys, comments and quotes dropped)
value_of() {
  awk -v group="$1" -v key="$2" '
    { line = $0; sub(/!.*/, "", line) }
    tolower(line) ~ "^[[:space:]]*&" group "([[:space:]]|$)" { inside = 1; next }
    inside && line ~ /^[[:space:]]*\// { inside = 0 }
    inside {
      n = split(line, parts, ",")
      for (i = 1; i <= n; i++) {
        if (index(parts[i], "=") == 0) continue
        k = substr(parts[i], 1, index(parts[i], "=") - 1); v = substr(parts[i], index(parts[i], "=") + 1)
        gsub(/[[:space:]]/, "", k); gsub(/[[:space:]]/, "", v)
        if (tolower(k) == key) found = v
      }
    }
    END { print found }' "$NAMELIST"
}
tasks=$(value_of namelist_quilt nio_tasks_per_group)
groups=$(value_of namelist_quilt nio_groups)
tasks=${tasks:-0} groups=${groups:-1}
[[ $tasks =~ ^[0-9]+$ && $groups =~ ^[0-9]+$ ]] ||
  { echo "ntasks_for.sh: $NAMELIST: nio_tasks_per_group '$tasks' / nio_groups '$groups' are not counts" >&2; exit 1; }
servers=$((tasks * groups))
if ((servers_only)); then echo "$servers"; exit 0; fi
compute=${2:-}
if [[ -z $compute ]]; then
  px=$(value_of domains nproc_x) py=$(value_of domains nproc_y)
  [[ ${px:-} =~ ^[0-9]+$ && ${py:-} =~ ^[0-9]+$ && $px -gt 0 && $py -gt 0 ]] ||
    { echo "ntasks_for.sh: give the compute ranks (the namelist's nproc_x/nproc_y do not say)" >&2; exit 1; }
  compute=$((px * py))
fi
echo $((compute + servers))
