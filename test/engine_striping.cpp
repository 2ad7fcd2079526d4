// iosim engine tests — striped files on an object store (TAPP-IO §III; scenario `striping`, src/sim/engine.c
// post_striped): each I/O operation of a job is placed by a striping policy and becomes one flow per (writer, OST)
// from the writer's node through its OSS to the OST; SimGrid shares the links. Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

using namespace iosim_test;

namespace {

// A job of 3 writers (3 nodes) writing 1 GB each, on `iosim platform oss-ost` with 1 server and 2 OSTs of 1 GB/s.
std::string scenario(const std::string &striping) {
  return R"({"platform": {"kind": "oss-ost", "compute": 4, "servers": 1, "osts_per_server": 2, "ost_bw": "1GBps",
                          "server_bw": "10GBps"},
             "workload": {"applications": [{"name": "ior", "nodes": 3, "phases": [{"io": 3e9}]}]},
             "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "maxmin"}, "striping": )" +
         striping + R"(, "output": {"progress": false}})";
}

double end_of(const std::string &striping) {
  SimRun r = run_scenario(scenario(striping));
  EXPECT_EQ(r.proc.exit_code, 0) << r.describe();
  return r.proc.exit_code == 0 ? r.app("ior").end : -1;
}

} // namespace

// Expectations (by hand): file per process with optimized-striping (1 stripe per file, Lustre's round-robin from a
// random start): three files on two OSTs, so one OST holds two of them: 2 GB at 1 GB/s → the job ends at 2 s (for
// any start). bpio (least-used OST first) does the same: 2 s. lustre-default stripes each file over min(4, 2) = 2
// OSTs in 1 MiB stripes: 1e9 B = 953 full stripes and a partial one, so a file's first OST gets 477 MiB =
// 500,170,752 B and the other 499,829,248 B; each file draws its start at random, so the busier OST holds two or
// three first halves: 1,500,170,752 B or 1,500,512,256 B at 1 GB/s → about 1.5 s, one of those two exactly. A single
// shared file with optimized-striping: 2 stripes of 1.5 GB; writer 0's block [0, 1) GB on the first OST, writer 1's [1,
// 2) half on each, writer 2's [2, 3) on the second: 1.5 GB per OST → 1.5 s. The flows start on the writers' nodes: a
// transfer per (writer, OST) pair.
TEST(striping_engine, FilePerProcessAndSharedFileOnTwoOsts) {
  EXPECT_NEAR(end_of(R"({"policy": "optimized-striping", "layout": "fpp"})"), 2.0, 1e-9);
  EXPECT_NEAR(end_of(R"({"policy": "bpio", "layout": "fpp"})"), 2.0, 1e-9);
  double lustre = end_of(R"({"policy": "lustre-default", "layout": "fpp"})");
  EXPECT_TRUE(std::fabs(lustre - 1.500170752) < 1e-9 || std::fabs(lustre - 1.500512256) < 1e-9) << lustre;
  EXPECT_NEAR(end_of(R"({"policy": "optimized-striping", "layout": "ssf"})"), 1.5, 1e-9);
}

// Expectations: apps.csv lists a striped job's resources as every OST its files had a stripe on (TAPP-IO), not the
// allocation policy's one resource: the three files of the file-per-process run and the two stripes of the shared file
// above both cover ost0 and ost1 (n_resources 2), under every policy.
TEST(striping_engine, AppsCsvListsTheOstsOfTheFiles) {
  for (const char *striping :
       {R"({"policy": "optimized-striping", "layout": "fpp"})", R"({"policy": "lustre-default", "layout": "fpp"})",
        R"({"policy": "optimized-striping", "layout": "ssf"})"}) {
    SimRun r = run_scenario(scenario(striping));
    ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
    EXPECT_EQ(r.app("ior").n_resources, 2) << striping;
    EXPECT_EQ(r.app("ior").resources, (std::vector<std::string>{"ost0", "ost1"})) << striping;
  }
}

// System: jobs A and B, one writer each, 1 GB at t = 0, bpio with OSTs scanned from OST 0 (random_start 0), on the two
// 1 GB/s OSTs above. Expectations (by hand): with striping.scope global (the default) B's placement sees A's stripe on
// ost0 and takes ost1: both end at 1 s; with scope application (TAPP-IO's: each job counts only its own earlier
// placements) B's state is empty, it takes ost0 too, the two share 1 GB/s and both end at 2 s. An unknown scope
// exits 2 naming striping.scope.
TEST(striping_engine, BpioScopeGlobalOrApplication) {
  auto run = [](const std::string &scope) {
    return run_scenario(
        R"({"platform": {"kind": "oss-ost", "compute": 4, "servers": 1, "osts_per_server": 2, "ost_bw": "1GBps",
                         "server_bw": "10GBps"},
            "workload": {"applications": [{"name": "A", "nodes": 1, "phases": [{"io": 1e9}]},
                                          {"name": "B", "nodes": 1, "phases": [{"io": 1e9}]}]},
            "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "maxmin"},
            "striping": {"policy": "bpio", "layout": "fpp", "random_start": 0)" +
        scope + R"(}, "output": {"progress": false}})");
  };
  SimRun global = run(""), app = run(R"(, "scope": "application")");
  ASSERT_EQ(global.proc.exit_code, 0) << global.describe();
  ASSERT_EQ(app.proc.exit_code, 0) << app.describe();
  EXPECT_EQ(global.app("A").resources, std::vector<std::string>{"ost0"});
  EXPECT_EQ(global.app("B").resources, std::vector<std::string>{"ost1"});
  EXPECT_NEAR(global.app("B").end, 1.0, 1e-9);
  EXPECT_EQ(app.app("A").resources, std::vector<std::string>{"ost0"});
  EXPECT_EQ(app.app("B").resources, std::vector<std::string>{"ost0"});
  EXPECT_NEAR(app.app("A").end, 2.0, 1e-9);
  EXPECT_NEAR(app.app("B").end, 2.0, 1e-9);
  SimRun bad = run(R"(, "scope": "job")");
  EXPECT_EQ(bad.proc.exit_code, 2);
  EXPECT_NE(bad.proc.err.find("striping.scope"), std::string::npos) << bad.proc.err;
}

// Expectations: an unknown striping policy or layout, or striping on a platform without OSTs, exit 2 naming the
// field and the fix.
TEST(striping_engine, BadStripingExitsWithCode2) {
  SimRun a = run_scenario(scenario(R"({"policy": "raid5"})"));
  EXPECT_EQ(a.proc.exit_code, 2);
  EXPECT_NE(a.proc.err.find("striping.policy"), std::string::npos) << a.proc.err;
  SimRun b = run_scenario(scenario(R"({"policy": "bpio", "layout": "n-to-m"})"));
  EXPECT_EQ(b.proc.exit_code, 2);
  EXPECT_NE(b.proc.err.find("striping.layout"), std::string::npos) << b.proc.err;
  SimRun c = run_scenario(R"({"workload": {"applications": [{"name": "x", "phases": [{"io": 1e9}]}]},
                              "striping": {"policy": "bpio"}, "output": {"progress": false}})",
                          tiny_platform_xml({1e9}, 4));
  EXPECT_EQ(c.proc.exit_code, 2);
  EXPECT_NE(c.proc.err.find("oss-ost"), std::string::npos) << c.proc.err;
}

// System: the `ior` generator's measured job alone (background 0): 3 writers of 1 GB, one write, on 1 server × 2 OSTs
// of 1 GB/s (server 10 GB/s); bpio, OSTs scanned from 0 (random_start 0), layout ssf.
// Expectations (by hand): shared_files 2 (N:M, TAPP-IO §III.A case 3): file 0 has writer ⌊0·3/2⌋ = 0 only (1 GB, one
// stripe) → OST 0; file 1 has writers 1 and 2 (2 GB, 2 stripes of 1 GB): stripe 0 sees OST 0 cost (1 + 1)/3 and OST 1
// cost (1 + 0)/3 → OST 1, stripe 1 → OST 0. OST 0 carries writers 0 and 2 (2 GB) → the job ends at 2 s. With
// shared_files 1 (one file of 3 GB, 2 stripes of 1.5 GB) each OST carries 1.5 GB → 1.5 s. shared_files above the
// writers, or with layout fpp, exit 2 naming the field.
TEST(striping_engine, IorSharedFilesNToM) {
  auto run = [](const std::string &layout, int m, int nodes = 3) {
    return run_scenario(
        R"({"platform": {"kind": "oss-ost", "compute": 4, "servers": 1, "osts_per_server": 2, "ost_bw": "1GBps",
                         "server_bw": "10GBps"},
            "workload": {"generator": {"kind": "ior", "nodes": )" +
        std::to_string(nodes) + R"(, "bytes_per_writer": 1e9, "writes": 1, "background": 0,
                                       "shared_files": )" +
        std::to_string(m) + R"(}},
            "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "maxmin"},
            "striping": {"policy": "bpio", "layout": ")" +
        layout + R"(", "random_start": 0}, "output": {"progress": false}})");
  };
  SimRun nm = run("ssf", 2), one = run("ssf", 1);
  ASSERT_EQ(nm.proc.exit_code, 0) << nm.describe();
  ASSERT_EQ(one.proc.exit_code, 0) << one.describe();
  EXPECT_NEAR(nm.app("ior").end, 2.0, 1e-9);
  EXPECT_NEAR(one.app("ior").end, 1.5, 1e-9);
  EXPECT_EQ(nm.app("ior").resources, (std::vector<std::string>{"ost0", "ost1"}));
  SimRun fpp = run("fpp", 2);
  EXPECT_EQ(fpp.proc.exit_code, 2);
  EXPECT_NE(fpp.proc.err.find("striping.layout"), std::string::npos) << fpp.proc.err;
  SimRun many = run("ssf", 4);
  EXPECT_EQ(many.proc.exit_code, 2);
  EXPECT_NE(many.proc.err.find("workload.generator.shared_files"), std::string::npos) << many.proc.err;
}

// System: `iosim platform oss-ost` with 4 compute nodes, 1 server (100 GB/s) of 2 OSTs (10 GB/s each), 2 routers of
// 1 GB/s, router_map block (node k's first router is rtr(⌊k·2/4⌋): c0 and c1 → rtr0, c2 and c3 → rtr1). One job of 2
// writers (c0, c1) writing 1 GB each, file per process. The routers are the only bottleneck.
// Expectations (by hand): routers_per_client 2 (c0 and c1 may also use rtr1, through hosts c0.rtr1 and c1.rtr1):
// bpio gives writer 0 rtr0 (both unused, ties to the first) and writer 1 rtr1 (rtr0 now used once): 1 GB per router
// → 1 s. optimized-striping and lustre-default keep every writer on its first router: 2 GB through rtr0 at 1 GB/s →
// 2 s (lustre-default's 4 flows share rtr0, which stays saturated until the last byte). With routers_per_client 1
// bpio has no choice either: 2 s.
TEST(striping_engine, BpioSpreadsWritersOverRouterChoices) {
  auto run = [](const std::string &policy, int rpc) {
    return run_scenario(
        R"({"platform": {"kind": "oss-ost", "compute": 4, "servers": 1, "osts_per_server": 2, "ost_bw": "10GBps",
                         "server_bw": "100GBps", "routers": 2, "router_bw": "1GBps", "router_map": "block",
                         "routers_per_client": )" +
        std::to_string(rpc) + R"(},
            "workload": {"applications": [{"name": "ior", "nodes": 2, "phases": [{"io": 2e9}]}]},
            "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "maxmin"},
            "striping": {"policy": ")" +
        policy + R"(", "layout": "fpp"}, "output": {"progress": false}})");
  };
  for (auto [policy, rpc, want] : std::vector<std::tuple<std::string, int, double>>{
           {"bpio", 2, 1.0}, {"optimized-striping", 2, 2.0}, {"lustre-default", 2, 2.0}, {"bpio", 1, 2.0}}) {
    SimRun r = run(policy, rpc);
    ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
    EXPECT_NEAR(r.app("ior").end, want, 1e-9) << policy << " routers_per_client " << rpc;
  }
}

// Expectations: a compute host whose `routers` property names a router that does not exist, or whose alternative
// host cK.rtrJ is missing, exits 2 naming the host and the fix.
TEST(striping_engine, BadRouterChoicesExitWithCode2) {
  TempDir dir;
  Process gen = run_iosim(
      {"platform", "oss-ost", "--set", "compute=2", "--set", "routers=2", "--set", "routers_per_client=2"}, dir.path());
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  const std::string good = "<prop id=\"routers\" value=\"0,1\"/>";
  ASSERT_NE(gen.out.find(good), std::string::npos) << gen.out;
  const std::string scenario = R"({"workload": {"applications": [{"name": "x", "nodes": 1, "phases": [{"io": 1e9}]}]},
                                   "sharing": {"policy": "maxmin"}, "striping": {"policy": "bpio"},
                                   "output": {"progress": false}})";
  std::string bad_index = gen.out, missing = gen.out;
  bad_index.replace(bad_index.find(good), good.size(), "<prop id=\"routers\" value=\"0,7\"/>");
  SimRun a = run_scenario(scenario, bad_index);
  EXPECT_EQ(a.proc.exit_code, 2);
  EXPECT_NE(a.proc.err.find("c0"), std::string::npos) << a.proc.err;
  EXPECT_NE(a.proc.err.find("routers=\"0,7\""), std::string::npos) << a.proc.err;
  for (size_t at; (at = missing.find("\"c0.rtr1\"")) != std::string::npos;) /* the host and its route renamed */
    missing.replace(at, 9, "\"c0.rtrX\"");
  SimRun b = run_scenario(scenario, missing);
  EXPECT_EQ(b.proc.exit_code, 2) << b.describe();
  EXPECT_NE(b.proc.err.find("c0.rtr1 does not exist"), std::string::npos) << b.proc.err;
}

// System: the `ior` generator's measured job alone on 2 nodes with writers_per_node 2 (4 writers, its processes), 1 GB
// per writer, one write, bpio file per process, on 1 server (100 GB/s) of 4 OSTs of 1 GB/s; compute NICs of 1 GB/s.
// Expectations (by hand): bpio puts the 4 files on the 4 OSTs; each writer's cap is its share of its node's NIC:
// 1 GB/s / 2 writers = 0.5 GB/s, under the OST's 1 GB/s: 1 GB at 0.5 GB/s → the job ends at 2 s. With 2 GB/s NICs
// the cap is 1 GB/s and the OSTs bind at 1 GB/s: 1 s. The job reports 4 GB and 2 nodes; writers_per_node 1 on the
// same 2 nodes gives 2 writers of 1 GB: 2 GB, 1 s with 1 GB/s NICs.
TEST(striping_engine, IorWritersPerNodeShareTheirNodesNic) {
  auto run = [](double nic, int wpn) {
    std::string sc = R"({"platform": {"kind": "oss-ost", "compute": 2, "servers": 1, "osts_per_server": 4,
                           "ost_bw": "1GBps", "server_bw": "100GBps", "nic_bw": )" +
                     fmt(nic) + R"(}, "workload": {"generator": {"kind": "ior", "nodes": 2, "writers_per_node": )" +
                     std::to_string(wpn) + R"(, "bytes_per_writer": 1e9, "writes": 1, "background": 0}},
             "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "maxmin"},
             "striping": {"policy": "bpio", "layout": "fpp"}, "output": {"progress": false}})";
    return run_scenario(sc);
  };
  SimRun slow = run(1e9, 2), fast = run(2e9, 2), one = run(1e9, 1);
  for (SimRun *r : {&slow, &fast, &one})
    ASSERT_EQ(r->proc.exit_code, 0) << r->describe();
  EXPECT_NEAR(slow.app("ior").end, 2.0, 1e-9);
  EXPECT_NEAR(fast.app("ior").end, 1.0, 1e-9);
  EXPECT_NEAR(one.app("ior").end, 1.0, 1e-9);
  EXPECT_NEAR(slow.app("ior").io_volume, 4e9, 1);
  EXPECT_EQ(slow.app("ior").n_resources, 4);
  EXPECT_NEAR(one.app("ior").io_volume, 2e9, 1);
}
