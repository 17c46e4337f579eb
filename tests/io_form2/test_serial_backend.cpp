// The serial netCDF backend (io_form 2) on its own, at 1-4 ranks: rank 0 writes, the other
// ranks join every collective call with empty spans. Files are read back through netCDF-C and
// compared with the layout and the analytic values; CDF-2 files also pass ncvalidator.
#include <gtest/gtest.h>
#include <mpi.h>
#include <netcdf.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "backend/netcdf/cdf2_limits.hpp"
#include "wrf/wrf_chunking.hpp"
#include "backend/backend_registry.hpp"
#include "backend/netcdf/netcdf_serial_backend.hpp"
#include "layout_fixture.hpp"
#include "nc_reader.hpp"
#include "nwpio/error.hpp"
#include "scratch.hpp"

namespace nwpio::test {
namespace {

using detail::FileLayout;
using detail::WriteRequest;

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

NcAttribute expected_attribute(const Attribute& a) {
  NcAttribute out;
  out.name = a.name;
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::string>) {
          out.type = NC_CHAR;
        } else if constexpr (std::is_same_v<V, std::vector<std::int32_t>>) {
          out.type = NC_INT;
        } else if constexpr (std::is_same_v<V, std::vector<float>>) {
          out.type = NC_FLOAT;
        } else {
          out.type = NC_DOUBLE;
        }
        const auto* p = reinterpret_cast<const unsigned char*>(v.data());
        out.bytes.assign(p, p + v.size() * sizeof(v[0]));
        out.length = v.size();
      },
      a.value);
  return out;
}

nc_type expected_type(DataType t) {
  switch (t) {
    case DataType::Float: return NC_FLOAT;
    case DataType::Double: return NC_DOUBLE;
    case DataType::Int: return NC_INT;
    case DataType::Char: return NC_CHAR;
  }
  return NC_NAT;
}

OutputOptions options_for(FileFormat format) {
  OutputOptions o;
  o.io_form = IoForm::NetcdfSerial;
  o.use_netcdf_classic = format == FileFormat::Cdf2;
  return o;
}

// Writes `records` frames. Rank 0 writes each record in two rounds: round 1 holds every
// variable's lower half of its outermost non-time dimension (so 3-D fields arrive in pieces,
// as the Writer's bounded rounds deliver them), round 2 the rest. Other ranks pass empty spans.
void write_fixture(detail::Backend& backend, const FileLayout& L, int records, MPI_Comm comm) {
  const bool root = rank_of(comm) == 0;
  for (int r = 0; r < records; ++r) {
    std::vector<std::vector<unsigned char>> data;
    for (std::size_t v = 0; v < L.vars.size(); ++v) data.push_back(fixture_record(L, static_cast<int>(v), r));
    for (int round = 0; round < 2; ++round) {
      std::vector<WriteRequest> reqs;
      for (std::size_t v = 0; root && v < L.vars.size(); ++v) {
        const auto& var = L.vars[v];
        if (!var.record && r > 0) continue;  // fixed variables are written once
        WriteRequest q;
        q.var = static_cast<int>(v);
        std::int64_t inner = 1;  // elements below the split dimension
        const std::size_t first = var.record ? 1 : 0;
        for (std::size_t d = 0; d < var.dims.size(); ++d) {
          const std::int64_t len = var.record && d == 0 ? 1 : L.dims[static_cast<std::size_t>(var.dims[d])].length;
          q.start.push_back(var.record && d == 0 ? r : 0);
          q.count.push_back(len);
          if (d > first) inner *= len;
        }
        if (var.dims.size() == first) {  // a scalar per record: all in round 0
          if (round == 1) continue;
          q.data = data[v].data();
          reqs.push_back(q);
          continue;
        }
        const std::int64_t n = q.count[first];
        const std::int64_t lo = round == 0 ? 0 : n / 2, hi = round == 0 ? n / 2 : n;
        if (hi == lo) continue;
        q.start[first] = lo;
        q.count[first] = hi - lo;
        q.data = data[v].data() + static_cast<std::size_t>(lo * inner) * size_of(var.type);
        reqs.push_back(q);
      }
      backend.write(reqs, {});
    }
  }
}

void check_file(const std::string& path, const FileLayout& L, int records, FileFormat format) {
  const NcContents c = read_nc(path);
  EXPECT_EQ(c.format, format == FileFormat::Cdf2 ? NC_FORMAT_64BIT_OFFSET : NC_FORMAT_NETCDF4);
  ASSERT_EQ(c.dims.size(), L.dims.size());
  for (std::size_t d = 0; d < L.dims.size(); ++d) {
    EXPECT_EQ(c.dims[d].name, L.dims[d].name);
    EXPECT_EQ(c.dims[d].unlimited, L.dims[d].length == 0);
    EXPECT_EQ(c.dims[d].length, L.dims[d].length == 0 ? static_cast<std::size_t>(records) : static_cast<std::size_t>(L.dims[d].length));
  }
  ASSERT_EQ(c.global_attributes.size(), L.global_attributes.size());
  for (std::size_t a = 0; a < L.global_attributes.size(); ++a) {
    EXPECT_EQ(c.global_attributes[a], expected_attribute(L.global_attributes[a])) << L.global_attributes[a].name;
  }
  ASSERT_EQ(c.vars.size(), L.vars.size());
  for (std::size_t v = 0; v < L.vars.size(); ++v) {
    const auto& want = L.vars[v];
    const auto& got = c.vars[v];
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.type, expected_type(want.type)) << want.name;
    ASSERT_EQ(got.dims.size(), want.dims.size()) << want.name;
    for (std::size_t d = 0; d < want.dims.size(); ++d) EXPECT_EQ(got.dims[d], L.dims[static_cast<std::size_t>(want.dims[d])].name);
    ASSERT_EQ(got.attributes.size(), want.attributes.size()) << want.name;
    for (std::size_t a = 0; a < want.attributes.size(); ++a) {
      EXPECT_EQ(got.attributes[a], expected_attribute(want.attributes[a])) << want.name << ":" << want.attributes[a].name;
    }
    std::vector<unsigned char> expected;
    for (int r = 0; r < (want.record ? records : 1); ++r) {
      const auto rec = fixture_record(L, static_cast<int>(v), r);
      expected.insert(expected.end(), rec.begin(), rec.end());
    }
    EXPECT_TRUE(got.values == expected) << "values of " << want.name << " differ from the analytic field";
  }
}

// netCDF-4 storage as WRF sets it: horizontal fields chunked and compressed, others not.
void check_netcdf4_storage(const std::string& path, const FileLayout& L, int deflate_level) {
  int ncid = -1;
  ASSERT_EQ(nc_open(path.c_str(), NC_NOWRITE, &ncid), NC_NOERR);
  for (std::size_t v = 0; v < L.vars.size(); ++v) {
    const auto want = detail::wrf_chunk_sizes(L, L.vars[v]);
    int storage = -1, shuffle = -1, deflate = -1, level = -1;
    std::vector<std::size_t> chunks(L.vars[v].dims.size() + 1);
    ASSERT_EQ(nc_inq_var_chunking(ncid, static_cast<int>(v), &storage, chunks.data()), NC_NOERR);
    ASSERT_EQ(nc_inq_var_deflate(ncid, static_cast<int>(v), &shuffle, &deflate, &level), NC_NOERR);
    chunks.resize(L.vars[v].dims.size());
    if (!want.empty()) {
      EXPECT_EQ(storage, NC_CHUNKED) << L.vars[v].name;
      EXPECT_EQ(chunks, want) << L.vars[v].name;
      EXPECT_EQ(shuffle, 1) << L.vars[v].name;
      EXPECT_EQ(deflate, 1) << L.vars[v].name;
      EXPECT_EQ(level, deflate_level) << L.vars[v].name;
    } else {
      EXPECT_EQ(deflate, 0) << L.vars[v].name << " must not be compressed (WRF compresses horizontal fields only)";
    }
  }
  nc_close(ncid);
}

int run_tool(const std::string& command) { return std::system((command + " > /dev/null 2>&1").c_str()); }

class SerialBackendFormats : public ::testing::TestWithParam<FileFormat> {};

TEST_P(SerialBackendFormats, WritesEveryValueAndAttribute) {
  const FileFormat format = GetParam();
  const FixtureGrid grid;
  const FileLayout L = make_fixture_layout(grid, format);
  const std::string path = scratch_dir(format == FileFormat::Cdf2 ? "fixture_cdf2.nc" : "fixture_nc4.nc");
  const int records = 3;
  auto backend = detail::make_netcdf_serial_backend(MPI_COMM_WORLD);
  EXPECT_FALSE(detail::backend_traits(options_for(format), 0).parallel);
  backend->create(path, L, MPI_INFO_NULL);
  write_fixture(*backend, L, records, MPI_COMM_WORLD);
  backend->close(false);
  backend->close(false);  // a second close is harmless
  if (rank_of(MPI_COMM_WORLD) != 0) return;
  check_file(path, L, records, format);
  if (format == FileFormat::Cdf2) {
#ifdef NWPIO_NCVALIDATOR
    EXPECT_EQ(run_tool(std::string(NWPIO_NCVALIDATOR) + " " + path), 0) << "ncvalidator rejects " << path;
#endif
  } else {
    check_netcdf4_storage(path, L, OutputOptions{}.deflate_level);
#ifdef NWPIO_NCDUMP
    EXPECT_EQ(run_tool(std::string(NWPIO_NCDUMP) + " -h " + path), 0) << "ncdump -h fails on " << path;
#endif
  }
}

INSTANTIATE_TEST_SUITE_P(Io2, SerialBackendFormats, ::testing::Values(FileFormat::Cdf2, FileFormat::Netcdf4),
                         [](const auto& p) { return p.param == FileFormat::Cdf2 ? "Cdf2" : "Netcdf4"; });

TEST(SerialBackend, BothFormatsHoldTheSameContents) {
  const FixtureGrid grid{31, 17, 7, 4};
  std::vector<NcContents> contents;
  for (FileFormat f : {FileFormat::Cdf2, FileFormat::Netcdf4}) {
    const FileLayout L = make_fixture_layout(grid, f);
    const std::string path = scratch_dir(f == FileFormat::Cdf2 ? "same_cdf2.nc" : "same_nc4.nc");
    auto backend = detail::make_netcdf_serial_backend(MPI_COMM_WORLD);
    backend->create(path, L, MPI_INFO_NULL);
    write_fixture(*backend, L, 2, MPI_COMM_WORLD);
    backend->close(false);
    if (rank_of(MPI_COMM_WORLD) == 0) contents.push_back(read_nc(path));
  }
  if (rank_of(MPI_COMM_WORLD) != 0) return;
  EXPECT_EQ(contents[0].dims, contents[1].dims);
  EXPECT_EQ(contents[0].global_attributes, contents[1].global_attributes);
  ASSERT_EQ(contents[0].vars.size(), contents[1].vars.size());
  for (std::size_t v = 0; v < contents[0].vars.size(); ++v) EXPECT_TRUE(contents[0].vars[v] == contents[1].vars[v]) << contents[0].vars[v].name;
}

TEST(SerialBackend, DeflateLevelIsTaken) {
  const FixtureGrid grid;
  FileLayout L = make_fixture_layout(grid, FileFormat::Netcdf4);
  L.deflate_level = 5;
  const std::string path = scratch_dir("deflate5.nc");
  auto backend = detail::make_netcdf_serial_backend(MPI_COMM_WORLD);
  backend->create(path, L, MPI_INFO_NULL);
  write_fixture(*backend, L, 1, MPI_COMM_WORLD);
  backend->close(false);
  if (rank_of(MPI_COMM_WORLD) == 0) check_netcdf4_storage(path, L, 5);
}

// Every rank must see rank 0's failure, with netCDF-C's message, the call and the file.
TEST(SerialBackend, CreateFailureReachesEveryRank) {
  const FileLayout L = make_fixture_layout(FixtureGrid{}, FileFormat::Cdf2);
  const std::string path = scratch_dir("no/such/dir/file.nc");
  auto backend = detail::make_netcdf_serial_backend(MPI_COMM_WORLD);
  try {
    backend->create(path, L, MPI_INFO_NULL);
    FAIL() << "create in a missing directory succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Netcdf);
    const std::string m = e.what();
    EXPECT_NE(m.find("nc_create"), std::string::npos) << m;
    EXPECT_NE(m.find(path), std::string::npos) << m;
    EXPECT_NE(m.find(nc_strerror(ENOENT)), std::string::npos) << m;
  }
  backend->close(false);  // safe after a failed create
}

TEST(SerialBackend, RequestsOnAnotherRankAreAnErrorEverywhere) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) GTEST_SKIP() << "needs 2 ranks";
  const FixtureGrid grid;
  const FileLayout L = make_fixture_layout(grid, FileFormat::Cdf2);
  auto backend = detail::make_netcdf_serial_backend(MPI_COMM_WORLD);
  backend->create(scratch_dir("misuse.nc"), L, MPI_INFO_NULL);
  const auto rec = fixture_record(L, 7, 0);  // ZNU
  std::vector<WriteRequest> reqs;
  if (rank_of(MPI_COMM_WORLD) == 1) reqs.push_back({7, {0, 0}, {1, grid.nz}, rec.data()});
  try {
    backend->write(reqs, {});
    FAIL() << "rank 1's requests were accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Internal);
    EXPECT_NE(std::string(e.what()).find("only rank 0 writes"), std::string::npos) << e.what();
  }
  backend->close(false);
}

// netCDF-C refuses a CDF-2 layout where a record over 4 GiB is followed by another record
// variable (NC_EVARSIZE at enddef; a single such variable placed last is allowed). The error
// must say which format works, and no file may stay behind. No data is written: cheap.
TEST(SerialBackend, Cdf2SizeLimitNamesTheFormatThatWorks) {
  FileLayout L;
  L.format = FileFormat::Cdf2;
  L.dims = {{"Time", 0}, {"bottom_top", 2}, {"south_north", 30000}, {"west_east", 20000}};
  L.vars = {{"BIG", DataType::Float, {0, 1, 2, 3}, {}, true, {}, {}}, {"T2", DataType::Float, {0, 2, 3}, {}, true, {}, {}}};
  const std::string path = scratch_dir("too_big_cdf2.nc");
  auto backend = detail::make_netcdf_serial_backend(MPI_COMM_WORLD);
  try {
    backend->create(path, L, MPI_INFO_NULL);
    FAIL() << "netCDF-C accepted a CDF-2 record of 4.8 GB followed by another variable";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    const std::string m = e.what();
    EXPECT_NE(m.find(nc_strerror(NC_EVARSIZE)), std::string::npos) << m;
    EXPECT_NE(m.find("BIG ("), std::string::npos) << m;
    EXPECT_NE(m.find("use_netcdf_classic = .false."), std::string::npos) << m;
    EXPECT_NE(m.find("io_form_history = 11 with the CDF-5"), std::string::npos) << m;
  }
  backend->close(false);
  if (rank_of(MPI_COMM_WORLD) == 0) {
    EXPECT_FALSE(std::filesystem::exists(path)) << "a half-made file stayed behind";
  }

  // The same layout in netCDF-4 is fine (header only; nothing written).
  const std::string nc4 = scratch_dir("big_nc4.nc");
  auto backend4 = detail::make_netcdf_serial_backend(MPI_COMM_WORLD);
  L.format = FileFormat::Netcdf4;
  backend4->create(nc4, L, MPI_INFO_NULL);
  backend4->close(false);
}

}  // namespace
}  // namespace nwpio::test
