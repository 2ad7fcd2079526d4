// iosim engine tests — each job's reference bandwidth b_i (apps.csv `bandwidth_Bps`, the reference of `yield`,
// `rho_io` and `rho_con`) is what the job gets alone on the platform over its whole route, and no bandwidth a run
// reports exceeds the element that carried it (docs/outputs.md, "The reference bandwidth b_i"). Hand-written
// platforms whose shared core link binds; every expectation is computed by hand in the comments.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

using namespace iosim_test;

namespace {

// test/fixtures/site-64n-8ost-core6.xml: 64 nodes behind 1 GB/s links, a 6 GB/s core link, 8 OSTs of 1.5 GB/s.
const std::string kCore6 = read_text(std::string(IOSIM_SOURCE_DIR) + "/test/fixtures/site-64n-8ost-core6.xml");

double num(const SimRun &r, size_t row, const std::string &col) {
  if (row >= r.apps_csv.size()) return NAN;
  auto c = r.apps_csv[row].find(col);
  return c == r.apps_csv[row].end() || c->second.empty() ? NAN : std::strtod(c->second.c_str(), nullptr);
}

std::string job(const std::string &name, int nodes, double release, double bytes) {
  return R"({"name": ")" + name + R"(", "nodes": )" + std::to_string(nodes) + R"(, "release": )" + fmt(release) +
         R"(, "phases": [{"io": )" + fmt(bytes) + "}]}";
}

std::string scenario(const std::string &apps, const std::string &sharing) {
  return R"({"workload": {"applications": [)" + apps + R"(]}, "allocation": {"policy": "fixed", "n": 8},
         "sharing": {"policy": ")" +
         sharing + R"("}, "output": {"progress": false}})";
}

} // namespace

// System: one job of 8 nodes writes 48 GB over the 8 OSTs, alone, on the platform whose core link (6 GB/s) is
// narrower than its nodes (8 × 1 GB/s) and its OSTs (12 GB/s). By hand: the core binds, 48 / 6 = 8 s. Alone it gets
// 6 GB/s, so b_i = 6 GB/s, yield = (48 / 6) / 8 = 1, and ρ_con = ρ − ρ_io = 0 with ρ = T_io / (V / b_j(n_perf)) =
// 8 / (48 / 8) = 4/3 = ρ_io = b_j(n_perf) / b_i = 8 / 6 (b_j(n) = min(8 × 1, n × 1.5) GB/s, n_perf = 6). Before,
// b_i was b_j(8) = 8 GB/s, which leaves the core out: yield 0.75, ρ_con 1/3.
TEST(reference_engine, AJobAloneBehindABindingCoreLinkHasYieldOneAndNoContention) {
  for (const char *sharing : {"maxmin", "fairshare"}) {
    SCOPED_TRACE(sharing);
    SimRun r = run_scenario(scenario(job("A", 8, 0, 48e9), sharing), kCore6);
    ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
    EXPECT_NEAR(num(r, 0, "io_time_s"), 8.0, 1e-6);
    EXPECT_NEAR(num(r, 0, "bandwidth_Bps"), 6e9, 1e-3);
    EXPECT_NEAR(num(r, 0, "yield"), 1.0, 1e-9);
    EXPECT_NEAR(num(r, 0, "rho_io"), 8.0 / 6.0, 1e-9);
    EXPECT_NEAR(num(r, 0, "rho_con"), 0.0, 1e-9);
    EXPECT_NEAR(r.metric("min_yield"), 1.0, 1e-9);
    EXPECT_NEAR(r.metric("mean_rho_con"), 0.0, 1e-9);
  }
}

// System: two jobs of 8 nodes, 48 GB each, start together behind the 6 GB/s core (maxmin). By hand: each gets 3 GB/s,
// both end at 16 s; alone each would take 8 s: b_i = 6 GB/s, yield = 8 / 16 = 0.5, ρ = 16 / 6 = 8/3, ρ_io = 4/3,
// ρ_con = 4/3: the contention is the other job's, and only that.
TEST(reference_engine, ContentionIsWhatTheOtherJobsCost) {
  SimRun r = run_scenario(scenario(job("A", 8, 0, 48e9) + ", " + job("B", 8, 0, 48e9), "maxmin"), kCore6);
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  for (size_t j = 0; j < 2; j++) {
    EXPECT_NEAR(num(r, j, "io_time_s"), 16.0, 1e-6);
    EXPECT_NEAR(num(r, j, "yield"), 0.5, 1e-9);
    EXPECT_NEAR(num(r, j, "rho_con"), 4.0 / 3.0, 1e-9);
  }
  // the platform delivered 96 GB over the 16 s some I/O was pending: 6 GB/s, the core's capacity; Eq. 2's aggregate
  // (3 + 3 GB/s) is the same here
  EXPECT_NEAR(r.metric("delivered_bandwidth_Bps"), 6e9, 1e-3);
  EXPECT_NEAR(r.metric("io_busy_s"), 16.0, 1e-6);
}

// System: a stream of 12 jobs released at 1e8 … 1e9 s (dates of a Darshan stream years long), each of 1 to 8 nodes
// writing from 1 kB to 1 GB once, alone (each ends long before the next starts), on the core-6 platform. By hand, job
// k alone gets min(Q_k × 1, 6) GB/s. Every row: io_bandwidth_Bps = V / T_io never above its reference bandwidth_Bps,
// nor above the core (6 GB/s) or its nodes (Q × 1 GB/s); yield = 1 and ρ_con = 0 within rounding. At such dates two
// absolute dates differ by their rounding (1.5e-8 s at 1e8 s), which for a 1 kB write at 1 GB/s (1e-6 s) was a rate
// 1.5 % above the NIC.
TEST(reference_engine, NoBandwidthAboveItsElementAtDatesOfAStream) {
  std::string apps;
  const double bytes[] = {1e3, 7e3, 1e5, 3e6, 1e9, 2.5e3};
  for (int k = 0; k < 12; k++) {
    int nodes = 1 + (k * 3) % 8;
    double release = 1e8 + k * (9e8 / 11) + 0.123456789 * k;
    apps += (k > 0 ? ", " : "") + job("J" + std::to_string(k), nodes, release, bytes[k % 6]);
  }
  SimRun r = run_scenario(scenario(apps, "maxmin"), kCore6);
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  ASSERT_EQ(r.apps_csv.size(), 12u);
  for (size_t j = 0; j < 12; j++) {
    SCOPED_TRACE(j);
    int nodes = 1 + ((int)j * 3) % 8;
    double seen = num(r, j, "io_bandwidth_Bps"), ref = num(r, j, "bandwidth_Bps");
    double alone = std::fmin(nodes * 1e9, 6e9);
    EXPECT_LE(seen, ref);
    EXPECT_LE(seen, alone);
    EXPECT_NEAR(ref, alone, alone * 1e-9);
    EXPECT_NEAR(num(r, j, "yield"), 1.0, 1e-9);
    EXPECT_NEAR(num(r, j, "rho_con"), 0.0, 1e-6);
  }
  EXPECT_LE(r.metric("delivered_bandwidth_Bps"), 6e9);
}
