// Bad input everywhere (issue 8, item 5), through the collective entry points a model uses:
// namelist.input (OutputOptions::from_namelist, read_model_settings), an iofields file and a
// hints profile (both through the Writer constructor). Every error is Error(Config) on every
// rank and starts with "file:line:column:" -- the position of the offending text, computed from
// the text itself. API misuse (put before begin_frame, a duplicate or undefined variable, a
// date going backwards, bounds that disagree) gives a clear Error on every rank and corrupts
// nothing: the file finished before stays exact and the stream goes on.
#include <fstream>

#include "nwpio_model/model_settings.hpp"
#include "reliability_support.hpp"

namespace nwpio::test::rel {
namespace {

// 1-based line and column of the first occurrence of `needle` in `text`.
std::string position_of(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return std::to_string(line) + ":" + std::to_string(at - line_start + 1);
}

std::string write_text(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  if (my_rank() == 0) std::ofstream(path) << text;
  MPI_Barrier(world());
  return path;
}

// The error must start with "path:line:column:" of `needle` in `text`.
void expect_at(const std::optional<Error>& e, const std::string& path, const std::string& text, const std::string& needle) {
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->kind(), ErrorKind::Config) << e->what();
  std::string what = e->what();
  if (what.rfind("rank ", 0) == 0) what = what.substr(what.find(": ") + 2);  // "rank r: " of agree()
  const std::string want = path + ":" + position_of(text, needle) + ":";
  EXPECT_EQ(what.rfind(want, 0), 0u) << "expected the error at " << want << ", got: " << e->what();
}

const std::string kTimeControl =
    "&time_control\n start_year = 2019, start_month = 6, start_day = 1,\n history_interval = 60,\n/\n";
const std::string kDomains = "&domains\n e_we = 23, e_sn = 17, e_vert = 7, dx = 1000, dy = 1000, time_step = 6\n/\n";

TEST(BadInput, NamelistErrorsNameFileLineColumnOnEveryRank) {
  const std::string dir = fresh_dir("bad_namelist");
  struct Bad {
    std::string text, needle;
  };
  const std::vector<Bad> cases = {
      {kTimeControl + kDomains + "&nwpio\n output_dir = 'out',\n gather = 'sideways'\n/\n", "'sideways'"},
      {kTimeControl + kDomains + "&nwpio\n noclober = .true.\n/\n", "noclober"},
      {"&time_control\n start_year = 2019, start_month = 6, start_day = 1, history_interval = 60 60x\n/\n", "60x"},
      // An unterminated string: reported where the closing quote was due (the line's end).
      {"&time_control\n start_year = 2019, start_month = 6, start_day = 1,\n history_outname = 'wrfout\n/\n",
       "\n/"},
      {kTimeControl + "&domains\n e_we = 999999999*23\n/\n", "999999999*"},
      {"&time_control\n start_year = 2019, start_month = 6, start_day = 1, history_interval_d = 999999999999\n/\n",
       "999999999999"},
  };
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const std::string path = write_text(dir, "namelist." + std::to_string(c), cases[c].text);
    const auto e = expect_same_error([&] { (void)OutputOptions::from_namelist(path, 1, world()); });
    SCOPED_TRACE(cases[c].text);
    expect_at(e, path, cases[c].text, cases[c].needle);
  }
  // The model's settings: the same reader, the same form.
  const std::string text = "&domains\n e_we = 23, e_sn = 1, e_vert = 7\n/\n";
  const std::string path = write_text(dir, "namelist.model", text);
  const auto e = expect_same_error([&] { (void)read_model_settings(path, 1, world()); });
  expect_at(e, path, text, "1, e_vert");
}

TEST(BadInput, IofieldsErrorsNameFileLineColumnOnEveryRank) {
  const std::string dir = fresh_dir("bad_iofields");
  Model model(world(), ModelShape{});
  struct Bad {
    std::string text, needle;
    bool strict = false;  // ignore_iofields_warning = .false.
  };
  const std::vector<Bad> cases = {
      {"-:h:0:W\n*:h:0:U\n", "*:h"},
      {"+:h:0:T2\n-:x:0:U\n", "x:0"},
      {"-:h:0:U,,V\n", ",V"},
      {"+:h:0:T2\n-:h:0:NOT_A_FIELD\n", "NOT_A_FIELD", true},
  };
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const std::string path = write_text(dir, "iofields." + std::to_string(c), cases[c].text);
    OutputOptions o = options_for(dir);
    o.iofields_file = path;
    o.ignore_iofields_warning = !cases[c].strict;
    const auto e = expect_same_error([&] { Writer w(model.decomposition(), model.schema(), o); });
    SCOPED_TRACE(cases[c].text);
    expect_at(e, path, cases[c].text, cases[c].needle);
  }
}

TEST(BadInput, HintsProfileErrorsNameFileLineColumnOnEveryRank) {
  const std::string dir = fresh_dir("bad_hints");
  ModelShape shape;
  Model model(world(), shape);
  struct Bad {
    std::string text, needle;
  };
  const std::vector<Bad> cases = {
      {"[profile.default]\nstripe_count = 8\ncb_buffer_size = \"16 parsecs\"\n", "\"16 parsecs\""},
      {"[profile.default]\naggregators = 4.5\n", "4.5"},
      {"[profile.default]\nextends = 3\n", "3"},
  };
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const std::string path = write_text(dir, "hints" + std::to_string(c) + ".toml", cases[c].text);
    OutputOptions o = options_for(dir);
    o.hints.profile_file = path;
    // The profile is read when a file is opened (begin_frame); the error reaches every rank.
    const auto e = expect_same_error([&] {
      Writer w(model.decomposition(), model.schema(), o);
      model.fill(0);
      w.begin_frame(date_at(0));
    });
    SCOPED_TRACE(cases[c].text);
    expect_at(e, path, cases[c].text, cases[c].needle);
  }
}

TEST(BadInput, ApiMisuseIsClearEverywhereAndCorruptsNothing) {
  const std::string dir = fresh_dir("misuse");
  ModelShape shape;
  Model model(world(), shape);
  Writer w(model.decomposition(), model.schema(), options_for(dir));
  write_frame(w, model, 0);  // file 0: complete before any misuse
  const float x = 1.f;

  // put before begin_frame: the calling rank at once, every rank at end_frame.
  EXPECT_THROW(w.put("T2", &x), Error);
  auto e = expect_same_error([&] { w.end_frame(); });
  if (e) {
    EXPECT_TRUE(contains(e->what(), "no frame is open")) << e->what();
  }

  // A date going backwards, and one that repeats.
  for (int t : {0, -1}) {
    e = expect_same_error([&] { w.begin_frame(wrf::add_seconds(date_at(0), t * 60)); });
    if (e) {
      EXPECT_EQ(e->kind(), ErrorKind::State);
      EXPECT_TRUE(contains(e->what(), "not after the previous frame's date " + date_at(0))) << e->what();
    }
  }

  // An undefined variable on one rank, a duplicate put on another.
  model.fill(1);
  w.begin_frame(date_at(1));
  put_all(w, model);
  if (my_rank() == 0) {
    EXPECT_THROW(w.put("NOT_IN_SCHEMA", &x), Error);
  }
  if (my_rank() == nranks() - 1) {
    EXPECT_THROW(w.put("T2", &x), Error);
  }
  e = expect_same_error([&] { w.end_frame(); });
  if (e) {
    EXPECT_TRUE(contains(e->what(), "NOT_IN_SCHEMA") || contains(e->what(), "already put")) << e->what();
  }

  // The stream goes on; nothing written before was touched.
  write_frame(w, model, 1);
  w.close();
  expect_complete(file_at(dir, 0), {0}, model, shape);
  expect_complete(file_at(dir, 1), {1}, model, shape);
  expect_no_incomplete_final_file(dir);
}

TEST(BadInput, BoundsThatDisagreeFailOnEveryRank) {
  // One rank's patch shifted by one point: patches overlap and leave a gap.
  const ModelShape shape;
  const Decomposition good = make_decomposition(world(), shape);
  Box patch = good.patch();
  if (my_rank() == nranks() - 1) {
    patch.lo[0] -= 1;
    patch.hi[0] -= 1;
  }
  Box memory = good.memory();
  memory.lo[0] -= 1;
  const auto e = expect_same_error([&] { (void)Decomposition::from_boxes(world(), good.domain(), memory, patch); });
  if (e) {
    EXPECT_EQ(e->kind(), ErrorKind::Decomposition) << e->what();
    if (nranks() > 1) {
      EXPECT_TRUE(contains(e->what(), "rank " + std::to_string(nranks() - 1))) << e->what();
    }
  }
}

}  // namespace
}  // namespace nwpio::test::rel
