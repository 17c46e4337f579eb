#include "wrfio/write_protocol.hpp"

#include <utility>

#include "wrfio/wrf_status.hpp"

namespace nwpio::wrfio {

void WriteProtocol::commit(std::size_t variables, bool quilt) {
  if (phase_ != Phase::Training) {
    throw WrfError(wrf_status::kBadFileStatus, ErrorKind::State, "open_for_write_commit called twice");
  }
  phase_ = Phase::Frames;
  variables_ = variables;
  quilt_ = quilt;
}

void WriteProtocol::require_frames() const {
  if (phase_ == Phase::Failed) {
    throw WrfError(wrf_status::kBadFileStatus, ErrorKind::State,
                   "the file failed earlier (" + failure_ + "); nothing more is written to it", /*quiet=*/true);
  }
}

WriteProtocol::Steps WriteProtocol::field(std::string_view date) {
  Steps s;
  if (phase_ == Phase::Training) {
    s.define = true;
    return s;
  }
  require_frames();
  if (quilt_) {
    if (open_ && date != date_) {
      s.end_before = true;
      open_ = false;
    }
    if (!open_) {
      s.begin = true;
      open_ = true;
      date_ = std::string(date);
    }
    return s;
  }
  if (!open_) {
    s.begin = true;
    open_ = true;
    date_ = std::string(date);
    calls_ = 0;
  } else if (date != date_) {
    s.problem = "DateStr '" + std::string(date.substr(0, 40)) + "' is not the open frame's '" + date_ + "' (" +
                std::to_string(calls_) + " of its " + std::to_string(variables_) +
                " variables have arrived; a frame ends when all have)";
  }
  if (++calls_ >= variables_) {
    s.end_after = true;
    open_ = false;
  }
  return s;
}

bool WriteProtocol::sync() {
  if (phase_ == Phase::Training) {
    throw WrfError(wrf_status::kFileNotCommitted, ErrorKind::State,
                   "iosync before open_for_write_commit: nothing can be written yet");
  }
  require_frames();
  if (!quilt_ || !open_) return false;
  open_ = false;
  return true;
}

bool WriteProtocol::close() {
  if (phase_ == Phase::Training) {
    throw WrfError(wrf_status::kDryRunClose, ErrorKind::State,
                   "ioclose before open_for_write_commit: nothing was written");
  }
  if (phase_ == Phase::Failed || !open_) return false;
  open_ = false;
  return true;
}

void WriteProtocol::fail(std::string why) {
  if (phase_ != Phase::Failed) failure_ = std::move(why);
  phase_ = Phase::Failed;
  open_ = false;
}

}  // namespace nwpio::wrfio
