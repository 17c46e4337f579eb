#include "api/build_stream.hpp"

#include "config/iofields.hpp"
#include "filesink/file_sink.hpp"
#include "servers/server_link.hpp"
#include "servers/server_sink.hpp"

namespace nwpio::detail {

std::unique_ptr<Stream> build_stream(ResolvedStream resolved, const Decomposition& decomposition, Schema schema,
                                           std::shared_ptr<ServerLink> servers, const StreamContext& context) {
  StreamConfig& config = resolved.config;
  const MPI_Comm comm = decomposition.comm();
  std::set<std::string> removed = apply_iofields(schema, config.iofields, config.options.ignore_iofields_warning, comm);
  auto stats = context.statistics ? context.statistics : std::make_shared<Statistics>();
  auto stream = std::make_unique<Stream>(config.options, decomposition, std::move(schema), std::move(removed),
                                         resolved.traits, config.compression ? &*config.compression : nullptr,
                                         context.hooks, stats);
  // A stream that is off (history_interval = 0) writes nothing: no sink, no backend, no staging.
  if (!stream->clock().enabled()) return stream;
  std::unique_ptr<FrameSink> sink;
  if (servers) {
    // Written by I/O servers: they build the same stream (defined, agreed, here) and write it.
    const StreamDefinition definition{0, stream->schema(), stream->options(), decomposition.domain(),
                                      decomposition.all_patches()};
    sink = make_server_sink(std::move(servers), comm, definition, stream->layout(), *stats, resolved.traits);
  } else {
    FileSinkSetup setup;
    setup.comm = comm;
    setup.options = &stream->options();
    setup.layout = &stream->layout();
    setup.traits = resolved.traits;
    setup.hints = std::move(config.hints);
    setup.shared_memory_dir = config.shared_memory_dir;
    setup.hooks = context.hooks;
    setup.stats = stats;
    setup.commits = context.commits;
    sink = make_file_sink(std::move(setup));
  }
  sink->describe(*stats);
  stream->attach(std::move(sink));
  return stream;
}

}  // namespace nwpio::detail
