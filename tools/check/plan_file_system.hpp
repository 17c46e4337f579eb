// What the plan knows of each file-system family (src/hints/file_system.hpp): the rule that
// chooses the writer count to start from, and what nwpio does not know about the file system
// (printed under the plan's first line).
#pragma once

#include <string>
#include <vector>

#include "plan_hints.hpp"

namespace nwpio::check {

struct WriterRule {
  int writers = 0;
  std::string reason;
};

// The family's starting writer count for `compute_ranks` ranks on `nodes` nodes.
WriterRule writer_rule(const std::string& family, const HintView& hints, int nodes, int compute_ranks);

// What nwpio cannot see or set on this family, one line each.
std::vector<std::string> file_system_notes(const std::string& family);

}  // namespace nwpio::check
