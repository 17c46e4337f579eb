// Helpers of the I/O server MPI tests: the world is split into compute ranks and servers in
// each test, so everything here takes the communicator it works on.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "nwpio/error.hpp"
#include "nwpio/io_servers.hpp"
#include "nwpio/stream_builder.hpp"
#include "nwpio/writer.hpp"
#include "nwpio/wrf_date.hpp"
#include "scratch.hpp"
#include "test_model.hpp"

namespace nwpio::test::servers {

inline int rank_in(MPI_Comm c) {
  int r = 0;
  MPI_Comm_rank(c, &r);
  return r;
}
inline int size_of(MPI_Comm c) {
  int s = 1;
  MPI_Comm_size(c, &s);
  return s;
}
inline int world_size() { return size_of(MPI_COMM_WORLD); }

// A fresh directory, made by world rank 0 before the split (every rank waits for it).
inline std::string fresh_dir(const std::string& name) {
  const std::string dir = scratch_dir("servers_" + name);
  if (rank_in(MPI_COMM_WORLD) == 0) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    std::filesystem::create_directories(dir);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return dir;
}

inline std::string date_at(int t) { return wrf::add_seconds("2019-06-01_00:00:00", 3600 * t); }
// The file of frame t (io_form 11 and 2 alike: nocolons is set by the tests).
inline std::string file_at(const std::string& dir, int first_frame_of_file) {
  std::string d = date_at(first_frame_of_file);
  for (char& c : d) c = c == ':' ? '_' : c;
  return dir + "/wrfout_d01_" + d;
}

inline OutputOptions options_for(const std::string& dir, IoForm io_form = IoForm::Pnetcdf) {
  OutputOptions o;
  o.output_dir = dir;
  o.io_form = io_form;
  o.nocolons = true;
  o.use_netcdf_classic = true;  // io_form 2: CDF-2, byte-comparable
  o.print_timing = false;
  o.hints.log_report = false;
  return o;
}

// The stream of `model` on the servers (or written by comm itself when `servers` is null).
inline Writer build_stream(MPI_Comm comm, const Model& model, const OutputOptions& o, const IoServers* servers) {
  StreamBuilder b = servers ? StreamBuilder(comm, o, *servers) : StreamBuilder(comm, o);
  b.set_domain(model.decomposition());
  for (const DimSpec& d : model.schema().dimensions()) b.add_dimension(d.name, d.length);
  for (const VarSpec& v : model.schema().variables()) b.add_variable(v);
  for (const Attribute& a : model.schema().global_attributes()) b.set_global_attribute(a);
  return b.build();
}

inline void write_frame(Writer& w, Model& m, int t) {
  m.fill(t);
  w.begin_frame(date_at(t));
  m.put_all([&](const std::string& n, const void* p, DataType ty) { w.put(n, p, ty); });
  w.end_frame();
}

// Runs `step` on every rank of comm; it must throw the same nwpio::Error everywhere.
inline std::optional<Error> expect_same_error(MPI_Comm comm, const std::function<void()>& step) {
  std::string text = "no error";
  ErrorKind kind = ErrorKind::Internal;
  int threw = 0;
  try {
    step();
  } catch (const Error& e) {
    threw = 1;
    text = e.what();
    kind = e.kind();
  }
  int all = 0;
  MPI_Allreduce(&threw, &all, 1, MPI_INT, MPI_MIN, comm);
  EXPECT_TRUE(threw) << "expected an nwpio::Error on compute rank " << rank_in(comm);
  EXPECT_TRUE(same_on_all_ranks(comm, std::string(to_string(kind)) + ": " + text)) << "rank " << rank_in(comm) << ": " << text;
  if (!all) return std::nullopt;
  return Error(kind, text);
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace nwpio::test::servers
