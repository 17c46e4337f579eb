// Everything a stream settles before it exists (resolved_stream.hpp): the backend's traits and the
// configuration, checked and agreed on every rank.
#include "api/resolved_stream.hpp"
#include "backend/backend_registry.hpp"
#include "core/filename.hpp"
#include "core/output_clock.hpp"
#include "mpiio/romio_paths.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

namespace {

// A stream that opens its files through MPI-IO: its names must pass ROMIO's prefix rule.
void check_names_for_romio(const OutputOptions& o, const BackendTraits& traits) {
  if (!traits.uses_mpiio || !traits.writes_file) return;
  const std::string name = expand_file_name(o.outname, o.domain_id,
                                            o.start_date.empty() ? "0001-01-01_00:00:00" : o.start_date,
                                            traits.colon_free_names);
  check_path_for_romio(o.output_dir, name, static_cast<int>(traits.io_form));
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
  r.config = resolve_stream_config(options, comm, r.enabled && r.traits.writes_file, r.traits.shares_each_variable);
  r.config.options.io_form = r.traits.io_form;
  if (r.enabled) run_and_agree(comm, [&] { check_names_for_romio(r.config.options, r.traits); });
  return r;
}

}  // namespace nwpio::detail
