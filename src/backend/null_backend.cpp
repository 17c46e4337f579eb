#include "backend/null_backend.hpp"

namespace nwpio::detail {

namespace {

// io_form 0: no file. The data path runs as it does for PnetCDF (big-endian slabs at the
// positions of a classic file without header or padding), so the null method measures what the
// library costs before the write itself.
class NullBackend final : public Backend {
 public:
  void create(const std::string&, const FileLayout& layout, const FileHints&) override { placement_ = compact_placement(layout); }
  SlabPlacement placement() override { return placement_; }
  void write(std::span<const WriteRequest>, const Slab&) override {}
  void close(bool) override {}

 private:
  SlabPlacement placement_;
};

}  // namespace

std::unique_ptr<Backend> make_null_backend() { return std::make_unique<NullBackend>(); }

}  // namespace nwpio::detail
