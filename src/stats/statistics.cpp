#include "nwpio/statistics.hpp"

#include "util/temp_files.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "nwpio/error.hpp"
#include "nwpio/version.hpp"

namespace nwpio {

std::int64_t Statistics::total_bytes() const noexcept {
  std::int64_t n = 0;
  for (const FrameStats& f : frames) n += f.bytes;
  return n;
}

double Statistics::total_seconds() const noexcept {
  double s = 0;
  for (const FrameStats& f : frames) s += f.total_seconds;
  return s;
}

std::string Statistics::to_json() const {
  using nlohmann::ordered_json;
  ordered_json j;
  // First, so that a file of statistics says which nwpio wrote it before anything else.
  j["nwpio_version"] = version();
  j["backend"] = backend;
  j["gather"] = gather;
  j["reorder"] = reorder;
  j["writer_ranks"] = writer_ranks;
  ordered_json list = ordered_json::array();
  for (const FrameStats& f : frames) {
    ordered_json frame = {{"file", f.file},
                          {"date", f.date},
                          {"record", f.record},
                          {"bytes", f.bytes},
                          {"rounds", f.rounds},
                          {"define_seconds", f.define_seconds},
                          {"reorder_seconds", f.reorder_seconds},
                          {"exchange_seconds", f.exchange_seconds},
                          {"check_seconds", f.check_seconds},
                          {"wait_seconds", f.wait_seconds},
                          {"close_seconds", f.close_seconds},
                          {"total_seconds", f.total_seconds},
                          {"peak_buffer_bytes", f.peak_buffer_bytes},
                          {"written_behind", f.written_behind},
                          {"mb_per_s", f.mb_per_s()}};
    if (f.committed_after_seconds >= 0) {
      frame["committed"] = {{"behind", f.committed_behind}, {"after_seconds", f.committed_after_seconds}};
    }
    if (f.server_group >= 0) {
      frame["io_servers"] = {{"group", f.server_group},
                             {"model_blocked_seconds", f.total_seconds},
                             {"backpressure_seconds", f.backpressure_seconds},
                             {"handoff_seconds", f.handoff_seconds},
                             {"reported", f.server_reported},
                             {"receive_seconds", f.server_receive_seconds},
                             {"unpack_seconds", f.server_unpack_seconds},
                             {"write_seconds", f.server_write_seconds}};
    }
    list.push_back(std::move(frame));
  }
  j["frames"] = std::move(list);
  const double secs = total_seconds();
  j["total"] = {{"frames", frames.size()},
                {"bytes", total_bytes()},
                {"seconds", secs},
                {"mb_per_s", secs > 0 ? static_cast<double>(total_bytes()) / 1e6 / secs : 0.0}};
  for (const auto& [key, text] : attachments) {
    // Attachments are JSON text; one that does not parse is kept as a string, never lost.
    ordered_json value = ordered_json::parse(text, nullptr, false);
    j[key] = value.is_discarded() ? ordered_json(text) : std::move(value);
  }
  return j.dump(2);
}

// Atomically, through the user's private folder: a reader sees the old statistics or the new
// ones, and a name planted at `path` is replaced, never written through.
void Statistics::write_json(const std::string& path) const {
  try {
    detail::write_file_atomically(path, to_json() + '\n');
  } catch (const Error& e) {
    throw Error(ErrorKind::Io, "cannot write statistics to " + path + ": " + e.what());
  }
}

}  // namespace nwpio
