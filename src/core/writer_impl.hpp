// Writer::Impl: the state of one history stream. The public methods live in writer.cpp
// (construction, close, destruction), frame.cpp (begin_frame, put, end_frame and its steps),
// put_array.cpp (checked puts, pack on put) and stream_file.cpp
// (opening, closing and committing files).
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend/backend.hpp"
#include "core/frame_plan.hpp"
#include "core/output_clock.hpp"
#include "core/resolved_stream.hpp"
#include "core/stream_layout.hpp"
#include "core/test_hooks.hpp"
#include "nwpio/error.hpp"
#include "nwpio/writer.hpp"

namespace nwpio {

namespace detail {
class FrameHandoff;
class ServerLink;
}  // namespace detail

struct Writer::Impl {
  // `servers`: the stream's frames go to these I/O servers (null: this communicator writes).
  Impl(detail::ResolvedStream resolved, const Decomposition& d, Schema s,
       std::shared_ptr<detail::ServerLink> servers = nullptr);
  ~Impl();

  // --- stream ---------------------------------------------------------------------
  Decomposition decomposition;
  Schema schema;
  detail::StreamConfig config;
  const OutputOptions& options = config.options;
  detail::BackendTraits traits;
  Statistics stats;
  detail::OutputClock clock;
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, size = 1;
  std::set<std::string> removed;                  // by iofields: put() on them is free
  std::unordered_map<std::string, int> index_of;  // schema index by name
  detail::StreamLayout layout;
  std::unique_ptr<detail::Backend> backend;
  // Frames go to I/O servers (src/servers/frame_handoff.hpp): no backend, no plans here.
  std::unique_ptr<detail::FrameHandoff> handoff;
  // Rearranged frames reach the backend as contiguous slabs per writer: MPI-IO's two-phase
  // collective buffering then only adds a reshuffle, so it is switched off unless asked for.
  bool contiguous_slabs = false;

  // Fields reach the backend through a plan; [0] for frames in an open file, [1] for the first
  // frame of a file (static variables too). Plans are built once.
  std::array<std::unique_ptr<detail::FramePlan>, 2> plans;
  static constexpr int kTimesField = -1;        // in plan_fields: Times (data = the frame's date)
  std::array<std::vector<int>, 2> plan_fields;  // schema indices, in the plan's order
  std::array<std::vector<int>, 2> plan_position;  // by schema index: its place in plan_fields, -1: none
  std::vector<detail::FieldSource> plan_sources;
  detail::RoundOutput round;

  // --- current frame ----------------------------------------------------------------
  struct Frame {
    bool open = false;
    std::string date;
    std::int64_t seconds = 0;
    bool opens_file = false;                // first record of its file: static variables too
    std::vector<detail::FieldSource> data;  // by schema index; data == nullptr: not put
    double begin_seconds = 0;               // time spent in begin_frame
    double define_seconds = 0;              // file create/define inside begin_frame
    bool written_behind = false;            // its slab write may still be in flight (write-behind)
    detail::FramePlan* packing = nullptr;   // the frame's plan when it packs on put (else: copies)
  } frame;
  std::vector<Error> pending;            // put() errors, raised by end_frame() on every rank
  // Pack on put where the plan cannot take the field at once (several rounds, the direct plan,
  // I/O servers): this rank's part of a field, copied in file order (by schema index; reused).
  std::vector<std::vector<std::byte>> copies;
  bool have_previous = false;
  std::int64_t previous_seconds = 0;
  std::string previous_date;

  // --- current file -------------------------------------------------------------------
  bool file_open = false;
  std::string file_name;   // final name, no directory
  std::string final_path;  // output_dir / file_name
  std::string temp_path;   // final_path + ".nwpio-tmp" until the file is complete
  int records = 0;         // frames written into the open file
  detail::FileExtent extent;  // where the open file ends after n records (disk checks)
  bool broken = false;     // a write failed: the open file is partial, the stream is stopped
  bool dirty = false;      // something happened since the last close()

  // Tests only: a fault armed for this phase and rank throws here.
  void check_fault(detail::FaultPhase phase) const {
    if (options.test_hooks) options.test_hooks->faults.check(phase, rank);
  }

  // frame.cpp
  void begin_frame(std::string_view date);
  void put(std::string_view name, const ArrayView& array);
  void end_frame();
  // frame.cpp: the steps of end_frame
  void settle_write_behind();               // agreed (begin_frame): the previous frame's slab write is in the file
  void check_frame();                       // agreed: everything that can be wrong, before any I/O
  void reserve_frame();                     // room on disk for the frame's bytes
  double run_rounds(int record, detail::PhaseTimes& times);  // the plan's rounds; seconds in backend writes
  void record_statistics(int record, double t0, double check_seconds, double wait_seconds, double close_seconds,
                         const detail::PhaseTimes& times);
  // put_array.cpp
  // The variable's schema index after every check of the array (throws Error naming the cause).
  int checked_index(const std::string& name, const ArrayView& array) const;
  detail::FieldSource copy_on_put(int index, const detail::FieldSource& src);
  // Into the frame's plan when it packs on put (frame.packing), else copy_on_put.
  detail::FieldSource pack_on_put(int index, const detail::FieldSource& src);
  // stream_file.cpp (collective)
  void open_file(const std::string& date);
  double close_file();      // returns seconds spent; commits the file under its final name
  void abandon() noexcept;  // local: no collectives, the temporary file stays
  // writer.cpp
  void close();
  // frame_servers.cpp: the frame path of a stream written by I/O servers
  void name_file(const std::string& date);  // the file the next frames go to (the servers create it)
  void end_frame_on_servers(double t0, double check_seconds);
};

}  // namespace nwpio
