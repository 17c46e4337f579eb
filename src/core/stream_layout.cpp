#include "core/stream_layout.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "layout/compression_settings.hpp"
#include "layout/writer_chunks.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "wrf/wrf_chunking.hpp"

namespace nwpio::detail {

const std::vector<std::string>& wrf_dimension_order() {
  static const std::vector<std::string> order = {
      std::string(wrf::kTime),          std::string(wrf::kDateStrLen),     std::string(wrf::kWestEast),
      std::string(wrf::kSouthNorth),    std::string(wrf::kBottomTop),      std::string(wrf::kBottomTopStag),
      std::string(wrf::kSoilLayersStag), std::string(wrf::kWestEastStag),  std::string(wrf::kSouthNorthStag)};
  return order;
}

namespace {

// CDF-2 holds at most 2^32 - 4 bytes per variable (per record for record variables) and
// dimension lengths up to 2^31 - 1; beyond that only CDF-5 (64-bit data) can hold the file.
constexpr std::int64_t kCdf2MaxVarBytes = (std::int64_t{1} << 32) - 4;
constexpr std::int64_t kCdf2MaxDim = std::numeric_limits<std::int32_t>::max();

// Lengths of the grid dimensions, which the decomposition decides (staggered counts).
std::map<std::string, std::int64_t> grid_dimensions(const Box& domain) {
  return {{std::string(wrf::kWestEast), domain.extent(kAxisI) - 1},
          {std::string(wrf::kWestEastStag), domain.extent(kAxisI)},
          {std::string(wrf::kSouthNorth), domain.extent(kAxisJ) - 1},
          {std::string(wrf::kSouthNorthStag), domain.extent(kAxisJ)},
          {std::string(wrf::kBottomTop), domain.extent(kAxisK) - 1},
          {std::string(wrf::kBottomTopStag), domain.extent(kAxisK)}};
}

std::int64_t dimension_length(const std::string& name, const Schema& schema,
                              const std::map<std::string, std::int64_t>& grid, const std::string& var) {
  if (auto it = grid.find(name); it != grid.end()) return it->second;
  if (name == wrf::kDateStrLen) return wrf::kDateStrLenValue;
  if (const DimSpec* d = schema.find_dimension(name)) return d->length;
  throw Error(ErrorKind::Schema, "variable " + var + " uses dimension " + name +
                                     ", which is neither a grid dimension nor defined with Schema::add_dimension");
}

// The part of the file every rank writes: its patch cut to the field's staggered extent,
// shifted to file indices; k from the patch for the vertical grid, whole for a named dimension.
void set_file_boxes(FieldGeometry& g, const VarSpec& spec, const Grid& d) {
  const Box& dom = d.domain;
  const bool grid_k = spec.vertical_dim.empty() && is_3d(spec.memory_order);
  g.file_boxes.reserve(d.patches.size());
  for (const Box& patch : d.patches) {
    const Box w = Decomposition::write_box(patch, dom, spec.stagger);
    Box f;
    for (int a = 0; a < 2; ++a) {
      f.lo[a] = w.lo[a] - dom.lo[a];
      f.hi[a] = w.hi[a] - dom.lo[a];
    }
    if (grid_k) {
      f.lo[kAxisK] = w.lo[kAxisK] - dom.lo[kAxisK];
      f.hi[kAxisK] = w.hi[kAxisK] - dom.lo[kAxisK];
    } else {
      f.lo[kAxisK] = 0;
      f.hi[kAxisK] = g.nk;
    }
    if (f.empty()) f = Box{};
    g.file_boxes.push_back(f);
  }
}

// io_form 13: chunks along the writers' shares, the filters of the compression settings on the
// fields with i and j, and each field's cut rule (so that the rearranger's shares keep chunks whole).
void set_writer_chunks(StreamLayout& out, const OutputOptions& options, std::size_t ranks,
                       const CompressionSettings& settings) {
  FileLayout& file = out.file;
  std::vector<std::pair<std::string, DataType>> names;
  for (const FieldGeometry& g : out.fields) names.emplace_back(g.name, g.type);
  settings.check_variables(names);
  const int writers = options.writer_ranks <= 0 ? static_cast<int>(ranks)
                                                 : std::min(options.writer_ranks, static_cast<int>(ranks));
  for (std::size_t v = 0; v < file.vars.size(); ++v) {
    FileLayout::Var& var = file.vars[v];
    const FieldStorage st = settings.for_variable(var.name, var.type);
    std::string origin = "chunk rule";
    if (!st.chunk.empty()) {
      var.chunks.clear();
      if (var.record) var.chunks.push_back(1);
      for (std::int64_t c : st.chunk) var.chunks.push_back(static_cast<std::size_t>(c));
      origin = st.chunk_origin;
    } else {
      var.chunks = writer_chunk_shape(file, var, writers, options.chunk_max_bytes);
    }
    const RowCut cut = row_cut_of(file, var, origin);
    const bool horizontal = var.dims.size() - (var.record ? 1 : 0) >= 2;
    if (horizontal && var.type != DataType::Char) {
      var.filters.shuffle = st.shuffle;
      var.filters.deflate_level = st.deflate ? st.deflate_level : 0;
      var.filters.quantize = static_cast<int>(st.quantize);
      var.filters.quantize_digits = st.quantize_digits;
    }
    if (v == 0) continue;  // Times: not in out.fields
    out.fields[v - 1].cut_period = cut.period;
    out.fields[v - 1].cut_step = cut.step;
  }
}

}  // namespace

MemoryMap memory_map(const FieldGeometry& g, const Box& mem, const Box& dom) {
  MemoryMap m;
  // k of the model's vertical grid lives at kms:kme; a named dimension at [0, length).
  const std::int64_t mk0 = g.grid_k ? mem.lo[kAxisK] : 0;
  const std::int64_t nkm = g.grid_k ? mem.extent(kAxisK) : g.nk;
  const std::int64_t gk0 = g.grid_k ? dom.lo[kAxisK] : 0;
  const std::int64_t nim = mem.extent(kAxisI), njm = mem.extent(kAxisJ);
  const std::int64_t di = dom.lo[kAxisI] - mem.lo[kAxisI];
  const std::int64_t dj = dom.lo[kAxisJ] - mem.lo[kAxisJ];
  switch (g.order) {
    case MemoryOrder::XZY:  // (i, k, j)
      m.stride_k = nim;
      m.stride_j = nim * nkm;
      break;
    case MemoryOrder::XYZ:  // (i, j, k)
      m.stride_j = nim;
      m.stride_k = nim * njm;
      break;
    case MemoryOrder::XY:
      m.stride_j = nim;
      break;
    case MemoryOrder::Z:
      m.origin = gk0 - mk0;
      m.stride_k = 1;
      return m;
    case MemoryOrder::Scalar: return m;
  }
  m.origin = di + dj * m.stride_j + (gk0 - mk0) * m.stride_k;
  return m;
}

MemoryMap compact_map(const Box& box) noexcept {
  MemoryMap m;
  m.stride_j = box.extent(kAxisI);
  m.stride_k = box.extent(kAxisI) * box.extent(kAxisJ);
  m.origin = -(box.lo[kAxisI] + box.lo[kAxisJ] * m.stride_j + box.lo[kAxisK] * m.stride_k);
  return m;
}

namespace {

// The file's dimensions: those the variables use, in WRF's order, then the schema's other
// dimensions in schema order. Returns each variable's dimension names (outermost first).
std::vector<std::vector<std::string>> lay_out_dimensions(const Schema& schema, const Grid& d, FileLayout& file,
                                                         std::map<std::string, std::int64_t>& used,
                                                         std::map<std::string, int>& dim_index) {
  const auto grid = grid_dimensions(d.domain);
  std::vector<std::vector<std::string>> var_dims;
  used = {{std::string(wrf::kTime), 0}, {std::string(wrf::kDateStrLen), wrf::kDateStrLenValue}};
  for (const VarSpec& spec : schema.variables()) {
    if (spec.name == "Times") throw Error(ErrorKind::Schema, "variable Times is written by the Writer itself");
    var_dims.push_back(wrf::file_dimensions(spec));
    for (const std::string& n : var_dims.back()) {
      if (n == wrf::kTime) continue;
      const std::int64_t len = dimension_length(n, schema, grid, spec.name);
      if (len < 1) throw Error(ErrorKind::Schema, "variable " + spec.name + ": dimension " + n + " is empty");
      used[n] = len;
    }
  }
  if (const DimSpec* ds = schema.find_dimension(wrf::kDateStrLen); ds && ds->length != wrf::kDateStrLenValue) {
    throw Error(ErrorKind::Schema, "dimension DateStrLen must be 19 (WRF's date length), not " + std::to_string(ds->length));
  }
  auto add_dim = [&](const std::string& n) {
    if (!used.count(n) || dim_index.count(n)) return;
    dim_index[n] = static_cast<int>(file.dims.size());
    file.dims.push_back({n, used[n]});
  };
  for (const std::string& n : wrf_dimension_order()) add_dim(n);
  for (const DimSpec& ds : schema.dimensions()) add_dim(ds.name);
  for (const auto& [n, len] : used) add_dim(n);
  return var_dims;
}

// Times: 19 characters per record, varid 0, held by rank 0 (the frame's date).
FieldGeometry times_geometry(std::size_t nranks) {
  FieldGeometry times;
  times.schema_index = -1;
  times.varid = 0;
  times.name = "Times";
  times.type = DataType::Char;
  times.elem = 1;
  times.order = MemoryOrder::Z;
  times.nk = wrf::kDateStrLenValue;
  times.memory.stride_k = 1;
  times.file_boxes.assign(nranks, Box{});
  times.file_boxes[0].hi = {1, 1, times.nk};
  return times;
}

// Schema variable s: its file extents (`spatial`, outermost first), memory map and every
// rank's file box.
FieldGeometry variable_geometry(const VarSpec& spec, std::size_t s, const std::vector<std::int64_t>& spatial,
                                const Grid& d) {
  FieldGeometry g;
  g.schema_index = static_cast<int>(s);
  g.varid = static_cast<int>(s) + 1;
  g.name = spec.name;
  g.type = spec.type;
  g.elem = size_of(spec.type);
  g.order = spec.memory_order;
  g.decomposed = is_decomposed(spec.memory_order);
  g.record = spec.time_dependent;
  g.grid_k = spec.vertical_dim.empty();
  const std::size_t want = is_3d(spec.memory_order) ? 3 : spec.memory_order == MemoryOrder::XY ? 2
                           : spec.memory_order == MemoryOrder::Z                                ? 1
                                                                                                 : 0;
  if (spatial.size() != want) {
    throw Error(ErrorKind::Schema, "variable " + spec.name + ": memory order " + std::string(to_string(spec.memory_order)) +
                                       " needs " + std::to_string(want) + " spatial dimensions, the file has " +
                                       std::to_string(spatial.size()));
  }
  if (want == 3 || want == 1) g.nk = spatial[0];
  if (want >= 2) {
    g.nj = spatial[want - 2];
    g.ni = spatial[want - 1];
    const Box fd = Decomposition::write_box(d.domain, d.domain, spec.stagger);
    if (g.ni != fd.extent(kAxisI) || g.nj != fd.extent(kAxisJ)) {
      throw Error(ErrorKind::Internal, "variable " + spec.name + ": file extents do not match the decomposition");
    }
  }
  g.memory = memory_map(g, d.memory, d.domain);
  if (g.decomposed) {
    set_file_boxes(g, spec, d);
  } else {  // rank 0 writes a variable without i and j from its own memory
    g.file_boxes.assign(d.patches.size(), Box{});
    g.file_boxes[0].hi = {1, 1, g.nk};
  }
  return g;
}

}  // namespace

StreamLayout build_stream_layout(const Schema& schema, const Grid& d, const OutputOptions& options,
                                 const BackendTraits& traits, const CompressionSettings* compression) {
  StreamLayout out;
  FileLayout& file = out.file;
  file.format = traits.format;
  file.header_reserve_bytes = options.header_reserve_bytes;
  file.deflate_level = options.deflate_level;
  file.global_attributes = schema.global_attributes();
  std::map<std::string, std::int64_t> used;
  std::map<std::string, int> dim_index;
  const auto var_dims = lay_out_dimensions(schema, d, file, used, dim_index);

  // Times first (varid 0), then the schema's variables in schema order.
  file.vars.push_back({"Times", DataType::Char, {dim_index.at(std::string(wrf::kTime)),
                                                 dim_index.at(std::string(wrf::kDateStrLen))}, {}, true, {}, {}});
  out.times = times_geometry(d.patches.size());
  out.record_bytes = wrf::kDateStrLenValue;
  std::string cdf5_reason;  // why CDF-2 cannot hold the file (empty: it can)
  for (const auto& [n, len] : used) {
    if (len > kCdf2MaxDim && cdf5_reason.empty()) {
      cdf5_reason = "dimension " + n + " has " + std::to_string(len) + " points, over CDF-2's 2^31-1";
    }
  }
  const auto& specs = schema.variables();
  for (std::size_t s = 0; s < specs.size(); ++s) {
    const VarSpec& spec = specs[s];
    FileLayout::Var v{spec.name, spec.type, {}, spec.attributes, spec.time_dependent, {}, {}};
    std::vector<std::int64_t> spatial;
    for (const std::string& n : var_dims[s]) {
      v.dims.push_back(dim_index.at(n));
      if (n != wrf::kTime) spatial.push_back(used.at(n));
    }
    file.vars.push_back(std::move(v));
    FieldGeometry g = variable_geometry(spec, s, spatial, d);
    (spec.time_dependent ? out.record_bytes : out.static_bytes) += g.bytes();
    if (g.bytes() > kCdf2MaxVarBytes && cdf5_reason.empty()) {
      cdf5_reason = "variable " + spec.name + " holds " + std::to_string(g.bytes()) +
                    " bytes per record, over CDF-2's 4 GiB limit";
    }
    out.fields.push_back(std::move(g));
  }
  // (A backend that cannot switch names the format that works when CDF-2 refuses.)
  if (!cdf5_reason.empty() && file.format == FileFormat::Cdf2 && traits.may_switch_to_cdf5) {
    file.format = FileFormat::Cdf5;
    out.format_note = "nwpio: " + cdf5_reason + ": writing CDF-5 (64-bit data) instead of CDF-2";
  }
  // Formats that chunk: chunks along the writers' shares where every writer shares every
  // variable (io_form 13), else WRF's chunk shapes (io_form 2; compressed at deflate_level).
  if (file.format == FileFormat::Netcdf4 && traits.shares_each_variable) {
    set_writer_chunks(out, options, d.patches.size(), compression ? *compression : CompressionSettings::parse(options));
  } else if (file.format == FileFormat::Netcdf4) {
    for (FileLayout::Var& v : file.vars) v.chunks = wrf_chunk_sizes(file, v);
  }
  return out;
}

}  // namespace nwpio::detail
