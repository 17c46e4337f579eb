// The file sink's files: opening one (temporary file, hints, create, placement, report) and
// completing one (committed now, or handed to the commit service) (file_sink.hpp).
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <limits>

#include "core/disk_guard.hpp"
#include "filesink/completion_ledger.hpp"
#include "filesink/file_sink_impl.hpp"
#include "util/temp_files.hpp"
#include "layout/storage_report.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

namespace {

std::string folder_of(const std::string& path) {
  const std::string d = std::filesystem::path(path).parent_path().string();
  return d.empty() ? std::string(".") : d;
}

// The bytes a file of the stream will have, for the hints that follow the file's size (stripe
// count): its frames (frames_per_file, or what the front end expects when it decides itself
// where a file ends), the fixed-size variables and the header's free space. Saturates instead
// of overflowing.
std::int64_t expected_file_bytes(const StreamLayout& layout, const OutputOptions& o) {
  const std::int64_t frames = o.sizing_frames_per_file > 0 ? o.sizing_frames_per_file : o.frames_per_file;
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max() / 4;
  const std::int64_t records = layout.record_bytes > 0 && frames > kMax / layout.record_bytes ? kMax
                                                                                              : layout.record_bytes * frames;
  return std::min(kMax, records + layout.static_bytes + o.header_reserve_bytes);
}

}  // namespace

// Every rank holds the private folder `file` is created in (temp_files.hpp), made ready and
// pinned by rank 0; no folder when the backend writes no file.
FileSink::HeldFolder FileSink::hold_folder(const FileName& file, const std::string& temp_name) {
  const std::string dir = folder_of(file.path);
  std::shared_ptr<const PrivateDir> folder;
  std::unique_ptr<FolderPin> pin;
  // Rank 0 makes way for the file in the user's private folder: a folder that cannot take it
  // (missing, read-only, no permission, no inode left, a name planted by someone else) is an
  // error with the system's own reason before any library opens it (PnetCDF maps these to its
  // own codes: "NetCDF: Write to read only"). The file is not created here: the library's create
  // is the file's first, so that the MPI-IO layer lays the file out as the hints ask. Until then
  // the folder holds the pin: other streams and jobs of the user that close now find it not empty
  // and leave it, so the other ranks find it where rank 0 made it.
  run_and_agree(comm_, [&] {
    fault(FaultPhase::Open);
    if (rank_ != 0 || !setup_.traits.writes_file) return;
    if (options_.noclobber && std::filesystem::exists(std::filesystem::symlink_status(file.path))) {
      throw Error(ErrorKind::Io, "file " + file.path + " exists and noclobber is set");
    }
    try {
      pin = make_ready_for(dir, temp_name);
      folder = pin->folder();
    } catch (const Error& e) {
      throw Error(e.kind(), "cannot write " + file.path + ": " + e.what());
    }
    if (setup_.hooks && setup_.hooks->folder_ready) setup_.hooks->folder_ready();
  });
  if (!setup_.traits.writes_file) return {};
  // Every other rank holds the same folder, looked up by its name once and compared with rank
  // 0's (temp_files.hpp): a name someone swapped meanwhile is an error on every rank, never a
  // path into another folder.
  std::uint64_t inode = folder ? folder->inode() : 0;
  mpi_check(MPI_Bcast(&inode, 1, MPI_UINT64_T, 0, comm_), "MPI_Bcast(private folder)");
  run_and_agree(comm_, [&] {
    if (rank_ == 0) return;
    try {
      folder = PrivateDir::join(dir, inode);
    } catch (const Error& e) {
      throw Error(e.kind(), "cannot write " + file.path + ": " + e.what());
    }
  });
  return {std::move(folder), std::move(pin)};
}

// The backend's create of the temporary file `temp` and, for plans that stage slabs, the
// placement. On failure every rank joins the close and nothing of the file stays.
void FileSink::create_file(const PrivateDir* folder, const std::string& temp, const HintSession& hints) {
  const auto readable = [&](const Error& e) { return folder ? Error(e.kind(), folder->readable(e.what()), e.agreed()) : e; };
  try {
    run_and_agree(comm_, [&] {
      if (rank_ == 0 && setup_.hooks && setup_.hooks->before_create) setup_.hooks->before_create();
      try {
        backend_->create(temp, layout_.file,
                         {hints.info(), hints.independent_writes(), plans_.slabs_only_times_on_rank0()});
      } catch (const Error& e) {
        // The library's words for a folder that refused the file are vague ("NetCDF: Write to
        // read only", "Permission denied" for any failed HDF5 create): the system's reason too,
        // and then it is an I/O error.
        const std::string why = folder ? refusal_of(*folder) : std::string();
        if (why.empty()) throw readable(e);
        throw Error(ErrorKind::Io, readable(e).what() + ("; " + folder->shown() + ": " + why), e.agreed());
      }
      fault(FaultPhase::Define);  // tests: one rank fails after the create
    });
    // Plans that stage slabs place them where the backend wants the rows (for a classic file:
    // its real offsets, which the header's size decides).
    if (plans_.stages_slabs()) {
      // placement() agrees on its outcome itself: every rank goes on to place, or none does.
      run_and_agree(comm_, [&] {
        SlabPlacement placement;
        try {
          placement = backend_->placement();
        } catch (const Error& e) {
          throw readable(e);
        }
        plans_.place(placement);
      });
    }
  } catch (const Error&) {
    // Every rank agreed on the failure, so all join the close; nothing of the file stays.
    try {
      run_and_agree(comm_, [&] { backend_->close(false); });
    } catch (const Error&) {
    }
    if (rank_ == 0) ::unlink(temp.c_str());
    throw;
  }
}

void FileSink::open_file(const FileName& file) {
  const std::string dir = folder_of(file.path);
  const std::string name = std::filesystem::path(file.path).filename().string();
  const std::string temp_name = name + std::string(kTemporarySuffix);
  // What depends on the file's size, once per stream (every file of it has the same): the hints
  // were resolved when the stream opened. Writers holding contiguous slabs write them as they
  // are: the hints derive collective buffering off unless a profile, the namelist, the API or
  // NWPIO_HINTS set it.
  if (!file_hints_) {
    run_and_agree(comm_, [&] {
      hints::NodePlacement placement;
      placement.writer = plans_.writer_index() >= 0;
      if (setup_.hooks) placement.test_ranks_per_node = setup_.hooks->ranks_per_node;
      file_hints_ = HintSession::for_file(setup_.hints, comm_, setup_.traits.io_form, setup_.traits.uses_mpiio,
                                          expected_file_bytes(layout_, options_),
                                          setup_.traits.parallel && plans_.rearranged(), placement);
    });
  }
  HintSession& hints = *file_hints_;
  HeldFolder held;
  std::string temp;
  {
    const Deadline limit = file_deadline("the create", file.path);
    held = hold_folder(file, temp_name);
    // Every path of the file from here on goes through the folder's descriptor; messages name
    // the folder as users know it.
    temp = held.folder ? held.folder->path_of(temp_name) : temporary_path_of(file.path);
    create_file(held.folder.get(), temp, hints);
  }
  const std::shared_ptr<const PrivateDir> folder = held.folder;
  held.pin.reset();  // the file keeps the folder now
  file_ = OpenFile{};
  file_.open = true;
  file_.name = file.name;
  file_.commit = CommitPlan{temp, file.path, dir, options_.noclobber, options_.fsync_before_rename, -1, folder};
  // Written behind the model: the backend leaves its slabs to the commit service, which also
  // commits the file; the writers meet in the file's ledger.
  file_.behind = options_.write_behind && backend_->defers_slabs() && setup_.traits.writes_file;
  std::shared_ptr<InFlightFile> in_flight;
  const std::string ledger_name = name + std::string(kLedgerSuffix);
  if (file_.behind) {
    in_flight = std::make_shared<InFlightFile>();
    in_flight->commit = file_.commit;
    in_flight->ledger = folder->path_of(ledger_name);
    in_flight->slot = plans_.writer_index();
    in_flight->slots = static_cast<int>(plans_.writers().size());
    in_flight->sync = options_.fsync_before_rename;
    in_flight->stats = setup_.stats;
  }
  // Rank 0's part of the open, in one step: the file's real layout, the ledger of a file written
  // behind, the hint report (the other ranks' report only says it is rank 0's).
  LayoutFacts facts;
  std::string report;
  const bool behind_asked = options_.write_behind && plans_.stages_slabs() && setup_.traits.writes_behind;
  run_and_agree(comm_, [&] {
    if (rank_ == 0) facts = backend_->layout_facts();
    if (rank_ == 0 && in_flight) create_ledger(*folder, ledger_name, in_flight->slots);
    report = file_.commit.readable(hints.verify_and_report(temp, facts, file.path, behind_asked, options_.hints));
  });
  file_.extent = share_file_extent(facts.extent, comm_);
  if (in_flight) {
    setup_.commits->track(in_flight);
    file_.in_flight = std::move(in_flight);
  }
  setup_.stats->attachments.emplace_back("hints:" + file.name, std::move(report));
  // Chunked formats: the chunk shape and filters of every variable (which rank owns which chunk
  // follows from them and the writers' shares; docs/COMPRESSION.md).
  if (std::string storage = storage_report_json(layout_.file); !storage.empty()) {
    setup_.stats->attachments.emplace_back("storage:" + file.name, std::move(storage));
  }
}

// The file's frames are all there. Written behind: the collective part is done now (the
// backend's close: PnetCDF's record count and header) and the rest (this rank's slab writes,
// its fsync, the commit by the last writer) is the service's. Otherwise: closed (durably, when
// asked) and committed by rank 0 now. A file without a frame (its first frame failed) is no
// output: it is removed, not committed.
void FileSink::complete_file(std::size_t stats_index, FrameStats& stats) {
  const double t0 = MPI_Wtime();
  const int written = file_.records;
  const bool behind = file_.behind && written > 0;
  file_.open = false;
  try {
    const Deadline limit = file_deadline("the close", file_.commit.final_path);
    run_and_agree(comm_, [&] {
      try {
        backend_->close(!behind && options_.fsync_before_rename);
      } catch (const Error& e) {
        throw Error(e.kind(), file_.commit.readable(e.what()), e.agreed());
      }
      fault(FaultPhase::Close);  // tests: one rank fails after the close
    });
  } catch (const Error&) {
    failed_ = true;
    if (file_.in_flight) setup_.commits->finish(file_.in_flight, true);
    throw;
  }
  if (behind) {
    file_.in_flight->stats_index = stats_index;
    file_.in_flight->commit.expected_size = file_.extent.known ? file_.extent.end_after(written) : -1;
    setup_.commits->finish(file_.in_flight);
    stats.close_seconds += MPI_Wtime() - t0;
    return;
  }
  if (file_.in_flight) setup_.commits->finish(file_.in_flight, true);  // nothing was written behind
  run_and_agree(comm_, [&] {
    if (rank_ != 0 || !setup_.traits.writes_file) return;  // io_form 0 writes no file
    if (file_.in_flight) remove_ledger(file_.in_flight->ledger);
    if (written == 0) {
      ::unlink(file_.commit.temp.c_str());
      return;
    }
    CommitPlan plan = file_.commit;
    plan.expected_size = file_.extent.known ? file_.extent.end_after(written) : -1;
    commit_file(plan);
  });
  stats.close_seconds += MPI_Wtime() - t0;
  if (written > 0 && setup_.traits.writes_file) stats.committed_after_seconds = 0;
}

// Every rank agreed on the failure, so all join the close; the partial file keeps its
// temporary name.
void FileSink::close_broken_file() noexcept {
  try {
    const Deadline limit = file_deadline("the close", file_.commit.final_path);
    run_and_agree(comm_, [&] { backend_->close(false); });
  } catch (const Error&) {
  }
  if (file_.in_flight) setup_.commits->finish(file_.in_flight, true);
  file_.open = false;
  if (rank_ == 0) {
    std::fprintf(stderr, "nwpio: the partial file stays at %s\n", file_.commit.readable(file_.commit.temp).c_str());
  }
}

Deadline FileSink::file_deadline(const std::string& doing, const std::string& path) const {
  const int limit = options_.file_timeout_seconds;
  std::string message = "nwpio: rank " + std::to_string(rank_) + ": " + doing + " of " + path +
                        " has not returned after " + std::to_string(limit) +
                        " s (file_timeout_seconds): a collective call waits for a rank that does not come (under "
                        "Open MPI's OMPIO: a rank whose own MPI_File_open failed; docs/RELIABILITY.md). Ending this "
                        "process.";
  Deadline::Expired on_expiry;
  if (setup_.hooks && setup_.hooks->file_timeout) on_expiry = setup_.hooks->file_timeout;
  return Deadline(std::chrono::seconds(limit), std::move(message), std::move(on_expiry));
}

}  // namespace nwpio::detail
