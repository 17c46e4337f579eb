// Writer: construction (layout, backend, frame plans from a stream resolved beforehand), close
// and destruction. Every collective step ends in run_and_agree, so all ranks throw the same Error.
#include <cstdio>
#include <exception>

#include <filesystem>

#include "backend/backend.hpp"
#include "config/hints_mpiio.hpp"
#include "config/iofields.hpp"
#include "core/filename.hpp"
#include "core/direct_plan.hpp"
#include "core/node_slabs.hpp"
#include "core/rearranger.hpp"
#include "core/writer_impl.hpp"
#include "servers/frame_handoff.hpp"
#include "servers/server_link.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio {

namespace {

using detail::run_and_agree;

void check_domain(const OutputOptions& o, const Decomposition& d) {
  const std::array<std::pair<const char*, std::int64_t>, 3> given = {
      {{"e_we", o.e_we}, {"e_sn", o.e_sn}, {"e_vert", o.e_vert}}};
  for (int a = 0; a < 3; ++a) {
    const auto& [name, value] = given[static_cast<std::size_t>(a)];
    if (value != 0 && value != d.domain().extent(a)) {
      throw Error(ErrorKind::Decomposition, std::string("options.") + name + " = " + std::to_string(value) +
                                                " does not match the decomposition's staggered count " +
                                                std::to_string(d.domain().extent(a)));
    }
  }
}

// N writer ranks spread evenly over the communicator (rank i * size / N).
std::vector<int> spread_writers(int requested, int size) {
  const int n = requested <= 0 ? size : std::min(requested, size);
  std::vector<int> w;
  for (int i = 0; i < n; ++i) w.push_back(static_cast<int>(static_cast<std::int64_t>(i) * size / n));
  return w;
}

// GatherMode::Auto and ReorderMode::Auto: the faster choices measured (docs/PERFORMANCE.md,
// "Where the time goes"). The rearranger writes each writer's stretch of the file as it is,
// already big-endian, for every decomposition measured (split along x, along y, one rank):
// 0.76-0.86x of raw MPI-IO against 0.26-0.66x for the direct path.
GatherMode resolve_gather(GatherMode g) { return g == GatherMode::Auto ? GatherMode::Rearrange : g; }

ReorderMode resolve_reorder(ReorderMode r) { return r == ReorderMode::Auto ? ReorderMode::Pack : r; }

// ROMIO reads the text before the first ':' of a path as a file-system prefix ("ufs:",
// "lustre:"), so MPI_File_open fails on WRF's dated names (wrfout_d01_2019-06-01_00:00:00),
// with an error that does not say why (netCDF-C: "Permission denied"). A backend that keeps
// WRF's colons and opens through MPI-IO (io_form 13, as WRF's io_netcdfpar) is refused here,
// before any file exists, with the way out (io_form 11 replaces them always, as WRF's does);
// so is an output_dir with ':' for every MPI-IO backend.
void check_names_for_romio(const OutputOptions& o, const detail::BackendTraits& traits) {
  if (!traits.uses_mpiio || !traits.writes_file) return;
  const detail::hints::MpiIo io = detail::hints::detect_mpiio();
  if (io.layer != detail::hints::IoLayer::Romio) return;
  const std::string name = detail::expand_file_name(
      o.outname, o.domain_id, o.start_date.empty() ? "0001-01-01_00:00:00" : o.start_date, traits.colon_free_names);
  const bool in_dir = o.output_dir.find(':') != std::string::npos;
  if (!in_dir && name.find(':') == std::string::npos) return;
  const std::string path = (std::filesystem::path(o.output_dir) / name).string();
  throw Error(ErrorKind::InvalidArgument,
              "io_form " + std::to_string(static_cast<int>(traits.io_form)) + " opens its files through MPI-IO, and " +
                  io.component + " (ROMIO) reads the text before the first ':' of '" + path +
                  "' as a file-system prefix: the file cannot be created. " +
                  (in_dir ? "Use an output_dir without ':'"
                          : "Set nocolons = .true. (&time_control: ':' becomes '_', as in io_form 11 names)") +
                  ", or Open MPI's OMPIO (OMPI_MCA_io unset)");
}

}  // namespace

namespace detail {

ResolvedStream resolve_stream(const OutputOptions& options, MPI_Comm comm) {
  ResolvedStream r;
  int rank = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  run_and_agree(comm, [&] {
    r.traits = backend_traits(options, rank);
    r.enabled = OutputClock(options).enabled();
  });
  r.config = resolve_stream_config(options, comm, r.enabled && r.traits.writes_file);
  r.config.options.io_form = r.traits.io_form;
  if (r.enabled) run_and_agree(comm, [&] { check_names_for_romio(r.config.options, r.traits); });
  return r;
}

}  // namespace detail

Writer::Impl::Impl(detail::ResolvedStream resolved, const Decomposition& d, Schema s,
                   std::shared_ptr<detail::ServerLink> servers)
    : decomposition(d),
      schema(std::move(s)),
      config(std::move(resolved.config)),
      traits(std::move(resolved.traits)),
      clock(config.options) {
  comm = decomposition.comm();
  rank = decomposition.rank();
  size = decomposition.size();

  run_and_agree(comm, [&] { check_domain(options, decomposition); });
  removed = detail::apply_iofields(schema, config.iofields, options.ignore_iofields_warning, comm);
  run_and_agree(comm, [&] {
    layout = detail::build_stream_layout(schema, detail::Grid::of(decomposition), options, traits);
    // A stream that is off (history_interval = 0) writes nothing: no backend, no staging.
    if (clock.enabled() && !servers) backend = detail::make_backend(traits, options, comm);
  });
  for (const VarSpec& v : schema.variables()) index_of.emplace(v.name, static_cast<int>(index_of.size()));
  frame.data.assign(schema.variables().size(), {});
  copies.resize(schema.variables().size());

  // Written by I/O servers: they build the same stream (defined, agreed, here) and write it.
  if (servers && clock.enabled()) {
    const int per_group = servers->servers_per_group();
    detail::StreamDefinition definition{0, schema, options, decomposition.domain(), decomposition.all_patches()};
    handoff = std::make_unique<detail::FrameHandoff>(std::move(servers), comm, definition, layout, stats);
    stats.backend = traits.name;
    stats.gather = "io-servers";
    stats.reorder = "pack";
    stats.writer_ranks = per_group;
    dirty = true;  // close() must tell the servers, even without a frame
    if (rank == 0 && !layout.format_note.empty()) std::fprintf(stderr, "%s\n", layout.format_note.c_str());
    return;
  }

  // Plans: which fields each kind of frame writes, and how they travel. Both carry every field
  // of the frame in the file's order: the fixed-size ones (a file's first frame), then Times and
  // the records.
  // A backend whose writes are collective per variable needs the writers' shares of every
  // variable (the direct plan would hand it patches that split chunks between ranks).
  const GatherMode gather =
      traits.parallel && !traits.shares_each_variable ? resolve_gather(options.gather) : GatherMode::Rearrange;
  const ReorderMode reorder = resolve_reorder(options.reorder);
  const std::vector<int> writers = traits.parallel ? spread_writers(options.writer_ranks, size) : std::vector<int>{0};
  const bool rearrange = gather == GatherMode::Rearrange;
  for (std::size_t kind = 0; kind < 2; ++kind) {
    std::vector<int>& ids = plan_fields[kind];
    if (kind == 1) {
      for (const detail::FieldGeometry& g : layout.fields) {
        if (!g.record) ids.push_back(g.schema_index);
      }
    }
    ids.push_back(kTimesField);
    for (const detail::FieldGeometry& g : layout.fields) {
      if (g.record) ids.push_back(g.schema_index);
    }
  }
  detail::RearrangeSetup setup;
  setup.writers = writers;
  setup.round_limit = traits.parallel ? options.max_round_bytes : options.serial_chunk_bytes;
  setup.byte_order = traits.byte_order;
  setup.share_each_variable = traits.shares_each_variable;
  setup.node_options.shared = options.shared_memory_exchange;
  setup.node_options.shared_memory_dir = config.shared_memory_dir;
  if (options.test_hooks) setup.node_options.ranks_per_node = options.test_hooks->ranks_per_node;
  run_and_agree(comm, [&] {
    if (!clock.enabled()) return;
    if (rearrange) setup.slabs = std::make_shared<detail::NodeSlabs>(comm, setup.node_options);
    for (std::size_t kind = 0; kind < 2; ++kind) {
      std::vector<const detail::FieldGeometry*> fields;
      for (int index : plan_fields[kind]) {
        fields.push_back(index == kTimesField ? &layout.times : &layout.fields[static_cast<std::size_t>(index)]);
      }
      if (rearrange) {
        plans[kind] = std::make_unique<detail::Rearranger>(comm, std::move(fields), setup);
      } else {
        plans[kind] = std::make_unique<detail::DirectPlan>(comm, std::move(fields), reorder, options.max_round_bytes);
      }
    }
  });
  for (std::size_t kind = 0; kind < 2; ++kind) {
    plan_position[kind].assign(schema.variables().size(), -1);
    for (std::size_t f = 0; f < plan_fields[kind].size(); ++f) {
      const int index = plan_fields[kind][f];
      if (index != kTimesField) plan_position[kind][static_cast<std::size_t>(index)] = static_cast<int>(f);
    }
  }
  contiguous_slabs = traits.parallel && rearrange;
  stats.backend = traits.name;
  stats.gather = !rearrange ? "direct" : traits.shares_each_variable ? "rearrange-per-variable" : "rearrange";
  stats.reorder = rearrange ? "pack" : reorder == ReorderMode::Pack ? "pack" : "datatype";
  stats.writer_ranks = rearrange ? static_cast<int>(writers.size()) : size;
  if (rank == 0 && !layout.format_note.empty()) std::fprintf(stderr, "%s\n", layout.format_note.c_str());
  if (rank == 0 && !clock.enabled()) {
    std::fprintf(stderr, "nwpio: history stream of domain %d is off (history_interval = 0): no file is written\n",
                 options.domain_id);
  }
}

Writer::Impl::~Impl() = default;

void Writer::Impl::close() {
  if (frame.open) {
    // A frame that was begun but never ended wrote nothing; it is dropped.
    if (rank == 0) std::fprintf(stderr, "nwpio: close(): frame %s was never ended; it is dropped\n", frame.date.c_str());
    frame.open = false;
  }
  if (handoff) {
    // Waits until the servers closed the stream: a failure not reported yet is thrown here.
    file_open = false;
    handoff->close();
  } else if (file_open) {
    if (broken) {
      // Every rank agreed on the failure, so all join; the partial file keeps its temporary name.
      try {
        run_and_agree(comm, [&] { backend->close(); });
      } catch (const Error&) {
      }
      file_open = false;
      if (rank == 0) std::fprintf(stderr, "nwpio: the partial file stays at %s\n", temp_path.c_str());
    } else {
      const double secs = close_file();
      if (!stats.frames.empty()) stats.frames.back().close_seconds += secs;
    }
  }
  if (!options.stats_json.empty()) {
    run_and_agree(comm, [&] {
      if (rank == 0) stats.write_json(options.stats_json);
    });
  }
  dirty = false;
}

Writer::Writer(const Decomposition& decomposition, Schema schema, OutputOptions options)
    : impl_(std::make_unique<Impl>(detail::resolve_stream(options, decomposition.comm()), decomposition,
                                   std::move(schema))) {}

Writer::Writer(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}

Writer::~Writer() {
  if (!impl_) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  // During stack unwinding, or after a failed write, other ranks may not enter a collective:
  // leave without one (the partial file keeps its temporary name).
  if (std::uncaught_exceptions() > 0 || impl_->broken) {
    impl_->abandon();
    return;
  }
  if (!impl_->dirty && !impl_->file_open) return;
  try {
    impl_->close();
  } catch (const std::exception& e) {
    if (impl_->rank == 0) std::fprintf(stderr, "nwpio: closing the stream failed: %s\n", e.what());
  }
}

Writer::Writer(Writer&&) noexcept = default;
Writer& Writer::operator=(Writer&&) noexcept = default;

bool Writer::output_due(std::string_view date) const { return impl_->clock.due(date); }
// A stream that is off (history_interval = 0, as in WRF) writes nothing: frames cost nothing.
void Writer::begin_frame(std::string_view date) {
  if (impl_->clock.enabled()) impl_->begin_frame(date);
}
void Writer::put(std::string_view name, const void* data, DataType type) {
  if (impl_->clock.enabled()) impl_->put(name, ArrayView{data, type, {}, std::nullopt, false});
}
void Writer::put(std::string_view name, const ArrayView& array) {
  if (impl_->clock.enabled()) impl_->put(name, array);
}
void Writer::report_error(const Error& error) {
  if (impl_->clock.enabled() && impl_->frame.open) impl_->pending.push_back(error);
}
void Writer::end_frame() {
  if (impl_->clock.enabled()) impl_->end_frame();
}
void Writer::close() { impl_->close(); }
void Writer::close_uncommitted() {
  if (impl_->handoff) throw Error(ErrorKind::Unsupported, "close_uncommitted: the I/O servers commit their files");
  const bool broken = impl_->broken;
  impl_->broken = true;  // close() then leaves the file under its temporary name
  impl_->close();
  impl_->broken = broken;  // closed: the destructor has nothing more to abandon than before
}
const Schema& Writer::schema() const noexcept { return impl_->schema; }
const OutputOptions& Writer::options() const noexcept { return impl_->options; }
const Statistics& Writer::statistics() const noexcept { return impl_->stats; }
std::string Writer::current_file() const { return impl_->file_open ? impl_->final_path : std::string(); }
bool Writer::stream_enabled() const noexcept { return impl_->clock.enabled(); }

}  // namespace nwpio
