// The I/O servers' service loop: every server of a group takes compute rank 0's controls in
// order (so the group's servers make the same collective calls) and handles them one at a
// time; server 0 of the group answers every compute rank. It returns at Stop, after closing
// any stream the compute ranks left open (their frames are complete: the files are committed).
//
// Frames are handled one after the other: receive (the receives are posted when the control
// arrives, while the compute ranks pack), copy into the band arrays, write. While a server
// writes, the next frame waits in the compute ranks' send buffers (MPI moves nothing of it
// until the server's next MPI call: measured, docs/IO_SERVERS.md).
#pragma once

#include <map>
#include <memory>

#include "core/test_hooks.hpp"
#include "servers/messages.hpp"
#include "servers/server_comms.hpp"
#include "servers/server_stream.hpp"

namespace nwpio::detail {

class ServiceLoop {
 public:
  ServiceLoop(const ServerComms& comms, std::shared_ptr<TestHooks> hooks);
  // Runs until Stop. Throws only when MPI itself fails.
  void run();
  // Peak bytes of the shared scratch (received frames and band arrays).
  std::int64_t scratch_bytes() const noexcept { return scratch_.bytes(); }

 private:
  void answer(const Ack& ack);

  const ServerComms& comms_;
  MPI_Comm link_ = MPI_COMM_NULL;
  std::shared_ptr<TestHooks> hooks_;
  std::map<int, std::unique_ptr<ServerStream>> streams_;
  ServerScratch scratch_;
  OwnedSends acks_;
};

}  // namespace nwpio::detail
