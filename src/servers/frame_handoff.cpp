#include "servers/frame_handoff.hpp"

#include <algorithm>

#include "core/pack.hpp"
#include "nwpio/error.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

namespace {

// All sends of a buffer completed (then its requests are cleared)?
bool sends_done(std::vector<MPI_Request>& requests) {
  if (requests.empty()) return true;
  int done = 0;
  mpi_check(MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE),
            "MPI_Testall(frame hand-off)");
  if (done) requests.clear();
  return done != 0;
}

void wait_sends(std::vector<MPI_Request>& requests) {
  if (requests.empty()) return;
  mpi_check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
            "MPI_Waitall(frame hand-off)");
  requests.clear();
}

}  // namespace

FrameHandoff::FrameHandoff(std::shared_ptr<ServerLink> link, MPI_Comm comm, const StreamDefinition& def,
                           const StreamLayout& layout, Statistics& stats)
    : link_(std::move(link)), comm_(comm), stats_(stats) {
  mpi_check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  const OutputOptions& o = def.options;
  frames_per_file_ = std::max(1, o.frames_per_file);
  in_flight_ = std::max(1, o.server_frames_in_flight);
  blocking_ = o.server_blocking_handoff;
  message_bytes_ = std::max<std::int64_t>(1, o.server_message_bytes);
  run_and_agree(comm_, [&] {
    link_->require_running("building a stream on I/O servers");
    int same = MPI_UNEQUAL;
    mpi_check(MPI_Comm_compare(comm_, link_->compute_comm(), &same), "MPI_Comm_compare");
    if (same != MPI_IDENT && same != MPI_CONGRUENT) {
      throw Error(ErrorKind::InvalidArgument, "a stream written by I/O servers must use the compute communicator "
                                              "that IoServers returned (or a duplicate of it)");
    }
    const int ns = link_->servers_per_group();
    band_layout_ = build_stream_layout(def.schema, server_grid(def.domain, ns, 0), o, BackendTraits{});
    for (int kind = 0; kind < 2; ++kind) {
      const auto k = static_cast<std::size_t>(kind);
      schema_index_[k] = frame_fields(layout, kind == 1);
      for (std::size_t f : schema_index_[k]) fields_[k].push_back({&layout.fields[f], &band_layout_.fields[f]});
      std::int64_t total = 0;
      for (int s = 0; s < ns; ++s) {
        pieces_[k].push_back(handoff_pieces(fields_[k], rank_, s));
        for (const HandoffPiece& p : pieces_[k].back()) total += p.bytes;
      }
      capacity_ = std::max(capacity_, total);
    }
  });
  groups_ = std::vector<Group>(static_cast<std::size_t>(link_->groups()));
  for (Group& g : groups_) g.buffers.resize(static_cast<std::size_t>(std::max(1, in_flight_ - 1)));

  // The servers build the same stream; every group answers.
  id_ = link_->attach(this);
  StreamDefinition sent = def;
  sent.stream = id_;
  Control c;
  c.command = Command::Define;
  c.stream = id_;
  c.definition = encode(sent);
  for (int g = 0; g < link_->groups(); ++g) link_->send_control(g, c);
  for (int g = 0; g < link_->groups(); ++g) {
    wait_for(g, [&] { return groups_[static_cast<std::size_t>(g)].defined; });
  }
  try {
    run_and_agree(comm_, [&] {
      if (failure_) throw *failure_;
    });
  } catch (const Error&) {
    closed_ = true;  // (the servers built nothing usable; they forget the stream at Close)
    Control close;
    close.command = Command::Close;
    close.stream = id_;
    for (int g = 0; g < link_->groups(); ++g) link_->send_control(g, close);
    for (int g = 0; g < link_->groups(); ++g) {
      wait_for(g, [&] { return groups_[static_cast<std::size_t>(g)].closed; });
    }
    link_->detach(id_);
    throw;
  }
}

FrameHandoff::~FrameHandoff() {
  if (!closed_) abandon();
}

void FrameHandoff::wait_for(int group, const std::function<bool()>& done) {
  link_->poll();
  while (!done()) link_->wait_ack(group);
}

void FrameHandoff::note_failure(int group, const Error& e) {
  if (failure_) return;
  // The servers agreed among themselves: "rank N: ..." names a server of the group.
  std::string text = e.what();
  std::string who = "I/O server group " + std::to_string(group);
  if (text.rfind("rank ", 0) == 0) {
    const std::size_t colon = text.find(": ");
    if (colon != std::string::npos && colon > 5 && text.find_first_not_of("0123456789", 5) == colon) {
      who += ", server " + text.substr(5, colon - 5);
      text = text.substr(colon + 2);
    }
  }
  failure_ = Error(e.kind(), who + ": " + text, true);
}

void FrameHandoff::on_ack(int group, const Ack& ack) {
  Group& g = groups_[static_cast<std::size_t>(group)];
  if (ack.error) note_failure(group, *ack.error);
  switch (ack.command) {
    case Command::Define: g.defined = true; break;
    case Command::Close: g.closed = true; break;
    case Command::Stop: break;
    case Command::Frame: {
      auto it = std::find(g.unwritten.begin(), g.unwritten.end(), ack.seq);
      if (it != g.unwritten.end()) g.unwritten.erase(it);
      auto s = stats_of_seq_.find(ack.seq);
      if (s != stats_of_seq_.end() && s->second < stats_.frames.size()) {
        FrameStats& fs = stats_.frames[s->second];
        fs.server_receive_seconds = ack.receive_seconds;
        fs.server_unpack_seconds = ack.unpack_seconds;
        fs.server_write_seconds = ack.write_seconds;
        fs.server_reported = true;
        stats_of_seq_.erase(s);
      }
      break;
    }
  }
}

void FrameHandoff::check_servers() {
  std::optional<Error> local;
  try {
    if (closed_) {
      throw Error(ErrorKind::State, "the stream was closed: a stream written by I/O servers ends at close()", true);
    }
    link_->require_running("nwpio");
    link_->poll();
    if (failed_ && failure_) {
      local = Error(ErrorKind::State,
                    std::string("the stream failed on its I/O servers earlier (") + failure_->what() + "); close() it", true);
    } else if (failure_) {
      local = failure_;
    }
  } catch (const Error& e) {
    local = e;
  }
  try {
    agree(comm_, local);
  } catch (const Error&) {
    failed_ = true;
    if (!failure_) failure_ = Error(ErrorKind::State, "the stream failed on its I/O servers", true);
    throw;
  }
}

FrameHandoff::SendBuffer& FrameHandoff::free_buffer(Group& g) {
  for (SendBuffer& b : g.buffers) {
    if (sends_done(b.requests)) return b;
  }
  // Every buffer holds a frame the servers have not taken yet: wait for the oldest one (the
  // servers take frames in order).
  SendBuffer* oldest = &g.buffers.front();
  for (SendBuffer& b : g.buffers) {
    if (b.seq < oldest->seq) oldest = &b;
  }
  wait_sends(oldest->requests);
  return *oldest;
}

FrameHandoff::Sent FrameHandoff::send(const std::string& date, bool opens_file, std::span<const FieldSource> sources,
                                      std::size_t stats_index) {
  link_->require_running("end_frame");
  const std::int64_t seq = next_seq_++;
  Sent out;
  out.group = group_of_frame(seq);
  Group& g = groups_[static_cast<std::size_t>(out.group)];

  // 1. Backpressure: the group holds at most in_flight_ unwritten frames, this one included.
  const double t0 = MPI_Wtime();
  wait_for(out.group, [&] { return static_cast<int>(g.unwritten.size()) < in_flight_; });
  SendBuffer& buffer = free_buffer(g);
  buffer.seq = seq;
  const double t1 = MPI_Wtime();
  out.backpressure_seconds = t1 - t0;

  // 2. The control first: the servers post their receives while this rank packs.
  Control c;
  c.command = Command::Frame;
  c.stream = id_;
  c.seq = seq;
  c.date = date;
  c.opens_file = opens_file;
  link_->send_control(out.group, c);
  g.unwritten.push_back(seq);
  stats_of_seq_[seq] = stats_index;

  // 3. Pack and send, message by message.
  if (!buffer.data && capacity_ > 0) {
    buffer.data = std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(capacity_));
  }
  pack_and_send(out.group, opens_file, sources, buffer);
  const double t2 = MPI_Wtime();
  out.pack_seconds = t2 - t1;
  if (blocking_) {
    wait_sends(buffer.requests);
    out.handoff_seconds = MPI_Wtime() - t2;
  }
  for (const Group& gr : groups_) {
    for (const SendBuffer& b : gr.buffers) out.buffer_bytes += b.data ? capacity_ : 0;
  }
  return out;
}

void FrameHandoff::pack_and_send(int group, bool opens_file, std::span<const FieldSource> sources, SendBuffer& buffer) {
  const auto kind = static_cast<std::size_t>(opens_file ? 1 : 0);
  const std::vector<FieldPair>& fields = fields_[kind];
  const MPI_Comm link = link_->link(group);
  std::byte* const base = buffer.data.get();
  std::int64_t region = 0;  // where this server's bytes begin in the buffer
  for (int s = 0; s < link_->servers_per_group(); ++s) {
    const std::vector<HandoffPiece>& pieces = pieces_[kind][static_cast<std::size_t>(s)];
    std::int64_t bytes = 0;
    for (const HandoffPiece& p : pieces) bytes += p.bytes;
    const MessageSplit split{bytes, message_bytes_};
    int posted = 0;
    const auto post_until = [&](std::int64_t packed) {
      for (; posted < split.count() && split.begin(posted) + split.size(posted) <= packed; ++posted) {
        MPI_Request r = MPI_REQUEST_NULL;
        mpi_check(MPI_Isend(base + region + split.begin(posted), static_cast<int>(split.size(posted)), MPI_BYTE,
                            link_->comms().link_rank_of_server(s), kTagData, link, &r),
                  "MPI_Isend(frame hand-off)");
        buffer.requests.push_back(r);
      }
    };
    std::byte* p = base + region;
    for (const HandoffPiece& piece : pieces) {
      const FieldGeometry& gc = *fields[piece.field].compute;
      p = pack_rows(gc, sources[schema_index_[kind][piece.field]], piece.box, 0, gc.rows(), p);
      post_until(p - (base + region));
    }
    post_until(bytes);
    region += bytes;
  }
}

void FrameHandoff::close() {
  if (closed_) return;
  closed_ = true;
  run_and_agree(comm_, [&] { link_->require_running("close"); });
  Control c;
  c.command = Command::Close;
  c.stream = id_;
  for (int g = 0; g < link_->groups(); ++g) link_->send_control(g, c);
  // Acks of one group arrive in order: the Close ack comes after every frame's.
  for (int g = 0; g < link_->groups(); ++g) {
    wait_for(g, [&] { return groups_[static_cast<std::size_t>(g)].closed; });
  }
  for (Group& g : groups_) {
    for (SendBuffer& b : g.buffers) wait_sends(b.requests);
  }
  link_->detach(id_);
  // Every rank holds every answer now: the same failure everywhere.
  const bool unreported = failure_ && !failed_;
  failed_ = failed_ || failure_.has_value();
  run_and_agree(comm_, [&] {
    if (unreported) throw *failure_;
  });
}

void FrameHandoff::abandon() noexcept {
  closed_ = true;
  if (link_) link_->detach(id_);
  // Sends still in flight keep their buffers: MPI reads them until the servers have received
  // them, so the link (which outlives this stream) takes them over and frees them then.
  for (Group& g : groups_) {
    for (SendBuffer& b : g.buffers) {
      if (b.requests.empty()) continue;
      try {
        if (link_) {
          link_->adopt_sends(b.data, b.requests);
          continue;
        }
      } catch (...) {
      }
      // No link, or no memory to record them: the buffer is left allocated.
      for (MPI_Request& r : b.requests) {
        if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
      }
      (void)b.data.release();
    }
  }
}

}  // namespace nwpio::detail
