// C API (L4): a history stream's life cycle, from open to close. Each entry point runs its body
// in capi::guard, which turns every exception into a status code and keeps the full message.
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "capi/capi_error.hpp"
#include "capi/capi_stream.hpp"
#include "nwpio/nwpio.h"
#include "nwpio/wrf_conventions.hpp"
#include "util/agree.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::capi {

nwpio_stream& stream_ref(nwpio_stream* stream) {
  if (stream == nullptr) throw Error(ErrorKind::InvalidArgument, "stream is NULL (not opened, or already closed)");
  return *stream;
}

const nwpio_stream& stream_ref(const nwpio_stream* stream) {
  if (stream == nullptr) throw Error(ErrorKind::InvalidArgument, "stream is NULL (not opened, or already closed)");
  return *stream;
}

namespace {

std::string trimmed_upper(const char* text) {
  std::string s = text ? text : "";
  while (!s.empty() && s.back() == ' ') s.pop_back();
  std::size_t b = s.find_first_not_of(' ');
  s = b == std::string::npos ? std::string() : s.substr(b);
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
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

MemoryOrder parse_order(const char* text) {
  const std::string s = trimmed_upper(text);
  if (s == "XZY") return MemoryOrder::XZY;
  if (s == "XYZ") return MemoryOrder::XYZ;
  if (s == "XY") return MemoryOrder::XY;
  if (s == "Z") return MemoryOrder::Z;
  if (s == "0") return MemoryOrder::Scalar;
  throw Error(ErrorKind::InvalidArgument,
              "memory order '" + optional_text(text) + "' is not one of 'XZY', 'XYZ', 'XY', 'Z', '0'");
}

Stagger parse_stagger(const char* text) {
  const std::string s = trimmed_upper(text);
  if (s.empty()) return Stagger::None;
  if (s == "X") return Stagger::X;
  if (s == "Y") return Stagger::Y;
  if (s == "Z") return Stagger::Z;
  throw Error(ErrorKind::InvalidArgument, "stagger '" + optional_text(text) + "' is not one of '', 'X', 'Y', 'Z'");
}

void require_defining(const nwpio_stream& s, std::string_view what) {
  if (s.writer) {
    throw Error(ErrorKind::State, std::string(what) + " after the first nwpio_begin_frame: definitions are closed");
  }
}

// Every rank must have defined the same variables before the Writer is built from them; a
// rank whose definition failed (and went on with ierr) would otherwise make the collective
// constructor disagree. One small allreduce, once per stream.
void agree_on_schema(MPI_Comm comm, const Schema& schema) {
  std::string names;
  for (const VarSpec& v : schema.variables()) names += v.name + '/' + std::string(to_string(v.type)) + ';';
  for (const DimSpec& d : schema.dimensions()) names += d.name + '=' + std::to_string(d.length) + ';';
  const auto h = static_cast<std::int64_t>(std::hash<std::string>{}(names) >> 2);
  std::int64_t in[2] = {h, -h}, out[2] = {0, 0};
  detail::mpi_check(MPI_Allreduce(in, out, 2, MPI_INT64_T, MPI_MAX, comm), "MPI_Allreduce(schema check)");
  if (out[0] != -out[1]) {
    throw Error(ErrorKind::Schema, "ranks defined different variables or dimensions (" +
                                       std::to_string(schema.variables().size()) +
                                       " variables on this rank); was a definition error ignored on some rank?");
  }
}

void create_writer(nwpio_stream& s) {
  detail::run_and_agree(s.comm, [&] {
    if (!s.decomposition) throw Error(ErrorKind::State, "nwpio_set_domain must come before the first nwpio_begin_frame");
  });
  agree_on_schema(s.comm, s.schema);
  Schema schema = s.schema;
  wrf::set_grid_attributes(schema, s.decomposition->domain());
  s.writer = std::make_unique<Writer>(*s.decomposition, std::move(schema), s.options);
}

int open_stream(nwpio_stream** out, MPI_Comm comm, const char* namelist_file, int domain_id, const char* output_dir) {
  if (out != nullptr) *out = nullptr;
  return guard("nwpio_open", [&] {
    if (out == nullptr) throw Error(ErrorKind::InvalidArgument, "stream pointer is NULL");
    if (comm == MPI_COMM_NULL) throw Error(ErrorKind::InvalidArgument, "communicator is MPI_COMM_NULL");
    if (namelist_file == nullptr) throw Error(ErrorKind::InvalidArgument, "namelist file name is NULL");
    auto s = std::make_unique<nwpio_stream>();
    s->user_comm = comm;
    detail::mpi_check(MPI_Comm_dup(comm, &s->comm), "MPI_Comm_dup(nwpio_open)");
    try {
      s->options = OutputOptions::from_namelist(namelist_file, domain_id, s->comm);
      const std::string dir = optional_text(output_dir);
      if (!dir.empty()) s->options.output_dir = dir;
    } catch (...) {
      MPI_Comm_free(&s->comm);
      throw;
    }
    *out = s.release();
  });
}

}  // namespace
}  // namespace nwpio::capi

namespace {
using namespace nwpio;

template <class T>
int put_att(nwpio_stream* stream, const char* name, const T* values, int count) {
  return capi::guard("nwpio_put_global_att", [&] {
    nwpio_stream& s = capi::stream_ref(stream);
    std::string n = capi::checked_name(name, "attribute");
    capi::require_defining(s, "nwpio_put_global_att(" + n + ")");
    if (count < 1 || values == nullptr) {
      throw Error(ErrorKind::InvalidArgument, "attribute " + n + ": needs at least one value");
    }
    s.schema.set_global_attribute(Attribute{n, std::vector<T>(values, values + count)});
  });
}

}  // namespace

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
    capi::require_defining(s, "nwpio_set_domain");
    const WrfBounds b{ids, ide, jds, jde, kds, kde, ims, ime, jms, jme, kms, kme, ips, ipe, jps, jpe, kps, kpe};
    s.decomposition = Decomposition::from_wrf(s.comm, b);  // the one 1-based -> 0-based conversion
  });
}

int nwpio_def_dim(nwpio_stream* stream, const char* name, int64_t length) {
  std::string where = "nwpio_def_dim";
  return guard(where, [&] {
    nwpio_stream& s = capi::stream_ref(stream);
    std::string n = capi::checked_name(name, "dimension");
    capi::require_defining(s, "nwpio_def_dim(" + n + ")");
    s.schema.add_dimension(n, length);
  });
}

int nwpio_def_var_dim(nwpio_stream* stream, const char* name, int kind, const char* memory_order,
                      const char* stagger, const char* description, const char* units, const char* vertical_dim) {
  return guard("nwpio_def_var", [&] {
    nwpio_stream& s = capi::stream_ref(stream);
    std::string n = capi::checked_name(name, "variable");
    try {
      capi::require_defining(s, "nwpio_def_var");
      std::string vdim = capi::optional_text(vertical_dim);
      if (!vdim.empty()) vdim = capi::checked_name(vertical_dim, "vertical dimension");
      s.schema.add_variable(wrf::variable(n, capi::parse_kind(kind), capi::parse_order(memory_order),
                                          capi::parse_stagger(stagger), capi::optional_text(description),
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
  return put_att(stream, name, values, count);
}
int nwpio_put_global_att_float(nwpio_stream* stream, const char* name, const float* values, int count) {
  return put_att(stream, name, values, count);
}
int nwpio_put_global_att_double(nwpio_stream* stream, const char* name, const double* values, int count) {
  return put_att(stream, name, values, count);
}
int nwpio_put_global_att_text(nwpio_stream* stream, const char* name, const char* text) {
  return guard("nwpio_put_global_att", [&] {
    nwpio_stream& s = capi::stream_ref(stream);
    std::string n = capi::checked_name(name, "attribute");
    capi::require_defining(s, "nwpio_put_global_att(" + n + ")");
    s.schema.set_global_attribute(Attribute{n, capi::optional_text(text)});
  });
}

int nwpio_output_due(const nwpio_stream* stream, const char* date, int* due) {
  if (due != nullptr) *due = 0;
  return guard("nwpio_output_due", [&] {
    const nwpio_stream& s = capi::stream_ref(stream);
    if (due == nullptr) throw Error(ErrorKind::InvalidArgument, "due is NULL");
    const std::string d = capi::checked_date(date);
    // One clock per stream, made at the first question (before the Writer exists): a clock
    // without a start_date takes the first date it is asked about as the start.
    if (!s.clock) s.clock.emplace(s.options);
    bool yes = s.clock->due(d);
    *due = yes ? 1 : 0;
  });
}

int nwpio_begin_frame(nwpio_stream* stream, const char* date) {
  return guard("nwpio_begin_frame", [&] {
    nwpio_stream& s = capi::stream_ref(stream);
    if (!s.writer) capi::create_writer(s);
    s.pending.reset();
    s.scalars.clear();
    s.writer->begin_frame(capi::checked_date(date));
    s.in_frame = true;
  });
}

int nwpio_end_frame(nwpio_stream* stream) {
  return guard("nwpio_end_frame", [&] {
    nwpio_stream& s = capi::stream_ref(stream);
    std::optional<Error> pending = std::move(s.pending);
    s.pending.reset();
    s.in_frame = false;
    if (!s.writer) {
      // Every rank gets here without a writer (creation is collective), so this stays local.
      throw Error(ErrorKind::State, "nwpio_end_frame without nwpio_begin_frame");
    }
    detail::agree(s.comm, pending);  // a bad nwpio_write on any rank fails the frame on all
    s.writer->end_frame();
  });
}

int nwpio_close(nwpio_stream** stream) {
  return guard("nwpio_close", [&] {
    if (stream == nullptr || *stream == nullptr) {
      throw Error(ErrorKind::InvalidArgument, "stream is NULL (not opened, or already closed)");
    }
    std::unique_ptr<nwpio_stream> s(*stream);
    *stream = nullptr;
    struct CommFree {
      MPI_Comm* c;
      ~CommFree() {
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (!finalized && *c != MPI_COMM_NULL) MPI_Comm_free(c);
      }
    };
    // Members go first (the Decomposition holds its own duplicate), then our communicator.
    CommFree free_comm{&s->comm};
    if (s->writer) s->writer->close();
    s->writer.reset();
    s->decomposition.reset();
  });
}

int nwpio_report_error(nwpio_stream* stream, int status, const char* message) {
  const std::string text = capi::optional_text(message);
  ErrorKind kind = ErrorKind::InvalidArgument;
  for (int k = 0; k <= static_cast<int>(ErrorKind::Internal); ++k) {
    if (capi::status_of(static_cast<ErrorKind>(k)) == status) kind = static_cast<ErrorKind>(k);
  }
  if (stream != nullptr && stream->in_frame && !stream->pending) stream->pending = Error(kind, text);
  capi::record_error(kind, text);
  return status;
}

void nwpio_abort(const nwpio_stream* stream, int code) {
  std::fprintf(stderr, "nwpio: %s\n", nwpio_last_error());
  std::fflush(stderr);
  MPI_Comm comm = stream != nullptr && stream->user_comm != MPI_COMM_NULL ? stream->user_comm : MPI_COMM_WORLD;
  MPI_Abort(comm, code != 0 ? code : 1);
}

}  // extern "C"
