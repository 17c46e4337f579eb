// libFuzzer target: the iofields reader (WRF's iofields_filename format). The bytes are a whole
// iofields file applied to a small WRF-like schema, once with unknown names as warnings and once
// as errors (ignore_iofields_warning). Bad input must end in nwpio::Error(Config) and leave the
// schema unchanged; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "config/iofields.hpp"
#include "nwpio/error.hpp"
#include "nwpio/schema.hpp"

namespace {

nwpio::VarSpec var(const char* name, nwpio::MemoryOrder order, nwpio::Stagger stagger = nwpio::Stagger::None) {
  nwpio::VarSpec v;
  v.name = name;
  v.memory_order = order;
  v.stagger = stagger;
  return v;
}

nwpio::Schema make_schema() {
  using nwpio::MemoryOrder;
  using nwpio::Stagger;
  nwpio::Schema s;
  s.add_dimension("DateStrLen", 19);
  nwpio::VarSpec times = var("Times", MemoryOrder::Z);
  times.type = nwpio::DataType::Char;
  times.vertical_dim = "DateStrLen";
  s.add_variable(times);
  s.add_variable(var("U", MemoryOrder::XZY, Stagger::X));
  s.add_variable(var("V", MemoryOrder::XZY, Stagger::Y));
  s.add_variable(var("W", MemoryOrder::XZY, Stagger::Z));
  s.add_variable(var("T", MemoryOrder::XZY));
  s.add_variable(var("PH", MemoryOrder::XZY, Stagger::Z));
  s.add_variable(var("RAINC", MemoryOrder::XY));
  s.add_variable(var("RAINNC", MemoryOrder::XY));
  s.add_variable(var("rainc", MemoryOrder::XY));  // differs from RAINC only in case
  s.add_variable(var("ZNU", MemoryOrder::Z));
  s.add_variable(var("P_TOP", MemoryOrder::Scalar));
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const nwpio::Schema original = make_schema();
  for (bool ignore_warnings : {true, false}) {
    nwpio::Schema schema = original;
    try {
      const auto result = nwpio::detail::apply_iofields_text(schema, text, "fuzz.iofields", ignore_warnings);
      // What was removed is gone, everything else is still there.
      if (schema.variables().size() + result.removed.size() != original.variables().size()) std::abort();
      for (const auto& name : result.removed) {
        if (schema.find(name) != nullptr || original.find(name) == nullptr) std::abort();
      }
    } catch (const nwpio::Error& e) {
      if (e.kind() != nwpio::ErrorKind::Config) std::abort();
      if (schema.variables().size() != original.variables().size()) std::abort();  // unchanged on error
    }
  }
  return 0;
}
