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
// WRF gives no end-of-frame call. A frame begins with the first write_field after the previous
// one and is written -- ONE aggregated collective step, Writer::end_frame -- as soon as it has
// had as many write_field calls as training defined variables (WriteProtocol: the count, never
// an argument, decides, so that a bad argument on one rank cannot put that rank out of step);
// at ioclose a frame still open is ended, its missing variables named in the error. Every field
// is packed inside its own write_field call (ArrayView::copy): WRF may pass temporaries and goes
// on integrating; no pointer is kept.
//
// I/O servers (WRF built with PNETCDF_QUILT) train with DomainDesc 333933 and hand over each
// field as one or more pieces that are exactly their patches (MemoryStart(1) = -998899), then
// call iosync. Their pieces are staged (QuiltFrame) and the frame is written at iosync; the
// server's patch -- the rows of compute tasks it serves -- is known only from the first frame's
// pieces, so an I/O server builds its Writer then.
//
// Bad calls. A call whose arguments cannot be read (parse_field_call) or do not fit is answered
// with its WRF status on the rank that made it, and still takes its place in the frame: the
// frame then fails on every rank at its collective step and is lost (WRF never writes a frame
// again). The file goes on taking the next frames, but a file that lost a frame is complete no
// more: ioclose leaves it under its temporary name (detail::close_keeping_temporary), the frames that
// were written kept in it, and says so. A failed commit writes nothing at all: every later call
// of that file is answered with an error. Other open files are not touched.
//
// Collective steps (build, begin_frame, end_frame, close) happen at the same call on every
// rank; a local error never skips one: it is reported to the Writer (or agreed before it
// exists) and raised on every rank.
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
#include "wrfio/wrf_status.hpp"
#include "wrfio/write_protocol.hpp"

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
  // Training only (an attribute of a variable not defined yet is kVarNotFound; after the commit
  // kMdAfterOpen). Local.
  void put_variable_attribute(const std::string& var, Attribute attribute);

  // One write_field call as WRF passed it. Training: defines the variable (local). After
  // commit: see the class comment (collective at frame boundaries). A MemoryOrder nwpio does
  // not write (WRF's restart passes 'ZZ' for ISEEDARR_MULT3D, which WRF's io_netcdf skips the
  // same way) leaves that variable out of the file with kBadMemoryOrder, said once in training;
  // its later calls answer quietly.
  void write_field(const RawFieldArgs& args, const void* field);

  void commit();  // collective
  void sync();    // collective for I/O servers (their frame is written here); else nothing
  void close();   // collective; writes a frame still open

 private:
  struct Variable {
    FieldCall geometry;  // the training call (this rank's bounds)
    VarSpec spec;
  };

  [[noreturn]] void rejected(const RawFieldArgs& args, const WrfError& error);
  void define(FieldCall call);
  std::string dimension_for(const FieldCall& call, int axis);
  int index_of(const std::string& var) const;
  void check_against_training(const Variable& v, const FieldCall& call) const;
  void put_field(int index, const FieldCall& call, const void* field);
  void frame_call(const std::string& var, const std::string& date, std::optional<WrfError> local, const FieldCall* call,
                  const void* field);
  void quilt_call(const FieldCall& call, const void* field);
  void finish_frame();
  void lose_frame(const std::string& date, const Error& why);
  void build_writer(const std::vector<const FieldCall*>& bounds);
  void flush_quilt_frame(const std::string& date);
  void remember(const Error& error);

  MPI_Comm comm_;
  std::string wrf_file_name_;
  std::string dataset_;
  std::optional<StreamBuilder> builder_;
  std::optional<Writer> writer_;
  std::optional<Decomposition> decomposition_;  // once the Writer is built
  Box memory_;                                  // the stream's memory box (the model's arrays)
  WriteProtocol protocol_;
  int frames_written_ = 0;
  int frames_lost_ = 0;
  std::string first_loss_;   // why the first lost frame failed
  bool frame_lost_ = false;  // the open frame could not begin (on every rank): its calls write nothing
  std::set<std::string> skipped_;
  bool quilt_server_ = false;

  std::vector<Variable> variables_;
  std::unordered_map<std::string, int> index_of_;
  std::vector<DimSpec> named_dimensions_;
  // WRF's own dimension table of the file: DateStrLen, then every dimension in the order the
  // variables first use it (file order i, j, k per variable). A dimension WRF passes without a
  // name is named as WRF's package names it: the first one of the same length, else DIMnnnn
  // (nnnn its place in this table).
  std::vector<DimSpec> wrf_dimensions_{{"DateStrLen", 19}};
  std::optional<Error> local_error_;  // before a Writer exists: agreed at the next collective step
  std::unique_ptr<QuiltFrame> quilt_frame_;
};

}  // namespace nwpio::wrfio
