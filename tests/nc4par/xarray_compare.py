#!/usr/bin/python3
"""Reads two netCDF files with xarray (the Debian python's own netCDF4/HDF5, not nwpio's) and
exits 0 when every variable has the same dimensions and the same values, 1 otherwise."""
import sys

import numpy as np
import xarray as xr


def main(a_path, b_path):
    a = xr.open_dataset(a_path, decode_times=False, mask_and_scale=False, decode_coords=False)
    b = xr.open_dataset(b_path, decode_times=False, mask_and_scale=False, decode_coords=False)
    bad = []
    if sorted(a.variables) != sorted(b.variables):
        bad.append(f"variables differ: {sorted(set(a.variables) ^ set(b.variables))}")
    for name in a.variables:
        if name not in b.variables:
            continue
        x, y = a[name], b[name]
        if x.dims != y.dims or x.shape != y.shape:
            bad.append(f"{name}: dims {x.dims}{x.shape} vs {y.dims}{y.shape}")
        elif not np.array_equal(x.values, y.values):
            bad.append(f"{name}: values differ")
    print(f"xarray: {len(a.variables)} variables compared, {len(bad)} different")
    for line in bad[:20]:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
