// StreamBuilder (L3): defines one history stream a call at a time (domain, dimensions,
// variables, global attributes) and builds its Writer with one collective call. Every front end
// (the C API and Fortran module, WRF's I/O API, I/O server ranks) is a thin translation onto it:
// the builder owns the checks that must agree across ranks (the same variables everywhere) and
// the configuration resolved before the Writer exists (namelist, iofields, hints, output_dir).
//
//   nwpio::StreamBuilder b(comm, nwpio::OutputOptions::from_namelist("namelist.input", 1, comm));
//   b.set_domain(nwpio::Decomposition::from_wrf(comm, bounds));
//   b.add_variable(nwpio::wrf::variable("T", nwpio::DataType::Float, nwpio::MemoryOrder::XZY,
//                                       nwpio::Stagger::None, "perturbation potential temperature", "K"));
//   b.set_global_attribute({"TITLE", std::string(" OUTPUT FROM MY MODEL")});
//   nwpio::Writer w = b.build();   // collective
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "nwpio/decomposition.hpp"
#include "nwpio/io_servers.hpp"
#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/writer.hpp"

namespace nwpio {

namespace detail {
struct BuilderAccess;  // nwpio's own front ends and tests (src/api/stream_context.hpp)
}

class StreamBuilder {
 public:
  // Collective over comm. Resolves and checks the configuration now, on every rank, so that a
  // bad hints profile, a bad NWPIO_HINTS, an output directory that is missing or not writable,
  // or an iofields file that does not parse fails here (the same Error on every rank), not at
  // the first frame. Nothing is created on disk.
  StreamBuilder(MPI_Comm comm, OutputOptions options);
  // The same for a stream written by I/O servers: comm must be servers.compute_comm() (or a
  // duplicate). Without servers (servers.enabled() false) the stream writes as above. The
  // servers must outlive the stream's Writer (close it before IoServers::stop()).
  StreamBuilder(MPI_Comm comm, OutputOptions options, const IoServers& servers);
  ~StreamBuilder();
  StreamBuilder(StreamBuilder&&) noexcept;
  StreamBuilder& operator=(StreamBuilder&&) noexcept;

  // The decomposition (collective when made with Decomposition::from_wrf / from_boxes).
  void set_domain(Decomposition decomposition);
  bool has_domain() const noexcept;
  const Decomposition& domain() const;  // throws Error(State) before set_domain

  // Local; must be the same on every rank (build() checks). Throw Error(Schema) as Schema does.
  void add_dimension(std::string name, std::int64_t length);
  void add_variable(VarSpec spec);
  void set_global_attribute(Attribute attribute);
  // WRF's grid attributes (*_GRID_DIMENSION, *_PATCH_*) from the domain, in their place.
  void set_wrf_grid_attributes();

  // Local, before build(): how much of the hint report rank 0 prints per file (as
  // HintOptions::report; NWPIO_HINT_REPORT still wins).
  void set_hint_report(HintReport report);

  const Schema& schema() const noexcept;        // as defined (before iofields)
  const OutputOptions& options() const noexcept;

  // Local: is `date` an output time of the stream (before and after build()).
  bool output_due(std::string_view date) const;

  // Collective. Every rank must have defined the same dimensions and variables (one agreed
  // check), a domain must be set. Applies iofields, lays the stream out, builds the backend
  // and the frame plans. The builder may be used again afterwards only for output_due().
  Writer build();

 private:
  friend struct detail::BuilderAccess;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nwpio
