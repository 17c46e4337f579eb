// Umbrella header of the nwpio C++ API: everything a model needs to write its history
// (docs/API.md). The C API is nwpio/nwpio.h.
#pragma once

#include "nwpio/box.hpp"
#include "nwpio/decomposition.hpp"
#include "nwpio/error.hpp"
#include "nwpio/hint_options.hpp"
#include "nwpio/io_servers.hpp"
#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/statistics.hpp"
#include "nwpio/stream_builder.hpp"
#include "nwpio/types.hpp"
#include "nwpio/version.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "nwpio/wrf_date.hpp"
#include "nwpio/wrf_decompose.hpp"
#include "nwpio/writer.hpp"
