#include "backend/agreed_open.hpp"

#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

void agree_on_open(MPI_Comm comm, const std::optional<Error>& local, bool held, const std::function<void()>& close_all,
                   const std::function<void()>& forget) {
  // Whether any rank failed, and whether any rank holds no handle.
  int facts[2] = {local ? 1 : 0, held ? 0 : 1};
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, facts, 2, MPI_INT, MPI_MAX, comm), "MPI_Allreduce(outcome of an open)");
  if (facts[0] == 0) return;
  if (facts[1] == 0) {
    try {
      close_all();
    } catch (const std::exception&) {
      // The open's failure is the one to report.
    }
  } else if (held) {
    forget();
  }
  agree(comm, local);
}

}  // namespace nwpio::detail
