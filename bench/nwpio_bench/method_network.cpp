// The network ceiling ("network"): the bytes nwpio's rearranger moves between nodes for one
// frame, between the same ranks, with plain MPI and nothing else: no pack, no node-slab
// synchronisation, no file. It is the reference for nwpio's exchange phase (FrameStats'
// exchange seconds) across nodes: both move the same bytes, so the ratio of their times is the
// ratio of their rates. On one node nothing crosses a node boundary and the method moves
// nothing.
//
// The plan is nwpio's own arithmetic (core/rearrange_plan.hpp) for a frame after a file's first
// (Times and the record variables, in file order), one round, every rank a writer (nwpio's
// default); ranks share a node when MPI_COMM_TYPE_SHARED puts them together, as in NodeSlabs.
// The bytes go as one nonblocking send and receive per peer that has any, then one waitall:
// the plainest way MPI offers, without a collective's algorithm in between.
#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "core/rearrange_plan.hpp"
#include "core/row_space.hpp"
#include "core/stream_layout.hpp"
#include "method.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::bench {
namespace {

using detail::mpi_check;

// node_of[r]: the lowest world rank on rank r's node.
std::vector<int> nodes_of(MPI_Comm comm, int rank, int size) {
  MPI_Comm node = MPI_COMM_NULL;
  mpi_check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int leader = rank;
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, node), "MPI_Allreduce(node leader)");
  MPI_Comm_free(&node);
  std::vector<int> all(static_cast<std::size_t>(size));
  mpi_check(MPI_Allgather(&leader, 1, MPI_INT, all.data(), 1, MPI_INT, comm), "MPI_Allgather(nodes)");
  return all;
}

class NetworkMethod final : public Method {
 public:
  std::string name() const override { return "network"; }
  bool writes_netcdf() const override { return false; }

  void prepare(const CaseContext& ctx, int) override {
    layout_ = detail::build_stream_layout(ctx.bench_case->schema, detail::Grid::of(*ctx.decomposition), OutputOptions{},
                                          detail::BackendTraits{});
    std::vector<const detail::FieldGeometry*> fields{&layout_.times};
    for (const auto& g : layout_.fields) {
      if (g.record) fields.push_back(&g);
    }
    detail::RowSpace space(std::move(fields));
    std::vector<int> writers(static_cast<std::size_t>(ctx.size));
    for (int r = 0; r < ctx.size; ++r) writers[static_cast<std::size_t>(r)] = r;
    space.split(ctx.size);
    const auto pos = detail::RowPositions::compact(space);
    plan_ = detail::plan_rank(space, pos, writers, nodes_of(ctx.comm, ctx.rank, ctx.size), ctx.rank, 1);
    send_.reset(new std::byte[static_cast<std::size_t>(std::max<std::int64_t>(plan_.send_capacity, 1))]);
    recv_.reset(new std::byte[static_cast<std::size_t>(std::max<std::int64_t>(plan_.recv_capacity, 1))]);
    // Touched once, so that the timed frames pay for no page fault (nwpio's buffers are reused
    // from frame to frame too).
    std::memset(send_.get(), 1, static_cast<std::size_t>(std::max<std::int64_t>(plan_.send_capacity, 1)));
    std::memset(recv_.get(), 0, static_cast<std::size_t>(std::max<std::int64_t>(plan_.recv_capacity, 1)));
    bytes_ = 0;
    for (int c : plan_.send_counts) bytes_ += c;
  }

  void run(const CaseContext& ctx, int) override {
    requests_.clear();
    post(ctx, plan_.recv_counts, plan_.recv_displs, recv_.get(), MPI_Irecv, "MPI_Irecv");
    post(ctx, plan_.send_counts, plan_.send_displs, send_.get(), MPI_Isend, "MPI_Isend");
    mpi_check(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

  RunOutcome finish(const CaseContext& ctx) override {
    RunOutcome out;
    mpi_check(MPI_Allreduce(&bytes_, &out.bytes, 1, MPI_INT64_T, MPI_SUM, ctx.comm), "MPI_Allreduce(bytes)");
    out.buffer_bytes = plan_.send_capacity + plan_.recv_capacity;
    mpi_check(MPI_Allreduce(MPI_IN_PLACE, &out.buffer_bytes, 1, MPI_INT64_T, MPI_MAX, ctx.comm), "MPI_Allreduce");
    out.mode = "the rearranger's bytes between nodes (record variables, one round, every rank a writer), "
               "MPI_Isend/MPI_Irecv per peer, no file";
    send_.reset();
    recv_.reset();
    return out;
  }

 private:
  // One nonblocking call (MPI_Irecv or MPI_Isend) per peer with bytes to move.
  template <class Buffer, class Call>
  void post(const CaseContext& ctx, const std::vector<int>& counts, const std::vector<int>& displs, Buffer* base,
            Call call, const char* what) {
    for (int r = 0; r < ctx.size; ++r) {
      const auto i = static_cast<std::size_t>(r);
      if (counts[i] == 0) continue;
      requests_.emplace_back(MPI_REQUEST_NULL);
      mpi_check(call(base + displs[i], counts[i], MPI_BYTE, r, 0, ctx.comm, &requests_.back()), what);
    }
  }

  detail::StreamLayout layout_;
  detail::RankRounds plan_;
  std::int64_t bytes_ = 0;
  std::unique_ptr<std::byte[]> send_, recv_;
  std::vector<MPI_Request> requests_;
};

}  // namespace

std::unique_ptr<Method> make_network_method() { return std::make_unique<NetworkMethod>(); }

}  // namespace nwpio::bench
