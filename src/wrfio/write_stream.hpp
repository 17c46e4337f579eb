// One file WRF opened for writing through the ext_pnc_* package (history, restart or an
// auxiliary stream), on nwpio's L3 StreamBuilder / Writer.
//
// WRF's protocol (frame/module_io.F, share/output_wrf.F):
//   open_for_write_begin            -> the StreamBuilder (configuration resolved and checked)
//   training ("dry run", state 101): put_dom_ti_* = global attributes, write_field = define a
//     variable (its data is ignored), put_var_ti_* = its attributes
//   open_for_write_commit           -> the Decomposition from the fields' bounds, build() (state 102)
//   per frame: put_dom_ti_* again (ignored, as WRF's own package does), then every variable's
//     write_field with the frame's DateStr
//   ioclose
// WRF gives no end-of-frame call. A frame starts with the first write_field of a new DateStr and
// is written -- ONE aggregated collective step, Writer::end_frame -- as soon as every variable
// defined in training has arrived for it (or at the next DateStr, or at ioclose, where missing
// variables are an error naming them). Every field is packed inside its own write_field call
// (ArrayView::copy): WRF may pass temporaries and goes on integrating; no pointer is kept.
//
// I/O servers (WRF built with PNETCDF_QUILT) train with DomainDesc 333933 and hand over each
// field as one or more pieces that are exactly their patches (MemoryStart(1) = -998899), then
// call iosync. Their pieces are staged (QuiltFrame) and the frame is written at iosync; the
// server's patch -- the rows of compute tasks it serves -- is known only from the first frame's
// pieces, so an I/O server builds its Writer then.
//
// Collective steps (build, begin_frame, end_frame, close) happen at the same call on every rank,
// decided only by names and dates, which every rank receives alike; a local error never skips
// one: it is reported to the Writer (or agreed before it exists) and raised on every rank.
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "nwpio/box.hpp"
#include "nwpio/decomposition.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/stream_builder.hpp"
#include "nwpio/writer.hpp"
#include "wrfio/field_call.hpp"

namespace nwpio::wrfio {

class QuiltFrame;

class WriteStream {
 public:
  // Collective over comm (WRF's compute communicator, or its I/O servers' group).
  WriteStream(MPI_Comm comm, std::string wrf_file_name, std::string_view sysdep_info);
  ~WriteStream();
  WriteStream(const WriteStream&) = delete;
  WriteStream& operator=(const WriteStream&) = delete;

  const std::string& wrf_file_name() const noexcept { return wrf_file_name_; }
  int file_state() const noexcept;

  // Training only; after commit WRF repeats them every frame and they are ignored (return
  // false). Local.
  bool put_global_attribute(Attribute attribute);
  // Training only (an attribute of a variable not defined yet is kVarNotFound). Local.
  void put_variable_attribute(const std::string& var, Attribute attribute);

  // Training: defines the variable (local). After commit: see the class comment (collective at
  // frame boundaries).
  void write_field(const FieldCall& in, const void* field);

  // A call WRF made for this file that could not even be read (bad memory order, date, bounds):
  // in the training phase it fails the commit on every rank; afterwards its variable is simply
  // missing from the frame, which fails that frame on every rank.
  void reject(const Error& error);

  // A variable WRF's own package could not write either (a memory order nwpio does not write,
  // such as the restart's 'ZZ' ISEEDARR_MULT3D, which WRF's io_netcdf skips the same way): it
  // is left out of the file with a warning; its later calls answer quietly.
  void skip(const std::string& var, const Error& why);
  bool skipped(const std::string& var) const;

  void commit();  // collective
  void sync();    // collective for I/O servers (their frame is written here); else nothing
  void close();   // collective; writes a frame still open

 private:
  struct Variable {
    FieldCall geometry;  // the training call (this rank's bounds)
    VarSpec spec;
  };

  void define(FieldCall call);
  std::string dimension_for(const FieldCall& call, int axis);
  void check_against_training(const Variable& v, const FieldCall& call) const;
  void put_field(int index, const FieldCall& call, const void* field);
  void begin_frame(const std::string& date);
  void finish_frame();
  void build_writer(const std::vector<const FieldCall*>& bounds);
  void flush_quilt_frame();
  void remember(const Error& error);
  void require_usable() const;

  MPI_Comm comm_;
  std::string wrf_file_name_;
  std::string dataset_;
  std::optional<StreamBuilder> builder_;
  std::optional<Writer> writer_;
  std::optional<Decomposition> decomposition_;  // once the Writer is built
  Box memory_;                                  // the stream's memory box (the model's arrays)
  bool committed_ = false;
  bool failed_ = false;  // the commit failed on every rank: nothing more is written
  std::set<std::string> skipped_;
  bool quilt_server_ = false;

  std::vector<Variable> variables_;
  std::unordered_map<std::string, int> index_of_;
  std::vector<Attribute> global_attributes_;
  std::vector<DimSpec> named_dimensions_;
  // WRF's own dimension table of the file: DateStrLen, then every dimension in the order the
  // variables first use it (file order i, j, k per variable). A dimension WRF passes without a
  // name is named as WRF's package names it: the first one of the same length, else DIMnnnn
  // (nnnn its place in this table).
  std::vector<DimSpec> wrf_dimensions_{{"DateStrLen", 19}};
  std::optional<Error> local_error_;  // before a Writer exists: agreed at the next collective step

  // The frame being received.
  bool frame_open_ = false;
  std::string frame_date_;
  std::vector<bool> arrived_;
  std::size_t arrived_count_ = 0;
  std::unique_ptr<QuiltFrame> quilt_frame_;
};

}  // namespace nwpio::wrfio
