// A tiny WRF-like model for the Writer tests: a schema with every kind of field (2-D, 3-D in
// XZY and XYZ, X/Y/Z staggered, soil, 1-D Z, scalar, int, double, char, static), arrays with
// halos filled from an analytic rule, and a reader (netCDF-C, not PnetCDF) that checks every
// value of a written file against the same rule.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>
#include <netcdf.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "nwpio/decomposition.hpp"
#include "mpi_support.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/writer.hpp"

namespace nwpio::test {

// The analytic value of variable `varid` at file indices (i, j, k) in frame t (global count).
double analytic(int varid, std::int64_t i, std::int64_t j, std::int64_t k, int t);

struct ModelShape {
  int e_we = 23, e_sn = 17, e_vert = 7;
  int nproc_x = 0, nproc_y = 0;  // 0: WRF's choice (choose_nproc)
  int soil = 4;
  int halo = 3;
};

class Model {
 public:
  Model(MPI_Comm comm, const ModelShape& shape);

  const Decomposition& decomposition() const { return decomposition_; }
  const Schema& schema() const { return schema_; }
  // Fills every array for frame t (global count); halo and non-field points get a sentinel.
  void fill(int t);
  // put()s every variable of the schema (or all but `skip`) into `put`.
  // Variable `s` of frame t as WRF's I/O servers hand it over: an array holding exactly this
  // rank's part of the field (its write box: the patch, the staggered end on the last patch),
  // in the variable's memory order; `box` gets its bounds (0-based, domain indices).
  std::vector<std::byte> patch_array(std::size_t s, int t, Box& box) const;
  // The model's own array of variable s (halo included), for puts that copy.
  const void* array(std::size_t s) const { return arrays_[s].data(); }
  template <class PutFn>
  void put_all(PutFn&& put, const std::vector<std::string>& skip = {}) const {
    const auto& vars = schema_.variables();
    for (std::size_t s = 0; s < vars.size(); ++s) {
      bool skipped = false;
      for (const auto& n : skip) skipped = skipped || n == vars[s].name;
      if (!skipped) put(vars[s].name, static_cast<const void*>(arrays_[s].data()), vars[s].type);
    }
  }

 private:
  Decomposition decomposition_;
  Schema schema_;
  ModelShape shape_;
  std::vector<std::vector<std::byte>> arrays_;  // by schema index
};

Decomposition make_decomposition(MPI_Comm comm, const ModelShape& shape);

// `frames` frames of the model, hourly from 2019-06-01_00:00:00, every variable put from the
// model's arrays (filled for each frame), then the stream closed.
void write_hourly_frames(Writer& w, Model& model, int frames);
Schema make_test_schema(const ModelShape& shape);

// What a file should hold: the frames (global t) written into it, in record order.
struct ExpectedFile {
  std::string path;
  std::vector<int> frames;
  std::vector<std::string> dates;
};

// Rank-local check (call on one rank): opens `f.path` with netCDF-C and compares the format,
// dimensions (names, lengths, order), Times, every variable's attributes and every value of
// every record with the analytic rule. Reports through gtest EXPECT/ADD_FAILURE.
void check_file(const ExpectedFile& f, const Schema& schema, const ModelShape& shape, int expected_format);

// Runs ncvalidator (path from NWPIO_NCVALIDATOR) on `path`; true if it passes.
bool ncvalidator_ok(const std::string& path);

}  // namespace nwpio::test
