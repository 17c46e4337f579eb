#include "servers/stream_definition.hpp"

#include "config/option_table.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>

#include "nwpio/error.hpp"

namespace nwpio::detail {

namespace {

using nlohmann::json;

json bin(std::string_view text) { return json::binary(std::vector<std::uint8_t>(text.begin(), text.end())); }
std::string text(const json& j) {
  const auto& b = j.get_binary();
  return std::string(b.begin(), b.end());
}

json box_json(const Box& b) { return json::array({b.lo[0], b.lo[1], b.lo[2], b.hi[0], b.hi[1], b.hi[2]}); }
Box box_of(const json& j) {
  Box b;
  for (std::size_t a = 0; a < 3; ++a) {
    b.lo[a] = j.at(a).get<std::int64_t>();
    b.hi[a] = j.at(a + 3).get<std::int64_t>();
  }
  return b;
}

// An attribute: its kind and values (floats and doubles exact in MessagePack).
json attribute_json(const Attribute& a) {
  json j = {{"n", a.name}};
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          j["t"] = "text";
          j["v"] = bin(v);
        } else if constexpr (std::is_same_v<T, std::vector<std::int32_t>>) {
          j["t"] = "int";
          j["v"] = v;
        } else if constexpr (std::is_same_v<T, std::vector<float>>) {
          j["t"] = "float";
          j["v"] = v;
        } else {
          j["t"] = "double";
          j["v"] = v;
        }
      },
      a.value);
  return j;
}

Attribute attribute_of(const json& j) {
  Attribute a{j.at("n").get<std::string>(), {}};
  const std::string t = j.at("t").get<std::string>();
  if (t == "text") {
    a.value = text(j.at("v"));
  } else if (t == "int") {
    a.value = j.at("v").get<std::vector<std::int32_t>>();
  } else if (t == "float") {
    a.value = j.at("v").get<std::vector<float>>();
  } else {
    a.value = j.at("v").get<std::vector<double>>();
  }
  return a;
}

json attributes_json(const std::vector<Attribute>& atts) {
  json list = json::array();
  for (const Attribute& a : atts) list.push_back(attribute_json(a));
  return list;
}

json schema_json(const Schema& s) {
  json dims = json::array();
  for (const DimSpec& d : s.dimensions()) dims.push_back({{"n", d.name}, {"l", d.length}});
  json vars = json::array();
  for (const VarSpec& v : s.variables()) {
    vars.push_back({{"n", v.name},
                    {"t", static_cast<int>(v.type)},
                    {"o", static_cast<int>(v.memory_order)},
                    {"g", static_cast<int>(v.stagger)},
                    {"td", v.time_dependent},
                    {"vd", v.vertical_dim},
                    {"a", attributes_json(v.attributes)}});
  }
  return {{"dims", dims}, {"vars", vars}, {"globals", attributes_json(s.global_attributes())}};
}

Schema schema_of(const json& j) {
  Schema s;
  for (const json& d : j.at("dims")) s.add_dimension(d.at("n").get<std::string>(), d.at("l").get<std::int64_t>());
  for (const json& v : j.at("vars")) {
    VarSpec spec;
    spec.name = v.at("n").get<std::string>();
    spec.type = static_cast<DataType>(v.at("t").get<int>());
    spec.memory_order = static_cast<MemoryOrder>(v.at("o").get<int>());
    spec.stagger = static_cast<Stagger>(v.at("g").get<int>());
    spec.time_dependent = v.at("td").get<bool>();
    spec.vertical_dim = v.at("vd").get<std::string>();
    for (const json& a : v.at("a")) spec.attributes.push_back(attribute_of(a));
    s.add_variable(std::move(spec));
  }
  for (const json& a : j.at("globals")) s.set_global_attribute(attribute_of(a));
  return s;
}

}  // namespace

std::string encode(const StreamDefinition& d) {
  json patches = json::array();
  for (const Box& b : d.patches) patches.push_back(box_json(b));
  const json j = {{"stream", d.stream},
                  {"schema", schema_json(d.schema)},
                  {"options", d.options},  // every row of the option table (config/option_table.hpp)
                  {"domain", box_json(d.domain)},
                  {"patches", patches}};
  const std::vector<std::uint8_t> v = json::to_msgpack(j);
  return std::string(reinterpret_cast<const char*>(v.data()), v.size());
}

StreamDefinition decode_stream_definition(std::string_view bytes) {
  StreamDefinition d;
  try {
    const json j = json::from_msgpack(bytes.begin(), bytes.end());
    d.stream = j.at("stream").get<int>();
    d.schema = schema_of(j.at("schema"));
    j.at("options").get_to(d.options);
    d.domain = box_of(j.at("domain"));
    for (const json& b : j.at("patches")) d.patches.push_back(box_of(b));
  } catch (const json::exception& e) {
    throw Error(ErrorKind::Internal, std::string("I/O server protocol: a malformed stream definition: ") + e.what());
  }
  return d;
}

}  // namespace nwpio::detail
