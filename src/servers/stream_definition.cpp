#include "servers/stream_definition.hpp"

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

// An optional HintReport as an int (-1: unset).
int report_code(const std::optional<HintReport>& r) { return r ? static_cast<int>(*r) : -1; }
std::optional<HintReport> report_of(int code) {
  if (code < 0) return std::nullopt;
  return static_cast<HintReport>(code);
}

// Every field of OutputOptions.
json options_json(const OutputOptions& o) {
  const HintOptions& h = o.hints;
  return {{"output_dir", bin(o.output_dir)},
          {"outname", bin(o.outname)},
          {"domain_id", o.domain_id},
          {"frames_per_file", o.frames_per_file},
          {"sizing_frames_per_file", o.sizing_frames_per_file},
          {"nocolons", o.nocolons},
          {"format", static_cast<int>(o.format)},
          {"use_netcdf_classic", o.use_netcdf_classic},
          {"deflate_level", o.deflate_level},
          {"compression_filter", o.compression_filter},
          {"shuffle", o.shuffle},
          {"quantize", bin(o.quantize.text)},
          {"quantize_origin", bin(o.quantize.origin)},
          {"compression_vars", bin(o.compression_vars.text)},
          {"compression_vars_origin", bin(o.compression_vars.origin)},
          {"chunk_max_bytes", o.chunk_max_bytes},
          {"io_form", static_cast<int>(o.io_form)},
          {"fallback_to_serial", o.fallback_to_serial},
          {"start_date", o.start_date},
          {"history_interval_seconds", o.history_interval_seconds},
          {"history_begin_seconds", o.history_begin_seconds},
          {"iofields_file", bin(o.iofields_file)},
          {"ignore_iofields_warning", o.ignore_iofields_warning},
          {"e_we", o.e_we},
          {"e_sn", o.e_sn},
          {"e_vert", o.e_vert},
          {"gather", static_cast<int>(o.gather)},
          {"reorder", static_cast<int>(o.reorder)},
          {"writer_ranks", o.writer_ranks},
          {"max_round_bytes", o.max_round_bytes},
          {"shared_memory_exchange", o.shared_memory_exchange},
          {"write_behind", o.write_behind},
          {"serial_chunk_bytes", o.serial_chunk_bytes},
          {"header_reserve_bytes", o.header_reserve_bytes},
          {"server_frames_in_flight", o.server_frames_in_flight},
          {"server_blocking_handoff", o.server_blocking_handoff},
          {"server_message_bytes", o.server_message_bytes},
          {"noclobber", o.noclobber},
          {"fsync_before_rename", o.fsync_before_rename},
          {"print_timing", o.print_timing},
          {"stats_json", bin(o.stats_json)},
          {"hints_profile_file", bin(h.profile_file)},
          {"hints_profile", h.profile},
          {"hints_overrides", h.overrides},
          {"hints_nl_profile_file", bin(h.namelist.profile_file)},
          {"hints_nl_profile", h.namelist.profile},
          {"hints_nl_assignments", bin(h.namelist.assignments)},
          {"hints_nl_report", report_code(h.namelist.report)},
          {"hints_report", report_code(h.report)}};
}

OutputOptions options_of(const json& j) {
  OutputOptions o;
  HintOptions& h = o.hints;
  o.output_dir = text(j.at("output_dir"));
  o.outname = text(j.at("outname"));
  j.at("domain_id").get_to(o.domain_id);
  j.at("frames_per_file").get_to(o.frames_per_file);
  j.at("sizing_frames_per_file").get_to(o.sizing_frames_per_file);
  j.at("nocolons").get_to(o.nocolons);
  o.format = static_cast<FileFormat>(j.at("format").get<int>());
  j.at("use_netcdf_classic").get_to(o.use_netcdf_classic);
  j.at("deflate_level").get_to(o.deflate_level);
  j.at("compression_filter").get_to(o.compression_filter);
  j.at("shuffle").get_to(o.shuffle);
  o.quantize = {text(j.at("quantize")), text(j.at("quantize_origin"))};
  o.compression_vars = {text(j.at("compression_vars")), text(j.at("compression_vars_origin"))};
  j.at("chunk_max_bytes").get_to(o.chunk_max_bytes);
  o.io_form = static_cast<IoForm>(j.at("io_form").get<int>());
  j.at("fallback_to_serial").get_to(o.fallback_to_serial);
  j.at("start_date").get_to(o.start_date);
  j.at("history_interval_seconds").get_to(o.history_interval_seconds);
  j.at("history_begin_seconds").get_to(o.history_begin_seconds);
  o.iofields_file = text(j.at("iofields_file"));
  j.at("ignore_iofields_warning").get_to(o.ignore_iofields_warning);
  j.at("e_we").get_to(o.e_we);
  j.at("e_sn").get_to(o.e_sn);
  j.at("e_vert").get_to(o.e_vert);
  o.gather = static_cast<GatherMode>(j.at("gather").get<int>());
  o.reorder = static_cast<ReorderMode>(j.at("reorder").get<int>());
  j.at("writer_ranks").get_to(o.writer_ranks);
  j.at("max_round_bytes").get_to(o.max_round_bytes);
  j.at("shared_memory_exchange").get_to(o.shared_memory_exchange);
  j.at("write_behind").get_to(o.write_behind);
  j.at("serial_chunk_bytes").get_to(o.serial_chunk_bytes);
  j.at("header_reserve_bytes").get_to(o.header_reserve_bytes);
  j.at("server_frames_in_flight").get_to(o.server_frames_in_flight);
  j.at("server_blocking_handoff").get_to(o.server_blocking_handoff);
  j.at("server_message_bytes").get_to(o.server_message_bytes);
  j.at("noclobber").get_to(o.noclobber);
  j.at("fsync_before_rename").get_to(o.fsync_before_rename);
  j.at("print_timing").get_to(o.print_timing);
  o.stats_json = text(j.at("stats_json"));
  h.profile_file = text(j.at("hints_profile_file"));
  j.at("hints_profile").get_to(h.profile);
  j.at("hints_overrides").get_to(h.overrides);
  h.namelist.profile_file = text(j.at("hints_nl_profile_file"));
  j.at("hints_nl_profile").get_to(h.namelist.profile);
  h.namelist.assignments = text(j.at("hints_nl_assignments"));
  h.namelist.report = report_of(j.at("hints_nl_report").get<int>());
  h.report = report_of(j.at("hints_report").get<int>());
  return o;
}

}  // namespace

std::string encode(const StreamDefinition& d) {
  json patches = json::array();
  for (const Box& b : d.patches) patches.push_back(box_json(b));
  const json j = {{"stream", d.stream},
                  {"schema", schema_json(d.schema)},
                  {"options", options_json(d.options)},
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
    d.options = options_of(j.at("options"));
    d.domain = box_of(j.at("domain"));
    for (const json& b : j.at("patches")) d.patches.push_back(box_of(b));
  } catch (const json::exception& e) {
    throw Error(ErrorKind::Internal, std::string("I/O server protocol: a malformed stream definition: ") + e.what());
  }
  return d;
}

}  // namespace nwpio::detail
