// FileLayout: the structure of one file, fully resolved by the core before any backend sees it
// (names, lengths, ids by position, attributes, storage hints). Every backend writes exactly
// this; none of them decides names or shapes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/types.hpp"

namespace nwpio::detail {

struct FileLayout {
  struct Dim {
    std::string name;
    std::int64_t length = 0;  // 0 = unlimited (Time)
  };
  struct Var {
    std::string name;
    DataType type = DataType::Float;
    std::vector<int> dims;  // indices into dims, outermost first
    std::vector<Attribute> attributes;
    bool record = false;    // has the unlimited dimension first
    // Chunk shape for formats that chunk (netCDF-4), one length per dimension in `dims` order;
    // empty: the format's default storage (and no compression). Decided by the layer that
    // knows the model's conventions (WRF's chunking), carried here for the backend.
    std::vector<std::size_t> chunks;
  };
  std::vector<Dim> dims;
  std::vector<Var> vars;
  std::vector<Attribute> global_attributes;
  FileFormat format = FileFormat::Cdf2;
  std::int64_t header_reserve_bytes = 0;  // free space left in the header
  int deflate_level = 0;                  // chunked variables: deflate + shuffle at this level (0: none)
};

// Bytes of one record of `var` (record variables), or of the whole variable (fixed ones).
std::int64_t record_bytes(const FileLayout& layout, const FileLayout::Var& var);

// Rows of one record of `var`: (k, j) rows of its innermost dimension, outer dimensions
// flattened (a variable of rank 0 or 1 has one element per row). Backends turn rows back into
// hyperslabs with the variable's own dimensions.
struct VarRows {
  std::int64_t nk = 1, nj = 1, ni = 1;  // outer (all but the last two, flattened), second-last, last
  std::int64_t rows() const noexcept { return nk * nj; }
};
VarRows var_rows(const FileLayout& layout, const FileLayout::Var& var);

}  // namespace nwpio::detail
