#!/usr/bin/env python3
"""Every program answers --version with one line, "<program> <version>", and exit code 0.

    version_line.py VERSION NAME=PATH...

VERSION is CMake's PROJECT_VERSION; a subcommand ("nwpio-bench model-loop") answers with its
program's name.
"""
import sys

import program_list


def main():
    version, programs = sys.argv[1], program_list.parse(sys.argv[2:])
    failures = 0
    for name, command in programs:
        expected = f"{name.split()[0]} {version}"
        code, out, err = program_list.run(command, "--version")
        if code != 0 or out != expected + "\n":
            print(f"FAIL: {name} --version: exit code {code}, printed {out!r} (stderr {err.strip()!r}); "
                  f"expected exit code 0 and the line {expected!r}")
            failures += 1
        else:
            print(f"{name} --version: {out.strip()}")
    if failures == 0:
        print(f"PASS: {len(programs)} programs answer --version with their name and {version}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
