// iosim engine tests — a job's I/O leaves from all its nodes (src/sim/transfer_flow.c, the legs of a transfer; docs/
// engine.md): on a hand-written platform whose compute nodes each have a link of their own, each node sends its equal
// part of every transfer over its own route, and the nodes with the same route are one flow. Alike nodes (links of
// their own with the same bandwidths, the rest of their routes the same) are one flow per transfer from the first
// node, whose own links carry the job's nodes together (src/sim/transfer_nodes.c, ios_tr_node_group); each case is
// run both ways (IOSIM_NODE_GROUPS=0: one leg per node) with the same hand-computed answer. Each run is its own
// process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

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

// Runs `scenario` on `platform` with node groups on (the default) or off (IOSIM_NODE_GROUPS=0, which iosim inherits).
SimRun run_groups(bool groups, const std::string &scenario, const std::string &platform) {
  if (!groups) setenv("IOSIM_NODE_GROUPS", "0", 1);
  SimRun r = run_scenario(scenario, platform);
  unsetenv("IOSIM_NODE_GROUPS");
  return r;
}

// Four compute nodes c0..c3, each with its own 10 GB/s link, behind two switch links of 1 GB/s: s0 for c0 and c2, s1
// for c1 and c3 (a job of two consecutive nodes has one node under each); a core link; one OST of 100 GB/s. No latency.
std::string switched_xml() {
  std::string x = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                  "<platform version=\"4.1\"><zone id=\"site\" routing=\"Full\">\n";
  for (int k = 0; k < 4; k++)
    x += "<host id=\"c" + std::to_string(k) +
         "\" speed=\"1Gf\"><prop id=\"role\" value=\"compute\"/><prop id=\"nic_bw\" value=\"10GBps\"/></host>\n";
  x += "<host id=\"ost0\" speed=\"1Gf\"><prop id=\"role\" value=\"ost\"/><prop id=\"link\" value=\"ost0_link\"/>"
       "</host>\n";
  for (int k = 0; k < 4; k++)
    x += "<link id=\"c" + std::to_string(k) + "_link\" bandwidth=\"10GBps\" latency=\"0\"/>\n";
  x += "<link id=\"s0\" bandwidth=\"1GBps\" latency=\"0\"/><link id=\"s1\" bandwidth=\"1GBps\" latency=\"0\"/>\n"
       "<link id=\"core\" bandwidth=\"1TBps\" latency=\"0\"/>\n"
       "<link id=\"ost0_link\" bandwidth=\"100GBps\" latency=\"0\"/>\n";
  for (int k = 0; k < 4; k++)
    x += "<route src=\"c" + std::to_string(k) + "\" dst=\"ost0\"><link_ctn id=\"c" + std::to_string(k) +
         "_link\"/><link_ctn id=\"s" + std::to_string(k % 2) +
         "\"/><link_ctn id=\"core\"/><link_ctn id=\"ost0_link\"/></route>\n";
  return x + "</zone></platform>\n";
}

} // namespace

// System: 64 nodes with 1 GB/s links, 8 OSTs of 1.5 GB/s (12 GB/s together); one 64-node job writes 120 GB at t = 0
// over the 8 OSTs. Expectations (by hand): each OST's transfer (15 GB) leaves from the 64 nodes, 15/64 GB each; a node
// carries 8 parts, each at most 1.5/64 GB/s on its OST (the OST link shared by the 64 parts): 8 × 1.5/64 = 0.1875
// GB/s < 1 GB/s, so the OSTs bind: 12 GB/s, I/O time 120 / 12 = 10 s (from one node it would be 120 s at 1 GB/s).
// Under maxmin (SimGrid decides) and fairshare (the policy gives each OST's transfer its 1.5 GB/s) alike; the run
// takes SimGrid flows (a node link could bind): the 64 nodes are alike, so one flow per OST from c0 (8), whose link
// carries 64 nodes' parts at 64 GB/s; without node groups one per node and OST (512).
TEST(nodes_engine, AJobsIoLeavesFromAllItsNodes) {
  std::string platform = cluster_xml(64, 1e9, 8, 1.5e9);
  for (bool groups : {true, false})
    for (const char *sharing : {"maxmin", "fairshare"}) {
      SimRun run = run_groups(groups, one_job(64, 8, 120e9, sharing), platform);
      ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
      EXPECT_EQ(run.str("counts.transfers"), "simgrid-flows") << sharing;
      EXPECT_NEAR(run.app("J").io_time, 10.0, 1e-6) << sharing << ", node groups " << groups;
      EXPECT_EQ(run.num("counts.flows"), groups ? 8 : 64 * 8) << sharing;
    }
}

// System: the same platform; a 2-node job writes 20 GB over the 8 OSTs. Expectations (by hand): each node carries 8
// parts of 1.25 GB; its 1 GB/s link binds (8 parts at 0.125 GB/s each, far below the OSTs' 1.5/2 each): 2 GB/s for
// the job, I/O time 20 / 2 = 10 s: with node groups 8 flows from c0 over its link at 2 GB/s, without 16 legs.
TEST(nodes_engine, TwoNodesWhoseLinksBind) {
  std::string platform = cluster_xml(64, 1e9, 8, 1.5e9);
  for (bool groups : {true, false})
    for (const char *sharing : {"maxmin", "fairshare"}) {
      SimRun run = run_groups(groups, one_job(2, 8, 20e9, sharing), platform);
      ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
      EXPECT_NEAR(run.app("J").io_time, 10.0, 1e-6) << sharing << ", node groups " << groups;
      EXPECT_EQ(run.num("counts.flows"), groups ? 8 : 16) << sharing;
    }
}

// System: the same platform with node c1's link at 0.5 GB/s (c0's 1 GB/s); a 2-node job writes 20 GB over the 8 OSTs,
// maxmin. Expectations (by hand): the nodes are not alike (their own links differ), so one leg per node and OST (16
// flows) with node groups on too: c0's 10 GB at 1 GB/s end at 10 s, c1's 10 GB at 0.5 GB/s at 20 s: I/O time 20 s
// (one flow from c0 at twice its link would give 10 s).
TEST(nodes_engine, NodesWithUnequalLinksAreLegs) {
  std::string platform = cluster_xml(64, 1e9, 8, 1.5e9);
  std::string c1 = "<link id=\"c1_link\" bandwidth=\"" + fmt(1e9) + "Bps\"";
  auto at = platform.find(c1);
  ASSERT_NE(at, std::string::npos);
  platform.replace(at, c1.size(), "<link id=\"c1_link\" bandwidth=\"" + fmt(0.5e9) + "Bps\"");
  for (bool groups : {true, false}) {
    SimRun run = run_groups(groups, one_job(2, 8, 20e9, "maxmin"), platform);
    ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
    EXPECT_NEAR(run.app("J").io_time, 20.0, 1e-6) << "node groups " << groups;
    EXPECT_EQ(run.num("counts.flows"), 16) << "node groups " << groups;
  }
}

// System: switched_xml (c0 and c2 behind switch link s0, c1 and c3 behind s1, 1 GB/s each; own links 10 GB/s); jobs A
// (c0, c1) and B (c2, c3) each write 20 GB to the OST (n = 1) at t = 0, maxmin. A's nodes each cross a switch link
// that a node of B crosses too: not a link of their own, so not alike: legs. Expectations (by hand): each switch link
// carries one leg of A and one of B (10 GB each) at 0.5 GB/s each: both jobs end at 10 / 0.5 = 20 s, 4 flows.
TEST(nodes_engine, ALinkAnotherJobsNodeCrossesIsNotANodesOwn) {
  std::string scenario = R"({"workload": {"applications": [
        {"name": "A", "nodes": 2, "profile": {"1": 1e15}, "phases": [{"io": 20e9}]},
        {"name": "B", "nodes": 2, "profile": {"1": 1e15}, "phases": [{"io": 20e9}]}]},
      "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "maxmin"}, "output": {"progress": false}})";
  for (bool groups : {true, false}) {
    SimRun run = run_groups(groups, scenario, switched_xml());
    ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
    EXPECT_NEAR(run.app("A").io_time, 20.0, 1e-6) << "node groups " << groups;
    EXPECT_NEAR(run.app("B").io_time, 20.0, 1e-6) << "node groups " << groups;
    EXPECT_EQ(run.num("counts.flows"), 4) << "node groups " << groups;
  }
}

// System: 2 nodes with 1 GB/s links and one OST of 3 GB/s, the job queue, maxmin; A (2 nodes) writes 20 GB at t = 0;
// B (1 node, released at t = 1, waiting for a node until A ends) writes 10 GB. Expectations (by hand): A's node links
// bind: 2 GB/s, 10 s (with node groups: one flow from A's first node over its link at 2 GB/s). B starts at 10 s on
// one of A's nodes, alone: its 1 GB/s link binds, 10 s; it would be 5 s on a link left at A's 2 GB/s, so A's first
// node's link must be back at 1 GB/s once A ended (both of A's nodes are tried: B1 and B2 take one each).
TEST(nodes_engine, AJobsNodeLinksGetTheirBandwidthBackWhenItEnds) {
  std::string platform = cluster_xml(2, 1e9, 1, 3e9);
  std::string scenario = R"({"workload": {"applications": [
        {"name": "A", "nodes": 2, "profile": {"1": 1e15}, "phases": [{"io": 20e9}]},
        {"name": "B1", "nodes": 1, "profile": {"1": 1e15}, "release": 1, "phases": [{"io": 10e9}]},
        {"name": "B2", "nodes": 1, "profile": {"1": 1e15}, "release": 1, "phases": [{"io": 10e9}]}]},
      "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "maxmin"}, "queue": {"enabled": true},
      "output": {"progress": false}})";
  for (bool groups : {true, false}) {
    SimRun run = run_groups(groups, scenario, platform);
    ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
    EXPECT_NEAR(run.app("A").io_time, 10.0, 1e-6) << "node groups " << groups;
    EXPECT_NEAR(run.app("B1").io_time, 10.0, 1e-6) << "node groups " << groups;
    EXPECT_NEAR(run.app("B2").io_time, 10.0, 1e-6) << "node groups " << groups;
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

namespace {

// A random site (seed `seed`): 4..12 compute nodes c0.., each with its own link of 0.25..1 GB/s (all nodes alike at
// 0.5 GB/s in half the sites: node links often bind), in half the sites some nodes behind a switch link of 1.5 GB/s
// that 2 nodes share; a core link of 1 TB/s; 1..4 OSTs of 0.5..3 GB/s behind 2 OSS links of 4 GB/s. No latency.
std::string random_site(unsigned seed, int *nodes, int *nosts) {
  std::mt19937 rng(seed);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int n = pick(4, 12), osts = pick(1, 4);
  bool alike = pick(0, 1) == 1, switched = pick(0, 1) == 1;
  *nodes = n;
  *nosts = osts;
  std::string x = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                  "<platform version=\"4.1\"><zone id=\"site\" routing=\"Full\">\n";
  for (int k = 0; k < n; k++)
    x += "<host id=\"c" + std::to_string(k) +
         "\" speed=\"1Gf\"><prop id=\"role\" value=\"compute\"/><prop id=\"nic_bw\" value=\"10GBps\"/></host>\n";
  for (int j = 0; j < osts; j++)
    x += "<host id=\"ost" + std::to_string(j) + "\" speed=\"1Gf\"><prop id=\"role\" value=\"ost\"/><prop id=\"link\" " +
         "value=\"ost" + std::to_string(j) + "_link\"/></host>\n";
  std::vector<int> sw(static_cast<size_t>(n), -1);
  for (int k = 0; k < n; k++) {
    double bw = alike ? 0.5e9 : pick(1, 4) * 0.25e9;
    x += "<link id=\"c" + std::to_string(k) + "_link\" bandwidth=\"" + fmt(bw) + "Bps\" latency=\"0\"/>\n";
    if (switched && pick(0, 2) == 0) sw[static_cast<size_t>(k)] = pick(0, 1);
  }
  x += "<link id=\"sw0\" bandwidth=\"1.5GBps\" latency=\"0\"/><link id=\"sw1\" bandwidth=\"1.5GBps\" latency=\"0\"/>\n"
       "<link id=\"core\" bandwidth=\"1TBps\" latency=\"0\"/>\n"
       "<link id=\"oss0\" bandwidth=\"4GBps\" latency=\"0\"/><link id=\"oss1\" bandwidth=\"4GBps\" latency=\"0\"/>\n";
  for (int j = 0; j < osts; j++)
    x += "<link id=\"ost" + std::to_string(j) + "_link\" bandwidth=\"" + fmt(pick(1, 6) * 0.5e9) +
         "Bps\" latency=\"0\"/>\n";
  for (int k = 0; k < n; k++)
    for (int j = 0; j < osts; j++) {
      x += "<route src=\"c" + std::to_string(k) + "\" dst=\"ost" + std::to_string(j) + "\"><link_ctn id=\"c" +
           std::to_string(k) + "_link\"/>";
      if (sw[static_cast<size_t>(k)] >= 0)
        x += "<link_ctn id=\"sw" + std::to_string(sw[static_cast<size_t>(k)]) + "\"/>";
      x += "<link_ctn id=\"core\"/><link_ctn id=\"oss" + std::to_string(j % 2) + "\"/><link_ctn id=\"ost" +
           std::to_string(j) + "_link\"/></route>\n";
    }
  return x + "</zone></platform>\n";
}

// 2..5 jobs of 1..nodes/2 nodes each, released at 0..20 s, each writing, working and reading 1..40 GB, with or without
// the job queue, under maxmin or fairshare; allocation fixed at 1..2 resources (at most `osts`).
std::string random_jobs(unsigned seed, int nodes, int osts) {
  std::mt19937 rng(seed * 7919u + 1u);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int napps = pick(2, 5);
  bool queue = pick(0, 1) == 1;
  std::string apps;
  int used = 0;
  for (int a = 0; a < napps; a++) {
    int q = pick(1, nodes / 2 > 1 ? nodes / 2 : 1);
    if (!queue && used + q > nodes) break;
    used += q;
    apps += std::string(apps.empty() ? "" : ",") + R"({"name": "J)" + std::to_string(a) + R"(", "nodes": )" +
            std::to_string(q) + R"(, "release": )" + std::to_string(pick(0, 20)) +
            R"(, "profile": {"1": 1e15, "2": 1e15}, "phases": [{"write": )" + fmt(pick(1, 40) * 1e9) +
            R"(}, {"work": )" + std::to_string(pick(1, 5)) + R"(}, {"read": )" + fmt(pick(1, 40) * 1e9) + "}]}";
  }
  return R"({"workload": {"applications": [)" + apps + R"(]}, "allocation": {"policy": "fixed", "n": )" +
         std::to_string(pick(1, osts < 2 ? osts : 2)) + R"(}, "sharing": {"policy": ")" +
         (pick(0, 1) ? "maxmin" : "fairshare") + R"("}, "queue": {"enabled": )" + (queue ? "true" : "false") +
         R"(}, "output": {"progress": false}})";
}

} // namespace

// Property (no hand computation: the legs are the reference): on 40 random sites and job mixes (alike nodes or not,
// switch links shared by nodes of different jobs or not, several jobs, queue or not, maxmin or fairshare, reads and
// writes), node groups give every job the I/O time and end of one leg per node (IOSIM_NODE_GROUPS=0), to 1e-9.
TEST(nodes_engine, NodeGroupsGiveTheRatesOfOneLegPerNode) {
  int grouped = 0;
  for (unsigned seed = 1; seed <= 40; seed++) {
    int nodes = 0, osts = 0;
    std::string platform = random_site(seed, &nodes, &osts), scenario = random_jobs(seed, nodes, osts);
    SimRun on = run_groups(true, scenario, platform), off = run_groups(false, scenario, platform);
    ASSERT_EQ(on.proc.exit_code, 0) << "seed " << seed << "\n" << on.describe();
    ASSERT_EQ(off.proc.exit_code, 0) << "seed " << seed << "\n" << off.describe();
    ASSERT_EQ(on.apps.size(), off.apps.size());
    for (size_t i = 0; i < on.apps.size(); i++) {
      const auto &a = on.apps[i], &b = off.apps[i];
      EXPECT_NEAR(a.io_time, b.io_time, 1e-9 * (1 + b.io_time)) << "seed " << seed << " " << a.name;
      EXPECT_NEAR(a.end, b.end, 1e-9 * (1 + b.end)) << "seed " << seed << " " << a.name;
    }
    grouped += on.num("counts.flows") < off.num("counts.flows");
  }
  EXPECT_GE(grouped, 10); /* the property is about node groups: enough sites must have used them */
}

// ---------------------------------------------------------------- racked machines: node groups within subsets
// A job's nodes in one rack are alike (the same backbone and uplink, links of their own of one bandwidth); nodes in two
// racks are two classes, one flow per class and resource (src/sim/transfer_nodes.c; docs/engine.md, "A job's nodes as
// one flow").

namespace {

// A racked machine as it is cabled (docs/performance.md, the racked site year): `racks` SimGrid `<cluster>`s rack0..
// of `per` nodes each (node0, node1, ... in rack order), each node with its own link of node_bw[r] B/s onto its rack's
// backbone of bb_bw[r] B/s (sharing `bb_policy[r]`, SHARED or FATPIPE), an uplink uplinkR of up_bw[r] B/s from the
// rack's router to the storage zone, then a core link of 1 TB/s; 2 OSS links of 100 GB/s and `osts` OSTs ostJ of
// `ost_bw` B/s (OSS J % 2). No latency anywhere.
struct rack_t {
  double node_bw, bb_bw, up_bw;
  const char *bb_policy;
};

std::string racked_xml(const std::vector<rack_t> &racks, int per, int osts, double ost_bw) {
  std::string x = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                  "<platform version=\"4.1\"><zone id=\"site\" routing=\"Full\">\n";
  for (size_t r = 0; r < racks.size(); r++) {
    int lo = static_cast<int>(r) * per;
    std::string R = std::to_string(r);
    x += "<cluster id=\"rack" + R + "\" prefix=\"node\" suffix=\"\" radical=\"" + std::to_string(lo) + "-" +
         std::to_string(lo + per - 1) + "\" speed=\"1Gf\" bw=\"" + fmt(racks[r].node_bw) + "Bps\" lat=\"0\" bb_bw=\"" +
         fmt(racks[r].bb_bw) + "Bps\" bb_lat=\"0\" bb_sharing_policy=\"" + racks[r].bb_policy + "\" router_id=\"rack" +
         R + "_router\"><prop id=\"role\" value=\"compute\"/><prop id=\"nic_bw\" value=\"10GBps\"/></cluster>\n";
    x += "<link id=\"uplink" + R + "\" bandwidth=\"" + fmt(racks[r].up_bw) + "Bps\" latency=\"0\"/>\n";
  }
  x += "<link id=\"core\" bandwidth=\"1TBps\" latency=\"0\"/>\n"
       "<link id=\"oss0\" bandwidth=\"100GBps\" latency=\"0\"/><link id=\"oss1\" bandwidth=\"100GBps\" "
       "latency=\"0\"/>\n";
  for (int j = 0; j < osts; j++)
    x += "<link id=\"ost" + std::to_string(j) + "_link\" bandwidth=\"" + fmt(ost_bw) + "Bps\" latency=\"0\"/>\n";
  x += "<zone id=\"storage\" routing=\"Full\">\n";
  for (int j = 0; j < osts; j++)
    x += "<host id=\"ost" + std::to_string(j) + "\" speed=\"1Gf\"><prop id=\"role\" value=\"ost\"/><prop id=\"link\" " +
         "value=\"ost" + std::to_string(j) + "_link\"/></host>\n";
  x += "<router id=\"fabric\"/>\n";
  for (int j = 0; j < osts; j++)
    x += "<route src=\"fabric\" dst=\"ost" + std::to_string(j) + "\"><link_ctn id=\"oss" + std::to_string(j % 2) +
         "\"/><link_ctn id=\"ost" + std::to_string(j) + "_link\"/></route>\n";
  x += "</zone>\n";
  for (size_t r = 0; r < racks.size(); r++) {
    std::string R = std::to_string(r);
    x += "<zoneRoute src=\"rack" + R + "\" dst=\"storage\" gw_src=\"rack" + R +
         "_router\" gw_dst=\"fabric\"><link_ctn id=\"uplink" + R + "\"/><link_ctn id=\"core\"/></zoneRoute>\n";
  }
  return x + "</zone></platform>\n";
}

// Job F (`filler` nodes: the first ones, a 1 s work phase and no I/O: it only moves J's nodes along) then job J of
// `nodes` nodes writing `bytes` at t = 0 over 2 OSTs, b(n) unbounded, under `sharing`.
std::string racked_job(int filler, int nodes, double bytes, const std::string &sharing) {
  std::string f = filler > 0 ? R"({"name": "F", "nodes": )" + std::to_string(filler) +
                                   R"(, "profile": {"2": 1e15}, "phases": [{"work": 1}]}, )"
                             : "";
  return R"({"workload": {"applications": [)" + f + R"({"name": "J", "nodes": )" + std::to_string(nodes) +
         R"(, "profile": {"2": 1e15}, "phases": [{"io": )" + fmt(bytes) +
         R"(}]}]}, "allocation": {"policy": "fixed", "n": 2}, "sharing": {"policy": ")" + sharing +
         R"("}, "output": {"progress": false}})";
}

} // namespace

// System: 2 racks of 4 nodes, node links 1 GB/s, backbones 100 GB/s, uplinks 1.5 GB/s (they bind), 2 OSTs of 10 GB/s.
// Expectations (by hand): (a) J of 4 nodes (node0-3, rack 0) writes 40 GB: its 4 nodes could send 4 GB/s, rack 0's
// uplink carries 1.5 GB/s: 40 / 1.5 = 26.666... s; one class: 2 flows (one per OST) instead of 8 legs. (b) after F's
// node0, J of 4 nodes spans the racks: node1-3 in rack 0, node4 in rack 1; each node sends its 10 GB. Rack 0's three
// nodes share its uplink: 30 GB at 1.5 GB/s, 20 s; node4 alone under rack 1's uplink is bound by its own 1 GB/s link:
// 10 s. I/O time 20 s (one class of 4 would put 40 GB through rack 0's uplink: 26.7 s); two classes: 4 flows, not 8.
TEST(nodes_engine, RackedJobsWhoseUplinkBinds) {
  std::vector<rack_t> racks(2, rack_t{1e9, 100e9, 1.5e9, "SHARED"});
  std::string platform = racked_xml(racks, 4, 2, 10e9);
  for (bool groups : {true, false})
    for (const char *sharing : {"maxmin", "fairshare"}) {
      SimRun one = run_groups(groups, racked_job(0, 4, 40e9, sharing), platform);
      ASSERT_EQ(one.proc.exit_code, 0) << one.describe();
      EXPECT_EQ(one.str("counts.transfers"), "simgrid-flows") << sharing;
      EXPECT_NEAR(one.app("J").io_time, 40.0 / 1.5, 1e-6) << sharing << ", node groups " << groups;
      EXPECT_EQ(one.num("counts.flows"), groups ? 2 : 8) << sharing;
      SimRun two = run_groups(groups, racked_job(1, 4, 40e9, sharing), platform);
      ASSERT_EQ(two.proc.exit_code, 0) << two.describe();
      EXPECT_NEAR(two.app("J").io_time, 20.0, 1e-6) << sharing << ", node groups " << groups;
      EXPECT_EQ(two.num("counts.flows"), groups ? 4 : 8) << sharing;
    }
}

// System: the same racks with backbones of 2 GB/s (they bind) and uplinks of 100 GB/s. Expectations (by hand): (a) J
// of 4 nodes in rack 0, 40 GB: rack 0's backbone carries 2 GB/s: 20 s, 2 flows. (b) J on node1-3 (rack 0) and node4
// (rack 1): rack 0's 30 GB at 2 GB/s, 15 s; node4's 10 GB at its link's 1 GB/s, 10 s: I/O time 15 s, 4 flows.
TEST(nodes_engine, RackedJobsWhoseBackboneBinds) {
  std::vector<rack_t> racks(2, rack_t{1e9, 2e9, 100e9, "SHARED"});
  std::string platform = racked_xml(racks, 4, 2, 10e9);
  for (bool groups : {true, false})
    for (const char *sharing : {"maxmin", "fairshare"}) {
      SimRun one = run_groups(groups, racked_job(0, 4, 40e9, sharing), platform);
      ASSERT_EQ(one.proc.exit_code, 0) << one.describe();
      EXPECT_NEAR(one.app("J").io_time, 20.0, 1e-6) << sharing << ", node groups " << groups;
      EXPECT_EQ(one.num("counts.flows"), groups ? 2 : 8) << sharing;
      SimRun two = run_groups(groups, racked_job(1, 4, 40e9, sharing), platform);
      ASSERT_EQ(two.proc.exit_code, 0) << two.describe();
      EXPECT_NEAR(two.app("J").io_time, 15.0, 1e-6) << sharing << ", node groups " << groups;
      EXPECT_EQ(two.num("counts.flows"), groups ? 4 : 8) << sharing;
    }
}

// System: 2 racks of 4 nodes whose backbone is a FATPIPE of 1.5 GB/s (it bounds each flow, not their sum), uplinks
// 100 GB/s, node links 1 GB/s. Expectations (by hand): J of 4 nodes in rack 0 writes 40 GB: each node's legs are
// bounded by its own 1 GB/s link (each of its 2 legs at 0.5 GB/s, under the backbone's 1.5 per flow): 4 GB/s, 10 s. One
// flow per OST for the 4 nodes would be bounded by the backbone at 1.5 GB/s (13.3 s): a node behind a shared FATPIPE
// is a class of its own, so legs (8 flows) both ways.
TEST(nodes_engine, RackedNodesBehindAFatpipeAreLegs) {
  std::vector<rack_t> racks(2, rack_t{1e9, 1.5e9, 100e9, "FATPIPE"});
  std::string platform = racked_xml(racks, 4, 2, 10e9);
  for (bool groups : {true, false}) {
    SimRun run = run_groups(groups, racked_job(0, 4, 40e9, "maxmin"), platform);
    ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
    EXPECT_NEAR(run.app("J").io_time, 10.0, 1e-6) << "node groups " << groups;
    EXPECT_EQ(run.num("counts.flows"), 8) << "node groups " << groups;
  }
}

// System: 2 racks of 2 nodes (node0-1, node2-3), node links 1 GB/s, backbones 100 GB/s, uplinks 1 GB/s (they bind), 2
// OSTs of 10 GB/s; the job queue on (src/sim/queue.c). In queue order: P (1 node, work 100 s), A (2 nodes, work 1 s),
// Q (1 node, work 2 s, then writes 10 GB), C (1 node, released at 1.5 s, work 0.5 s, then writes 10 GB).
// Expectations (by hand): jobs take the lowest free nodes: P node0, A node1-2, Q node3. A ends at 1 s and gives back
// node1 and node2; C takes the lowest, node1 (rack 0). From 2 s Q (rack 1) and C (rack 0) each write alone under their
// rack's uplink: 10 GB at 1 GB/s, I/O time 10 s each. (Given back in A's order, node2 on top, C went to rack 1 and
// shared its uplink with Q: 20 s each.)
TEST(nodes_engine, TheQueueGivesAJobTheLowestFreeNodes) {
  std::vector<rack_t> racks(2, rack_t{1e9, 100e9, 1e9, "SHARED"});
  std::string platform = racked_xml(racks, 2, 2, 10e9);
  const std::string scen =
      R"({"workload": {"applications": [
           {"name": "P", "nodes": 1, "profile": {"2": 1e15}, "phases": [{"work": 100}]},
           {"name": "A", "nodes": 2, "profile": {"2": 1e15}, "phases": [{"work": 1}]},
           {"name": "Q", "nodes": 1, "profile": {"2": 1e15}, "phases": [{"work": 2}, {"io": 10e9}]},
           {"name": "C", "nodes": 1, "release": 1.5, "profile": {"2": 1e15}, "phases": [{"work": 0.5}, {"io": 10e9}]}]},
          "allocation": {"policy": "fixed", "n": 2}, "sharing": {"policy": "maxmin"}, "queue": {"enabled": true},
          "output": {"progress": false}})";
  for (bool groups : {true, false}) {
    SimRun run = run_groups(groups, scen, platform);
    ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
    EXPECT_NEAR(run.app("Q").io_time, 10.0, 1e-6) << "node groups " << groups;
    EXPECT_NEAR(run.app("C").io_time, 10.0, 1e-6) << "node groups " << groups;
    EXPECT_NEAR(run.app("C").start, 1.5, 1e-9) << "node groups " << groups;
  }
}

namespace {

// A random racked site (seed `seed`): 2..4 racks of 2..5 nodes; node links of 0.25..1 GB/s (the same in every rack in
// two thirds of the sites, else per rack), per rack a backbone of 0.5..4 GB/s (a FATPIPE in a quarter of the racks)
// and an uplink of 0.5..4 GB/s (backbones and uplinks often bind, node links too); 1..4 OSTs of 0.5..3 GB/s. *nodes
// gets the node count, *nosts the OSTs.
std::string random_racked_site(unsigned seed, int *nodes, int *nosts) {
  std::mt19937 rng(seed * 104729u + 3u);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int nr = pick(2, 4), per = pick(2, 5), osts = pick(1, 4);
  bool alike = pick(0, 2) > 0; /* in two thirds of the sites every node has the same link, as on most machines */
  double node_bw = pick(1, 4) * 0.25e9;
  std::vector<rack_t> racks;
  for (int r = 0; r < nr; r++)
    racks.push_back(rack_t{alike ? node_bw : pick(1, 4) * 0.25e9, pick(1, 8) * 0.5e9, pick(1, 8) * 0.5e9,
                           pick(0, 3) == 0 ? "FATPIPE" : "SHARED"});
  *nodes = nr * per;
  *nosts = osts;
  return racked_xml(racks, per, osts, pick(1, 6) * 0.5e9);
}

} // namespace

// Property (no hand computation: the legs are the reference): on 40 random racked sites and job mixes (jobs within a
// rack or spanning several, racks with different node links, backbones and uplinks that bind, FATPIPE backbones,
// uplinks shared by several jobs, queue or not, maxmin or fairshare, reads and writes), node groups give every job the
// I/O time and end of one leg per node (IOSIM_NODE_GROUPS=0), to 1e-9.
TEST(nodes_engine, RackedNodeGroupsGiveTheRatesOfOneLegPerNode) {
  int grouped = 0;
  for (unsigned seed = 1; seed <= 40; seed++) {
    int nodes = 0, osts = 0;
    std::string platform = random_racked_site(seed, &nodes, &osts), scenario = random_jobs(seed + 1000, nodes, osts);
    SimRun on = run_groups(true, scenario, platform), off = run_groups(false, scenario, platform);
    ASSERT_EQ(on.proc.exit_code, 0) << "seed " << seed << "\n" << on.describe();
    ASSERT_EQ(off.proc.exit_code, 0) << "seed " << seed << "\n" << off.describe();
    ASSERT_EQ(on.apps.size(), off.apps.size());
    for (size_t i = 0; i < on.apps.size(); i++) {
      const auto &a = on.apps[i], &b = off.apps[i];
      EXPECT_NEAR(a.io_time, b.io_time, 1e-9 * (1 + b.io_time)) << "seed " << seed << " " << a.name;
      EXPECT_NEAR(a.end, b.end, 1e-9 * (1 + b.end)) << "seed " << seed << " " << a.name;
    }
    grouped += on.num("counts.flows") < off.num("counts.flows");
  }
  EXPECT_GE(grouped, 10); /* the property is about node groups: enough sites must have used them */
}
