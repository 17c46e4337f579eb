// The two frame plans of a stream (frame_plans.hpp).
#include "filesink/frame_plans.hpp"

#include <algorithm>

#include "core/direct_plan.hpp"
#include "core/rearranger.hpp"
#include "util/agree.hpp"

namespace nwpio::detail {

namespace {

// N writer ranks spread evenly over the communicator (rank i * size / N).
std::vector<int> spread_writers(int requested, int size) {
  const int n = requested <= 0 ? size : std::min(requested, size);
  std::vector<int> w;
  for (int i = 0; i < n; ++i) w.push_back(static_cast<int>(static_cast<std::int64_t>(i) * size / n));
  return w;
}

// GatherMode::Auto and ReorderMode::Auto: the faster choices measured (docs/PERFORMANCE.md).
// The rearranger writes each writer's stretch of the file as it is, already in the backend's
// byte order, for every decomposition measured (split along x, along y, one rank).
GatherMode resolve_gather(GatherMode g) { return g == GatherMode::Auto ? GatherMode::Rearrange : g; }
ReorderMode resolve_reorder(ReorderMode r) { return r == ReorderMode::Auto ? ReorderMode::Pack : r; }

}  // namespace

FramePlans::FramePlans(MPI_Comm comm, const StreamLayout& layout, const OutputOptions& options,
                       const BackendTraits& traits, const std::function<std::shared_ptr<NodeSlabs>()>& slabs)
    : layout_(layout), copies_(layout, [&] {
        int r = 0;
        MPI_Comm_rank(comm, &r);
        return r;
      }()) {
  int size = 1;
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &size);
  // A backend whose writes are collective per variable needs the writers' shares of every
  // variable (the direct plan would hand it patches that split chunks between ranks).
  const GatherMode gather =
      traits.parallel && !traits.shares_each_variable ? resolve_gather(options.gather) : GatherMode::Rearrange;
  rearrange_ = gather == GatherMode::Rearrange;
  reorder_ = resolve_reorder(options.reorder);
  writers_ = traits.parallel ? spread_writers(options.writer_ranks, size) : std::vector<int>{0};
  if (!rearrange_) writers_ = spread_writers(0, size);  // direct: every rank writes its own
  const auto me = std::find(writers_.begin(), writers_.end(), rank_);
  writer_index_ = me == writers_.end() ? -1 : static_cast<int>(me - writers_.begin());
  // Both plans carry every field of their frame in the file's order.
  for (std::size_t kind = 0; kind < 2; ++kind) {
    std::vector<int>& ids = fields_[kind];
    if (kind == 1) {
      for (const FieldGeometry& g : layout.fields) {
        if (!g.record) ids.push_back(g.schema_index);
      }
    }
    ids.push_back(kTimes);
    for (const FieldGeometry& g : layout.fields) {
      if (g.record) ids.push_back(g.schema_index);
    }
    position_[kind].assign(layout.fields.size(), -1);
    for (std::size_t f = 0; f < ids.size(); ++f) {
      if (ids[f] != kTimes) position_[kind][static_cast<std::size_t>(ids[f])] = static_cast<int>(f);
    }
  }
  RearrangeSetup setup;
  setup.writers = writers_;
  setup.round_limit = traits.parallel ? options.max_round_bytes : options.serial_chunk_bytes;
  setup.byte_order = traits.byte_order;
  setup.share_each_variable = traits.shares_each_variable;
  run_and_agree(comm, [&] {
    if (rearrange_) {
      slabs_ = slabs();
      setup.slabs = slabs_;
    }
    for (std::size_t kind = 0; kind < 2; ++kind) {
      std::vector<const FieldGeometry*> fields;
      for (int index : fields_[kind]) {
        fields.push_back(index == kTimes ? &layout.times : &layout.fields[static_cast<std::size_t>(index)]);
      }
      if (rearrange_) {
        plans_[kind] = std::make_unique<Rearranger>(comm, std::move(fields), setup);
      } else {
        plans_[kind] = std::make_unique<DirectPlan>(comm, std::move(fields), reorder_, options.max_round_bytes);
      }
    }
  });
}

FramePlans::~FramePlans() = default;

std::span<const FieldSource> FramePlans::sources(int record, std::span<const FieldSource> fields,
                                                 const std::string& date) {
  const std::vector<int>& ids = fields_[kind(record)];
  sources_.resize(ids.size());
  for (std::size_t f = 0; f < ids.size(); ++f) {
    sources_[f] = ids[f] == kTimes ? FieldSource{date.data(), layout_.times.memory} : fields[static_cast<std::size_t>(ids[f])];
  }
  return sources_;
}

void FramePlans::begin_frame(int record) {
  // A one-round plan takes every field as it is put (begin_pack orders this node's ranks after
  // their writers' last hand-over, and after any background write of their slabs).
  FramePlan& p = plan(record);
  packing_ = p.packs_on_put() ? &p : nullptr;
  packing_record_ = record;
  if (packing_) packing_->begin_pack();
}

FieldSource FramePlans::accept(int index, const FieldSource& source, bool copy) {
  if (!copy) return source;
  const int f = packing_ ? position_[kind(packing_record_)][static_cast<std::size_t>(index)] : -1;
  if (f < 0) return copies_.copy(index, source);
  packing_->pack_field(static_cast<std::size_t>(f), source);
  static constexpr std::byte kPacked{};
  return {&kPacked, {}, true};  // non-null: the field was put
}

bool FramePlans::slabs_only_times_on_rank0() const noexcept {
  if (!rearrange_) return false;
  for (std::size_t kind = 0; kind < 2; ++kind) {
    const std::vector<int>& ids = fields_[kind];
    const auto times = static_cast<std::size_t>(std::find(ids.begin(), ids.end(), kTimes) - ids.begin());
    if (!plans_[kind]->stages_slabs() || !plans_[kind]->rank0_stages(times)) return false;
  }
  return true;
}

void FramePlans::place(const SlabPlacement& placement) {
  for (auto& p : plans_) p->place(placement);
}

void FramePlans::describe(Statistics& stats, const BackendTraits& traits) const {
  stats.backend = traits.name;
  stats.gather = !rearrange_ ? "direct" : traits.shares_each_variable ? "rearrange-per-variable" : "rearrange";
  stats.reorder = rearrange_ ? "pack" : reorder_ == ReorderMode::Pack ? "pack" : "datatype";
  stats.writer_ranks = static_cast<int>(writers_.size());
}

void FramePlans::abandon() noexcept {
  for (auto& p : plans_) {
    if (p) p->abandon();  // their shared windows are freed collectively: not now
  }
}

}  // namespace nwpio::detail
