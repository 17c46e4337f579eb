#!/usr/bin/env python3
"""Reads the history files of the boxmodel examples (examples/c, examples/cpp) back through
netCDF-C (python3-netcdf4) and compares every value with the formula the examples write (their
README.md); runs ncvalidator on every file.

  check_boxmodel.py DIR PREFIX [--ncvalidator PATH]

Expects exactly the files of a run: PREFIX_<date>.nc for 00:00 (frames 00:00 and 06:00) and
12:00 (frame 12:00) of 2024-03-01, ':' in the names as '_' or not, and nothing left unfinished.
Prints "OK: <file>" per file; exits 1 naming the first difference.
"""
import argparse
import datetime
import glob
import os
import subprocess
import sys
import tempfile

import netCDF4
import numpy as np

NX, NY, NZ = 23, 17, 6
START = datetime.datetime(2024, 3, 1)
FILES = {"2024-03-01_00:00:00": ["2024-03-01_00:00:00", "2024-03-01_06:00:00"],
         "2024-03-01_12:00:00": ["2024-03-01_12:00:00"]}


def expected(name, hours):
    """The examples' formulas over the whole field grid, in file order (k, j, i)."""
    k, j, i = np.meshgrid(np.arange(NZ), np.arange(NY), np.arange(NX + (name == "U")), indexing="ij")
    if name == "T":
        return (280.0 + i / 2.0 + j / 4.0 - k + hours / 8.0).astype(np.float32)
    if name == "U":
        return (i / 4.0 - j / 8.0 + k / 2.0 + hours / 16.0).astype(np.float32)
    return (i[0] - j[0]) / 64.0 + hours / 32.0  # SSH, double


def fail(text):
    print("FAIL: " + text)
    sys.exit(1)


def check_file(path, dates):
    with netCDF4.Dataset(path) as nc:
        nc.set_auto_mask(False)
        if nc.file_format != "NETCDF3_64BIT_OFFSET":
            fail(f"{path}: format {nc.file_format}, expected CDF-2 (NETCDF3_64BIT_OFFSET)")
        dims = {d: len(v) for d, v in nc.dimensions.items()}
        want = {"Time": len(dates), "DateStrLen": 19, "west_east": NX, "south_north": NY, "bottom_top": NZ,
                "west_east_stag": NX + 1}
        if dims != want:
            fail(f"{path}: dimensions {dims}, expected {want}")
        shapes = {"T": ("Time", "bottom_top", "south_north", "west_east"),
                  "U": ("Time", "bottom_top", "south_north", "west_east_stag"),
                  "SSH": ("Time", "south_north", "west_east")}
        types = {"T": np.float32, "U": np.float32, "SSH": np.float64}
        if sorted(nc.variables) != sorted(["Times", *shapes]):
            fail(f"{path}: variables {sorted(nc.variables)}")
        times = [row.tobytes().decode() for row in nc.variables["Times"][:]]
        if times != dates:
            fail(f"{path}: Times {times}, expected {dates}")
        for name, shape in shapes.items():
            var = nc.variables[name]
            if var.dimensions != shape or var.dtype != types[name]:
                fail(f"{path}: {name}{var.dimensions} {var.dtype}, expected {name}{shape} {types[name]}")
            values = var[:]
            for record, date in enumerate(dates):
                hours = (datetime.datetime.strptime(date, "%Y-%m-%d_%H:%M:%S") - START).total_seconds() / 3600.0
                want_values = expected(name, hours)
                bad = np.argwhere(values[record] != want_values)
                if bad.size:
                    at = tuple(int(x) for x in bad[0])
                    fail(f"{path}: {name} record {record} (k, j, i)={at}: {values[record][at]!r}, formula "
                         f"{want_values[at]!r} ({len(bad)} of {want_values.size} values differ)")


def validate(ncvalidator, path):
    """ncvalidator opens files through MPI-IO, which reads "name:" as a file-system prefix: a file
    named with ':' (io_form 2 keeps them) is validated through a link without one."""
    with tempfile.TemporaryDirectory() as tmp:
        target = path
        if ":" in path:
            target = os.path.join(tmp, "file.nc")
            os.symlink(os.path.abspath(path), target)
        run = subprocess.run([ncvalidator, target], capture_output=True, text=True)
        if run.returncode != 0:
            fail(f"ncvalidator {path}: {run.stdout}{run.stderr}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("prefix")
    ap.add_argument("--ncvalidator")
    a = ap.parse_args()
    left = [p for p in glob.glob(os.path.join(a.dir, ".nwpio-tmp-*", "*"))]
    if left:
        fail(f"unfinished files left: {left}")
    found = sorted(glob.glob(os.path.join(a.dir, a.prefix + "_*.nc")))
    names = {}
    for first in FILES:
        candidates = [os.path.join(a.dir, f"{a.prefix}_{first}.nc"),
                      os.path.join(a.dir, f"{a.prefix}_{first.replace(':', '_')}.nc")]
        path = next((c for c in candidates if os.path.exists(c)), None)
        if path is None:
            fail(f"no file for {first} in {a.dir} (found {found})")
        names[path] = FILES[first]
    if sorted(names) != found:
        fail(f"files {found}, expected {sorted(names)}")
    for path, dates in names.items():
        check_file(path, dates)
        if a.ncvalidator:
            validate(a.ncvalidator, path)
        print(f"OK: {path}: {len(dates)} frame(s), every value of T, U and SSH as the formula"
              + (", ncvalidator passes" if a.ncvalidator else ""))


if __name__ == "__main__":
    main()
