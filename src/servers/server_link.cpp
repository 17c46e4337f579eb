#include "servers/server_link.hpp"

#include "servers/frame_handoff.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

ServerLink::ServerLink(ServerComms comms) : comms_(std::move(comms)) {
  mpi_check(MPI_Comm_rank(comms_.compute, &rank_), "MPI_Comm_rank");
}

ServerLink::~ServerLink() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  try {
    controls_.wait_all();
  } catch (...) {
  }
  settle_adopted(true);
  comms_.release();
}

int ServerLink::attach(FrameHandoff* stream) {
  const int id = next_stream_++;
  streams_[id] = stream;
  return id;
}

void ServerLink::detach(int stream) noexcept { streams_.erase(stream); }

void ServerLink::adopt_sends(std::unique_ptr<std::byte[]>& buffer, std::vector<MPI_Request>& requests) {
  AdoptedSends& a = adopted_.emplace_back();
  a.buffer = std::move(buffer);
  a.requests = std::move(requests);
  requests.clear();
}

void ServerLink::settle_adopted(bool wait) noexcept {
  std::erase_if(adopted_, [wait](AdoptedSends& a) {
    const int n = static_cast<int>(a.requests.size());
    int completed = 0;
    const int rc = wait ? MPI_Waitall(n, a.requests.data(), MPI_STATUSES_IGNORE)
                        : MPI_Testall(n, a.requests.data(), &completed, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS) {
      // MPI could not complete them: the buffer stays allocated, never freed under MPI.
      (void)a.buffer.release();
      return true;
    }
    return wait || completed != 0;
  });
}

void ServerLink::send_control(int group, const Control& control) {
  controls_.progress();
  if (rank_ != 0) return;
  const std::string bytes = encode(control);
  for (int s = 0; s < servers_per_group(); ++s) {
    controls_.send(bytes, comms_.link_rank_of_server(s), kTagControl, link(group));
  }
}

Command ServerLink::dispatch(int group, const std::string& bytes) {
  const Ack ack = decode_ack(bytes);
  if (ack.command == Command::Stop) return ack.command;
  auto it = streams_.find(ack.stream);
  if (it != streams_.end()) it->second->on_ack(group, ack);  // else: a stream abandoned earlier
  return ack.command;
}

void ServerLink::poll() {
  controls_.progress();
  settle_adopted(false);
  for (int g = 0; g < groups(); ++g) {
    while (auto bytes = try_receive_message(comms_.link_rank_of_server(0), kTagAck, link(g))) dispatch(g, *bytes);
  }
}

Command ServerLink::wait_ack(int group) {
  return dispatch(group, receive_message(comms_.link_rank_of_server(0), kTagAck, link(group)));
}

void ServerLink::require_running(std::string_view what) const {
  if (stopped_) throw Error(ErrorKind::State, std::string(what) + ": the I/O servers were stopped already");
}

void ServerLink::stop(bool all_wait) {
  if (stopped_) return;
  stopped_ = true;
  Control c;
  c.command = Command::Stop;
  for (int g = 0; g < groups(); ++g) send_control(g, c);
  // Every group answers Stop last: after its answer nothing of the servers is in flight.
  for (int g = 0; g < groups() && (all_wait || rank_ == 0); ++g) {
    while (wait_ack(g) != Command::Stop) {
    }
  }
  controls_.wait_all();
  settle_adopted(true);
}

}  // namespace nwpio::detail
