#!/usr/bin/env python3
"""Prints a ctest -R regex that selects each MPI test of a build tree once.

    scripts/ctest_select.py BUILD_DIR [--exclude-labels REGEX] [--ranks N]
    ctest -R "$(scripts/ctest_select.py build-asan --exclude-labels 'slurm|fuzz')"

scripts/test.sh runs every test at every rank count in the default build. The other
configurations (sanitizers, the build without PnetCDF, MPICH) test what differs in them: the
instrumented code, the libraries, the MPI. For that each MPI test needs to run once, at one
uneven rank count, not at every count. The choice is made from the tests CMake registered, so
that a new test is picked up without a list to keep:
  - an MPI test (label `mpi`) registered as <family>_np<N> at several rank counts runs at 3
    ranks (an uneven split of every grid the tests use) when the family has 3, else at its
    largest count; every other test runs. --ranks N prefers N instead: MPICH's ranks
    busy-poll, so its build runs at 2 ranks, one per core of the 2-core CI machine (at 3 an
    MPI test there takes 30 to 70 times as long as at 2; the test grids' odd sizes still
    split unevenly in two);
  - tests with a label matching --exclude-labels do not run;
  - a test whose fixture setup (FIXTURES_REQUIRED) no longer runs is left out too (ctest would
    otherwise add the left-out setup back), and so is a set-up step (neither `mpi` nor `unit`)
    that no test left requires.
"""
import argparse
import json
import re
import subprocess
import sys
from collections import defaultdict

PREFERRED_RANKS = 3


def load_tests(build_dir):
    out = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build_dir, check=True,
                         capture_output=True, text=True).stdout
    tests = []
    for t in json.loads(out)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        tests.append({"name": t["name"], "labels": props.get("LABELS", []),
                      "setup": props.get("FIXTURES_SETUP", []),
                      "required": props.get("FIXTURES_REQUIRED", [])})
    return tests


def once_per_family(tests, preferred):
    families = defaultdict(dict)  # family -> {ranks: name}
    for t in tests:
        m = re.fullmatch(r"(.+)_np(\d+)", t["name"])
        if "mpi" in t["labels"] and m:
            families[m.group(1)][int(m.group(2))] = t["name"]
    dropped = set()
    for counts in families.values():
        keep = preferred if preferred in counts else max(counts)
        dropped.update(name for n, name in counts.items() if n != keep)
    return dropped


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build_dir")
    ap.add_argument("--exclude-labels", default="", help="regex: tests with a matching label do not run")
    ap.add_argument("--ranks", type=int, default=PREFERRED_RANKS,
                    help="the rank count an MPI test runs at when its family has it (default %(default)s)")
    args = ap.parse_args()
    tests = load_tests(args.build_dir)
    excluded = re.compile(args.exclude_labels) if args.exclude_labels else None
    dropped = once_per_family(tests, args.ranks)
    if excluded:
        dropped.update(t["name"] for t in tests if any(excluded.fullmatch(l) for l in t["labels"]))
    # Fixtures: consumers of a dropped setup go, then setups nobody kept requires.
    while True:
        kept = [t for t in tests if t["name"] not in dropped]
        provided = {f for t in kept for f in t["setup"]}
        needed = {f for t in kept for f in t["required"]}
        more = {t["name"] for t in kept if any(f not in provided for f in t["required"])}
        more |= {t["name"] for t in kept if t["setup"] and not set(t["labels"]) & {"mpi", "unit"}
                 and not set(t["setup"]) & needed}
        if not more:
            break
        dropped |= more
    names = [t["name"] for t in tests if t["name"] not in dropped]
    if not names:
        sys.exit("ctest_select.py: no test left in " + args.build_dir)
    print("^(" + "|".join(re.escape(n) for n in names) + ")$")


if __name__ == "__main__":
    main()
