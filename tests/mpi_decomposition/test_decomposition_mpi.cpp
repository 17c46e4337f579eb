// Decomposition over MPI_COMM_WORLD (and sub-communicators): valid WRF splits at every rank
// count, and every validation failure produced by one rank passing a bad box. Every rank must
// throw Error(Decomposition) with the same text, naming the rank at fault.
#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <optional>

#include "mpi_support.hpp"
#include "nwpio/decomposition.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_decompose.hpp"

namespace nwpio {
namespace {

int world_rank() { return test::my_rank(); }
int world_size() { return test::nranks(); }

Box box1(int s0, int e0, int s1, int e1, int s2, int e2) {
  Box b;
  b.lo = {s0 - 1, s1 - 1, s2 - 1};
  b.hi = {e0, e1, e2};
  return b;
}

struct Boxes {
  Box domain, memory, patch;
};

// This rank's boxes of a WRF split of e_we x e_sn x e_vert over the world.
Boxes wrf_boxes(int rank, int e_we = 23, int e_sn = 17, int e_vert = 6) {
  const auto [px, py] = wrf::choose_nproc(world_size());
  const WrfBounds w = wrf::split_domain(e_we, e_sn, e_vert, px, py, rank);
  return {box1(w.ids, w.ide, w.jds, w.jde, w.kds, w.kde), box1(w.ims, w.ime, w.jms, w.jme, w.kms, w.kme),
          box1(w.ips, w.ipe, w.jps, w.jpe, w.kps, w.kpe)};
}

bool same_on_all_ranks(const std::string& text) { return test::same_text_everywhere(MPI_COMM_WORLD, text); }

// Runs from_boxes on the world where `bad_rank` first applies `spoil` to its boxes, and returns
// the Error(Decomposition) message this rank got ("<no error>" / "<wrong kind>" otherwise).
std::string error_when(int bad_rank, const std::function<void(Boxes&)>& spoil) {
  Boxes b = wrf_boxes(world_rank());
  if (world_rank() == bad_rank) spoil(b);
  try {
    Decomposition::from_boxes(MPI_COMM_WORLD, b.domain, b.memory, b.patch);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Decomposition) return std::string("<wrong kind> ") + e.what();
    return e.what();
  }
  return "<no error>";
}

void expect_everywhere(const std::string& message, const std::string& must_contain) {
  EXPECT_NE(message.find(must_contain), std::string::npos) << "message: " << message << "\nexpected: " << must_contain;
  EXPECT_TRUE(same_on_all_ranks(message)) << message;
}

TEST(Decomposition, WrfSplitAtThisRankCount) {
  const int p = world_size();
  const auto [px, py] = wrf::choose_nproc(p);
  for (auto [e_we, e_sn, e_vert] : {std::tuple{23, 17, 6}, std::tuple{426, 301, 36}, std::tuple{5, 5, 2}}) {
    const WrfBounds w = wrf::split_domain(e_we, e_sn, e_vert, px, py, world_rank());
    const Decomposition d = Decomposition::from_wrf(MPI_COMM_WORLD, w);
    EXPECT_EQ(d.rank(), world_rank());
    EXPECT_EQ(d.size(), p);
    // 1-based inclusive -> 0-based half-open, and back.
    EXPECT_EQ(d.domain(), box1(1, e_we, 1, e_sn, 1, e_vert));
    EXPECT_EQ(std::tuple(d.patch().lo[0] + 1, d.patch().hi[0], d.patch().lo[1] + 1, d.patch().hi[1], d.patch().lo[2] + 1,
                         d.patch().hi[2]),
              std::tuple(w.ips, w.ipe, w.jps, w.jpe, w.kps, w.kpe));
    EXPECT_EQ(std::tuple(d.memory().lo[0] + 1, d.memory().hi[0], d.memory().lo[1] + 1, d.memory().hi[1],
                         d.memory().lo[2] + 1, d.memory().hi[2]),
              std::tuple(w.ims, w.ime, w.jms, w.jme, w.kms, w.kme));
    // Every rank knows every patch, indexed by rank.
    ASSERT_EQ(d.all_patches().size(), static_cast<std::size_t>(p));
    for (int r = 0; r < p; ++r) {
      const WrfBounds o = wrf::split_domain(e_we, e_sn, e_vert, px, py, r);
      EXPECT_EQ(d.all_patches()[static_cast<std::size_t>(r)], box1(o.ips, o.ipe, o.jps, o.jpe, o.kps, o.kpe));
    }
    // Per staggering: the ranks' write boxes add up to the field's grid, which is the domain
    // shortened by one on every unstaggered axis.
    for (Stagger s : {Stagger::None, Stagger::X, Stagger::Y, Stagger::Z}) {
      const Box field = d.field_domain(s);
      EXPECT_EQ(field.lo, d.domain().lo);
      EXPECT_EQ(field.hi[0], e_we - (s == Stagger::X ? 0 : 1));
      EXPECT_EQ(field.hi[1], e_sn - (s == Stagger::Y ? 0 : 1));
      EXPECT_EQ(field.hi[2], e_vert - (s == Stagger::Z ? 0 : 1));
      const Box mine = d.write_box(s);
      EXPECT_TRUE(field.contains(mine));
      EXPECT_EQ(mine, Decomposition::write_box(d.patch(), d.domain(), s));
      std::int64_t volume = mine.volume(), total = 0;
      MPI_Allreduce(&volume, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
      EXPECT_EQ(total, field.volume()) << "stagger '" << to_string(s) << "'";
    }
  }
}

TEST(Decomposition, OwnsADuplicateCommunicator) {
  const Boxes b = wrf_boxes(world_rank());
  std::optional<Decomposition> d = Decomposition::from_boxes(MPI_COMM_WORLD, b.domain, b.memory, b.patch);
  int cmp = MPI_UNEQUAL;
  MPI_Comm_compare(d->comm(), MPI_COMM_WORLD, &cmp);
  EXPECT_EQ(cmp, MPI_CONGRUENT);  // same group, separate context: nwpio's messages never mix with the model's
  const Decomposition copy = *d;
  d.reset();  // the copy still holds the communicator
  int size = 0;
  EXPECT_EQ(MPI_Comm_size(copy.comm(), &size), MPI_SUCCESS);
  EXPECT_EQ(size, world_size());
  int sum = 0, one = 1;
  EXPECT_EQ(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, copy.comm()), MPI_SUCCESS);
  EXPECT_EQ(sum, world_size());
}

TEST(Decomposition, SelfCommunicatorOnEveryRank) {
  // Each rank alone is a one-rank decomposition of its own small domain.
  const WrfBounds w = wrf::split_domain(9, 7, 4, 1, 1, 0, 2);
  const Decomposition d = Decomposition::from_wrf(MPI_COMM_SELF, w);
  EXPECT_EQ(d.size(), 1);
  EXPECT_EQ(d.rank(), 0);
  EXPECT_EQ(d.patch(), d.domain());
  EXPECT_EQ(d.write_box(Stagger::None), box1(1, 8, 1, 6, 1, 3));
}

TEST(Decomposition, SubCommunicatorRanks) {
  // Even and odd world ranks each form their own decomposition; ranks in messages and in
  // all_patches() are those of the sub-communicator.
  MPI_Comm sub = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() % 2, world_rank(), &sub);
  int rank = 0, size = 1;
  MPI_Comm_rank(sub, &rank);
  MPI_Comm_size(sub, &size);
  const WrfBounds w = wrf::split_domain(11, 20, 3, 1, size, rank);
  {
    const Decomposition d = Decomposition::from_wrf(sub, w);
    EXPECT_EQ(d.rank(), rank);
    EXPECT_EQ(d.size(), size);
  }
  WrfBounds bad = w;
  if (rank == size - 1) bad.ims = bad.ips + 1;  // memory starts inside the patch
  std::string message = "<no error>";
  try {
    Decomposition::from_wrf(sub, bad);
  } catch (const Error& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("of rank " + std::to_string(size - 1) + " does not contain its patch"), std::string::npos) << message;
  MPI_Comm_free(&sub);
}

// ---- one rank passes a bad box: every rank gets the same error, nobody hangs ----

TEST(DecompositionBadRank, PatchOutsideDomain) {
  const int bad = world_size() - 1;  // the last rank holds the staggered ends
  const Boxes b = wrf_boxes(bad);
  Box spoiled = b.patch;
  spoiled.hi[0] += 1;
  expect_everywhere(error_when(bad, [](Boxes& x) { x.patch.hi[0] += 1; }),
                    "decomposition: patch of rank " + std::to_string(bad) + " " + spoiled.str() +
                        " is not inside the domain " + b.domain.str());
}

TEST(DecompositionBadRank, EmptyPatch) {
  for (int bad = 0; bad < world_size(); ++bad) {
    const Boxes b = wrf_boxes(bad);
    Box spoiled = b.patch;
    spoiled.hi[1] = spoiled.lo[1];
    expect_everywhere(error_when(bad, [](Boxes& x) { x.patch.hi[1] = x.patch.lo[1]; }),
                      "decomposition: patch of rank " + std::to_string(bad) + " " + spoiled.str() + " is empty");
  }
}

TEST(DecompositionBadRank, MemoryDoesNotContainPatch) {
  for (int bad = 0; bad < world_size(); ++bad) {
    const Boxes b = wrf_boxes(bad);
    Box memory = b.memory;
    memory.hi[2] -= 1;
    expect_everywhere(error_when(bad, [](Boxes& x) { x.memory.hi[2] -= 1; }),
                      "decomposition: memory " + memory.str() + " of rank " + std::to_string(bad) +
                          " does not contain its patch " + b.patch.str());
  }
}

TEST(DecompositionBadRank, Gap) {
  for (int bad = 0; bad < world_size(); ++bad) {
    Boxes b = wrf_boxes(bad);
    Box gap = b.patch;
    gap.lo[0] = b.patch.hi[0] - 1;  // the bad rank leaves its last column out
    expect_everywhere(error_when(bad, [](Boxes& x) { x.patch.hi[0] -= 1; }),
                      "no patch covers " + gap.str() + " (" + std::to_string(gap.volume()) + " points)");
  }
}

TEST(DecompositionBadRank, Overlap) {
  if (world_size() < 2) GTEST_SKIP() << "an overlap needs two ranks";
  const int bad = world_size() - 1;
  // The last rank reaches one row (or, at 4 ranks = 2 x 2, one column) into its neighbour.
  const auto [px, py] = wrf::choose_nproc(world_size());
  const int axis = px > 1 ? 0 : 1;
  const int neighbour = axis == 0 ? bad - 1 : bad - px;
  Boxes b = wrf_boxes(bad);
  b.patch.lo[axis] -= 1;
  const Box other = wrf_boxes(neighbour).patch;
  expect_everywhere(error_when(bad, [axis](Boxes& x) { x.patch.lo[axis] -= 1; }),
                    "decomposition: patches of rank " + std::to_string(neighbour) + " " + other.str() + " and rank " +
                        std::to_string(bad) + " " + b.patch.str() + " overlap in " + other.intersect(b.patch).str());
}

TEST(DecompositionBadRank, DomainsDisagree) {
  if (world_size() < 2) GTEST_SKIP() << "a disagreement needs two ranks";
  for (int bad = 1; bad < world_size(); ++bad) {
    Box domain = wrf_boxes(bad).domain;
    domain.hi[2] += 1;
    expect_everywhere(error_when(bad, [](Boxes& x) { x.domain.hi[2] += 1; }),
                      "decomposition: rank " + std::to_string(bad) + " has domain " + domain.str() + " but rank 0 has domain " +
                          wrf_boxes(0).domain.str());
  }
}

TEST(DecompositionBadRank, FirstProblemWinsWhenSeveralRanksAreBad) {
  // Every rank spoils its memory: all report rank 0, the first in rank order.
  const Boxes b = wrf_boxes(0);
  Box memory = b.memory;
  memory.lo[0] = b.patch.lo[0] + 1;
  Boxes mine = wrf_boxes(world_rank());
  mine.memory.lo[0] = mine.patch.lo[0] + 1;
  std::string message = "<no error>";
  try {
    Decomposition::from_boxes(MPI_COMM_WORLD, mine.domain, mine.memory, mine.patch);
  } catch (const Error& e) {
    message = e.what();
  }
  expect_everywhere(message, "decomposition: memory " + memory.str() + " of rank 0 does not contain its patch " + b.patch.str());
}

TEST(DecompositionBadRank, StillUsableAfterAnError) {
  // A failed validation leaves no rank behind in a collective: a valid call right after works.
  error_when(world_size() - 1, [](Boxes& x) { x.patch.hi[0] += 1; });
  const Boxes b = wrf_boxes(world_rank());
  const Decomposition d = Decomposition::from_boxes(MPI_COMM_WORLD, b.domain, b.memory, b.patch);
  EXPECT_EQ(d.size(), world_size());
}

}  // namespace
}  // namespace nwpio
