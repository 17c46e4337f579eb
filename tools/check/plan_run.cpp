#include "plan_run.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "hints/hint_session.hpp"
#include "mpiio/mpiio_layer.hpp"
#include "nwpio/error.hpp"

namespace nwpio::check {

namespace {

std::string scratch_dir(const PlanArgs& args) {
  if (!args.scratch_dir.empty()) return std::filesystem::absolute(args.scratch_dir).string();
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

// Whether the Writer rearranges the frame into contiguous slabs (what it tells the hints).
bool contiguous_writers(const DomainInputs& d, const StreamSizes& s) {
  return s.traits.parallel && (s.traits.shares_each_variable || d.options.gather != GatherMode::Direct);
}

}  // namespace

std::vector<DomainPlan> make_plan(const RunInputs& run) {
  const PlanArgs& args = run.args;
  const double bandwidth = args.bandwidth_gbs * 1e9;
  const std::string dir = scratch_dir(args);
  // The MPI-IO layer of this MPI (the run's, when the plan is made where the run is built).
  const bool romio = detail::detect_mpiio().layer == detail::IoLayer::Romio;
  std::vector<DomainPlan> plans;
  for (const DomainInputs& d : run.domains) {
    DomainPlan p;
    p.inputs = &d;
    p.sizes = stream_sizes(d);
    const bool contiguous = contiguous_writers(d, p.sizes);
    p.hints = plan_hints(d, p.sizes.expected_file_bytes, contiguous, run.nodes);
    if (p.sizes.traits.writes_file) {
      // The header as the stream lays it out, with the MPI_Info its file would get.
      HintOptions quiet = d.options.hints;
      quiet.report = HintReport::Off;
      const detail::HintSession session = detail::HintSession::resolve(quiet, p.sizes.traits.io_form, MPI_COMM_SELF,
                                                                       p.sizes.expected_file_bytes, contiguous);
      measure_file(p.sizes, d, p.sizes.traits.uses_mpiio ? session.info() : MPI_INFO_NULL, dir);
    }
    const auto evaluate = [&](int writers) {
      return stream_memory(d, p.sizes, p.hints, writers, args.ranks_per_node, romio, args.caller == "wrf");
    };
    p.configured_writers = d.options.writer_ranks;
    p.configured = evaluate(p.configured_writers);
    p.writers = advise_writers(d, args, p.hints, run.nodes, evaluate);
    p.recommended = evaluate(p.writers.writer_ranks);
    p.time_configured = frame_time(p.sizes, p.configured, run.nodes, d.compute_ranks, args.ranks_per_node, bandwidth);
    p.time_recommended = frame_time(p.sizes, p.recommended, run.nodes, d.compute_ranks, args.ranks_per_node, bandwidth);
    if (run.server_tasks_per_group > 0) {
      // The servers write: one group's n servers, the last ranks of the job (as WRF places them).
      StreamMemory servers;
      servers.writers = run.server_tasks_per_group;
      for (int i = 0; i < servers.writers; ++i) servers.writer_ranks.push_back(d.compute_ranks + i);
      p.time_recommended = p.time_configured =
          frame_time(p.sizes, servers, run.nodes, d.compute_ranks, args.ranks_per_node, bandwidth);
    }
    p.server_memory = server_memory(d, p.sizes, run.server_tasks_per_group, run.server_groups);
    p.servers = advise_servers(d, p.sizes, p.time_recommended, args, run.server_tasks_per_group, run.server_groups);
    plans.push_back(std::move(p));
  }
  return plans;
}

int run_plan(const PlanArgs& args, const char* argv0) {
  try {
    const RunInputs run = read_plan_inputs(args, find_hints_dir(argv0));
    const std::vector<DomainPlan> plans = make_plan(run);
    print_plan(std::cout, run, plans);
    if (!args.json.empty()) write_plan_json(args.json, run, plans);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "nwpio-check --plan: error: " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace nwpio::check
