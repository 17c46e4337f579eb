// Rearranger: moves every rank's pieces to the writer ranks so that each writer holds ONE
// contiguous stretch of the frame per round (whole rows of i of consecutive variables), as PIO's
// box rearranger does. The write then sees one large contiguous piece per writer instead of
// thousands of short rows per rank.
//
// The row space (RowSpace) holds every variable of the frame in file order: the fixed-size
// variables (first frame of a file), then Times and the record variables; variables without i
// and j (Z, scalar, Times) belong to rank 0. It is cut into nwriters x rounds chunks: round t,
// writer w owns chunk t * nwriters + w (the arithmetic: rearrange_plan.hpp). Every rank
// computes every other rank's pieces from the grid, so a round moves only data:
//   1. pack: one pass over the model's memory; a piece for a writer on this node goes straight
//      to its place in the writer's slab (shared memory, NodeSlabs), a piece for a writer on
//      another node into the send buffer. The pass also converts to the backend's byte order.
//   2. exchange (only when ranks span nodes): ONE MPI_Alltoallv, then the writer copies the
//      received pieces to their places in its slab.
//   3. the writer hands its slab to the backend: its chunk from the first to the last byte at
//      the backend's placement (gaps between variables zeroed), with the pieces it holds.
#pragma once

#include <mpi.h>

#include <memory>
#include <vector>

#include "backend/backend_traits.hpp"
#include "core/frame_plan.hpp"
#include "core/node_slabs.hpp"
#include "core/rearrange_plan.hpp"

namespace nwpio::detail {

struct RearrangeSetup {
  std::vector<int> writers;        // ascending ranks that write
  std::int64_t round_limit = 1;    // per rank and round: send + receive + slab bytes
  ByteOrder byte_order = ByteOrder::Native;  // how the backend wants the slab's bytes
  // Every writer gets a share of every variable, one variable per round, cut on chunk
  // boundaries (RowSpace::split_shared), for backends whose writes are collective per variable.
  bool share_each_variable = false;
  // The writers' slabs. Plans used one after the other (a file's first frame, the frames after
  // it) share one set, so that it is held once; nullptr: the plan makes its own.
  std::shared_ptr<NodeSlabs> slabs;
  NodeSlabs::Options node_options;  // for a set the plan makes itself
};

class Rearranger final : public FramePlan {
 public:
  // Collective over comm. `fields`: the row space in file order; every rank's file_boxes are set
  // (rank 0 holds the whole of a non-decomposed variable).
  Rearranger(MPI_Comm comm, std::vector<const FieldGeometry*> fields, RearrangeSetup setup);

  int rounds() const noexcept override { return plan_.rounds; }
  bool stages_slabs() const noexcept override { return true; }
  void place(const SlabPlacement& placement) override;
  bool rank0_stages(std::size_t f) const noexcept override;
  void run_round(int t, std::span<const FieldSource> sources, int record, RoundOutput& out, PhaseTimes& times) override;
  std::int64_t buffer_bytes() const noexcept override {
    return plan_.send_capacity + plan_.recv_capacity + plan_.slab_capacity;
  }
  void abandon() noexcept override { slabs_->abandon(); }
  // One round: every piece has its place before the frame's exchange, so a field is packed
  // when it is put.
  bool packs_on_put() const noexcept override { return plan_.rounds == 1; }
  void begin_pack() override { slabs_->sync(); }
  void pack_field(std::size_t f, const FieldSource& source) override;

 private:
  std::int64_t chunk(int t, int w) const noexcept { return chunk_of(t, w, nw_); }
  // The largest chunk this rank writes in a round at the current positions (0: not a writer).
  std::int64_t own_slab_bytes() const noexcept;
  // Sets positions and sizes this rank's slab (collective: NodeSlabs::reserve).
  void set_positions(RowPositions pos);
  void set_send_offsets();
  void unpack_received(std::size_t base, std::int64_t a, std::int64_t b, std::int64_t begin, std::byte* slab);
  void hand_over(int record, std::int64_t a, std::int64_t b, std::int64_t begin, std::byte* slab, RoundOutput& out);

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  RearrangeSetup setup_;
  RowSpace space_;
  std::shared_ptr<NodeSlabs> slabs_;
  int nw_ = 1;
  int my_writer_ = -1;  // index into writers, -1 if this rank does not write
  bool exchange_ = false;  // some pieces cross nodes (the same on every rank)
  RankRounds plan_;
  RowPositions pos_;
  std::unique_ptr<std::byte[]> send_, recv_;    // allocated once, reused
  std::vector<std::int64_t> send_offset_;        // one round: [writer * fields + f], see set_send_offsets
};

}  // namespace nwpio::detail
