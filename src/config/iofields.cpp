// STUB until the namelist work (issue 3) lands: iofields files are not read yet.
#include "config/iofields.hpp"

namespace nwpio::detail {

std::set<std::string> apply_iofields(Schema&, const OutputOptions&, MPI_Comm) { return {}; }

}  // namespace nwpio::detail
