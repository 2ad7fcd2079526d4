// iosim engine tests — a platform written for WRENCH (issue 22): its storage hosts' SimGrid <disk> elements bound
// their transfers (src/inputs/platform_disks.c), platform_roles link templates take what the hosts glob's wildcards
// matched ({1}, ...), and a platform without a controller host runs (the controller's actors go to the first compute
// host). Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace iosim_test;

namespace {

// A platform shaped as WRENCH writes them (hosts with <disk> elements, one zone, explicit routes), with none of
// iosim's properties and no controller: 4 compute hosts, a scheduler host (WMSHost), storage hosts storage_1 and
// storage_2 each behind its own 1 GB/s link storage_K_net, all joined by a 100 GB/s backbone; storage_1 holds a disk
// of write bandwidth `disk_bw` (SimGrid units), storage_2 none (`second_disk`: one of `disk_bw` too). Latency 0.
std::string wrench_platform(const std::string &disk_bw, bool second_disk = false) {
  std::string disk = R"(<disk id="large_disk" read_bw=")" + disk_bw + R"(" write_bw=")" + disk_bw +
                     R"("><prop id="size" value="5000GiB"/><prop id="mount" value="/"/></disk>)";
  std::string x = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="AS0" routing="Full">
    <host id="WMSHost" speed="10Gf" core="1"/>
)";
  for (int k = 1; k <= 4; k++)
    x += "    <host id=\"compute_" + std::to_string(k) + "\" speed=\"10Gf\" core=\"4\"/>\n";
  x += "    <host id=\"storage_1\" speed=\"10Gf\" core=\"1\">" + disk + "</host>\n";
  x += "    <host id=\"storage_2\" speed=\"10Gf\" core=\"1\">" + (second_disk ? disk : std::string()) + "</host>\n";
  x += R"(    <link id="backbone" bandwidth="100GBps" latency="0"/>
    <link id="storage_1_net" bandwidth="1GBps" latency="0"/>
    <link id="storage_2_net" bandwidth="1GBps" latency="0"/>
)";
  for (int k = 1; k <= 4; k++)
    for (int s = 1; s <= 2; s++)
      x += "    <route src=\"compute_" + std::to_string(k) + "\" dst=\"storage_" + std::to_string(s) +
           "\"><link_ctn id=\"backbone\"/><link_ctn id=\"storage_" + std::to_string(s) + "_net\"/></route>\n";
  for (int k = 1; k <= 4; k++)
    x += "    <route src=\"compute_" + std::to_string(k) + "\" dst=\"WMSHost\"><link_ctn id=\"backbone\"/></route>\n";
  x += "  </zone>\n</platform>\n";
  return x;
}

// The rules: storage hosts are I/O nodes whose link is storage_<what * matched>_net; compute hosts have 10 GB/s
// NICs; the scheduler host is not used.
const std::string kRoles = R"([
  {"hosts": "storage_*", "role": "ionode", "link": "storage_{1}_net"},
  {"hosts": "compute_*", "role": "compute", "nic_bw": "10GBps"},
  {"hosts": "WMSHost", "role": "none"}])";

// Two applications of 1 node writing 4 GB each, no work, able to write at 10 GB/s (profile b(1) = 10 GB/s: the
// resources bound them), one I/O resource each (allocation fixed n = 1), fairshare.
std::string scenario(const std::string &roles) {
  return R"({"platform_roles": )" + roles + R"(,
    "workload": {"applications": [{"name": "a", "nodes": 1, "io": "4GB", "profile": {"1": "10GBps"}},
                                  {"name": "b", "nodes": 1, "io": "4GB", "profile": {"1": "10GBps"}}]},
    "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "fairshare"}, "output": {"progress": false}})";
}

const std::string kOneStorage = R"([
  {"hosts": "storage_2", "role": "none"},
  {"hosts": "storage_*", "role": "ionode", "link": "storage_{1}_net"},
  {"hosts": "compute_*", "role": "compute", "nic_bw": "10GBps"},
  {"hosts": "WMSHost", "role": "none"}])";

} // namespace

// System: the WRENCH-shaped platform with storage_1 alone in the pool (storage_2 role none), its link storage_1_net
// of 1 GB/s (found through the rule's template "storage_{1}_net"), no controller host; two applications writing 4 GB
// at once under fairshare. Expectations (by hand):
//   disk 1.5 GB/s: the link (1 GB/s) is the bottleneck: capacity 1e9, each application gets 0.5 GB/s, 4/0.5 = 8 s;
//   disk 0.1 GB/s: the disk bounds the host's transfers: capacity 1e8, 0.05 GB/s each, 4/0.05 = 80 s.
TEST(engine_traps_platform, DiskBehindAStorageHostBoundsItsTransfers) {
  struct Case {
    std::string disk;
    double capacity, t_io;
  } cases[] = {{"1.5GBps", 1e9, 8.0}, {"0.1GBps", 1e8, 80.0}};
  for (const Case &c : cases) {
    SCOPED_TRACE(c.disk);
    SimRun r = run_scenario(scenario(kOneStorage), wrench_platform(c.disk));
    ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
    ASSERT_EQ(r.resources.size(), 1u);
    EXPECT_EQ(r.resources[0].name, "storage_1");
    EXPECT_REL(r.resources[0].capacity, c.capacity, 1e-12);
    for (const char *app : {"a", "b"}) {
      EXPECT_REL(r.app(app).io_time, c.t_io, 1e-9) << app;
      EXPECT_REL(r.app(app).end, c.t_io, 1e-9) << app;
    }
  }
}

// System: both storage hosts in the pool (rule "storage_*" → ionode, link storage_{1}_net: storage_1 → storage_1_net,
// storage_2 → storage_2_net), storage_1 with a 0.1 GB/s disk, storage_2 without; the two applications go to
// different I/O nodes (greedy placement). Expectations: a's resource is bounded by the disk, b's by its 1 GB/s link:
// capacities 1e8 and 1e9 in resources.csv; the application on storage_1 takes 4/0.1 = 40 s, the other 4 s.
TEST(engine_traps_platform, LinkTemplateCapturesTheWildcard) {
  SimRun r = run_scenario(scenario(kRoles), wrench_platform("0.1GBps"));
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  ASSERT_EQ(r.resources.size(), 2u);
  EXPECT_REL(r.res("storage_1").capacity, 1e8, 1e-12);
  EXPECT_REL(r.res("storage_2").capacity, 1e9, 1e-12);
  for (const char *app : {"a", "b"}) {
    const AppRow &a = r.app(app);
    ASSERT_EQ(a.resources.size(), 1u);
    EXPECT_REL(a.io_time, a.resources[0] == "storage_1" ? 40.0 : 4.0, 1e-9) << app << " on " << a.resources[0];
  }
}

// Expectations (exit 2, nothing written, the message naming the fix):
//   - two hosts with disks naming one link (the backbone): refused, naming both hosts and the link;
//   - a disk-bounded link that is also on the route to another resource (storage_1's disk bounding the backbone,
//     storage_2 reached through the backbone): refused, naming the link, the route and "a link of its own";
//   - a template placeholder beyond the glob's wildcards ({2} with "storage_*") or unknown ({hots}): refused naming
//     platform_roles[0].link and the placeholder.
TEST(engine_traps_platform, DiskBoundsAndTemplatesAreCheckedWithTheFix) {
  struct Case {
    std::string roles, platform;
    std::vector<std::string> needles;
  } cases[] = {
      {R"([{"hosts": "storage_*", "role": "ionode", "link": "backbone"},
           {"hosts": "compute_*", "role": "compute", "nic_bw": "10GBps"}, {"hosts": "WMSHost", "role": "none"}])",
       wrench_platform("0.1GBps", true),
       {"storage_2", "'backbone'", "storage_1", "a link of its own"}},
      {R"([{"hosts": "storage_*", "role": "ionode", "link": "backbone"},
           {"hosts": "compute_*", "role": "compute", "nic_bw": "10GBps"}, {"hosts": "WMSHost", "role": "none"}])",
       wrench_platform("0.1GBps"),
       {"storage_1", "<disk>", "'backbone'", "storage_2", "a link of its own"}},
      {R"([{"hosts": "storage_*", "role": "ionode", "link": "storage_{2}_net"}])",
       wrench_platform("0.1GBps"),
       {"platform_roles[0].link", "'{2}'", "{1}..{1}", "'storage_*'"}},
      {R"([{"hosts": "storage_?", "role": "ionode", "link": "{hots}_net"}])",
       wrench_platform("0.1GBps"),
       {"platform_roles[0].link", "'{hots}'"}},
  };
  for (const Case &c : cases) {
    SimRun r = run_scenario(scenario(c.roles), c.platform);
    EXPECT_EQ(r.proc.exit_code, 2) << c.roles << "\n" << r.proc.err;
    for (const std::string &n : c.needles)
      EXPECT_NE(r.proc.err.find(n), std::string::npos) << "stderr lacks '" << n << "': " << r.proc.err;
    EXPECT_FALSE(r.has_results);
  }
}
