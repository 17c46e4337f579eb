// iofields rules (WRF's run-time I/O field list) on a schema, from text (no MPI).
#include <gtest/gtest.h>

#include <functional>

#include "config/iofields.hpp"
#include "config/namelist_file.hpp"
#include "nwpio/error.hpp"

namespace nwpio::detail {
namespace {

Schema history_schema() {
  Schema s;
  for (const char* name : {"U", "V", "W", "PH", "PHB", "T", "P", "PB", "P_HYD", "QVAPOR", "QNICE", "QNRAIN"}) {
    VarSpec v;
    v.name = name;
    v.memory_order = MemoryOrder::XZY;
    if (std::string(name) == "U") v.stagger = Stagger::X;
    if (std::string(name) == "V") v.stagger = Stagger::Y;
    if (std::string(name) == "W" || std::string(name) == "PH" || std::string(name) == "PHB") v.stagger = Stagger::Z;
    s.add_variable(v);
  }
  for (const char* name : {"RAINC", "RAINNC", "SNOWNC", "GRAUPELNC", "T2", "Q2"}) {
    VarSpec v;
    v.name = name;
    v.memory_order = MemoryOrder::XY;
    s.add_variable(v);
  }
  return s;
}

std::vector<std::string> names(const Schema& s) {
  std::vector<std::string> out;
  for (const VarSpec& v : s.variables()) out.push_back(v.name);
  return out;
}

// The schema's names minus `removed`, in schema order: the expected result computed from the input.
std::vector<std::string> without(const Schema& s, const std::set<std::string>& removed) {
  std::vector<std::string> out;
  for (const VarSpec& v : s.variables()) {
    if (!removed.count(v.name)) out.push_back(v.name);
  }
  return out;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    return e.what();
  }
  return "no error";
}

TEST(Iofields, RemoveAndAddHistoryVariables) {
  Schema s = history_schema();
  const Schema original = s;
  const IofieldsResult r = apply_iofields_text(s, "-:h:0:W,PB\n+:h:0:RAINC,RAINNC\n", "f.txt", true);
  EXPECT_EQ(r.removed, (std::set<std::string>{"W", "PB"}));
  EXPECT_TRUE(r.messages.empty());
  EXPECT_EQ(names(s), without(original, r.removed));
  EXPECT_EQ(s.find("W"), nullptr);
  EXPECT_NE(s.find("RAINC"), nullptr);  // '+' of a schema variable: a no-op
}

TEST(Iofields, NamesAreCaseInsensitiveAndBlanksAllowed) {
  Schema s = history_schema();
  const IofieldsResult r = apply_iofields_text(s, " - : h : 0 : w , qnIce ,p_hyd,\n", "f.txt", true);
  EXPECT_EQ(r.removed, (std::set<std::string>{"W", "QNICE", "P_HYD"}));  // the schema's spelling
}

TEST(Iofields, PlusAfterMinusRestores) {
  Schema s = history_schema();
  const Schema original = s;
  const IofieldsResult r = apply_iofields_text(s, "-:h:0:W,PB,T2\n+:h:0:pb\n", "f.txt", true);
  EXPECT_EQ(r.removed, (std::set<std::string>{"W", "T2"}));
  EXPECT_EQ(names(s), without(original, r.removed));
}

TEST(Iofields, CommentsAndFirstEmptyLineEndTheFile) {
  Schema s = history_schema();
  const IofieldsResult r = apply_iofields_text(s,
                                               "# a comment\n-:h:0:W\n-:h:0:T2  # a trailing comment skips the line (WRF)\n"
                                               "-:h:0:Q2\n   \n-:h:0:PB\nthis line is never read\n",
                                               "f.txt", true);
  EXPECT_EQ(r.removed, (std::set<std::string>{"W", "Q2"}));
}

TEST(Iofields, OtherStreamsAreLeftAloneWithAMessage) {
  Schema s = history_schema();
  const Schema original = s;
  const IofieldsResult r = apply_iofields_text(s, "-:i:0:W\n+:h:3:RAINC\n-:H:12:PB\n", "f.txt", true);
  EXPECT_TRUE(r.removed.empty());
  EXPECT_EQ(names(s), names(original));
  ASSERT_EQ(r.messages.size(), 3u);
  EXPECT_EQ(r.messages[0], "f.txt:1: -:i:0 left alone: nwpio writes the history stream (h:0) only");
  EXPECT_EQ(r.messages[1], "f.txt:2: +:h:3 left alone: nwpio writes the history stream (h:0) only");
  EXPECT_EQ(r.messages[2], "f.txt:3: -:h:12 left alone: nwpio writes the history stream (h:0) only");
}

TEST(Iofields, UnknownNamesWarnOrFail) {
  Schema s = history_schema();
  const IofieldsResult r = apply_iofields_text(s, "-:h:0:W,NOSUCH\n+:h:0:ALSO_NOT\n", "f.txt", true);
  EXPECT_EQ(r.removed, (std::set<std::string>{"W"}));
  ASSERT_EQ(r.messages.size(), 2u);
  EXPECT_EQ(r.messages[0], "f.txt:1:9: warning: unknown variable 'NOSUCH' in -:h:0 ignored");
  EXPECT_EQ(r.messages[1], "f.txt:2:7: warning: unknown variable 'ALSO_NOT' in +:h:0 ignored");

  Schema strict = history_schema();
  const Schema original = strict;
  EXPECT_EQ(error_of([&] { apply_iofields_text(strict, "-:h:0:W\n-:h:0:PB,NOSUCH\n", "f.txt", false); }),
            "f.txt:2:10: expected a variable of the history stream, found unknown name 'NOSUCH' "
            "(ignore_iofields_warning = .false.)");
  EXPECT_EQ(names(strict), names(original));  // nothing half-applied
}

TEST(Iofields, MalformedLines) {
  const auto err = [](const std::string& text) {
    Schema s = history_schema();
    return error_of([&] { apply_iofields_text(s, text, "f.txt", true); });
  };
  EXPECT_EQ(err("*:h:0:W\n"), "f.txt:1:1: expected '+' or '-' to start an iofields line, found '*'");
  EXPECT_EQ(err("-:h:0:W\n-h:0:W\n"), "f.txt:2:2: expected ':', found 'h'");
  EXPECT_EQ(err("-:x:0:W\n"), "f.txt:1:3: expected a stream type 'h' (history) or 'i' (input), found 'x'");
  EXPECT_EQ(err("-:h:a:W\n"), "f.txt:1:5: expected a stream id (0, 1, ...), found 'a'");
  EXPECT_EQ(err("-:h:0\n"), "f.txt:1:6: expected ':', found end of line");
  EXPECT_EQ(err("-:h:0:\n"), "f.txt:1:7: expected a variable name, found end of line");
  EXPECT_EQ(err("-:h:0:W,,PB\n"), "f.txt:1:9: expected a variable name, found ','");
  EXPECT_EQ(err("-:h:0:W PB\n"), "f.txt:1:9: expected ',' between variable names, found 'PB'");
}

TEST(Iofields, ConfigExamples) {
  Schema s = history_schema();
  const std::string remove = read_text_file(NWPIO_CONFIGS_DIR "/iofields/remove_3d_diagnostics.txt", "iofields file");
  const IofieldsResult r = apply_iofields_text(s, remove, "remove_3d_diagnostics.txt", true);
  EXPECT_EQ(r.removed, (std::set<std::string>{"W", "PH", "PHB", "PB", "P_HYD", "QNICE", "QNRAIN"}));
  EXPECT_EQ(r.messages.size(), 1u);  // the input-stream rule

  Schema a = history_schema();
  const std::string add = read_text_file(NWPIO_CONFIGS_DIR "/iofields/add_precip.txt", "iofields file");
  const IofieldsResult ra = apply_iofields_text(a, add, "add_precip.txt", false);
  EXPECT_TRUE(ra.removed.empty());
  EXPECT_EQ(names(a), names(history_schema()));
}

}  // namespace
}  // namespace nwpio::detail
