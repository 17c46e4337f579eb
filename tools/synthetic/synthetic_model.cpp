// SyntheticModel: WRF-style arrays with halos, filled by the fill rule (see synthetic.hpp).
#include <algorithm>
#include <cstring>
#include <utility>

#include "nwpio/error.hpp"
#include "nwpio/wrf_date.hpp"
#include "nwpio_model/wrf_history.hpp"
#include "synthetic.hpp"

namespace nwpio::synthetic {
namespace {

// Extent of the k axis of a field: the model's vertical grid (memory kms:kme, filled up to the
// field's staggered end) or a named dimension [0, length).
struct KRange {
  std::int64_t mem_lo, mem_hi, fill_lo, fill_hi;
};

KRange k_range(const VarSpec& spec, const Schema& schema, const Decomposition& d, const Box& write_box) {
  if (!spec.vertical_dim.empty()) {
    const DimSpec* dim = schema.find_dimension(spec.vertical_dim);
    if (!dim) {
      throw Error(ErrorKind::Schema, "synthetic model: variable " + spec.name + " uses unknown dimension " +
                                         spec.vertical_dim);
    }
    return {0, dim->length, 0, dim->length};
  }
  const Box& memory = d.memory();
  if (is_3d(spec.memory_order)) return {memory.lo[2], memory.hi[2], write_box.lo[2], write_box.hi[2]};
  // A 1-D vertical field is not decomposed: every rank holds (and fills) all of it.
  const Box field = d.field_domain(spec.stagger);
  return {memory.lo[2], memory.hi[2], field.lo[2], field.hi[2]};
}

// A field's boxes, strides and element count, nothing allocated.
Field field_shape(const VarSpec& spec, int varid, const Schema& schema, const Decomposition& d) {
  Field f;
  f.spec = &spec;
  f.varid = varid;
  const MemoryOrder order = spec.memory_order;
  const Box write_box = d.write_box(spec.stagger);
  if (is_decomposed(order)) {
    for (int a = 0; a < 2; ++a) {
      f.memory.lo[a] = d.memory().lo[a];
      f.memory.hi[a] = d.memory().hi[a];
      f.fill.lo[a] = write_box.lo[a];
      f.fill.hi[a] = write_box.hi[a];
    }
  } else {
    for (int a = 0; a < 2; ++a) {
      f.memory.lo[a] = f.fill.lo[a] = 0;
      f.memory.hi[a] = f.fill.hi[a] = 1;
    }
  }
  if (order == MemoryOrder::XY || order == MemoryOrder::Scalar) {
    f.memory.lo[2] = f.fill.lo[2] = 0;
    f.memory.hi[2] = f.fill.hi[2] = 1;
  } else {
    const KRange k = k_range(spec, schema, d, write_box);
    f.memory.lo[2] = k.mem_lo;
    f.memory.hi[2] = k.mem_hi;
    f.fill.lo[2] = k.fill_lo;
    f.fill.hi[2] = k.fill_hi;
  }
  const std::int64_t ni = f.memory.extent(0), nj = f.memory.extent(1), nk = f.memory.extent(2);
  switch (order) {
    case MemoryOrder::XZY: f.stride = {1, ni * nk, ni}; break;  // (i, k, j)
    case MemoryOrder::XYZ:                                        // (i, j, k)
    case MemoryOrder::XY:
    case MemoryOrder::Z:
    case MemoryOrder::Scalar: f.stride = {1, ni, ni * nj}; break;
  }
  f.elements = ni * nj * nk;
  return f;
}

Field make_field(const VarSpec& spec, int varid, const Schema& schema, const Decomposition& d) {
  Field f = field_shape(spec, varid, schema, d);
  const std::size_t bytes = static_cast<std::size_t>(f.elements) * size_of(spec.type);
  f.storage.resize((bytes + sizeof(double) - 1) / sizeof(double));
  return f;
}

template <class T>
void poison(Field& f) {
  std::fill_n(static_cast<T*>(f.data()), f.elements, static_cast<T>(kPoison));
}

template <class T>
void fill_field(Field& f, std::int64_t t) {
  T* data = static_cast<T*>(f.data());
  const Box& m = f.memory;
  const Box& b = f.fill;
  for (std::int64_t k = b.lo[2]; k < b.hi[2]; ++k) {
    for (std::int64_t j = b.lo[1]; j < b.hi[1]; ++j) {
      T* row = data + (j - m.lo[1]) * f.stride[1] + (k - m.lo[2]) * f.stride[2] - m.lo[0];
      // Running remainder: each step along i adds 7 (mod 1021), no division per element.
      std::int64_t value = fill_value(b.lo[0], j, k, t, f.varid);
      for (std::int64_t i = b.lo[0]; i < b.hi[0]; ++i) {
        row[i] = static_cast<T>(value);
        value += 7;
        if (value >= kModulus) value -= kModulus;
      }
    }
  }
}

template <class Fn>
void with_type(DataType type, const std::string& name, Fn&& fn) {
  switch (type) {
    case DataType::Float: fn(float{}); return;
    case DataType::Double: fn(double{}); return;
    case DataType::Int: fn(std::int32_t{}); return;
    case DataType::Char: break;
  }
  throw Error(ErrorKind::Schema, "synthetic model: the fill rule has no char variables (" + name + ")");
}

}  // namespace

std::optional<std::int64_t> time_origin_seconds(const VarSpec& spec) {
  static constexpr std::string_view kSince = "minutes since ";
  if (spec.name != wrf::kTimeCoordinate) return std::nullopt;
  const Attribute* units = find_attribute(spec.attributes, "units");
  const auto* text = units ? std::get_if<std::string>(&units->value) : nullptr;
  if (!text || text->size() != kSince.size() + 19 || text->compare(0, kSince.size(), kSince) != 0) return std::nullopt;
  std::string date = text->substr(kSince.size());
  if (date[10] != ' ') return std::nullopt;
  date[10] = '_';
  if (!wrf::is_valid_date(date)) return std::nullopt;
  return wrf::date_to_seconds(date);
}

SyntheticModel::SyntheticModel(const Decomposition& decomposition, Schema schema) : schema_(std::move(schema)) {
  const auto& vars = schema_.variables();
  fields_.reserve(vars.size());
  for (std::size_t s = 0; s < vars.size(); ++s) {
    Field f = make_field(vars[s], variable_id(s), schema_, decomposition);
    with_type(vars[s].type, vars[s].name, [&](auto tag) { poison<decltype(tag)>(f); });
    fields_.push_back(std::move(f));
  }
}

void SyntheticModel::fill(std::int64_t frame) {
  for (Field& f : fields_) {
    with_type(f.spec->type, f.spec->name, [&](auto tag) { fill_field<decltype(tag)>(f, frame); });
  }
}

void SyntheticModel::fill(std::int64_t frame, std::string_view date) {
  fill(frame);
  const std::int64_t now = wrf::date_to_seconds(date);
  for (Field& f : fields_) {
    const auto origin = time_origin_seconds(*f.spec);
    if (!origin) continue;
    const double minutes = static_cast<double>(now - *origin) / 60.0;
    with_type(f.spec->type, f.spec->name, [&](auto tag) {
      using T = decltype(tag);
      std::fill_n(static_cast<T*>(f.data()), f.elements, static_cast<T>(minutes));
    });
  }
}

void SyntheticModel::put_all(Writer& writer) const {
  for (const Field& f : fields_) writer.put(f.spec->name, f.data(), f.spec->type);
}

std::int64_t SyntheticModel::bytes_for(const Decomposition& decomposition, const Schema& schema) {
  std::int64_t total = 0;
  const auto& vars = schema.variables();
  for (std::size_t s = 0; s < vars.size(); ++s) {
    total += field_shape(vars[s], variable_id(s), schema, decomposition).elements * static_cast<std::int64_t>(size_of(vars[s].type));
  }
  return total;
}

std::int64_t SyntheticModel::memory_bytes() const noexcept {
  std::int64_t total = 0;
  for (const Field& f : fields_) total += f.elements * static_cast<std::int64_t>(size_of(f.spec->type));
  return total;
}

}  // namespace nwpio::synthetic
