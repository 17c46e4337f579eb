// Writer (L3): the public face of a stream (core/stream.hpp); the stream is resolved
// (resolve_stream.cpp) and put together (build_stream.cpp) before it exists.
#include <cstdio>
#include <exception>

#include "api/build_stream.hpp"
#include "core/stream.hpp"

namespace nwpio {

Writer::Writer(const Decomposition& decomposition, Schema schema, OutputOptions options)
    : impl_(detail::build_stream(detail::resolve_stream(options, decomposition.comm()), decomposition,
                                 std::move(schema), nullptr, {})) {}

Writer::Writer(std::unique_ptr<detail::Stream> impl) noexcept : impl_(std::move(impl)) {}

Writer::~Writer() {
  if (!impl_) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  // During stack unwinding, or after a failed write, other ranks may not enter a collective:
  // leave without one (the partial file keeps its temporary name).
  if (std::uncaught_exceptions() > 0 || impl_->failed()) {
    impl_->abandon();
    return;
  }
  if (!impl_->needs_close()) return;
  try {
    impl_->close();
  } catch (const std::exception& e) {
    if (impl_->decomposition().rank() == 0) std::fprintf(stderr, "nwpio: closing the stream failed: %s\n", e.what());
  }
}

Writer::Writer(Writer&&) noexcept = default;
Writer& Writer::operator=(Writer&&) noexcept = default;

bool Writer::output_due(std::string_view date) const { return impl_->clock().due(date); }
// A stream that is off (history_interval = 0, as in WRF) writes nothing: frames cost nothing.
void Writer::begin_frame(std::string_view date) {
  if (impl_->clock().enabled()) impl_->begin_frame(date);
}
void Writer::put(std::string_view name, const void* data, DataType type) {
  if (impl_->clock().enabled()) impl_->put(name, ArrayView{data, type, {}, std::nullopt, false});
}
void Writer::put(std::string_view name, const ArrayView& array) {
  if (impl_->clock().enabled()) impl_->put(name, array);
}
void Writer::report_error(const Error& error) {
  if (impl_->clock().enabled()) impl_->report_error(error);
}
void Writer::end_frame() {
  if (impl_->clock().enabled()) impl_->end_frame();
}
void Writer::wait_for_files() {
  if (impl_->clock().enabled()) impl_->wait_for_files();
}
void Writer::close() { impl_->close(); }
const Schema& Writer::schema() const noexcept { return impl_->schema(); }
const OutputOptions& Writer::options() const noexcept { return impl_->options(); }
const Statistics& Writer::statistics() const noexcept { return impl_->statistics(); }
std::string Writer::current_file() const { return impl_->current_file(); }
bool Writer::stream_enabled() const noexcept { return impl_->clock().enabled(); }


}  // namespace nwpio
