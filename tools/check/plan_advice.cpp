#include "plan_advice.hpp"
#include "plan_file_system.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

namespace nwpio::check {

namespace {

double gb(std::int64_t bytes) { return static_cast<double>(bytes) / 1e9; }

int writer_nodes(const std::vector<int>& writers, int ranks_per_node) {
  std::set<int> nodes;
  for (int w : writers) nodes.insert(w / ranks_per_node);
  return static_cast<int>(nodes.size());
}

}  // namespace

FrameTime frame_time(const StreamSizes& sizes, const StreamMemory& memory, int nodes, int ranks,
                     int ranks_per_node, double bandwidth, const BandwidthModel& model) {
  FrameTime t;
  const double b = static_cast<double>(sizes.frame_bytes);
  const double p = std::max(1, ranks), a = std::max(1, memory.writers);
  // Every rank packs its part once (straight into slabs on its node); across nodes the pieces
  // for other nodes are exchanged and copied once more into the writers' slabs.
  const double k_all = nodes > 1 ? 2 : 1, k_w = nodes > 1 ? 1 : 0;
  t.passes_s = k_all * (b / p) / model.pack_bytes_per_s + k_w * (b / a) / model.pack_bytes_per_s;
  t.latency_s = memory.rounds * model.latency_s_per_log2_rank * std::log2(std::max(2.0, p));
  t.define_s = model.define_s;  // a frame that opens its file
  if (bandwidth <= 0) return t;
  const double node_bw = writer_nodes(memory.writer_ranks, ranks_per_node) * model.node_bytes_per_s;
  t.write_bandwidth = std::min(node_bw, bandwidth);
  t.bound = node_bw < bandwidth ? "writer nodes" : "file system";
  t.write_s = b / t.write_bandwidth;
  t.total_s = t.define_s + t.passes_s + t.write_s + t.latency_s;
  t.known = true;
  return t;
}

WriterAdvice advise_writers(const DomainInputs& d, const PlanArgs& args, const HintView& hints, int nodes,
                            const std::function<StreamMemory(int writers)>& evaluate) {
  WriterAdvice a;
  const int p = d.compute_ranks;
  const WriterRule rule = writer_rule(args.fs_family, hints, nodes, p);
  int w = rule.writers;
  a.reasons.push_back(rule.reason);
  w = std::clamp(w, 1, p);
  const double node_memory = args.memory_per_node_gb * 1e9;
  for (;;) {
    const StreamMemory m = evaluate(w);
    const bool rounds_ok = m.rounds == 1;
    const bool memory_ok = node_memory <= 0 || static_cast<double>(m.max_node_bytes) <= 0.2 * node_memory;
    if ((rounds_ok && memory_ok) || w >= p) {
      if (!rounds_ok) a.reasons.push_back(fmt::format("even {} writers need {} rounds per frame", w, m.rounds));
      if (!memory_ok) {
        a.reasons.push_back(fmt::format("even so the busiest node holds {:.2f} GB of staging, over a fifth of its {} GB",
                                        gb(m.max_node_bytes), args.memory_per_node_gb));
      }
      break;
    }
    const int next = std::min(p, std::max(w + 1, 2 * w));
    a.reasons.push_back(rounds_ok
                            ? fmt::format("{} -> {} writers: the busiest node would hold {:.2f} GB of staging, over a fifth "
                                          "of its {} GB (--memory-per-node)",
                                          w, next, gb(m.max_node_bytes), args.memory_per_node_gb)
                            : fmt::format("{} -> {} writers: with {} a writer stages more than max_round_bytes ({:.2f} GB), "
                                          "so a frame takes {} rounds and every field is copied at put",
                                          w, next, w, gb(d.options.max_round_bytes), m.rounds));
    w = next;
  }
  a.writer_ranks = w;
  return a;
}

ServerAdvice advise_servers(const DomainInputs& d, const StreamSizes& sizes, const FrameTime& sync, const PlanArgs& args,
                            int tasks_per_group, int groups) {
  ServerAdvice s;
  const double frame = static_cast<double>(sizes.first_frame_bytes);
  if (args.memory_per_node_gb > 0) {
    const double per_rank = args.memory_per_node_gb * 1e9 / args.ranks_per_node;
    // A server holds 3 x F / n (docs/IO_SERVERS.md) and shares its node with ranks_per_node - 1 others.
    s.min_tasks_for_memory = static_cast<int>(std::ceil(3 * frame / (0.5 * per_rank)));
  }
  const double pack = frame / std::max(1, d.compute_ranks) / BandwidthModel{}.pack_bytes_per_s;
  if (tasks_per_group > 0) {
    s.lines.push_back(fmt::format("&namelist_quilt: {} group(s) of {} servers: the model waits only for its pack (~{:.3f} s per frame) "
                                  "and the servers write while it computes",
                                  groups, tasks_per_group, pack));
    if (s.min_tasks_for_memory > tasks_per_group) {
      s.lines.push_back(fmt::format("nio_tasks_per_group = {} is too few for memory: a server holds 3 x frame / n; take at least {}",
                                    tasks_per_group, s.min_tasks_for_memory));
    }
    return s;
  }
  s.lines.push_back(sync.known ? fmt::format("none needed when the model computes much longer than {:.2f} s between two frames; "
                                             "with servers the model would wait ~{:.3f} s per frame (its pack) instead",
                                             sync.total_s, pack)
                               : "give --bandwidth to compare a frame's write with its pack");
  if (s.min_tasks_for_memory > 0) {
    s.lines.push_back(fmt::format("if used: nio_tasks_per_group >= {} (a server holds 3 x frame / n = {:.2f} GB at that n, "
                                  "half a rank's share of --memory-per-node)",
                                  s.min_tasks_for_memory, 3 * frame / 1e9 / s.min_tasks_for_memory));
  } else {
    s.lines.push_back("if used: enough servers that 3 x frame / n fits a server's memory (give --memory-per-node)");
  }
  return s;
}

}  // namespace nwpio::check
