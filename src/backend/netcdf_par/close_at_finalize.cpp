#include "backend/netcdf_par/close_at_finalize.hpp"

#include <mpi.h>
#include <netcdf.h>

#include <new>
#include <vector>

namespace nwpio::detail {

namespace {

// The files given up, held by MPI as the value of an attribute of MPI_COMM_SELF: MPI hands it
// to the delete callback at MPI_Finalize, which closes them and frees it.
struct GivenUpFiles {
  std::vector<int> ncids;
};

int close_given_up(MPI_Comm /*comm*/, int /*keyval*/, void* value, void* /*extra*/) {
  auto* files = static_cast<GivenUpFiles*>(value);
  for (int ncid : files->ncids) nc_close(ncid);  // its failure has nobody left to tell
  delete files;
  return MPI_SUCCESS;
}

}  // namespace

void close_at_mpi_finalize(int ncid) noexcept {
  // One keyval per process, made on first use (the process-wide state this needs).
  static int keyval = MPI_KEYVAL_INVALID;
  if (keyval == MPI_KEYVAL_INVALID &&
      MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, close_given_up, &keyval, nullptr) != MPI_SUCCESS) {
    return;  // HDF5 closes it then, as it would anyway
  }
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_SELF, keyval, &value, &found);
  if (found) {
    try {
      static_cast<GivenUpFiles*>(value)->ncids.push_back(ncid);
    } catch (const std::bad_alloc&) {
    }
    return;
  }
  auto* files = new (std::nothrow) GivenUpFiles;
  if (files == nullptr) return;
  try {
    files->ncids.push_back(ncid);
  } catch (const std::bad_alloc&) {
    delete files;
    return;
  }
  // Set now, after HDF5's and ROMIO's own callbacks: MPI runs it before theirs.
  if (MPI_Comm_set_attr(MPI_COMM_SELF, keyval, files) != MPI_SUCCESS) delete files;
}

}  // namespace nwpio::detail
