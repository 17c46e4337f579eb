// The one place a stream is put together (StreamBuilder::build, the Writer's constructor): the
// schema after iofields, the core's Stream, and its sink: the file sink, or the server sink when
// the stream's frames go to I/O servers.
#pragma once

#include <memory>

#include "api/resolved_stream.hpp"
#include "api/stream_context.hpp"
#include "core/stream.hpp"

namespace nwpio::detail {

class ServerLink;

// Collective over decomposition.comm().
std::unique_ptr<Stream> build_stream(ResolvedStream resolved, const Decomposition& decomposition, Schema schema,
                                           std::shared_ptr<ServerLink> servers, const StreamContext& context);

}  // namespace nwpio::detail
