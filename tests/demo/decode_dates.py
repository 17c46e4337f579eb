"""Prints the time axis of a wrfout file as xarray decodes it (decode_times=True), one
YYYY-MM-DD_HH:MM:SS per record: XTIME, the variable whose units say "minutes since <start>"."""
import sys

import numpy as np
import xarray as xr

with xr.open_dataset(sys.argv[1], decode_times=True) as ds:
    xtime = ds["XTIME"]
    if not np.issubdtype(xtime.dtype, np.datetime64):
        sys.exit(f"XTIME was not decoded as a time (dtype {xtime.dtype}, units {xtime.attrs.get('units')!r})")
    for value in xtime.values:
        print(np.datetime_as_string(value, unit="s").replace("T", "_"))
