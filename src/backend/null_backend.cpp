#include "backend/null_backend.hpp"

namespace nwpio::detail {

namespace {

class NullBackend final : public Backend {
 public:
  bool parallel() const noexcept override { return true; }
  void create(const std::string&, const FileLayout&, MPI_Info) override {}
  void write(std::span<const WriteRequest>) override {}
  void close() override {}
};

}  // namespace

std::unique_ptr<Backend> make_null_backend() { return std::make_unique<NullBackend>(); }

}  // namespace nwpio::detail
