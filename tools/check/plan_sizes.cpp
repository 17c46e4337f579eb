#include "plan_sizes.hpp"

#include <unistd.h>

#include <filesystem>

#include "nwpio/error.hpp"
#include "nwpio/wrf_date.hpp"
#ifdef NWPIO_HAVE_PNETCDF
#include "backend/pnetcdf/pnetcdf_layout.hpp"
#endif

namespace nwpio::check {

namespace {

namespace fs = std::filesystem;

// Output times of the run: from start + history_begin every history_interval up to the end.
std::int64_t frames_in_run(const DomainInputs& d) {
  const auto& o = d.options;
  if (o.history_interval_seconds <= 0) return 0;
  const std::int64_t span = wrf::date_to_seconds(d.model.end_date) - wrf::date_to_seconds(d.model.start_date);
  if (span < o.history_begin_seconds) return 0;
  return (span - o.history_begin_seconds) / o.history_interval_seconds + 1;
}

// A scratch file name no other process uses; removed again by the caller.
std::string scratch_name(const std::string& dir, int domain) {
  return (fs::path(dir) / ("nwpio-plan-" + std::to_string(::getpid()) + "-d" + std::to_string(domain) + ".nc")).string();
}

}  // namespace

StreamSizes stream_sizes(const DomainInputs& d) {
  StreamSizes s;
  const OutputOptions& o = d.options;
  s.traits = detail::backend_traits(o, 0);
  s.layout = detail::build_stream_layout(d.schema, d.grid, o, s.traits);
  const std::int64_t frames = o.frames_per_file;
  s.frames_per_run = frames_in_run(d);
  s.files_per_run = (s.frames_per_run + frames - 1) / frames;
  s.expected_file_bytes = s.layout.record_bytes * frames + s.layout.static_bytes + o.header_reserve_bytes;
  s.frame_bytes = s.layout.record_bytes;
  s.first_frame_bytes = s.layout.record_bytes + s.layout.static_bytes;
  s.file_bytes = s.expected_file_bytes;
  s.file_note = "data and reserved header space; the header itself not counted";
  s.placement = detail::compact_placement(s.layout.file);
  if (!s.traits.writes_file) {
    s.file_bytes = 0;
    s.file_note = "io_form 0 writes no file";
  }
  return s;
}

void measure_file(StreamSizes& s, const DomainInputs& d, MPI_Info info, const std::string& scratch_dir) {
  if (!s.traits.writes_file) return;
  const OutputOptions& o = d.options;
  const std::int64_t frames = o.frames_per_file;
  // The header laid out by the stream's own backend, with the stream's hints.
  const std::string path = scratch_name(scratch_dir, d.domain);
  std::unique_ptr<detail::Backend> backend = detail::make_backend(s.traits, MPI_COMM_SELF);
  detail::LayoutFacts facts;
  try {
    backend->create(path, s.layout.file, detail::FileHints{info, false});
    s.placement = backend->placement();
    facts = backend->layout_facts();
    backend->close(false);
  } catch (...) {
    backend->abandon();
    std::error_code ec;
    fs::remove(path, ec);
    throw;
  }
  const bool classic = s.layout.file.format != FileFormat::Netcdf4;
#ifdef NWPIO_HAVE_PNETCDF
  if (!facts.extent.known && classic) facts = detail::pnetcdf_layout_facts_of_file(path, s.layout.file);
#endif
  std::error_code ec;
  fs::remove(path, ec);
  if (facts.extent.known) {
    s.frame_bytes = facts.extent.record_size;
    s.file_bytes = facts.extent.end_after(frames);
    s.first_frame_bytes = facts.extent.end_after(1) - facts.header_extent;
    s.file_exact = true;
    s.file_note = "header " + std::to_string(facts.header_extent) + " B (" + std::to_string(facts.header_size) +
                  " B of metadata) as laid out by " + s.traits.name + " with these hints, then the data";
  } else if (!classic) {
    s.file_note = "netCDF-4: compressed size depends on the data; the size shown is the uncompressed bound";
  } else {
    s.file_note = "this build has no PnetCDF to read the header back: data and reserved header space only";
  }
}

}  // namespace nwpio::check
