// The backend contract test's stream, frame drivers and file checks (contract_stream.hpp).
#include "contract_stream.hpp"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <netcdf.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "backend/backend_registry.hpp"
#include "core/node_slabs.hpp"
#include "nc_reader.hpp"
#include "second_reader.hpp"

namespace nwpio::test {

using detail::Backend;
using detail::FieldGeometry;
using detail::FieldSource;

namespace {

const char* format_name(FileFormat f) {
  switch (f) {
    case FileFormat::Cdf2: return "cdf2";
    case FileFormat::Cdf5: return "cdf5";
    case FileFormat::Netcdf4: return "netcdf4";
  }
  return "?";
}

bool classic(FileFormat f) { return f != FileFormat::Netcdf4; }

// The fields of a frame in the order the file sink's plans carry them: the fixed-size ones
// (record 0 only), Times, the record variables.
std::vector<const FieldGeometry*> frame_fields(const detail::StreamLayout& layout, int record) {
  std::vector<const FieldGeometry*> out;
  if (record == 0) {
    for (const FieldGeometry& g : layout.fields) {
      if (!g.record) out.push_back(&g);
    }
  }
  out.push_back(&layout.times);
  for (const FieldGeometry& g : layout.fields) {
    if (g.record) out.push_back(&g);
  }
  return out;
}

// The sources of `fields` from the model's arrays (Times: `date`).
std::vector<FieldSource> frame_sources(const std::vector<const FieldGeometry*>& fields, const Model& model,
                                       const std::string& date) {
  std::vector<FieldSource> out;
  for (const FieldGeometry* g : fields) {
    const void* data = g->schema_index < 0 ? static_cast<const void*>(date.data())
                                           : model.array(static_cast<std::size_t>(g->schema_index));
    out.push_back({data, g->memory});
  }
  return out;
}

void note_round(const detail::RoundOutput& round, Handed& handed) {
  if (round.slab.size > 0) ++handed.slabs;
  handed.anything = handed.anything || round.slab.size > 0 || round.size() > 0;
}

}  // namespace

std::vector<BackendCase> backend_cases() {
  std::vector<BackendCase> out;
  for (IoForm io_form : detail::built_io_forms()) {
    std::vector<FileFormat> seen;
    for (bool netcdf_classic : {true, false}) {
      OutputOptions o;
      o.io_form = io_form;
      o.use_netcdf_classic = netcdf_classic;
      const detail::BackendTraits t = detail::backend_traits(o, 0);
      if (std::find(seen.begin(), seen.end(), t.format) != seen.end()) continue;
      seen.push_back(t.format);
      std::string name = t.name + "_" + format_name(t.format);
      std::replace(name.begin(), name.end(), '-', '_');
      out.push_back({io_form, netcdf_classic, t.format, name});
    }
  }
  return out;
}

detail::FileHints hints_for(SlabWrites mode) { return {MPI_INFO_NULL, mode == SlabWrites::Independent}; }

const char* to_string(SlabWrites mode) { return mode == SlabWrites::Independent ? "independent" : "collective"; }

ContractStream::ContractStream(const BackendCase& c, MPI_Comm comm, const std::function<void(OutputOptions&)>& adjust)
    : case_(c), comm_(comm), model_(comm, shape_) {
  options_.io_form = c.io_form;
  options_.use_netcdf_classic = c.netcdf_classic;
  options_.header_reserve_bytes = 4096;
  if (adjust) adjust(options_);
  traits_ = detail::backend_traits(options_, rank_of(comm));
  layout_ = detail::build_stream_layout(model_.schema(), detail::Grid::of(model_.decomposition()), options_, traits_);
}

std::unique_ptr<Backend> ContractStream::make_backend() const { return detail::make_backend(traits_, comm_); }

SlabPath::SlabPath(ContractStream& stream)
    : stream_(stream), plans_(stream.comm(), stream.layout(), stream.options(), stream.traits(), [&stream] {
        return std::make_shared<detail::NodeSlabs>(stream.comm(), detail::NodeSlabs::Options{});
      }) {}

void SlabPath::place(Backend& backend) { plans_.place(backend.placement()); }

void SlabPath::write_frame(Backend& backend, int record, Via via, Handed& handed) {
  Model& model = stream_.model();
  model.fill(record);
  const std::string date = date_of(record);
  std::vector<FieldSource> fields;
  for (const FieldGeometry& g : stream_.layout().fields) fields.push_back({model.array(static_cast<std::size_t>(g.schema_index)), g.memory});
  plans_.begin_frame(record);
  detail::FramePlan& plan = plans_.plan(record);
  const auto sources = plans_.sources(record, fields, date);
  detail::PhaseTimes times;
  std::optional<Error> failed;
  for (int t = 0; t < plan.rounds(); ++t) {
    round_.clear();
    plan.run_round(t, sources, record, round_, times);
    note_round(round_, handed);
    try {
      if (via == Via::Write) {
        backend.write(round_.requests(), round_.slab);
        continue;
      }
      // The slab's bytes stay as they are until their write has run: the next round reuses
      // the writers' staging, so a write left to the caller gets a copy of its own.
      detail::Slab slab = round_.slab;
      if (slab.size > 0) {
        handed.kept.push_back(std::make_unique<std::byte[]>(static_cast<std::size_t>(slab.size)));
        std::memcpy(handed.kept.back().get(), slab.data, static_cast<std::size_t>(slab.size));
        slab.data = handed.kept.back().get();
      }
      std::unique_ptr<detail::DeferredWrite> deferred = backend.write_deferred(round_.requests(), slab);
      if (!deferred) continue;
      if (slab.size == 0) ++handed.deferred_for_empty;
      handed.deferred.push_back(std::move(deferred));
    } catch (const Error& e) {
      if (!failed) failed = e;
    }
  }
  if (failed) throw *failed;
}

RequestPath::RequestPath(ContractStream& stream) : stream_(stream) {
  const int rank = rank_of(stream.comm());
  const detail::StreamLayout* layout = &stream.layout();
  if (stream.traits().parallel) {
    MPI_Comm_dup(stream.comm(), &writers_);
  } else {
    // Rank 0 writes alone: it holds the whole domain (a model of one rank).
    MPI_Comm_split(stream.comm(), rank == 0 ? 0 : MPI_UNDEFINED, 0, &writers_);
    if (writers_ != MPI_COMM_NULL) {
      own_model_ = std::make_unique<Model>(writers_, stream.shape());
      own_layout_ = detail::build_stream_layout(own_model_->schema(), detail::Grid::of(own_model_->decomposition()),
                                                stream.options(), stream.traits());
      layout = &*own_layout_;
    }
  }
  if (writers_ == MPI_COMM_NULL) return;
  for (int kind = 0; kind < 2; ++kind) {
    plans_[static_cast<std::size_t>(kind)] = std::make_unique<detail::DirectPlan>(
        writers_, frame_fields(*layout, kind == 1 ? 0 : 1), ReorderMode::Pack, stream.options().max_round_bytes);
  }
}

RequestPath::~RequestPath() {
  plans_ = {};
  if (writers_ != MPI_COMM_NULL) MPI_Comm_free(&writers_);
}

void RequestPath::write_frame(Backend& backend, int record, Handed& handed) {
  detail::DirectPlan* plan = plans_[record == 0 ? 1 : 0].get();
  int rounds = plan ? plan->rounds() : 0;
  MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_INT, MPI_MAX, stream_.comm());
  Model& model = own_model_ ? *own_model_ : stream_.model();
  const detail::StreamLayout& layout = own_layout_ ? *own_layout_ : stream_.layout();
  const std::string date = date_of(record);
  std::vector<FieldSource> sources;
  if (plan) {
    model.fill(record);
    sources = frame_sources(frame_fields(layout, record), model, date);
  }
  detail::PhaseTimes times;
  std::optional<Error> failed;
  for (int t = 0; t < rounds; ++t) {
    round_.clear();
    if (plan && t < plan->rounds()) plan->run_round(t, sources, record, round_, times);
    note_round(round_, handed);
    try {
      backend.write(round_.requests(), round_.slab);
    } catch (const Error& e) {
      if (!failed) failed = e;
    }
  }
  if (failed) throw *failed;
}

std::string date_of(int t) {
  char text[32];
  std::snprintf(text, sizeof text, "2019-06-01_%02d:00:00", t % 24);
  return text;
}

int nc_format_of(FileFormat format) {
  switch (format) {
    case FileFormat::Cdf2: return NC_FORMAT_64BIT_OFFSET;
    case FileFormat::Cdf5: return NC_FORMAT_CDF5;
    case FileFormat::Netcdf4: return NC_FORMAT_NETCDF4;
  }
  return 0;
}

void expect_frames(const ContractStream& stream, const std::string& path, int frames) {
  if (rank_of(stream.comm()) != 0) return;
  ExpectedFile f{path, {}, {}};
  for (int t = 0; t < frames; ++t) {
    f.frames.push_back(t);
    f.dates.push_back(date_of(t));
  }
  check_file(f, stream.model().schema(), stream.shape(), nc_format_of(stream.traits().format));
  if (classic(stream.traits().format)) {
    EXPECT_TRUE(ncvalidator_ok(path)) << "ncvalidator rejects " << path;
  }
  // netCDF-C checked every value against the model's rule; a second library that did not write
  // the file must read the same.
  NcFile first;
  try {
    first = read_nc(path);
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
    return;
  }
  if (has_second_reader(first.format)) {
    expect_second_reader_agrees(path, first);
  } else {
    std::printf("note: this build has no %s to read %s a second time\n", second_reader_name(first.format), path.c_str());
  }
}

bool holds_frames(const ContractStream& stream, const std::string& path, int frames) {
  if (rank_of(stream.comm()) != 0) return true;
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter quiet(::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD,
                                                      &failures);
    expect_frames(stream, path, frames);
  }
  return failures.size() == 0;
}

void expect_empty_file(const ContractStream& stream, const std::string& path) {
  if (rank_of(stream.comm()) != 0) return;
  const detail::FileLayout& L = stream.layout().file;
  NcFile f;
  try {
    f = read_header(path);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "netCDF-C cannot read " << path << ": " << e.what();
    return;
  }
  EXPECT_EQ(f.format, nc_format_of(stream.traits().format));
  ASSERT_EQ(f.dims.size(), L.dims.size());
  for (std::size_t d = 0; d < L.dims.size(); ++d) {
    EXPECT_EQ(f.dims[d].name, L.dims[d].name);
    EXPECT_EQ(f.dims[d].unlimited, L.dims[d].length == 0) << L.dims[d].name;
    EXPECT_EQ(f.dims[d].length, static_cast<std::size_t>(L.dims[d].length)) << L.dims[d].name << ": no record was written";
  }
  ASSERT_EQ(f.vars.size(), L.vars.size());
  for (std::size_t v = 0; v < L.vars.size(); ++v) {
    EXPECT_EQ(f.vars[v].name, L.vars[v].name);
    EXPECT_EQ(f.vars[v].attributes.size(), L.vars[v].attributes.size()) << L.vars[v].name;
  }
  EXPECT_EQ(f.global_attributes.size(), L.global_attributes.size());
  if (classic(stream.traits().format)) {
    EXPECT_TRUE(ncvalidator_ok(path)) << "ncvalidator rejects " << path;
  }
}

void expect_size_agrees(const detail::LayoutFacts& facts, const std::string& path, int records) {
  if (!facts.extent.known) return;
  EXPECT_EQ(static_cast<std::int64_t>(std::filesystem::file_size(path)), facts.extent.end_after(records))
      << path << ": the backend's layout facts say where the file ends after " << records << " records";
}

std::int64_t size_on_rank0(const std::string& path, MPI_Comm comm) {
  std::int64_t size = -1;
  std::error_code ec;
  if (rank_of(comm) == 0 && std::filesystem::exists(path, ec)) size = static_cast<std::int64_t>(std::filesystem::file_size(path, ec));
  MPI_Bcast(&size, 1, MPI_INT64_T, 0, comm);
  return size;
}

bool same_on_every_rank(bool value, MPI_Comm comm) {
  int lo = value ? 1 : 0, hi = lo;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, comm);
  return lo == hi;
}

bool any_rank(bool value, MPI_Comm comm) {
  int v = value ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MAX, comm);
  return v == 1;
}

}  // namespace nwpio::test
