#include "config/stream_config.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "config/option_table.hpp"
#include "nwpio/error.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

namespace {

// Every integer option within its range (the option table's), and a file name to expand.
void check_values(const OutputOptions& o) {
  check_option_values(o);
  if (o.outname.empty()) throw Error(ErrorKind::InvalidArgument, "outname (history_outname) is empty");
}

// Rank 0: the output directory exists, is a directory and can be written.
void check_output_dir(const std::string& dir) {
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0) {
    throw Error(ErrorKind::Io, "output directory " + dir + ": " + std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) throw Error(ErrorKind::Io, "output directory " + dir + ": " + std::strerror(ENOTDIR));
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw Error(ErrorKind::Io, "output directory " + dir + " is not writable: " + std::strerror(errno));
  }
}

// Open MPI backs MPI-3 shared windows with a file in this directory (osc_sm_backing_directory).
std::string shared_memory_dir() {
  const char* dir = std::getenv("OMPI_MCA_osc_sm_backing_directory");
  return dir && *dir ? dir : "/dev/shm";
}

}  // namespace

StreamConfig resolve_stream_config(const OutputOptions& options, MPI_Comm comm, bool check_dir, bool chunked_storage) {
  StreamConfig c;
  c.options = options;
  int rank = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  run_and_agree(comm, [&] {
    check_values(options);
    // The storage settings' syntax (their variables are checked when the layout is built).
    if (chunked_storage) c.compression = CompressionSettings::parse(options);
    if (rank == 0 && check_dir) check_output_dir(options.output_dir);
  });
  c.iofields = read_iofields(options, comm);
  c.hints = HintPlan::resolve(options.hints, comm);
  c.shared_memory_dir = shared_memory_dir();
  return c;
}

}  // namespace nwpio::detail
