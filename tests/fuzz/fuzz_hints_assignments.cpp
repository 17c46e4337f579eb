// libFuzzer target: single hint settings "key=value;key=value" (NWPIO_HINTS, &nwpio hints) and
// the value syntax of every logical setting (counts, sizes with suffixes, switches). Bad input
// must end in std::invalid_argument (HintSession turns it into Error(Config) naming the source).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "hints/hints_settings.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace h = nwpio::detail::hints;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    for (const auto& [key, value] : h::parse_assignments(text)) {
      if (const h::SettingSpec* spec = h::find_spec(key)) {
        try {
          const std::string canonical = h::canonical_value(*spec, value);
          if (h::is_concrete(canonical) && spec->kind != h::Kind::Switch) (void)h::as_int(canonical);
        } catch (const std::invalid_argument&) {
        }
      } else {
        (void)h::nearest(key, h::setting_names());
      }
    }
  } catch (const std::invalid_argument&) {
  }
  // The value alone, as each kind of setting.
  for (const auto& spec : h::setting_specs()) {
    try {
      (void)h::canonical_value(spec, text);
    } catch (const std::invalid_argument&) {
    }
  }
  return 0;
}
