// SyntheticModel: WRF-style arrays (memory bounds with halos, i-k-j order) hold the fill rule
// exactly on the cells the rank must write and the poison value everywhere else, so that a
// writer that reads a halo cell or a cell past a field's staggered end shows up in the file.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>

#include "nwpio/decomposition.hpp"
#include "nwpio/wrf_decompose.hpp"
#include "nwpio_model/wrf_history.hpp"
#include "synthetic.hpp"

namespace {

using nwpio::Box;
using nwpio::MemoryOrder;
using nwpio::synthetic::Field;

nwpio::Decomposition decompose(int e_we, int e_sn, int e_vert, int halo) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto [px, py] = nwpio::wrf::choose_nproc(size);
  return nwpio::Decomposition::from_wrf(MPI_COMM_WORLD,
                                        nwpio::wrf::split_domain(e_we, e_sn, e_vert, px, py, rank, halo));
}

// Offset of global (i, j, k) in a field's memory array, written out from WRF's Fortran layout
// (first index fastest): XZY = a(ims:ime, kms:kme, jms:jme), XYZ and XY = a(ims:ime, jms:jme[, k]).
std::int64_t offset(const Field& f, std::int64_t i, std::int64_t j, std::int64_t k) {
  const Box& m = f.memory;
  const std::int64_t ni = m.extent(0), nj = m.extent(1), nk = m.extent(2);
  const std::int64_t di = i - m.lo[0], dj = j - m.lo[1], dk = k - m.lo[2];
  if (f.spec->memory_order == MemoryOrder::XZY) return di + ni * (dk + nk * dj);
  return di + ni * (dj + nj * dk);
}

template <class T>
void expect_field(const Field& f, const nwpio::Decomposition& d, std::int64_t t, int& checked) {
  const T* data = static_cast<const T*>(f.data());
  const Box& m = f.memory;
  // The fill box is the field's write box (decomposed fields) or its whole extent.
  if (nwpio::is_decomposed(f.spec->memory_order)) {
    const Box w = d.write_box(f.spec->stagger);
    for (int a = 0; a < 2; ++a) {
      EXPECT_EQ(f.fill.lo[a], w.lo[a]) << f.spec->name;
      EXPECT_EQ(f.fill.hi[a], w.hi[a]) << f.spec->name;
    }
    EXPECT_EQ(m.lo[0], d.memory().lo[0]);
    EXPECT_EQ(m.hi[1], d.memory().hi[1]);
  }
  for (std::int64_t k = m.lo[2]; k < m.hi[2]; ++k) {
    for (std::int64_t j = m.lo[1]; j < m.hi[1]; ++j) {
      for (std::int64_t i = m.lo[0]; i < m.hi[0]; ++i) {
        const bool inside = i >= f.fill.lo[0] && i < f.fill.hi[0] && j >= f.fill.lo[1] && j < f.fill.hi[1] &&
                            k >= f.fill.lo[2] && k < f.fill.hi[2];
        const T expected = inside ? static_cast<T>((7 * i + 13 * j + 17 * k + 19 * t + 23 * f.varid) % 1021)
                                  : static_cast<T>(-9999);
        const T got = data[offset(f, i, j, k)];
        if (got != expected) {
          ADD_FAILURE() << f.spec->name << " (" << i << "," << j << "," << k << "): " << got << ", expected "
                        << expected;
          return;
        }
        ++checked;
      }
    }
  }
}

void expect_model(MemoryOrder order) {
  const int e_we = 23, e_sn = 17, e_vert = 6, halo = 2;
  const auto d = decompose(e_we, e_sn, e_vert, halo);
  nwpio::wrf::HistorySchemaOptions o;
  o.e_we = e_we;
  o.e_sn = e_sn;
  o.e_vert = e_vert;
  o.order_3d = order;
  nwpio::synthetic::SyntheticModel model(d, nwpio::wrf::history_schema(o));
  ASSERT_EQ(model.fields().size(), static_cast<std::size_t>(nwpio::wrf::kHistoryVariableCount));
  for (std::int64_t t : {0, 5}) {
    model.fill(t);
    int checked = 0;
    for (std::size_t s = 0; s < model.fields().size(); ++s) {
      const Field& f = model.fields()[s];
      EXPECT_EQ(f.varid, static_cast<int>(s) + 1);
      if (f.spec->type == nwpio::DataType::Int) expect_field<std::int32_t>(f, d, t, checked);
      else expect_field<float>(f, d, t, checked);
    }
    EXPECT_GT(checked, 0);
  }
}

TEST(SyntheticModel, XzyArraysHoldTheFillRuleInsideAndPoisonOutside) { expect_model(MemoryOrder::XZY); }
TEST(SyntheticModel, XyzArraysHoldTheFillRuleInsideAndPoisonOutside) { expect_model(MemoryOrder::XYZ); }

TEST(SyntheticModel, SoilAndSeedFieldsSpanTheirOwnDimension) {
  const auto d = decompose(23, 17, 6, 1);
  nwpio::synthetic::SyntheticModel model(d, nwpio::wrf::history_schema({}));
  for (const Field& f : model.fields()) {
    if (f.spec->vertical_dim == "soil_layers_stag") {
      EXPECT_EQ(f.memory.lo[2], 0);
      EXPECT_EQ(f.memory.hi[2], 4) << f.spec->name;
      EXPECT_EQ(f.fill.hi[2], 4) << f.spec->name;
    } else if (f.spec->vertical_dim == "seed_dim_stag") {
      EXPECT_EQ(f.memory.hi[2], 8) << f.spec->name;
      EXPECT_EQ(f.elements, 8) << f.spec->name;
    }
  }
}

}  // namespace
