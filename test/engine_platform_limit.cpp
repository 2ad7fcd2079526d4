// iosim engine tests — when the platform, not the sharing policy, is the bottleneck (RR-9502 strategies applied per
// I/O resource on a real topology): SimGrid's max-min decides, and results.json says how much of the traffic it
// slowed (metrics.platform_limited_share, src/sim/engine.c account_segment). Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace iosim_test;

namespace {

std::string scenario(const std::string &sharing) {
  return R"({"workload": {"applications": [{"name": "A", "profile": {"1": 1e9}, "phases": [{"io": 1e9}]},
                                          {"name": "B", "profile": {"1": 1e9}, "phases": [{"io": 1e9}]}]},
             "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": ")" +
         sharing + R"("}, "output": {"progress": false}})";
}

// One I/O resource r0 of 2 GB/s with a file system link `gpfs` of `gpfs_bw` behind it (on every route to r0).
std::string platform(double gpfs_bw) {
  TinyPlatform p;
  p.resources = {{"r0", 2e9}};
  p.pfs_behind = true;
  p.pfs_capacity = gpfs_bw;
  return tiny_platform_xml(p);
}

} // namespace

// System: one resource r0 of 2 GB/s behind a file-system link of 1 GB/s (the platform's bottleneck) or 100 GB/s;
// applications A and B each post 1 GB at 0, both b(1) = 1 GB/s. Under greedy-com (a policy that sets rates) each
// transfer is given 1 GB/s (r0's 2 GB/s suffice for both).
// Expectations: behind 1 GB/s, SimGrid's max-min gives each 0.5 GB/s, below the policy's rate: both end at 2 s;
// platform_limited_share = 1. Behind 100 GB/s: both end at 1 s, share 0. maxmin (SimGrid decides every rate): the
// share does not apply (null).
TEST(platform_limit_engine, ShareOfTrafficSlowedByThePlatform) {
  SimRun slow = run_scenario(scenario("greedy-com"), platform(1e9));
  ASSERT_EQ(slow.proc.exit_code, 0) << slow.describe();
  EXPECT_NEAR(slow.app("B").end, 2.0, 1e-9);
  EXPECT_NEAR(slow.app("A").end, 2.0, 1e-9);
  EXPECT_NEAR(slow.metric("platform_limited_share"), 1.0, 1e-12);
  EXPECT_NE(slow.proc.out.find("platform"), std::string::npos) << slow.proc.out;
  SimRun fast = run_scenario(scenario("greedy-com"), platform(100e9));
  ASSERT_EQ(fast.proc.exit_code, 0) << fast.describe();
  EXPECT_NEAR(fast.app("B").end, 1.0, 1e-9);
  EXPECT_NEAR(fast.app("A").end, 1.0, 1e-9);
  EXPECT_EQ(fast.metric("platform_limited_share"), 0.0);
  SimRun mm = run_scenario(scenario("maxmin"), platform(1e9));
  ASSERT_EQ(mm.proc.exit_code, 0) << mm.describe();
  EXPECT_TRUE(std::isnan(mm.metric("platform_limited_share")));
  EXPECT_NE(mm.json("metrics.platform_limited_share"), nullptr);
}

// System: an RR-9502 synthetic instance (24 applications, n_small = 2, h = 1e5 s, W^GOAL = 0.9, seed 3; each
// b_i = B, the pool's capacity) under greedy-yield and greedy-com, (1) on platforms/pfs-single.xml (one PFS) and (2)
// on platforms/plafrim-beegfs.xml with every application striped over the 8 OSTs (allocation fixed n = 8): each
// operation is 8 transfers capped at B/8 = one OST's 1.2 GB/s, and each OST's strategy sees every application.
// Expectations: the strategies decide per resource, and with full striping every OST sees the same situation scaled
// by 1/8, so MinYield, Efficiency and Utilization equal the single PFS's (to 1e-9); no link other than the OSTs
// limits (platform_limited_share 0).
TEST(platform_limit_engine, FullStripingOverOstsEqualsOnePfs) {
  for (const char *policy : {"greedy-yield", "greedy-com"}) {
    auto scenario = [&](const std::string &platform, int n) {
      return std::string(R"({"platform": ")") + IOSIM_SOURCE_DIR + "/platforms/" + platform +
             R"(", "workload": {"generator": {"kind": "rr9502", "count": 24, "n_small": 2, "horizon_s": 1e5,
                 "pressure": 0.9}}, "allocation": {"policy": "fixed", "n": )" +
             std::to_string(n) + R"(}, "sharing": {"policy": ")" + policy +
             R"("}, "window": {"stop_at_end": true}, "seed": 3, "output": {"progress": false}})";
    };
    RunOptions opt;
    opt.set_platform = false;
    SimRun pfs = run_scenario(scenario("pfs-single.xml", 1), "", opt);
    SimRun osts = run_scenario(scenario("plafrim-beegfs.xml", 8), "", opt);
    ASSERT_EQ(pfs.proc.exit_code, 0) << pfs.describe();
    ASSERT_EQ(osts.proc.exit_code, 0) << osts.describe();
    for (const char *m : {"min_yield", "efficiency", "utilization"})
      EXPECT_NEAR(osts.metric(m), pfs.metric(m), 1e-9) << policy << " " << m;
    EXPECT_EQ(osts.metric("platform_limited_share"), 0.0) << policy;
    EXPECT_LT(pfs.metric("min_yield"), 1.0) << policy << ": the instance should have contention";
  }
}
