#include "config/stream_config.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "layout/compression_settings.hpp"
#include "nwpio/error.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

namespace {

void check_values(const OutputOptions& o) {
  auto bad = [](const std::string& m) { throw Error(ErrorKind::InvalidArgument, m); };
  if (o.frames_per_file < 1) bad("frames_per_file must be at least 1, not " + std::to_string(o.frames_per_file));
  if (o.max_round_bytes < 1) bad("max_round_bytes must be positive");
  if (o.serial_chunk_bytes < 1) bad("serial_chunk_bytes must be positive");
  if (o.header_reserve_bytes < 0) bad("header_reserve_bytes must not be negative");
  if (o.writer_ranks < 0) bad("writer_ranks must be 0 (all ranks) or positive");
  if (o.outname.empty()) bad("outname (history_outname) is empty");
  if (o.chunk_max_bytes < 1) bad("chunk_max_bytes must be positive");
  // The compression settings' syntax (their variables are checked when the layout is built).
  if (o.io_form == IoForm::NetcdfParallel) CompressionSettings::parse(o);
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

StreamConfig resolve_stream_config(const OutputOptions& options, MPI_Comm comm, bool check_dir) {
  StreamConfig c;
  c.options = options;
  int rank = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  run_and_agree(comm, [&] {
    check_values(options);
    if (rank == 0 && check_dir) check_output_dir(options.output_dir);
  });
  c.iofields = read_iofields(options, comm);
  c.hints = HintPlan::resolve(options.hints, comm);
  c.shared_memory_dir = shared_memory_dir();
  return c;
}

}  // namespace nwpio::detail
