// The grid of one WRF file in nwpio's terms, derived from the fields WRF hands over.
//
// WRF passes per field its own Domain/Memory/Patch bounds with the staggering already applied
// (T ends at ide-1, U at ide; only the last patch along x holds U's extra column). nwpio's
// Decomposition holds ONE staggered domain and one patch per rank (the last patch along x has
// ipe = ide) and derives each field's part from its staggering. So:
//   domain: per axis DomainEnd, plus one for a field not staggered along it (all fields agree);
//   patch:  the union of the fields' patches, a patch that ends at an unstaggered field's
//           domain end reaching one further (the staggered end);
//   k:      the whole vertical grid on every rank (WRF does not split k).
// commit() then checks every field against Decomposition::write_box, so any field whose bounds
// do not follow this rule is named in an error instead of being written wrongly.
#pragma once

#include <vector>

#include "nwpio/box.hpp"
#include "wrfio/field_call.hpp"

namespace nwpio::wrfio {

struct StreamGrid {
  Box domain;  // staggered counts, from 0
  Box patch;   // this rank's staggered patch
  Box memory;  // this rank's memory (the model's arrays; the patch itself for I/O servers)
};

// Local. `fields`: one call per variable (in any order) with this rank's bounds; for an I/O
// server, one call per variable whose patch is the bounding box of all pieces it received.
// Throws WrfError(kDimensionError) naming the two fields that disagree on a domain length, or
// kNotSupported for a stream without decomposed fields.
StreamGrid stream_grid(const std::vector<const FieldCall*>& fields);

// The domain extent of a field along each axis in nwpio's terms (Decomposition::field_domain).
Box field_domain_box(const FieldCall& field);

}  // namespace nwpio::wrfio
