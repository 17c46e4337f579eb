// Point-to-point messages of variable size between compute ranks and I/O servers: sends whose
// buffers are kept until MPI is done with them, and receives of a message whose size only the
// sender knows (MPI_Mprobe / MPI_Improbe, then MPI_Mrecv of exactly that message).
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nwpio::detail {

// Nonblocking sends that own their bytes until they complete.
class OwnedSends {
 public:
  OwnedSends() = default;
  OwnedSends(const OwnedSends&) = delete;
  OwnedSends& operator=(const OwnedSends&) = delete;
  ~OwnedSends();  // waits for what is still pending (never throws)

  void send(std::string bytes, int dest, int tag, MPI_Comm comm);
  void progress();  // forgets the sends that completed
  void wait_all();
  // Forgets the sends still pending without waiting: MPI completes them or not; their bytes
  // are left allocated (a server leaving its loop must not wait for a rank that left).
  void release() noexcept;
  bool empty() const noexcept { return items_.empty(); }

 private:
  struct Item {
    std::unique_ptr<std::string> bytes;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  std::vector<Item> items_;
};

// Blocks until a message from `source` with `tag` arrives on comm, and returns its bytes.
std::string receive_message(int source, int tag, MPI_Comm comm);

// Waiting without burning a core: MPI's blocking calls poll at full speed (Open MPI), which an
// I/O server that waits for the next frame must not do where it shares cores with the model.
// Polls freely for a short while, then sleeps between polls, from 20 us up to 1 ms.
class Backoff {
 public:
  void pause() noexcept;
  void reset() noexcept { polls_ = 0; sleep_us_ = 20; }

 private:
  int polls_ = 0;
  int sleep_us_ = 20;
};
// receive_message, waiting with a Backoff.
std::string receive_message_idle(int source, int tag, MPI_Comm comm);
// MPI_Waitall, waiting with a Backoff (receives keep moving: each poll progresses MPI).
void wait_all_idle(std::vector<MPI_Request>& requests, const char* what);
// The message if one has arrived, else nothing (never blocks).
std::optional<std::string> try_receive_message(int source, int tag, MPI_Comm comm);

}  // namespace nwpio::detail
