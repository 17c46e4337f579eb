// From namelist.input to OutputOptions / ModelSettings: field mapping, WRF's registry defaults,
// WRF's timing rules, complete WRF namelists (configs/ and a nested 3-domain case). No MPI.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "config/namelist_file.hpp"
#include "config/namelist_settings.hpp"
#include "model_settings_from.hpp"
#include "config/nwpio_keys.hpp"
#include "config/option_table.hpp"
#include "nwpio/error.hpp"
#include "nwpio/wrf_date.hpp"

namespace nwpio::detail {
namespace {

Namelist parse(const std::string& text) { return Namelist::parse(text, "test.nml"); }
Namelist load(const std::string& path) { return Namelist::parse(read_text_file(path, "namelist file"), path); }

const std::string kDate = "&time_control\n start_year = 2019, start_month = 9, start_day = 4, start_hour = 12\n";

TEST(NamelistSettings, WrfRegistryDefaults) {
  const OutputOptions o = output_options_from(parse(kDate + "/\n"), 1);
  const OutputOptions code_defaults;
  EXPECT_EQ(o.outname, "wrfout_d<domain>_<date>");  // registry: history_outname
  EXPECT_EQ(o.frames_per_file, 10);                 // registry: frames_per_outfile 10
  EXPECT_EQ(o.io_form, IoForm::NetcdfSerial);       // registry: io_form_history 2
  EXPECT_FALSE(o.nocolons);
  EXPECT_FALSE(o.use_netcdf_classic);
  EXPECT_TRUE(o.ignore_iofields_warning);
  EXPECT_TRUE(o.iofields_file.empty());             // registry: "NONE_SPECIFIED"
  EXPECT_EQ(o.history_interval_seconds, 0);         // registry: history_interval 0 (stream off)
  EXPECT_EQ(o.history_begin_seconds, 0);
  EXPECT_EQ(o.start_date, "2019-09-04_12:00:00");
  EXPECT_EQ(o.domain_id, 1);
  EXPECT_EQ(o.e_we, 0);
  EXPECT_EQ(o.e_sn, 0);
  EXPECT_EQ(o.e_vert, 0);
  // Without &nwpio, nwpio's own settings keep their code defaults.
  EXPECT_EQ(o.output_dir, code_defaults.output_dir);
  EXPECT_EQ(o.gather, code_defaults.gather);
  EXPECT_EQ(o.max_round_bytes, code_defaults.max_round_bytes);
  EXPECT_EQ(o.serial_chunk_bytes, code_defaults.serial_chunk_bytes);
  EXPECT_EQ(o.fallback_to_serial, code_defaults.fallback_to_serial);
  EXPECT_EQ(o.fsync_before_rename, code_defaults.fsync_before_rename);
}

TEST(NamelistSettings, TimeControlMapping) {
  const OutputOptions o = output_options_from(
      parse(kDate +
            " history_interval = 30, frames_per_outfile = 4, history_outname = 'out/h_d<domain>_<date>.nc'\n"
            " io_form_history = 11, nocolons = .true., use_netcdf_classic = T\n"
            " iofields_filename = 'fields.txt', ignore_iofields_warning = .false.\n/\n"
            "&domains\n e_we = 426, e_sn = 301, e_vert = 36\n/\n"),
      1);
  EXPECT_EQ(o.history_interval_seconds, 30 * 60);
  EXPECT_EQ(o.frames_per_file, 4);
  EXPECT_EQ(o.outname, "out/h_d<domain>_<date>.nc");
  EXPECT_EQ(o.io_form, IoForm::Pnetcdf);
  EXPECT_TRUE(o.nocolons);
  EXPECT_TRUE(o.use_netcdf_classic);
  EXPECT_EQ(o.iofields_file, "fields.txt");
  EXPECT_FALSE(o.ignore_iofields_warning);
  EXPECT_EQ(o.e_we, 426);
  EXPECT_EQ(o.e_sn, 301);
  EXPECT_EQ(o.e_vert, 36);
}

// WRF (share/set_timekeeping.F): minutes = _m if nonzero else history_interval; the parts add up.
TEST(NamelistSettings, HistoryIntervalRule) {
  struct Case { int plain, d, h, m, s; };
  const Case cases[] = {{60, 0, 0, 0, 0}, {60, 0, 0, 15, 0}, {0, 0, 0, 0, 30}, {60, 0, 2, 0, 0},
                        {0, 1, 0, 0, 0},  {10, 1, 1, 1, 1},  {0, 0, 0, 0, 0},  {180, 0, 0, 0, 20}};
  for (const Case& c : cases) {
    std::ostringstream t;
    t << kDate << " history_interval = " << c.plain << "\n history_interval_d = " << c.d << "\n history_interval_h = " << c.h
      << "\n history_interval_m = " << c.m << "\n history_interval_s = " << c.s << "\n"
      << " history_begin = " << c.plain << "\n history_begin_d = " << c.d << "\n history_begin_h = " << c.h
      << "\n history_begin_m = " << c.m << "\n history_begin_s = " << c.s << "\n/\n";
    const std::int64_t minutes = c.m != 0 ? c.m : c.plain;
    const std::int64_t expected = c.d * 86400LL + c.h * 3600LL + minutes * 60 + c.s;
    const OutputOptions o = output_options_from(parse(t.str()), 1);
    EXPECT_EQ(o.history_interval_seconds, expected) << t.str();
    EXPECT_EQ(o.history_begin_seconds, expected) << t.str();
  }
}

TEST(NamelistSettings, NwpioGroupMapping) {
  const OutputOptions o = output_options_from(
      parse(kDate + "/\n&NWPIO\n output_dir = '/scratch/run1', noclobber = T, fsync = F, pnetcdf_format = 'CDF5'\n"
                    " deflate_level = 5, header_reserve_bytes = 1024, fallback_to_serial = .true.\n"
                    " gather = 'Direct', reorder = 'datatype', writer_ranks = 4, max_round_bytes = 1000000\n"
                    " serial_chunk_bytes = 4096, print_timing = .false., stats_json = 'stats.json'\n"
                    " hints_file = 'configs/hints/lustre.toml', hints_profile = 'lustre-large'\n"
                    " hints = 'stripe_count=8;aggregators=8'\n/\n"),
      1);
  EXPECT_EQ(o.output_dir, "/scratch/run1");
  EXPECT_TRUE(o.noclobber);
  EXPECT_FALSE(o.fsync_before_rename);
  EXPECT_EQ(o.format, FileFormat::Cdf5);
  EXPECT_EQ(o.deflate_level, 5);
  EXPECT_EQ(o.header_reserve_bytes, 1024);
  EXPECT_TRUE(o.fallback_to_serial);
  EXPECT_EQ(o.gather, GatherMode::Direct);
  EXPECT_EQ(o.reorder, ReorderMode::Datatype);
  EXPECT_EQ(o.writer_ranks, 4);
  EXPECT_EQ(o.max_round_bytes, 1000000);
  EXPECT_EQ(o.serial_chunk_bytes, 4096);
  EXPECT_FALSE(o.print_timing);
  EXPECT_EQ(o.stats_json, "stats.json");
  EXPECT_EQ(o.hints.namelist.profile_file, "configs/hints/lustre.toml");
  EXPECT_EQ(o.hints.namelist.profile, "lustre-large");
  EXPECT_EQ(o.hints.namelist.assignments, "stripe_count=8;aggregators=8");
  // The namelist level is kept apart from the API level, so code can still override it.
  EXPECT_TRUE(o.hints.profile_file.empty());
  EXPECT_TRUE(o.hints.profile.empty());
}

// docs/NAMELIST.md's &nwpio table is the option table's, row for row (key, type, default, doc):
// a key the code reads and the docs do not list, or the reverse, fails here.
TEST(NamelistSettings, NwpioTableInTheDocsIsTheCodes) {
  const std::string doc = read_text_file(NWPIO_DOCS_DIR "/NAMELIST.md", "doc");
  const std::string begin = "<!-- BEGIN &nwpio table: made from src/config/option_table.cpp -->\n";
  const std::string end = "<!-- END &nwpio table -->";
  const std::size_t a = doc.find(begin), b = doc.find(end);
  ASSERT_NE(a, std::string::npos) << "docs/NAMELIST.md lacks the marker " << begin;
  ASSERT_NE(b, std::string::npos) << "docs/NAMELIST.md lacks the marker " << end;
  const std::string in_docs = doc.substr(a + begin.size(), b - a - begin.size());
  EXPECT_EQ(in_docs, nwpio_namelist_table()) << "docs/NAMELIST.md's &nwpio table differs from the code's; put this "
                                                 "between the markers:\n"
                                              << nwpio_namelist_table();
}

TEST(NamelistSettings, DemoConfig) {
  const Namelist nl = load(NWPIO_CONFIGS_DIR "/namelist.input.demo");
  for (std::string_view g : kGroupsNwpioReads) {
    EXPECT_NE(nl.group(g), nullptr) << g;
  }
  const OutputOptions o = output_options_from(nl, 1);
  EXPECT_EQ(o.io_form, IoForm::Pnetcdf);
  EXPECT_EQ(o.history_interval_seconds, 3600);
  EXPECT_EQ(o.frames_per_file, 1);
  EXPECT_EQ(o.e_we, 426);
  EXPECT_EQ(o.e_sn, 301);
  EXPECT_EQ(o.e_vert, 36);
  const ModelSettings m = model_settings_from(nl, 1);
  EXPECT_EQ(m.e_we, 426);
  EXPECT_EQ(m.e_sn, 301);
  EXPECT_EQ(m.e_vert, 36);
  EXPECT_DOUBLE_EQ(m.dx, 12000.0);
  EXPECT_DOUBLE_EQ(m.dy, 12000.0);
  EXPECT_DOUBLE_EQ(m.time_step, 60.0);
  EXPECT_EQ(m.nproc_x, -1);
  EXPECT_EQ(m.nproc_y, -1);
  EXPECT_EQ(m.start_date, o.start_date);
  EXPECT_EQ(wrf::date_to_seconds(m.end_date) - wrf::date_to_seconds(m.start_date), 6 * 3600);
}

TEST(NamelistSettings, Haps1kmConfig) {
  const Namelist nl = load(NWPIO_CONFIGS_DIR "/namelist.input.haps1km");
  const OutputOptions o = output_options_from(nl, 1);
  EXPECT_EQ(o.io_form, IoForm::Pnetcdf);
  EXPECT_EQ(o.history_interval_seconds, 30 * 60);
  const ModelSettings m = model_settings_from(nl, 1);
  EXPECT_EQ(m.e_we, 1281);
  EXPECT_EQ(m.e_sn, 961);
  EXPECT_EQ(m.e_vert, 70);
  EXPECT_DOUBLE_EQ(m.dx, 1000.0);
  EXPECT_DOUBLE_EQ(m.time_step, 6.0);
  EXPECT_EQ(wrf::date_to_seconds(m.end_date) - wrf::date_to_seconds(m.start_date), 24 * 3600);
  // eta_levels: one value per staggered level, continued over 9 lines.
  EXPECT_EQ(nl.find("domains", "eta_levels")->values.size(), static_cast<std::size_t>(m.e_vert));
}

TEST(NamelistSettings, NestedWrfNamelist) {
  const Namelist nl = load(NWPIO_TEST_DATA_DIR "/namelist.input.wrf_nested");
  ASSERT_EQ(nl.groups().size(), 3u);  // the groups nwpio reads that the file has; the other 9 are not read
  EXPECT_EQ(nl.groups()[0].name, "time_control");
  EXPECT_EQ(nl.groups()[1].name, "domains");
  EXPECT_EQ(nl.groups()[2].name, "namelist_quilt");
  const OutputOptions d1 = output_options_from(nl, 1), d2 = output_options_from(nl, 2), d3 = output_options_from(nl, 3);
  EXPECT_EQ(d1.history_interval_seconds, 180 * 60);
  EXPECT_EQ(d2.history_interval_seconds, 60 * 60);
  EXPECT_EQ(d3.history_interval_seconds, 2 * 3600 + 60 * 60);  // _h adds to history_interval (WRF sums)
  EXPECT_EQ(d1.history_begin_seconds, 0);
  EXPECT_EQ(d2.history_begin_seconds, 3600);
  EXPECT_EQ(d3.history_begin_seconds, 0);  // column not given: registry default 0
  EXPECT_EQ(d1.frames_per_file, 1000);
  EXPECT_EQ(d1.iofields_file, "my_file_d01.txt");
  EXPECT_EQ(d2.iofields_file, "my_file_d02.txt");
  EXPECT_TRUE(d3.iofields_file.empty());
  EXPECT_FALSE(d3.ignore_iofields_warning);
  EXPECT_EQ(d2.e_we, 112);
  EXPECT_EQ(d3.e_vert, 33);
  EXPECT_EQ(d2.domain_id, 2);

  const ModelSettings m1 = model_settings_from(nl, 1), m2 = model_settings_from(nl, 2), m3 = model_settings_from(nl, 3);
  EXPECT_EQ(m1.max_dom, 3);
  EXPECT_DOUBLE_EQ(m2.dx, m1.dx / 3);  // dx of a nest: parent's / parent_grid_ratio
  EXPECT_DOUBLE_EQ(m3.dx, m2.dx / 3);
  EXPECT_DOUBLE_EQ(m2.time_step, m1.time_step / 3);  // parent's / parent_time_step_ratio
  EXPECT_DOUBLE_EQ(m3.time_step, m2.time_step / 3);
  // Head domain: run_hours (36) wins over end_* (24 h later); nests use end_*.
  EXPECT_EQ(wrf::date_to_seconds(m1.end_date) - wrf::date_to_seconds(m1.start_date), 36 * 3600);
  EXPECT_EQ(m2.end_date, wrf::make_date(2000, 1, 25, 12, 0, 0));
  EXPECT_THROW(model_settings_from(nl, 4), Error);
}

TEST(NamelistSettings, FractionalTimeStep) {
  const ModelSettings m = model_settings_from(
      parse(kDate + " run_hours = 1\n/\n&domains\n time_step = 6, time_step_fract_num = 1, time_step_fract_den = 4\n"
                    " e_we = 10, e_sn = 10, e_vert = 5, dx = 1000, dy = 1000\n/\n"),
      1);
  EXPECT_DOUBLE_EQ(m.time_step, 6.25);
}

}  // namespace
}  // namespace nwpio::detail
