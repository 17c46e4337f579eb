// nwpio-demo: a synthetic WRF-like model. It decomposes the domain over the ranks as WRF does,
// holds WRF's 201 history variables in WRF-style arrays (halos, i-k-j order), fills them by the
// fill rule (tools/synthetic; XTIME holds the minutes since the start, as in WRF) and writes frames through nwpio::Writer, asking the Writer at
// every model step whether output is due, as a WRF model does.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/memory_check.hpp"
#include "demo_config.hpp"
#include "memory_report.hpp"
#include "nwpio/decomposition.hpp"
#include "nwpio/error.hpp"
#include "nwpio/io_servers.hpp"
#include "nwpio/stream_builder.hpp"
#include "nwpio/wrf_date.hpp"
#include "nwpio/wrf_decompose.hpp"
#include "nwpio_model/wrf_history.hpp"
#include "nwpio/writer.hpp"
#include "synthetic.hpp"

namespace nwpio::demo {
namespace {

// Runs a local step on every rank, then agrees: if any rank failed, every rank throws the
// error of the lowest failing rank, so that a local failure (allocation, a file system call on
// rank 0, a patch that came out empty) never leaves the other ranks waiting in a collective.
void checkpoint(MPI_Comm comm, const std::function<void()>& step) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::string message;
  ErrorKind kind = ErrorKind::Internal;
  int failed = size;
  try {
    step();
  } catch (const Error& e) {
    message = e.what();
    kind = e.kind();
    failed = rank;
  } catch (const std::exception& e) {
    message = e.what();
    failed = rank;
  }
  int first = size;
  MPI_Allreduce(&failed, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  int length = static_cast<int>(message.size());
  int kind_code = static_cast<int>(kind);
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  MPI_Bcast(&kind_code, 1, MPI_INT, first, comm);
  message.resize(static_cast<std::size_t>(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, first, comm);
  throw Error(static_cast<ErrorKind>(kind_code), size > 1 ? "rank " + std::to_string(first) + ": " + message : message);
}

// The process grid: --nproc-x/--nproc-y (or the namelist's nproc_x/nproc_y), the one not given
// derived from the rank count, else as WRF chooses (MPASPECT).
std::pair<int, int> process_grid(const DemoConfig& c, int size) {
  int px = c.nproc_x, py = c.nproc_y;
  if (px <= 0 && py <= 0) return wrf::choose_nproc(size);
  const std::string ranks = std::to_string(size) + (size == 1 ? " rank" : " ranks");
  if (py <= 0) {
    if (size % px != 0) {
      throw Error(ErrorKind::InvalidArgument, "nproc_x = " + std::to_string(px) + " does not divide the " + ranks +
                                                  " of the run (give nproc_y too, or a divisor of " +
                                                  std::to_string(size) + ")");
    }
    return {px, size / px};
  }
  if (px <= 0) {
    if (size % py != 0) {
      throw Error(ErrorKind::InvalidArgument, "nproc_y = " + std::to_string(py) + " does not divide the " + ranks +
                                                  " of the run (give nproc_x too, or a divisor of " +
                                                  std::to_string(size) + ")");
    }
    return {size / py, py};
  }
  if (px * py != size) {
    throw Error(ErrorKind::InvalidArgument, "nproc_x x nproc_y = " + std::to_string(px) + " x " + std::to_string(py) +
                                                " = " + std::to_string(px * py) + " does not match the " + ranks +
                                                " of the run");
  }
  return {px, py};
}

// "1 frame", "2 frames".
std::string count_of(std::int64_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

struct OutputFile {
  std::string path;
  std::int64_t first_frame = 0;
  std::vector<std::string> dates;
};

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// Reads every file back (files spread over the ranks), rank 0 prints one line per file.
// Throws (on every rank) when a file does not pass.
void verify(MPI_Comm comm, const std::vector<OutputFile>& files, const Schema& schema) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<std::string> lines(files.size());
  int local_failures = 0;
  checkpoint(comm, [&] {
    for (std::size_t f = static_cast<std::size_t>(rank); f < files.size(); f += static_cast<std::size_t>(size)) {
      const auto result = synthetic::verify_file(files[f].path, schema, files[f].first_frame, files[f].dates,
                                                 synthetic::TimeValues::MinutesSinceStart);
      lines[f] = "nwpio-demo: verify " + file_name(files[f].path) + ": " + result.summary();
      if (!result.ok) ++local_failures;
    }
  });
  for (std::size_t f = 0; f < files.size(); ++f) {
    const int owner = static_cast<int>(f % static_cast<std::size_t>(size));
    if (owner != 0 && rank == owner) {
      const int length = static_cast<int>(lines[f].size());
      MPI_Send(&length, 1, MPI_INT, 0, 0, comm);
      MPI_Send(lines[f].data(), length, MPI_CHAR, 0, 1, comm);
    } else if (owner != 0 && rank == 0) {
      int length = 0;
      MPI_Recv(&length, 1, MPI_INT, owner, 0, comm, MPI_STATUS_IGNORE);
      lines[f].resize(static_cast<std::size_t>(length));
      MPI_Recv(lines[f].data(), length, MPI_CHAR, owner, 1, comm, MPI_STATUS_IGNORE);
    }
    if (rank == 0) std::cout << lines[f] << std::endl;
  }
  int failures = 0;
  MPI_Allreduce(&local_failures, &failures, 1, MPI_INT, MPI_SUM, comm);
  if (failures > 0) {
    throw Error(ErrorKind::Internal, "verification failed for " + std::to_string(failures) + " of " +
                                         std::to_string(files.size()) + " files");
  }
}

// The stream: written by the model's own ranks, or handed to the I/O servers when the run has
// them (&namelist_quilt).
Writer open_stream(const Decomposition& d, const Schema& schema, const OutputOptions& out, const IoServers* servers) {
  if (!servers || !servers->enabled()) return Writer(d, schema, out);
  StreamBuilder b(d.comm(), out, *servers);
  b.set_domain(d);
  for (const DimSpec& dim : schema.dimensions()) b.add_dimension(dim.name, dim.length);
  for (const VarSpec& v : schema.variables()) b.add_variable(v);
  for (const Attribute& a : schema.global_attributes()) b.set_global_attribute(a);
  return b.build();
}

int run(int argc, char** argv) {
  const MPI_Comm world = MPI_COMM_WORLD;
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  bool error_every_rank = false;
  try {
    ParseOutcome parsed = parse_command_line(argc, argv, world);
    if (!parsed.config) return parsed.exit_code;
    DemoConfig& c = *parsed.config;
    error_every_rank = c.error_every_rank;
    OutputOptions& out = c.output;

    // As WRF: with &namelist_quilt nio_tasks_per_group > 0 the last nio_groups x
    // nio_tasks_per_group ranks serve (they return here when the model stops them), and
    // nproc_x x nproc_y counts the compute ranks.
    std::optional<IoServers> servers;
    if (!c.namelist.empty()) servers.emplace(world, c.namelist);
    if (servers && servers->is_server()) return 0;
    const MPI_Comm comm = servers && servers->enabled() ? servers->compute_comm() : world;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);

    // (named, not a structured binding: the lambdas below capture them, which Clang accepts from 16 on)
    const std::pair<int, int> split = process_grid(c, size);
    const int px = split.first, py = split.second;
    c.nproc_x = px;
    c.nproc_y = py;
    WrfBounds bounds{};
    checkpoint(comm, [&] { bounds = wrf::split_domain(c.e_we, c.e_sn, c.e_vert, px, py, rank, c.halo); });
    const Decomposition decomposition = Decomposition::from_wrf(comm, bounds);
    checkpoint(comm, [&] {
      if (rank == 0) std::filesystem::create_directories(out.output_dir);
    });
    const std::int64_t peak_before_stream = peak_resident_bytes();
    Writer writer = open_stream(decomposition, wrf::history_schema(c.schema_options()), out, servers ? &*servers : nullptr);
    if (!writer.stream_enabled()) {
      if (rank == 0) std::cout << "nwpio-demo: the history stream is off (history_interval = 0): no output" << std::endl;
      writer.close();
      if (servers) servers->stop();
      return 0;
    }
    // The model's arrays come after the stream here (a real model has them before it opens its
    // history): a grid too large for the job's memory is refused with the numbers, not killed.
    nwpio::detail::check_memory_fits(comm, synthetic::SyntheticModel::bytes_for(decomposition, writer.schema()),
                                     "nwpio-demo's model arrays (every field of the grid with its halo)",
                                     "Give the job more memory per node, more nodes, or a smaller grid");
    std::optional<synthetic::SyntheticModel> model;
    checkpoint(comm, [&] { model.emplace(decomposition, writer.schema()); });
    if (rank == 0) {
      std::cout << "nwpio-demo: " << c.e_we << " x " << c.e_sn << " x " << c.e_vert << " grid (staggered) on "
                << size << " ranks (" << px << " x " << py << "), " << writer.schema().variables().size() + 1
                << " variables, io_form " << static_cast<int>(out.io_form) << ", output every "
                << out.history_interval_seconds / 60 << " min from " << c.start_date << std::endl;
      if (servers && servers->enabled()) {
        std::cout << "nwpio-demo: " << servers->groups() * servers->servers_per_group() << " I/O server rank(s) in "
                  << servers->groups() << " group(s) of " << servers->servers_per_group()
                  << " (&namelist_quilt of " << c.namelist << ") write the files" << std::endl;
      }
      std::cout << "nwpio-demo: output to " << out.output_dir << " (from " << c.output_dir_source << ")" << std::endl;
    }

    // The model's clock: steps of time_step with a namelist (the Writer's output_due decides),
    // else steps of the output interval. The run ends after --frames frames, or at the
    // namelist's end date.
    const std::int64_t start = wrf::date_to_seconds(c.start_date);
    const std::int64_t interval = out.history_interval_seconds;
    std::int64_t step = interval;
    std::int64_t end = start + out.history_begin_seconds + interval * (c.frames > 0 ? c.frames : 0);
    if (c.frames == 0) {
      if (c.end_date.empty()) throw Error(ErrorKind::Config, "the namelist gives no end date: pass --frames N");
      end = wrf::date_to_seconds(c.end_date);
      step = std::max<std::int64_t>(1, static_cast<std::int64_t>(c.time_step));
    }
    std::vector<OutputFile> files;
    std::int64_t frame = 0;
    for (std::int64_t now = start; now <= end && (c.frames == 0 || frame < c.frames); now += step) {
      const std::string date = wrf::seconds_to_date(now);
      if (!writer.output_due(date)) continue;
      model->fill(frame, date);
      writer.begin_frame(date);
      checkpoint(comm, [&] { model->put_all(writer); });
      writer.end_frame();
      // The frame's file, from the Writer's statistics (a file that is full is already closed
      // after end_frame, so current_file() may be empty); io_form 0 writes no file.
      std::string path;
      const auto& frames = writer.statistics().frames;
      if (!frames.empty() && !frames.back().file.empty()) {
        path = (std::filesystem::path(out.output_dir) / frames.back().file).string();
      } else {
        path = writer.current_file();
      }
      if (out.io_form != IoForm::Null && !path.empty()) {
        if (files.empty() || files.back().path != path) files.push_back({path, frame, {}});
        files.back().dates.push_back(date);
      }
      ++frame;
    }
    writer.close();
    if (servers) servers->stop();
    if (frame == 0) throw Error(ErrorKind::Config, "no output time between start and end of the run");
    if (c.memory_report) print_memory_report(comm, peak_before_stream, peak_resident_bytes(), model->memory_bytes());

    if (rank == 0) {
      std::ostringstream names;
      for (const auto& f : files) names << (names.tellp() > 0 ? " " : "") << file_name(f.path);
      if (out.io_form == IoForm::Null) {
        std::cout << "nwpio-demo: wrote " << count_of(frame, "frame") << " with io_form 0 (null backend, no files)"
                  << std::endl;
      } else {
        std::cout << "nwpio-demo: wrote " << count_of(frame, "frame") << " in "
                  << count_of(static_cast<std::int64_t>(files.size()), "file") << " to " << out.output_dir << ": "
                  << names.str() << std::endl;
      }
      const Statistics& stats = writer.statistics();
      const double seconds = stats.total_seconds();
      const double mb = static_cast<double>(stats.total_bytes()) / 1e6;
      std::cout << std::fixed << std::setprecision(2) << "nwpio-demo: " << mb << " MB in " << seconds
                << " s of output: " << (seconds > 0 ? mb / seconds : 0.0) << " MB/s total" << std::endl;
      if (!out.stats_json.empty()) std::cout << "nwpio-demo: statistics in " << out.stats_json << std::endl;
    }
    if (c.verify && !files.empty()) verify(comm, files, writer.schema());
    return 0;
  } catch (const std::exception& e) {
    // Every path above fails on every rank alike (collective calls agree, local steps go
    // through checkpoint), so every rank leaves here and rank 0 speaks for all, unless each
    // rank is asked to say what it got (the rank of the world communicator).
    if (error_every_rank) {
      int world_rank = 0;
      MPI_Comm_rank(world, &world_rank);
      // One write per line: the ranks' lines arrive through one stream and must not interleave.
      const std::string line = "nwpio-demo: error on rank " + std::to_string(world_rank) + ": " + e.what() + "\n";
      std::fwrite(line.data(), 1, line.size(), stderr);
      std::fflush(stderr);
    } else if (rank == 0) {
      std::cerr << "nwpio-demo: error: " << e.what() << std::endl;
    }
    return 1;
  }
}

}  // namespace
}  // namespace nwpio::demo

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rc = nwpio::demo::run(argc, argv);
  MPI_Finalize();
  return rc;
}
