// The hint report as people read it, from its JSON (hints_report.cpp): the full table, and the
// one line per file that rank 0 prints by default (HintReport::Summary). A WRF user reads one
// line per frame; the summary adds one per file, and names only what deserves a look: what was
// set, and every setting that was dropped, overridden or contradicted by the file's layout.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "hints/hints_report.hpp"
#include "hints/hints_report_nodes.hpp"
#include "hints/hints_report_pnetcdf.hpp"
#include "nwpio/version.hpp"

namespace nwpio::detail::hints {
namespace {

using nlohmann::json;

std::string text(const json& j, const char* key) { return j.contains(key) ? j[key].get<std::string>() : std::string(); }

bool uses_mpi_io(const json& j) { return !j.contains("mpi_io_used") || j["mpi_io_used"].get<bool>(); }

// "nwpio hints: <file> on <fs> via <layer>" or, without MPI-IO, what writes the file instead.
std::string head(const json& j, bool with_library) {
  std::string out = "nwpio hints: " + text(j, "file");
  if (!uses_mpi_io(j)) {
    const int io_form = j.value("io_form", 2);
    return out + ": io_form " + std::to_string(io_form) +
           (io_form == 2 ? " writes through serial netCDF" : " writes no file") + ", without MPI-IO: no hints passed";
  }
  out += " on " + text(j["file_system"], "type") + " via " + text(j["mpi"], "io_layer");
  if (with_library) out += " (" + text(j["mpi"], "library") + "; " + text(j["mpi"], "how") + ")";
  return out;
}

std::string profile(const json& j) {
  const std::string file = text(j["profile"], "file");
  if (file.empty()) return "no profile";
  return "profile [" + text(j["profile"], "name") + "] of " + file;
}

}  // namespace

std::string report_text(const std::string& json_text) {
  const auto j = json::parse(json_text);
  std::ostringstream out;
  // The full table is what one sends along with a question: it names the nwpio that wrote it.
  out << head(j, true) << " -- nwpio " << version();
  if (!text(j["profile"], "file").empty()) {
    out << "\n  profile " << text(j["profile"], "file") << " [" << text(j["profile"], "name") << "] chosen by "
        << text(j["profile"], "chosen_by");
  }
  for (const auto& s : j["settings"]) {
    const std::string status = s["status"];
    std::string keys;
    for (const auto& [k, v] : s["keys"].items()) keys += (keys.empty() ? "" : " ") + k + "=" + v.get<std::string>();
    char line[512];
    std::snprintf(line, sizeof line, "\n  %-20s %-10s %-22s %-38s %s", s["name"].get<std::string>().c_str(),
                  status.c_str(), (s["value"].get<std::string>() + " <" + s["origin"].get<std::string>() + ">").c_str(),
                  keys.empty() ? "-" : keys.c_str(), s["why"].get<std::string>().c_str());
    out << line;
  }
  for (const auto& line : nodes_text(j)) out << "\n  " << line;
  for (const auto& line : pnetcdf_text(j)) out << "\n  " << line;
  if (j.contains("write_behind")) {
    const bool on = j["write_behind"].value("on", true);
    out << "\n  write-behind: " << (on ? "on (each writer's slab goes out on its own)"
                                      : "OFF, stopped by " + text(j["write_behind"], "why_off"));
  }
  for (const auto& w : j["warnings"]) out << "\n  warning: " << w.get<std::string>();
  for (const auto& [k, v] : j["environment"].items()) out << "\n  note: " << k << "=" << v.get<std::string>() << " is set";
  return out.str();
}

std::string report_summary(const std::string& json_text) {
  const auto j = json::parse(json_text);
  std::string out = head(j, false);
  auto list = [&](const std::string& label, const std::vector<std::string>& items) {
    if (items.empty()) return;
    out += "; " + label + " ";
    for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  };
  std::vector<std::string> set, dropped, overridden, mismatched;
  for (const auto& s : j["settings"]) {
    const std::string status = s["status"], name = s["name"], value = s["value"], origin = s["origin"];
    const std::string what = name + "=" + value;
    if (!uses_mpi_io(j)) {
      // Nothing reaches MPI-IO: name only what someone asked for (not nwpio's own defaults).
      if (origin != "built-in" && value != "default") dropped.push_back(what + " <" + origin + ">");
      continue;
    }
    if (status == "passed" || status == "verified") {
      set.push_back(what + (status == "verified" ? " (verified)" : ""));
    } else if (status == "ignored") {
      set.push_back(what + " (ignored: " + text(s, "why") + ")");
    } else if (status == "dropped") {
      dropped.push_back(what + " <" + origin + ">");
    } else if (status == "overridden") {
      overridden.push_back(what + " <" + origin + "> (" + text(s, "why") + ")");
    } else if (status == "mismatch") {
      mismatched.push_back(what + " <" + origin + "> (" + text(s, "why") + ")");
    }
  }
  if (!uses_mpi_io(j)) {
    if (!text(j["profile"], "file").empty()) out += "; " + profile(j) + " not used";
    list("not passed:", dropped);
    return out;
  }
  out += ": " + profile(j);
  if (const std::string nodes = nodes_summary(j); !nodes.empty()) out += "; " + nodes;
  if (j.contains("write_behind") && !j["write_behind"].value("on", true)) {
    list("write-behind OFF, stopped by", {text(j["write_behind"], "why_off")});
  }
  list("set", set);
  list("dropped (not read by " + text(j["mpi"], "io_layer") + "):", dropped);
  list("overridden:", overridden);
  list("MISMATCH:", mismatched);
  std::vector<std::string> environment;
  for (const auto& [k, v] : j["environment"].items()) environment.push_back(k + "=" + v.get<std::string>());
  list("environment:", environment);
  return out;
}

}  // namespace nwpio::detail::hints
