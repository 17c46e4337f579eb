// What the plan recommends (writer ranks, I/O servers) and the time per frame the bandwidth
// model of docs/PERFORMANCE.md ("A model of bandwidth at scale") predicts for it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "plan_hints.hpp"
#include "plan_inputs.hpp"
#include "plan_memory.hpp"
#include "plan_sizes.hpp"

namespace nwpio::check {

// The model's constants, each with where it comes from (docs/PERFORMANCE.md).
struct BandwidthModel {
  double pack_bytes_per_s = 4.8e9;       // m: one pack pass per core (this machine: 224 MB in 0.046 s)
  double node_bytes_per_s = 1.26 * 1073741824.0;  // b_node: per writer node (fit to PnetCDF's WRF-IO runs on Perlmutter)
  double latency_s_per_log2_rank = 0.002;  // L = 2 ms x log2(P) per collective write (tens of ms at thousands of ranks)
  double define_s = 0.004;               // T_define: create and define a file (measured here)
};

struct FrameTime {
  bool known = false;        // false without --bandwidth
  double passes_s = 0;       // k_all (B/P)/m + k_w (B/A)/m
  double write_s = 0;        // B / min(writer nodes x b_node, BW_fs)
  double latency_s = 0;      // c L
  double define_s = 0;
  double total_s = 0;
  double write_bandwidth = 0;  // the binding bandwidth, bytes/s
  std::string bound;           // which term binds: "file system" or "writer nodes"
};

FrameTime frame_time(const StreamSizes& sizes, const StreamMemory& memory, int nodes, int ranks,
                     int ranks_per_node, double bandwidth_bytes_per_s, const BandwidthModel& model = {});

struct WriterAdvice {
  int writer_ranks = 0;               // what to set in &nwpio writer_ranks
  std::vector<std::string> reasons;   // why, one line each
};

// Starts from the file system family's rule (plan_file_system.hpp: Lustre and BeeGFS 2 x
// stripe_count writers, a few per storage target; GPFS, CephFS one per node; NFS, GlusterFS
// one per node on up to 4 nodes; local: 2) and adds writers while a frame would need more than
// one round (then every field is copied at put) or the busiest node would hold more than a
// fifth of --memory-per-node. `evaluate` sizes one candidate (stream_memory).
WriterAdvice advise_writers(const DomainInputs& d, const PlanArgs& args, const HintView& hints, int nodes,
                            const std::function<StreamMemory(int writers)>& evaluate);

struct ServerAdvice {
  int min_tasks_for_memory = 0;       // 0: no --memory-per-node
  std::vector<std::string> lines;
};
ServerAdvice advise_servers(const DomainInputs& d, const StreamSizes& sizes, const FrameTime& synchronous,
                            const PlanArgs& args, int tasks_per_group, int groups);

}  // namespace nwpio::check
