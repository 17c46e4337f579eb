#include "nwpio/decomposition.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "core/decomposition_check.hpp"
#include "nwpio/error.hpp"
#include "util/mpi_call.hpp"

namespace nwpio {
namespace {

// The duplicate communicator, freed when the last Decomposition copy holding it goes away.
// MPI_Comm_free must not run after MPI_Finalize (a Decomposition may outlive it, e.g. a static),
// and a destructor must not throw, so the free is best effort.
std::shared_ptr<const MPI_Comm> duplicate(MPI_Comm comm) {
  auto* dup = new MPI_Comm(MPI_COMM_NULL);
  try {
    detail::mpi_check(MPI_Comm_dup(comm, dup), "MPI_Comm_dup(Decomposition)");
  } catch (...) {
    delete dup;
    throw;
  }
  return std::shared_ptr<const MPI_Comm>(dup, [](const MPI_Comm* c) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && *c != MPI_COMM_NULL) {
      MPI_Comm copy = *c;
      MPI_Comm_free(&copy);
    }
    delete c;
  });
}

constexpr int kBoxWords = 6;   // lo[3], hi[3]
constexpr int kRankWords = 18; // domain, memory, patch

void put_box(const Box& b, std::int64_t* out) {
  for (int a = 0; a < 3; ++a) {
    out[a] = b.lo[a];
    out[3 + a] = b.hi[a];
  }
}

Box get_box(const std::int64_t* in) {
  Box b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = in[a];
    b.hi[a] = in[3 + a];
  }
  return b;
}

}  // namespace

Decomposition Decomposition::from_wrf(MPI_Comm comm, const WrfBounds& w) {
  // 1-based inclusive [s, e] -> 0-based half-open [s-1, e).
  auto box = [](int is, int ie, int js, int je, int ks, int ke) {
    Box b;
    b.lo = {is - 1, js - 1, ks - 1};
    b.hi = {ie, je, ke};
    return b;
  };
  return from_boxes(comm, box(w.ids, w.ide, w.jds, w.jde, w.kds, w.kde), box(w.ims, w.ime, w.jms, w.jme, w.kms, w.kme),
                    box(w.ips, w.ipe, w.jps, w.jpe, w.kps, w.kpe));
}

Decomposition Decomposition::from_boxes(MPI_Comm comm, const Box& domain, const Box& memory, const Box& patch) {
  if (comm == MPI_COMM_NULL) throw Error(ErrorKind::InvalidArgument, "decomposition: communicator is MPI_COMM_NULL");
  int rank = 0, size = 1;
  detail::mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank(Decomposition)");
  detail::mpi_check(MPI_Comm_size(comm, &size), "MPI_Comm_size(Decomposition)");

  // Every rank's boxes go to every rank; local problems (memory not containing the patch) are
  // then seen, and reported identically, by all ranks.
  std::array<std::int64_t, kRankWords> mine{};
  put_box(domain, mine.data());
  put_box(memory, mine.data() + kBoxWords);
  put_box(patch, mine.data() + 2 * kBoxWords);
  std::vector<std::int64_t> all(static_cast<std::size_t>(size) * kRankWords);
  detail::mpi_check(MPI_Allgather(mine.data(), kRankWords, MPI_INT64_T, all.data(), kRankWords, MPI_INT64_T, comm),
                    "MPI_Allgather(Decomposition boxes)");

  std::vector<detail::RankBoxes> ranks(static_cast<std::size_t>(size));
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const std::int64_t* p = all.data() + r * kRankWords;
    ranks[r] = {get_box(p), get_box(p + kBoxWords), get_box(p + 2 * kBoxWords)};
  }
  // Same data, same deterministic check on every rank: every rank throws the same Error.
  if (auto problem = detail::check_tiling(ranks)) throw Error(ErrorKind::Decomposition, *problem);

  Decomposition d;
  d.comm_owner_ = duplicate(comm);
  d.comm_ = *d.comm_owner_;
  d.rank_ = rank;
  d.domain_ = domain;
  d.memory_ = memory;
  d.patch_ = patch;
  d.patches_.reserve(ranks.size());
  for (const auto& r : ranks) d.patches_.push_back(r.patch);
  return d;
}

Box Decomposition::write_box(const Box& patch, const Box& domain, Stagger stagger) noexcept {
  Box b = patch;
  for (int a = 0; a < 3; ++a) {
    const bool staggered = staggered_along(stagger, a);
    const std::int64_t end = staggered ? domain.hi[a] : domain.hi[a] - 1;
    b.hi[a] = std::max(b.lo[a], std::min(patch.hi[a], end));
  }
  return b;
}

Box Decomposition::field_domain(Stagger stagger) const noexcept { return write_box(domain_, domain_, stagger); }

}  // namespace nwpio
