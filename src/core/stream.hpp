// Stream: the life of one history stream's frames, whatever writes them. It keeps what every
// front end needs and every sink can trust:
//   begin_frame  agreed date checks (valid, the same on every rank, after the previous frame),
//                the file the frame goes into (named here: outname, domain, the date of the
//                file's first frame), then the sink's begin;
//   put          the checks of put_array.cpp (name, kind, extents, memory box, not twice); the
//                sink accepts the field (or packs it at once, when the caller asks);
//   end_frame    agreed checks before any I/O (errors put() remembered, variables missing,
//                the sink's room), the sink's write, the statistics (max over ranks, one
//                allreduce) and WRF's timing line;
//   close        the sink settles the stream; the statistics JSON.
// Where a frame goes is the sink's (core/frame_sink.hpp): the stream never asks which sink.
#pragma once

#include <mpi.h>

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/frame_sink.hpp"
#include "core/output_clock.hpp"
#include "core/stream_layout.hpp"
#include "core/test_hooks.hpp"
#include "nwpio/decomposition.hpp"
#include "nwpio/error.hpp"
#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/statistics.hpp"
#include "nwpio/writer.hpp"

namespace nwpio::detail {

class Stream {
 public:
  // Collective over decomposition.comm(). `schema` has iofields applied already; `removed`
  // are the names iofields took out (put() on them costs nothing). The layout is built here;
  // attach the sink before the first frame.
  // `compression`: the storage settings parsed when the stream opened (chunked formats), or null.
  Stream(OutputOptions options, const Decomposition& decomposition, Schema schema, std::set<std::string> removed,
         const BackendTraits& traits, const CompressionSettings* compression, std::shared_ptr<TestHooks> hooks,
         std::shared_ptr<Statistics> stats);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  void attach(std::unique_ptr<FrameSink> sink) { sink_ = std::move(sink); }

  void begin_frame(std::string_view date);
  void put(std::string_view name, const ArrayView& array);
  void report_error(const Error& error);
  void end_frame();
  void wait_for_files();
  // `commit` false: a file still open keeps its temporary name (its frames are not all there).
  void close(bool commit = true);
  // Local: leaves without a collective (see FrameSink::abandon).
  void abandon() noexcept;
  // Whether the destructor must close: something happened since the last close(), or the sink
  // must hear of the close in any case (I/O servers).
  bool needs_close() const noexcept { return dirty_ || (sink_ && sink_->needs_close()); }
  bool failed() const noexcept { return sink_ && sink_->failed(); }

  const OutputOptions& options() const noexcept { return options_; }
  const Schema& schema() const noexcept { return schema_; }
  const StreamLayout& layout() const noexcept { return layout_; }
  const Decomposition& decomposition() const noexcept { return decomposition_; }
  const OutputClock& clock() const noexcept { return clock_; }
  const TestHooks* hooks() const noexcept { return hooks_.get(); }
  Statistics& statistics() noexcept { return *stats_; }
  const Statistics& statistics() const noexcept { return *stats_; }
  // The open file's final path; empty when none is open.
  std::string current_file() const { return file_open_ ? file_.path : std::string(); }

 private:
  struct Frame {
    bool open = false;
    std::string date;
    std::int64_t seconds = 0;
    int record = 0;                  // its index in its file
    std::vector<FieldSource> data;   // by schema index; data == nullptr: not put
    double begin_seconds = 0;        // time spent in begin_frame
    FrameStats stats;                // what the sink measured so far
  };
  struct Previous {  // the last frame that was written: dates must follow it
    bool known = false;
    std::int64_t seconds = 0;
    std::string date;
  };

  int checked_index(const std::string& name, const ArrayView& array) const;  // put_array.cpp
  void check_frame();
  void record_statistics(double t0, double check_seconds);
  void fault(FaultPhase phase) const;
  int rank() const noexcept { return decomposition_.rank(); }

  OutputOptions options_;
  Decomposition decomposition_;
  Schema schema_;
  std::set<std::string> removed_;
  std::unordered_map<std::string, int> index_of_;
  StreamLayout layout_;
  OutputClock clock_;
  bool colon_free_names_ = false;
  std::shared_ptr<TestHooks> hooks_;
  std::unique_ptr<FrameSink> sink_;
  std::shared_ptr<Statistics> stats_;
  Frame frame_;
  std::vector<Error> pending_;  // put() errors, raised by end_frame() on every rank
  Previous previous_;
  bool file_open_ = false;
  FileName file_;
  int records_ = 0;             // frames in the open file
  bool dirty_ = false;          // something happened since the last close()
};

}  // namespace nwpio::detail
