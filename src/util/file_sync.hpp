// fsync by path or descriptor, with errors that name the path.
#pragma once

#include <string>

namespace nwpio::detail {

// fsync of a file or folder by path (flags: O_RDONLY, or O_RDONLY | O_DIRECTORY); a file system
// that cannot sync a folder (EINVAL) is not an error. Throws Error(Io).
void sync_path(const std::string& path, int flags);

// fsync of an open descriptor; throws Error(Io) naming `path`.
void sync_descriptor(int fd, const std::string& path);

}  // namespace nwpio::detail
