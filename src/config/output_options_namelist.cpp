// The public, collective entry point: rank 0 reads namelist.input, every rank parses the same
// broadcast text and maps it; a failure anywhere is thrown on every rank.
#include "config/namelist_file.hpp"
#include "config/namelist_settings.hpp"
#include "nwpio/options.hpp"
#include "util/agree.hpp"

namespace nwpio {

OutputOptions OutputOptions::from_namelist(const std::string& path, int domain_id, MPI_Comm comm) {
  const detail::Namelist nl = detail::load_namelist(path, comm);
  OutputOptions options;
  detail::run_and_agree(comm, [&] { options = detail::output_options_from(nl, domain_id); });
  return options;
}

}  // namespace nwpio
