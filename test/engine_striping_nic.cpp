// iosim engine tests — a striped job never carries more than its nodes' NICs (src/sim/controller.c, nic_shares): the
// transfers of a striped operation that leave from one node share that node's NIC equally. Each run is its own
// process; the expectations are computed by hand in the comments.
#include "run_helpers.h"

#include <gtest/gtest.h>

using namespace iosim_test;

// System: `iosim platform oss-ost` with 1 server and 2 OSTs of 1 GB/s, NICs of 1 GB/s; a 1-node job (1 writer) writes
// 2e9 B in one file striped over both OSTs (lustre-default, stripe count 2, 1 MiB stripes): 2e9 B = 1907.35 stripes,
// the first OST gets 954 full ones = 1,000,341,504 B, the second 999,658,496 B (the start OST drawn at random: either
// way the larger part sets the end). Before: each of the writer's 2 transfers was capped at the writer's whole NIC
// (1 GB/s), 2 GB/s together on a 1 GB/s NIC, end at 1.000341504 s. Expectation: the node's 2 transfers share its NIC,
// 0.5 GB/s each (the OSTs, 1 GB/s, do not bind): the larger part ends at 1,000,341,504 / 0.5e9 = 2.000683008 s.
TEST(striping_nic_engine, AWritersStripesShareItsNodesNic) {
  std::string s = R"({"platform": {"kind": "oss-ost", "compute": 4, "servers": 1, "osts_per_server": 2,
      "ost_bw": "1GBps", "server_bw": "10GBps", "nic_bw": "1GBps"},
    "workload": {"applications": [{"name": "ior", "nodes": 1, "phases": [{"io": 2e9}]}]},
    "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "maxmin"},
    "striping": {"policy": "lustre-default", "layout": "fpp", "stripe_count": 2}, "output": {"progress": false}})";
  SimRun r = run_scenario(s);
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_NEAR(r.app("ior").end, 2.000683008, 1e-9);
  EXPECT_EQ(r.app("ior").n_resources, 2);
}
