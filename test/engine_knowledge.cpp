// iosim engine tests — policies deciding from inaccurate knowledge while the simulation keeps the truth (RR-9549
// §6.2; scenario `knowledge`). Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <string>

using namespace iosim_test;

namespace {

// Two "peak" applications on 4 resources of 10 GB/s: A's best count is 2, B's is 3.
std::string scenario(const std::string &knowledge) {
  return R"({"workload": {"applications": [
              {"name": "A", "nodes": 2, "profile": {"1": 1e9, "2": 4e9, "3": 2e9, "4": 1e9}, "phases": [{"io": 4e9}]},
              {"name": "B", "nodes": 2, "profile": {"1": 1e9, "2": 2e9, "3": 5e9, "4": 1e9}, "phases": [{"io": 5e9}]}]},
            "allocation": {"policy": "bba"}, "sharing": {"policy": "fairshare"}, "knowledge": )" +
         knowledge + R"(, "output": {"progress": false}})";
}

} // namespace

// System: the two peak applications under best-bandwidth (n_perf = the best count the policy sees).
// Expectations (by hand): exact knowledge: A gets 2, B 3. group-fit with degree 3: both are "peak"; the cubic
// through their 8 points interpolates the means at n = 1..4, (1, 3, 3.5, 1) GB/s, whose best count is 3, so both get
// 3; the simulation still uses the true profiles: A's bandwidth with 3 resources is its own b(3) = 2 GB/s and its
// 4 GB take 2 s (its resources are not shared: 3 + 3 > 4, but each of the 4 resources carries at most two transfers
// of A (2/3 GB/s) and B (5/3 GB/s) < 10 GB/s). noise only: bba ignores volumes, so the allocation is exact's.
TEST(knowledge_engine, GroupFitMisleadsTheAllocationNotTheSimulation) {
  SimRun exact = run_scenario(scenario(R"({"profiles": "exact"})"), tiny_platform_xml({10e9, 10e9, 10e9, 10e9}, 4));
  ASSERT_EQ(exact.proc.exit_code, 0) << exact.describe();
  EXPECT_EQ(exact.app("A").n_resources, 2);
  EXPECT_EQ(exact.app("B").n_resources, 3);
  SimRun fit = run_scenario(scenario(R"({"profiles": "group-fit", "degree": 3})"),
                            tiny_platform_xml({10e9, 10e9, 10e9, 10e9}, 4));
  ASSERT_EQ(fit.proc.exit_code, 0) << fit.describe();
  EXPECT_EQ(fit.app("A").n_resources, 3);
  EXPECT_EQ(fit.app("B").n_resources, 3);
  EXPECT_NEAR(fit.app("A").bandwidth, 2e9, 1e-3);
  EXPECT_NEAR(fit.app("A").end, 2.0, 1e-9);
  SimRun noisy = run_scenario(scenario(R"({"noise": 0.5})"), tiny_platform_xml({10e9, 10e9, 10e9, 10e9}, 4));
  ASSERT_EQ(noisy.proc.exit_code, 0) << noisy.describe();
  EXPECT_EQ(noisy.app("A").n_resources, 2);
  EXPECT_EQ(noisy.app("B").n_resources, 3);
  SimRun bad = run_scenario(scenario(R"({"profiles": "guess"})"), tiny_platform_xml({10e9}, 4));
  EXPECT_EQ(bad.proc.exit_code, 2);
  EXPECT_NE(bad.proc.err.find("knowledge.profiles"), std::string::npos) << bad.proc.err;
}
