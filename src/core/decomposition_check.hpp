// The deterministic validation behind Decomposition::from_boxes. Every rank gathers every
// rank's boxes and runs this same function on the same data, so every rank reaches the same
// verdict and the same message without a second round of communication (and without a hang).
// Kept apart from MPI so that unit tests can run it on thousands of made-up ranks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "nwpio/box.hpp"

namespace nwpio::detail {

struct RankBoxes {
  Box domain, memory, patch;
};

// The first problem found, as the text of an Error(Decomposition), or nothing when the patches
// tile the domain exactly and every memory box contains its patch. Index in `ranks` = rank.
// The domain must start at 0 on every axis, so that box indices are file indices.
// Cost: O(P log P) sort plus a sweep along the axis with the most distinct patch starts, which
// compares each patch only with the patches whose range along that axis overlaps its own
// (O(P sqrt P) for a px x py grid); the coverage check is a volume sum, and only when a gap
// exists does a compressed-coordinate grid locate it (skipped above 16 M cells).
std::optional<std::string> check_tiling(const std::vector<RankBoxes>& ranks);

}  // namespace nwpio::detail
