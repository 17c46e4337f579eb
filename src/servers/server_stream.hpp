// ServerStream: one stream on the I/O servers of a group. It builds the stream the compute
// ranks defined as an ordinary Writer over the group's servers, whose decomposition is a band
// of whole rows per server (handoff_plan.hpp); per frame it receives every compute rank's
// pieces, copies them into the band's arrays (the arrays a model rank would hold, without
// halo) and writes them with begin_frame / put / end_frame: the same checks, rearranger,
// backends, atomic commit and agreement as any synchronous stream, so the files are the same.
//
// A stream that failed (its Writer could not be built, or a frame failed) still receives every
// frame the compute ranks send, and writes nothing more: no compute rank ever waits for a
// server that stopped listening.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "core/stream_layout.hpp"
#include "core/test_hooks.hpp"
#include "nwpio/writer.hpp"
#include "servers/handoff_plan.hpp"
#include "servers/server_comms.hpp"
#include "servers/server_protocol.hpp"
#include "servers/stream_definition.hpp"

namespace nwpio::detail {

// Memory a server reuses for every stream and frame (frames are handled one at a time): the
// bytes of a frame as received, and the band arrays they are copied into. Grown on demand,
// never shrunk, never zeroed (every byte that is read was written first).
class ServerScratch {
 public:
  std::byte* received(std::int64_t bytes) { return grow(received_, received_capacity_, bytes); }
  std::byte* bands(std::int64_t bytes) { return grow(bands_, bands_capacity_, bytes); }
  std::int64_t bytes() const noexcept { return received_capacity_ + bands_capacity_; }

 private:
  static std::byte* grow(std::unique_ptr<std::byte[]>& p, std::int64_t& capacity, std::int64_t bytes);
  std::unique_ptr<std::byte[]> received_, bands_;
  std::int64_t received_capacity_ = 0, bands_capacity_ = 0;
};

class ServerStream {
 public:
  // Collective over the group's servers. Never throws: a failure is kept (error()) and answered.
  ServerStream(const std::string& definition, const ServerComms& comms, std::shared_ptr<TestHooks> hooks);
  ~ServerStream();

  const std::optional<Error>& error() const noexcept { return error_; }
  // Collective over the group's servers: receives the frame, writes it, answers.
  Ack frame(const Control& control, ServerScratch& scratch);
  // Collective over the group's servers: closes the stream's file.
  Ack close(const Control& control);

 private:
  void receive(int kind, std::byte* into);
  void drain(int kind);  // receives and drops a frame (no memory for it)
  void unpack(int kind, const std::byte* from, std::byte* bands);
  void write(const Control& control, std::byte* bands, Ack& ack);

  const ServerComms& comms_;
  MPI_Comm link_ = MPI_COMM_NULL;
  std::int64_t message_bytes_ = 1;
  StreamDefinition def_;
  StreamLayout compute_layout_, band_layout_;
  Box band_;
  std::array<std::vector<FieldPair>, 2> fields_;                  // [opens_file]
  std::array<std::vector<std::size_t>, 2> schema_index_;          // [opens_file][field]
  std::array<std::vector<std::vector<HandoffPiece>>, 2> pieces_;  // [opens_file][compute rank]
  std::array<std::vector<std::int64_t>, 2> from_;                 // [opens_file][compute rank]: bytes
  std::array<std::int64_t, 2> total_{0, 0};
  std::vector<std::int64_t> band_offset_;  // by schema index, in the band scratch
  std::int64_t band_bytes_ = 0;
  std::unique_ptr<Writer> writer_;
  std::optional<Error> error_;  // the first failure; later frames are received and dropped
};

}  // namespace nwpio::detail
