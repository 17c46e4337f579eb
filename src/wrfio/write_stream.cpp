#include "wrfio/write_stream.hpp"

#include "api/stream_context.hpp"
#include "wrfio/package_commits.hpp"

#include <cstdint>
#include <cstdio>
#include <exception>
#include <vector>

#include "nwpio/wrf_conventions.hpp"
#include "util/agree.hpp"
#include "wrfio/package_options.hpp"
#include "wrfio/quilt_frame.hpp"
#include "wrfio/stream_grid.hpp"
#include "wrfio/wrf_status.hpp"

namespace nwpio::wrfio {

namespace {

// A box's axes that `field` has replaced by the field's own (absent axes keep `base`).
Box with_field_axes(const Box& base, const FieldCall& field, const Box& own) {
  Box b = base;
  for (int axis = 0; axis < 3; ++axis) {
    if (field.position(axis) < 0) continue;
    b.lo[axis] = own.lo[axis];
    b.hi[axis] = own.hi[axis];
  }
  return b;
}

std::string mismatch(const FieldCall& f, const char* what, const Box& expected, const Box& got) {
  return "variable '" + f.name + "': " + what + " " + got.str() + " does not match nwpio's " + expected.str() +
         " for stagger '" + std::string(to_string(f.stagger)) + "' on the file's grid";
}

}  // namespace

WriteStream::WriteStream(MPI_Comm comm, std::string wrf_file_name, std::string_view sysdep_info)
    : comm_(comm), wrf_file_name_(std::move(wrf_file_name)) {
  const SysDepInfo info = parse_sysdep_info(sysdep_info);
  dataset_ = info.dataset;
  builder_.emplace(comm_, package_options(comm_, wrf_file_name_, info.grid_id, info.dataset));
  // Every file of the run shares one commit service and one Statistics: ioclose returns before
  // the file is committed, and a failure of an earlier file is raised here, on every rank.
  detail::set_stream_context(*builder_,
                             package_context(comm_, builder_->options().stats_json, builder_->options().output_dir));
}

WriteStream::~WriteStream() = default;

int WriteStream::file_state() const noexcept {
  return protocol_.phase() == WriteProtocol::Phase::Training ? file_state::kOpenedNotCommitted
                                                             : file_state::kOpenedForWrite;
}

void WriteStream::remember(const Error& error) {
  if (!local_error_) local_error_ = error;
}

bool WriteStream::put_global_attribute(Attribute attribute) {
  // WRF repeats them every frame; its own package ignores them too
  if (protocol_.phase() != WriteProtocol::Phase::Training) return false;
  try {
    builder_->set_global_attribute(std::move(attribute));
  } catch (const Error& e) {
    remember(e);
    throw;
  }
  return true;
}

void WriteStream::put_variable_attribute(const std::string& var, Attribute attribute) {
  if (protocol_.phase() != WriteProtocol::Phase::Training) {
    throw WrfError(wrf_status::kMdAfterOpen, ErrorKind::State,
                   "attribute '" + attribute.name + "' of '" + var + "' after open_for_write_commit");
  }
  const int index = index_of(var);
  if (index < 0 && skipped_.count(var) != 0) {
    throw WrfError(wrf_status::kVarNotFound, ErrorKind::Schema, "variable '" + var + "' is not written", true);
  }
  if (index < 0) {
    WrfError e(wrf_status::kVarNotFound, ErrorKind::Schema,
               "attribute '" + attribute.name + "' for variable '" + var + "', which was not defined (write_field) before");
    remember(e);
    throw e;
  }
  set_attribute(variables_[static_cast<std::size_t>(index)].spec.attributes, std::move(attribute));
}

int WriteStream::index_of(const std::string& var) const {
  const auto it = index_of_.find(var);
  return it == index_of_.end() ? -1 : it->second;
}

std::string WriteStream::dimension_for(const FieldCall& call, int axis) {
  const int p = call.position(axis);
  const std::int64_t length = call.global_length(p);
  std::string name;
  if (axis != kAxisK) {
    name = grid_dimension_name(axis, call.staggered(axis));
  } else if (!call.unnamed_k) {
    name = call.vertical_dim.empty() ? grid_dimension_name(kAxisK, call.staggered(kAxisK)) : call.vertical_dim;
  } else {
    for (const DimSpec& d : wrf_dimensions_) {
      if (d.length == length) return d.name;
    }
    char slot[16];
    std::snprintf(slot, sizeof slot, "DIM%04d", static_cast<int>(wrf_dimensions_.size() + 1));
    name = slot;
  }
  for (const DimSpec& d : wrf_dimensions_) {
    if (d.name == name) return name;
  }
  wrf_dimensions_.push_back({name, length});
  return name;
}

void WriteStream::define(FieldCall call) {
  if (index_of_.count(call.name) != 0) {
    throw WrfError(wrf_status::kTwoDryRunsOneVariable, ErrorKind::Schema,
                   "variable '" + call.name + "' defined twice in the training phase");
  }
  // WRF defines a variable's dimensions in file order: i, j, then k.
  for (int axis = 0; axis < 3; ++axis) {
    if (call.position(axis) < 0) continue;
    const std::string name = dimension_for(call, axis);
    if (axis != kAxisK || !call.unnamed_k) continue;
    call.unnamed_k = false;
    if (name == grid_dimension_name(kAxisK, call.staggered(kAxisK))) continue;  // the model's grid after all
    if (name == grid_dimension_name(kAxisK, !call.staggered(kAxisK)) || name.rfind("west_east", 0) == 0 ||
        name.rfind("south_north", 0) == 0) {
      throw WrfError(wrf_status::kNotSupported, ErrorKind::Unsupported,
                     "variable '" + call.name + "': its unnamed dimension of length " +
                         std::to_string(call.global_length(call.position(kAxisK))) +
                         " would be the grid's '" + name + "' by WRF's naming rule; nwpio cannot write that");
    }
    call.vertical_dim = name;
  }
  if (!call.vertical_dim.empty()) {
    const int p = call.position(kAxisK);
    if (call.domain_start[p] != 1) {
      throw WrfError(wrf_status::kDimensionError, ErrorKind::InvalidArgument,
                     "variable '" + call.name + "': dimension '" + call.vertical_dim + "' starts at " +
                         std::to_string(call.domain_start[p]) + " (nwpio writes named dimensions from 1)");
    }
    const std::int64_t length = call.global_length(p);
    bool known = false;
    for (const DimSpec& d : named_dimensions_) {
      if (d.name != call.vertical_dim) continue;
      if (d.length != length) {
        throw WrfError(wrf_status::kDimNameRedefined, ErrorKind::Schema,
                       "variable '" + call.name + "': dimension '" + d.name + "' has length " +
                           std::to_string(length) + " here but " + std::to_string(d.length) + " before");
      }
      known = true;
    }
    if (!known) named_dimensions_.push_back({call.vertical_dim, length});
  }
  if (call.domain_desc == kQuiltTrainingDomainDesc) quilt_server_ = true;
  VarSpec spec;
  spec.name = call.name;
  spec.type = call.type;
  spec.memory_order = call.order;
  spec.stagger = call.stagger;
  spec.time_dependent = true;  // WRF's package gives every variable the Time dimension
  spec.vertical_dim = call.vertical_dim;
  spec.attributes.push_back({"FieldType", std::vector<std::int32_t>{call.wrf_field_type}});
  spec.attributes.push_back({"MemoryOrder", call.c_order ? std::string("C  ") : wrf::memory_order_attribute(call.order)});
  index_of_.emplace(call.name, static_cast<int>(variables_.size()));
  variables_.push_back({call, std::move(spec)});
}

void WriteStream::commit() {
  protocol_.commit(variables_.size(), quilt_server_);  // a second commit is refused here
  // WRF goes on as if the commit had worked: after a failure every later call of this file
  // returns an error status without writing anything.
  try {
    detail::agree(comm_, local_error_);  // a training error on any rank fails the commit on all
    local_error_.reset();
    if (quilt_server_) {
      // The server's patch is known from the first frame's pieces: the Writer is built then.
      quilt_frame_ = std::make_unique<QuiltFrame>(variables_.size());
    } else {
      std::vector<const FieldCall*> bounds;
      for (const Variable& v : variables_) bounds.push_back(&v.geometry);
      build_writer(bounds);
    }
  } catch (const Error& e) {
    local_error_.reset();
    protocol_.fail(std::string("open_for_write_commit: ") + e.what());
    throw;
  }
}

void WriteStream::build_writer(const std::vector<const FieldCall*>& bounds) {
  StreamGrid grid;
  detail::run_and_agree(comm_, [&] { grid = stream_grid(bounds); });
  Decomposition d = Decomposition::from_boxes(comm_, grid.domain, grid.memory, grid.patch);
  // Every field must be what nwpio derives from the grid and its staggering; otherwise it
  // would be written somewhere else than WRF meant.
  detail::run_and_agree(comm_, [&] {
    for (const FieldCall* f : bounds) {
      const Box own_domain = field_domain_box(*f);
      const Box domain = with_field_axes(own_domain, *f, d.field_domain(f->stagger));
      if (f->on_model_grid_k() || f->decomposed()) {
        Box expected = own_domain;
        for (int axis = 0; axis < 3; ++axis) {
          if (f->position(axis) < 0 || (axis == kAxisK && !f->on_model_grid_k())) continue;
          expected.lo[axis] = domain.lo[axis];
          expected.hi[axis] = domain.hi[axis];
        }
        if (!(expected == own_domain)) {
          throw WrfError(wrf_status::kDimensionError, ErrorKind::InvalidArgument,
                         mismatch(*f, "domain", expected, own_domain));
        }
      }
      if (f->decomposed()) {
        const Box write = d.write_box(f->stagger);
        const Box patch = f->patch_box();
        for (int axis : {kAxisI, kAxisJ}) {
          if (write.lo[axis] != patch.lo[axis] || write.hi[axis] != patch.hi[axis]) {
            throw WrfError(wrf_status::kDimensionError, ErrorKind::InvalidArgument,
                           mismatch(*f, "patch", write, patch));
          }
        }
      }
    }
  });
  builder_->set_domain(d);
  for (const DimSpec& dim : named_dimensions_) builder_->add_dimension(dim.name, dim.length);
  for (const Variable& v : variables_) builder_->add_variable(v.spec);
  writer_.emplace(builder_->build());
  memory_ = grid.memory;
  decomposition_.emplace(std::move(d));
  builder_.reset();
}

void WriteStream::check_against_training(const Variable& v, const FieldCall& call) const {
  const FieldCall& t = v.geometry;
  if (call.wrf_field_type != t.wrf_field_type) {
    throw WrfError(wrf_status::kTypeMismatch, ErrorKind::InvalidArgument,
                   "variable '" + call.name + "': FieldType " + std::to_string(call.wrf_field_type) +
                       " differs from its training call's " + std::to_string(t.wrf_field_type));
  }
  bool same = call.order == t.order && call.stagger == t.stagger;
  for (int p = 0; p < t.ndim; ++p) {
    same = same && call.domain_start[p] == t.domain_start[p] && call.domain_end[p] == t.domain_end[p];
  }
  if (!same) {
    throw WrfError(wrf_status::kLengthNotTrainingLength, ErrorKind::InvalidArgument,
                   "variable '" + call.name +
                       "': MemoryOrder, Stagger or DomainStart:DomainEnd differ from its training call");
  }
  if (!quilt_server_) {
    const Box write = decomposition_->write_box(t.stagger);
    const Box patch = call.patch_box();
    for (int axis : {kAxisI, kAxisJ}) {
      if (call.position(axis) >= 0 && (write.lo[axis] != patch.lo[axis] || write.hi[axis] != patch.hi[axis])) {
        throw WrfError(wrf_status::kDimensionError, ErrorKind::InvalidArgument, mismatch(call, "patch", write, patch));
      }
    }
  }
}

void WriteStream::put_field(int index, const FieldCall& call, const void* field) {
  const Variable& v = variables_[static_cast<std::size_t>(index)];
  check_against_training(v, call);
  ArrayView array;
  array.type = v.spec.type;
  array.copy = true;  // WRF may hand over a temporary and goes on integrating
  // The model's array is the stream's memory unless WRF says otherwise for this field; then its
  // own box is handed over (and the extents, which Writer::put compares with the stream's
  // memory, are not).
  Box expected = memory_;
  if (!call.vertical_dim.empty()) {
    expected.lo[kAxisK] = 0;
    expected.hi[kAxisK] = call.global_length(call.position(kAxisK));
  }
  const Box own = with_field_axes(expected, call, call.memory_box());
  if (own == expected) {
    array.extents = call.memory_extents();
  } else {
    array.memory = own;
  }
  std::vector<std::int32_t> logicals;
  if (call.wrf_field_type == field_type::kLogical) {
    // stored as int 0/1 whatever the compiler's .TRUE. is (gfortran 1, others -1)
    const auto* in = static_cast<const std::int32_t*>(field);
    logicals.resize(static_cast<std::size_t>(call.memory_elements()));
    for (std::size_t e = 0; e < logicals.size(); ++e) logicals[e] = in[e] != 0 ? 1 : 0;
    field = logicals.data();
  }
  array.data = field;
  writer_->put(v.spec.name, array);
}

void WriteStream::lose_frame(const std::string& date, const Error& why) {
  if (frames_lost_++ == 0) first_loss_ = "frame " + date + ": " + why.what();
}

void WriteStream::finish_frame() {
  const std::string date = protocol_.frame_date();
  if (frame_lost_) {  // it never began, on any rank: nothing to end
    frame_lost_ = false;
    return;
  }
  try {
    writer_->end_frame();  // collective: the one aggregated write of the frame
    ++frames_written_;
  } catch (const Error& e) {
    lose_frame(date, e);
    throw;
  }
}

[[noreturn]] void WriteStream::rejected(const RawFieldArgs& args, const WrfError& error) {
  const bool bad_order = error.wrf_status() == wrf_status::kBadMemoryOrder;
  switch (protocol_.phase()) {
    case WriteProtocol::Phase::Training:
      if (bad_order) {
        // As WRF's own packages: the variable is not written; said once, in training.
        const bool again = skipped_.count(args.var) != 0;
        skipped_.insert(args.var);
        throw WrfError(error.wrf_status(), error.kind(), std::string(error.what()) + "; the variable is not written",
                       again);
      }
      remember(error);  // fails the commit on every rank
      throw error;
    case WriteProtocol::Phase::Failed:
      (void)protocol_.field(args.date);  // says quietly why nothing is written
      throw error;
    case WriteProtocol::Phase::Frames:
      break;
  }
  if (skipped_.count(args.var) != 0) {  // left out in training, on every rank alike
    throw WrfError(error.wrf_status(), error.kind(), std::string(error.what()) + "; the variable is not written", true);
  }
  if (quilt_server_) {
    // An I/O server's pieces move no boundary: the error goes into the frame at iosync.
    remember(error);
    throw error;
  }
  frame_call(args.var, args.date, error, nullptr, nullptr);
  throw error;  // (frame_call throws it; kept for [[noreturn]])
}

void WriteStream::write_field(const RawFieldArgs& args, const void* field) {
  std::optional<FieldCall> parsed;
  try {
    parsed = parse_field_call(args);
  } catch (const Error& e) {
    rejected(args, as_wrf_error(e));
  } catch (const std::exception& e) {  // even then the call keeps its place in the frame
    rejected(args, WrfError(wrf_status::kNetcdf, ErrorKind::Internal, "write_field of '" + args.var + "': " + e.what()));
  }
  FieldCall& call = *parsed;
  if (protocol_.phase() == WriteProtocol::Phase::Training) {
    try {
      define(std::move(call));
    } catch (const Error& e) {
      remember(e);
      throw;
    }
    return;
  }
  if (protocol_.phase() == WriteProtocol::Phase::Frames && skipped_.count(call.name) != 0) {
    throw WrfError(wrf_status::kBadMemoryOrder, ErrorKind::Unsupported,
                   "variable '" + call.name + "' is not written (its training call's MemoryOrder)", true);
  }
  const int index = index_of(call.name);
  if (index >= 0) {  // a dimension WRF left unnamed was named in training
    call.vertical_dim = variables_[static_cast<std::size_t>(index)].geometry.vertical_dim;
    call.unnamed_k = false;
  }
  if (quilt_server_ && protocol_.phase() == WriteProtocol::Phase::Frames) return quilt_call(call, field);
  frame_call(call.name, call.date, std::nullopt, &call, field);
}

// One counted call after the commit (WriteProtocol decides the boundaries); `call` is null for
// a call whose arguments could not be read (`local` says why).
void WriteStream::frame_call(const std::string& var, const std::string& date, std::optional<WrfError> local,
                             const FieldCall* call, const void* field) {
  const WriteProtocol::Steps steps = protocol_.field(date);  // quiet error when the commit failed
  if (steps.begin) {
    frame_lost_ = false;
    try {
      writer_->begin_frame(date);  // collective; agrees the ranks' dates
    } catch (const Error& e) {
      lose_frame(date, e);
      frame_lost_ = !steps.end_after;  // the rest of this frame's calls write nothing
      if (local) throw *local;  // this rank's own reason (a DateStr it could not read, ...)
      // begin_frame's only argument is the date: a bad or disagreeing one is WRF's DateStr error
      if (e.kind() == ErrorKind::InvalidArgument) throw WrfError(wrf_status::kDateStringError, e.kind(), e.what());
      throw;
    }
  }
  const int index = index_of(var);
  if (!local && index < 0) {
    local = WrfError(wrf_status::kVarNotFound, ErrorKind::Schema,
                     "variable '" + var + "' was not defined in the training phase of " + wrf_file_name_);
  }
  if (!local && !steps.problem.empty()) {
    local = WrfError(wrf_status::kDateStringError, ErrorKind::InvalidArgument, "variable '" + var + "': " + steps.problem);
  }
  if (frame_lost_) {
    const std::string date_lost = protocol_.frame_date();
    if (steps.end_after) finish_frame();
    if (local) throw *local;
    throw WrfError(wrf_status::kBadFileStatus, ErrorKind::State,
                   "frame " + date_lost + " could not begin: " + first_loss_, /*quiet=*/true);
  }
  if (local) {
    writer_->report_error(*local);
  } else {
    try {
      put_field(index, *call, field);
    } catch (const Error& e) {
      local = as_wrf_error(e);  // Writer::put remembers its own errors; ours are reported
      if (dynamic_cast<const WrfError*>(&e) != nullptr) writer_->report_error(e);
    } catch (const std::exception& e) {  // e.g. std::bad_alloc: this rank still ends the frame
      local = WrfError(wrf_status::kNetcdf, ErrorKind::Internal, "variable '" + var + "': " + e.what());
      writer_->report_error(*local);
    }
  }
  if (steps.end_after) {
    try {
      finish_frame();  // fails on every rank, naming this call's error among the frame's
    } catch (const Error&) {
      if (local) throw *local;  // this rank answers for its own call
      throw;
    }
  }
  if (local) throw *local;
}

void WriteStream::quilt_call(const FieldCall& call, const void* field) {
  const std::string open_date = protocol_.frame_date();
  const WriteProtocol::Steps steps = protocol_.field(call.date);
  if (steps.end_before) flush_quilt_frame(open_date);
  std::optional<WrfError> local;
  const int index = index_of(call.name);
  if (index < 0) {
    local = WrfError(wrf_status::kVarNotFound, ErrorKind::Schema,
                     "variable '" + call.name + "' was not defined in the training phase of " + wrf_file_name_);
  } else if (!call.quilt_patch) {
    local = WrfError(wrf_status::kNotSupported, ErrorKind::InvalidArgument,
                     "variable '" + call.name +
                         "': an I/O server's field must be exactly its patch (MemoryStart(1) = -998899)");
  } else {
    try {
      check_against_training(variables_[static_cast<std::size_t>(index)], call);
      quilt_frame_->add(index, call, field);
    } catch (const Error& e) {
      local = as_wrf_error(e);
    } catch (const std::exception& e) {  // e.g. std::bad_alloc: reported with the frame
      local = WrfError(wrf_status::kNetcdf, ErrorKind::Internal, "variable '" + call.name + "': " + e.what());
    }
  }
  if (local) {
    remember(*local);
    throw *local;
  }
}

void WriteStream::flush_quilt_frame(const std::string& date) {
  if (!writer_) {
    try {
      detail::agree(comm_, local_error_);
      local_error_.reset();
      const std::vector<FieldCall> calls = quilt_frame_->bounding_calls();
      std::vector<const FieldCall*> bounds;
      for (const FieldCall& c : calls) bounds.push_back(&c);
      build_writer(bounds);
    } catch (const Error& e) {
      // Without a Writer nothing of this file can ever be written: as a failed commit.
      quilt_frame_->clear();
      local_error_.reset();
      protocol_.fail(std::string("the I/O server's first frame: ") + e.what());
      throw;
    }
  }
  try {
    writer_->begin_frame(date);
  } catch (const Error& e) {
    quilt_frame_->clear();
    local_error_.reset();
    lose_frame(date, e);
    throw;
  }
  if (local_error_) {
    writer_->report_error(*local_error_);
    local_error_.reset();
  }
  for (std::size_t i = 0; i < variables_.size(); ++i) {
    const Variable& v = variables_[i];
    try {
      // The buffer is the server's memory box (its patch); k over the model's grid or the
      // named dimension; the part the server holds is nwpio's write box of that staggering.
      Box memory = memory_;
      Box write = decomposition_->write_box(v.spec.stagger);
      const FieldCall& t = v.geometry;
      if (t.position(kAxisK) >= 0) {
        if (!t.vertical_dim.empty()) {
          memory.lo[kAxisK] = write.lo[kAxisK] = 0;
          memory.hi[kAxisK] = write.hi[kAxisK] = t.global_length(t.position(kAxisK));
        }
      } else {
        memory.lo[kAxisK] = write.lo[kAxisK] = 0;
        memory.hi[kAxisK] = write.hi[kAxisK] = 1;
      }
      if (!t.decomposed()) {
        memory.lo[kAxisI] = memory.lo[kAxisJ] = write.lo[kAxisI] = write.lo[kAxisJ] = 0;
        memory.hi[kAxisI] = memory.hi[kAxisJ] = write.hi[kAxisI] = write.hi[kAxisJ] = 1;
        if (t.position(kAxisK) >= 0 && t.vertical_dim.empty()) write.hi[kAxisK] = t.global_length(t.position(kAxisK));
      }
      ArrayView array;
      array.type = v.spec.type;
      array.data = quilt_frame_->assemble(static_cast<int>(i), memory, write);
      writer_->put(v.spec.name, array);  // the staging stays until end_frame: no copy needed
    } catch (const Error& e) {
      writer_->report_error(e);
    }
  }
  quilt_frame_->clear();
  try {
    writer_->end_frame();
    ++frames_written_;
  } catch (const Error& e) {
    lose_frame(date, e);
    throw;
  }
}

void WriteStream::sync() {
  const std::string date = protocol_.frame_date();
  if (protocol_.sync()) flush_quilt_frame(date);
}

void WriteStream::close() {
  if (protocol_.phase() == WriteProtocol::Phase::Training) (void)protocol_.close();  // kDryRunClose
  const std::string date = protocol_.frame_date();
  std::optional<WrfError> failure;
  try {
    if (protocol_.close()) {
      if (quilt_server_) {
        flush_quilt_frame(date);
      } else {
        finish_frame();  // missing variables are named in the error, on every rank
      }
    }
  } catch (const Error& e) {
    failure = as_wrf_error(e);
  }
  if (writer_) {
    if (frames_lost_ > 0 && frames_written_ > 0) {
      detail::close_keeping_temporary(*writer_);  // a file that lost a frame gets no final name
    } else {
      writer_->close();  // (a file without a written frame is removed)
    }
  }
  if (failure) throw *failure;
  if (protocol_.phase() == WriteProtocol::Phase::Failed) (void)protocol_.field(date);  // says so, quietly
  if (frames_lost_ > 0) {
    throw WrfError(wrf_status::kBadFileStatus, ErrorKind::State,
                   std::to_string(frames_lost_) + " frame(s) of this file failed (the first: " + first_loss_ + "); " +
                       (frames_written_ > 0 ? "the file keeps its temporary name, with the " +
                                                  std::to_string(frames_written_) + " frame(s) written"
                                            : std::string("nothing was written")));
  }
}

}  // namespace nwpio::wrfio
