// The model settings of one domain from a parsed namelist.input: a pure function (no MPI),
// unit-tested and fuzzed directly; read_model_settings reads, broadcasts and calls it.
#pragma once

#include "config/namelist_parser.hpp"
#include "nwpio_model/model_settings.hpp"

namespace nwpio::detail {

ModelSettings model_settings_from(const Namelist& nl, int domain_id);

}  // namespace nwpio::detail
