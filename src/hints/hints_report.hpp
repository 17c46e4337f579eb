// Verification of what took effect, and the report (JSON + a human-readable log).
//
// Status of every setting and raw key:
//   verified   the file's real layout shows it (PnetCDF header extent / variable offsets via
//              LayoutFacts; Lustre striping read back from the file's lustre.lov attribute)
//   mismatch   the real layout contradicts it
//   passed     handed to MPI-IO / PnetCDF, but nothing observable says whether it was used
//   ignored    passed, but the file system's driver does not read it (striping on ext4, ...)
//   overridden passed, but another hint or variable wins (romio_no_indep_rw, PNETCDF_HINTS)
//   dropped    not passed: the MPI-IO implementation in use does not read it
//   default    nothing asked: the implementation's default holds
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "hints/file_system.hpp"
#include "hints/node_map.hpp"
#include "layout/layout_facts.hpp"
#include "hints/hints_translate.hpp"

namespace nwpio::detail::hints {

struct FileFacts {
  std::string path;
  std::string fs_type = "unknown";  // as the mount table names it (file_system.hpp)
  FsFamily family = FsFamily::Other;
  std::string fs_type_how;          // where the type came from
  bool lustre = false, gpfs = false;
  std::int64_t block_size = 0;      // statfs f_bsize
  std::optional<std::int64_t> stripe_count, stripe_size;  // Lustre, read back
  std::string striping_readback;    // how (or why not)
};

// The file's file system (file_system_of), and on Lustre its layout from the "lustre.lov" extended attribute
// (lov_user_md v1/v3; composite PFL layouts are reported as unreadable).
FileFacts probe_file(const std::string& path);

// Turns "passed" into verified / mismatch / passed (with the reason) / ignored / overridden.
// `record_vars` names the record variables when known (needed for record_align).
void verify(std::vector<Entry>& entries, const MpiIo& io, const FileFacts& file, const LayoutFacts& layout,
            const std::optional<std::set<std::string>>& record_vars);

// Which file the report is about: the path that was opened (the temporary name, where statfs
// and the layout were read), the name the file will have when complete (what the user sees),
// and whether MPI-IO opens it at all (io_form 11; io_form 2 and 0 pass no hints).
struct ReportFile {
  std::string opened_as;
  std::string final_name;  // empty: opened_as
  bool mpi_io = true;
  int io_form = 11;
  // Write-behind was asked for (write_behind, writers holding contiguous slabs): whether the
  // hints passed let each writer's slab go out on its own, and if not, the setting that stops
  // it ("collective_write=true <profile [default] of lustre.toml>"); empty: write-behind on.
  bool write_behind_asked = false;
  std::string write_behind_blocker;
  // The file's ranks per node and nwpio's writers among them (gathered at open; unknown: none).
  NodeMap nodes;
};

// JSON text of the report ("file" is the final name, "opened_as" the path that was opened).
std::string report_json(const ReportFile& file, const Resolved& resolved, const MpiIo& io,
                        const std::vector<Entry>& entries, const FileFacts& facts, const LayoutFacts& layout,
                        const ReportLevel& level = {});
// Its human-readable forms (hints_report_text.cpp), no trailing newline:
// the full table (several lines) and the one-line summary (see HintReport).
std::string report_text(const std::string& json_text);
std::string report_summary(const std::string& json_text);

}  // namespace nwpio::detail::hints
