// FrameHandoff: the compute ranks' side of one stream written by I/O servers. The Writer keeps
// its checks, bookkeeping and statistics; where it would write, it hands the frame over:
//
//   end_frame  1. backpressure: the group that takes the frame (files go round-robin to the
//                 groups, all frames of a file to one group, as WRF assigns files to its
//                 groups) may hold server_frames_in_flight unwritten frames; one more waits
//                 for the oldest one's ack. A send buffer of the group must be free too (its
//                 frame was received).
//              2. compute rank 0 sends the frame's control, so the servers post their
//                 receives while the ranks pack.
//              3. pack: the same single pass over the model's memory as the synchronous path,
//                 into the send buffer, server after server; each message (server_message_bytes,
//                 default 1 GiB: one per server) is sent (MPI_Isend) as soon as it is packed.
//                 Then end_frame returns; the model may change its arrays. On one node MPI's
//                 single-copy path lets the server pull the bytes while the model computes;
//                 blocking hand-off: end_frame returns when the servers hold the frame.
//   acks       the servers answer every frame; a failure is kept and thrown by the next
//              check_servers() (begin_frame, end_frame, close), agreed, on every rank.
//   close      Close to every group, then every answer of the stream is awaited: nothing of
//              the stream is in flight afterwards.
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/stream_layout.hpp"
#include "nwpio/statistics.hpp"
#include "servers/handoff_plan.hpp"
#include "servers/server_link.hpp"
#include "servers/stream_definition.hpp"

namespace nwpio::detail {

class FrameHandoff {
 public:
  // Collective over comm, which must be the link's compute communicator or congruent with it.
  // Sends the definition to every group and waits for their answers: a stream the servers
  // cannot build fails here, on every rank (the same Error). `layout` (the compute ranks'
  // layout of `definition.schema`) and `stats` must outlive the object.
  FrameHandoff(std::shared_ptr<ServerLink> link, MPI_Comm comm, const StreamDefinition& definition,
               const StreamLayout& layout, Statistics& stats);
  ~FrameHandoff();
  FrameHandoff(const FrameHandoff&) = delete;
  FrameHandoff& operator=(const FrameHandoff&) = delete;

  // Collective: a server failure any rank has heard of is thrown on every rank (once; after it
  // every call throws Error(State) naming it).
  void check_servers();

  struct Sent {
    int group = 0;
    double backpressure_seconds = 0;  // waiting for the group's servers
    double pack_seconds = 0;          // packing and posting the sends
    double handoff_seconds = 0;       // blocking hand-off: until the servers held the frame
    std::int64_t buffer_bytes = 0;    // this rank's send buffers
  };
  // Local (the servers are the other side). `sources[i]`: the data of schema variable i.
  // `stats_index`: the FrameStats entry the servers' answer fills in.
  Sent send(const std::string& date, bool opens_file, std::span<const FieldSource> sources, std::size_t stats_index);

  // Collective. Closes the stream on the servers and waits until nothing is in flight; throws
  // a failure not thrown before (agreed). A second call does nothing.
  void close();
  // Local, never blocks: the stream is forgotten (the servers close it when they stop).
  void abandon() noexcept;

  // From the link: an ack of group `group` for this stream.
  void on_ack(int group, const Ack& ack);

  int group_of_frame(std::int64_t seq) const noexcept {
    return static_cast<int>((seq / frames_per_file_) % link_->groups());
  }

 private:
  struct SendBuffer {
    std::unique_ptr<std::byte[]> data;
    std::vector<MPI_Request> requests;  // the sends of the frame it holds
    std::int64_t seq = -1;               // that frame
  };
  struct Group {
    std::vector<SendBuffer> buffers;
    std::deque<std::int64_t> unwritten;  // frames sent and not yet answered
    bool defined = false, closed = false;
  };
  SendBuffer& free_buffer(Group& g);
  void pack_and_send(int group, bool opens_file, std::span<const FieldSource> sources, SendBuffer& buffer);
  void wait_for(int group, const std::function<bool()>& done);
  void note_failure(int group, const Error& e);

  std::shared_ptr<ServerLink> link_;
  MPI_Comm comm_;
  Statistics& stats_;
  int id_ = -1;
  int rank_ = 0;
  int frames_per_file_ = 1;
  int in_flight_ = 2;
  bool blocking_ = false;
  std::int64_t message_bytes_ = 1;
  std::int64_t capacity_ = 0;    // bytes of one send buffer (the larger kind of frame)
  StreamLayout band_layout_;     // the servers' bands (their file boxes)
  std::array<std::vector<FieldPair>, 2> fields_;                 // [opens_file]
  std::array<std::vector<std::vector<HandoffPiece>>, 2> pieces_; // [opens_file][server]
  std::array<std::vector<std::size_t>, 2> schema_index_;         // [opens_file][field]
  std::vector<Group> groups_;
  std::int64_t next_seq_ = 0;
  std::map<std::int64_t, std::size_t> stats_of_seq_;
  std::optional<Error> failure_;  // the first failure heard of
  bool failed_ = false;           // thrown (agreed) already
  bool closed_ = false;
};

}  // namespace nwpio::detail
