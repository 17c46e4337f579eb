// What a front end may share with the streams it builds, beside their options: not part of the
// public API (the types are nwpio's own), reached through these functions by nwpio's front ends
// (WRF's package: one commit service and one Statistics for all its files; the I/O servers: the
// hooks of their tests) and by nwpio's tests.
#pragma once

#include <memory>

#include "core/test_hooks.hpp"
#include "nwpio/decomposition.hpp"
#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/statistics.hpp"
#include "nwpio/stream_builder.hpp"
#include "nwpio/writer.hpp"

namespace nwpio::detail {

class CommitService;

struct StreamContext {
  std::shared_ptr<TestHooks> hooks;           // tests: faults, simulated nodes
  std::shared_ptr<CommitService> commits;     // null: the stream's own (its close waits for all)
  std::shared_ptr<Statistics> statistics;     // null: the stream's own
};

// Local, before build().
void set_stream_context(StreamBuilder& builder, StreamContext context);

// Collective. As Writer::close(), but the open file is not given its final name: it keeps its
// temporary one. For a front end whose caller lost a frame it cannot write again (WRF's I/O API
// after a failed frame), so that no final name holds a file missing a frame. Error(Unsupported)
// for a stream written by I/O servers (they commit their files).
void close_keeping_temporary(Writer& writer);

// Writer(decomposition, schema, options) with a context.
Writer make_writer(const Decomposition& decomposition, Schema schema, OutputOptions options, StreamContext context);

}  // namespace nwpio::detail
