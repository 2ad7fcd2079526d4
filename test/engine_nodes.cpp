// iosim engine tests — a job's I/O leaves from all its nodes (src/sim/transfer_flow.c, the legs of a transfer; docs/
// engine.md): on a hand-written platform whose compute nodes each have a link of their own, each node sends its equal
// part of every transfer over its own route, and the nodes with the same route are one flow. Each run is its own
// process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <string>

using namespace iosim_test;

namespace {

// A hand-written platform as a storage administrator would write it (platforms/README.md): `nodes` compute nodes
// c0.. each with its own link cK_link of `node_bw` B/s (or none when node_bw <= 0), a core link of 1 TB/s, 2 OSS
// hosts behind 100 GB/s links, and `osts` OSTs ostJ of `ost_bw` B/s each (OSS J % 2). Routes: cK -> ostJ over
// cK_link, core, ossI_link, ostJ_link. No latency anywhere (a max-min share without CM02's latency weights).
std::string cluster_xml(int nodes, double node_bw, int osts, double ost_bw) {
  std::string x = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                  "<platform version=\"4.1\"><zone id=\"site\" routing=\"Full\">\n";
  std::string nic = fmt(node_bw > 0 ? node_bw : 1e12);
  for (int k = 0; k < nodes; k++)
    x += "<host id=\"c" + std::to_string(k) +
         "\" speed=\"1Gf\"><prop id=\"role\" value=\"compute\"/><prop id=\"nic_bw\" value=\"" + nic + "\"/></host>\n";
  for (int i = 0; i < 2; i++)
    x += "<host id=\"oss" + std::to_string(i) + "\" speed=\"1Gf\"><prop id=\"role\" value=\"oss\"/></host>\n";
  for (int j = 0; j < osts; j++)
    x += "<host id=\"ost" + std::to_string(j) + "\" speed=\"1Gf\"><prop id=\"role\" value=\"ost\"/><prop id=\"link\" " +
         "value=\"ost" + std::to_string(j) + "_link\"/></host>\n";
  for (int k = 0; node_bw > 0 && k < nodes; k++)
    x += "<link id=\"c" + std::to_string(k) + "_link\" bandwidth=\"" + fmt(node_bw) + "Bps\" latency=\"0\"/>\n";
  x += "<link id=\"core\" bandwidth=\"1TBps\" latency=\"0\"/>\n";
  for (int i = 0; i < 2; i++)
    x += "<link id=\"oss" + std::to_string(i) + "_link\" bandwidth=\"100GBps\" latency=\"0\"/>\n";
  for (int j = 0; j < osts; j++)
    x += "<link id=\"ost" + std::to_string(j) + "_link\" bandwidth=\"" + fmt(ost_bw) + "Bps\" latency=\"0\"/>\n";
  for (int k = 0; k < nodes; k++)
    for (int j = 0; j < osts; j++) {
      x += "<route src=\"c" + std::to_string(k) + "\" dst=\"ost" + std::to_string(j) + "\">";
      if (node_bw > 0) x += "<link_ctn id=\"c" + std::to_string(k) + "_link\"/>";
      x += "<link_ctn id=\"core\"/><link_ctn id=\"oss" + std::to_string(j % 2) + "_link\"/><link_ctn id=\"ost" +
           std::to_string(j) + "_link\"/></route>\n";
    }
  return x + "</zone></platform>\n";
}

// One job of `nodes` nodes writing `bytes` once at t = 0 over every OST (allocation fixed at `osts`), its own
// bandwidth unbounded (b(n) = 1 PB/s: only the platform limits it), under sharing policy `sharing`.
std::string one_job(int nodes, int osts, double bytes, const std::string &sharing) {
  return R"({"workload": {"applications": [{"name": "J", "nodes": )" + std::to_string(nodes) + R"(, "profile": {")" +
         std::to_string(osts) + R"(": 1e15}, "phases": [{"io": )" + fmt(bytes) +
         R"(}]}]}, "allocation": {"policy": "fixed", "n": )" + std::to_string(osts) + R"(}, "sharing": {"policy": ")" +
         sharing + R"("}, "output": {"progress": false}})";
}

} // namespace

// System: 64 nodes with 1 GB/s links, 8 OSTs of 1.5 GB/s (12 GB/s together); one 64-node job writes 120 GB at t = 0
// over the 8 OSTs. Expectations (by hand): each OST's transfer (15 GB) leaves from the 64 nodes, 15/64 GB each; a node
// carries 8 parts, each at most 1.5/64 GB/s on its OST (the OST link shared by the 64 parts): 8 × 1.5/64 = 0.1875
// GB/s < 1 GB/s, so the OSTs bind: 12 GB/s, I/O time 120 / 12 = 10 s (from one node it would be 120 s at 1 GB/s).
// Under maxmin (SimGrid decides) and fairshare (the policy gives each OST's transfer its 1.5 GB/s) alike; the run
// takes SimGrid flows (a node link could bind), with one flow per node and OST: 512.
TEST(nodes_engine, AJobsIoLeavesFromAllItsNodes) {
  std::string platform = cluster_xml(64, 1e9, 8, 1.5e9);
  for (const char *sharing : {"maxmin", "fairshare"}) {
    SimRun run = run_scenario(one_job(64, 8, 120e9, sharing), platform);
    ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
    EXPECT_EQ(run.str("counts.transfers"), "simgrid-flows") << sharing;
    EXPECT_NEAR(run.app("J").io_time, 10.0, 1e-6) << sharing;
    EXPECT_EQ(run.num("counts.flows"), 64 * 8) << sharing;
  }
}

// System: the same platform; a 2-node job writes 20 GB over the 8 OSTs. Expectations (by hand): each node carries 8
// parts of 1.25 GB; its 1 GB/s link binds (8 parts at 0.125 GB/s each, far below the OSTs' 1.5/2 each): 2 GB/s for
// the job, I/O time 20 / 2 = 10 s.
TEST(nodes_engine, TwoNodesWhoseLinksBind) {
  std::string platform = cluster_xml(64, 1e9, 8, 1.5e9);
  for (const char *sharing : {"maxmin", "fairshare"}) {
    SimRun run = run_scenario(one_job(2, 8, 20e9, sharing), platform);
    ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
    EXPECT_NEAR(run.app("J").io_time, 10.0, 1e-6) << sharing;
  }
}

// System: the same job of 64 nodes on a platform whose nodes have no link on the I/O route (as iosim's generated
// platforms): every node has the same route to an OST. Expectations: one flow per OST's transfer, from the job's first
// node, exactly as a transfer from one node (8 flows); the OSTs bind: 10 s; and the policy's rates fit every link, so
// fairshare takes the direct path.
TEST(nodes_engine, NodesWithOneRouteAreOneFlow) {
  std::string platform = cluster_xml(64, 0, 8, 1.5e9);
  SimRun flows = run_scenario(one_job(64, 8, 120e9, "maxmin"), platform);
  ASSERT_EQ(flows.proc.exit_code, 0) << flows.describe();
  EXPECT_EQ(flows.num("counts.flows"), 8);
  EXPECT_NEAR(flows.app("J").io_time, 10.0, 1e-6);
  SimRun direct = run_scenario(one_job(64, 8, 120e9, "fairshare"), platform);
  ASSERT_EQ(direct.proc.exit_code, 0) << direct.describe();
  EXPECT_EQ(direct.str("counts.transfers"), "direct");
  EXPECT_NEAR(direct.app("J").io_time, 10.0, 1e-9);
}

// System: two jobs on a per-node-link platform of 65 nodes and one OST (1.5 GB/s), each writing to it (n = 1): K of
// 64 nodes (64 GB) and L of 1 node (6 GB, on its own node), maxmin. A transfer from 64 nodes weighs as one flow on the
// OST link its legs share (each leg 1/64), so the OST's 1.5 GB/s is split evenly between the two transfers: 0.75 GB/s
// each (K's legs 0.75/64 each, far below their node links; L's one flow 0.75 < 1 GB/s). L's 6 GB end at 8 s; K has 64 −
// 6 = 58 GB left, alone at 1.5 GB/s: 58 / 1.5 = 38.666... s more, ending at 46.666... s.
TEST(nodes_engine, ATransferFromManyNodesWeighsAsOneFlow) {
  std::string platform = cluster_xml(65, 1e9, 1, 1.5e9);
  std::string scenario = R"({"workload": {"applications": [
        {"name": "K", "nodes": 64, "profile": {"1": 1e15}, "phases": [{"io": 64e9}]},
        {"name": "L", "nodes": 1, "profile": {"1": 1e15}, "phases": [{"io": 6e9}]}]},
      "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "maxmin"}, "output": {"progress": false}})";
  SimRun run = run_scenario(scenario, platform);
  ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
  EXPECT_NEAR(run.app("L").io_time, 8.0, 1e-6);
  EXPECT_NEAR(run.app("K").io_time, 8.0 + 58.0 / 1.5, 1e-6);
}
