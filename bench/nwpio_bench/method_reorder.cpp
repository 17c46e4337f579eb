// The reorder alone (taken over from the former nwpio-gather-bench): each rank brings its patch
// of every decomposed variable from the model's memory (halo, i-k-j) into file order in one
// reused buffer, with nwpio's two candidates (src/core/pack.hpp):
//   reorder-pack      pack_rows: one memcpy per i-row
//   reorder-datatype  MPI_Pack of the MPI derived datatype nwpio hands PnetCDF's flexible API
// No file. Optional methods (--methods); bytes are the decomposed fields' bytes only.
#include <mpi.h>

#include <algorithm>
#include <memory>

#include "core/stream_layout.hpp"
#include "core/pack.hpp"
#include "method.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::bench {
namespace {

using detail::mpi_check;

class ReorderMethod final : public Method {
 public:
  explicit ReorderMethod(bool datatype) : datatype_(datatype) {}
  std::string name() const override { return datatype_ ? "reorder-datatype" : "reorder-pack"; }
  bool writes_netcdf() const override { return false; }

  void prepare(const CaseContext& ctx, int) override {
    layout_ = detail::build_stream_layout(ctx.bench_case->schema, detail::Grid::of(*ctx.decomposition), OutputOptions{},
                                          detail::BackendTraits{});
    const auto me = static_cast<std::size_t>(ctx.rank);
    bytes_ = 0;
    for (const auto& g : layout_.fields) {
      if (g.decomposed) bytes_ += g.file_boxes[me].volume() * static_cast<std::int64_t>(g.elem);
    }
    out_.reset(new std::byte[static_cast<std::size_t>(std::max<std::int64_t>(bytes_, 1))]);
    std::fill_n(out_.get(), bytes_, std::byte{0});
    types_.assign(layout_.fields.size(), MPI_DATATYPE_NULL);
    if (datatype_) {
      for (std::size_t f = 0; f < layout_.fields.size(); ++f) {
        const auto& g = layout_.fields[f];
        if (g.decomposed && !g.file_boxes[me].empty()) types_[f] = detail::make_box_datatype(g, g.memory, g.file_boxes[me]);
      }
    }
  }

  void run(const CaseContext& ctx, int) override {
    const auto me = static_cast<std::size_t>(ctx.rank);
    const auto& fields = ctx.model->fields();
    if (!datatype_) {
      std::byte* p = out_.get();
      for (const auto& g : layout_.fields) {
        if (g.decomposed) p = detail::pack_rows(g, {fields[static_cast<std::size_t>(g.schema_index)].data(), g.memory}, g.file_boxes[me], 0, g.rows(), p);
      }
      return;
    }
    int pos = 0;
    for (std::size_t f = 0; f < layout_.fields.size(); ++f) {
      if (types_[f] == MPI_DATATYPE_NULL) continue;
      const auto& g = layout_.fields[f];
      const auto* origin = static_cast<const std::byte*>(fields[f].data()) + detail::datatype_origin_bytes(g, g.memory, g.file_boxes[me]);
      mpi_check(MPI_Pack(origin, 1, types_[f], out_.get(), static_cast<int>(bytes_), &pos, MPI_COMM_SELF), "MPI_Pack");
    }
  }

  RunOutcome finish(const CaseContext& ctx) override {
    RunOutcome out;
    mpi_check(MPI_Allreduce(&bytes_, &out.bytes, 1, MPI_INT64_T, MPI_SUM, ctx.comm), "MPI_Allreduce(bytes)");
    out.buffer_bytes = bytes_;
    mpi_check(MPI_Allreduce(MPI_IN_PLACE, &out.buffer_bytes, 1, MPI_INT64_T, MPI_MAX, ctx.comm), "MPI_Allreduce");
    out.mode = datatype_ ? "MPI_Pack of the derived datatype, decomposed fields only, no file"
                         : "pack_rows (memcpy per i-row), decomposed fields only, no file";
    for (MPI_Datatype& t : types_) {
      if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
    }
    types_.clear();
    out_.reset();
    return out;
  }

 private:
  bool datatype_;
  detail::StreamLayout layout_;
  std::int64_t bytes_ = 0;
  std::unique_ptr<std::byte[]> out_;
  std::vector<MPI_Datatype> types_;
};

}  // namespace

std::unique_ptr<Method> make_reorder_method(bool datatype) { return std::make_unique<ReorderMethod>(datatype); }

}  // namespace nwpio::bench
