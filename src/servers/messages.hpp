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
// The message if one has arrived, else nothing (never blocks).
std::optional<std::string> try_receive_message(int source, int tag, MPI_Comm comm);

}  // namespace nwpio::detail
