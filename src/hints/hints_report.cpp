#include "hints/hints_report.hpp"
#include "hints/hints_report_nodes.hpp"
#include "hints/hints_report_pnetcdf.hpp"

#include <sys/xattr.h>

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>

namespace nwpio::detail::hints {

namespace {

constexpr std::uint32_t kLovMagicV1 = 0x0BD10BD0;
constexpr std::uint32_t kLovMagicV3 = 0x0BD30BD0;
constexpr std::uint32_t kLovMagicComp = 0x0BD60BD0;

void read_lustre_layout(FileFacts& f) {
  // lov_user_md v1/v3: magic u32, pattern u32, object id 16 bytes, stripe_size u32 at 24,
  // stripe_count u16 at 28. No liblustreapi needed; `lfs getstripe` reads the same attribute.
  unsigned char buf[4096];
  const ssize_t n = getxattr(f.path.c_str(), "lustre.lov", buf, sizeof buf);
  if (n < 32) {
    f.striping_readback = std::string("getxattr(lustre.lov) failed: ") + (n < 0 ? std::strerror(errno) : "short");
    return;
  }
  std::uint32_t magic = 0, ssize = 0;
  std::uint16_t scount = 0;
  std::memcpy(&magic, buf, 4);
  std::memcpy(&ssize, buf + 24, 4);
  std::memcpy(&scount, buf + 28, 2);
  if (magic == kLovMagicV1 || magic == kLovMagicV3) {
    f.stripe_size = ssize;
    f.stripe_count = scount;
    f.striping_readback = "lustre.lov extended attribute of the file";
  } else if (magic == kLovMagicComp) {
    f.striping_readback = "composite (PFL) layout: striping per extent, not read back by nwpio";
  } else {
    f.striping_readback = "lustre.lov: unknown layout magic";
  }
}

bool is_lustre_key(const std::string& key) { return key.rfind("romio_lustre_", 0) == 0; }
bool is_striping_key(const std::string& key) {
  return key == "striping_factor" || key == "striping_unit" || key == "stripe_width" || key == "stripe_size";
}

// Why a striping key does nothing on a file system other than Lustre (ROMIO's UFS/NFS drivers and
// OMPIO's ufs component read no striping key; neither has a BeeGFS or CephFS driver).
std::string striping_ignored(const FileFacts& f, const MpiIo& io, const std::string& key) {
  const std::string driver = "the " + io.layer_name() + " driver for it does not read " + key;
  switch (f.family) {
    case FsFamily::Beegfs:
      return "BeeGFS stripes per directory (beegfs-ctl --setpattern, done by slurm/output_dir.sh from the "
             "profile); " + driver;
    case FsFamily::Cephfs:
      return "CephFS lays files out per directory (the ceph.dir.layout attributes); " + driver;
    default:
      return f.fs_type + " has no striping; " + driver;
  }
}

}  // namespace

FileFacts probe_file(const std::string& path) {
  FileFacts f;
  f.path = path;
  const FileSystemOf fs = file_system_of(path);
  if (!fs.known) {
    f.striping_readback = fs.error;
    return f;
  }
  f.block_size = fs.block_size;
  f.fs_type = fs.type;
  f.family = fs.family;
  f.fs_type_how = fs.how;
  f.lustre = fs.family == FsFamily::Lustre;
  f.gpfs = fs.family == FsFamily::Gpfs;
  if (f.lustre) {
    read_lustre_layout(f);
  } else {
    f.striping_readback = f.fs_type + " has no striping to read back";
  }
  return f;
}

void verify(std::vector<Entry>& entries, const MpiIo& io, const FileFacts& file, const LayoutFacts& layout,
            const std::optional<std::set<std::string>>& record_vars) {
  const bool romio = io.layer == IoLayer::Romio;
  const std::string echo_note = romio ? "MPI_File_get_info only echoes what was passed; run with ROMIO_PRINT_HINTS=1 "
                                        "to see the values ROMIO used"
                                      : "MPI_File_get_info only echoes what was passed; run with "
                                        "OMPI_MCA_io_ompio_verbose_info_parsing=1 to see what OMPIO read";
  std::int64_t data_begin = -1, record_begin = -1;
  std::vector<std::pair<std::string, std::int64_t>> fixed;
  if (layout.known) {
    for (const auto& [name, off] : layout.var_offsets) {
      data_begin = data_begin < 0 ? off : std::min(data_begin, off);
      if (record_vars) {
        if (record_vars->count(name)) record_begin = record_begin < 0 ? off : std::min(record_begin, off);
        else fixed.emplace_back(name, off);
      }
    }
  }
  for (auto& e : entries) {
    if (e.status != "passed") continue;
    if (!e.overridden_by.empty()) {
      e.status = "overridden";
      e.why = e.overridden_by;
      continue;
    }
    const std::string key = e.keys.empty() ? std::string() : e.keys.front().key;
    const std::int64_t v = e.keys.empty() ? 0 : std::atoll(e.keys.front().value.c_str());
    auto set = [&](const char* status, std::string why) {
      e.status = status;
      e.why = std::move(why);
    };
    if (is_striping_key(key)) {
      if (!file.lustre) {
        set("ignored", striping_ignored(file, io, key));
      } else if (e.name == "stripe_count" && file.stripe_count) {
        set(*file.stripe_count == v ? "verified" : "mismatch",
            "file has stripe count " + std::to_string(*file.stripe_count) + " (" + file.striping_readback + ")");
      } else if (e.name == "stripe_size" && file.stripe_size) {
        set(*file.stripe_size == v ? "verified" : "mismatch",
            "file has stripe size " + std::to_string(*file.stripe_size) + " (" + file.striping_readback + ")");
      } else {
        set("passed", "striping not read back: " + file.striping_readback);
      }
    } else if (is_lustre_key(key) && !file.lustre) {
      set("ignored", "only ROMIO's Lustre driver reads " + key + "; the file is on " + file.fs_type);
    } else if (e.target == "PnetCDF" && (e.name == "header_align" || e.name == "var_align" || e.name == "record_align")) {
      if (!layout.known) {
        set("passed", "no layout facts (the backend is not PnetCDF or the file is not open)");
      } else if (e.name == "header_align") {
        set(layout.header_extent % v == 0 ? "verified" : "mismatch",
            layout.header_source + " = " + std::to_string(layout.header_extent) +
                (layout.header_extent % v == 0 ? ", a multiple of " : ", not a multiple of ") + std::to_string(v));
      } else if (e.name == "var_align") {
        bool ok = data_begin >= 0 && data_begin % v == 0;
        std::string bad;
        for (const auto& [n, off] : fixed) {
          if (off % v != 0) {
            ok = false;
            bad = n;
          }
        }
        std::string how = "first variable at " + std::to_string(data_begin) + " (" + layout.offset_source + ")";
        how += record_vars ? ", every fixed-size variable checked" : ", fixed-size variables not told apart";
        if (!bad.empty()) how += "; '" + bad + "' is not aligned";
        set(ok ? "verified" : "mismatch", how);
      } else if (!record_vars) {
        set("passed", "LayoutFacts does not say which variables are record variables");
      } else if (record_begin < 0) {
        set("passed", "the file has no record variables");
      } else {
        set(record_begin % v == 0 ? "verified" : "mismatch",
            "record section starts at " + std::to_string(record_begin) + " (" + layout.offset_source + ")");
      }
    } else if (e.target == "PnetCDF") {
      set("passed", "PnetCDF internal; PnetCDF's own file-info query only echoes it");
    } else {
      std::string why = echo_note;
      if (romio && e.name == "aggregators") {
        why = "ROMIO uses min(cb_nodes, processes, hosts x cb_config_list count); " + echo_note;
      }
      set("passed", why);
    }
  }
}

std::string report_json(const ReportFile& file, const Resolved& r, const MpiIo& io,
                        const std::vector<Entry>& entries, const FileFacts& facts, const LayoutFacts& layout, const ReportLevel& level) {
  using nlohmann::json;
  json j;
  j["file"] = file.final_name.empty() ? file.opened_as : file.final_name;
  j["opened_as"] = file.opened_as;
  if (file.write_behind_asked) {
    j["write_behind"] = {{"on", file.write_behind_blocker.empty()}, {"why_off", file.write_behind_blocker}};
  }
  j["io_form"] = file.io_form;
  j["mpi_io_used"] = file.mpi_io;
  j["report"] = {{"level", to_string(level.level)}, {"chosen_by", level.chosen_by}};
  j["file_system"] = {{"type", facts.fs_type},
                      {"family", family_name(facts.family)},
                      {"how", facts.fs_type_how},
                      {"block_size", facts.block_size},
                      {"striping_readback", facts.striping_readback}};
  if (facts.stripe_count) j["file_system"]["stripe_count"] = *facts.stripe_count;
  if (facts.stripe_size) j["file_system"]["stripe_size"] = *facts.stripe_size;
  j["mpi"] = {{"library", io.library}, {"io_layer", io.layer_name()}, {"component", io.component}, {"how", io.how}};
  j["profile"] = {{"file", r.profile_file}, {"name", r.profile}, {"chosen_by", r.profile_origin}};
  j["expected_file_bytes"] = r.expected_file_bytes;
  j["warnings"] = r.warnings;
  j["environment"] = r.foreign_env;
  json settings = json::array();
  json info = json::object();
  for (const auto& e : entries) {
    json s = {{"name", e.name}, {"asked", e.asked},   {"origin", e.origin}, {"value", e.value},
              {"target", e.target}, {"status", e.status}, {"why", e.why}};
    if (!e.rule.empty()) s["rule"] = e.rule;
    json keys = json::object();
    for (const auto& k : e.keys) {
      keys[k.key] = k.value;
      info[k.key] = k.value;
    }
    s["keys"] = keys;
    settings.push_back(std::move(s));
  }
  j["settings"] = std::move(settings);
  j["info"] = std::move(info);
  if (layout.known) {
    j["layout"] = {{"header_size", layout.header_size}, {"header_extent", layout.header_extent},
                   {"variables", layout.var_offsets.size()}};
  }
  add_nodes_json(j, file.nodes, layout, io, file.mpi_io);
  add_pnetcdf_json(j, layout);
  return j.dump();
}

}  // namespace nwpio::detail::hints
