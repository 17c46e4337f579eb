#include "core/pack.hpp"

#include <algorithm>
#include <bit>

#include "util/mpi_call.hpp"

namespace nwpio::detail {

std::int64_t count_rows(const FieldGeometry& g, const Box& box, std::int64_t ra, std::int64_t rb) noexcept {
  if (box.empty() || ra >= rb) return 0;
  const std::int64_t nj = g.nj;
  const std::int64_t k_first = std::max(box.lo[kAxisK], ra / nj);
  const std::int64_t k_last = std::min(box.hi[kAxisK] - 1, (rb - 1) / nj);
  std::int64_t n = 0;
  for (std::int64_t k = k_first; k <= k_last; ++k) {
    const std::int64_t j0 = std::max(box.lo[kAxisJ], ra - k * nj);
    const std::int64_t j1 = std::min(box.hi[kAxisJ], rb - k * nj);
    if (j1 > j0) n += j1 - j0;
  }
  return n;
}

namespace {

// Element-wise byte swap; written as load, swap, store so that the compiler vectorizes it.
// x86-64's baseline (SSE2) has no byte shuffle: an AVX2 clone is chosen at load time where the
// CPU has it (GCC's target_clones; one ifunc per function).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define NWPIO_SWAP_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define NWPIO_SWAP_CLONES
#endif
template <class U, U (*Swap)(U)>
NWPIO_SWAP_CLONES void swap_copy(std::byte* dst, const std::byte* src, std::size_t n) noexcept {
  for (std::size_t e = 0; e < n; ++e) {
    U v;
    std::memcpy(&v, src + e * sizeof(U), sizeof(U));
    v = Swap(v);
    std::memcpy(dst + e * sizeof(U), &v, sizeof(U));
  }
}
std::uint16_t bswap16(std::uint16_t v) { return __builtin_bswap16(v); }
std::uint32_t bswap32(std::uint32_t v) { return __builtin_bswap32(v); }
std::uint64_t bswap64(std::uint64_t v) { return __builtin_bswap64(v); }

}  // namespace

void copy_elements(std::byte* dst, const std::byte* src, std::size_t bytes, std::size_t elem, bool big_endian) noexcept {
  if (bytes == 0) return;  // (memcpy's pointers must not be null, even for 0 bytes)
  if (!big_endian || elem == 1 || std::endian::native == std::endian::big) {
    std::memcpy(dst, src, bytes);
    return;
  }
  switch (elem) {
    case 2: swap_copy<std::uint16_t, bswap16>(dst, src, bytes / 2); break;
    case 4: swap_copy<std::uint32_t, bswap32>(dst, src, bytes / 4); break;
    case 8: swap_copy<std::uint64_t, bswap64>(dst, src, bytes / 8); break;
    default: std::memcpy(dst, src, bytes);
  }
}

std::byte* pack_rows(const FieldGeometry& g, const FieldSource& src, const Box& box, std::int64_t ra, std::int64_t rb,
                     std::byte* out, bool big_endian) noexcept {
  const auto* base = static_cast<const std::byte*>(src.data);
  const MemoryMap& m = src.map;
  const auto es = static_cast<std::int64_t>(g.elem);
  const std::int64_t i0 = box.lo[kAxisI];
  const auto width = static_cast<std::size_t>(box.extent(kAxisI) * es);
  for_each_row(g, box, ra, rb, [&](std::int64_t k, std::int64_t j) {
    const std::int64_t off = m.origin + i0 + j * m.stride_j + k * m.stride_k;
    copy_elements(out, base + off * es, width, g.elem, big_endian);
    out += width;
  });
  return out;
}

void scatter_rows(const FieldGeometry& g, const FieldSource& src, const Box& box, std::int64_t ra, std::int64_t rb,
                  std::byte* slab, bool big_endian) noexcept {
  const auto* base = static_cast<const std::byte*>(src.data);
  const MemoryMap& m = src.map;
  const auto es = static_cast<std::int64_t>(g.elem);
  const std::int64_t i0 = box.lo[kAxisI];
  const std::int64_t rowb = g.row_bytes();
  const auto width = static_cast<std::size_t>(box.extent(kAxisI) * es);
  for_each_row(g, box, ra, rb, [&](std::int64_t k, std::int64_t j) {
    const std::int64_t off = m.origin + i0 + j * m.stride_j + k * m.stride_k;
    copy_elements(slab + (k * g.nj + j - ra) * rowb + i0 * es, base + off * es, width, g.elem, big_endian);
  });
}

MPI_Datatype mpi_type_of(DataType type) noexcept {
  switch (type) {
    case DataType::Float: return MPI_FLOAT;
    case DataType::Double: return MPI_DOUBLE;
    case DataType::Int: return MPI_INT;
    case DataType::Char: return MPI_CHAR;
  }
  return MPI_BYTE;
}

std::int64_t datatype_origin_bytes(const FieldGeometry& g, const MemoryMap& m, const Box& box) noexcept {
  const std::int64_t off = m.origin + box.lo[kAxisI] + box.lo[kAxisJ] * m.stride_j + box.lo[kAxisK] * m.stride_k;
  return off * static_cast<std::int64_t>(g.elem);
}

MPI_Datatype make_box_datatype(const FieldGeometry& g, const MemoryMap& m, const Box& box) {
  // row: the i run (contiguous in memory); then j rows at stride_j; then k planes at stride_k.
  // The element type stays visible to PnetCDF, which needs it for the byte swap.
  const auto es = static_cast<MPI_Aint>(g.elem);
  MPI_Datatype row = MPI_DATATYPE_NULL, plane = MPI_DATATYPE_NULL, whole = MPI_DATATYPE_NULL;
  mpi_check(MPI_Type_contiguous(static_cast<int>(box.extent(kAxisI)), mpi_type_of(g.type), &row),
            "MPI_Type_contiguous");
  mpi_check(MPI_Type_create_hvector(static_cast<int>(box.extent(kAxisJ)), 1,
                                    static_cast<MPI_Aint>(m.stride_j) * es, row, &plane),
            "MPI_Type_create_hvector");
  mpi_check(MPI_Type_create_hvector(static_cast<int>(box.extent(kAxisK)), 1,
                                    static_cast<MPI_Aint>(m.stride_k) * es, plane, &whole),
            "MPI_Type_create_hvector");
  mpi_check(MPI_Type_commit(&whole), "MPI_Type_commit");
  MPI_Type_free(&row);
  MPI_Type_free(&plane);
  return whole;
}

}  // namespace nwpio::detail
