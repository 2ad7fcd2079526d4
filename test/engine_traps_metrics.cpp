// iosim engine tests — the metrics a what-if study compares (issue 22): a platform-independent I/O figure
// (total_io_time_s, io_stretch and mean_io_stretch against a reference bandwidth that does not depend on the pool,
// src/model/ios_metrics.h ios_reference_bandwidth), and one definition of ρ_io in apps.csv and results.json
// (RR-9549 §3.3.2). Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace iosim_test;

namespace {

constexpr double kTol = 1e-9;

double cell(const SimRun &r, const std::string &app, const std::string &col) {
  for (const auto &row : r.apps_csv)
    if (row.at("name") == app) {
      const std::string &v = row.at(col);
      return v.empty() ? NAN : std::stod(v);
    }
  ADD_FAILURE() << "no application " << app << " in apps.csv";
  return NAN;
}

} // namespace

// System: deploy/whatif-ionodes.json (docs/outputs.md, "Did more I/O nodes help?"): one application of 64 nodes,
// 10 s of work then 50 GB, profile b(1) = 1.25 GB/s to b(24) = 30 GB/s (linear in between: b(n) = 1.25 n GB/s), on
// the forwarding platform (I/O nodes of 1.25 GB/s, NICs of 12.5 GB/s), allocation static: n = round(64·F/512).
// Expectations (by hand):
//   F = 12: n = round(1.5) = 2, b(2) = 2.5 GB/s, T_io = 50/2.5 = 20 s; n_perf over 1..12 is 12, b = 15 GB/s:
//           ρ = 20/(50/15) = 6, ρ_io = 15/2.5 = 6, ρ_con = 0.
//   F = 24: n = 3, b(3) = 3.75 GB/s, T_io = 50/3.75 = 13.333 s; n_perf over 1..24 is 24, b = 30 GB/s:
//           ρ = 13.333/(50/30) = 8 (higher: a better reference), ρ_io = 30/3.75 = 8.
//   The reference of io_stretch is the profile's best point, 30 GB/s on both platforms: 20/(50/30) = 12, then 8;
//   total_io_time_s = T_io (one application): 20, then 13.333; mean_io_stretch = io_stretch.
TEST(engine_traps_metrics, MoreIoNodesLowerTheStretchWhileTheSlowdownRises) {
  const std::string scenario = std::string(IOSIM_SOURCE_DIR) + "/deploy/whatif-ionodes.json";
  SimRun f12 = run_scenario_file(scenario);
  SimRun f24 = run_scenario_file(scenario, {"platform.ionodes=24"});
  ASSERT_EQ(f12.proc.exit_code, 0) << f12.describe();
  ASSERT_EQ(f24.proc.exit_code, 0) << f24.describe();
  struct Want {
    const SimRun &r;
    int n;
    double t_io, slowdown, rho_io, stretch;
  } cases[] = {{f12, 2, 20.0, 6.0, 6.0, 12.0}, {f24, 3, 40.0 / 3.0, 8.0, 8.0, 8.0}};
  for (const Want &w : cases) {
    SCOPED_TRACE(w.n);
    EXPECT_EQ(w.r.app("big").n_resources, w.n);
    EXPECT_REL(w.r.app("big").io_time, w.t_io, kTol);
    EXPECT_REL(w.r.app("big").io_slowdown, w.slowdown, kTol);
    EXPECT_REL(cell(w.r, "big", "rho_io"), w.rho_io, kTol);
    EXPECT_NEAR(cell(w.r, "big", "rho_con"), 0.0, kTol);
    EXPECT_REL(cell(w.r, "big", "ref_bandwidth_Bps"), 30e9, kTol);
    EXPECT_REL(cell(w.r, "big", "io_stretch"), w.stretch, kTol);
    EXPECT_REL(w.r.metric("total_io_time_s"), w.t_io, kTol);
    EXPECT_REL(w.r.metric("mean_io_stretch"), w.stretch, kTol);
    EXPECT_REL(w.r.metric("mean_rho_io"), w.rho_io, kTol);
    // the summary prints the platform-independent figures
    EXPECT_NE(w.r.proc.out.find("total_io_time_s " + std::string(w.n == 2 ? "20" : "13.3333") + " | mean_io_stretch " +
                                (w.n == 2 ? "12" : "8")),
              std::string::npos)
        << w.r.proc.out;
  }
}

// System: 4 I/O nodes of 1 GB/s, NICs of 100 GB/s; A (8 nodes, no profile: b(n) = min(8·100, n·1) GB/s = n GB/s)
// and B (profile b(1) = 1 GB/s, b(2) = 2 GB/s), each writing 4 GB alone, at different times (B released at 100 s),
// allocation fixed n = 1. Expectations (by hand):
//   A: T_io = 4 s, n_perf = 4 (b = 4 GB/s): ρ = 4/(4/4) = 4, ρ_io = b(4)/b(1) = 4, ρ_con = 0; reference Q·b = 800
//      GB/s: io_stretch = 4/(4/800) = 800.
//   B: T_io = 4 s, n_perf = 2: ρ = 4/(4/2) = 2, ρ_io = 2, ρ_con = 0; reference 2 GB/s: io_stretch = 2.
//   One definition everywhere: apps.csv's rho_io (4 and 2) and results.json's mean_rho_io = (4 + 2)/2 = 3 (not null:
//   an application without a profile has the b_j(n) the run synthesised), mean_rho_con = 0, and
//   mean_rho_io + mean_rho_con = mean_io_slowdown = 3. total_io_time_s = 8, mean_io_stretch = 401.
TEST(engine_traps_metrics, RhoIoHasOneDefinitionWithAndWithoutProfile) {
  const std::string s = R"({"workload": {"applications": [
      {"name": "A", "nodes": 8, "io": "4GB"},
      {"name": "B", "nodes": 8, "release": 100, "io": "4GB", "profile": {"1": "1GBps", "2": "2GBps"}}]},
    "allocation": {"policy": "fixed", "n": 1}, "output": {"progress": false}})";
  SimRun r = run_scenario(s, tiny_platform_xml({1e9, 1e9, 1e9, 1e9}, 16, 100e9));
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_REL(r.app("A").io_slowdown, 4.0, kTol);
  EXPECT_REL(cell(r, "A", "rho_io"), 4.0, kTol);
  EXPECT_NEAR(cell(r, "A", "rho_con"), 0.0, kTol);
  EXPECT_REL(cell(r, "A", "ref_bandwidth_Bps"), 800e9, kTol);
  EXPECT_REL(cell(r, "A", "io_stretch"), 800.0, kTol);
  EXPECT_REL(cell(r, "B", "rho_io"), 2.0, kTol);
  EXPECT_REL(cell(r, "B", "io_stretch"), 2.0, kTol);
  ASSERT_NE(r.json("metrics.mean_rho_io"), nullptr);
  EXPECT_REL(r.metric("mean_rho_io"), 3.0, kTol);
  EXPECT_NEAR(r.metric("mean_rho_con"), 0.0, kTol);
  EXPECT_REL(r.metric("mean_rho_io") + r.metric("mean_rho_con"), r.metric("mean_io_slowdown"), kTol);
  EXPECT_REL(r.metric("total_io_time_s"), 8.0, kTol);
  EXPECT_REL(r.metric("mean_io_stretch"), 401.0, kTol);
}

// Expectations: an application without I/O has an empty rho_io, rho_con and io_stretch (nothing to slow down), and
// a run where no application does I/O has null mean_rho_io, mean_rho_con and mean_io_stretch, and total_io_time_s 0.
TEST(engine_traps_metrics, NoIoMeansEmptyEverywhere) {
  SimRun r = run_scenario(R"({"workload": {"applications": [{"name": "C", "nodes": 2, "work": 5}]},
                              "output": {"progress": false}})",
                          tiny_platform_xml({1e9}, 4, 100e9));
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_TRUE(std::isnan(cell(r, "C", "rho_io")));
  EXPECT_TRUE(std::isnan(cell(r, "C", "rho_con")));
  EXPECT_TRUE(std::isnan(cell(r, "C", "io_stretch")));
  for (const char *m : {"mean_rho_io", "mean_rho_con", "mean_io_stretch", "mean_io_slowdown"}) {
    ASSERT_NE(r.json(std::string("metrics.") + m), nullptr) << m;
    EXPECT_TRUE(cJSON_IsNull(r.json(std::string("metrics.") + m))) << m;
  }
  EXPECT_EQ(r.metric("total_io_time_s"), 0.0);
}

// System: docs/whatif/site.json, the six Darshan sample logs replayed as recorded on test/fixtures/site-64n-8ost.xml
// with the queue. Expectations: no yield above 1 (RR-9502 Eq. 6: no job is faster shared than alone); sample-dxt-simple
// ran alone (4 us of I/O at 1.29e8 s) and has yield 1 to its dates' rounding, not 1 + 1.9e-9 as before the clamp.
TEST(engine_traps_metrics, NoYieldAboveOneOnTheSiteStream) {
  SimRun r = run_scenario_file(std::string(IOSIM_SOURCE_DIR) + "/docs/whatif/site.json");
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  ASSERT_EQ(r.apps_csv.size(), 6u);
  for (const auto &row : r.apps_csv)
    EXPECT_LE(std::stod(row.at("yield")), 1.0) << row.at("name");
  EXPECT_NEAR(cell(r, "sample-dxt-simple", "yield"), 1.0, 1e-8);
  EXPECT_LE(r.metric("min_yield"), 1.0);
}
