// The namelist reader on every syntax element, from strings (no MPI).
#include <gtest/gtest.h>

#include <array>
#include <string_view>

#include "config/namelist_parser.hpp"
#include "config/namelist_values.hpp"
#include "nwpio/error.hpp"

namespace nwpio::detail {
namespace {

// The groups these tests read: nwpio's and made-up ones.
constexpr std::array<std::string_view, 8> kGroups{"time_control", "domains", "nwpio", "g", "fdda", "grib2", "old", "older"};

Namelist parse(const std::string& text) { return Namelist::parse(text, "test.nml", kGroups); }

const NamelistEntry& entry(const Namelist& nl, const char* group, const char* key) {
  const NamelistEntry* e = nl.find(group, key);
  EXPECT_NE(e, nullptr) << group << "/" << key;
  static const NamelistEntry empty;
  return e ? *e : empty;
}

std::vector<std::int64_t> ints(const NamelistEntry& e) {
  std::vector<std::int64_t> out;
  for (const NamelistValue& v : e.values) {
    EXPECT_EQ(v.kind, NamelistValue::Kind::Integer) << e.name;
    out.push_back(v.integer);
  }
  return out;
}

TEST(NamelistSyntax, GroupsKeysAndValueLists) {
  const Namelist nl = parse("&time_control\n run_hours = 6,\n history_interval = 60, 30, 15,\n/\n&domains\n max_dom = 3\n/\n");
  ASSERT_EQ(nl.groups().size(), 2u);
  EXPECT_EQ(nl.groups()[0].name, "time_control");
  EXPECT_EQ(nl.groups()[1].name, "domains");
  EXPECT_EQ(ints(entry(nl, "time_control", "run_hours")), (std::vector<std::int64_t>{6}));
  EXPECT_EQ(ints(entry(nl, "time_control", "history_interval")), (std::vector<std::int64_t>{60, 30, 15}));
  EXPECT_EQ(ints(entry(nl, "domains", "max_dom")), (std::vector<std::int64_t>{3}));
}

TEST(NamelistSyntax, NamesAreCaseInsensitive) {
  const Namelist nl = parse("&Time_Control\n HISTORY_Interval = 60\n/\n");
  EXPECT_NE(nl.group("TIME_CONTROL"), nullptr);
  EXPECT_EQ(ints(entry(nl, "time_control", "history_interval")), (std::vector<std::int64_t>{60}));
  EXPECT_EQ(nl.find("time_control", "HISTORY_INTERVAL")->name, "history_interval");
}

TEST(NamelistSyntax, CommentsBlankLinesAndContinuedValues) {
  const Namelist nl = parse(
      "! leading comment\n\n&domains ! after group\n"
      "  e_we = 74  ! first (after a comma, a comment is an empty value: below)\n"
      "         112,\n"
      "\n"
      "         94   ! continued over lines\n"
      "  e_sn = 61 97 91  ! blanks separate values too\n"
      "/ ! after end\n\n");
  EXPECT_EQ(ints(entry(nl, "domains", "e_we")), (std::vector<std::int64_t>{74, 112, 94}));
  EXPECT_EQ(ints(entry(nl, "domains", "e_sn")), (std::vector<std::int64_t>{61, 97, 91}));
}

TEST(NamelistSyntax, RepeatCountsAndNulls) {
  const Namelist nl = parse("&g\n a = 3*1, 2\n b = 2*'x'\n c = 1,,3\n d = ,5\n e = 2*, 7\n f = 2* 7\n/\n");
  EXPECT_EQ(ints(entry(nl, "g", "a")), (std::vector<std::int64_t>{1, 1, 1, 2}));
  const auto& b = entry(nl, "g", "b");
  ASSERT_EQ(b.values.size(), 2u);
  EXPECT_EQ(b.values[1].text, "x");
  const auto& c = entry(nl, "g", "c");
  ASSERT_EQ(c.values.size(), 3u);
  EXPECT_EQ(c.values[1].kind, NamelistValue::Kind::Null);
  EXPECT_EQ(c.values[2].integer, 3);
  const auto& d = entry(nl, "g", "d");
  ASSERT_EQ(d.values.size(), 2u);
  EXPECT_EQ(d.values[0].kind, NamelistValue::Kind::Null);
  EXPECT_EQ(d.values[1].integer, 5);
  for (const char* key : {"e", "f"}) {  // "2*" alone is two nulls, with or without a blank after
    const auto& e = entry(nl, "g", key);
    ASSERT_EQ(e.values.size(), 3u) << key;
    EXPECT_EQ(e.values[0].kind, NamelistValue::Kind::Null);
    EXPECT_EQ(e.values[1].kind, NamelistValue::Kind::Null);
    EXPECT_EQ(e.values[2].integer, 7);
  }
}

TEST(NamelistSyntax, Logicals) {
  const Namelist nl = parse(
      "&g\n a = .true., .false., T, F, .t., .f., .TRUE., .False., t, f, true, FALSE\n t = 1\n/\n");
  const auto& a = entry(nl, "g", "a");
  const std::vector<bool> expected{true, false, true, false, true, false, true, false, true, false, true, false};
  ASSERT_EQ(a.values.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(a.values[i].kind, NamelistValue::Kind::Logical) << i;
    EXPECT_EQ(a.values[i].logical, expected[i]) << i;
  }
  // "t =" is a key named t, not a logical value of a.
  EXPECT_EQ(ints(entry(nl, "g", "t")), (std::vector<std::int64_t>{1}));
}

TEST(NamelistSyntax, Strings) {
  const Namelist nl = parse("&g\n a = 'wrfout_d<domain>_<date>'\n b = \"it's\"\n c = 'it''s', \"say \"\"hi\"\"\"\n d = '! not a comment'\n e = ''\n/\n");
  EXPECT_EQ(entry(nl, "g", "a").values[0].text, "wrfout_d<domain>_<date>");
  EXPECT_EQ(entry(nl, "g", "b").values[0].text, "it's");
  EXPECT_EQ(entry(nl, "g", "c").values[0].text, "it's");
  EXPECT_EQ(entry(nl, "g", "c").values[1].text, "say \"hi\"");
  EXPECT_EQ(entry(nl, "g", "d").values[0].text, "! not a comment");
  EXPECT_EQ(entry(nl, "g", "e").values[0].kind, NamelistValue::Kind::String);
  EXPECT_EQ(entry(nl, "g", "e").values[0].text, "");
}

TEST(NamelistSyntax, Numbers) {
  const Namelist nl = parse("&g\n i = 42, -3, +7, 007\n r = 1.0, 1e3, 1.d0, -.5, 2.5E-2, 60., 1D+2, +.25\n/\n");
  EXPECT_EQ(ints(entry(nl, "g", "i")), (std::vector<std::int64_t>{42, -3, 7, 7}));
  const auto& r = entry(nl, "g", "r");
  const std::vector<double> expected{1.0, 1e3, 1.0, -0.5, 2.5e-2, 60.0, 100.0, 0.25};
  ASSERT_EQ(r.values.size(), expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    EXPECT_EQ(r.values[k].kind, NamelistValue::Kind::Real) << k;
    EXPECT_DOUBLE_EQ(r.values[k].real, expected[k]) << k;
  }
}

TEST(NamelistSyntax, IntegersReadAsRealsButNotTheOtherWay) {
  const Namelist nl = parse("&domains\n dx = 12000\n dy = 1.2e4\n/\n");
  NamelistReader r(nl, 1);
  EXPECT_DOUBLE_EQ(r.real("domains", "dx", Columns::One, 0), 12000.0);
  EXPECT_DOUBLE_EQ(r.real("domains", "dy", Columns::One, 0), 12000.0);
  EXPECT_THROW(r.integer("domains", "dy", Columns::One, 0), Error);
}

TEST(NamelistSyntax, TrailingCommasAndEmptyGroups) {
  const Namelist nl = parse("&fdda\n/\n&grib2\n/\n&g\n a = 1, 2, ,\n b = 3,\n/\n");
  ASSERT_EQ(nl.groups().size(), 3u);
  EXPECT_TRUE(nl.group("fdda")->entries.empty());
  const auto& a = entry(nl, "g", "a");
  ASSERT_GE(a.values.size(), 2u);
  EXPECT_EQ(a.values[0].integer, 1);
  EXPECT_EQ(a.values[1].integer, 2);
  NamelistReader r3(nl, 3);
  EXPECT_EQ(r3.integer("g", "a", Columns::PerDomain, -9), -9);  // the null column keeps the default
}

TEST(NamelistSyntax, IndexedKeysAndLaterAssignmentsOverride) {
  const Namelist nl = parse("&g\n a = 1, 2, 3\n a(2) = 20\n b(3) = 30, 40\n a = , , 33\n/\n");
  EXPECT_EQ(ints(entry(nl, "g", "a")), (std::vector<std::int64_t>{1, 20, 33}));
  const auto& b = entry(nl, "g", "b");
  ASSERT_EQ(b.values.size(), 4u);
  EXPECT_EQ(b.values[0].kind, NamelistValue::Kind::Null);
  EXPECT_EQ(b.values[2].integer, 30);
  EXPECT_EQ(b.values[3].integer, 40);
}

TEST(NamelistSyntax, AlternativeGroupDelimiters) {
  const Namelist nl = parse("$old\n a = 1\n$end\n&older\n b = 2\n&end\n&g b = 3 $END\n");
  EXPECT_EQ(ints(entry(nl, "old", "a")), (std::vector<std::int64_t>{1}));
  EXPECT_EQ(ints(entry(nl, "older", "b")), (std::vector<std::int64_t>{2}));
  EXPECT_EQ(ints(entry(nl, "g", "b")), (std::vector<std::int64_t>{3}));
}

// gfortran's (and so WRF's) rule: a READ of a group skips everything before the group's '&name';
// tests/namelist_gfortran compares with gfortran itself.
TEST(NamelistSyntax, TextOutsideTheGroupsIsNotRead) {
  const Namelist nl = parse(
      "WRF namelist, run 12 (free text)\n"
      "&physics s = 'never closed\n/\n"  // a group nwpio does not read is not read at all
      "notes: R&D, 50% & more / done\n"
      "&g a = 1 / text after the end\n"
      "&domains\n max_dom = 2\n/\n");
  EXPECT_EQ(ints(entry(nl, "g", "a")), (std::vector<std::int64_t>{1}));
  EXPECT_EQ(ints(entry(nl, "domains", "max_dom")), (std::vector<std::int64_t>{2}));
  EXPECT_EQ(nl.group("physics"), nullptr);
}

TEST(NamelistSyntax, AGroupStartsAtItsFirstNameOutsideComments) {
  // after '!' the rest of the line is skipped; a longer name is another group
  const Namelist nl = parse("! see &g below\n&gx a = 7 /\n&G\n a = 1 /\n&g a = 2 /\n");
  EXPECT_EQ(ints(entry(nl, "g", "a")), (std::vector<std::int64_t>{1}));  // a repeated group is not read
  EXPECT_EQ(nl.groups().size(), 1u);
}

// gfortran reads a comment right after '=' or ',' as an empty value; after a value, or on a line
// of its own, a comment is a blank.
TEST(NamelistSyntax, ACommentAfterACommaIsAnEmptyValue) {
  const Namelist nl = parse("&g\n a = 10, ! c\n 20\n b = ! c\n 30 ! c\n 40\n c = 1,\n ! c\n 2\n/\n");
  // The values as written in a namelist, an empty value as nothing between two commas.
  const auto written = [&](const char* key) {
    std::string out;
    const auto& values = entry(nl, "g", key).values;
    for (std::size_t c = 0; c < values.size(); ++c) {
      out += (c == 0 ? "" : ",") + (values[c].kind == NamelistValue::Kind::Null ? std::string() : values[c].text);
    }
    return out;
  };
  EXPECT_EQ(written("a"), "10,,20");
  EXPECT_EQ(written("b"), ",30,40");
  EXPECT_EQ(written("c"), "1,2");  // a comment line of its own is a blank
}

TEST(NamelistSyntax, CrLfLineEndingsAndTabs) {
  const Namelist nl = parse("&g\r\n\ta\t=\t1,\t2\r\n/\r\n");
  EXPECT_EQ(ints(entry(nl, "g", "a")), (std::vector<std::int64_t>{1, 2}));
}

TEST(NamelistSyntax, PositionsOfValues) {
  const Namelist nl = parse("&g\n  abc = 1,   22\n/\n");
  const auto& e = entry(nl, "g", "abc");
  EXPECT_EQ(e.pos.line, 2);
  EXPECT_EQ(e.pos.column, 3);
  EXPECT_EQ(e.values[1].pos.line, 2);
  EXPECT_EQ(e.values[1].pos.column, 14);
}

TEST(NamelistSyntax, PerDomainColumnsAndDefaults) {
  const Namelist nl = parse("&g\n a = 10, 20\n one = 5\n/\n");
  EXPECT_EQ(NamelistReader(nl, 1).integer("g", "a", Columns::PerDomain, -1), 10);
  EXPECT_EQ(NamelistReader(nl, 2).integer("g", "a", Columns::PerDomain, -1), 20);
  EXPECT_EQ(NamelistReader(nl, 3).integer("g", "a", Columns::PerDomain, -1), -1);  // column not given
  EXPECT_EQ(NamelistReader(nl, 3).integer("g", "one", Columns::One, -1), 5);       // one value for all
  EXPECT_EQ(NamelistReader(nl, 1).integer("g", "absent", Columns::One, 77), 77);
  EXPECT_EQ(NamelistReader(nl, 1).integer("nogroup", "a", Columns::One, 78), 78);
}

}  // namespace
}  // namespace nwpio::detail
