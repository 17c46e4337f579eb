# Runs of the real WRF (em_quarter_ss) for scripts/wrf-check.sh and scripts/wrf-bench.sh.
# Sourced, not run. Needs NWPIO_WRF_TREE (scripts/wrf/build.sh).
#
#   nwpio_wrf_set FILE KEY VALUE       sets a namelist entry (adds it to its group if missing)
#   nwpio_wrf_case DIR EXE [KEY=VALUE ...]
#                                      a run directory: the case's files, WRF's reference
#                                      namelist with the edits, EXE as wrf.exe, and the initial
#                                      state from ideal.exe (made once per grid under $NWPIO_WRF_WORK)
#   nwpio_wrf_run DIR NP [HOSTS]       mpirun -np NP wrf.exe in DIR; fails unless WRF says SUCCESS.
#                                      On the emulated cluster (NWPIO_CLUSTER_NODES set, see
#                                      scripts/emulated-cluster.sh) the ranks go to its nodes: to
#                                      HOSTS (Open MPI's --host list, ranks in its order) when
#                                      given, else dealt node by node over the first two nodes
#   nwpio_wrf_write_seconds DIR        the sum of WRF's own "Timing for Writing" lines (rank 0)
NWPIO_WRF_NAMELIST=${NWPIO_WRF_NAMELIST:-$NWPIO_ROOT/../shared/wrf/em_quarter_ss/namelist.input}
[[ -f $NWPIO_WRF_NAMELIST ]] || NWPIO_WRF_NAMELIST=/work/shared/wrf/em_quarter_ss/namelist.input
NWPIO_WRF_MPIRUN=(mpirun --oversubscribe)

# Which group a key belongs to when the reference namelist does not have it yet.
nwpio_wrf_group_of() {
  case $1 in
    nproc_x | nproc_y) echo domains ;;
    nio_tasks_per_group | nio_groups) echo namelist_quilt ;;
    write_behind | hint_report | hints_profile | stats_json) echo nwpio ;;
    adios2_*) echo namelist_adios2 ;;
    *) echo time_control ;;
  esac
}

nwpio_wrf_set() {
  local file=$1 key=$2 value=$3 group
  if grep -qiE "^[[:space:]]*$key[[:space:]]*=" "$file"; then
    sed -i -E "s|^[[:space:]]*$key[[:space:]]*=.*| $key = $value,|I" "$file"
  else
    group=$(nwpio_wrf_group_of "$key")
    grep -qi "^[[:space:]]*&$group" "$file" || printf '&%s\n/\n' "$group" >>"$file"
    sed -i -E "0,/^[[:space:]]*&$group/I s|^([[:space:]]*&$group.*)|\1\n $key = $value,|I" "$file"
  fi
}

nwpio_wrf_value() {  # the first value of KEY in FILE
  grep -iE "^[[:space:]]*$2[[:space:]]*=" "$1" | head -1 | sed -E 's/^[^=]*=[[:space:]]*([^, ]*).*/\1/'
}

nwpio_wrf_case() {
  local dir=$1 exe=$2 kv grid input
  shift 2
  rm -rf "$dir"
  mkdir -p "$dir"
  # The case's tables and sounding (links resolved), WRF's namelist of the reference runs.
  find "$NWPIO_WRF_TREE/test/em_quarter_ss/" -maxdepth 1 \( -type f -o -type l \) \
    ! -name '*.exe' ! -name 'namelist.input*' ! -name 'README*' ! -name CMakeLists.txt \
    -exec cp -L {} "$dir/" \;
  cp "$NWPIO_WRF_NAMELIST" "$dir/namelist.input"
  chmod u+w "$dir/namelist.input"
  for kv in "$@"; do nwpio_wrf_set "$dir/namelist.input" "${kv%%=*}" "${kv#*=}"; done
  ln -sf "$exe" "$dir/wrf.exe"
  # The initial state depends on the grid only: ideal.exe once per grid.
  grid=$(nwpio_wrf_value "$dir/namelist.input" e_we)x$(nwpio_wrf_value "$dir/namelist.input" e_sn)x$(nwpio_wrf_value "$dir/namelist.input" e_vert)
  input=$NWPIO_WRF_WORK/input-$grid
  if [[ ! -f $input/wrfinput_d01 ]]; then
    rm -rf "$input"
    cp -r "$dir" "$input"
    nwpio_wrf_set "$input/namelist.input" nproc_x -1
    nwpio_wrf_set "$input/namelist.input" nproc_y -1
    (cd "$input" && { ulimit -s unlimited 2>/dev/null || ulimit -s "$(ulimit -H -s)"; } && "${NWPIO_WRF_MPIRUN[@]}" -np 1 "$NWPIO_WRF_TREE/main/ideal.exe" >ideal.log 2>&1) ||
      { nwpio_log "ideal.exe failed in $input"; return 1; }
    grep -q "SUCCESS COMPLETE IDEAL INIT" "$input/rsl.out.0000" || { nwpio_log "ideal.exe failed in $input"; return 1; }
  fi
  ln -sf "$input/wrfinput_d01" "$dir/wrfinput_d01"
}

nwpio_wrf_run() {
  local dir=$1 np=$2 hosts=${3:-} place=()
  if [[ -n $hosts ]]; then
    place=(--host "$hosts" --map-by slot)
  elif [[ -n ${NWPIO_CLUSTER_NODES:-} ]]; then
    place=(--host "$(nwpio_cluster_hosts 2 $(((np + 1) / 2)))" --map-by node)
  fi
  (cd "$dir" && rm -f rsl.* && { ulimit -s unlimited 2>/dev/null || ulimit -s "$(ulimit -H -s)"; } && "${NWPIO_WRF_MPIRUN[@]}" "${place[@]}" -np "$np" ./wrf.exe >run.log 2>&1)
  if ! grep -q "SUCCESS COMPLETE WRF" "$dir/rsl.out.0000" 2>/dev/null; then
    nwpio_log "wrf.exe at $np ranks failed in $dir; last lines of rsl.error.0000:"
    tail -5 "$dir/rsl.error.0000" >&2 2>/dev/null || tail -5 "$dir/run.log" >&2
    return 1
  fi
}

nwpio_wrf_write_seconds() {
  awk '/Timing for Writing/ { for (i = 1; i <= NF; i++) if ($i == "elapsed") s += $(i - 1) } END { printf "%.3f\n", s }' \
    "$1/rsl.out.0000"
}
