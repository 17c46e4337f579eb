#include "wrfio/package_options.hpp"

#include "config/namelist_settings.hpp"

#include <algorithm>
#include <climits>
#include <filesystem>

#include "backend/backend_registry.hpp"
#include "config/namelist_file.hpp"
#include "config/nwpio_keys.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"
#include "util/text.hpp"

namespace nwpio::wrfio {

namespace fs = std::filesystem;

SysDepInfo parse_sysdep_info(std::string_view text) {
  SysDepInfo info;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find(',', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view item = text.substr(pos, end - pos);
    const std::size_t eq = item.find('=');
    if (eq != std::string_view::npos) {
      const std::string key = detail::lower(item.substr(0, eq));
      std::string value(item.substr(eq + 1));
      value.erase(value.find_last_not_of(' ') + 1);
      if (key == "dataset") info.dataset = value;
      if (key == "gridid") {
        try {
          info.grid_id = std::max(1, std::stoi(value));
        } catch (const std::exception&) {
          info.grid_id = 1;  // WRF always writes a number; anything else keeps domain 1
        }
      }
    }
    pos = end + 1;
  }
  return info;
}

std::string pnetcdf_file_name(std::string_view wrf_name) {
  std::string name(wrf_name);
  std::replace(name.begin(), name.end(), ':', '_');
  return name;
}

OutputOptions package_options(MPI_Comm comm, std::string_view wrf_file_name, int grid_id, std::string_view dataset,
                              const std::string& namelist) {
  int rank = 0;
  detail::mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  // Rank 0 decides whether there is a namelist, so that every rank takes the same path.
  int exists = rank == 0 && fs::is_regular_file(namelist) ? 1 : 0;
  detail::mpi_check(MPI_Bcast(&exists, 1, MPI_INT, 0, comm), "MPI_Bcast(namelist exists)");
  // Only the &nwpio group: everything else in namelist.input is WRF's business (io_form 211,
  // history_interval_mo, ... are WRF's to judge, not the package's).
  OutputOptions o;
  int history_frames = 1;
  if (exists) {
    const detail::Namelist nl = detail::load_namelist(namelist, comm);
    detail::run_and_agree(comm, [&] { detail::apply_nwpio_group(nl, o); });
    if (detail::lower(dataset) == "history") {
      try {  // a namelist WRF accepted; whatever nwpio cannot read of it leaves one frame
        history_frames = detail::output_options_from(nl, grid_id).frames_per_file;
      } catch (const Error&) {
      }
    }
  }

  const fs::path wrf_path(pnetcdf_file_name(wrf_file_name));
  const fs::path dir = wrf_path.is_absolute() ? wrf_path.parent_path() : fs::path(o.output_dir) / wrf_path.parent_path();
  o.output_dir = dir.empty() ? std::string(".") : dir.lexically_normal().string();
  o.outname = wrf_path.filename().string();
  o.domain_id = grid_id;
  o.io_form = detail::io_form_from_number(11);  // the package WRF calls for io_form 11
  o.fallback_to_serial = false;
  o.history_interval_seconds = -1;
  o.history_begin_seconds = 0;
  o.frames_per_file = INT_MAX;
  o.sizing_frames_per_file = history_frames;
  o.iofields_file.clear();
  o.e_we = o.e_sn = o.e_vert = 0;
  o.print_timing = false;
  return o;
}

std::string find_readable_file(std::string_view wrf_name, const std::string& output_dir) {
  const std::string given(wrf_name);
  const std::string renamed = pnetcdf_file_name(wrf_name);
  std::error_code ec;
  for (const std::string& candidate : {given, renamed}) {
    if (fs::is_regular_file(candidate, ec)) return candidate;
  }
  if (!fs::path(renamed).is_absolute() && !output_dir.empty() && output_dir != ".") {
    const std::string under = (fs::path(output_dir) / renamed).string();
    if (fs::is_regular_file(under, ec)) return under;
  }
  return {};
}

}  // namespace nwpio::wrfio
