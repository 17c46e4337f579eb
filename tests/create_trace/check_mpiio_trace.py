#!/usr/bin/env python3
"""Checks the MPI_File_open trace of one nwpio-demo run (mpiio_open_trace.c) against its
statistics JSON: for every file the run opened (one "hints:<name>" entry each), the FIRST
MPI_File_open of its temporary file carries MPI_MODE_CREATE, found no file there before any rank
entered it, succeeded, and holds in its info every key nwpio passed for stripe_count and
stripe_size, with the values the run asked for. WHO opens it:
  all     every rank, over the run's communicator (a collective create: io_form 13, or io_form 11
          with collective slab writes);
  rank0   rank 0 alone, over a communicator of its own, and no other rank opens the file through
          MPI-IO at all (io_form 11 whose writers write their own slabs: the header is rank 0's).

  check_mpiio_trace.py TRACE_DIR STATS_JSON RANKS FILES STRIPE_COUNT STRIPE_SIZE WHO

Prints one line per file; exits 1 on the first file that breaks a rule.
"""
import glob
import json
import os
import sys


def read_trace(trace_dir):
    """Every traced call, in each process's order: a list of dicts (info keys under 'info')."""
    calls = []
    for log in sorted(glob.glob(os.path.join(trace_dir, "*.log"))):
        with open(log, encoding="utf-8") as f:
            for line in f:
                call = {"info": {}}
                for field in line.rstrip("\n").split("\t"):
                    key, _, value = field.partition("=")
                    if key.startswith("info:"):
                        call["info"][key[len("info:"):]] = value
                    else:
                        call[key] = value
                calls.append(call)
    return calls


def fail(text):
    print("FAIL: " + text)
    sys.exit(1)


def main():
    trace_dir, stats_path = sys.argv[1], sys.argv[2]
    ranks, files = int(sys.argv[3]), int(sys.argv[4])
    asked = {"stripe_count": sys.argv[5], "stripe_size": sys.argv[6]}
    who = sys.argv[7]
    with open(stats_path, encoding="utf-8") as f:
        stats = json.load(f)
    opened = [v for k, v in stats.items() if k.startswith("hints:")]
    if len(opened) != files:
        fail(f"{len(opened)} files in {stats_path}, expected {files}")
    calls = read_trace(trace_dir)
    for report in opened:
        temp = os.path.basename(report["opened_as"])
        # The keys nwpio passed for the stripe settings (their names depend on the MPI-IO layer).
        want = {}
        for setting in report["settings"]:
            if setting["name"] in asked:
                if setting["value"] != asked[setting["name"]]:
                    fail(f"{temp}: {setting['name']} resolved to {setting['value']}, the run asked "
                         f"{asked[setting['name']]}")
                want.update(setting.get("keys", {}))
        if len(want) < len(asked):
            fail(f"{temp}: nwpio passed no key for {sorted(asked)}: {want}")
        for key, value in want.items():
            if value not in asked.values():
                fail(f"{temp}: key {key}={value} carries none of the values asked {asked}")
        firsts = {}
        for call in calls:
            if os.path.basename(call["path"]) == temp:
                firsts.setdefault(call["rank"], call)
        openers = sorted(firsts, key=int)
        expected = [str(r) for r in range(ranks)] if who == "all" else ["0"]
        if openers != expected:
            fail(f"{temp}: opened through MPI-IO by ranks {openers}, expected {expected}")
        for rank, call in sorted(firsts.items()):
            where = f"{temp}, rank {rank}, first MPI_File_open (amode {call['amode']})"
            size = int(call["comm_size"])
            if size != (ranks if who == "all" else 1):
                fail(f"{where}: over a communicator of {size} ranks")
            if call["create"] != "1":
                fail(f"{where}: no MPI_MODE_CREATE")
            if call["existed"] != "0":
                fail(f"{where}: the file existed before the MPI-IO layer's open")
            if call["rc"] != "0":
                fail(f"{where}: failed with {call['rc']}")
            for key, value in want.items():
                if call["info"].get(key) != value:
                    fail(f"{where}: info has {key}={call['info'].get(key)}, expected {value}; info: {call['info']}")
        keys = " ".join(f"{k}={v}" for k, v in sorted(want.items()))
        print(f"ok: {temp}: created by MPI_File_open (amode {firsts['0']['amode']}) on "
              f"{'every rank' if who == 'all' else 'rank 0 alone'}, not there before, info {keys}")


if __name__ == "__main__":
    main()
