// iosim engine tests — a run naming a calibration whose file system chose the sharing `interference`
// (src/inputs/calibration.c; docs/validation.md, "Interference sharing, calibrated on the window", its amendment, and
// "A run with its calibration"). Each run is its own process; every expectation is computed by hand in the comments.
//
// The system of every test (as test/engine_interference.cpp's (c)): a generated oss-ost platform of 4 OSTs of 1 GB/s
// each in its XML (one server, its links and the NICs at 1e15 B/s: only the OSTs can bind), two applications released
// at 0 on one node each, both on ost0..ost3 (allocation fixed, greedy-non-clairvoyant placement): the job of bandwidth
// P = 8e9 B/s (profile {"4": 8e9}, cap 2e9 per OST) writing 32e9 B, the background of r = 2e9 B/s (cap 0.5e9 per OST)
// writing 25e9 B. The calibration file cal.json holds one file system with the per-OST capacity c = 2e9 B/s (every
// OST's link becomes 2 GB/s: C = 8e9 over the 4) and, unless a test says otherwise, the sharing {"policy":
// "interference", "kappa_per_ost_Bps": 2e9} (K = 8e9 over the 4 OSTs). The file records no platform, so the scenario
// asks for its capacities explicitly ("apply_capacity": true; without it a run on another platform changes none:
// CapacityOnlyWhenAsked).
//
// By hand, with kappa = 2e9 per OST: the job's transfer on each OST is bounded by 2e9 / (1 + 0.5e9 / 2e9) = 1.6e9,
// the background's by 0.5e9 / (1 + 2e9 / 2e9) = 0.25e9; 1.85e9 <= 2e9 (the OST): both at their bounds. Job: 32e9 /
// (4 × 1.6e9) = 5 s. Background: 5 s at 1e9 moves 5e9, then alone (no other load, its cap 2e9): 20e9 / 2e9 = 10 s,
// I/O time 15 s.
// With kappa = 0 or under maxmin: on each OST the background gets its cap 0.5e9 (below the fair share 1e9) and the
// job the rest, 1.5e9: 6e9 in all, 32e9 / 6e9 = 5.3333 s; the background at its cap 2e9 throughout: 25e9 / 2e9 =
// 12.5 s. (Without the calibration's c, OSTs of 1e9, the times would differ from both.)
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <string>

using namespace iosim_test;

namespace {

const char *const KAPPA_2E9 = R"({"policy": "interference", "variant": "all", "interference_capacity_Bps": 8e9,
    "kappa_per_ost_Bps": 2e9, "past_median_ape": {"maxmin": 0.1, "interference": 0.05}, "rule": "hand-made"})";

// The calibration file with file system site/scratch (c = 2e9 B/s per OST) and `sharing` (a JSON value).
std::string calibration(const std::string &sharing) {
  return R"({"format": "iosim-calibration/1", "window": {"newest_measurement": "2018-02-16T02:31:17Z"},
    "stale_after_days": 30, "file_systems": [{"system": "site", "fs": "scratch", "osts": 4, "capacity_Bps": 8e9,
    "ost_capacity_Bps": 2e9, "sharing": )" +
         sharing + R"(}], "held_out_error": {"jobs": 10, "median_ape": 0.05, "p75": 0.1, "p90": 0.2}})";
}

// The scenario above, naming cal.json; `sharing` is the JSON object of the scenario's sharing policy.
SimRun run_with(const std::string &sharing, const std::string &cal_sharing = KAPPA_2E9,
                const std::string &calibration_value = R"({"file": "cal.json", "apply_capacity": true})") {
  std::string sc = R"({"platform": {"kind": "oss-ost", "compute": 2, "servers": 1, "osts_per_server": 4,
      "ost_bw": 1e9, "server_bw": 1e15, "nic_bw": 1e15},
    "workload": {"applications": [
      {"name": "job", "nodes": 1, "release": 0, "profile": {"4": 8e9}, "io_resources": 4,
       "phases": [{"write": 32e9}]},
      {"name": "bg", "nodes": 1, "release": 0, "profile": {"4": 2e9}, "io_resources": 4,
       "phases": [{"write": 25e9}]}]},
    "allocation": {"policy": "fixed"}, "placement": {"policy": "greedy-non-clairvoyant"},
    "calibration": )" +
                   calibration_value + R"(, "sharing": )" + sharing + R"(, "output": {"progress": false}})";
  RunOptions opt;
  opt.extra_files["cal.json"] = calibration(cal_sharing);
  return run_scenario(sc, "", opt);
}

bool has(const std::string &text, const std::string &needle) {
  return text.find(needle) != std::string::npos;
}

// results.json's boolean at a dotted path: 1 true, 0 false, -1 absent or not a boolean.
int yes(const SimRun &s, const std::string &dotted) {
  const cJSON *v = s.json(dotted);
  return cJSON_IsBool(v) ? cJSON_IsTrue(v) : -1;
}

} // namespace

// Sharing `interference` without a kappa: the run uses the calibration's 2e9 per OST (job 5 s, background 15 s by hand
// above), says so on the mapping line, and results.json's resolved scenario holds it.
TEST(calibration_sharing, KappaOfTheCalibrationApplied) {
  SimRun s = run_with(R"({"policy": "interference"})");
  ASSERT_EQ(s.proc.exit_code, 0) << s.describe();
  EXPECT_NEAR(s.app("job").io_time, 5.0, 5.0 * 1e-6);
  EXPECT_NEAR(s.app("bg").io_time, 15.0, 15.0 * 1e-6);
  EXPECT_TRUE(has(s.proc.err, "is 2e+09 B/s, the per-OST capacity ost_capacity_Bps fitted on site/scratch"))
      << s.proc.err;
  EXPECT_TRUE(has(s.proc.err, "cal.json: sharing interference: kappa = 2e+09 bytes/s (kappa_per_ost_Bps)"))
      << s.proc.err;
  EXPECT_DOUBLE_EQ(s.num("scenario.sharing.kappa"), 2e9);
}

// The scenario's own kappa (here 0: no interference, given explicitly) is kept: the max-min times (5.3333 s, 12.5 s)
// and a line saying so; the same with kappa given through --set.
TEST(calibration_sharing, ScenarioKappaKept) {
  SimRun s = run_with(R"({"policy": "interference", "kappa": 0})");
  ASSERT_EQ(s.proc.exit_code, 0) << s.describe();
  EXPECT_NEAR(s.app("job").io_time, 32.0 / 6.0, 32.0 / 6.0 * 1e-6);
  EXPECT_NEAR(s.app("bg").io_time, 12.5, 12.5 * 1e-6);
  EXPECT_TRUE(has(s.proc.err, "sharing interference keeps the scenario's own kappa = 0 bytes/s (the calibration's "
                              "kappa_per_ost_Bps, fitted on site/scratch, is 2e+09)"))
      << s.proc.err;
  EXPECT_FALSE(has(s.proc.err, "kappa = 2e+09 bytes/s (kappa_per_ost_Bps)")) << s.proc.err;
  EXPECT_DOUBLE_EQ(s.num("scenario.sharing.kappa"), 0.0);
}

// Another sharing policy (maxmin) is not changed: the max-min times, and one note naming the calibration's kappa and
// the fix.
TEST(calibration_sharing, NoteForAnotherPolicy) {
  SimRun s = run_with(R"({"policy": "maxmin"})");
  ASSERT_EQ(s.proc.exit_code, 0) << s.describe();
  EXPECT_NEAR(s.app("job").io_time, 32.0 / 6.0, 32.0 / 6.0 * 1e-6);
  EXPECT_NEAR(s.app("bg").io_time, 12.5, 12.5 * 1e-6);
  EXPECT_TRUE(has(s.proc.err, "its held-out error is for sharing `interference` (chosen on site/scratch's past), not "
                              "this scenario's `maxmin` (kept): the band does not describe the sharing model this run "
                              "uses; fix: \"sharing\": {\"policy\": \"interference\", \"kappa\": 2e+09}"))
      << s.proc.err;
  EXPECT_EQ(s.str("scenario.sharing.policy"), "maxmin");
  EXPECT_EQ(s.str("calibration.band_sharing.policy"), "interference");
  EXPECT_DOUBLE_EQ(s.num("calibration.band_sharing.kappa"), 2e9);
  EXPECT_EQ(s.str("calibration.run_sharing"), "maxmin");
  EXPECT_EQ(yes(s, "calibration.sharing_matches"), 0);
}

// A calibration whose file system kept max-min: sharing `interference` without a kappa keeps the default 0 (the
// max-min times), and no kappa is printed.
TEST(calibration_sharing, MaxminCalibrationLeavesKappa) {
  SimRun s = run_with(R"({"policy": "interference"})", R"({"policy": "maxmin", "kappa_per_ost_Bps": null})");
  ASSERT_EQ(s.proc.exit_code, 0) << s.describe();
  EXPECT_NEAR(s.app("job").io_time, 32.0 / 6.0, 32.0 / 6.0 * 1e-6);
  EXPECT_NEAR(s.app("bg").io_time, 12.5, 12.5 * 1e-6);
  EXPECT_FALSE(has(s.proc.err, "kappa")) << s.proc.err;
}

// Bad sharing objects: exit 2 before anything runs, naming the file, the field, the value and the fix.
TEST(calibration_sharing, BadKappaRefused) {
  struct Case {
    const char *sharing, *field, *value;
  } cases[] = {
      {R"({"policy": "interference", "kappa_per_ost_Bps": -1})", "file_systems[].sharing.kappa_per_ost_Bps", "is -1"},
      {R"({"policy": "interference", "kappa_per_ost_Bps": "2GB/s"})", "file_systems[].sharing.kappa_per_ost_Bps",
       "is \"2GB/s\""},
      {R"({"policy": "interference", "kappa_per_ost_Bps": null})", "file_systems[].sharing.kappa_per_ost_Bps",
       "is null"},
      {R"({"policy": "fair", "kappa_per_ost_Bps": 2e9})", "file_systems[].sharing.policy", "is \"fair\""},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.sharing);
    SimRun s = run_with(R"({"policy": "interference"})", c.sharing);
    EXPECT_EQ(s.proc.exit_code, 2) << s.describe();
    EXPECT_TRUE(has(s.proc.err, std::string("cal.json: ") + c.field + ": " + c.value)) << s.proc.err;
    EXPECT_TRUE(has(s.proc.err, "fix: iosim calibrate again")) << s.proc.err;
    EXPECT_FALSE(s.has_results);
  }
}

// The file records no platform: named by its path alone ("auto"), it changes no capacity on this platform (OSTs of
// 1 GB/s as written: by hand, kappa 2e9 per OST, the job's bound 1.6e9 and the background's 0.25e9 per OST sum to
// 1.85e9 > 1e9, so max-min shares each OST's 1e9: the background keeps its 0.25e9, the job gets 0.75e9, 3e9 over the
// 4 OSTs: 32e9 / 3e9 = 10.667 s), says its band is transferred, and results.json records what it applied.
TEST(calibration_sharing, CapacityOnlyWhenAsked) {
  SimRun s = run_with(R"({"policy": "interference"})", KAPPA_2E9, R"("cal.json")");
  ASSERT_EQ(s.proc.exit_code, 0) << s.describe();
  EXPECT_NEAR(s.app("job").io_time, 32.0 / 3.0, 32.0 / 3.0 * 1e-6);
  EXPECT_TRUE(has(s.proc.err, "is applied to another platform: no capacity changed (its per-OST capacity 2e+09 B/s "
                              "is not applied); its band is transferred here, not validated"))
      << s.proc.err;
  EXPECT_EQ(yes(s, "calibration.capacity_changed"), 0);
  EXPECT_EQ(yes(s, "calibration.platform_matches"), 0);
  EXPECT_EQ(s.str("calibration.band"), "transferred");
  EXPECT_EQ(s.str("calibration.apply_capacity"), "auto");
  EXPECT_DOUBLE_EQ(s.num("calibration.sharing_params_applied.kappa"), 2e9);
  EXPECT_DOUBLE_EQ(s.num("calibration.osts_changed"), 0);
  EXPECT_EQ(yes(s, "calibration.stale"), 1); // measured up to 2018-02-16, stale after 30 days
  EXPECT_GT(s.num("calibration.age_days"), 2000.0);
  // asked for: the 4 OSTs at 2e9 (the job at 5 s, KappaOfTheCalibrationApplied), recorded
  SimRun t = run_with(R"({"policy": "interference"})");
  ASSERT_EQ(t.proc.exit_code, 0) << t.describe();
  EXPECT_NEAR(t.app("job").io_time, 5.0, 5.0 * 1e-6);
  EXPECT_EQ(yes(t, "calibration.capacity_changed"), 1);
  EXPECT_DOUBLE_EQ(t.num("calibration.osts_changed"), 4);
  EXPECT_EQ(t.str("calibration.band"), "transferred");
  EXPECT_EQ(yes(t, "calibration.apply_capacity"), 1);
}
