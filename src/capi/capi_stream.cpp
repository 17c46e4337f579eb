// C API (L4): a history stream's life cycle, from open to close, as a thin translation onto
// StreamBuilder and Writer. Each entry point runs its body in capi::guard, which turns every
// exception into a status code and keeps the full message.
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "capi/capi_error.hpp"
#include "capi/capi_servers.hpp"
#include "capi/capi_stream.hpp"
#include "core/enum_text.hpp"
#include "nwpio/nwpio.h"
#include "nwpio/wrf_conventions.hpp"

namespace nwpio::capi {

nwpio_stream& stream_ref(nwpio_stream* stream) {
  if (stream == nullptr) throw Error(ErrorKind::InvalidArgument, "stream is NULL (not opened, or already closed)");
  return *stream;
}

const nwpio_stream& stream_ref(const nwpio_stream* stream) {
  if (stream == nullptr) throw Error(ErrorKind::InvalidArgument, "stream is NULL (not opened, or already closed)");
  return *stream;
}

Writer& writer_of(nwpio_stream& s, std::string_view what) {
  if (!s.writer) throw Error(ErrorKind::State, std::string(what) + "no frame open: call nwpio_begin_frame first");
  return *s.writer;
}

DataType parse_kind(int kind) {
  switch (kind) {
    case NWPIO_REAL4: return DataType::Float;
    case NWPIO_REAL8: return DataType::Double;
    case NWPIO_INT4: return DataType::Int;
    default:
      throw Error(ErrorKind::InvalidArgument, "kind " + std::to_string(kind) +
                                                  " is not NWPIO_REAL4 (1), NWPIO_REAL8 (2) or NWPIO_INT4 (3)");
  }
}

namespace {

StreamBuilder& defining(nwpio_stream& s, std::string_view what) {
  if (s.writer) {
    throw Error(ErrorKind::State, std::string(what) + " after the first nwpio_begin_frame: definitions are closed");
  }
  return *s.builder;
}

int open_stream(nwpio_stream** out, MPI_Comm comm, const char* namelist_file, int domain_id, const char* output_dir) {
  if (out != nullptr) *out = nullptr;
  return guard("nwpio_open", [&] {
    if (out == nullptr) throw Error(ErrorKind::InvalidArgument, "stream pointer is NULL");
    if (comm == MPI_COMM_NULL) throw Error(ErrorKind::InvalidArgument, "communicator is MPI_COMM_NULL");
    if (namelist_file == nullptr) throw Error(ErrorKind::InvalidArgument, "namelist file name is NULL");
    OutputOptions options = OutputOptions::from_namelist(namelist_file, domain_id, comm);
    const std::string dir = optional_text(output_dir);
    if (!dir.empty()) options.output_dir = dir;
    auto s = std::make_unique<nwpio_stream>();
    s->user_comm = comm;
    // Opened on the compute communicator of running I/O servers: they write the stream.
    if (const IoServers* servers = servers_for(comm)) {
      s->builder.emplace(comm, std::move(options), *servers);
    } else {
      s->builder.emplace(comm, std::move(options));  // configuration resolved: errors now, on every rank
    }
    *out = s.release();
  });
}

template <class T>
int put_att(nwpio_stream* stream, const char* name, const T* values, int count) {
  return guard("nwpio_put_global_att", [&] {
    nwpio_stream& s = stream_ref(stream);
    std::string n = checked_name(name, "attribute");
    StreamBuilder& b = defining(s, "nwpio_put_global_att(" + n + ")");
    if (count < 1 || values == nullptr) throw Error(ErrorKind::InvalidArgument, "attribute " + n + ": needs at least one value");
    b.set_global_attribute(Attribute{n, std::vector<T>(values, values + count)});
  });
}

}  // namespace
}  // namespace nwpio::capi

using namespace nwpio;
using nwpio::capi::guard;

extern "C" {

int nwpio_open(nwpio_stream** stream, MPI_Comm comm, const char* namelist_file, int domain_id,
               const char* output_dir) {
  return capi::open_stream(stream, comm, namelist_file, domain_id, output_dir);
}

int nwpio_open_f(nwpio_stream** stream, MPI_Fint comm, const char* namelist_file, int domain_id,
                 const char* output_dir) {
  return capi::open_stream(stream, MPI_Comm_f2c(comm), namelist_file, domain_id, output_dir);
}

int nwpio_set_domain(nwpio_stream* stream, int ids, int ide, int jds, int jde, int kds, int kde, int ims, int ime,
                     int jms, int jme, int kms, int kme, int ips, int ipe, int jps, int jpe, int kps, int kpe) {
  return guard("nwpio_set_domain", [&] {
    nwpio_stream& s = capi::stream_ref(stream);
    StreamBuilder& b = capi::defining(s, "nwpio_set_domain");
    const WrfBounds w{ids, ide, jds, jde, kds, kde, ims, ime, jms, jme, kms, kme, ips, ipe, jps, jpe, kps, kpe};
    b.set_domain(Decomposition::from_wrf(s.user_comm, w));  // the one 1-based -> 0-based conversion
  });
}

int nwpio_def_dim(nwpio_stream* stream, const char* name, int64_t length) {
  return guard("nwpio_def_dim", [&] {
    nwpio_stream& s = capi::stream_ref(stream);
    std::string n = capi::checked_name(name, "dimension");
    capi::defining(s, "nwpio_def_dim(" + n + ")").add_dimension(n, length);
  });
}

int nwpio_def_var_dim(nwpio_stream* stream, const char* name, int kind, const char* memory_order,
                      const char* stagger, const char* description, const char* units, const char* vertical_dim) {
  return guard("nwpio_def_var", [&] {
    nwpio_stream& s = capi::stream_ref(stream);
    std::string n = capi::checked_name(name, "variable");
    try {
      StreamBuilder& b = capi::defining(s, "nwpio_def_var");
      std::string vdim = capi::optional_text(vertical_dim);
      if (!vdim.empty()) vdim = capi::checked_name(vertical_dim, "vertical dimension");
      const MemoryOrder order = detail::parse_memory_order(capi::optional_text(memory_order));
      const Stagger stag = detail::parse_stagger(capi::optional_text(stagger));
      b.add_variable(wrf::variable(n, capi::parse_kind(kind), order, stag, capi::optional_text(description),
                                   capi::optional_text(units), vdim));
    } catch (const Error& e) {
      throw Error(e.kind(), "variable " + n + ": " + e.what());
    }
  });
}

int nwpio_def_var(nwpio_stream* stream, const char* name, int kind, const char* memory_order, const char* stagger,
                  const char* description, const char* units) {
  return nwpio_def_var_dim(stream, name, kind, memory_order, stagger, description, units, nullptr);
}

int nwpio_put_global_att_int(nwpio_stream* stream, const char* name, const int32_t* values, int count) {
  return capi::put_att(stream, name, values, count);
}
int nwpio_put_global_att_float(nwpio_stream* stream, const char* name, const float* values, int count) {
  return capi::put_att(stream, name, values, count);
}
int nwpio_put_global_att_double(nwpio_stream* stream, const char* name, const double* values, int count) {
  return capi::put_att(stream, name, values, count);
}
int nwpio_put_global_att_text(nwpio_stream* stream, const char* name, const char* text) {
  return guard("nwpio_put_global_att", [&] {
    nwpio_stream& s = capi::stream_ref(stream);
    std::string n = capi::checked_name(name, "attribute");
    capi::defining(s, "nwpio_put_global_att(" + n + ")").set_global_attribute(Attribute{n, capi::optional_text(text)});
  });
}

int nwpio_output_due(const nwpio_stream* stream, const char* date, int* due) {
  if (due != nullptr) *due = 0;
  return guard("nwpio_output_due", [&] {
    const nwpio_stream& s = capi::stream_ref(stream);
    if (due == nullptr) throw Error(ErrorKind::InvalidArgument, "due is NULL");
    *due = s.builder->output_due(capi::checked_date(date)) ? 1 : 0;
  });
}

int nwpio_begin_frame(nwpio_stream* stream, const char* date) {
  return guard("nwpio_begin_frame", [&] {
    nwpio_stream& s = capi::stream_ref(stream);
    if (!s.writer) {
      // The first frame ends the definitions: WRF's grid attributes, then the collective build.
      if (s.builder->has_domain()) s.builder->set_wrf_grid_attributes();
      s.writer = std::make_unique<Writer>(s.builder->build());
    }
    s.writer->begin_frame(capi::checked_date(date));
  });
}

int nwpio_end_frame(nwpio_stream* stream) {
  return guard("nwpio_end_frame", [&] {
    nwpio_stream& s = capi::stream_ref(stream);
    capi::writer_of(s, "nwpio_end_frame: ").end_frame();
  });
}

int nwpio_close(nwpio_stream** stream) {
  return guard("nwpio_close", [&] {
    if (stream == nullptr || *stream == nullptr) {
      throw Error(ErrorKind::InvalidArgument, "stream is NULL (not opened, or already closed)");
    }
    std::unique_ptr<nwpio_stream> s(*stream);
    *stream = nullptr;
    if (s->writer) s->writer->close();
  });
}

int nwpio_report_error(nwpio_stream* stream, int status, const char* message) {
  const std::string text = capi::optional_text(message);
  ErrorKind kind = ErrorKind::InvalidArgument;
  for (int k = 0; k <= static_cast<int>(ErrorKind::Internal); ++k) {
    if (capi::status_of(static_cast<ErrorKind>(k)) == status) kind = static_cast<ErrorKind>(k);
  }
  if (stream != nullptr && stream->writer) stream->writer->report_error(Error(kind, text));
  capi::record_error(kind, text);
  return status;
}

void nwpio_abort(const nwpio_stream* stream, int code) {
  std::fprintf(stderr, "nwpio: %s\n", nwpio_last_error());
  std::fflush(stderr);
  std::fflush(stdout);
  // The launcher forwards each rank's output asynchronously, and an abort kills the forwarders
  // (MPICH's Hydra drops what it has not yet passed on): without a pause the run can end with
  // the one message that says why it ended lost. A second is nothing on a fatal path.
  std::this_thread::sleep_for(std::chrono::seconds(1));
  MPI_Comm comm = stream != nullptr && stream->user_comm != MPI_COMM_NULL ? stream->user_comm : MPI_COMM_WORLD;
  MPI_Abort(comm, code != 0 ? code : 1);
}

}  // extern "C"
