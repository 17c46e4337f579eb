// L0: the null backend (io_form 0): takes everything a real backend takes, touches no file.
// Measures the library's own overhead (reorder, exchange) without I/O.
#pragma once

#include <memory>

#include "backend/backend.hpp"

namespace nwpio::detail {

std::unique_ptr<Backend> make_null_backend();

}  // namespace nwpio::detail
