// iosim engine tests — a platform written for another SimGrid tool runs unmodified through the scenario's
// platform_roles (src/inputs/ios_platform.h ios_platform_roles_check): test/fixtures/batsim-cluster.xml is shaped as
// Batsim's platforms are (clusters; compute hosts without a role, role=master, role=storage) and has none of iosim's
// properties (role values of its own, link, nic_bw). Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace iosim_test;

namespace {

const std::string kPlatform = std::string(IOSIM_SOURCE_DIR) + "/test/fixtures/batsim-cluster.xml";

// The rules that map the Batsim platform: master → controller, storage → the PFS (its cluster's private link towards
// it, fs_link_0_DOWN, 400 MB/s), nodes → compute with a 1 GB/s NIC.
const std::string kRoles = R"([
  {"property": "role", "value": "master", "role": "controller"},
  {"property": "role", "value": "storage", "role": "pfs", "link": "fs_link_0_DOWN"},
  {"hosts": "node*", "role": "compute", "nic_bw": "1GBps"}])";

std::string scenario(const std::string &roles) {
  return R"({"platform": ")" + kPlatform + "\", " + (roles.empty() ? "" : "\"platform_roles\": " + roles + ", ") +
         R"("workload": {"applications": [
           {"name": "a", "nodes": 2, "iterations": 1, "work": 10, "io": "4GB"},
           {"name": "b", "nodes": 2, "iterations": 1, "work": 10, "io": "4GB"}]},
         "output": {"progress": false}})";
}

RunOptions no_platform_override() {
  RunOptions o;
  o.set_platform = false;
  return o;
}

} // namespace

// System: the Batsim platform with the rules above; two applications of 2 nodes, 10 s of work then 4 GB written,
// FairShare on the one PFS. Expectations (by hand): the pool is the PFS, capacity 400 MB/s; both write at once, 200
// MB/s each (the NICs, 2 x 1 GB/s, and the 10 GB/s backbone never bind), so each I/O takes 4e9 / 2e8 = 20 s and
// ends at 30 s (plus the routes' 140 us latency); the platform never limits the policy's rates
// (platform_limited_share 0: the latency is not a bandwidth limit).
TEST(engine_platform_roles, BatsimPlatformRunsUnmodified) {
  SimRun r = run_scenario(scenario(kRoles), "", no_platform_override());
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  ASSERT_EQ(r.resources.size(), 1u);
  EXPECT_EQ(r.resources[0].name, "pfs0");
  EXPECT_DOUBLE_EQ(r.resources[0].capacity, 4e8);
  ASSERT_EQ(r.apps.size(), 2u);
  for (const AppRow &a : r.apps) {
    EXPECT_NEAR(a.io_time, 20.0, 1e-3) << a.name;
    EXPECT_NEAR(a.end, 30.0, 1e-3) << a.name;
  }
  EXPECT_EQ(r.metric("platform_limited_share"), 0.0);
}

// Expectations: without platform_roles the platform is refused (exit 2) naming the host, its role and the fix; a
// broken rule is refused naming platform_roles[k] and its field; a "{host}" link template is expanded with the host's
// name (pfs0_link, which does not exist: the message names it).
TEST(engine_platform_roles, UnmappedPlatformAndBadRulesExitTwo) {
  struct Case {
    std::string roles;
    std::vector<std::string> needles;
  } cases[] = {
      {"", {"master0", "unknown role 'master'", "platform_roles"}},
      {R"({"hosts": "*"})", {"platform_roles", "array of rules"}},
      {R"([{"hosts": "*", "role": "master"}])", {"platform_roles[0].role", "\"master\"", "\"controller\""}},
      {R"([{"hosts": "*"}])", {"platform_roles[0].role", "missing"}},
      {R"([{"hosts": "*", "role": "compute", "speed": 1}])", {"platform_roles[0]", "unknown field 'speed'"}},
      {R"([{"hosts": "*", "role": "compute", "nic_bw": "fast"}])", {"platform_roles[0].nic_bw", "\"fast\""}},
      {R"([{"hosts": 3, "role": "compute"}])", {"platform_roles[0].hosts", "string"}},
      {R"([{"property": "role", "value": "master", "role": "controller"},
           {"property": "role", "value": "storage", "role": "pfs", "link": "{host}_link"},
           {"hosts": "node*", "role": "compute", "nic_bw": "1GBps"}])",
       {"pfs0", "'pfs0_link'", "not a link"}},
  };
  for (const Case &c : cases) {
    SimRun r = run_scenario(scenario(c.roles), "", no_platform_override());
    EXPECT_EQ(r.proc.exit_code, 2) << c.roles << ": " << r.proc.err;
    for (const std::string &n : c.needles)
      EXPECT_NE(r.proc.err.find(n), std::string::npos) << "stderr lacks '" << n << "': " << r.proc.err;
    EXPECT_FALSE(r.has_results) << c.roles;
  }
}
