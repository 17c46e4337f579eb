// libFuzzer target: the argument translation of WRF's I/O package (src/wrfio), without MPI: what
// write_field / read_field and the put_*_ti calls receive at the C boundary (Fortran strings as
// bytes and lengths, bounds as integers) through fortran_args and parse_field_call, and a file's
// call order through WriteProtocol. The input is text, '|'-separated:
//   W|var|date|order|stagger|dimnames|n n n ...   write_field (R: read_field); dimnames: three
//                                                 names of equal length, concatenated; the
//                                                 numbers: FieldType DomainDesc DS(3) DE(3)
//                                                 MS(3) ME(3) PS(3) PE(3); missing fields keep a
//                                                 good call's value
//   A|owner|name|kind|count|bytes                  put_dom_ti (owner empty) / put_var_ti
//   P|ops                                          a call sequence: t training call, c/q commit
//                                                  (q: an I/O server) of as many variables as
//                                                  training calls, 1/2 a field dated D1/D2, b a
//                                                  bad date, s iosync, x ioclose, f a failure
// Bad input must end in WrfError with a WRF status; what is accepted must be what the rest of
// nwpio accepts (names the Schema takes, bounds that nest, sizes that fit): anything else aborts.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "nwpio/error.hpp"
#include "nwpio/schema.hpp"
#include "nwpio/wrf_date.hpp"
#include "wrfio/field_call.hpp"
#include "wrfio/fortran_args.hpp"
#include "wrfio/wrf_status.hpp"
#include "wrfio/write_protocol.hpp"

namespace {

using namespace nwpio;
using namespace nwpio::wrfio;

std::vector<std::string_view> fields_of(std::string_view text) {
  std::vector<std::string_view> f;
  std::size_t pos = 0;
  while (true) {
    const std::size_t bar = text.find('|', pos);
    f.push_back(text.substr(pos, bar == std::string_view::npos ? std::string_view::npos : bar - pos));
    if (bar == std::string_view::npos) return f;
    pos = bar + 1;
  }
}

// Whole numbers from text, saturated to int (what a Fortran INTEGER can hold).
std::vector<int> numbers_of(std::string_view text) {
  std::vector<int> n;
  std::size_t i = 0;
  while (i < text.size() && n.size() < 20) {
    while (i < text.size() && text[i] == ' ') ++i;
    bool negative = false;
    if (i < text.size() && text[i] == '-') negative = true, ++i;
    std::int64_t v = 0;
    bool any = false;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      v = std::min<std::int64_t>(v * 10 + (text[i] - '0'), std::int64_t{1} << 40);
      ++i;
      any = true;
    }
    if (!any) {
      ++i;
      continue;
    }
    v = negative ? -v : v;
    n.push_back(static_cast<int>(std::max<std::int64_t>(INT32_MIN, std::min<std::int64_t>(INT32_MAX, v))));
  }
  return n;
}

bool is_wrf_status(int s) { return s < 0 && s >= -1025; }

void expect(bool ok) {
  if (!ok) std::abort();
}

void check_rejection(const WrfError& e) {
  expect(is_wrf_status(e.wrf_status()));
  expect(std::string_view(e.what()).size() > 0);
}

void field_call(const std::vector<std::string_view>& f, bool reading) {
  // A good call (T of a 13 x 10 x 5 grid, this rank's patch with a halo) unless the input says otherwise.
  std::string var = "T", date = "2001-01-01_00:00:00", order = "XZY", stagger = "";
  std::string dims = "west_east  bottom_top south_north";
  int v[20] = {104, 0, 1, 1, 1, 13, 10, 5, -2, 1, 0, 10, 10, 8, 1, 1, 3, 7, 10, 5};
  if (f.size() > 1) var = std::string(f[1]);
  if (f.size() > 2) date = std::string(f[2]);
  if (f.size() > 3) order = std::string(f[3]);
  if (f.size() > 4) stagger = std::string(f[4]);
  if (f.size() > 5) dims = std::string(f[5]);
  if (f.size() > 6) {
    const std::vector<int> n = numbers_of(f[6]);
    for (std::size_t i = 0; i < n.size(); ++i) v[i] = n[i];
  }
  const int dim_len = static_cast<int>(dims.size() / 3);
  RawFieldArgs args = field_args({date.data(), static_cast<int>(date.size())}, {var.data(), static_cast<int>(var.size())},
                                 v[0], v[1], {order.data(), static_cast<int>(order.size())},
                                 {stagger.data(), static_cast<int>(stagger.size())}, dims.data(), dim_len,
                                 {v + 2, v + 5, v + 8, v + 11, v + 14, v + 17});
  args.reading = reading;
  FieldCall c;
  try {
    c = parse_field_call(args);
  } catch (const WrfError& e) {
    return check_rejection(e);
  }
  // What was accepted is what the rest of nwpio accepts and can size.
  expect(wrf::is_valid_date(c.date));
  expect(c.ndim >= 0 && c.ndim <= 3);
  for (int p = 0; p < c.ndim; ++p) {
    expect(c.domain_start[p] >= 1 && c.domain_start[p] <= c.patch_start[p]);
    expect(c.patch_start[p] <= c.patch_end[p] && c.patch_end[p] <= c.domain_end[p]);
    expect(c.memory_start[p] <= c.patch_start[p] && c.patch_end[p] <= c.memory_end[p]);
  }
  const std::int64_t n = c.memory_elements();
  expect(n >= 1 && n <= kMaxFieldElements);
  std::int64_t product = 1;
  for (std::int64_t e : c.memory_extents()) product *= e;
  expect(product == n);
  expect(c.memory_box().contains(c.patch_box()));
  expect(c.patch_box().volume() <= n);
  try {
    Schema s;
    if (!c.vertical_dim.empty()) s.add_dimension(c.vertical_dim, 1);
    VarSpec spec;
    spec.name = c.name;
    spec.memory_order = c.order;
    s.add_variable(spec);
  } catch (const Error&) {
    std::abort();  // a name the package took but the file's schema refuses
  }
}

void attribute_call(const std::vector<std::string_view>& f) {
  const std::string owner(f.size() > 1 ? f[1] : "");
  const std::string name(f.size() > 2 ? f[2] : "DX");
  const std::vector<int> kc = numbers_of(f.size() > 3 ? f[3] : "2");
  const std::vector<int> cn = numbers_of(f.size() > 4 ? f[4] : "1");
  const std::string payload(f.size() > 5 ? f[5] : "abcdefgh");
  const int kind = kc.empty() ? 2 : kc[0];
  int count = cn.empty() ? 1 : cn[0];
  // The caller guarantees `count` values: never more than the payload holds.
  const int size = kind == 0 ? 1 : kind == 3 ? 8 : 4;
  count = std::min(count, static_cast<int>(payload.size()) / size);
  std::vector<double> aligned(payload.size() / sizeof(double) + 1);
  std::memcpy(aligned.data(), payload.data(), payload.size());
  Attribute a;
  try {
    a = attribute_args(owner, name, kind, aligned.data(), count);
  } catch (const WrfError& e) {
    return check_rejection(e);
  }
  try {
    Schema s;
    s.set_global_attribute(a);
  } catch (const Error&) {
    std::abort();  // a name the package took but the file's schema refuses
  }
}

void protocol_calls(std::string_view ops) {
  WriteProtocol p;
  std::size_t trained = 0;
  for (char op : ops.substr(0, 200)) {
    const bool open_before = p.frame_open();
    const WriteProtocol::Phase phase = p.phase();
    try {
      switch (op) {
        case 't': {
          const WriteProtocol::Steps s = p.field("2001-01-01_00:00:00");
          expect(phase == WriteProtocol::Phase::Training ? s.define : !s.define);
          trained += s.define ? 1 : 0;
          break;
        }
        case 'c':
        case 'q':
          p.commit(trained, op == 'q');
          expect(phase == WriteProtocol::Phase::Training && !p.frame_open());
          break;
        case '1':
        case '2':
        case 'b': {
          const char* date = op == '1' ? "2001-01-01_00:00:00" : op == '2' ? "2001-01-01_00:05:00" : "2001-13-99";
          const WriteProtocol::Steps s = p.field(date);
          if (phase == WriteProtocol::Phase::Training) break;
          expect(phase == WriteProtocol::Phase::Frames);
          expect(!s.end_before || open_before);         // only an open frame ends
          expect(s.begin == (!open_before || s.end_before));  // a frame begins when none is open
          expect(p.frame_open() == !s.end_after);
          break;
        }
        case 's':
          expect(!p.sync() || open_before);
          break;
        case 'x':
          expect(!p.close() || open_before);
          expect(!p.frame_open());
          break;
        case 'f':
          p.fail("fuzz");
          expect(p.phase() == WriteProtocol::Phase::Failed && !p.frame_open());
          break;
        default:
          break;
      }
    } catch (const WrfError& e) {
      check_rejection(e);
      expect(p.frame_open() == open_before && p.phase() == phase);  // a refused call changes nothing
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string_view> f = fields_of(text);
  if (f[0] == "W" || f[0] == "R") {
    field_call(f, f[0] == "R");
  } else if (f[0] == "A") {
    attribute_call(f);
  } else if (f[0] == "P" && f.size() > 1) {
    protocol_calls(f[1]);
  }
  return 0;
}
