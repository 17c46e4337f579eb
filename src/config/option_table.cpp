// The option table (option_table.hpp). Rows are data plus captureless functions made by the
// small templates below from a member pointer; the few options that map onto something else
// (an enum, a nested struct, a text with its origin) spell their functions out.
#include "config/option_table.hpp"

#include <array>
#include <limits>

#include "nwpio/error.hpp"

namespace nwpio::detail {

namespace {

using nlohmann::json;
constexpr std::int64_t kAny = std::numeric_limits<std::int64_t>::max();

// Text travels as bytes (paths need not be UTF-8).
json bytes_of(const std::string& s) { return json::binary(std::vector<std::uint8_t>(s.begin(), s.end())); }
std::string text_of(const json& j) {
  if (j.is_binary()) return {j.get_binary().begin(), j.get_binary().end()};
  return j.get<std::string>();
}

template <auto M>
json get_plain(const OutputOptions& o) {
  return o.*M;
}
template <auto M>
void set_plain(OutputOptions& o, const json& j) {
  j.get_to(o.*M);
}
template <auto M>
json get_text(const OutputOptions& o) {
  return bytes_of(o.*M);
}
template <auto M>
void set_text(OutputOptions& o, const json& j) {
  o.*M = text_of(j);
}
template <auto M>
json get_enum(const OutputOptions& o) {
  return static_cast<int>(o.*M);
}
template <auto M>
void set_enum(OutputOptions& o, const json& j) {
  o.*M = static_cast<std::remove_reference_t<decltype(o.*M)>>(j.get<int>());
}
template <auto M>
json get_setting(const OutputOptions& o) {
  return json::array({bytes_of((o.*M).text), bytes_of((o.*M).origin)});
}
template <auto M>
void set_setting(OutputOptions& o, const json& j) {
  o.*M = SettingText{text_of(j.at(0)), text_of(j.at(1))};
}

template <auto M>
void apply_logical(OutputOptions& o, const NwpioValue& v) {
  o.*M = v.logical();
}
template <auto M>
void apply_path(OutputOptions& o, const NwpioValue& v) {
  o.*M = v.path();
}
// An integer within the row's range (the row is found again by its key for the bounds).
std::int64_t in_range(const NwpioValue& v, std::int64_t lo, std::int64_t hi) {
  const std::int64_t n = v.integer();
  if (n < lo || n > hi) {
    v.fail(hi == kAny ? "an integer >= " + std::to_string(lo)
                      : "an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
  }
  return n;
}
template <auto M, std::int64_t Lo, std::int64_t Hi>
void apply_integer(OutputOptions& o, const NwpioValue& v) {
  o.*M = static_cast<std::remove_reference_t<decltype(o.*M)>>(in_range(v, Lo, Hi));
}
// A string one of `Choices`, stored as the enum of the same index.
template <auto M, const auto& Choices>
void apply_choice(OutputOptions& o, const NwpioValue& v) {
  o.*M = static_cast<std::remove_reference_t<decltype(o.*M)>>(v.choice(Choices));
}

constexpr std::array<std::string_view, 3> kGather{"auto", "rearrange", "direct"};
constexpr std::array<std::string_view, 3> kReorder{"auto", "pack", "datatype"};
constexpr std::array<std::string_view, 2> kPnetcdfFormat{"cdf2", "cdf5"};
constexpr std::array<std::string_view, 2> kFilter{"deflate", "none"};
constexpr std::array<std::string_view, 2> kHandoff{"nonblocking", "blocking"};
constexpr std::array<std::string_view, 3> kHintReport{"off", "summary", "full"};  // HintReport's order

// A HintReport that may be unset (-1).
json report_code(const std::optional<HintReport>& r) { return r ? static_cast<int>(*r) : -1; }
std::optional<HintReport> report_of(const json& j) {
  const int code = j.get<int>();
  if (code < 0) return std::nullopt;
  return static_cast<HintReport>(code);
}

using O = OutputOptions;

const OptionRow kRows[] = {
    // --- files: &nwpio ----------------------------------------------------------------------
    {"output_dir", "path", true, {}, 0, -1, "directory of the history files (a relative one from the run directory)",
     get_text<&O::output_dir>, set_text<&O::output_dir>, apply_path<&O::output_dir>},
    {"noclobber", "logical", true, {}, 0, -1, "an existing file at the final name is an error (never replaced, even one that appears while nwpio writes)",
     get_plain<&O::noclobber>, set_plain<&O::noclobber>, apply_logical<&O::noclobber>},
    {"fsync", "logical", true, {}, 0, -1, "every writer syncs what it wrote before the file takes its final name (docs/RELIABILITY.md)",
     get_plain<&O::fsync_before_rename>, set_plain<&O::fsync_before_rename>, apply_logical<&O::fsync_before_rename>},
    {"file_timeout_seconds", "integer", true, {}, 0, 86400,
     "a file's collective create or close not returned after this many seconds ends the process with a message, status 124 (0: no limit; docs/RELIABILITY.md)",
     get_plain<&O::file_timeout_seconds>, set_plain<&O::file_timeout_seconds>, apply_integer<&O::file_timeout_seconds, 0, 86400>},
    {"pnetcdf_format", "string", true, kPnetcdfFormat, 0, -1, "io_form 11 file format (CDF-2 is WRF's; CDF-5 for variables over 4 GiB)",
     get_enum<&O::format>, set_enum<&O::format>, apply_choice<&O::format, kPnetcdfFormat>},
    {"deflate_level", "integer", true, {}, 0, 9, "netCDF-4 deflate level (io_form 13 and 2; WRF's 2; 0: no deflate)",
     get_plain<&O::deflate_level>, set_plain<&O::deflate_level>, apply_integer<&O::deflate_level, 0, 9>},
    {"compression_filter", "string", true, kFilter, 0, -1, "netCDF-4 filter of the fields with i and j (io_form 13)",
     get_text<&O::compression_filter>, set_text<&O::compression_filter>,
     [](O& o, const NwpioValue& v) { o.compression_filter = std::string(kFilter[v.choice(kFilter)]); }},
    {"shuffle", "logical", true, {}, 0, -1, "netCDF-4 byte shuffle before deflate (io_form 13; WRF's)",
     get_plain<&O::shuffle>, set_plain<&O::shuffle>, apply_logical<&O::shuffle>},
    {"quantize", "string", true, {}, 0, -1,
     "io_form 13 lossy quantization of every float/double field with i and j: 'none', 'bitround=NSB', 'granularbr=NSD', 'bitgroom=NSD'",
     get_setting<&O::quantize>, set_setting<&O::quantize>,
     [](O& o, const NwpioValue& v) { o.quantize = SettingText{v.string(), v.origin()}; }},
    {"compression_vars", "string", true, {}, 0, -1,
     "io_form 13 per-variable storage, e.g. 'T U: deflate=4 shuffle=no; QVAPOR: granularbr=3; XLAT: chunk=1x150x425' (docs/COMPRESSION.md); checked when the stream opens, errors name file:line",
     get_setting<&O::compression_vars>, set_setting<&O::compression_vars>,
     [](O& o, const NwpioValue& v) { o.compression_vars = SettingText{v.string(), v.origin()}; }},
    {"chunk_max_bytes", "integer", true, {}, 1, kAny, "io_form 13: largest chunk in bytes; larger planes are cut into row stripes",
     get_plain<&O::chunk_max_bytes>, set_plain<&O::chunk_max_bytes>, apply_integer<&O::chunk_max_bytes, 1, kAny>},
    {"header_reserve_bytes", "integer", true, {}, 0, kAny, "free header space in bytes: attributes added later never move the data",
     get_plain<&O::header_reserve_bytes>, set_plain<&O::header_reserve_bytes>,
     apply_integer<&O::header_reserve_bytes, 0, kAny>},
    // --- backend ----------------------------------------------------------------------------
    {"fallback_to_serial", "logical", true, {}, 0, -1, "io_form 11 or 13 in a build without it writes io_form 2 (one log line says so)",
     get_plain<&O::fallback_to_serial>, set_plain<&O::fallback_to_serial>, apply_logical<&O::fallback_to_serial>},
    // --- gathering and memory ---------------------------------------------------------------
    {"gather", "string", true, kGather, 0, -1, "how patches reach the writers: rearranged into one contiguous slab per writer, or every rank's own pieces (docs/ARCHITECTURE.md)",
     get_enum<&O::gather>, set_enum<&O::gather>, apply_choice<&O::gather, kGather>},
    {"reorder", "string", true, kReorder, 0, -1, "the direct path's reorder to file order: one pack, or an MPI derived datatype",
     get_enum<&O::reorder>, set_enum<&O::reorder>, apply_choice<&O::reorder, kReorder>},
    {"writer_ranks", "integer", true, {}, 0, kAny, "ranks that write (spread evenly over the ranks); 0: every rank (nwpio-check --plan advises a number)",
     get_plain<&O::writer_ranks>, set_plain<&O::writer_ranks>, apply_integer<&O::writer_ranks, 0, kAny>},
    {"max_round_bytes", "integer", true, {}, 1, kAny, "per-rank staging bytes (send + receive + slab) in one write round",
     get_plain<&O::max_round_bytes>, set_plain<&O::max_round_bytes>, apply_integer<&O::max_round_bytes, 1, kAny>},
    {"shared_memory_exchange", "logical", true, {}, 0, -1, "ranks on a writer's node pack straight into its slab (MPI-3 shared memory); .false.: every piece travels as a message, as between nodes",
     get_plain<&O::shared_memory_exchange>, set_plain<&O::shared_memory_exchange>,
     apply_logical<&O::shared_memory_exchange>},
    {"write_behind", "logical", true, {}, 0, -1,
     "io_form 11: each frame is written, and each complete file synced and committed, while the model goes on; the hint line says when the hints keep writes collective (docs/HINTS.md)",
     get_plain<&O::write_behind>, set_plain<&O::write_behind>, apply_logical<&O::write_behind>},
    {"serial_chunk_bytes", "integer", true, {}, 1, kAny, "io_form 2: bound on what rank 0 stages to gather a frame",
     get_plain<&O::serial_chunk_bytes>, set_plain<&O::serial_chunk_bytes>, apply_integer<&O::serial_chunk_bytes, 1, kAny>},
    // --- I/O servers (docs/IO_SERVERS.md) -----------------------------------------------------
    {"server_frames_in_flight", "integer", true, {}, 1, 64, "I/O servers: frames a server group holds unwritten (the one it writes and those waiting in the compute ranks' send buffers); one more waits",
     get_plain<&O::server_frames_in_flight>, set_plain<&O::server_frames_in_flight>,
     apply_integer<&O::server_frames_in_flight, 1, 64>},
    {"server_handoff", "string", true, kHandoff, 0, -1,
     "I/O servers: 'nonblocking': end_frame returns after posting the sends; 'blocking': once the servers hold the frame (docs/IO_SERVERS.md)",
     get_plain<&O::server_blocking_handoff>, set_plain<&O::server_blocking_handoff>,
     [](O& o, const NwpioValue& v) { o.server_blocking_handoff = v.choice(kHandoff) == 1; }},
    {"server_message_bytes", "integer", true, {}, 1, std::int64_t{1} << 30, "I/O servers: largest message of a frame's hand-off; each is sent as soon as it is packed",
     get_plain<&O::server_message_bytes>, set_plain<&O::server_message_bytes>,
     apply_integer<&O::server_message_bytes, 1, std::int64_t{1} << 30>},
    // --- reporting --------------------------------------------------------------------------
    {"print_timing", "logical", true, {}, 0, -1, "rank 0 prints WRF's 'Timing for Writing' line per frame, with the rate or '(written behind)'",
     get_plain<&O::print_timing>, set_plain<&O::print_timing>, apply_logical<&O::print_timing>},
    {"stats_json", "path", true, {}, 0, -1, "write the Statistics as JSON to this file at close ('': none); with WRF's package, every file of the run",
     get_text<&O::stats_json>, set_text<&O::stats_json>, apply_path<&O::stats_json>},
    // --- hints: the namelist level, so that settings made in code still win over them -------
    {"hints_file", "path", true, {}, 0, -1, "TOML file with MPI-IO hint profiles (docs/HINTS.md)",
     [](const O& o) { return bytes_of(o.hints.namelist.profile_file); },
     [](O& o, const json& j) { o.hints.namelist.profile_file = text_of(j); },
     [](O& o, const NwpioValue& v) { o.hints.namelist.profile_file = v.path(); }},
    {"hints_profile", "string", true, {}, 0, -1, "profile name inside hints_file ('': default)",
     [](const O& o) { return bytes_of(o.hints.namelist.profile); },
     [](O& o, const json& j) { o.hints.namelist.profile = text_of(j); },
     [](O& o, const NwpioValue& v) { o.hints.namelist.profile = v.string(); }},
    {"hints", "string", true, {}, 0, -1, "single hint settings 'key=value;key=value' (as NWPIO_HINTS)",
     [](const O& o) { return bytes_of(o.hints.namelist.assignments); },
     [](O& o, const json& j) { o.hints.namelist.assignments = text_of(j); },
     [](O& o, const NwpioValue& v) { o.hints.namelist.assignments = v.string(); }},
    {"hint_report", "string", true, kHintReport, 0, -1, "the hint report rank 0 prints per file ('summary' when not set)",
     [](const O& o) { return report_code(o.hints.namelist.report); },
     [](O& o, const json& j) { o.hints.namelist.report = report_of(j); },
     [](O& o, const NwpioValue& v) { o.hints.namelist.report = static_cast<HintReport>(v.choice(kHintReport)); }},
    // --- set from WRF's own namelist groups, or in code --------------------------------------
    {"outname", "string", false, {}, 0, -1, "history_outname: <domain> and <date> are expanded",
     get_text<&O::outname>, set_text<&O::outname>},
    {"domain_id", "integer", false, {}, 1, kAny, "the domain (1-based)", get_plain<&O::domain_id>,
     set_plain<&O::domain_id>},
    {"frames_per_file", "integer", false, {}, 1, kAny, "frames_per_outfile", get_plain<&O::frames_per_file>,
     set_plain<&O::frames_per_file>},
    {"sizing_frames_per_file", "integer", false, {}, 0, kAny, "frames a file is sized for when the front end ends files",
     get_plain<&O::sizing_frames_per_file>, set_plain<&O::sizing_frames_per_file>},
    {"nocolons", "logical", false, {}, 0, -1, "':' becomes '_' in file names", get_plain<&O::nocolons>,
     set_plain<&O::nocolons>},
    {"use_netcdf_classic", "logical", false, {}, 0, -1, "io_form 2 writes CDF-2 instead of netCDF-4",
     get_plain<&O::use_netcdf_classic>, set_plain<&O::use_netcdf_classic>},
    {"io_form", "integer", false, {}, 0, -1, "io_form_history", get_enum<&O::io_form>, set_enum<&O::io_form>},
    {"start_date", "string", false, {}, 0, -1, "the simulation's start", get_text<&O::start_date>,
     set_text<&O::start_date>},
    {"history_interval_seconds", "integer", false, {}, 0, -1, "history_interval (0: off, -1: every date)",
     get_plain<&O::history_interval_seconds>, set_plain<&O::history_interval_seconds>},
    {"history_begin_seconds", "integer", false, {}, 0, -1, "history_begin", get_plain<&O::history_begin_seconds>,
     set_plain<&O::history_begin_seconds>},
    {"iofields_file", "string", false, {}, 0, -1, "iofields_filename", get_text<&O::iofields_file>,
     set_text<&O::iofields_file>},
    {"ignore_iofields_warning", "logical", false, {}, 0, -1, "unknown iofields names are warnings",
     get_plain<&O::ignore_iofields_warning>, set_plain<&O::ignore_iofields_warning>},
    {"e_we", "integer", false, {}, 0, -1, "the domain's check", get_plain<&O::e_we>, set_plain<&O::e_we>},
    {"e_sn", "integer", false, {}, 0, -1, "the domain's check", get_plain<&O::e_sn>, set_plain<&O::e_sn>},
    {"e_vert", "integer", false, {}, 0, -1, "the domain's check", get_plain<&O::e_vert>, set_plain<&O::e_vert>},
    {"api_hints_file", "string", false, {}, 0, -1, "HintOptions::profile_file",
     [](const O& o) { return bytes_of(o.hints.profile_file); },
     [](O& o, const json& j) { o.hints.profile_file = text_of(j); }},
    {"api_hints_profile", "string", false, {}, 0, -1, "HintOptions::profile",
     [](const O& o) { return bytes_of(o.hints.profile); }, [](O& o, const json& j) { o.hints.profile = text_of(j); }},
    {"api_hints", "string", false, {}, 0, -1, "HintOptions::overrides", [](const O& o) { return json(o.hints.overrides); },
     [](O& o, const json& j) { j.get_to(o.hints.overrides); }},
    {"api_hint_report", "string", false, kHintReport, 0, -1, "HintOptions::report",
     [](const O& o) { return report_code(o.hints.report); }, [](O& o, const json& j) { o.hints.report = report_of(j); }},
};

}  // namespace

std::span<const OptionRow> option_rows() { return kRows; }

void check_option_values(const OutputOptions& options) {
  for (const OptionRow& row : kRows) {
    if (row.type != "integer" || row.min > row.max) continue;
    const std::int64_t v = row.get(options).get<std::int64_t>();
    if (v >= row.min && v <= row.max) continue;
    const std::string range = row.max == kAny ? "at least " + std::to_string(row.min)
                                              : "from " + std::to_string(row.min) + " to " + std::to_string(row.max);
    throw Error(ErrorKind::InvalidArgument,
                "options: " + std::string(row.name) + " must be " + range + ", not " + std::to_string(v));
  }
}

std::string namelist_literal(const OptionRow& row, const OutputOptions& options) {
  const json v = row.get(options);
  if (row.type == "logical") return v.get<bool>() ? ".true." : ".false.";
  if (!row.choices.empty() && v.is_number()) {  // an enum (or an unset report: the documented default)
    const int i = v.get<int>();
    return "'" + std::string(i >= 0 && i < static_cast<int>(row.choices.size()) ? row.choices[static_cast<std::size_t>(i)]
                                                                               : std::string_view("summary")) + "'";
  }
  if (!row.choices.empty() && v.is_boolean()) return "'" + std::string(row.choices[v.get<bool>() ? 1 : 0]) + "'";
  if (row.type == "integer") return std::to_string(v.get<std::int64_t>());
  if (v.is_array()) return "'" + text_of(v.at(0)) + "'";  // a text with its origin
  return "'" + text_of(v) + "'";
}

std::string nwpio_namelist_table() {
  const OutputOptions defaults;
  std::string out = "| key | type | default | what it sets |\n|---|---|---|---|\n";
  for (const OptionRow& row : kRows) {
    if (!row.namelist) continue;
    std::string type(row.type);
    if (!row.choices.empty()) {
      type.clear();
      for (std::string_view c : row.choices) type += (type.empty() ? "'" : " \\| '") + std::string(c) + "'";
    } else if (row.type == "integer" && row.min <= row.max) {
      type += row.max == kAny ? " >= " + std::to_string(row.min) : " " + std::to_string(row.min) + "-" + std::to_string(row.max);
    }
    out += "| `" + std::string(row.name) + "` | " + type + " | `" + namelist_literal(row, defaults) + "` | " +
           std::string(row.doc) + " |\n";
  }
  return out;
}

}  // namespace nwpio::detail

namespace nwpio {

void to_json(nlohmann::json& j, const OutputOptions& options) {
  j = nlohmann::json::object();
  for (const detail::OptionRow& row : detail::option_rows()) j[std::string(row.name)] = row.get(options);
}

void from_json(const nlohmann::json& j, OutputOptions& options) {
  for (const detail::OptionRow& row : detail::option_rows()) row.set(options, j.at(std::string(row.name)));
}

}  // namespace nwpio
