// Statistics of a stream: per frame bytes and seconds per phase, MB/s.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nwpio {

struct FrameStats {
  std::string file;       // final file name (no directory)
  std::string date;       // the frame's date
  int record = 0;         // index of the frame within its file
  std::int64_t bytes = 0; // bytes of variable data in this frame (all ranks)
  int rounds = 0;         // collective write rounds (frames over the per-rank limit are split)
  double define_seconds = 0;    // file create + define + enddef (frames that open a file)
  double check_seconds = 0;     // end_frame's agreed checks, disk reservation included
  double reorder_seconds = 0;   // pack / byte order / memory-order work
  double exchange_seconds = 0;  // rearranger exchange
  double wait_seconds = 0;      // collective write (MPI_File_write_at_all / ncmpi_wait_all / nc_put_vara)
  double close_seconds = 0;     // file close (frames that close a file)
  double total_seconds = 0;     // begin_frame .. end_frame, max over ranks
  std::int64_t peak_buffer_bytes = 0;  // largest staging buffer nwpio held on any rank
  // Write-behind (OutputOptions::write_behind): end_frame returned while slab bytes were still
  // on their way to the file; the next frame that packs into the same slabs waits for them.
  bool written_behind = false;
  // The frame completed its file and the file was committed (fsync where asked, final name)
  // behind the model, while end_frame had returned.
  bool committed_behind = false;
  // Seconds from the end of the frame that completed the file until the file carried its final
  // name; -1: not known yet (a file committed behind the model: filled in when the stream learns
  // it, at the latest at close) or the frame did not complete a file.
  double committed_after_seconds = -1;
  // Frames handed to I/O servers (IoServers): total_seconds is the time the model was blocked
  // (checks, pack, posting the sends, any wait for the servers); the servers report the rest
  // later, when their answer arrives (server_reported).
  int server_group = -1;              // the server group that writes the frame; -1: the model's ranks wrote it
  double backpressure_seconds = 0;    // waiting for a group that held server_frames_in_flight frames
  double handoff_seconds = 0;         // blocking hand-off only: until the servers held the frame
  double server_receive_seconds = 0;  // servers: from the frame's control to its last byte received
  double server_unpack_seconds = 0;   // servers: the pieces into their band arrays
  double server_write_seconds = 0;    // servers: their Writer, begin_frame .. end_frame (close included)
  bool server_reported = false;       // the servers' answer arrived (the three above are set)
  double mb_per_s() const noexcept { return total_seconds > 0 ? static_cast<double>(bytes) / 1e6 / total_seconds : 0.0; }
};

class Statistics {
 public:
  std::vector<FrameStats> frames;
  // How the stream writes, as resolved from the options (Auto replaced by the choice made):
  std::string backend;     // "pnetcdf", "netcdf-serial", "null"
  std::string gather;      // "rearrange" or "direct"
  std::string reorder;     // "pack" or "datatype" (direct only; rearrange always packs)
  int writer_ranks = 0;    // ranks that hand data to the backend
  // Extra JSON objects (as text) other parts attach to the report, e.g. the hint report of
  // each file: {"<key>": <json>}.
  std::vector<std::pair<std::string, std::string>> attachments;

  std::int64_t total_bytes() const noexcept;
  double total_seconds() const noexcept;
  std::string to_json() const;                 // {"nwpio_version": "...", "backend": ..., "frames": [...], "total": {...}, ...}
  void write_json(const std::string& path) const;  // throws Error(Io)
};

}  // namespace nwpio
