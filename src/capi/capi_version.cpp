// nwpio_version(): the C face of nwpio::version().
#include "nwpio/nwpio.h"
#include "nwpio/version.hpp"

extern "C" const char* nwpio_version(void) { return nwpio::version(); }
