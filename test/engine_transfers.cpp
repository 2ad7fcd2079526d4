// iosim engine tests — the transfer layer's two paths (src/sim/ios_transfer.h, docs/engine.md): which one a run takes,
// and hand-computed times on both. Every engine test that takes the direct path is also re-run with SimGrid flows and
// compared (run_helpers.cpp, check_flow_path); here the choice itself is tested. Each run is its own process.
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <string>

using namespace iosim_test;

namespace {

// Applications A (1 GB) and B (3 GB), one I/O operation each at t = 0, b(1) = 1 GB/s, on one resource.
std::string two_apps(const std::string &sharing) {
  return R"({"workload": {"applications": [{"name": "A", "profile": {"1": 1e9}, "phases": [{"io": 1e9}]},
                                          {"name": "B", "profile": {"1": 1e9}, "phases": [{"io": 3e9}]}]},
             "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": ")" +
         sharing + R"("}, "output": {"progress": false}})";
}

std::string behind_gpfs(double gpfs_bw) {
  TinyPlatform p;
  p.resources = {{"r0", 1e9}};
  p.pfs_behind = true;
  p.pfs_capacity = gpfs_bw;
  return tiny_platform_xml(p);
}

} // namespace

// System: one resource r0 of 1 GB/s; A posts 1 GB and B 3 GB at t = 0, both capped at b(1) = 1 GB/s; fairshare.
// Expectations (by hand): both at 0.5 GB/s until A has moved its 1 GB at t = 2 s; B then has 2 GB left, alone at
// 1 GB/s: it ends at t = 4 s. Three segments (A from 0, B from 0, B re-rated at 2). The same on both paths; the
// direct path is taken (r0's link is the only link a policy rate crosses).
TEST(transfers_engine, HandComputedRateChangeOnBothPaths) {
  std::string platform = tiny_platform_xml({1e9});
  for (const char *flows : {"auto", "simgrid"}) {
    RunOptions opt;
    opt.sets = {std::string("engine.flows=") + flows};
    SimRun run = run_scenario(two_apps("fairshare"), platform, opt);
    ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
    EXPECT_EQ(run.str("counts.transfers"), std::string(flows) == "auto" ? "direct" : "simgrid-flows");
    EXPECT_NEAR(run.app("A").end, 2.0, 1e-9) << flows;
    EXPECT_NEAR(run.app("B").end, 4.0, 1e-9) << flows;
    EXPECT_NEAR(run.app("B").io_time, 4.0, 1e-9) << flows;
    EXPECT_EQ(run.num("counts.rate_changes"), 3) << flows;
  }
}

// System: r0 (1 GB/s) behind a file-system link `gpfs` that every route to r0 and to the PFS crosses.
// Expectations: with gpfs at 100 GB/s no link can bind a policy's rates on r0 (the PFS is not used: every application
// has one I/O node), so the run is direct; at 0.5 GB/s gpfs binds, so the run uses SimGrid flows and max-min: A and
// B at 0.25 GB/s until A ends at 4 s, then B at 0.5 GB/s for its last 2 GB: 8 s, and the platform-limited share is 1.
TEST(transfers_engine, FlowsWhereALinkThePolicyDoesNotDecideCanBind) {
  SimRun wide = run_scenario(two_apps("fairshare"), behind_gpfs(100e9));
  ASSERT_EQ(wide.proc.exit_code, 0) << wide.describe();
  EXPECT_EQ(wide.str("counts.transfers"), "direct");
  EXPECT_NEAR(wide.app("B").end, 4.0, 1e-9);
  SimRun narrow = run_scenario(two_apps("fairshare"), behind_gpfs(0.5e9));
  ASSERT_EQ(narrow.proc.exit_code, 0) << narrow.describe();
  EXPECT_EQ(narrow.str("counts.transfers"), "simgrid-flows");
  EXPECT_NEAR(narrow.app("A").end, 4.0, 1e-9);
  EXPECT_NEAR(narrow.app("B").end, 8.0, 1e-9);
  EXPECT_NEAR(narrow.metric("platform_limited_share"), 1.0, 1e-12);
}

// System: the same two applications under maxmin (SimGrid's max-min decides every rate), and on a platform whose
// route to r0 has a latency (a flow pays it once, when it starts; the direct path does not model it).
// Expectations: both run as SimGrid flows. With 1 ms of latency under fairshare both flows wait 1 ms, then move at
// 0.5 GB/s: A ends at 2.001 s; B, re-rated then with 2 GB left, keeps its flow (a new rate moves the flow's bound and
// costs no latency): it ends at 4.001 s. With IOSIM_FLOW_RERATE=restart (the benchmark's alternative: a new rate
// cancels the flow and starts its rest as a new one) B waits 1 ms again: 4.002 s.
TEST(transfers_engine, FlowsForMaxminAndForRoutesWithLatency) {
  SimRun mm = run_scenario(two_apps("maxmin"), tiny_platform_xml({1e9}));
  ASSERT_EQ(mm.proc.exit_code, 0) << mm.describe();
  EXPECT_EQ(mm.str("counts.transfers"), "simgrid-flows");
  EXPECT_NEAR(mm.app("B").end, 4.0, 1e-9);
  std::string xml = tiny_platform_xml({1e9});
  const std::string from = "<link id=\"r0\" bandwidth=\"1000000000Bps\" latency=\"0\"/>";
  size_t at = xml.find(from);
  ASSERT_NE(at, std::string::npos) << xml;
  xml.replace(at, from.size(), "<link id=\"r0\" bandwidth=\"1000000000Bps\" latency=\"1ms\"/>");
  SimRun lat = run_scenario(two_apps("fairshare"), xml);
  ASSERT_EQ(lat.proc.exit_code, 0) << lat.describe();
  EXPECT_EQ(lat.str("counts.transfers"), "simgrid-flows");
  EXPECT_NEAR(lat.app("A").end, 2.001, 1e-6);
  EXPECT_NEAR(lat.app("B").end, 4.001, 1e-6);
  setenv("IOSIM_FLOW_RERATE", "restart", 1);
  SimRun restart = run_scenario(two_apps("fairshare"), xml);
  unsetenv("IOSIM_FLOW_RERATE");
  ASSERT_EQ(restart.proc.exit_code, 0) << restart.describe();
  EXPECT_NEAR(restart.app("A").end, 2.001, 1e-6);
  EXPECT_NEAR(restart.app("B").end, 4.002, 1e-6);
}

// System: an RR-9502 synthetic instance (24 applications, n_small = 2, h = 1e5 s, W^GOAL = 0.9, seed 3) on
// platforms/pfs-single.xml under every strategy that sets rates itself.
// Expectations: the direct path is taken, and (run_helpers' check_flow_path) every metric and every application's
// times equal the SimGrid flows' to 1e-9 — fairshare included on this instance.
TEST(transfers_engine, EveryStrategyAgreesWithFlowsOnASyntheticInstance) {
  for (const char *policy : {"fcfs", "fairshare", "greedy-yield", "greedy-com", "lookahead-greedy-yield", "set10",
                             "periodic-greedy-yield", "best-next-event"}) {
    std::string scenario = std::string(R"({"platform": ")") + IOSIM_SOURCE_DIR + R"(/platforms/pfs-single.xml",
        "workload": {"generator": {"kind": "rr9502", "count": 24, "n_small": 2, "horizon_s": 1e5, "pressure": 0.9}},
        "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": ")" +
                           policy + R"("}, "window": {"stop_at_end": true}, "seed": 3, "output": {"progress": false}})";
    RunOptions opt;
    opt.set_platform = false;
    SimRun run = run_scenario(scenario, "", opt);
    ASSERT_EQ(run.proc.exit_code, 0) << policy << ": " << run.describe();
    EXPECT_EQ(run.str("counts.transfers"), "direct") << policy;
    EXPECT_GT(run.num("counts.rate_changes"), 100) << policy;
  }
}

// System: the fairshare case above with controller.tick_s = 0.5 (a decision every 0.5 s from 0) and A released at
// 1 s. Expectations (by hand): B alone at 1 GB/s on [0, 1] (1 GB moved); both at 0.5 GB/s from 1 s until A has moved
// its 1 GB at 3 s (B has 1 GB left); B alone again: it ends at 4 s. Ticks decide again but change no rate, so the
// direct path (the calendar's ticks) and the flow path (a tick actor) agree, and the ticks are counted as events.
TEST(transfers_engine, TicksAndALaterReleaseOnTheCalendar) {
  std::string apps = R"({"workload": {"applications": [
        {"name": "A", "release": 1, "profile": {"1": 1e9}, "phases": [{"io": 1e9}]},
        {"name": "B", "profile": {"1": 1e9}, "phases": [{"io": 3e9}]}]},
      "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "fairshare"}, "controller": {"tick_s": 0.5},
      "output": {"progress": false}})";
  SimRun run = run_scenario(apps, tiny_platform_xml({1e9}));
  ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
  EXPECT_EQ(run.str("counts.transfers"), "direct");
  EXPECT_NEAR(run.app("A").start, 1.0, 1e-9);
  EXPECT_NEAR(run.app("A").end, 3.0, 1e-9);
  EXPECT_NEAR(run.app("B").end, 4.0, 1e-9);
  EXPECT_GE(run.num("counts.events"), 2 + 2 + 2 + 7) << "posts, completions, ends and at least the ticks 0.5..3.5";
}

namespace {

// Applications on one node each, one I/O operation of `gb[k]` GB at t = work[k] s, b(1) = `b` B/s, on resource r0.
std::string apps_on_r0(const std::vector<double> &gb, const std::vector<double> &work, double b,
                       const std::string &sharing) {
  std::string apps;
  for (size_t k = 0; k < gb.size(); k++) {
    std::string name(1, static_cast<char>('A' + k));
    apps += std::string(k ? "," : "") + R"({"name": ")" + name + R"(", "profile": {"1": )" + fmt(b) +
            R"(}, "phases": [{"work": )" + fmt(work[k]) + R"(}, {"io": )" + fmt(gb[k] * 1e9) + "}]}";
  }
  return R"({"workload": {"applications": [)" + apps + R"(]}, "allocation": {"policy": "fixed", "n": 1},
             "sharing": {"policy": ")" +
         sharing + R"("}, "output": {"progress": false}})";
}

} // namespace

// System: r0 of 1 GB/s; A, B and C post 1 GB each and D 2 GB at t = 0 from four nodes whose routes to r0 cross the same
// links; maxmin (SimGrid's max-min decides). A, B and C start at the same date over the same route with the same bytes
// at the same (unbounded) rate: they share one SimGrid flow of weight 3 (ios_transfer.h, flow groups).
// Expectations (by hand): four flows' worth of max-min on r0: 0.25 GB/s each, so A, B and C end at 4 s; D then has
// 1 GB left, alone at 1 GB/s: 5 s. Two SimGrid flows (the group and D's) against four with IOSIM_FLOW_GROUPS=0, and
// the same times either way.
TEST(transfers_engine, TransfersThatStartTogetherShareAFlowExactly) {
  std::string scenario = apps_on_r0({1, 1, 1, 2}, {0, 0, 0, 0}, 10e9, "maxmin");
  for (const char *groups : {"1", "0"}) {
    setenv("IOSIM_FLOW_GROUPS", groups, 1);
    SimRun run = run_scenario(scenario, tiny_platform_xml({1e9}));
    unsetenv("IOSIM_FLOW_GROUPS");
    ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
    EXPECT_EQ(run.str("counts.transfers"), "simgrid-flows");
    for (const char *a : {"A", "B", "C"})
      EXPECT_NEAR(run.app(a).end, 4.0, 1e-9) << a << " groups=" << groups;
    EXPECT_NEAR(run.app("D").end, 5.0, 1e-9) << groups;
    EXPECT_EQ(run.num("counts.flows"), std::string(groups) == "1" ? 2 : 4) << groups;
  }
}

// System: r0 of 1.5 GB/s; A, B and C post 3 GB each at t = 0, D computes 2 s then posts 1 GB; b(1) = 1.5 GB/s;
// fairshare on SimGrid flows. A, B and C share a flow until D's post gives everyone a new rate: they leave the group.
// Expectations (by hand): α = 1.5 / (3 × 1.5) = 1/3: 0.5 GB/s each until t = 2 s (2 GB left each); then α = 1.5 / 6:
// 0.375 GB/s each: D ends at 2 + 1 / 0.375 = 4.666... s, when A, B and C have 2 − 2.666... × 0.375 = 1 GB left; then
// 0.5 GB/s each: they end at 6.666... s. The same with IOSIM_FLOW_GROUPS=0.
TEST(transfers_engine, AMemberGivenAnotherRateLeavesItsFlowGroup) {
  std::string scenario = apps_on_r0({3, 3, 3, 1}, {0, 0, 0, 2}, 1.5e9, "fairshare");
  RunOptions opt;
  opt.sets = {"engine.flows=simgrid"};
  for (const char *groups : {"1", "0"}) {
    setenv("IOSIM_FLOW_GROUPS", groups, 1);
    SimRun run = run_scenario(scenario, tiny_platform_xml({1.5e9}), opt);
    unsetenv("IOSIM_FLOW_GROUPS");
    ASSERT_EQ(run.proc.exit_code, 0) << run.describe();
    EXPECT_NEAR(run.app("D").end, 2.0 + 1.0 / 0.375, 1e-9) << groups;
    for (const char *a : {"A", "B", "C"})
      EXPECT_NEAR(run.app(a).end, 2.0 + 1.0 / 0.375 + 2.0, 1e-9) << a << " groups=" << groups;
  }
}
