// The file sink's state (file_sink.hpp); its methods live in file_sink.cpp (frames) and
// file_sink_files.cpp (opening and completing files).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "backend/backend_registry.hpp"
#include "filesink/file_sink.hpp"
#include "filesink/frame_plans.hpp"
#include "layout/layout_facts.hpp"
#include "util/deadline.hpp"

namespace nwpio::detail {

class FileSink final : public FrameSink {
 public:
  // `own_commits`: setup.commits was made for this sink alone (its close waits for everything).
  FileSink(FileSinkSetup setup, bool own_commits);
  ~FileSink() override;

  void check_background() override;
  void begin_frame(const FrameBegin& frame, FrameStats& stats) override;
  FieldSource accept(int index, const FieldSource& source, bool copy) override { return plans_.accept(index, source, copy); }
  void reserve(int record) override;
  void end_frame(const FrameEnd& frame, FrameStats& stats) override;
  void wait_for_files() override;
  void close(Statistics& stats, bool commit) override;
  void abandon() noexcept override;
  bool failed() const noexcept override { return failed_; }
  std::string timing_note(const FrameStats& stats) const override;
  void describe(Statistics& stats) const override { plans_.describe(stats, setup_.traits); }

 private:
  // The open file.
  struct OpenFile {
    bool open = false;
    std::string name;        // final name (statistics, attachments)
    CommitPlan commit;       // temporary and final paths, what the commit checks
    FileExtent extent;       // where the file ends after n records (disk checks)
    int records = 0;         // frames written into it
    bool behind = false;     // its slabs are written and it is committed in the background
    std::shared_ptr<InFlightFile> in_flight;  // behind: this rank's part of it
  };

  // The private folder a file is created in, held by every rank; on rank 0 pinned until the
  // library created the file, so that no other stream or job of the user removes it meanwhile.
  struct HeldFolder {
    std::shared_ptr<const PrivateDir> folder;
    std::unique_ptr<FolderPin> pin;  // rank 0
  };

  // file_sink_files.cpp
  void open_file(const FileName& file);
  HeldFolder hold_folder(const FileName& file, const std::string& temp_name);
  void create_file(const PrivateDir* folder, const std::string& temp, const HintSession& hints);
  // Adds the seconds the caller waited to stats.close_seconds; a file committed now has
  // committed_after_seconds 0, one committed behind gets it when the service settles it.
  void complete_file(std::size_t stats_index, FrameStats& stats);
  void close_broken_file() noexcept;
  // A time limit (options.file_timeout_seconds) on the collective step `doing` of the file at
  // `path` (util/deadline.hpp).
  Deadline file_deadline(const std::string& doing, const std::string& path) const;

  // file_sink.cpp
  void run_rounds(const FrameEnd& frame, FrameStats& stats);
  void fault(FaultPhase phase) const;

  FileSinkSetup setup_;
  const OutputOptions& options_;
  const StreamLayout& layout_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  bool own_commits_ = false;  // the service is this sink's: close() waits for everything
  std::unique_ptr<Backend> backend_;
  FramePlans plans_;
  RoundOutput round_;
  OpenFile file_;
  // The MPI-IO hints of the stream's files and its node map, settled at the first file's open:
  // they depend on the file's size and the ranks' nodes, which are the same for every file of
  // the stream.
  std::optional<HintSession> file_hints_;
  bool failed_ = false;  // a write failed: the open file is partial, the stream is stopped
};

}  // namespace nwpio::detail
