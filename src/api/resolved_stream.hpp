// Everything a stream settles before its Writer exists: the configuration (config/stream_config)
// and the backend's traits (which io_form it really gets and what the core may know about it).
#pragma once

#include <mpi.h>

#include "backend/backend_traits.hpp"
#include "config/stream_config.hpp"

namespace nwpio::detail {

struct ResolvedStream {
  StreamConfig config;
  BackendTraits traits;
  bool enabled = true;  // false: history_interval = 0, the stream writes nothing
};

// Collective and agreed (see resolve_stream_config). Rank 0 prints the io_form fallback line,
// when one is taken, once.
ResolvedStream resolve_stream(const OutputOptions& options, MPI_Comm comm);

}  // namespace nwpio::detail
