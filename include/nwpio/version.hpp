// nwpio's version in C++: the macros of nwpio/version.h (NWPIO_VERSION_MAJOR, _MINOR, _PATCH,
// NWPIO_VERSION_STRING) are the version a program was compiled against; version() is the
// version of the libnwpio it runs with, which differs when the library was replaced later.
#pragma once

#include "nwpio/version.h"

namespace nwpio {

// "MAJOR.MINOR.PATCH" of the running library, e.g. for a log line or a statistics file.
const char* version() noexcept;

}  // namespace nwpio
