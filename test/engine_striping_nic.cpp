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

// System: the same platform with NICs of 4 GB/s; the 1-node job has no profile (b_j(n) = min(1 × 4 GB/s, n × 1
// GB/s)) and an allocation of n = 1 resource, but its file is striped over k = 2 OSTs. By hand: its 2 transfers
// (1,000,341,504 B and 999,658,496 B) each get 1 GB/s from their OST (their NIC caps, 2 GB/s, do not bind): I/O time
// 1.000341504 s. Its reference is what it gets alone with its own layout (docs/outputs.md, "The reference bandwidth
// b_i"): the larger transfer at its OST's 1 GB/s sets the time, 1.000341504 s, so bandwidth_Bps = 2e9 / 1.000341504
// (not b_j(1) = 1 GB/s, which made its yield 1.9993 before metrics.c's guard, nor b_j(2) = 2 GB/s, which counted its
// own uneven stripes as contention: yield 0.99966, ρ_con 3.4e-4): yield = 1, ρ = 1.000341504 = ρ_io =
// b(n_perf = 2) / b_i, ρ_con = 0.
TEST(striping_nic_engine, AStripedJobsBandwidthIsThatOfTheOstsItUses) {
  std::string s = R"({"platform": {"kind": "oss-ost", "compute": 4, "servers": 1, "osts_per_server": 2,
      "ost_bw": "1GBps", "server_bw": "10GBps", "nic_bw": "4GBps"},
    "workload": {"applications": [{"name": "ior", "nodes": 1, "phases": [{"io": 2e9}]}]},
    "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "maxmin"},
    "striping": {"policy": "lustre-default", "layout": "fpp", "stripe_count": 2}, "output": {"progress": false}})";
  SimRun r = run_scenario(s);
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_NEAR(r.app("ior").io_time, 1.000341504, 1e-9);
  EXPECT_NEAR(r.app("ior").yield, 1.0, 1e-9);
  EXPECT_NEAR(r.app("ior").bandwidth, 2e9 / 1.000341504, 1e-3);
  EXPECT_NEAR(r.metric("mean_rho_con"), 0.0, 1e-9);
  EXPECT_NEAR(r.app("ior").io_slowdown - 1.000341504, 0.0, 1e-9);
}
