#!/usr/bin/env bash
# nwpio-demo in a memory cgroup too small for it (as a Slurm job's memory limit): the run ends
# at open with one error naming the need, the limit and the cgroup file it comes from, status 1,
# no file written; never killed by the kernel without a word. Twice: a grid whose history
# staging does not fit (the stream is refused), and one whose staging fits in write rounds of
# 16 MiB but whose model arrays do not (nwpio-demo refuses them before allocating).
# Needs root and a memory cgroup (v1, or v2 with the memory controller enabled at its root);
# otherwise it says so and exits 77 (skipped).
#   memory_case.sh MPIEXEC NWPIO_DEMO NAMELIST WORKDIR
set -uo pipefail
mpiexec=$1 demo=$2 namelist=$3 work=$4
read -ra preflags <<<"${MPIEXEC_PREFLAGS:-}"  # set by ctest: --oversubscribe under Open MPI
rm -rf "$work" && mkdir -p "$work"
if [[ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]]; then
  base=/sys/fs/cgroup/memory limit_file=memory.limit_in_bytes
elif grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
  base=/sys/fs/cgroup limit_file=memory.max
else
  echo "SKIP: no memory cgroup controller here"
  exit 77
fi
group=$base/nwpio-demo-memory-$$
mkdir "$group" 2>/dev/null || { echo "SKIP: cannot make $group (needs root)"; exit 77; }
trap 'rmdir "$group"' EXIT
echo $((96 << 20)) > "$group/$limit_file" || { echo "SKIP: cannot set $group/$limit_file"; exit 77; }
failures=0
# run NAME REGEX ARGS...: nwpio-demo inside the group (a subshell joins it; mpiexec and the ranks
# inherit it) must exit 1 with REGEX in its output and write no file.
run() {
  local name=$1 regex=$2 out rc
  shift 2
  out=$( (echo "$BASHPID" > "$group/cgroup.procs" && exec "$mpiexec" -n 2 "${preflags[@]}" "$demo" --output-dir "$work/$name" "$@") 2>&1)
  rc=$?
  echo "$out" | grep -v '^---\|^$' | head -3
  if [[ $rc -ne 1 ]] || ! grep -qE -- "$regex" <<<"$out"; then
    echo "FAIL: $name: exit status $rc, expected 1 with: $regex"
    failures=$((failures + 1))
  fi
  if [[ -n $(find "$work/$name" -type f 2>/dev/null) ]]; then
    echo "FAIL: $name wrote files before the refusal: $(find "$work/$name" -type f)"
    failures=$((failures + 1))
  fi
}
limit="limit 96 MiB, [0-9]+ MiB in use \\($group/$limit_file\\)"
run staging "not enough memory on .* for the history stream's staging of a frame .*$limit" \
  --e-we 301 --e-sn 301 --e-vert 41 --frames 1
run model "not enough memory on .* for nwpio-demo's model arrays .*$limit" --namelist "$namelist" --frames 1
((failures == 0)) && echo "PASS: both runs refused at open with the numbers"
exit $((failures > 0))
