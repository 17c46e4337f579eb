// C API entry points that adjust a stream's options after nwpio_open (before the first frame):
// the hint report level. Kept apart from capi_stream.cpp (the stream's definition calls).
#include <string>

#include "capi/capi_error.hpp"
#include "capi/capi_stream.hpp"
#include "hints/hints_merge.hpp"
#include "nwpio/nwpio.h"

extern "C" {

int nwpio_set_hint_report(nwpio_stream* stream, const char* level) {
  return nwpio::capi::guard("nwpio_set_hint_report", [&] {
    using nwpio::Error;
    using nwpio::ErrorKind;
    nwpio_stream& s = nwpio::capi::stream_ref(stream);
    if (level == nullptr) throw Error(ErrorKind::InvalidArgument, "hint report level is NULL");
    if (s.writer) {
      throw Error(ErrorKind::State, "nwpio_set_hint_report after the first nwpio_begin_frame: the report is set");
    }
    try {
      s.builder->set_hint_report(nwpio::detail::hints::parse_hint_report(level, ""));  // guard names the call
    } catch (const Error& e) {
      throw Error(ErrorKind::InvalidArgument, e.what());
    }
  });
}

}  // extern "C"
