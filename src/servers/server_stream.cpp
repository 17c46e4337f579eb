#include "servers/server_stream.hpp"

#include "api/stream_context.hpp"

#include <algorithm>
#include <new>

#include "core/pack.hpp"
#include "servers/messages.hpp"
#include "nwpio/stream_builder.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

std::byte* ServerScratch::grow(std::unique_ptr<std::byte[]>& p, std::int64_t& capacity, std::int64_t bytes) {
  if (bytes > capacity) {
    p.reset();
    capacity = 0;
    p = std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(bytes));
    capacity = bytes;
  }
  return p.get();
}

ServerStream::ServerStream(const std::string& definition, const ServerComms& comms, std::shared_ptr<TestHooks> hooks)
    : comms_(comms), link_(comms.links[static_cast<std::size_t>(comms.group)]) {
  try {
    // The plan: local and deterministic, but agreed so that all servers go on alike.
    run_and_agree(comms_.servers, [&] {
      def_ = decode_stream_definition(definition);
      message_bytes_ = std::max<std::int64_t>(1, def_.options.server_message_bytes);
      const int ns = comms_.roles.per_group;
      const Grid band_grid = server_grid(def_.domain, ns, comms_.index);
      band_ = band_grid.memory;
      compute_layout_ = build_stream_layout(def_.schema, Grid{def_.domain, band_, def_.patches}, def_.options, BackendTraits{});
      band_layout_ = build_stream_layout(def_.schema, band_grid, def_.options, BackendTraits{});
      for (int kind = 0; kind < 2; ++kind) {
        const auto k = static_cast<std::size_t>(kind);
        schema_index_[k] = frame_fields(compute_layout_, kind == 1);
        for (std::size_t f : schema_index_[k]) {
          fields_[k].push_back({&compute_layout_.fields[f], &band_layout_.fields[f]});
        }
        for (int r = 0; r < comms_.roles.compute_ranks; ++r) {
          pieces_[k].push_back(handoff_pieces(fields_[k], r, comms_.index));
          std::int64_t bytes = 0;
          for (const HandoffPiece& p : pieces_[k].back()) bytes += p.bytes;
          from_[k].push_back(bytes);
          total_[k] += bytes;
        }
      }
      for (const FieldGeometry& g : band_layout_.fields) {
        band_offset_.push_back(band_bytes_);
        const std::int64_t bytes = memory_elements(g, band_) * static_cast<std::int64_t>(g.elem);
        band_bytes_ += (bytes + 63) / 64 * 64;  // each array on its own cache lines
      }
    });
    // The stream itself: an ordinary Writer over the group's servers.
    OutputOptions o = def_.options;
    o.print_timing = false;  // the compute ranks print the model's line
    o.stats_json.clear();    // the compute ranks write the statistics, the servers' times included
    o.iofields_file.clear(); // applied by the compute ranks already
    o.write_behind = false;  // the servers' write time is reported: the frame is in the file
    StreamBuilder b(comms_.servers, o);
    set_stream_context(b, {std::move(hooks), nullptr, nullptr});
    b.set_domain(Decomposition::from_wrf(comms_.servers, server_band_bounds(def_.domain, comms_.roles.per_group, comms_.index)));
    for (const DimSpec& d : def_.schema.dimensions()) b.add_dimension(d.name, d.length);
    for (const VarSpec& v : def_.schema.variables()) b.add_variable(v);
    for (const Attribute& a : def_.schema.global_attributes()) b.set_global_attribute(a);
    writer_ = std::make_unique<Writer>(b.build());
  } catch (const Error& e) {
    error_ = e;
  }
}

ServerStream::~ServerStream() = default;

void ServerStream::receive(int kind, std::byte* into) {
  const auto k = static_cast<std::size_t>(kind);
  std::vector<MPI_Request> requests;
  std::int64_t at = 0;
  for (int r = 0; r < comms_.roles.compute_ranks; ++r) {
    const MessageSplit split{from_[k][static_cast<std::size_t>(r)], message_bytes_};
    for (int m = 0; m < split.count(); ++m) {
      MPI_Request q = MPI_REQUEST_NULL;
      mpi_check(MPI_Irecv(into + at + split.begin(m), static_cast<int>(split.size(m)), MPI_BYTE, r, kTagData, link_, &q),
                "MPI_Irecv(frame hand-off)");
      requests.push_back(q);
    }
    at += split.bytes;
  }
  wait_all_idle(requests, "MPI_Testall(frame hand-off)");
}

void ServerStream::drain(int kind) {
  const auto k = static_cast<std::size_t>(kind);
  std::vector<std::byte> one(static_cast<std::size_t>(message_bytes_));
  for (int r = 0; r < comms_.roles.compute_ranks; ++r) {
    const MessageSplit split{from_[k][static_cast<std::size_t>(r)], message_bytes_};
    for (int m = 0; m < split.count(); ++m) {
      mpi_check(MPI_Recv(one.data(), static_cast<int>(split.size(m)), MPI_BYTE, r, kTagData, link_, MPI_STATUS_IGNORE),
                "MPI_Recv(frame hand-off)");
    }
  }
}

void ServerStream::unpack(int kind, const std::byte* from, std::byte* bands) {
  const auto k = static_cast<std::size_t>(kind);
  for (const std::vector<HandoffPiece>& pieces : pieces_[k]) {
    for (const HandoffPiece& p : pieces) {
      const FieldGeometry& g = *fields_[k][p.field].server;
      from = unpack_rows(g, bands + band_offset_[schema_index_[k][p.field]], g.memory, p.box, from);
    }
  }
}

void ServerStream::write(const Control& c, std::byte* bands, Ack& ack) {
  const auto k = static_cast<std::size_t>(c.opens_file ? 1 : 0);
  writer_->begin_frame(c.date);
  for (std::size_t f : schema_index_[k]) {
    const VarSpec& v = def_.schema.variables()[f];
    try {
      writer_->put(v.name, ArrayView{bands + band_offset_[f], v.type, std::nullopt, std::nullopt, false});
    } catch (const Error&) {
      // put() failed on this server; end_frame raises it on every server.
    }
  }
  writer_->end_frame();
  const FrameStats& fs = writer_->statistics().frames.back();
  ack.file = fs.file;
  ack.write_seconds = fs.total_seconds;
}

Ack ServerStream::frame(const Control& c, ServerScratch& scratch) {
  Ack ack;
  ack.command = Command::Frame;
  ack.stream = c.stream;
  ack.seq = c.seq;
  const int kind = c.opens_file ? 1 : 0;
  const double t0 = MPI_Wtime();
  std::byte* received = nullptr;
  std::byte* bands = nullptr;
  std::optional<Error> local;
  try {
    received = scratch.received(total_[static_cast<std::size_t>(kind)]);
    bands = scratch.bands(band_bytes_);
  } catch (const std::bad_alloc&) {
    local = Error(ErrorKind::Io, "I/O server: no memory for a frame of " +
                                     std::to_string(total_[static_cast<std::size_t>(kind)] + band_bytes_) + " bytes");
  }
  if (local) {
    drain(kind);  // every compute rank's sends must complete
  } else {
    receive(kind, received);
  }
  const double t1 = MPI_Wtime();
  try {
    agree(comms_.servers, local);
  } catch (const Error& e) {
    if (!error_) ack.error = e;
    error_ = e;
    return ack;
  }
  if (error_ || !writer_) {
    ack.skipped = true;
    return ack;
  }
  unpack(kind, received, bands);
  const double t2 = MPI_Wtime();
  try {
    write(c, bands, ack);
  } catch (const Error& e) {
    error_ = e;
    ack.error = e;
  }
  double times[2] = {t1 - t0, t2 - t1};
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, times, 2, MPI_DOUBLE, MPI_MAX, comms_.servers), "MPI_Allreduce(server times)");
  ack.receive_seconds = times[0];
  ack.unpack_seconds = times[1];
  if (ack.write_seconds == 0) ack.write_seconds = MPI_Wtime() - t2;
  return ack;
}

Ack ServerStream::close(const Control& c) {
  Ack ack;
  ack.command = Command::Close;
  ack.stream = c.stream;
  if (!writer_) return ack;
  try {
    writer_->close();
  } catch (const Error& e) {
    if (!error_) ack.error = e;
    error_ = e;
  }
  writer_.reset();
  return ack;
}

}  // namespace nwpio::detail
