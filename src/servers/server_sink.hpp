// The server sink: the frames of a stream go to I/O server ranks (core/frame_sink.hpp). The
// stream keeps its checks, bookkeeping and statistics; where the file sink would open, write and
// commit files, this sink hands the frame over (frame_handoff.hpp) and the servers write it with
// an ordinary stream of their own. No backend and no frame plan exist on the compute ranks.
#pragma once

#include <mpi.h>

#include <memory>

#include "backend/backend_traits.hpp"
#include "core/frame_sink.hpp"
#include "servers/server_link.hpp"
#include "servers/stream_definition.hpp"

namespace nwpio::detail {

// Collective over comm (the link's compute communicator): sends the definition to every group
// and waits for their answers (a stream the servers cannot build fails here, on every rank).
// `layout` and `stats` must outlive the sink.
std::unique_ptr<FrameSink> make_server_sink(std::shared_ptr<ServerLink> link, MPI_Comm comm,
                                            const StreamDefinition& definition, const StreamLayout& layout,
                                            Statistics& stats, const BackendTraits& traits);

}  // namespace nwpio::detail
