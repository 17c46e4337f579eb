#!/usr/bin/env python3
"""Checks an `strace -f -e trace=open,openat,openat2,creat` log of one io_form 2 run (every rank):
for every temporary data file named, the FIRST open(2) of it by any process creates it
exclusively (O_CREAT | O_EXCL) and succeeds -- the file was not there before -- and no other open
of it creates (O_CREAT): the library's create (serial netCDF-C on rank 0, which opens no file
through MPI-IO) is the file's one creation, nothing made it before.

  check_strace_create.py STRACE_LOG TEMP_NAME...

Prints one line per file; exits 1 on the first file that breaks a rule.
"""
import re
import sys

CALL = re.compile(r"^(\d+) +(.*)$")
UNFINISHED = " <unfinished ...>"
RESUMED = re.compile(r"^<\.\.\. \w+ resumed>(.*)$")


def read_calls(path):
    """Every traced call in the order the calls returned; a call that another thread interrupted
    ("<unfinished ...>" then "<... resumed>") is joined first."""
    calls, pending = [], {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = CALL.match(line.rstrip("\n"))
            if not m:
                continue
            pid, text = m.group(1), m.group(2)
            if text.endswith(UNFINISHED):
                pending[pid] = text[: -len(UNFINISHED)]
                continue
            r = RESUMED.match(text)
            if r:
                text = pending.pop(pid, "") + r.group(1)
            calls.append(text)
    return calls


def fail(text):
    print("FAIL: " + text)
    sys.exit(1)


def main():
    calls = read_calls(sys.argv[1])
    for name in sys.argv[2:]:
        # The name alone (openat relative to the private folder's descriptor) or at a path's end.
        quoted = re.compile(r'"(?:[^"]*/)?' + re.escape(name) + '"')
        opens = [t for t in calls if quoted.search(t)]
        if not opens:
            fail(f"{name}: never opened in the trace")
        first = opens[0]
        if "O_CREAT" not in first or "O_EXCL" not in first:
            fail(f"{name}: its first open does not create it exclusively: {first}")
        if re.search(r"= -1 ", first):
            fail(f"{name}: its first open failed: {first}")
        again = [t for t in opens[1:] if "O_CREAT" in t]
        if again:
            fail(f"{name}: created more than once; after {first}\n  came {again[0]}")
        print(f"ok: {name}: created once, exclusively, by its first open: {first}")


if __name__ == "__main__":
    main()
