// iosim engine tests — the sharing policy `interference` (policies/sharing/interference.c; docs/validation.md,
// "Interference sharing, calibrated on the window"). Each run is its own process; every expectation is computed by
// hand in the comments.
//
// The system of every test: a generated oss-ost platform of N = 4 OSTs of C/4 bytes/s each (one server, its links and
// the NICs at 1e15 bytes/s: only the OSTs can bind), two applications released at 0 on one node each, allocation
// fixed at their 4 OSTs (greedy-non-clairvoyant placement: both on ost0..ost3), the job of bandwidth P (profile
// {"4": P}, cap P/4 per OST) writing V bytes, the background of bandwidth r (cap r/4 per OST) writing Vb bytes.
// With κ = K/4 on each OST, the job's transfer is bounded by (P/4) / (1 + (r/4)/(K/4)) = P'/4, P' = P / (1 + r/K),
// the background's by R'/4, R' = r / (1 + P/K); max-min then shares C/4 among those bounds on each OST, so while both
// run the job gets min(P', max(C − R', C/2)) bytes/s (docs/validation.md's closed form).
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <string>

using namespace iosim_test;

namespace {

// The scenario above; `sharing` is the JSON object of the sharing policy.
std::string pair(double c, double p, double r, double v, double vb, const std::string &sharing) {
  return R"({"platform": {"kind": "oss-ost", "compute": 2, "servers": 1, "osts_per_server": 4, "ost_bw": )" +
         fmt(c / 4) + R"(, "server_bw": 1e15, "nic_bw": 1e15},
    "workload": {"applications": [
      {"name": "job", "nodes": 1, "release": 0, "profile": {"4": )" +
         fmt(p) + R"(}, "io_resources": 4, "phases": [{"write": )" + fmt(v) + R"(}]},
      {"name": "bg", "nodes": 1, "release": 0, "profile": {"4": )" +
         fmt(r) + R"(}, "io_resources": 4, "phases": [{"write": )" + fmt(vb) + R"(}]}]},
    "allocation": {"policy": "fixed"}, "placement": {"policy": "greedy-non-clairvoyant"},
    "sharing": )" +
         sharing + R"(, "output": {"progress": false}})";
}

} // namespace

// (a) C = 1e12 does not bind: P = 8e9, r = 4e9, K = 8e9 (κ = 2e9 per OST), V = 32e9, Vb = 1e11. By hand: per OST the
// job is bounded by 2e9 / (1 + 1e9/2e9) = 1.3333e9, the background by 1e9 / (1 + 2e9/2e9) = 0.5e9, sum 1.83e9 < 2.5e11:
// both at their bounds. Job: P' = 4 × 1.3333e9 = 8e9/1.5 = 5.3333e9, I/O time 32e9 / (8e9/1.5) = 6 s. Background:
// 6 s at R' = 2e9 moves 12e9, then alone (L = 0, its cap r = 4e9): 88e9 / 4e9 = 22 s, I/O time 28 s.
TEST(interference_engine, SlowedWhenTheFileSystemDoesNotBind) {
  SimRun s = run_scenario(pair(1e12, 8e9, 4e9, 32e9, 1e11, R"({"policy": "interference", "kappa": 2e9})"));
  ASSERT_EQ(s.proc.exit_code, 0) << s.describe();
  EXPECT_NEAR(s.app("job").io_time, 6.0, 6.0 * 1e-6);
  EXPECT_NEAR(s.app("bg").io_time, 28.0, 28.0 * 1e-6);
}

// (b) C = 8e9 binds: P = r = 8e9, K = 16e9 (κ = 4e9), V = 32e9, Vb = 1e11. By hand: per OST each is bounded by
// 2e9 / (1 + 2e9/4e9) = 1.3333e9, sum 2.667e9 > C/4 = 2e9: max-min gives each 1e9 (C/2 = 4e9 over the 4 OSTs; P' = R'
// = 5.333e9, sum 10.67e9 > C). Job: 32e9 / 4e9 = 8 s. Background: 32e9 in those 8 s, then alone at its cap 8e9
// (= C): 68e9 / 8e9 = 8.5 s, I/O time 16.5 s.
TEST(interference_engine, EqualSharesWhenTheFileSystemBinds) {
  SimRun s = run_scenario(pair(8e9, 8e9, 8e9, 32e9, 1e11, R"({"policy": "interference", "kappa": 4e9})"));
  ASSERT_EQ(s.proc.exit_code, 0) << s.describe();
  EXPECT_NEAR(s.app("job").io_time, 8.0, 8.0 * 1e-6);
  EXPECT_NEAR(s.app("bg").io_time, 16.5, 16.5 * 1e-6);
}

// (c) where interference and max-min differ: C = 8e9, P = 8e9, r = 2e9, K = 8e9 (κ = 2e9, given as the string
// "2GB/s" = 2e9 bytes/s), V = 32e9, Vb = 25e9. By hand: per OST the job is bounded by 2e9 / (1 + 0.5e9/2e9) = 1.6e9,
// the background by 0.5e9 / (1 + 2e9/2e9) = 0.25e9, sum 1.85e9 <= C/4 = 2e9: both at their bounds (P' = 6.4e9, R' =
// 1e9). Job: 32e9 / 6.4e9 = 5 s. Background: 5 s at 1e9 moves 5e9, then alone at its cap 2e9 (the policy is asked
// again when the job's transfers leave): 20e9 / 2e9 = 10 s, I/O time 15 s. (With "GiB", κ = 2.147e9, the job would
// take 32e9 / (4 × 2e9 / (1 + 0.5e9/2.147e9)) = 4.93 s.)
TEST(interference_engine, SlowedBelowWhatMaxminGives) {
  SimRun s = run_scenario(pair(8e9, 8e9, 2e9, 32e9, 25e9, R"({"policy": "interference", "kappa": "2GB/s"})"));
  ASSERT_EQ(s.proc.exit_code, 0) << s.describe();
  EXPECT_NEAR(s.app("job").io_time, 5.0, 5.0 * 1e-6);
  EXPECT_NEAR(s.app("bg").io_time, 15.0, 15.0 * 1e-6);
  EXPECT_EQ(s.str("scenario.sharing.kappa"), "2GB/s"); // the resolved scenario keeps the value as given
}

// (c) with κ = 0 (no interference) and under maxmin: per OST the job's cap 2e9 and the background's 0.5e9 on C/4 =
// 2e9: max-min gives the background its cap 0.5e9 (under the fair share 1e9) and the job the rest, 1.5e9: the job at
// 6e9 = min(P, max(C − r, C/2)), 32e9 / 6e9 = 5.3333 s; the background at its cap 2e9 throughout, 25e9 / 2e9 =
// 12.5 s. Expectations: the same numbers under both policies (κ = 0 is maxmin).
TEST(interference_engine, KappaZeroIsMaxmin) {
  for (const char *sharing : {R"({"policy": "interference", "kappa": 0})", R"({"policy": "maxmin"})"}) {
    SCOPED_TRACE(sharing);
    SimRun s = run_scenario(pair(8e9, 8e9, 2e9, 32e9, 25e9, sharing));
    ASSERT_EQ(s.proc.exit_code, 0) << s.describe();
    EXPECT_NEAR(s.app("job").io_time, 32.0 / 6.0, 32.0 / 6.0 * 1e-6);
    EXPECT_NEAR(s.app("bg").io_time, 12.5, 12.5 * 1e-6);
  }
}

// `iosim policies --family sharing` lists the policy with its parameter (name, default, unit) and its source.
TEST(interference_engine, ListedWithItsParameter) {
  TempDir d;
  Process p = run_iosim({"policies", "--family", "sharing"}, d.path());
  ASSERT_EQ(p.exit_code, 0) << p.err;
  for (const char *needle : {"interference", "kappa = 0 bytes/s", "TOKIO-ABC"})
    EXPECT_NE(p.out.find(needle), std::string::npos) << "`iosim policies` does not say " << needle << ":\n" << p.out;
}
