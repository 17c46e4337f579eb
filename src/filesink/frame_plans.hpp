// FramePlans: how the fields of a frame reach the backend, for the two kinds of frame of a
// stream: the first frame of a file (fixed-size variables too) and the frames after it. Both
// carry every field in the file's order (the fixed-size ones, then Times and the records) and
// are built once per stream (collective): the rearranger (writers holding contiguous slabs,
// core/rearranger.hpp) or the direct plan (every rank hands its patch to the backend).
//
// Pack on put: a one-round rearranger takes each field into the writers' slabs when it is put
// (FramePlan::packs_on_put); other plans take a copy of the rank's part, in file order, when the
// caller asks for a copy (reused frame after frame).
#pragma once

#include <mpi.h>

#include <array>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backend/backend_traits.hpp"
#include "core/field_copies.hpp"
#include "core/frame_plan.hpp"
#include "core/node_slabs.hpp"
#include "core/stream_layout.hpp"
#include "nwpio/options.hpp"
#include "nwpio/statistics.hpp"

namespace nwpio::detail {

class FramePlans {
 public:
  // Collective over comm. `slabs`: the writers' slabs the rearranger stages in (null: the
  // plans make none; the direct plan needs none).
  FramePlans(MPI_Comm comm, const StreamLayout& layout, const OutputOptions& options, const BackendTraits& traits,
             const std::function<std::shared_ptr<NodeSlabs>()>& slabs);
  ~FramePlans();
  FramePlans(const FramePlans&) = delete;
  FramePlans& operator=(const FramePlans&) = delete;

  FramePlan& plan(int record) { return *plans_[kind(record)]; }
  // The sources of the plan's fields in its order, from the frame's fields by schema index.
  std::span<const FieldSource> sources(int record, std::span<const FieldSource> fields, const std::string& date);

  // Collective: the frame begins (a plan that packs on put syncs the node's slabs).
  void begin_frame(int record);
  // Local: see FrameSink::accept.
  FieldSource accept(int index, const FieldSource& source, bool copy);

  bool rearranged() const noexcept { return rearrange_; }
  bool stages_slabs() const noexcept { return plans_[0]->stages_slabs(); }
  // Whether both plans stage slabs only and hold every row of Times in rank 0's slabs (the
  // backend may then keep the file's header on rank 0: FileHints).
  bool slabs_only_times_on_rank0() const noexcept;
  void place(const SlabPlacement& placement);  // collective: both plans
  // The writers (ascending ranks) and this rank's index among them (-1: not a writer).
  const std::vector<int>& writers() const noexcept { return writers_; }
  int writer_index() const noexcept { return writer_index_; }
  NodeSlabs* slabs() const noexcept { return slabs_.get(); }
  void describe(Statistics& stats, const BackendTraits& traits) const;
  void abandon() noexcept;

 private:
  static std::size_t kind(int record) noexcept { return record == 0 ? 1 : 0; }

  const StreamLayout& layout_;
  int rank_ = 0;
  bool rearrange_ = true;
  ReorderMode reorder_ = ReorderMode::Pack;
  std::vector<int> writers_;
  int writer_index_ = -1;
  std::shared_ptr<NodeSlabs> slabs_;
  // [0] frames in an open file, [1] the first frame of a file (fixed-size variables too).
  std::array<std::unique_ptr<FramePlan>, 2> plans_;
  std::array<std::vector<int>, 2> fields_;    // schema indices in the plan's order (kTimes: Times)
  std::array<std::vector<int>, 2> position_;  // by schema index: its place in fields_, -1: none
  std::vector<FieldSource> sources_;
  FramePlan* packing_ = nullptr;              // the frame's plan when it packs on put
  int packing_record_ = 0;
  FieldCopies copies_;
  static constexpr int kTimes = -1;
};

}  // namespace nwpio::detail
