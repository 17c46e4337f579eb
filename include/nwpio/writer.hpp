// Writer: one history stream. Each rank hands over its patch as it lives in memory; the
// Writer writes each frame into one shared file with one collective step.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>
#include <string>
#include <string_view>

#include "nwpio/decomposition.hpp"
#include "nwpio/error.hpp"
#include "nwpio/options.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/statistics.hpp"

namespace nwpio {

// An array handed to Writer::put with what the front end knows about it.
struct ArrayView {
  const void* data = nullptr;
  DataType type = DataType::Float;
  // The array's extents per dimension in its own memory order (first fastest, as Fortran
  // declares it); none for a scalar. When given, their number and values must equal the
  // variable's memory bounds ((ims:ime, kms:kme, jms:jme) for XZY, ...; (1:length) over a named
  // dimension), or put() fails naming both. Not given: not checked.
  std::optional<std::vector<std::int64_t>> extents;
  // The array's own bounds (0-based half-open, domain indices, k included) when they are not the
  // stream's memory bounds: WRF's I/O servers hand over exactly the patch. Must contain this
  // rank's part of the field. Empty: the decomposition's memory box.
  std::optional<Box> memory;
  // Pack the data now ("pack on put"): the array may change or go away as soon as put() returns
  // (WRF's I/O API passes temporaries). Otherwise it is read at end_frame (no copy).
  bool copy = false;
};

class Writer {
 public:
  // Collective over decomposition.comm(). Resolves the configuration (option values, output
  // directory, iofields file, hints with the environment) and fails here, on every rank, when
  // any of it is wrong; applies the iofields file, checks the schema against the decomposition.
  // No file is created before the first begin_frame(). (StreamBuilder builds a Writer one
  // definition at a time, as the C and Fortran APIs do.)
  Writer(const Decomposition& decomposition, Schema schema, OutputOptions options);
  ~Writer();  // closes an open file; never throws (an error is printed on stderr)
  Writer(Writer&&) noexcept;
  Writer& operator=(Writer&&) noexcept;
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Is `date` (YYYY-MM-DD_HH:MM:SS) an output time of this stream (history_begin,
  // history_interval relative to start_date)? Local, cheap: a model loop asks every step.
  bool output_due(std::string_view date) const;

  // Collective. Starts a frame at `date`, which must be after the previous frame's date.
  // Opens a new file (named with this date) when none is open or the open one is full.
  void begin_frame(std::string_view date);

  // Local. Records the variable's data for the current frame; no I/O yet, no copy: `data`
  // must stay valid and unchanged until end_frame() returns. `data` is the whole memory
  // array as the model holds it: ims:ime, kms:kme, jms:jme (with halos) in the variable's
  // memory order. A variable removed by iofields costs nothing. Errors (unknown name, twice
  // in one frame, no frame open, wrong type) are raised by end_frame() on every rank and
  // by put() itself on the calling rank.
  template <class T>
  void put(std::string_view name, const T* data) {
    put(name, static_cast<const void*>(data), DataTypeOf<T>::value);
  }
  void put(std::string_view name, const void* data, DataType type);
  // The checked form: extents, memory bounds and copying as `array` says.
  void put(std::string_view name, const ArrayView& array);
  // A failure the front end found itself (the C API's nwpio_report_error): end_frame() raises
  // it on every rank, as it raises put()'s own errors.
  void report_error(const Error& error);

  // Collective. Writes the whole frame with one aggregated collective step (split into rounds
  // under OutputOptions::max_round_bytes per rank). Every variable of the stream must have
  // been put; missing ones are named in the error.
  void end_frame();

  // Collective. Closes the open file, if any. Writes the statistics JSON when asked.
  void close();
  // Collective. As close(), but the open file is not given its final name: it keeps its
  // temporary one. For a front end whose caller lost a frame it cannot write again (WRF's I/O
  // API after a failed frame), so that no final name holds a file missing a frame. Not for a
  // stream written by I/O servers (Error(Unsupported)).
  void close_uncommitted();

  const Schema& schema() const noexcept;          // after iofields
  const OutputOptions& options() const noexcept;
  const Statistics& statistics() const noexcept;
  std::string current_file() const;               // path of the open file, empty if none
  bool stream_enabled() const noexcept;           // false when history_interval is 0

 private:
  friend class StreamBuilder;
  struct Impl;
  explicit Writer(std::unique_ptr<Impl> impl) noexcept;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nwpio
