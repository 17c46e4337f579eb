#include "backend/null_backend.hpp"

namespace nwpio::detail {

namespace {

class NullBackend final : public Backend {
 public:
  bool parallel() const noexcept override { return true; }
  // Offsets of a classic file without header and padding: what the data path needs to run
  // exactly as it does for PnetCDF.
  void create(const std::string&, const FileLayout& layout, MPI_Info) override {
    offsets_.var_begin.assign(layout.vars.size(), 0);
    std::int64_t at = 0;
    for (int pass = 0; pass < 2; ++pass) {  // fixed-size variables first, then the records
      for (std::size_t v = 0; v < layout.vars.size(); ++v) {
        if (layout.vars[v].record != (pass == 1)) continue;
        offsets_.var_begin[v] = at;
        at += record_bytes(layout, layout.vars[v]);
        if (pass == 1) offsets_.record_size += record_bytes(layout, layout.vars[v]);
      }
    }
  }
  void write(std::span<const WriteRequest>, const FileBytes&) override {}
  bool takes_file_bytes() const noexcept override { return true; }
  FileOffsets open_file_bytes() override { return offsets_; }
  void close() override {}

 private:
  FileOffsets offsets_;
};

}  // namespace

std::unique_ptr<Backend> make_null_backend() { return std::make_unique<NullBackend>(); }

}  // namespace nwpio::detail
