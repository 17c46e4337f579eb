// Smoke test of nwpio-bench model-loop (its bookkeeping, never its speed): every method ran,
// every output method reports one blocked time per timed frame, the server methods report the
// servers' write time of every frame and the servers' peak RSS. Input: MODEL_LOOP_JSON,
// MODEL_LOOP_FRAMES (steps / every).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace {

using nlohmann::json;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

TEST(ModelLoopJson, EveryMethodReportsEveryFrame) {
  std::ifstream in(env("MODEL_LOOP_JSON"));
  ASSERT_TRUE(in) << "cannot open MODEL_LOOP_JSON=" << env("MODEL_LOOP_JSON");
  const json doc = json::parse(in);
  const std::size_t frames = std::stoul(env("MODEL_LOOP_FRAMES"));
  std::set<std::string> seen;
  for (const json& r : doc.at("runs")) {
    const std::string m = r.at("method").get<std::string>();
    seen.insert(m);
    EXPECT_GT(r.at("wall_seconds").get<double>(), 0.0) << m;
    EXPECT_GE(r.at("wall_seconds").get<double>(), r.at("loop_seconds").get<double>()) << m;
    if (m == "none") {
      EXPECT_TRUE(r.at("blocked_seconds").empty());
      continue;
    }
    ASSERT_EQ(r.at("blocked_seconds").size(), frames) << m;
    for (const json& b : r.at("blocked_seconds")) EXPECT_GT(b.get<double>(), 0.0) << m;
    EXPECT_GT(r.at("frame_bytes").get<std::int64_t>(), 0) << m;
    EXPECT_GT(r.at("compute_peak_rss_bytes").get<std::int64_t>(), 0) << m;
    if (m.starts_with("servers-")) {
      ASSERT_EQ(r.at("server_write_seconds").size(), frames) << m;
      for (const json& w : r.at("server_write_seconds")) EXPECT_GT(w.get<double>(), 0.0) << m;
      EXPECT_GT(r.at("server_peak_rss_bytes").get<std::int64_t>(), 0) << m;
    } else {
      EXPECT_TRUE(r.at("server_write_seconds").empty()) << m;
    }
  }
  for (const char* m : {"none", "io0", "io11", "io2", "servers-io0", "servers-io11", "servers-io2"}) {
    EXPECT_TRUE(seen.count(m)) << m << " did not run";
  }
}

}  // namespace
