#include "plan_memory.hpp"

#include <algorithm>

#include "core/pack.hpp"
#include "core/rearrange_plan.hpp"
#include "core/row_space.hpp"

namespace nwpio::check {

std::int64_t rank_memory_bytes(const RankStaging& s, const MemoryRules& rules) {
  // MPI-IO and the libraries, once; a rank that opens no file only the MPI library's buffers.
  std::int64_t bytes = rules.every_rank_opens || s.writer ? rules.fixed_bytes : rules.fixed_bytes_no_file;
  bytes += s.send_first + s.recv_first;                         // the first-frame plan's exchange buffers
  if (rules.later_frames) bytes += s.send_later + s.recv_later;  // and the later frames' plan's
  if (s.writer) bytes += s.slab * rules.slabs_in_flight;        // the slab(s) it writes from
  if (rules.front_end_copies && !rules.plan_packs_on_put) bytes += s.patch;  // fields copied at put, held to end_frame
  if (rules.collective_buffering && s.aggregator) bytes += rules.cb_buffer_size;  // MPI-IO two-phase
  return bytes;
}

namespace {

using detail::FieldGeometry;

// The Writer's writer ranks: `requested` spread evenly over `size` ranks, rank i * size / n
// (src/core/writer.cpp, spread_writers); 0 = every rank.
std::vector<int> spread(int requested, int size) {
  const int n = requested <= 0 ? size : std::min(requested, size);
  std::vector<int> w;
  for (int i = 0; i < n; ++i) w.push_back(static_cast<int>(static_cast<std::int64_t>(i) * size / n));
  return w;
}

// The fields of the Writer's two plans, in its order: a file's first frame (the variables
// without Time, Times, the records) and the frames after it (Times, the records).
std::vector<const FieldGeometry*> plan_fields(const detail::StreamLayout& layout, bool first_frame) {
  std::vector<const FieldGeometry*> fields;
  if (first_frame) {
    for (const FieldGeometry& g : layout.fields) {
      if (!g.record) fields.push_back(&g);
    }
  }
  fields.push_back(&layout.times);
  for (const FieldGeometry& g : layout.fields) {
    if (g.record) fields.push_back(&g);
  }
  return fields;
}

struct PlanStaging {
  int rounds = 1;
  struct Capacities {
    std::int64_t send = 0, recv = 0, slab = 0;  // RankRounds' capacities (slab at compact positions)
  };
  std::vector<Capacities> ranks;
  std::vector<std::int64_t> placed_slab;  // by rank: largest chunk at the file's offsets
};

// One plan as every rank of the Rearranger computes it (its constructor and place()).
PlanStaging rearranged(std::vector<const FieldGeometry*> fields, const std::vector<int>& writers,
                       const std::vector<int>& node_of, std::int64_t limit, bool share_each_variable,
                       const detail::SlabPlacement& placement) {
  const int size = static_cast<int>(node_of.size());
  const int nw = static_cast<int>(writers.size());
  detail::RowSpace space(fields);
  const detail::RowPositions compact = detail::RowPositions::compact(space);
  PlanStaging out;
  const auto worst = [&](int rounds) {
    std::int64_t most = 0;
    for (int r = 0; r < size; ++r) most = std::max(most, detail::plan_rank(space, compact, writers, node_of, r, rounds).staging());
    return most;
  };
  if (share_each_variable) {
    out.rounds = space.split_shared(nw, limit);
  } else {
    out.rounds = detail::choose_rounds(space, nw, limit, [&](int rounds) {
                   space.split(static_cast<std::int64_t>(nw) * rounds);
                   return worst(rounds);
                 }).rounds;
  }
  detail::RowPositions placed;
  for (std::size_t f = 0; f < space.size(); ++f) {
    placed.field_begin.push_back(placement.var_begin[static_cast<std::size_t>(space[f].g->varid)]);
  }
  out.placed_slab.assign(static_cast<std::size_t>(size), 0);
  for (int r = 0; r < size; ++r) {
    const detail::RankRounds rr = detail::plan_rank(space, compact, writers, node_of, r, out.rounds);
    out.ranks.push_back({rr.send_capacity, rr.recv_capacity, rr.slab_capacity});
  }
  for (int w = 0; w < nw; ++w) {
    std::int64_t slab = 0;
    for (int t = 0; t < out.rounds; ++t) {
      const std::int64_t c = detail::chunk_of(t, w, nw);
      slab = std::max(slab, placed.chunk_end(space, c) - placed.chunk_begin(space, c));
    }
    out.placed_slab[static_cast<std::size_t>(writers[static_cast<std::size_t>(w)])] = slab;
  }
  return out;
}

// A rank's part of a frame: the bytes of every field's part it holds (what copy-on-put keeps).
std::int64_t patch_bytes(const std::vector<const FieldGeometry*>& fields, int rank) {
  std::int64_t bytes = 0;
  for (const FieldGeometry* g : fields) {
    bytes += g->file_boxes[static_cast<std::size_t>(rank)].volume() * static_cast<std::int64_t>(g->elem);
  }
  return bytes;
}

}  // namespace

StreamMemory stream_memory(const DomainInputs& d, const StreamSizes& sizes, const HintView& hints,
                           int writer_ranks, int ranks_per_node, bool romio, bool front_end_copies) {
  const OutputOptions& o = d.options;
  const detail::BackendTraits& traits = sizes.traits;
  const int size = d.compute_ranks;
  StreamMemory m;
  m.writer_ranks = traits.parallel ? spread(writer_ranks, size) : std::vector<int>{0};
  m.writers = static_cast<int>(m.writer_ranks.size());
  std::vector<int> node_of(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) node_of[static_cast<std::size_t>(r)] = o.shared_memory_exchange ? r / ranks_per_node : r;

  const bool direct = traits.parallel && !traits.shares_each_variable && o.gather == GatherMode::Direct;
  const std::int64_t limit = traits.parallel ? o.max_round_bytes : o.serial_chunk_bytes;
  const auto first = plan_fields(sizes.layout, true), later = plan_fields(sizes.layout, false);
  m.ranks.assign(static_cast<std::size_t>(size), RankStaging{});
  for (int r = 0; r < size; ++r) m.ranks[static_cast<std::size_t>(r)].patch = patch_bytes(first, r);
  if (direct) {
    // Every rank hands its own part to PnetCDF: a pack buffer per plan (a round's share of its
    // part), every field copied at put.
    m.rules.plan_packs_on_put = false;
    for (auto& s : m.ranks) s.send_first = s.send_later = std::min(s.patch, limit);
  } else {
    const PlanStaging a = rearranged(first, m.writer_ranks, node_of, limit, traits.shares_each_variable, sizes.placement);
    const PlanStaging b = rearranged(later, m.writer_ranks, node_of, limit, traits.shares_each_variable, sizes.placement);
    m.rounds = std::max(a.rounds, b.rounds);
    m.rules.plan_packs_on_put = a.rounds == 1 && b.rounds == 1;
    for (int r = 0; r < size; ++r) {
      const auto i = static_cast<std::size_t>(r);
      RankStaging& s = m.ranks[i];
      s.send_first = a.ranks[i].send;
      s.recv_first = a.ranks[i].recv;
      s.send_later = b.ranks[i].send;
      s.recv_later = b.ranks[i].recv;
      // One set of slabs serves both plans (NodeSlabs::reserve keeps the largest).
      s.slab = std::max({a.placed_slab[i], b.placed_slab[i], a.ranks[i].slab, b.ranks[i].slab});
    }
  }
  for (int w : m.writer_ranks) m.ranks[static_cast<std::size_t>(w)].writer = !direct;
  const int aggregators = hints.aggregators > 0 ? hints.aggregators : 1;
  for (int r = 0; r < std::min(size, aggregators); ++r) m.ranks[static_cast<std::size_t>(r)].aggregator = true;
  m.rules.later_frames = o.frames_per_file > 1;
  m.rules.every_rank_opens = traits.parallel;
  m.rules.front_end_copies = front_end_copies;
  m.rules.collective_buffering = hints.collective_write && traits.uses_mpiio && romio;
  m.rules.cb_buffer_size = hints.cb_buffer_size > 0 ? hints.cb_buffer_size : std::int64_t{16} << 20;  // ROMIO's default

  std::vector<std::int64_t> node_bytes(static_cast<std::size_t>((size + ranks_per_node - 1) / ranks_per_node), 0);
  for (int r = 0; r < size; ++r) {
    const RankStaging& s = m.ranks[static_cast<std::size_t>(r)];
    const std::int64_t bytes = rank_memory_bytes(s, m.rules);
    m.max_rank_bytes = std::max(m.max_rank_bytes, bytes);
    (s.writer ? m.max_writer_bytes : m.max_other_bytes) = std::max(s.writer ? m.max_writer_bytes : m.max_other_bytes, bytes);
    node_bytes[static_cast<std::size_t>(r / ranks_per_node)] += bytes;
  }
  const auto busiest = std::max_element(node_bytes.begin(), node_bytes.end());
  m.max_node_bytes = *busiest;
  m.busiest_node = static_cast<int>(busiest - node_bytes.begin());
  return m;
}

ServerMemory server_memory(const DomainInputs& d, const StreamSizes& sizes, int tasks_per_group, int groups) {
  ServerMemory s;
  if (tasks_per_group <= 0) return s;
  const std::int64_t frame = sizes.first_frame_bytes;
  s.per_server = 3 * ((frame + tasks_per_group - 1) / tasks_per_group);
  const std::int64_t in_flight = std::max(1, d.options.server_frames_in_flight - 1);
  s.per_compute_rank = static_cast<std::int64_t>(groups) * in_flight * ((frame + d.compute_ranks - 1) / d.compute_ranks);
  return s;
}

}  // namespace nwpio::check
