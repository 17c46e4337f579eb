#include "core/enum_text.hpp"

#include <array>
#include <cctype>
#include <string>
#include <utility>

#include "nwpio/error.hpp"

namespace nwpio::detail {

namespace {

// Upper case without surrounding blanks; "?" for a text longer than every spelling, so that a
// long argument is never copied (the error message shows its beginning).
std::string normalised(std::string_view text) {
  const std::size_t b = text.find_first_not_of(' ');
  if (b == std::string_view::npos) return {};
  text = text.substr(b, text.find_last_not_of(' ') - b + 1);
  if (text.size() > 3) return "?";
  std::string s(text);
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

constexpr std::array<std::pair<std::string_view, MemoryOrder>, 6> kOrders{{{"XZY", MemoryOrder::XZY},
                                                                          {"XYZ", MemoryOrder::XYZ},
                                                                          {"XY", MemoryOrder::XY},
                                                                          {"Z", MemoryOrder::Z},
                                                                          {"C", MemoryOrder::Z},
                                                                          {"0", MemoryOrder::Scalar}}};
constexpr std::array<std::pair<std::string_view, Stagger>, 6> kStaggers{{{"", Stagger::None},
                                                                        {"X", Stagger::X},
                                                                        {"Y", Stagger::Y},
                                                                        {"Z", Stagger::Z},
                                                                        {"XY", Stagger::XY},
                                                                        {"YX", Stagger::XY}}};

std::string rejected(std::string_view what, std::string_view text, std::string_view choices) {
  constexpr std::size_t kShown = 40;  // a garbage argument is named, not reprinted whole
  std::string shown(text.substr(0, kShown));
  if (text.size() > kShown) shown += "...";
  std::string m(what);
  m.append(" '").append(shown).append("' is not one of ").append(choices);
  return m;
}

}  // namespace

std::optional<MemoryOrder> memory_order_from_text(std::string_view text) {
  const std::string s = normalised(text);
  for (const auto& [spelling, order] : kOrders) {
    if (s == spelling) return order;
  }
  return std::nullopt;
}

std::optional<Stagger> stagger_from_text(std::string_view text) {
  const std::string s = normalised(text);
  for (const auto& [spelling, stagger] : kStaggers) {
    if (s == spelling) return stagger;
  }
  return std::nullopt;
}

std::string_view memory_order_choices() noexcept { return "'XZY', 'XYZ', 'XY', 'Z', 'C', '0'"; }
std::string_view stagger_choices() noexcept { return "'', 'X', 'Y', 'Z', 'XY'"; }

MemoryOrder parse_memory_order(std::string_view text, std::string_view what) {
  if (const auto order = memory_order_from_text(text)) return *order;
  throw Error(ErrorKind::InvalidArgument, rejected(what, text, memory_order_choices()));
}

Stagger parse_stagger(std::string_view text, std::string_view what) {
  if (const auto stagger = stagger_from_text(text)) return *stagger;
  throw Error(ErrorKind::InvalidArgument, rejected(what, text, stagger_choices()));
}

}  // namespace nwpio::detail
