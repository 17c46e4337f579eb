// WRF's own I/O packages (ext_pnc_write_field, ext_adios2_write_field) copy each patch out of
// the model's memory array, halos dropped, into a contiguous "XField" (Transpose) before they
// write it; the benchmark's WRF-pattern methods make the same copy.
#pragma once

#include <cstdint>
#include <cstring>

#include "synthetic.hpp"

namespace nwpio::bench {

// The cells f.fill of field f, i fastest, then j, then k, into out (f.fill.volume() elements).
template <class T>
void copy_patch_to_xfield(const synthetic::Field& f, T* out) {
  const Box& b = f.fill;
  const Box& m = f.memory;
  const T* data = static_cast<const T*>(f.data());
  const std::int64_t ni = b.extent(0);
  for (std::int64_t k = b.lo[2]; k < b.hi[2]; ++k) {
    for (std::int64_t j = b.lo[1]; j < b.hi[1]; ++j) {
      const T* row = data + (b.lo[0] - m.lo[0]) + (j - m.lo[1]) * f.stride[1] + (k - m.lo[2]) * f.stride[2];
      std::memcpy(out, row, static_cast<std::size_t>(ni) * sizeof(T));
      out += ni;
    }
  }
}

}  // namespace nwpio::bench
