// Releasing a netCDF-4 file whose close failed: HDF5 keeps such a file open, half closed, and
// every later attempt to close it (a second nc_close, nc_abort, or HDF5's own closing of open
// files when the process ends) writes again, fails again, and can crash inside HDF5. Pointing
// the file's descriptors at an anonymous memory file (memfd) lets the retried writes succeed
// where they harm nothing, so the close completes and HDF5 lets go; the file on disk keeps
// what it had, under its temporary name.
#pragma once

#include <string>

namespace nwpio::detail {

// Every descriptor of this process open on the file at `path` (same device and inode) now
// refers to a new, empty memory file instead. Returns how many were diverted (0 when the file
// cannot be found or no memory file can be made). Linux (/proc/self/fd, memfd_create); never
// throws.
int divert_descriptors_to_memory(const std::string& path) noexcept;

}  // namespace nwpio::detail
