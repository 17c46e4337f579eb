// StreamBuilder (L3): a stream defined one call at a time, built into a Writer with one
// collective call. The configuration is resolved in the constructor (errors at open); build()
// agrees that every rank defined the same stream before the collective construction.
#include "nwpio/stream_builder.hpp"

#include <functional>

#include "api/build_stream.hpp"
#include "servers/server_link.hpp"
#include "nwpio/wrf_conventions.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio {

namespace {

// Every rank must have defined the same variables and dimensions before the Writer is built
// from them; a rank whose definition failed (and went on) would otherwise make the collective
// construction disagree. One small allreduce of a hash, once per stream.
void agree_on_schema(MPI_Comm comm, const Schema& schema) {
  std::string names;
  for (const VarSpec& v : schema.variables()) names += v.name + '/' + std::string(to_string(v.type)) + ';';
  for (const DimSpec& d : schema.dimensions()) names += d.name + '=' + std::to_string(d.length) + ';';
  const auto h = static_cast<std::int64_t>(std::hash<std::string>{}(names) >> 2);
  const auto n = static_cast<std::int64_t>(schema.variables().size());
  std::int64_t in[4] = {h, -h, n, -n}, out[4] = {0, 0, 0, 0};
  detail::mpi_check(MPI_Allreduce(in, out, 4, MPI_INT64_T, MPI_MAX, comm), "MPI_Allreduce(schema check)");
  if (out[0] != -out[1]) {  // the same text on every rank: the range of counts, not this rank's
    throw Error(ErrorKind::Schema, "ranks defined different variables or dimensions (" + std::to_string(-out[3]) +
                                       " to " + std::to_string(out[2]) +
                                       " variables); was a definition error ignored on some rank?");
  }
}

// The builder's own communicator (a duplicate: its agreements never meet the caller's messages).
struct OwnedComm {
  MPI_Comm comm = MPI_COMM_NULL;
  explicit OwnedComm(MPI_Comm c) { detail::mpi_check(MPI_Comm_dup(c, &comm), "MPI_Comm_dup(stream)"); }
  OwnedComm(const OwnedComm&) = delete;
  OwnedComm& operator=(const OwnedComm&) = delete;
  ~OwnedComm() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};

}  // namespace

struct StreamBuilder::Impl {
  OwnedComm comm;
  detail::ResolvedStream resolved;
  std::optional<Decomposition> domain;
  Schema schema;
  detail::OutputClock clock;
  std::shared_ptr<detail::ServerLink> servers;  // null: written by the stream's own ranks
  detail::StreamContext context;
  bool built = false;

  Impl(MPI_Comm c, const OutputOptions& options, std::shared_ptr<detail::ServerLink> link = nullptr)
      : comm(c), resolved(detail::resolve_stream(options, comm.comm)), clock(resolved.config.options),
        servers(std::move(link)) {}

  void require_defining(std::string_view what) const {
    if (built) throw Error(ErrorKind::State, std::string(what) + " after the stream was built: definitions are closed");
  }
};

StreamBuilder::StreamBuilder(MPI_Comm comm, OutputOptions options)
    : impl_(std::make_unique<Impl>(comm, options)) {}
StreamBuilder::StreamBuilder(MPI_Comm comm, OutputOptions options, const IoServers& servers)
    : impl_(std::make_unique<Impl>(comm, options, servers.link())) {}
StreamBuilder::~StreamBuilder() = default;
StreamBuilder::StreamBuilder(StreamBuilder&&) noexcept = default;
StreamBuilder& StreamBuilder::operator=(StreamBuilder&&) noexcept = default;

void StreamBuilder::set_domain(Decomposition decomposition) {
  impl_->require_defining("set_domain");
  impl_->domain = std::move(decomposition);
}
bool StreamBuilder::has_domain() const noexcept { return impl_->domain.has_value(); }
const Decomposition& StreamBuilder::domain() const {
  if (!impl_->domain) throw Error(ErrorKind::State, "no domain set (set_domain)");
  return *impl_->domain;
}

void StreamBuilder::add_dimension(std::string name, std::int64_t length) {
  impl_->require_defining("add_dimension(" + name + ")");
  impl_->schema.add_dimension(std::move(name), length);
}
void StreamBuilder::add_variable(VarSpec spec) {
  impl_->require_defining("add_variable(" + spec.name + ")");
  impl_->schema.add_variable(std::move(spec));
}
void StreamBuilder::set_global_attribute(Attribute attribute) {
  impl_->require_defining("set_global_attribute(" + attribute.name + ")");
  impl_->schema.set_global_attribute(std::move(attribute));
}
void StreamBuilder::set_wrf_grid_attributes() { wrf::set_grid_attributes(impl_->schema, domain().domain()); }

void StreamBuilder::set_hint_report(HintReport report) {
  impl_->require_defining("set_hint_report");
  impl_->resolved.config.options.hints.report = report;
}

const Schema& StreamBuilder::schema() const noexcept { return impl_->schema; }
const OutputOptions& StreamBuilder::options() const noexcept { return impl_->resolved.config.options; }
bool StreamBuilder::output_due(std::string_view date) const { return impl_->clock.due(date); }

Writer StreamBuilder::build() {
  Impl& im = *impl_;
  detail::run_and_agree(im.comm.comm, [&] {
    if (im.built) throw Error(ErrorKind::State, "build(): the stream was built already");
    if (!im.domain) throw Error(ErrorKind::State, "build(): no domain set (set_domain must come first)");
  });
  agree_on_schema(im.comm.comm, im.schema);
  im.built = true;
  return Writer(detail::build_stream(std::move(im.resolved), *im.domain, im.schema, im.servers, im.context));
}

namespace detail {

struct BuilderAccess {
  static void set(StreamBuilder& b, StreamContext c) { b.impl_->context = std::move(c); }
  static Writer writer(std::unique_ptr<Stream> impl) { return Writer(std::move(impl)); }
  static Stream& stream(Writer& w) { return *w.impl_; }
};

void close_keeping_temporary(Writer& writer) { BuilderAccess::stream(writer).close(false); }

void set_stream_context(StreamBuilder& builder, StreamContext context) { BuilderAccess::set(builder, std::move(context)); }

Writer make_writer(const Decomposition& decomposition, Schema schema, OutputOptions options, StreamContext context) {
  return BuilderAccess::writer(
      build_stream(resolve_stream(options, decomposition.comm()), decomposition, std::move(schema), nullptr, context));
}

}  // namespace detail

}  // namespace nwpio
