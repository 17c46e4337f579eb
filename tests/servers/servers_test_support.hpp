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
#include "mpi_support.hpp"
#include "test_model.hpp"

namespace nwpio::test::servers {

inline int world_size() { return size_of_comm(MPI_COMM_WORLD); }

// A fresh directory for this test, made by world rank 0 before the split (every rank waits).
inline std::string server_dir(const std::string& name) { return fresh_dir("servers_" + name); }

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
  o.hints.report = HintReport::Off;
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

}  // namespace nwpio::test::servers
