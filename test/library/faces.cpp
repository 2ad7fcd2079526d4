// libiosim's policy and scenario faces through the public API of libiosim.so only (include/iosim/*.h): what the
// examples do not show — refusals and their messages, a registered policy's rates checked, several runs in one process,
// and no SimGrid engine ever started in the calling process.
//
// System / Expectations (by hand):
// - periodic-greedy-yield's delta_s is a duration: "5min" reads as 300 s; -1 is outside [0, ...) and refused.
// - fairshare on B = 1 GB/s with caps 0.3 and 0.2 GB/s: α = min(1, 1/0.5) = 1, so each gets its cap.
// - A registered policy giving 2 GB/s to a transfer capped at 1 GB/s is refused, naming the policy and the rate.
// - The scenario below (pfs-single, B = 1 GB/s; `small` on 1 node and `large` on 3, each 1 s of work then 1 GB, caps
//   1 GB/s) under maxmin (every transfer at its cap, SimGrid's max-min shares the PFS link: 0.5 GB/s each) ends at
//   1 + 1/0.5 = 3 s for both, so run twice in one process it gives makespan 3 s twice.
// - 40 registered policies (more than the 32 the library once held), policy k giving transfer i the rate
//   cap_i·(k+1)/40 and recording the user pointer it was called with: on B = 1 GB/s with caps 0.4 and 0.6 GB/s,
//   policy k gives 1e7·(k+1) and 1.5e7·(k+1) bytes/s (k = 32: 3.3e8 and 4.95e8; k = 39: 4e8 and 6e8 = B in sum), and
//   each sees its own user data. Run with policy k = 9 on the scenario below, each application's 1 GB goes at
//   1e9·10/40 = 0.25 GB/s (0.5 GB/s of the 1 GB/s PFS in all, so max-min leaves both rates as given): 1 + 1/0.25 = 5 s.
#include "iosim/iosim.h"

#include <gtest/gtest.h>
#include <simgrid/s4u/Engine.hpp>

#include <cmath>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace {

const char *scenario_json =
    "{\"platform\": {\"kind\": \"pfs-single\", \"compute\": 4, \"pfs_bw\": \"1GBps\", \"nic_bw\": \"10GBps\"},"
    " \"workload\": {\"applications\": ["
    "  {\"name\": \"small\", \"nodes\": 1, \"release\": 0, \"iterations\": 1, \"work\": \"1s\", \"io\": \"1GB\"},"
    "  {\"name\": \"large\", \"nodes\": 3, \"release\": 0, \"iterations\": 1, \"work\": \"1s\", \"io\": \"1GB\"}]},"
    " \"allocation\": {\"policy\": \"fixed\"}, \"placement\": {\"policy\": \"random\"},"
    " \"sharing\": {\"policy\": \"maxmin\"}, \"seed\": 1}";

std::string out_dir(const char *name) {
  const char *tmp = getenv("TMPDIR");
  return std::string(tmp != nullptr ? tmp : "/tmp") + "/iosim-faces-" + std::to_string(getpid()) + "-" + name;
}

int too_fast(const iosim_share_view_t *view, const iosim_params_t *, double *rates, void *) {
  for (int i = 0; i < iosim_share_view_count(view); i++)
    rates[i] = 2 * iosim_share_view_get(view, i, IOSIM_T_CAP);
  return 0;
}

// Policy k of RegisteredPoliciesEachWithItsUserData: rate_i = cap_i·(k+1)/40; records the user pointer it got.
struct Weight {
  int k;
  const void *seen;
  int calls;
};

int weighted(const iosim_share_view_t *view, const iosim_params_t *, double *rates, void *user) {
  Weight *w = static_cast<Weight *>(user);
  w->seen = user;
  w->calls++;
  for (int i = 0; i < iosim_share_view_count(view); i++)
    rates[i] = iosim_share_view_get(view, i, IOSIM_T_CAP) * (w->k + 1) / 40.0;
  return 0;
}

} // namespace

TEST(PolicyFace, FamiliesPoliciesAndAliases) {
  ASSERT_EQ(iosim_family_find("striping"), IOSIM_STRIPING);
  EXPECT_EQ(iosim_family_find("nope"), IOSIM_EINVAL);
  EXPECT_NE(std::string(iosim_error()).find("allocation, placement, sharing, storage and striping"), std::string::npos);
  for (int f = 0; f < IOSIM_NFAMILIES; f++)
    EXPECT_GT(iosim_policy_count(f), 0) << iosim_family_name(f);
  const iosim_policy_t *bba = iosim_policy_find(IOSIM_ALLOCATION, "bba");
  ASSERT_NE(bba, nullptr);
  EXPECT_STREQ(iosim_policy_name(bba), "best-bandwidth");
  EXPECT_EQ(iosim_policy_family(bba), IOSIM_ALLOCATION);
  EXPECT_EQ(iosim_policy_find(IOSIM_SHARING, "nope"), nullptr);
  EXPECT_NE(std::string(iosim_error()).find("fairshare"), std::string::npos) << iosim_error();
}

TEST(PolicyFace, ParametersReadAsAScenarioReadsThem) {
  const iosim_policy_t *p = iosim_policy_find(IOSIM_SHARING, "periodic-greedy-yield");
  ASSERT_NE(p, nullptr);
  iosim_params_t *v = iosim_params_new(p);
  double x = -1;
  ASSERT_EQ(iosim_params_get(v, "delta_s", &x), IOSIM_OK);
  EXPECT_EQ(x, 0);
  ASSERT_EQ(iosim_params_parse(v, "delta_s", "5min"), IOSIM_OK) << iosim_error();
  iosim_params_get(v, "delta_s", &x);
  EXPECT_EQ(x, 300);
  EXPECT_EQ(iosim_params_set(v, "delta_s", -1), IOSIM_EINVAL);
  EXPECT_NE(std::string(iosim_error()).find("delta_s"), std::string::npos) << iosim_error();
  EXPECT_EQ(iosim_params_set(v, "nope", 1), IOSIM_EINVAL);
  EXPECT_NE(std::string(iosim_error()).find("its parameters are: delta_s, ties"), std::string::npos) << iosim_error();
  iosim_params_get(v, "delta_s", &x);
  EXPECT_EQ(x, 300); // unchanged by the refusals
  // values of another policy are refused by a decision
  double rates[1];
  iosim_share_view_t *view = iosim_share_view_new(0, 1e9, 1);
  EXPECT_EQ(iosim_share(iosim_policy_find(IOSIM_SHARING, "fairshare"), v, view, rates), IOSIM_EINVAL);
  iosim_share_view_free(view);
  iosim_params_free(v);
}

TEST(PolicyFace, ShareAndRefusedRates) {
  iosim_share_view_t *view = iosim_share_view_new(0, 1e9, 2);
  ASSERT_NE(view, nullptr);
  ASSERT_EQ(iosim_share_view_set(view, 0, IOSIM_T_CAP, 0.3e9), IOSIM_OK);
  ASSERT_EQ(iosim_share_view_set(view, 1, IOSIM_T_CAP, 0.2e9), IOSIM_OK);
  EXPECT_EQ(iosim_share_view_set(view, 1, IOSIM_T_PARTS, 0.5), IOSIM_EINVAL); // an integer >= 1
  EXPECT_EQ(iosim_share_view_set(view, 2, IOSIM_T_CAP, 1), IOSIM_EINVAL);     // no transfer 2
  double rates[2] = {-1, -1};
  ASSERT_EQ(iosim_share(iosim_policy_find(IOSIM_SHARING, "fairshare"), nullptr, view, rates), IOSIM_OK);
  EXPECT_DOUBLE_EQ(rates[0], 0.3e9);
  EXPECT_DOUBLE_EQ(rates[1], 0.2e9);
  const iosim_policy_t *bad =
      iosim_sharing_register("too-fast", nullptr, nullptr, 0, 0, nullptr, nullptr, too_fast, nullptr);
  ASSERT_NE(bad, nullptr) << iosim_error();
  EXPECT_EQ(iosim_sharing_register("too-fast", nullptr, nullptr, 0, 0, nullptr, nullptr, too_fast, nullptr), nullptr);
  EXPECT_EQ(iosim_sharing_register("fcfs", nullptr, nullptr, 0, 0, nullptr, nullptr, too_fast, nullptr), nullptr);
  EXPECT_EQ(iosim_policy_find(IOSIM_SHARING, "too-fast"), bad);
  rates[0] = rates[1] = -1;
  EXPECT_EQ(iosim_share(bad, nullptr, view, rates), IOSIM_EINVAL);
  EXPECT_EQ(rates[0], -1); // untouched
  EXPECT_NE(std::string(iosim_error()).find("policy 'too-fast'"), std::string::npos) << iosim_error();
  EXPECT_NE(std::string(iosim_error()).find("rate 6e+08"), std::string::npos) << iosim_error();
  iosim_share_view_free(view);
  EXPECT_FALSE(simgrid::s4u::Engine::is_initialized()); // the policy face never starts SimGrid
}

// The transfer view's fields (iosim/transfer_view.h): names in id order, the defaults of iosim_share_view_new and the
// values iosim_share_view_set accepts, as include/iosim/policy.h documents them.
TEST(PolicyFace, TransferViewFieldsDefaultsAndChecks) {
  const char *names[] = {"app",   "cap",     "remaining", "posted", "seq",  "b",
                         "parts", "release", "progress",  "omega",  "nodes"};
  ASSERT_EQ(IOSIM_T_NFIELDS, 11);
  for (int f = 0; f < IOSIM_T_NFIELDS; f++)
    EXPECT_STREQ(iosim_transfer_field_name(f), names[f]) << f;
  EXPECT_EQ(iosim_transfer_field_name(IOSIM_T_NFIELDS), nullptr);
  EXPECT_EQ(IOSIM_T_CAP, 1);
  EXPECT_EQ(IOSIM_T_NODES, 10);
  iosim_share_view_t *view = iosim_share_view_new(5, 2e9, 2); // now = 5 s, B = 2 GB/s
  ASSERT_NE(view, nullptr);
  const double want[] = {1, 2e9, 0, 5, 1, 2e9, 1, 0, 0, NAN, 1}; // transfer 1: app = seq = 1, cap = b = B, posted = now
  for (int f = 0; f < IOSIM_T_NFIELDS; f++) {
    double x = iosim_share_view_get(view, 1, f);
    if (std::isnan(want[f]))
      EXPECT_TRUE(std::isnan(x)) << names[f];
    else
      EXPECT_EQ(x, want[f]) << names[f];
  }
  EXPECT_EQ(iosim_share_view_set(view, 0, IOSIM_T_SEQ, -3), IOSIM_OK); // any integer
  EXPECT_EQ(iosim_share_view_get(view, 0, IOSIM_T_SEQ), -3);
  EXPECT_EQ(iosim_share_view_set(view, 0, IOSIM_T_RELEASE, -7.5), IOSIM_OK); // released before the start
  EXPECT_EQ(iosim_share_view_set(view, 0, IOSIM_T_OMEGA, 12.5), IOSIM_OK);
  EXPECT_EQ(iosim_share_view_set(view, 0, IOSIM_T_OMEGA, NAN), IOSIM_OK); // none yet
  EXPECT_EQ(iosim_share_view_set(view, 0, IOSIM_T_CAP, 0), IOSIM_OK);
  EXPECT_EQ(iosim_share_view_set(view, 0, IOSIM_T_CAP, NAN), IOSIM_EINVAL);
  EXPECT_EQ(iosim_share_view_set(view, 0, IOSIM_T_APP, -1), IOSIM_EINVAL);
  EXPECT_EQ(iosim_share_view_set(view, 0, IOSIM_T_APP, 1.5), IOSIM_EINVAL);
  EXPECT_EQ(iosim_share_view_set(view, 0, IOSIM_T_NODES, 0), IOSIM_EINVAL);
  EXPECT_EQ(iosim_share_view_set(view, 0, IOSIM_T_B, 0), IOSIM_EINVAL); // b > 0
  EXPECT_NE(std::string(iosim_error()).find("b = 0: give a finite value > 0"), std::string::npos) << iosim_error();
  EXPECT_EQ(iosim_share_view_set(view, 0, IOSIM_T_PROGRESS, -1), IOSIM_EINVAL);
  EXPECT_EQ(iosim_share_view_get(view, 0, IOSIM_T_APP), 0); // unchanged by the refusals
  EXPECT_EQ(iosim_share_view_get(view, 0, IOSIM_T_B), 2e9);
  iosim_share_view_free(view);
}

TEST(PolicyFace, RegisteredPoliciesEachWithItsUserData) {
  const int n = 40;
  static Weight weights[n]; // user data: lives as long as the registered policies (the process)
  const iosim_policy_t *pol[n];
  int before = iosim_policy_count(IOSIM_SHARING);
  for (int k = 0; k < n; k++) {
    weights[k] = Weight{k, nullptr, 0};
    std::string name = "weight-" + std::to_string(k);
    pol[k] = iosim_sharing_register(name.c_str(), nullptr, nullptr, 0, 0, nullptr, nullptr, weighted, &weights[k]);
    ASSERT_NE(pol[k], nullptr) << name << ": " << iosim_error();
  }
  EXPECT_EQ(iosim_policy_count(IOSIM_SHARING), before + n);
  EXPECT_EQ(iosim_policy_find(IOSIM_SHARING, "weight-39"), pol[39]);
  EXPECT_EQ(iosim_policy_at(IOSIM_SHARING, before + 32), pol[32]);
  iosim_share_view_t *view = iosim_share_view_new(0, 1e9, 2);
  ASSERT_NE(view, nullptr);
  ASSERT_EQ(iosim_share_view_set(view, 0, IOSIM_T_CAP, 0.4e9), IOSIM_OK);
  ASSERT_EQ(iosim_share_view_set(view, 1, IOSIM_T_CAP, 0.6e9), IOSIM_OK);
  for (int k = 0; k < n; k++) {
    double rates[2] = {-1, -1};
    ASSERT_EQ(iosim_share(pol[k], nullptr, view, rates), IOSIM_OK) << k << ": " << iosim_error();
    EXPECT_DOUBLE_EQ(rates[0], 1e7 * (k + 1)) << k;
    EXPECT_DOUBLE_EQ(rates[1], 1.5e7 * (k + 1)) << k;
    EXPECT_EQ(weights[k].seen, &weights[k]) << k; // its own user data
    EXPECT_EQ(weights[k].calls, 1) << k;          // and only its own function ran
  }
  double rates[2];
  ASSERT_EQ(iosim_share(pol[32], nullptr, view, rates), IOSIM_OK);
  EXPECT_DOUBLE_EQ(rates[0], 3.3e8);
  EXPECT_DOUBLE_EQ(rates[1], 4.95e8);
  ASSERT_EQ(iosim_share(pol[39], nullptr, view, rates), IOSIM_OK);
  EXPECT_DOUBLE_EQ(rates[0], 4e8);
  EXPECT_DOUBLE_EQ(rates[1], 6e8);
  iosim_share_view_free(view);
  // the engine calls a registered policy through the same descriptor (in the run's child)
  std::string set = "output.dir=" + out_dir("weighted");
  const char *sets[2] = {"sharing.policy=weight-9", set.c_str()};
  iosim_scenario_t *s = nullptr;
  ASSERT_EQ(iosim_scenario_parse(scenario_json, "faces", nullptr, 2, sets, &s), IOSIM_OK) << iosim_error();
  iosim_results_t *r = nullptr;
  ASSERT_EQ(iosim_scenario_run(s, 0, 0, nullptr, &r), IOSIM_OK) << iosim_error();
  double makespan = 0;
  ASSERT_EQ(iosim_results_metric(r, "makespan_s", &makespan), IOSIM_OK);
  EXPECT_NEAR(makespan, 5.0, 1e-9);
  iosim_results_free(r);
  iosim_scenario_free(s);
  EXPECT_EQ(system(("rm -rf " + out_dir("weighted")).c_str()), 0);
}

TEST(ScenarioFace, RunsTwiceInOneProcessAndReadsResults) {
  for (int k = 0; k < 2; k++) {
    std::string set = "output.dir=" + out_dir("twice");
    const char *sets[1] = {set.c_str()};
    iosim_scenario_t *s = nullptr;
    ASSERT_EQ(iosim_scenario_parse(scenario_json, "faces", nullptr, 1, sets, &s), IOSIM_OK) << iosim_error();
    ASSERT_EQ(iosim_scenario_check(s, 0, 0, nullptr), IOSIM_OK) << iosim_error();
    iosim_results_t *r = nullptr;
    ASSERT_EQ(iosim_scenario_run(s, 0, 0, nullptr, &r), IOSIM_OK) << iosim_error();
    double makespan = 0, io = 0;
    ASSERT_EQ(iosim_results_metric(r, "makespan_s", &makespan), IOSIM_OK);
    EXPECT_NEAR(makespan, 3.0, 1e-9);
    EXPECT_STREQ(iosim_results_status(r), "complete");
    ASSERT_EQ(iosim_results_app_count(r), 2);
    EXPECT_STREQ(iosim_results_app_text(r, 1, "name"), "large");
    ASSERT_EQ(iosim_results_app_value(r, 1, "io_time_s", &io), IOSIM_OK);
    EXPECT_NEAR(io, 2.0, 1e-9);
    EXPECT_EQ(iosim_results_app_value(r, 1, "name", &io), IOSIM_EINVAL);
    EXPECT_EQ(iosim_results_metric(r, "nope", &io), IOSIM_EINVAL);
    EXPECT_NE(std::string(iosim_error()).find("makespan_s"), std::string::npos) << iosim_error();
    iosim_results_free(r);
    iosim_scenario_free(s);
  }
  EXPECT_FALSE(simgrid::s4u::Engine::is_initialized()); // the runs were in children
  EXPECT_EQ(system(("rm -rf " + out_dir("twice")).c_str()), 0);
}

TEST(ScenarioFace, ErrorsAsTheCommandGivesThem) {
  iosim_scenario_t *s = nullptr;
  const char *bad[1] = {"sharing.policy=nope"};
  EXPECT_EQ(iosim_scenario_parse(scenario_json, "faces", nullptr, 1, bad, &s), IOSIM_EINVAL);
  EXPECT_EQ(s, nullptr);
  EXPECT_NE(std::string(iosim_error()).find("faces: sharing.policy: unknown policy 'nope'"), std::string::npos)
      << iosim_error();
  EXPECT_EQ(iosim_scenario_load("/nonexistent.json", 0, nullptr, &s), IOSIM_EIO);
  EXPECT_NE(std::string(iosim_error()).find("/nonexistent.json"), std::string::npos) << iosim_error();
  // a policy refusing its rates during a run stops it with the engine's message and the policy's reason
  std::string set = "output.dir=" + out_dir("refused");
  const char *sets[2] = {"sharing.policy=too-fast", set.c_str()};
  if (iosim_policy_find(IOSIM_SHARING, "too-fast") == nullptr)
    iosim_sharing_register("too-fast", nullptr, nullptr, 0, 0, nullptr, nullptr, too_fast, nullptr);
  ASSERT_EQ(iosim_scenario_parse(scenario_json, "faces", nullptr, 2, sets, &s), IOSIM_OK) << iosim_error();
  iosim_results_t *r = nullptr;
  EXPECT_EQ(iosim_scenario_run(s, 0, 0, nullptr, &r), IOSIM_EINVAL);
  EXPECT_EQ(r, nullptr);
  EXPECT_NE(std::string(iosim_error()).find("at t = 1 s gave transfer"), std::string::npos) << iosim_error();
  const char *fixed[1] = {"--cfg=network/model:LV08"};
  EXPECT_EQ(iosim_scenario_check(s, 0, 1, fixed), IOSIM_EINVAL);
  EXPECT_NE(std::string(iosim_error()).find("network/model:CM02"), std::string::npos) << iosim_error();
  iosim_scenario_free(s);
  EXPECT_EQ(system(("rm -rf " + out_dir("refused")).c_str()), 0);
}
