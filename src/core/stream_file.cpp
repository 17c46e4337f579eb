// Files of a stream: create under a temporary name (hints resolved and reported), close, and
// commit under the final name only when complete, so that a partial file never carries it.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "config/hint_session.hpp"
#include "core/disk_guard.hpp"
#include "core/fault_injection.hpp"
#include "core/filename.hpp"
#include "core/writer_impl.hpp"
#include "layout/storage_report.hpp"
#include "servers/frame_handoff.hpp"
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

// Rank 0 creates the temporary file itself first, so that a directory that cannot take it
// (missing, read-only, no permission, no inode left) is an error with the system's own reason;
// PnetCDF maps these to its own codes ("NetCDF: Write to read only").
void create_probe(const std::string& temp) {
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) throw Error(ErrorKind::Io, "cannot create " + temp + ": " + std::strerror(errno));
  ::close(fd);
}

// The final name, atomically: with noclobber an existing file there is never replaced, even one
// that appeared while the file was written (renameat2 RENAME_NOREPLACE; link + unlink where the
// file system lacks it).
void commit_name(const std::string& temp, const std::string& path, bool noclobber) {
  if (!noclobber) {
    if (std::rename(temp.c_str(), path.c_str()) == 0) return;
  } else if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0) {
    return;
  } else if (errno == EINVAL || errno == ENOSYS) {
    if (::link(temp.c_str(), path.c_str()) == 0) {
      ::unlink(temp.c_str());
      return;
    }
  }
  const int err = errno;
  std::string text = "rename " + temp + " to " + path + ": " + std::strerror(err);
  if (err == EEXIST) text += " (noclobber is set; the complete file stays at " + temp + ")";
  throw Error(ErrorKind::Io, text);
}

}  // namespace

void Writer::Impl::open_file(const std::string& date) {
  const std::string name = detail::expand_file_name(options.outname, options.domain_id, date, traits.colon_free_names);
  const std::string path = (std::filesystem::path(options.output_dir) / name).string();
  const std::string temp = path + std::string(detail::kTemporarySuffix);
  bool probed = false;
  try {
    run_and_agree(comm, [&] {
      check_fault(detail::FaultPhase::Open);
      if (rank != 0 || !traits.writes_file) return;
      if (options.noclobber && std::filesystem::exists(path)) {
        throw Error(ErrorKind::Io, "file " + path + " exists and noclobber is set");
      }
      create_probe(temp);
      probed = true;
    });
  } catch (const Error&) {
    if (probed) ::unlink(temp.c_str());
    throw;
  }
  const std::int64_t expected =
      layout.record_bytes * options.frames_per_file + layout.static_bytes + options.header_reserve_bytes;
  // Writers holding contiguous slabs write them as they are: the hints derive collective
  // buffering off unless a profile, the namelist, the API or NWPIO_HINTS set it (measured in
  // bench/gather, docs/ARCHITECTURE.md "Frame data path").
  // Per file only what depends on its size: the hints were resolved when the stream opened.
  detail::HintSession hints;
  run_and_agree(comm, [&] {
    hints = detail::HintSession::for_file(config.hints, comm, traits.io_form, traits.uses_mpiio, expected, contiguous_slabs);
  });
  try {
    run_and_agree(comm, [&] {
      backend->create(temp, layout.file, {hints.info(), hints.independent_writes()});
      check_fault(detail::FaultPhase::Define);  // tests: one rank fails after the create
    });
    // Plans that stage slabs place them where the backend wants the rows (for a classic file:
    // its real offsets, which the header's size decides).
    if (plans[0]->stages_slabs()) {
      detail::SlabPlacement placement;
      run_and_agree(comm, [&] { placement = backend->placement(); });
      run_and_agree(comm, [&] {
        for (auto& plan : plans) plan->place(placement);
      });
    }
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
  extent = detail::share_file_extent(facts.extent, comm);
  std::string report;
  run_and_agree(comm, [&] { report = hints.verify_and_report(temp, facts, path); });
  stats.attachments.emplace_back("hints:" + name, std::move(report));
  // Chunked formats: the chunk shape and filters of every variable (which rank owns which chunk
  // follows from them and the writers' shares; docs/COMPRESSION.md).
  if (std::string storage = detail::storage_report_json(layout.file); !storage.empty()) {
    stats.attachments.emplace_back("storage:" + name, std::move(storage));
  }
}

double Writer::Impl::close_file() {
  const double t0 = MPI_Wtime();
  const int written = records;
  file_open = false;
  records = 0;
  try {
    run_and_agree(comm, [&] {
      backend->close();
      check_fault(detail::FaultPhase::Close);  // tests: one rank fails after the close
    });
  } catch (const Error&) {
    broken = true;
    throw;
  }
  // Rank 0 commits: data on disk first (when asked), then the final name, then the directory.
  // A file without a frame (its first frame failed) is no output: it is removed, not committed.
  run_and_agree(comm, [&] {
    if (rank != 0 || !traits.writes_file) return;  // io_form 0 writes no file
    if (written == 0) {
      ::unlink(temp_path.c_str());
      return;
    }
    if (extent.known) detail::check_complete_size(temp_path, extent.end_after(written));
    if (options.fsync_before_rename) sync_path(temp_path, O_RDONLY);
    commit_name(temp_path, final_path, options.noclobber);
    if (options.fsync_before_rename) sync_path(options.output_dir, O_RDONLY | O_DIRECTORY);
  });
  return MPI_Wtime() - t0;
}

void Writer::Impl::abandon() noexcept {
  if (handoff) {  // the servers hold the file: they close it when they stop
    handoff->abandon();
    file_open = false;
    return;
  }
  for (auto& plan : plans) {
    if (plan) plan->abandon();  // their shared windows are freed collectively: not now
  }
  if (!file_open) return;
  backend->abandon();
  file_open = false;
  if (rank == 0) std::fprintf(stderr, "nwpio: stream abandoned after an error; the partial file stays at %s\n", temp_path.c_str());
}

}  // namespace nwpio
