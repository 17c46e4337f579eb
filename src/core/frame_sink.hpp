// FrameSink: where the frames of a stream go. The stream (core/stream.hpp) keeps the checks,
// the bookkeeping and the life of a frame (begin, put, end, close, abandon); it hands every
// frame to ONE sink:
//   - the file sink (src/filesink): frame plans, a backend, write-behind, the atomic commit;
//   - the server sink (src/servers): the hand-off to I/O server ranks, which write the files.
// The stream names the files (outname, domain, the date of a file's first frame) and decides
// when a file is complete (frames_per_file, or the front end's close); a sink decides how the
// bytes get there. A sink never branches on what the other does.
//
// Every collective method is called by every rank of the stream at the same point; a sink
// that throws from a collective method throws the same Error on every rank.
#pragma once

#include <span>
#include <string>

#include "core/stream_layout.hpp"
#include "nwpio/statistics.hpp"

namespace nwpio::detail {

// A file of the stream: its final name and where it lies.
struct FileName {
  std::string name;  // final name, no directory
  std::string path;  // output_dir / name
};

struct FrameBegin {
  const std::string& date;
  const FileName& file;    // the file the frame goes into
  int record = 0;          // the frame's index in its file; 0: its first (fixed-size variables too)
  bool opens_file = false; // the file is new (a frame that failed its checks leaves it open)
};

struct FrameEnd {
  const std::string& date;
  int record = 0;
  bool completes_file = false;          // no frame follows in this file: it may be committed
  std::span<const FieldSource> fields;  // by schema index (what accept() returned)
};

class FrameSink {
 public:
  virtual ~FrameSink() = default;

  // Collective: a failure the sink heard of in the background (a file committed behind the
  // model, an I/O server) is thrown here, on every rank. Called first by begin_frame,
  // end_frame and close.
  virtual void check_background() = 0;

  // Collective: the frame begins (a new file is opened or named first). Fills the statistics
  // it measures (define_seconds).
  virtual void begin_frame(const FrameBegin& frame, FrameStats& stats) = 0;

  // Local: field `index` was put and checked. Returns what the frame keeps for it: the source
  // itself, or (copy: the caller's array may change once put() returns) the field packed at
  // once into the sink's staging or into a copy.
  virtual FieldSource accept(int index, const FieldSource& source, bool copy) = 0;

  // Local, inside end_frame's agreed checks: room for the frame (throws naming the reason).
  virtual void reserve(int /*record*/) {}

  // Collective: writes the frame. Fills the phases it measures. A failure leaves the stream
  // failed (failed() true) and is thrown on every rank.
  virtual void end_frame(const FrameEnd& frame, FrameStats& stats) = 0;

  // Collective: every file completed so far carries its final name when it returns, or the
  // failure of one is thrown on every rank.
  virtual void wait_for_files() {}

  // Collective: the stream closes. A file still open is complete now (its frames are all
  // there), or, `commit` false, keeps its temporary name; everything of the stream that is in
  // flight is settled, or handed to whoever owns the sink's background work, and the statistics
  // learnt late are filled in.
  virtual void close(Statistics& stats, bool commit) = 0;

  // Local, never collective, never throws: forget the stream because other ranks may not join a
  // collective any more (an exception is unwinding). Partial files keep their temporary names.
  virtual void abandon() noexcept = 0;

  // A write failed: the stream stopped (begin_frame refuses, close only cleans up).
  virtual bool failed() const noexcept = 0;

  // The stream's close must reach the sink even when no frame was written (I/O servers wait
  // for it).
  virtual bool needs_close() const noexcept { return false; }

  // The end of WRF's timing line for this frame; empty: the rate (MB/s).
  virtual std::string timing_note(const FrameStats& stats) const = 0;

  // How the sink writes (Statistics::backend, gather, reorder, writer_ranks).
  virtual void describe(Statistics& stats) const = 0;
};

}  // namespace nwpio::detail
