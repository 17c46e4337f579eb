// The &nwpio key table. To add a key: add one row below (keep the table sorted by topic) and a
// line in docs/NAMELIST.md. Rows are plain data plus a captureless lambda, so the table stays
// readable and needs no registration machinery.
#include "config/nwpio_keys.hpp"

#include <array>
#include <cctype>

#include "layout/compression_settings.hpp"
#include "nwpio/error.hpp"
#include "util/text.hpp"

namespace nwpio::detail {

namespace {

std::int64_t positive(const NwpioValue& v) {
  const std::int64_t n = v.integer();
  if (n < 1) v.fail("a positive integer");
  return n;
}

std::int64_t non_negative(const NwpioValue& v) {
  const std::int64_t n = v.integer();
  if (n < 0) v.fail("an integer >= 0");
  return n;
}

constexpr std::array<std::string_view, 3> kGatherNames{"auto", "rearrange", "direct"};
constexpr std::array<std::string_view, 3> kReorderNames{"auto", "pack", "datatype"};
constexpr std::array<std::string_view, 2> kFormatNames{"cdf2", "cdf5"};
constexpr std::array<std::string_view, 2> kHandoffNames{"nonblocking", "blocking"};
// In the order of HintReport.
constexpr std::array<std::string_view, 3> kHintReportNames{"off", "summary", "full"};

const NwpioKey kKeys[] = {
    // --- files ------------------------------------------------------------------------------
    {"output_dir", "string", "directory of the history files (default '.')",
     [](OutputOptions& o, const NwpioValue& v) { o.output_dir = v.string(); }},
    {"noclobber", "logical", "an existing file at the final name is an error (default .false.)",
     [](OutputOptions& o, const NwpioValue& v) { o.noclobber = v.logical(); }},
    {"fsync", "logical", "data on disk before a file takes its final name (default .true.)",
     [](OutputOptions& o, const NwpioValue& v) { o.fsync_before_rename = v.logical(); }},
    {"pnetcdf_format", "string", "io_form 11 file format: 'cdf2' (WRF's, default) or 'cdf5'",
     [](OutputOptions& o, const NwpioValue& v) {
       o.format = v.choice(kFormatNames) == 0 ? FileFormat::Cdf2 : FileFormat::Cdf5;
     }},
    {"deflate_level", "integer", "netCDF-4 deflate level 0-9 (io_form 13 and 2; default 2, as WRF; 0: none)",
     [](OutputOptions& o, const NwpioValue& v) {
       const std::int64_t n = v.integer();
       if (n < 0 || n > 9) v.fail("a deflate level from 0 to 9");
       o.deflate_level = static_cast<int>(n);
     }},
    {"compression_filter", "string", "netCDF-4 filter of the fields with i and j: 'deflate' (default) or 'none'",
     [](OutputOptions& o, const NwpioValue& v) {
       static constexpr std::array<std::string_view, 2> kFilters{"deflate", "none"};
       o.compression_filter = std::string(kFilters[v.choice(kFilters)]);
     }},
    {"shuffle", "logical", "netCDF-4 byte shuffle before deflate (default .true., as WRF)",
     [](OutputOptions& o, const NwpioValue& v) { o.shuffle = v.logical(); }},
    {"quantize", "string", "lossy quantization of float fields: 'none', 'bitround=NSB', 'granularbr=NSD', 'bitgroom=NSD'",
     [](OutputOptions& o, const NwpioValue& v) {
       o.quantize = SettingText{v.string(), v.origin()};
       CompressionSettings::parse(o);  // the syntax now, with file:line; the variables at stream open
     }},
    {"compression_vars", "string", "per-variable storage, e.g. 'T U: deflate=4; QVAPOR: granularbr=3' (docs/COMPRESSION.md)",
     [](OutputOptions& o, const NwpioValue& v) {
       o.compression_vars = SettingText{v.string(), v.origin()};
       CompressionSettings::parse(o);
     }},
    {"chunk_max_bytes", "integer", "io_form 13: largest chunk in bytes; larger planes are cut into row stripes (default 16 MiB)",
     [](OutputOptions& o, const NwpioValue& v) { o.chunk_max_bytes = positive(v); }},
    {"header_reserve_bytes", "integer", "free header space in bytes (default 65536)",
     [](OutputOptions& o, const NwpioValue& v) { o.header_reserve_bytes = non_negative(v); }},
    // --- backend ----------------------------------------------------------------------------
    {"fallback_to_serial", "logical", "io_form 11 or 13 in a build without it switches to io_form 2 (default .false.)",
     [](OutputOptions& o, const NwpioValue& v) { o.fallback_to_serial = v.logical(); }},
    // --- gathering and memory ---------------------------------------------------------------
    {"gather", "string", "'auto' (default), 'rearrange' or 'direct'",
     [](OutputOptions& o, const NwpioValue& v) { o.gather = static_cast<GatherMode>(v.choice(kGatherNames)); }},
    {"reorder", "string", "'auto' (default), 'pack' or 'datatype'",
     [](OutputOptions& o, const NwpioValue& v) { o.reorder = static_cast<ReorderMode>(v.choice(kReorderNames)); }},
    {"writer_ranks", "integer", "rearranger writer ranks; 0 = all ranks (default 0)",
     [](OutputOptions& o, const NwpioValue& v) { o.writer_ranks = static_cast<int>(non_negative(v)); }},
    {"max_round_bytes", "integer", "per-rank staging bytes (send + receive + slab) in one write round (default 1 GiB)",
     [](OutputOptions& o, const NwpioValue& v) { o.max_round_bytes = positive(v); }},
    {"shared_memory_exchange", "logical", "ranks on a writer's node pack straight into its slab in shared memory (default .true.)",
     [](OutputOptions& o, const NwpioValue& v) { o.shared_memory_exchange = v.logical(); }},
    {"write_behind", "logical", "io_form 11: a frame's slab writes finish while the model goes on; the next frame or the close waits (default .true.)",
     [](OutputOptions& o, const NwpioValue& v) { o.write_behind = v.logical(); }},
    {"serial_chunk_bytes", "integer", "io_form 2 gather chunk bound in bytes (default 64 MiB)",
     [](OutputOptions& o, const NwpioValue& v) { o.serial_chunk_bytes = positive(v); }},
    // --- I/O servers (docs/IO_SERVERS.md) -----------------------------------------------------
    {"server_frames_in_flight", "integer", "frames a server group holds unwritten (written + waiting; default 2)",
     [](OutputOptions& o, const NwpioValue& v) {
       const std::int64_t n = positive(v);
       if (n > 64) v.fail("at most 64 frames in flight");
       o.server_frames_in_flight = static_cast<int>(n);
     }},
    {"server_handoff", "string", "'nonblocking' (default: end_frame returns after posting the sends) or 'blocking'",
     [](OutputOptions& o, const NwpioValue& v) { o.server_blocking_handoff = v.choice(kHandoffNames) == 1; }},
    {"server_message_bytes", "integer", "largest message of a frame's hand-off to a server (default 1 GiB)",
     [](OutputOptions& o, const NwpioValue& v) {
       const std::int64_t n = positive(v);
       if (n > (std::int64_t{1} << 30)) v.fail("at most 1 GiB (MPI counts are int)");
       o.server_message_bytes = n;
     }},
    // --- reporting --------------------------------------------------------------------------
    {"print_timing", "logical", "rank 0 prints WRF's 'Timing for Writing' line per frame (default .true.)",
     [](OutputOptions& o, const NwpioValue& v) { o.print_timing = v.logical(); }},
    {"stats_json", "string", "write the Statistics as JSON to this file at close (default: none)",
     [](OutputOptions& o, const NwpioValue& v) { o.stats_json = v.string(); }},
    // --- hints: stored at the namelist level so that API settings still beat them ---------
    {"hints_file", "string", "TOML file with MPI-IO hint profiles",
     [](OutputOptions& o, const NwpioValue& v) { o.hints.namelist.profile_file = v.string(); }},
    {"hints_profile", "string", "profile name inside hints_file",
     [](OutputOptions& o, const NwpioValue& v) { o.hints.namelist.profile = v.string(); }},
    {"hints", "string", "single hint settings 'key=value;key=value' (same syntax as NWPIO_HINTS)",
     [](OutputOptions& o, const NwpioValue& v) { o.hints.namelist.assignments = v.string(); }},
    {"hint_report", "string", "hint report per file on rank 0: 'summary' (one line, default), 'full' (the table) or 'off'",
     [](OutputOptions& o, const NwpioValue& v) {
       o.hints.namelist.report = static_cast<HintReport>(v.choice(kHintReportNames));
     }},
};

std::string valid_keys() {
  std::string out;
  for (const NwpioKey& k : kKeys) {
    if (!out.empty()) out += ", ";
    out += k.name;
  }
  return out;
}

}  // namespace

std::string NwpioValue::text() const {
  switch (v_.kind) {
    case NamelistValue::Kind::Logical: return v_.logical ? "true" : "false";
    case NamelistValue::Kind::Null: fail("a value");
    default: return v_.text;
  }
}

std::size_t NwpioValue::choice(std::span<const std::string_view> choices) const {
  const std::string s = lower(string());
  std::string list;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (s == choices[i]) return i;
    list += (i == 0 ? "'" : i + 1 == choices.size() ? " or '" : ", '") + std::string(choices[i]) + "'";
  }
  fail(list);
}

std::string NwpioValue::origin() const {
  std::string w = where(nl_.file(), v_.pos);
  while (!w.empty() && (w.back() == ' ' || w.back() == ':')) w.pop_back();
  return w;
}

void NwpioValue::fail(std::string_view expected) const {
  throw Error(ErrorKind::Config, where(nl_.file(), v_.pos) + "expected " + std::string(expected) + " for " +
                                     std::string(key_) + ", found " + describe(v_));
}

std::span<const NwpioKey> nwpio_keys() { return kKeys; }

void apply_nwpio_group(const Namelist& nl, OutputOptions& options) {
  const NamelistGroup* g = nl.group("nwpio");
  if (g == nullptr) return;
  for (const NamelistEntry& e : g->entries) {
    const NwpioKey* key = nullptr;
    for (const NwpioKey& k : kKeys) {
      if (k.name == e.name) key = &k;
    }
    if (key == nullptr) {
      throw Error(ErrorKind::Config, where(nl.file(), e.pos) + "expected a key of &nwpio, found unknown key '" + e.name +
                                         "'; valid keys: " + valid_keys());
    }
    NamelistReader reader(nl, 1);
    const NamelistValue* v = reader.find("nwpio", e.name, Columns::One);
    if (v == nullptr) continue;  // `key = ` with no value: Fortran leaves it unchanged
    key->apply(options, NwpioValue(nl, key->name, *v));
  }
}

}  // namespace nwpio::detail
