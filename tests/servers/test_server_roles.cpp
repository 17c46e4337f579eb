// Which ranks serve (WRF's convention: the last nio_groups x nio_tasks_per_group ranks), and the
// sizes that are errors (on every rank, since the function is pure and every rank runs it).
#include <gtest/gtest.h>

#include <string>

#include "config/namelist_parser.hpp"
#include "config/quilt_settings.hpp"
#include "nwpio/error.hpp"
#include "servers/server_roles.hpp"

namespace nwpio::detail {
namespace {

std::string error_of(const QuiltSizes& q, int world) {
  try {
    assign_server_roles(q, world);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    return e.what();
  }
  return {};
}

TEST(ServerRoles, NoServersByDefault) {
  const ServerRoles r = assign_server_roles(QuiltSizes{}, 4);
  EXPECT_EQ(r.groups, 0);
  EXPECT_EQ(r.compute_ranks, 4);
  for (int w = 0; w < 4; ++w) EXPECT_FALSE(r.is_server(w));
}

TEST(ServerRoles, LastRanksServeInGroupsAsWrf) {
  // WRF's example (module_io_quilt_old.F): 18 tasks, nio_groups 2, nio_tasks_per_group 3:
  // compute 0-11, group 1 = 12-14, group 2 = 15-17.
  const ServerRoles r = assign_server_roles(QuiltSizes{3, 2, {}, {}}, 18);
  EXPECT_EQ(r.compute_ranks, 12);
  EXPECT_EQ(r.servers(), 6);
  for (int w = 0; w < 12; ++w) EXPECT_FALSE(r.is_server(w)) << w;
  for (int w = 12; w < 18; ++w) {
    ASSERT_TRUE(r.is_server(w)) << w;
    EXPECT_EQ(r.group_of(w), (w - 12) / 3);
    EXPECT_EQ(r.index_in_group(w), (w - 12) % 3);
    EXPECT_EQ(r.server_rank(r.group_of(w), r.index_in_group(w)), w);
  }
}

TEST(ServerRoles, OneComputeRankIsEnough) {
  const ServerRoles r = assign_server_roles(QuiltSizes{2, 1, {}, {}}, 3);
  EXPECT_EQ(r.compute_ranks, 1);
  EXPECT_TRUE(r.is_server(1));
  EXPECT_TRUE(r.is_server(2));
}

TEST(ServerRoles, NonsenseSizesAreErrorsNamingKeysAndNumbers) {
  std::string e = error_of(QuiltSizes{2, 2, "nl:3:1: ", "nl:4:1: "}, 4);
  EXPECT_NE(e.find("nl:3:1: nio_tasks_per_group = 2"), std::string::npos) << e;
  EXPECT_NE(e.find("4 I/O server ranks"), std::string::npos) << e;
  EXPECT_NE(e.find("no compute rank"), std::string::npos) << e;
  EXPECT_NE(e.find("at least 5 ranks"), std::string::npos) << e;

  e = error_of(QuiltSizes{0, 2, {}, "nl:4:2: "}, 8);
  EXPECT_NE(e.find("nl:4:2: nio_groups = 2"), std::string::npos) << e;
  EXPECT_NE(e.find("#1943"), std::string::npos) << e;

  EXPECT_NE(error_of(QuiltSizes{-1, 1, {}, {}}, 8).find("nio_tasks_per_group = -1"), std::string::npos);
  EXPECT_NE(error_of(QuiltSizes{1, 0, {}, {}}, 8).find("nio_groups = 0"), std::string::npos);
  EXPECT_FALSE(error_of(QuiltSizes{1 << 30, 4, {}, {}}, 8).empty());  // no int overflow
}

TEST(QuiltSettings, ReadsNamelistQuiltWithPositions) {
  const Namelist nl = Namelist::parse(" &namelist_quilt\n nio_tasks_per_group = 2,\n nio_groups = 3,\n"
                                      " poll_servers = .false.\n /\n", "namelist.input");
  const QuiltSizes q = quilt_sizes_from(nl);
  EXPECT_EQ(q.tasks_per_group, 2);
  EXPECT_EQ(q.groups, 3);
  EXPECT_EQ(q.where_tasks, "namelist.input:2:24: ");
  EXPECT_EQ(q.where_groups, "namelist.input:3:15: ");
}

TEST(QuiltSettings, AbsentGroupMeansNoServers) {
  const QuiltSizes q = quilt_sizes_from(Namelist::parse("&time_control\n/\n", "n"));
  EXPECT_EQ(q.tasks_per_group, 0);
  EXPECT_EQ(q.groups, 1);
}

TEST(QuiltSettings, WrongTypesAndNwpioTyposAreConfigErrors) {
  try {
    quilt_sizes_from(Namelist::parse("&namelist_quilt\n nio_tasks_per_group = 1.5\n/\n", "n"));
    ADD_FAILURE() << "a real was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("n:2:"), std::string::npos) << e.what();
  }
  try {
    quilt_sizes_from(Namelist::parse("&nwpio\n server_frames_in_fligth = 3\n/\n", "n"));
    ADD_FAILURE() << "a typo in &nwpio was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("server_frames_in_fligth"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace nwpio::detail
