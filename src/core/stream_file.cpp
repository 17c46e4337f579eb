// Files of a stream: create under a temporary name (hints resolved and reported), close, and
// commit under the final name only when complete, so that a partial file never carries it.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "config/hint_session.hpp"
#include "core/filename.hpp"
#include "core/writer_impl.hpp"
#include "util/agree.hpp"

namespace nwpio {

namespace {

using detail::run_and_agree;

// fsync a file or directory by path; errors are reported with strerror.
void sync_path(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) throw Error(ErrorKind::Io, "open " + path + " for fsync: " + std::strerror(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  // Some file systems cannot fsync a directory (EINVAL); that is not a failure of the data.
  if (rc != 0 && !(err == EINVAL && (flags & O_DIRECTORY))) {
    throw Error(ErrorKind::Io, "fsync " + path + ": " + std::strerror(err));
  }
}

}  // namespace

void Writer::Impl::open_file(const std::string& date) {
  const std::string name = detail::file_name_for(options, date);
  const std::string path = (std::filesystem::path(options.output_dir) / name).string();
  const std::string temp = path + std::string(detail::kTemporarySuffix);
  run_and_agree(comm, [&] {
    if (rank == 0 && options.noclobber && std::filesystem::exists(path)) {
      throw Error(ErrorKind::Io, "file " + path + " exists and noclobber is set");
    }
  });
  const std::int64_t expected =
      layout.record_bytes * options.frames_per_file + layout.static_bytes + options.header_reserve_bytes;
  // Writers holding contiguous slabs write them as they are: collective buffering off, unless
  // the caller set it (measured in bench/gather, docs/ARCHITECTURE.md "Frame data path").
  HintOptions hint_options = options.hints;
  if (contiguous_slabs) hint_options.overrides.emplace("collective_write", "false");
  detail::HintSession hints;
  run_and_agree(comm, [&] { hints = detail::HintSession::resolve(hint_options, options.io_form, comm, expected); });
  try {
    run_and_agree(comm, [&] { backend->create(temp, layout.file, hints.info()); });
  } catch (const Error&) {
    // Every rank agreed on the failure, so all join the close; nothing of the file stays.
    try {
      run_and_agree(comm, [&] { backend->close(); });
    } catch (const Error&) {
    }
    if (rank == 0) {
      std::error_code ec;
      std::filesystem::remove(temp, ec);
    }
    throw;
  }
  file_open = true;
  file_name = name;
  final_path = path;
  temp_path = temp;
  records = 0;
  const detail::LayoutFacts facts = rank == 0 ? backend->layout_facts() : detail::LayoutFacts{};
  std::string report;
  run_and_agree(comm, [&] { report = hints.verify_and_report(name, facts); });
  stats.attachments.emplace_back("hints:" + name, std::move(report));
}

double Writer::Impl::close_file() {
  const double t0 = MPI_Wtime();
  file_open = false;
  records = 0;
  try {
    run_and_agree(comm, [&] { backend->close(); });
  } catch (const Error&) {
    broken = true;
    throw;
  }
  // Rank 0 commits: data on disk first (when asked), then the final name, then the directory.
  run_and_agree(comm, [&] {
    if (rank != 0 || options.io_form == IoForm::Null) return;  // io_form 0 writes no file
    if (options.fsync_before_rename) sync_path(temp_path, O_RDONLY);
    if (std::rename(temp_path.c_str(), final_path.c_str()) != 0) {
      throw Error(ErrorKind::Io, "rename " + temp_path + " to " + final_path + ": " + std::strerror(errno));
    }
    if (options.fsync_before_rename) sync_path(options.output_dir, O_RDONLY | O_DIRECTORY);
  });
  return MPI_Wtime() - t0;
}

void Writer::Impl::abandon() noexcept {
  if (!file_open) return;
  backend->abandon();
  file_open = false;
  if (rank == 0) std::fprintf(stderr, "nwpio: stream abandoned after an error; the partial file stays at %s\n", temp_path.c_str());
}

}  // namespace nwpio
