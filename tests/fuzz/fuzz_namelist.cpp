// libFuzzer target: the namelist.input reader. The bytes are a whole namelist file; it is parsed
// (lexer + parser) and then interpreted the way nwpio-demo and OutputOptions::from_namelist do
// (&time_control, &domains, &nwpio for domains 1-3). A malformed file must end in
// nwpio::Error(Config) (or InvalidArgument for a bad domain id); anything else -- a crash, a
// sanitizer report, another exception type, a hang, unbounded memory -- is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "config/namelist_parser.hpp"
#include "config/namelist_settings.hpp"
#include "model_settings_from.hpp"
#include "nwpio/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  nwpio::detail::Namelist nl;
  try {
    nl = nwpio::detail::Namelist::parse(text, "fuzz.namelist");
  } catch (const nwpio::Error&) {
    return 0;  // a clear error with file:line:column is the expected outcome for bad input
  }
  for (int domain = 1; domain <= 3; ++domain) {
    try {
      (void)nwpio::detail::output_options_from(nl, domain);
    } catch (const nwpio::Error&) {
    }
    try {
      (void)nwpio::detail::model_settings_from(nl, domain);
    } catch (const nwpio::Error&) {
    }
  }
  return 0;
}
