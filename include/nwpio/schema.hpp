// Schema: the dimensions, variables and attributes of one output stream.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "nwpio/types.hpp"

namespace nwpio {

// An attribute's value: text, or a list of int / float / double (netCDF NC_CHAR, NC_INT,
// NC_FLOAT, NC_DOUBLE). A scalar is a list of one.
using AttributeValue =
    std::variant<std::string, std::vector<std::int32_t>, std::vector<float>, std::vector<double>>;

struct Attribute {
  std::string name;
  AttributeValue value;
  bool operator==(const Attribute&) const = default;
};

struct VarSpec {
  std::string name;
  DataType type = DataType::Float;
  MemoryOrder memory_order = MemoryOrder::XZY;
  Stagger stagger = Stagger::None;
  bool time_dependent = true;
  // For orders with a k axis (XZY, XYZ, Z): empty means the model's vertical grid
  // (bottom_top, or bottom_top_stag when stagger is Z), whose memory extent is kms:kme.
  // Otherwise the name of an extra dimension added with Schema::add_dimension
  // (soil_layers_stag, seed_dim_stag, DateStrLen, ...), whose memory extent is [0, length).
  std::string vertical_dim;
  std::vector<Attribute> attributes;  // written in this order
};

// Sets `attribute` in a list: replaces the one of that name in its place, else appends.
// (For adjusting what wrf::variable() produced, e.g. spec.attributes.)
void set_attribute(std::vector<Attribute>& attributes, Attribute attribute);
// The attribute of that name, or nullptr.
const Attribute* find_attribute(const std::vector<Attribute>& attributes, std::string_view name) noexcept;

// An extra, non-decomposed dimension (the decomposed ones come from the Decomposition).
struct DimSpec {
  std::string name;
  std::int64_t length = 0;
};

class Schema {
 public:
  // Names of dimensions and variables: letters, digits and '_', not starting with a digit, at
  // most NC_MAX_NAME (256) characters; case-sensitive and unique.
  // Throws Error(Schema) for an empty, too long (> NC_MAX_NAME) or duplicate name, or a length < 1,
  // or a name the writer derives itself (Time, west_east[_stag], south_north[_stag],
  // bottom_top[_stag]).
  void add_dimension(std::string name, std::int64_t length);
  // Throws Error(Schema) for a duplicate or invalid name, an unknown vertical_dim, or an
  // order/type/stagger combination that makes no sense (e.g. Stagger::X on a Z field):
  //   X/Y stagger only on XZY, XYZ, XY; Z stagger only on XZY, XYZ, Z; none on Scalar;
  //   vertical_dim only on XZY, XYZ, Z; Char only on Z over a named dimension (DateStrLen) or
  //   Scalar, never staggered; attribute names valid netCDF names, each at most once.
  // Every message names the variable.
  void add_variable(VarSpec spec);
  bool remove_variable(std::string_view name);  // false if absent
  // Adds, or replaces the one of that name in its place (so the file's attribute order stays).
  // Throws Error(Schema) for an invalid netCDF attribute name.
  void set_global_attribute(Attribute attribute);

  const std::vector<DimSpec>& dimensions() const noexcept { return dims_; }
  const std::vector<VarSpec>& variables() const noexcept { return vars_; }
  const std::vector<Attribute>& global_attributes() const noexcept { return global_atts_; }
  const VarSpec* find(std::string_view name) const noexcept;          // exact name
  const VarSpec* find_icase(std::string_view name) const noexcept;    // case-insensitive (iofields); exact match wins
  const DimSpec* find_dimension(std::string_view name) const noexcept;

 private:
  std::vector<DimSpec> dims_;
  std::vector<VarSpec> vars_;
  std::vector<Attribute> global_atts_;
};

}  // namespace nwpio
