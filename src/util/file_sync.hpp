// fsync by path or descriptor, with errors that name the path.
#pragma once

#include <string>

namespace nwpio::detail {

// fsync of a file or folder by path (flags: O_RDONLY | O_NOFOLLOW for a file nwpio wrote, or
// O_RDONLY | O_DIRECTORY); opened read-only and never blocking (O_NONBLOCK), so a name someone
// planted is never written. A file system that cannot sync a folder (EINVAL) is not an error.
// Throws Error(Io).
void sync_path(const std::string& path, int flags);

// fsync of an open descriptor; throws Error(Io) naming `path`.
void sync_descriptor(int fd, const std::string& path);

}  // namespace nwpio::detail
