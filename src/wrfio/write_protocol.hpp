// The order of WRF's calls for one file opened for writing, as a state machine without I/O:
// which collective step (begin a frame, end it) each call asks for. WriteStream runs the steps.
// It is kept apart from WriteStream, which needs MPI and a Writer, so that the rule is one piece
// of pure logic, tested without MPI (tests/wrfio/unit) and fuzzed.
//
// The rule. Every rank makes the same sequence of calls (WRF's output_wrf on every compute
// task); only their arguments can differ, when something is wrong. So boundaries are decided by
// counting calls, never by an argument: after the commit a frame begins with the first call
// when none is open (at that call's DateStr; Writer::begin_frame agrees the dates of all ranks)
// and ends with the call that makes as many calls as training defined variables. A call dated
// otherwise than its frame is an error of that frame (raised at its end on every rank), not a
// boundary: a DateStr that is wrong on one rank cannot make that rank step out of line with the
// others. WRF writes every variable of a file once per frame, so for WRF the count and the
// DateStr always agree.
//
// I/O servers (WRF's PNETCDF_QUILT) receive each variable in several pieces: their frame ends
// at iosync, or when a piece of a new DateStr arrives, or at ioclose.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace nwpio::wrfio {

class WriteProtocol {
 public:
  // Training: inquire_filename answers 101, write_field defines variables. Frames: after the
  // commit. Failed: a collective step failed on every rank (the commit or a frame); nothing
  // more is written to the file.
  enum class Phase { Training, Frames, Failed };

  // What one write_field call asks for, in this order.
  struct Steps {
    bool end_before = false;  // I/O servers: end the open frame first (a new DateStr arrived)
    bool begin = false;       // begin a frame at the call's DateStr
    bool define = false;      // training: the call defines its variable
    bool end_after = false;   // the frame is complete with this call
    std::string problem;      // why the call does not fit its frame (empty: it does)
  };

  Phase phase() const noexcept { return phase_; }
  bool frame_open() const noexcept { return open_; }
  const std::string& frame_date() const noexcept { return date_; }

  // Training -> Frames, with `variables` defined in training. Throws WrfError
  // kBadFileStatus when the file is not in training (a second commit).
  void commit(std::size_t variables, bool quilt);

  // One write_field call dated `date` (as passed). Throws WrfError (quiet) kBadFileStatus when
  // the file failed earlier.
  Steps field(std::string_view date);

  // iosync: whether the open frame ends now (I/O servers). Throws WrfError kFileNotCommitted
  // in training (WRF's own package answers so), kBadFileStatus (quiet) when failed.
  bool sync();

  // ioclose: whether an open frame must be ended first. Throws WrfError kDryRunClose in
  // training. A failed file answers false (its Writer is still closed, on every rank).
  bool close();

  // A collective step failed on every rank: `why` is said again (quietly) by later calls.
  void fail(std::string why);

 private:
  void require_frames() const;

  Phase phase_ = Phase::Training;
  bool quilt_ = false;
  std::size_t variables_ = 0;
  bool open_ = false;
  std::string date_;
  std::size_t calls_ = 0;  // calls of the open frame so far
  std::string failure_;
};

}  // namespace nwpio::wrfio
