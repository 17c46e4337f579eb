// A stream as the compute ranks built it, as the I/O servers need it to build the same stream
// over their own communicator: the schema (iofields already applied; grid attributes set), the
// options (test hooks never travel: servers get their own), the domain and every compute rank's
// patch (from which every side computes the hand-off). Encoded as MessagePack (nlohmann-json):
// exact for any bytes (attribute text, paths) and any float (NaN included).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "nwpio/box.hpp"
#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"

namespace nwpio::detail {

struct StreamDefinition {
  int stream = 0;
  Schema schema;
  OutputOptions options;
  Box domain;
  std::vector<Box> patches;  // index = compute rank
};

std::string encode(const StreamDefinition& d);
// Throws Error(Internal) for bytes that are not a definition (a bug, not a user error), and
// Error(Schema) as Schema does (it checks the definitions again).
StreamDefinition decode_stream_definition(std::string_view bytes);

}  // namespace nwpio::detail
