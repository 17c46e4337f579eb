// Everything a stream settles before it exists (resolved_stream.hpp): the backend's traits and the
// configuration, checked and agreed on every rank.
#include <filesystem>

#include "api/resolved_stream.hpp"
#include "backend/backend.hpp"
#include "config/hints_mpiio.hpp"
#include "core/filename.hpp"
#include "core/output_clock.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

namespace {

// ROMIO reads the text before the first ':' of a path as a file-system prefix ("ufs:",
// "lustre:"), so MPI_File_open fails on WRF's dated names (wrfout_d01_2019-06-01_00:00:00),
// with an error that does not say why (netCDF-C: "Permission denied"). A backend that keeps
// WRF's colons and opens through MPI-IO (io_form 13, as WRF's io_netcdfpar) is refused here,
// before any file exists, with the way out (io_form 11 replaces them always, as WRF's does);
// so is an output_dir with ':' for every MPI-IO backend.
void check_names_for_romio(const OutputOptions& o, const BackendTraits& traits) {
  if (!traits.uses_mpiio || !traits.writes_file) return;
  const hints::MpiIo io = hints::detect_mpiio();
  if (io.layer != hints::IoLayer::Romio) return;
  const std::string name = expand_file_name(o.outname, o.domain_id,
                                            o.start_date.empty() ? "0001-01-01_00:00:00" : o.start_date,
                                            traits.colon_free_names);
  const bool in_dir = o.output_dir.find(':') != std::string::npos;
  if (!in_dir && name.find(':') == std::string::npos) return;
  const std::string path = (std::filesystem::path(o.output_dir) / name).string();
  throw Error(ErrorKind::InvalidArgument,
              "io_form " + std::to_string(static_cast<int>(traits.io_form)) + " opens its files through MPI-IO, and " +
                  io.component + " (ROMIO) reads the text before the first ':' of '" + path +
                  "' as a file-system prefix: the file cannot be created. " +
                  (in_dir ? "Use an output_dir without ':'"
                          : "Set nocolons = .true. (&time_control: ':' becomes '_', as in io_form 11 names)") +
                  ", or Open MPI's OMPIO (OMPI_MCA_io unset)");
}

}  // namespace

ResolvedStream resolve_stream(const OutputOptions& options, MPI_Comm comm) {
  ResolvedStream r;
  int rank = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  run_and_agree(comm, [&] {
    r.traits = backend_traits(options, rank);
    r.enabled = OutputClock(options).enabled();
  });
  r.config = resolve_stream_config(options, comm, r.enabled && r.traits.writes_file);
  r.config.options.io_form = r.traits.io_form;
  if (r.enabled) run_and_agree(comm, [&] { check_names_for_romio(r.config.options, r.traits); });
  return r;
}

}  // namespace nwpio::detail
