#include "util/agree.hpp"

#include <new>
#include <string>
#include <vector>

#include "util/mpi_call.hpp"

namespace nwpio::detail {

std::string mpi_error_string(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) return "MPI error code " + std::to_string(code);
  return std::string(text, static_cast<std::size_t>(len));
}

void agree(MPI_Comm comm, const std::optional<Error>& local) {
  int rank = 0;
  int size = 1;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  mpi_check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  // Lowest failing rank, or `size` when all succeeded.
  int mine = local ? rank : size;
  int first = size;
  mpi_check(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce(agree)");
  if (first == size) return;

  // The first failing rank sends its kind, message and whether it was agreed before to everybody.
  const bool mine_first = local && rank == first;
  std::string text = mine_first ? std::string(local->what()) : std::string();
  int header[3] = {mine_first ? static_cast<int>(local->kind()) : 0, static_cast<int>(text.size()),
                   mine_first && local->agreed() ? 1 : 0};
  mpi_check(MPI_Bcast(header, 3, MPI_INT, first, comm), "MPI_Bcast(agree)");
  text.resize(static_cast<std::size_t>(header[1]));
  if (header[1] > 0) {
    mpi_check(MPI_Bcast(text.data(), header[1], MPI_CHAR, first, comm), "MPI_Bcast(agree)");
  }
  // Every rank throws the same text; with several ranks it names the rank that failed first
  // (once: an error that already went through an agreement carries its rank already).
  if (size > 1 && header[2] == 0) text = "rank " + std::to_string(first) + ": " + text;
  throw Error(static_cast<ErrorKind>(header[0]), text, true);
}

void run_and_agree(MPI_Comm comm, const std::function<void()>& local_step) {
  std::optional<Error> local;
  try {
    local_step();
  } catch (const Error& e) {
    local = e;
  } catch (const std::bad_alloc& e) {
    // An allocation nwpio did not name (allocate_bytes names its own): still no bare bad_alloc.
    local = Error(ErrorKind::Config, std::string("out of memory (") + e.what() + ")");
  } catch (const std::exception& e) {
    local = Error(ErrorKind::Internal, e.what());
  }
  agree(comm, local);
}

}  // namespace nwpio::detail
