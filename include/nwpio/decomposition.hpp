// Decomposition: this rank's domain, memory and patch extents, validated collectively.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "nwpio/box.hpp"
#include "nwpio/types.hpp"

namespace nwpio {

// WRF's bounds, 1-based and inclusive, exactly as a WRF model has them:
// ids:ide is the domain with its staggered end (ide = e_we), ims:ime the memory with halo,
// ips:ipe the patch (the last patch along x has ipe = ide).
struct WrfBounds {
  int ids, ide, jds, jde, kds, kde;
  int ims, ime, jms, jme, kms, kme;
  int ips, ipe, jps, jpe, kps, kpe;
};

// A Decomposition holds its own duplicate of the communicator passed to from_wrf/from_boxes
// (MPI_Comm_dup, freed when the last copy goes away, never after MPI_Finalize), so that copies
// are cheap and nwpio's messages never mix with the model's. comm() returns that duplicate.
class Decomposition {
 public:
  // Collective over comm. Converts WRF's 1-based inclusive bounds to 0-based half-open boxes.
  static Decomposition from_wrf(MPI_Comm comm, const WrfBounds& bounds);
  // Collective over comm. 0-based half-open boxes; domain counts are the staggered counts
  // (e_we, e_sn, e_vert). Throws Error(Decomposition) on every rank, naming the ranks and boxes
  // at fault, unless the patches tile the domain exactly (no gap, no overlap, nothing outside)
  // and every rank's memory contains its patch. Checks, in this order, the first failure
  // reported: all ranks pass the same non-empty domain starting at 0 on every axis (box indices
  // are file indices); every patch is non-empty and inside the domain; every memory box contains
  // its patch; no two patches overlap; the patches cover the domain. One MPI_Allgather, then the
  // same deterministic check on every rank (see src/core/decomposition_check.hpp).
  static Decomposition from_boxes(MPI_Comm comm, const Box& domain, const Box& memory, const Box& patch);

  MPI_Comm comm() const noexcept { return comm_; }
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return static_cast<int>(patches_.size()); }

  const Box& domain() const noexcept { return domain_; }   // staggered counts
  const Box& memory() const noexcept { return memory_; }
  const Box& patch() const noexcept { return patch_; }
  const std::vector<Box>& all_patches() const noexcept { return patches_; }  // index = rank

  // The part of `patch` that a field with this staggering writes: an unstaggered axis ends at
  // min(hi, domain.hi - 1), the staggered axis at min(hi, domain.hi). So only the last patch
  // along x writes U's extra column (likewise Y/V and Z/W, PH).
  static Box write_box(const Box& patch, const Box& domain, Stagger stagger) noexcept;
  Box write_box(Stagger stagger) const noexcept { return write_box(patch_, domain_, stagger); }

  // The grid a field with this staggering covers: domain with the unstaggered axes shortened by one.
  Box field_domain(Stagger stagger) const noexcept;

 private:
  Decomposition() = default;
  std::shared_ptr<const MPI_Comm> comm_owner_;  // the duplicate; MPI_Comm_free on last release
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  Box domain_, memory_, patch_;
  std::vector<Box> patches_;
};

}  // namespace nwpio
