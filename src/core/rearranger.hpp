// Rearranger: moves every rank's pieces to the writer ranks so that each writer holds ONE
// contiguous stretch of the file per round (whole rows of i of consecutive variables), as PIO's
// box rearranger does. The write then sees one large contiguous piece per writer instead of
// thousands of short rows per rank.
//
// The row space (RowSpace) holds every variable of the frame in file order: the fixed-size
// variables (first frame of a file), then Times and the record variables; variables without i
// and j (Z, scalar, Times) belong to rank 0. It is cut into nwriters x rounds chunks: round t,
// writer w owns chunk t * nwriters + w. Every rank computes every other rank's pieces from the
// decomposition, so a round moves only data:
//   1. pack: one pass over the model's memory; a piece for a writer on this node goes straight
//      to its place in the writer's slab (shared memory, NodeSlabs), a piece for a writer on
//      another node into the send buffer. With file_bytes the pass also converts to big-endian.
//   2. exchange (only when ranks span nodes): ONE MPI_Alltoallv, then the writer copies the
//      received pieces to their places in its slab.
//   3. the writer's slab is either file bytes (PnetCDF: written as they are at the chunk's file
//      offset, netCDF's padding zeroed) or requests per variable piece (serial netCDF).
// The number of rounds is the smallest for which no rank stages more than round_limit bytes
// (send + receive + slab) and no MPI count exceeds INT_MAX.
#pragma once

#include <mpi.h>

#include <memory>
#include <vector>

#include "core/frame_plan.hpp"
#include "core/node_slabs.hpp"
#include "core/row_space.hpp"

namespace nwpio::detail {

struct RearrangeSetup {
  std::vector<int> writers;        // ascending ranks that write
  std::int64_t round_limit = 1;    // per rank and round: send + receive + slab bytes
  bool file_bytes = false;         // slabs are big-endian file bytes at file offsets (else requests)
  // The writers' slabs. Plans used one after the other (a file's first frame, the frames after
  // it) share one set, so that it is held once; nullptr: the plan makes its own, with
  // `shared_memory` saying whether ranks on a writer's node write straight into its slab.
  std::shared_ptr<NodeSlabs> slabs;
  bool shared_memory = true;
};

class Rearranger final : public FramePlan {
 public:
  // Collective over comm. `fields`: the row space in file order; every rank's file_boxes are set
  // (rank 0 holds the whole of a non-decomposed variable).
  Rearranger(MPI_Comm comm, std::vector<const FieldGeometry*> fields, RearrangeSetup setup);

  int rounds() const noexcept override { return rounds_; }
  bool carries_all_variables() const noexcept override { return true; }
  bool writes_file_bytes() const noexcept override { return setup_.file_bytes; }
  std::pair<int, int> times_writer() const noexcept override { return times_writer_; }
  void place(const FileOffsets& offsets) override;
  void run_round(int t, std::span<const void* const> data, int record, RequestList& out, PhaseTimes& times) override;
  std::int64_t buffer_bytes() const noexcept override { return send_capacity_ + recv_capacity_ + slab_capacity_; }
  std::int64_t max_round_write_bytes() const noexcept override { return slab_capacity_; }
  void abandon() noexcept override { slabs_->abandon(); }

 private:
  std::int64_t chunk(int t, int w) const noexcept { return static_cast<std::int64_t>(t) * nw_ + w; }
  // Where row r of field f lies (compact: fields back to back; file bytes: file offsets, record 0).
  std::int64_t row_pos(std::size_t f, std::int64_t r) const noexcept {
    return pos_[f] + r * space_[f].g->row_bytes();
  }
  // [begin, end) of chunk c in those positions.
  std::int64_t chunk_pos_begin(std::int64_t c) const noexcept;
  std::int64_t chunk_pos_end(std::int64_t c) const noexcept;
  // This writer's slab in round t: its chunk from first to last byte, padding included.
  std::int64_t slab_bytes(int t) const noexcept {
    return chunk_pos_end(chunk(t, my_writer_)) - chunk_pos_begin(chunk(t, my_writer_));
  }
  // Plans `rounds` rounds; returns the staging this rank then holds (send + receive + slab).
  std::int64_t plan(int rounds);
  // Sets positions and sizes this rank's slab (collective: NodeSlabs::reserve).
  void set_positions(std::vector<std::int64_t> pos, std::int64_t record_size);

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  RearrangeSetup setup_;
  RowSpace space_;
  std::shared_ptr<NodeSlabs> slabs_;
  int nw_ = 1;
  int my_writer_ = -1;  // index into writers, -1 if this rank does not write
  int rounds_ = 1;
  bool exchange_ = false;  // some pieces cross nodes (the same on every rank)
  std::pair<int, int> times_writer_{0, 0};  // round and rank whose chunk holds Times
  std::vector<std::int64_t> pos_;
  std::int64_t record_size_ = 0;
  std::vector<int> send_counts_, send_displs_;  // rounds x size, pieces for writers on other nodes
  std::vector<int> recv_counts_, recv_displs_;  // rounds x size, pieces from ranks on other nodes
  std::int64_t send_capacity_ = 0, recv_capacity_ = 0, slab_capacity_ = 0;
  std::unique_ptr<std::byte[]> send_, recv_;    // allocated once, reused
};

}  // namespace nwpio::detail
