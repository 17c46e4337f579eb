// C API (L4): nwpio_write, an array from C or Fortran handed to Writer::put with its kind and
// extents; the Writer checks them against the declaration (and raises a failure at
// nwpio_end_frame on every rank). Scalars are copied on put: a Fortran scalar may be an
// expression whose temporary dies at return.
#include <string>
#include <vector>

#include "capi/capi_error.hpp"
#include "capi/capi_stream.hpp"
#include "nwpio/nwpio.h"

extern "C" int nwpio_write(nwpio_stream* stream, const char* name, const void* data, int kind, int ndims,
                           const int* lbound, const int* ubound) {
  using namespace nwpio;
  return capi::guard("nwpio_write", [&] {
    nwpio_stream& s = capi::stream_ref(stream);
    Writer& w = capi::writer_of(s, "");
    ArrayView array;
    std::string n;
    try {  // what only C can get wrong: the failure still fails the frame everywhere
      n = capi::checked_name(name, "variable");
      array.data = data;
      array.type = capi::parse_kind(kind);
      if (ndims < 0 || (ndims > 0 && (lbound == nullptr || ubound == nullptr))) {
        throw Error(ErrorKind::InvalidArgument, "variable " + n + ": array bounds (lbound/ubound) are NULL");
      }
      array.extents.emplace();
      for (int d = 0; d < ndims; ++d) array.extents->push_back(std::int64_t{ubound[d]} - lbound[d] + 1);
      array.copy = ndims == 0;
    } catch (const Error& e) {
      w.report_error(Error(e.kind(), "nwpio_write: " + std::string(e.what())));
      throw;
    }
    w.put(n, array);
  });
}
