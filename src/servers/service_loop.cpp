#include "servers/service_loop.hpp"

#include "util/mpi_call.hpp"

namespace nwpio::detail {

ServiceLoop::ServiceLoop(const ServerComms& comms, std::shared_ptr<TestHooks> hooks)
    : comms_(comms), link_(comms.links[static_cast<std::size_t>(comms.group)]), hooks_(std::move(hooks)) {}

void ServiceLoop::answer(const Ack& ack) {
  acks_.progress();
  if (comms_.index != 0) return;
  const std::string bytes = encode(ack);
  for (int r = 0; r < comms_.roles.compute_ranks; ++r) acks_.send(bytes, r, kTagAck, link_);
}

void ServiceLoop::run() {
  for (;;) {
    const Control c = decode_control(receive_message_idle(0, kTagControl, link_));
    switch (c.command) {
      case Command::Define: {
        auto stream = std::make_unique<ServerStream>(c.definition, comms_, hooks_);
        Ack ack;
        ack.command = Command::Define;
        ack.stream = c.stream;
        ack.error = stream->error();
        streams_[c.stream] = std::move(stream);
        answer(ack);
        break;
      }
      case Command::Frame: {
        auto it = streams_.find(c.stream);
        if (it == streams_.end()) {
          Ack ack;
          ack.stream = c.stream;
          ack.seq = c.seq;
          ack.error = Error(ErrorKind::Internal, "I/O server: frame of an unknown stream " + std::to_string(c.stream));
          answer(ack);
          break;
        }
        answer(it->second->frame(c, scratch_));
        break;
      }
      case Command::Close: {
        Ack ack;
        ack.command = Command::Close;
        ack.stream = c.stream;
        auto it = streams_.find(c.stream);
        if (it != streams_.end()) {
          ack = it->second->close(c);
          streams_.erase(it);
        }
        answer(ack);
        break;
      }
      case Command::Stop: {
        // Streams the compute ranks did not close (abandoned after an error): their frames are
        // complete, so they are closed as close() would.
        for (auto& [id, stream] : streams_) {
          Control close;
          close.command = Command::Close;
          close.stream = id;
          (void)stream->close(close);
        }
        streams_.clear();
        Ack ack;
        ack.command = Command::Stop;
        answer(ack);
        // Compute ranks that stopped the servers from a destructor do not wait for this answer.
        acks_.progress();
        acks_.release();
        return;
      }
    }
  }
}

}  // namespace nwpio::detail
