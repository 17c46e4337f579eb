// ServerLink: the compute ranks' end of the I/O servers (held by IoServers, shared by every
// stream built on it). It owns the communicators, sends compute rank 0's controls, and
// receives the servers' acks: whatever arrived is handed to the stream it concerns, at every
// nwpio call (poll) or, where a rank must wait (backpressure, close), blocking on one group.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "servers/messages.hpp"
#include "servers/server_comms.hpp"
#include "servers/server_protocol.hpp"

namespace nwpio::detail {

class FrameHandoff;

class ServerLink {
 public:
  explicit ServerLink(ServerComms comms);
  ~ServerLink();
  ServerLink(const ServerLink&) = delete;
  ServerLink& operator=(const ServerLink&) = delete;

  const ServerComms& comms() const noexcept { return comms_; }
  int groups() const noexcept { return comms_.roles.groups; }
  int servers_per_group() const noexcept { return comms_.roles.per_group; }
  int compute_ranks() const noexcept { return comms_.roles.compute_ranks; }
  MPI_Comm compute_comm() const noexcept { return comms_.compute; }
  MPI_Comm link(int group) const noexcept { return comms_.links[static_cast<std::size_t>(group)]; }
  int rank() const noexcept { return rank_; }  // compute rank

  // Streams: each gets the next number (the same on every compute rank: streams are built
  // collectively, in the same order everywhere).
  int attach(FrameHandoff* stream);
  void detach(int stream) noexcept;
  int attached() const noexcept { return static_cast<int>(streams_.size()); }

  // The sends of a stream abandoned while they were in flight (FrameHandoff::abandon): MPI
  // still reads their buffer, so the link keeps it until they complete -- freed at a later
  // poll, or at stop and destruction, which wait for them as for the controls (the servers
  // receive every frame message of a stream, abandoned or not). Takes both only once it has
  // room for them (if it throws, the caller still holds them).
  void adopt_sends(std::unique_ptr<std::byte[]>& buffer, std::vector<MPI_Request>& requests);

  // Compute rank 0 (elsewhere nothing): `control` to every server of `group`.
  void send_control(int group, const Control& control);
  // Every ack that has arrived, handed to its stream. Never blocks.
  void poll();
  // Blocks until the next ack of `group` has arrived, and hands it over; returns its command.
  Command wait_ack(int group);

  // Throws Error(State) once the servers were stopped (no stream may talk to them).
  void require_running(std::string_view what) const;
  bool stopped() const noexcept { return stopped_; }
  // Compute rank 0 sends Stop to every server; every compute rank (`all_wait`; else rank 0
  // alone) waits for every group's answer (the servers closed what was left open). Afterwards
  // every stream call fails.
  void stop(bool all_wait = true);

 private:
  Command dispatch(int group, const std::string& bytes);
  struct AdoptedSends {
    std::unique_ptr<std::byte[]> buffer;
    std::vector<MPI_Request> requests;
  };
  // Frees the adopted buffers whose sends completed; with `wait`, waits for all of them.
  void settle_adopted(bool wait) noexcept;

  ServerComms comms_;
  int rank_ = 0;
  int next_stream_ = 0;
  std::map<int, FrameHandoff*> streams_;
  OwnedSends controls_;
  std::vector<AdoptedSends> adopted_;
  bool stopped_ = false;
};

}  // namespace nwpio::detail
