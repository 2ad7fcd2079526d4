// iosim engine tests — policies deciding from inaccurate knowledge while the simulation keeps the truth (RR-9549
// §6.2; scenario `knowledge`). Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
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
  SimRun fit = run_scenario(scenario(R"({"profiles": "group-fit", "fit_over": "workload", "degree": 3})"),
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

namespace {

// A FORGE-format dataset of four "ascent" patterns: pattern k (1-based) moves 100·k·n MiB/s with n = 1, 2, 4, 8 I/O
// nodes (and 50 MiB/s with direct access), on 8 clients of 96 processes.
std::string ascent_dataset() {
  std::string csv = "clients,processes,\"layout(0=fpp,1=shared)\",\"spatiality(0=contig,1=strided)\",request_KiB,"
                    "odirect,bw_MBps_0ion,bw_1ion,bw_2ion,bw_4ion,bw_8ion,n_reps_0/1/2/4/8\n";
  for (int k = 1; k <= 4; k++) {
    csv += "8,96,0,0,32,1,50";
    for (int n : {1, 2, 4, 8})
      csv += "," + std::to_string(100 * k * n);
    csv += ",5/5/5/5/5\n";
  }
  return csv;
}

std::string drawn_scenario(const std::string &fit_over) {
  return R"({"workload": {"generator": {"kind": "rr9549", "profiles": "dataset.csv", "count": 2, "io_load": 0.1,
             "resources": 8}}, "allocation": {"policy": "bba"}, "knowledge": {"profiles": "group-fit", "fit_over": ")" +
         fit_over + R"("}, "window": {"stop_at_end": true}, "output": {"progress": false}})";
}

const cJSON *ascent_group(const SimRun &run) {
  const cJSON *g = nullptr;
  cJSON_ArrayForEach(g, run.json("knowledge_fit.groups")) {
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(g, "shape");
    if (cJSON_IsString(shape) && std::string(shape->valuestring) == "ascent") return g;
  }
  return nullptr;
}

double coefficient(const SimRun &run, int k) {
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(ascent_group(run), "coefficients_Bps");
  const cJSON *v = cJSON_GetArrayItem(c, k);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

} // namespace

// System: two applications drawn by the rr9549 generator from a dataset of four ascent patterns b_k(n) = 100·k·n
// MiB/s, group-fit of degree 2 over the dataset (RR-9549 §6.2, the default) or over the workload.
// Expectations (by hand): over the dataset the least-squares quadratic through the 16 points is the mean line
// 250·n MiB/s (the means at each n lie on it): coefficients (0, 250 MiB/s, 0), 4 ascent profiles fitted; over the
// workload it is the mean line of the two drawn patterns, 100·(k1 + k2)/2·n MiB/s, 2 profiles. A workload given by
// its applications has no dataset: "dataset" is refused (exit 2, naming knowledge.fit_over), "workload" runs.
TEST(knowledge_engine, GroupFitOverTheWholeDataset) {
  const double mib = 1048576.0;
  RunOptions opt;
  opt.extra_files["dataset.csv"] = ascent_dataset();
  std::string xml = tiny_platform_xml({10e9, 10e9, 10e9, 10e9, 10e9, 10e9, 10e9, 10e9}, 16);
  SimRun ds = run_scenario(drawn_scenario("dataset"), xml, opt);
  ASSERT_EQ(ds.proc.exit_code, 0) << ds.describe();
  EXPECT_NEAR(coefficient(ds, 0), 0, 1e-3 * mib);
  EXPECT_NEAR(coefficient(ds, 1), 250 * mib, 1e-6 * 250 * mib);
  EXPECT_NEAR(coefficient(ds, 2), 0, 1e-3 * mib);
  const cJSON *fitted = cJSON_GetObjectItemCaseSensitive(ascent_group(ds), "profiles");
  EXPECT_EQ(cJSON_IsNumber(fitted) ? fitted->valueint : -1, 4) << "ascent profiles fitted over";
  SimRun wl = run_scenario(drawn_scenario("workload"), xml, opt);
  ASSERT_EQ(wl.proc.exit_code, 0) << wl.describe();
  ASSERT_EQ(wl.apps.size(), 2u);
  double mean_k = 0;
  for (const AppRow &a : wl.apps)
    mean_k += std::atoi(a.name.c_str() + 5) / 2.0; /* mn4-pNNN: the pattern's 1-based row */
  EXPECT_NEAR(coefficient(wl, 1), 100 * mean_k * mib, 1e-6 * 100 * mean_k * mib);
  EXPECT_NEAR(coefficient(wl, 0), 0, 1e-3 * mib);
  const cJSON *drawn = cJSON_GetObjectItemCaseSensitive(ascent_group(wl), "profiles");
  EXPECT_EQ(cJSON_IsNumber(drawn) ? drawn->valueint : -1, 2);
  SimRun given = run_scenario(scenario(R"({"profiles": "group-fit", "fit_over": "dataset"})"),
                              tiny_platform_xml({10e9, 10e9, 10e9, 10e9}, 4));
  EXPECT_EQ(given.proc.exit_code, 2) << given.describe();
  EXPECT_NE(given.proc.err.find("knowledge.fit_over"), std::string::npos) << given.proc.err;
  EXPECT_FALSE(given.has_results);
}
