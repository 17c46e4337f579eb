// What the backend contract test drives a backend with: one backend case (an io_form and the
// file format it writes), the test model with the stream's options, traits and layout, and the
// two ways the core hands a frame to a backend:
//  - the slab path: the rearranger (FramePlans, as the file sink holds them) stages each
//    writer's slab at the backend's placement();
//  - the request path: the direct plan's write requests (every rank its own patch; where the
//    backend's rank 0 writes alone, rank 0 hands over the whole domain and the others nothing).
// And the checks of a written file: through netCDF-C, and again through a library that did not
// write it.
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/backend_traits.hpp"
#include "core/direct_plan.hpp"
#include "core/stream_layout.hpp"
#include "filesink/frame_plans.hpp"
#include "layout/layout_facts.hpp"
#include "nwpio/options.hpp"
#include "test_model.hpp"

namespace nwpio::test {

// One backend of this build with one of the formats it writes.
struct BackendCase {
  IoForm io_form = IoForm::Null;
  bool netcdf_classic = false;  // OutputOptions::use_netcdf_classic (io_form 2: CDF-2)
  FileFormat format = FileFormat::Cdf2;  // what the backend writes with these options
  std::string name;                      // "pnetcdf_cdf2": the test's parameter name
};

// gtest prints a case by its name.
inline void PrintTo(const BackendCase& c, std::ostream* os) { *os << c.name; }

// Every backend the registry built, once per distinct format its options give.
std::vector<BackendCase> backend_cases();

// How writers' slabs may go out, as the hint layer settles it: collective writes only (a bare
// MPI_Info), or each writer's slab on its own (collective buffering off).
enum class SlabWrites { Collective, Independent };
detail::FileHints hints_for(SlabWrites mode);
const char* to_string(SlabWrites mode);

// What one rank handed to a backend while writing frames.
struct Handed {
  bool anything = false;        // a non-empty slab or a request
  int slabs = 0;                // non-empty slabs
  int deferred_for_empty = 0;   // write_deferred returned a write for an empty slab
  std::vector<std::unique_ptr<detail::DeferredWrite>> deferred;
  // The bytes of the slabs left to the caller: they stay untouched until their write has run.
  std::vector<std::unique_ptr<std::byte[]>> kept;
};

// The test model and one stream of it for one backend case (collective over comm).
class ContractStream {
 public:
  // `adjust` changes the options before traits and layout are derived from them.
  ContractStream(const BackendCase& c, MPI_Comm comm, const std::function<void(OutputOptions&)>& adjust = {});

  MPI_Comm comm() const noexcept { return comm_; }
  const OutputOptions& options() const noexcept { return options_; }
  const detail::BackendTraits& traits() const noexcept { return traits_; }
  const detail::StreamLayout& layout() const noexcept { return layout_; }
  const ModelShape& shape() const noexcept { return shape_; }
  Model& model() noexcept { return model_; }
  const Model& model() const noexcept { return model_; }
  const BackendCase& backend_case() const noexcept { return case_; }
  // Collective over comm: the backend of the case.
  std::unique_ptr<detail::Backend> make_backend() const;

 private:
  BackendCase case_;
  MPI_Comm comm_;
  ModelShape shape_;
  Model model_;
  OutputOptions options_;
  detail::BackendTraits traits_;
  detail::StreamLayout layout_;
};

enum class Via { Write, WriteDeferred };

// The slab path, as the file sink runs it (collective over the stream's comm).
class SlabPath {
 public:
  explicit SlabPath(ContractStream& stream);
  // After create(): the backend's placement, given to both plans.
  void place(detail::Backend& backend);
  // Frame `record` (the model's frame number too): every round ends in ONE write() or
  // write_deferred(). A failed write is remembered, this rank joins the remaining rounds, and
  // the first failure is thrown at the end (as the file sink does).
  void write_frame(detail::Backend& backend, int record, Via via, Handed& handed);

 private:
  ContractStream& stream_;
  detail::FramePlans plans_;
  detail::RoundOutput round_;
};

// The request path: the direct plan (collective over the stream's comm).
class RequestPath {
 public:
  explicit RequestPath(ContractStream& stream);
  ~RequestPath();
  RequestPath(const RequestPath&) = delete;
  RequestPath& operator=(const RequestPath&) = delete;
  void write_frame(detail::Backend& backend, int record, Handed& handed);

 private:
  ContractStream& stream_;
  MPI_Comm writers_ = MPI_COMM_NULL;  // the ranks that hand over requests
  std::unique_ptr<Model> own_model_;  // rank 0's whole domain, where rank 0 writes alone
  std::optional<detail::StreamLayout> own_layout_;
  std::array<std::unique_ptr<detail::DirectPlan>, 2> plans_;  // [0] later records, [1] record 0
  detail::RoundOutput round_;
};

// The date of frame t (Times).
std::string date_of(int t);
// netCDF-C's format code of a file of `format`.
int nc_format_of(FileFormat format);

// Rank 0: the file holds frames [0, frames) of the stream's model, every value, read through
// netCDF-C, and a second library that did not write it reads the same (second_reader.hpp);
// ncvalidator passes a classic file. Other ranks return at once.
void expect_frames(const ContractStream& stream, const std::string& path, int frames);
// Rank 0: the same, without reporting: whether the file holds them.
bool holds_frames(const ContractStream& stream, const std::string& path, int frames);
// Rank 0: the file is the stream's layout with no record (header read through netCDF-C;
// ncvalidator on classic files).
void expect_empty_file(const ContractStream& stream, const std::string& path);
// Rank 0: where the backend knows its layout (classic formats), the file is as long as the
// layout says it is after `records` records.
void expect_size_agrees(const detail::LayoutFacts& facts, const std::string& path, int records);

// Rank 0's size of `path` (-1: no such file), on every rank.
std::int64_t size_on_rank0(const std::string& path, MPI_Comm comm);
// The same value on every rank?
bool same_on_every_rank(bool value, MPI_Comm comm);
// Whether any rank has `value` true.
bool any_rank(bool value, MPI_Comm comm);

}  // namespace nwpio::test
