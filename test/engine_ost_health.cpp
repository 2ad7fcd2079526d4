// iosim engine tests — the OST-health what-ifs (docs/validation.md, "What-ifs on measured what-ifs, job by job"): a
// server failed over to its partner (`iosim platform oss-ost --set failed_over=F`, src/inputs/platgen_xml.c) and OSTs
// slowed by their fullness (scenario key `ost_fullness`, src/inputs/ost_fullness.c). Each run is its own process;
// every expectation is computed by hand in the comments.
//
// The system of every test: a generated oss-ost platform of 4 servers with one OST each (OSTs of 1 GB/s; NICs at
// 1e15 B/s), one application on 4 nodes writing 4 GiB = 4,294,967,296 B (4096 stripes of 1 MiB) over the 4 OSTs,
// either one shared file striped over all of them (`lustre-default`, stripe count -1: 1024 stripes, 1 GiB, per OST)
// or one file per node of one stripe (round robin: one 1 GiB file per OST). Alone, healthy and empty, each OST moves
// its 1 GiB at 1 GB/s: 1.073741824 s.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <string>

using namespace iosim_test;

namespace {

const double GIB = 1073741824.0;

// The scenario: `platform_extra` and `scenario_extra` are JSON members appended to the platform and to the scenario.
SimRun run_health(const std::string &layout, const std::string &platform_extra, const std::string &scenario_extra,
                  const std::string &server_bw = "1.5e9") {
  std::string stripes = layout == "ssf" ? "-1" : "1";
  std::string sc = R"({"platform": {"kind": "oss-ost", "compute": 4, "servers": 4, "osts_per_server": 1,
      "ost_bw": 1e9, "server_bw": )" +
                   server_bw + R"(, "nic_bw": 1e15)" + platform_extra + R"(},
    "workload": {"applications": [{"name": "job", "nodes": 4, "release": 0, "phases": [{"write": 4294967296}]}]},
    "allocation": {"policy": "fixed"}, "placement": {"policy": "greedy-non-clairvoyant"},
    "sharing": {"policy": "maxmin"},
    "striping": {"policy": "lustre-default", "layout": ")" +
                   layout + R"(", "stripe_count": )" + stripes + R"(, "reseed_files": 0},
    "output": {"progress": false})" +
                   scenario_extra + "}";
  return run_scenario(sc, "", RunOptions());
}

bool has(const std::string &text, const std::string &needle) {
  return text.find(needle) != std::string::npos;
}

} // namespace

// Healthy, servers of 1.5 GB/s: each OST behind its own server at 1 GB/s, 1.073741824 s in both layouts. One server
// failed over (oss0's OST behind oss1): ost0 and ost1 share oss1's 1.5 GB/s, 0.75 GB/s each, and the job waits for
// them: 1 GiB / 0.75e9 = 1.431655765 s (the job's bandwidth min(1, rho / 2) = 0.75 of the healthy one, rho = 1.5).
// With servers of 2 GB/s (rho = 2) the failover costs nothing: 1.073741824 s.
TEST(ost_health, FailoverSharesThePartnersServer) {
  for (const char *layout : {"ssf", "fpp"}) {
    SCOPED_TRACE(layout);
    SimRun ok = run_health(layout, "", "");
    ASSERT_EQ(ok.proc.exit_code, 0) << ok.describe();
    EXPECT_NEAR(ok.app("job").io_time, GIB / 1e9, 1e-9);
    SimRun f = run_health(layout, R"(, "failed_over": 1)", "");
    ASSERT_EQ(f.proc.exit_code, 0) << f.describe();
    EXPECT_NEAR(f.app("job").io_time, GIB / 0.75e9, 1e-9);
    SimRun r2 = run_health(layout, R"(, "failed_over": 1)", "", "2e9");
    ASSERT_EQ(r2.proc.exit_code, 0) << r2.describe();
    EXPECT_NEAR(r2.app("job").io_time, GIB / 1e9, 1e-9);
  }
  // two of the four servers failed over: ost0+ost1 on oss1, ost2+ost3 on oss3: still 0.75 GB/s per OST
  SimRun two = run_health("ssf", R"(, "failed_over": 2)", "");
  ASSERT_EQ(two.proc.exit_code, 0) << two.describe();
  EXPECT_NEAR(two.app("job").io_time, GIB / 0.75e9, 1e-9);
}

// More failed servers than pairs: exit 2 naming the parameter and the largest valid value.
TEST(ost_health, FailoverNeedsPartners) {
  SimRun s = run_health("ssf", R"(, "failed_over": 3)", "");
  EXPECT_EQ(s.proc.exit_code, 2) << s.describe();
  EXPECT_TRUE(has(s.proc.err, "failed_over: 3 failed servers need 6 servers (each fails over to its partner), not 4: "
                              "give at most 2"))
      << s.proc.err;
}

// Fullness [0.9, 0.5, 0.5, 0.2] with knee 0.6 and slope 2: g = 1 - 2 x 0.3 = 0.4 on ost0, 1 on the others; the job
// waits for ost0: 1 GiB / 0.4e9 = 2.68435456 s. Every OST at 1.0 with knee 0, slope 2: 1 - 2 < 0, so the floor:
// 0.05 by default (21.47483648 s), 0.25 when given (4.294967296 s). Knee 0.95 above every fullness: unchanged.
TEST(ost_health, FullnessSlowsEachOst) {
  for (const char *layout : {"ssf", "fpp"}) {
    SCOPED_TRACE(layout);
    SimRun s = run_health(layout, "", R"(, "ost_fullness": {"fullness": [0.9, 0.5, 0.5, 0.2],
        "curve": {"knee": 0.6, "slope": 2}})");
    ASSERT_EQ(s.proc.exit_code, 0) << s.describe();
    EXPECT_NEAR(s.app("job").io_time, GIB / 0.4e9, 1e-9);
    EXPECT_TRUE(has(s.proc.err, "ost_fullness applied: each of the platform's 4 OSTs runs at g(its fullness) of its "
                                "bandwidth, g = max(0.05, 1 - 2 x max(0, fullness - 0.6)): from 0.4 to 1"))
        << s.proc.err;
  }
  SimRun fl = run_health("ssf", "", R"(, "ost_fullness": {"fullness": 1, "curve": {"knee": 0, "slope": 2}})");
  ASSERT_EQ(fl.proc.exit_code, 0) << fl.describe();
  EXPECT_NEAR(fl.app("job").io_time, GIB / 0.05e9, 1e-8);
  SimRun f25 =
      run_health("ssf", "", R"(, "ost_fullness": {"fullness": 1, "curve": {"knee": 0, "slope": 2, "floor": 0.25}})");
  ASSERT_EQ(f25.proc.exit_code, 0) << f25.describe();
  EXPECT_NEAR(f25.app("job").io_time, GIB / 0.25e9, 1e-9);
  SimRun none = run_health("ssf", "", R"(, "ost_fullness": {"fullness": 0.9, "curve": {"knee": 0.95, "slope": 2}})");
  ASSERT_EQ(none.proc.exit_code, 0) << none.describe();
  EXPECT_NEAR(none.app("job").io_time, GIB / 1e9, 1e-9);
}

// Bad ost_fullness objects: exit 2 before anything runs, naming the field, the value and the fix.
TEST(ost_health, BadFullnessRefused) {
  struct Case {
    const char *extra, *message;
  } cases[] = {
      {R"({"fullness": 1.5, "curve": {"knee": 0.6, "slope": 2}})",
       "ost_fullness.fullness: is 1.5: give the fraction of each OST's capacity in use, from 0 to 1"},
      {R"({"fullness": [0.5, 0.5], "curve": {"knee": 0.6, "slope": 2}})",
       "ost_fullness.fullness: holds 2 values for the platform's 4 OSTs"},
      {R"({"fullness": [0.5, 0.5, "x", 0.5], "curve": {"knee": 0.6, "slope": 2}})",
       "ost_fullness.fullness: [2] is \"x\""},
      {R"({"fullness": 0.5})", "ost_fullness.curve: is missing"},
      {R"({"fullness": 0.5, "curve": {"knee": 0.6}})", "ost_fullness.curve.slope: is missing"},
      {R"({"fullness": 0.5, "curve": {"knee": 1.5, "slope": 1}})", "ost_fullness.curve.knee: is 1.5"},
      {R"({"fullness": 0.5, "curve": {"knee": 0.5, "slope": 1, "floor": 0}})", "ost_fullness.curve.floor: is 0"},
      {R"({"fullness": 0.5, "curve": {"knee": 0.5, "slope": 1, "kink": 1}})",
       "ost_fullness.curve: has an unknown field \"kink\""},
      {R"({"full": 0.5, "curve": {"knee": 0.5, "slope": 1}})", "ost_fullness: has an unknown field \"full\""},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.extra);
    SimRun s = run_health("ssf", "", std::string(R"(, "ost_fullness": )") + c.extra);
    EXPECT_EQ(s.proc.exit_code, 2) << s.describe();
    EXPECT_TRUE(has(s.proc.err, c.message)) << s.proc.err;
    EXPECT_FALSE(s.has_results);
  }
}

// A platform without OSTs (one PFS link): refused, naming the fix.
TEST(ost_health, FullnessNeedsOsts) {
  SimRun s = run_scenario(R"({"platform": {"kind": "pfs-single", "compute": 2},
    "workload": {"applications": [{"name": "job", "nodes": 1, "release": 0, "phases": [{"write": 1e9}]}]},
    "ost_fullness": {"fullness": 0.5, "curve": {"knee": 0.5, "slope": 1}}, "output": {"progress": false}})",
                          "", RunOptions());
  EXPECT_EQ(s.proc.exit_code, 2) << s.describe();
  EXPECT_TRUE(has(s.proc.err, "ost_fullness: applies to OSTs, but the scenario's platform has none")) << s.proc.err;
}
