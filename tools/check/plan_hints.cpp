#include "plan_hints.hpp"

#include "hints/hints_settings.hpp"

namespace nwpio::check {

namespace {

std::int64_t concrete_or_zero(const std::map<std::string, detail::hints::Setting>& s, const std::string& name) {
  const auto it = s.find(name);
  if (it == s.end() || !detail::hints::is_concrete(it->second.value)) return 0;
  return detail::hints::as_int(it->second.value);
}

}  // namespace

HintView plan_hints(const DomainInputs& d, std::int64_t expected_file_bytes, bool contiguous_writers, int nodes) {
  using namespace detail::hints;
  Resolved r = merge_levels(d.options.hints, Environment::from_process());
  derive(r, expected_file_bytes, contiguous_writers, nodes);
  HintView v;
  v.settings = r.settings;
  v.warnings = r.warnings;
  v.stripe_count = static_cast<int>(concrete_or_zero(r.settings, "stripe_count"));
  v.stripe_size = concrete_or_zero(r.settings, "stripe_size");
  v.aggregators = static_cast<int>(concrete_or_zero(r.settings, "aggregators"));
  v.cb_buffer_size = concrete_or_zero(r.settings, "cb_buffer_size");
  const auto cw = r.settings.find("collective_write");
  // "default" leaves MPI-IO's own choice, which is collective buffering on for collective writes.
  v.collective_write = cw == r.settings.end() || cw->second.value != "false";
  return v;
}

}  // namespace nwpio::check
