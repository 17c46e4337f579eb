// The server sink (server_sink.hpp): what the model waits for is the pack into the send buffers
// (and, blocking hand-off, the transfer); the statistics say so.
#include "servers/server_sink.hpp"

#include <cstdio>

#include "core/field_copies.hpp"
#include "servers/frame_handoff.hpp"

namespace nwpio::detail {

namespace {

class ServerSink final : public FrameSink {
 public:
  ServerSink(std::shared_ptr<ServerLink> link, MPI_Comm comm, const StreamDefinition& definition,
             const StreamLayout& layout, Statistics& stats, const BackendTraits& traits)
      : servers_per_group_(link->servers_per_group()),
        traits_(traits),
        stats_(stats),
        copies_(layout, [&] {
          int r = 0;
          MPI_Comm_rank(comm, &r);
          return r;
        }()),
        handoff_(std::move(link), comm, definition, layout, stats) {}

  // A failure the servers reported: here, on every rank.
  void check_background() override { handoff_.check_servers(); }
  // The servers create the file when its first frame arrives.
  void begin_frame(const FrameBegin&, FrameStats&) override {}
  // Nothing can be packed before the frame is sent (its group and buffer are chosen then).
  FieldSource accept(int index, const FieldSource& source, bool copy) override {
    return copy ? copies_.copy(index, source) : source;
  }
  void end_frame(const FrameEnd& frame, FrameStats& stats) override {
    const FrameHandoff::Sent sent = handoff_.send(frame.date, frame.record == 0, frame.fields, stats_.frames.size());
    stats.rounds = 1;
    stats.reorder_seconds = sent.pack_seconds;
    stats.backpressure_seconds = sent.backpressure_seconds;
    stats.handoff_seconds = sent.handoff_seconds;
    stats.peak_buffer_bytes = sent.buffer_bytes;
    stats.server_group = sent.group;
  }
  // Waits until the servers closed the stream: a failure not reported yet is thrown here.
  void close(Statistics&, bool commit) override {
    if (!commit) throw Error(ErrorKind::Unsupported, "close: the I/O servers commit the files they write");
    handoff_.close();
  }
  // The servers hold the file: they close it when they stop.
  void abandon() noexcept override { handoff_.abandon(); }
  bool failed() const noexcept override { return false; }
  bool needs_close() const noexcept override { return true; }
  // WRF's line with the time the model was blocked.
  std::string timing_note(const FrameStats& fs) const override {
    std::string note = "model blocked; written by I/O server group " + std::to_string(fs.server_group);
    if (fs.backpressure_seconds > 0.0005) {
      char waited[64];
      std::snprintf(waited, sizeof waited, "; %.5f s of it waiting for the servers", fs.backpressure_seconds);
      note += waited;
    }
    return note;
  }
  void describe(Statistics& stats) const override {
    stats.backend = traits_.name;
    stats.gather = "io-servers";
    stats.reorder = "pack";
    stats.writer_ranks = servers_per_group_;
  }

 private:
  int servers_per_group_ = 1;
  BackendTraits traits_;
  Statistics& stats_;
  FieldCopies copies_;
  FrameHandoff handoff_;
};

}  // namespace

std::unique_ptr<FrameSink> make_server_sink(std::shared_ptr<ServerLink> link, MPI_Comm comm,
                                            const StreamDefinition& definition, const StreamLayout& layout,
                                            Statistics& stats, const BackendTraits& traits) {
  return std::make_unique<ServerSink>(std::move(link), comm, definition, layout, stats, traits);
}

}  // namespace nwpio::detail
