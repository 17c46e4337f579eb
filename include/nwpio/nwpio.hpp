// Umbrella header of the nwpio C++ API.
#pragma once

#include "nwpio/box.hpp"
#include "nwpio/decomposition.hpp"
#include "nwpio/error.hpp"
#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/statistics.hpp"
#include "nwpio/types.hpp"
#include "nwpio/version.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "nwpio/writer.hpp"
