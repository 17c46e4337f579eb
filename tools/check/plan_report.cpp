// nwpio-check --plan's output: a few lines per domain a user reads top to bottom (what the
// files will be, what to set, what it costs), and the same numbers as JSON.
#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "nwpio/error.hpp"
#include "plan_file_system.hpp"
#include "plan_run.hpp"

namespace nwpio::check {

namespace {

std::string gb(std::int64_t bytes) { return fmt::format("{:.3f} GB", static_cast<double>(bytes) / 1e9); }

const char* io_form_name(IoForm f) {
  switch (f) {
    case IoForm::Pnetcdf: return "11 (PnetCDF)";
    case IoForm::NetcdfSerial: return "2 (serial netCDF)";
    case IoForm::NetcdfParallel: return "13 (parallel netCDF-4)";
    case IoForm::Null: return "0 (no file)";
  }
  return "?";
}

const char* format_name(FileFormat f) {
  switch (f) {
    case FileFormat::Cdf2: return "CDF-2";
    case FileFormat::Cdf5: return "CDF-5";
    case FileFormat::Netcdf4: return "netCDF-4";
  }
  return "?";
}

std::string setting(const HintView& h, const std::string& name) {
  const auto it = h.settings.find(name);
  if (it == h.settings.end()) return "?";
  const auto& s = it->second;
  std::string text = name + " " + s.value;
  if (!s.rule.empty()) text += " (" + s.rule + ")";
  else text += " <" + s.origin + ">";
  return text;
}

std::string memory_line(const StreamMemory& m) {
  const RankStaging* w = nullptr;
  for (const auto& s : m.ranks) {
    if (s.writer && (w == nullptr || rank_memory_bytes(s, m.rules) > rank_memory_bytes(*w, m.rules))) w = &s;
  }
  std::string text = fmt::format("largest compute rank {}", gb(m.max_rank_bytes));
  if (w != nullptr) {
    const bool later = m.rules.later_frames;
    text += fmt::format(" (a writer: slab {} + receive {} + send {}{}{} + {} fixed)", gb(w->slab * m.rules.slabs_in_flight),
                        gb(w->recv_first + (later ? w->recv_later : 0)), gb(w->send_first + (later ? w->send_later : 0)),
                        m.rules.front_end_copies && !m.rules.plan_packs_on_put ? " + fields copied at put " + gb(w->patch) : "",
                        m.rules.collective_buffering && w->aggregator ? " + MPI-IO buffer " + gb(m.rules.cb_buffer_size) : "",
                        gb(m.rules.fixed_bytes));
  }
  if (m.writers < static_cast<int>(m.ranks.size())) text += fmt::format(", other ranks up to {}", gb(m.max_other_bytes));
  text += fmt::format("; busiest node {}; {} round(s) per frame, {}", gb(m.max_node_bytes), m.rounds,
                      !m.rules.front_end_copies      ? "the model's arrays read at end_frame"
                      : m.rules.plan_packs_on_put ? "fields packed at put (no copy)"
                                                  : "fields copied at put");
  return text;
}

std::string time_line(const FrameTime& t, double bandwidth_gbs) {
  if (!t.known) return "give --bandwidth GB/s (the file system's share for this job) for the time per frame";
  return fmt::format("{:.3f} s at {:g} GB/s = write {:.3f} s ({} bound, {:.1f} GB/s) + passes over memory {:.3f} s "
                     "+ {:.3f} s of collective latency + {:.3f} s to create a file",
                     t.total_s, bandwidth_gbs, t.write_s, t.bound, t.write_bandwidth / 1e9, t.passes_s, t.latency_s,
                     t.define_s);
}

}  // namespace

void print_plan(std::ostream& out, const RunInputs& run, const std::vector<DomainPlan>& plans) {
  const PlanArgs& a = run.args;
  out << fmt::format("nwpio-check --plan {}: {} ranks, {} per node ({} nodes), file system {}{}{}\n", a.namelist, a.ranks,
                     a.ranks_per_node, run.nodes, a.fs, a.fs == a.fs_family ? "" : " (" + a.fs_family + ")",
                     a.memory_per_node_gb > 0 ? fmt::format(", {:g} GB per node", a.memory_per_node_gb) : "");
  for (const auto& note : file_system_notes(a.fs_family)) out << "  " << note << "\n";
  for (const DomainPlan& p : plans) {
    const DomainInputs& d = *p.inputs;
    const StreamSizes& s = p.sizes;
    const auto& o = d.options;
    out << fmt::format("\ndomain {}: {} x {} x {} (staggered), dx {:g} m; {} compute ranks as {} x {} patches",
                       d.domain, d.model.e_we, d.model.e_sn, d.model.e_vert, d.model.dx, d.compute_ranks, d.nproc_x,
                       d.nproc_y);
    if (run.server_tasks_per_group > 0) {
      out << fmt::format(" (+ {} I/O servers)", run.server_tasks_per_group * run.server_groups);
    }
    out << fmt::format("\n  history      io_form {}, {}, {} variables (Times + {}), every {} min, {} frame(s) per file: "
                       "{} frames, {} files from {} to {}\n",
                       io_form_name(s.traits.io_form), format_name(s.layout.file.format), d.schema.variables().size() + 1,
                       d.schema.variables().size(), o.history_interval_seconds / 60, o.frames_per_file, s.frames_per_run,
                       s.files_per_run, d.model.start_date, d.model.end_date);
    for (const auto& n : d.iofields_notes) out << "               " << n << "\n";
    if (!s.layout.format_note.empty()) out << "               " << s.layout.format_note << "\n";
    out << fmt::format("  frame        {} ({} B) per frame", gb(s.frame_bytes), s.frame_bytes);
    if (s.first_frame_bytes != s.frame_bytes) {
      out << fmt::format("; a file's first frame {} ({} B, with the variables without Time)", gb(s.first_frame_bytes),
                         s.first_frame_bytes);
    }
    out << "\n";
    out << fmt::format("  file         {} ({} B) for {} frame(s){}: {}\n", gb(s.file_bytes), s.file_bytes, o.frames_per_file,
                       s.file_exact ? "" : " at most", s.file_note);
    if (s.traits.uses_mpiio) {
      out << "  profile      " << d.profile_note << "\n";
      out << "  striping     " << setting(p.hints, "stripe_count") << "; " << setting(p.hints, "stripe_size") << "\n";
      out << "  MPI-IO       " << setting(p.hints, "aggregators") << "; " << setting(p.hints, "aggregators_per_node") << "; "
          << setting(p.hints, "cb_buffer_size") << "; "
          << setting(p.hints, "collective_write") << "; " << setting(p.hints, "header_align") << "\n";
      for (const auto& w : p.hints.warnings) out << "               warning: " << w << "\n";
      if (p.hints.collective_write && s.traits.parallel && d.options.gather != GatherMode::Direct &&
          run.server_tasks_per_group == 0) {
        out << "               note: collective_write true hands the writers' contiguous slabs to MPI-IO's two-phase "
               "buffering again (and turns write-behind off); for rearranged frames the derived default is false\n";
      }
    } else {
      out << "  hints        none: io_form " << io_form_name(s.traits.io_form) << " opens no MPI-IO file\n";
    }
    if (run.server_tasks_per_group > 0) {
      out << fmt::format("  writers      the {} I/O servers write (each its share of the frame)\n",
                         run.server_tasks_per_group * run.server_groups);
      out << fmt::format("  memory       per server {} (3 x frame / n); per compute rank {} of send buffers\n",
                         gb(p.server_memory.per_server), gb(p.server_memory.per_compute_rank));
    } else if (s.traits.parallel) {
      out << fmt::format("  writers      set &nwpio writer_ranks = {}", p.writers.writer_ranks);
      out << fmt::format(" (read: {})\n", p.configured_writers <= 0
                                              ? fmt::format("0, every one of the {} ranks writes", d.compute_ranks)
                                              : std::to_string(p.configured_writers));
      for (const auto& r : p.writers.reasons) out << "               " << r << "\n";
      out << "  memory       " << memory_line(p.recommended) << "\n";
      if (p.configured.writers != p.recommended.writers) {
        out << fmt::format("               as read ({} writers): {}\n", p.configured.writers, memory_line(p.configured));
      }
    } else {
      out << "  writers      rank 0 writes (io_form 2), staging at most serial_chunk_bytes per round\n";
      out << "  memory       " << memory_line(p.configured) << "\n";
    }
    for (const auto& l : p.servers.lines) out << "  I/O servers  " << l << "\n";
    out << "  time/frame   " << time_line(p.time_recommended, a.bandwidth_gbs)
        << (run.server_tasks_per_group > 0 && p.time_recommended.known ? " (on the servers, while the model computes)" : "")
        << "\n";
    if (p.time_configured.known && p.configured.writers != p.recommended.writers && run.server_tasks_per_group == 0) {
      out << fmt::format("               as read ({} writers): {:.3f} s (the model does not charge lock contention between "
                         "writers sharing a storage target)\n",
                         p.configured.writers, p.time_configured.total_s);
    }
  }
}

void write_plan_json(const std::string& path, const RunInputs& run, const std::vector<DomainPlan>& plans) {
  using nlohmann::json;
  json j;
  j["namelist"] = run.args.namelist;
  j["ranks"] = run.args.ranks;
  j["ranks_per_node"] = run.args.ranks_per_node;
  j["nodes"] = run.nodes;
  j["fs"] = run.args.fs;
  j["fs_family"] = run.args.fs_family;
  for (const DomainPlan& p : plans) {
    const auto& s = p.sizes;
    json d;
    d["domain"] = p.inputs->domain;
    d["frame_bytes"] = s.frame_bytes;
    d["first_frame_bytes"] = s.first_frame_bytes;
    d["file_bytes"] = s.file_bytes;
    d["file_exact"] = s.file_exact;
    d["frames_per_file"] = p.inputs->options.frames_per_file;
    d["stripe_count"] = p.hints.stripe_count;
    d["stripe_size"] = p.hints.stripe_size;
    d["aggregators"] = p.hints.aggregators;
    d["collective_write"] = p.hints.collective_write;
    d["writer_ranks_recommended"] = p.writers.writer_ranks;
    for (const auto& [name, m] : {std::pair{"configured", &p.configured}, std::pair{"recommended", &p.recommended}}) {
      json mj;
      mj["writers"] = m->writers;
      mj["rounds"] = m->rounds;
      mj["pack_on_put"] = m->rules.plan_packs_on_put;
      mj["max_rank_bytes"] = m->max_rank_bytes;
      mj["max_node_bytes"] = m->max_node_bytes;
      json ranks = json::array();
      for (const auto& r : m->ranks) {
        ranks.push_back({{"bytes", rank_memory_bytes(r, m->rules)}, {"writer", r.writer}, {"slab", r.slab},
                         {"send_first", r.send_first}, {"recv_first", r.recv_first},
                         {"send_later", r.send_later}, {"recv_later", r.recv_later}, {"patch", r.patch}});
      }
      mj["ranks"] = std::move(ranks);
      d[name] = std::move(mj);
    }
    d["server_bytes"] = p.server_memory.per_server;
    if (p.time_recommended.known) d["frame_seconds"] = p.time_recommended.total_s;
    j["domains"].push_back(std::move(d));
  }
  std::ofstream f(path);
  f << j.dump(1) << '\n';
  if (!f) throw Error(ErrorKind::Io, "cannot write " + path);
}

}  // namespace nwpio::check
