// nwpio-check --plan: sizes every history stream of a namelist.input for a run of N ranks and
// says what to set and why (docs/SIZING.md).
#pragma once

#include <iosfwd>
#include <vector>

#include "plan_advice.hpp"
#include "plan_hints.hpp"
#include "plan_inputs.hpp"
#include "plan_memory.hpp"
#include "plan_sizes.hpp"

namespace nwpio::check {

struct DomainPlan {
  const DomainInputs* inputs = nullptr;
  StreamSizes sizes;
  HintView hints;
  int configured_writers = 0;      // &nwpio writer_ranks as read (0: every rank)
  StreamMemory configured, recommended;
  WriterAdvice writers;
  FrameTime time_configured, time_recommended;
  ServerMemory server_memory;
  ServerAdvice servers;
};

std::vector<DomainPlan> make_plan(const RunInputs& run);

void print_plan(std::ostream& out, const RunInputs& run, const std::vector<DomainPlan>& plans);
// The same as JSON (every number in bytes and seconds, per-rank memory included).
void write_plan_json(const std::string& path, const RunInputs& run, const std::vector<DomainPlan>& plans);

// The whole program: reads, plans, prints; returns the exit code (0, 1 for an error).
int run_plan(const PlanArgs& args, const char* argv0);

}  // namespace nwpio::check
