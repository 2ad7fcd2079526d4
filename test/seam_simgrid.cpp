/* The SimGrid seam (src/sim/ios_sg.h, src/sim/sg_glue.cpp): the behaviours of SimGrid 3.32's internals that iosim's
 * flow path relies on (docs/engine.md, "The SimGrid seam"), each checked through the ios_flow_* / ios_sg_* functions
 * only, against dates computed by hand. If a SimGrid upgrade changes one of them, a case here fails (ctest -L seam).
 * Each TEST runs in its own process (ctest runs the binary once per test): one SimGrid engine per process.
 *
 * Platform, built here: CM02 without cross-traffic; hosts a, b, c, d; link L of 1e9 B/s and no latency on the route
 * a -> b; link LL of 1e9 B/s and 1 ms of latency on the route c -> d. CM02 bounds a flow on a route of latency λ by
 * TCP-gamma / (2 λ) = 4194304 / 0.002 = 2.1e9 B/s, above LL's 1e9: LL's bandwidth binds, as L's does on a -> b.
 *
 * The harness drives flows as the engine does (src/sim/calendar.c): SimGrid's maestro runs a step at every date its
 * clock reaches (ios_sg_drive); the step collects the flows that ended (ios_flows_collect), runs the actions planned
 * for that date, and sets the next wake-up (ios_sg_wake_at). */
#include "ios_sg.h"

#include <gtest/gtest.h>
#include <simgrid/s4u.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {
struct Net {
  sg_host_t a, b, c, d;
};

Net platform() {
  static int argc = 2;
  static char name[] = "seam_simgrid", log[] = "--log=root.thres:critical";
  static char *argv[] = {name, log, nullptr};
  auto *e = new sg4::Engine(&argc, argv);
  e->set_config("network/model:CM02");
  e->set_config("network/crosstraffic:0");
  auto *zone = sg4::create_full_zone("seam");
  Net n{};
  n.a = zone->create_host("a", 1e9)->seal();
  n.b = zone->create_host("b", 1e9)->seal();
  n.c = zone->create_host("c", 1e9)->seal();
  n.d = zone->create_host("d", 1e9)->seal();
  auto *L = zone->create_link("L", 1e9)->set_latency(0)->seal();
  auto *LL = zone->create_link("LL", 1e9)->set_latency(1e-3)->seal();
  zone->add_route(n.a->get_netpoint(), n.b->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(L)});
  zone->add_route(n.c->get_netpoint(), n.d->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(LL)});
  zone->seal();
  return n;
}

/* The glue of this process's runs, and what outlives them (the engine keeps both in its one instance). */
ios_sg_anchor_t anchor;
ios_sg_t *sg = nullptr;
ios_sg_t *glue() {
  if (sg == nullptr) sg = ios_sg_new(&anchor);
  return sg;
}

/* Every flow a test started, given back once the test is over (so that LeakSanitizer sees nothing left). */
std::vector<ios_flow_t *> started;
ios_flow_t *start_flow(sg_host_t from, sg_host_t to, double bytes, double rate, double latency, void *data) {
  ios_flow_t *f = ios_flow_start(glue(), from, to, bytes, rate, latency, data);
  if (f != nullptr) started.push_back(f);
  return f;
}
struct GiveFlowsBack : ::testing::Environment {
  void TearDown() override {
    for (ios_flow_t *f : started)
      ios_flow_release(f);
    started.clear();
    if (sg != nullptr) ios_flows_fini(sg);
    ios_sg_free(sg);
    sg = nullptr;
  }
};
const auto *give_back = ::testing::AddGlobalTestEnvironment(new GiveFlowsBack);

struct Report {
  double date;
  bool in_step; /* reported by the step's ios_flows_collect, not by SimGrid's own completion report */
};
std::map<const ios_flow_t *, std::vector<Report>> reports;
bool in_step = false;
bool collect = true; /* the step collects (as the engine does) */
std::multimap<double, std::function<void()>> plan;

double now() {
  return sg4::Engine::get_clock();
}

void on_done(void *, ios_flow_t *flow, void *) {
  reports[flow].push_back({now(), in_step});
}

void step(void *) {
  in_step = true;
  if (collect) ios_flows_collect(glue());
  in_step = false;
  while (!plan.empty() && plan.begin()->first <= now()) {
    auto action = plan.begin()->second;
    plan.erase(plan.begin());
    action();
  }
  if (!plan.empty()) ios_sg_wake_at(glue(), plan.begin()->first);
}

/* Runs SimGrid with the planned actions (date -> action, the first at 0). */
void run() {
  ASSERT_EQ(ios_flows_init(glue(), on_done, nullptr), 0) << "the network model was not found among SimGrid's models";
  ios_sg_drive(glue(), step, nullptr);
  sg4::Engine::get_instance()->run();
  ios_sg_drive_stop(glue());
}

/* The date `flow` was reported done; it must have been reported exactly once. */
double end_of(const ios_flow_t *flow) {
  auto it = reports.find(flow);
  if (it == reports.end()) {
    ADD_FAILURE() << "flow never reported done";
    return NAN;
  }
  EXPECT_EQ(it->second.size(), 1u) << "flow reported done more than once";
  return it->second.front().date;
}

const double kDate = 1e-9;  /* s: SimGrid's timing precision (surf/precision) */
const double kBytes = 1e-3; /* bytes: rounding of rate x time over a few seconds at 1e9 B/s */
} // namespace

/* (1) Action lookup: each started flow is found (ios_flow_start returns it) and carries its own bound. Three flows
 * start together at t = 0 on L (1e9 B/s), their bounds summing to 7.5e8 B/s, so L never binds:
 *   F1: 1e9 bytes at 2.5e8 B/s -> ends at 1e9 / 2.5e8 = 4 s; at t = 1, 1e9 - 2.5e8 = 7.5e8 bytes remain;
 *   F2: 5e8 bytes at 1e8 B/s   -> ends at 5 s;
 *   F3: 2e8 bytes at 4e8 B/s   -> ends at 0.5 s.
 * A flow given another flow's action would end at another's date. */
TEST(Seam, ActionLookupFindsEachFlowAndItsBoundApplies) {
  Net n = platform();
  ios_flow_t *f1 = nullptr, *f2 = nullptr, *f3 = nullptr;
  double rem1 = NAN;
  plan.emplace(0.0, [&] {
    f1 = start_flow(n.a, n.b, 1e9, 2.5e8, 0, nullptr);
    f2 = start_flow(n.a, n.b, 5e8, 1e8, 0, nullptr);
    f3 = start_flow(n.a, n.b, 2e8, 4e8, 0, nullptr);
  });
  plan.emplace(1.0, [&] { rem1 = ios_flow_remaining(f1); });
  run();
  ASSERT_TRUE(f1 && f2 && f3) << "a started flow's action was not found";
  EXPECT_NEAR(rem1, 7.5e8, kBytes);
  EXPECT_NEAR(end_of(f1), 4.0, kDate);
  EXPECT_NEAR(end_of(f2), 5.0, kDate);
  EXPECT_NEAR(end_of(f3), 0.5, kDate);
  EXPECT_EQ(ios_flow_members(f1), 1);
}

/* (2) Pause and resume. P: 1e9 bytes at 2.5e8 B/s on L from t = 0; Q: 4e9 bytes with no bound of its own, beside it.
 *   0 -> 1: P 2.5e8 B/s, Q 7.5e8 B/s (the rest of L): P has 7.5e8 bytes left, Q 3.25e9;
 *   1 -> 3: P paused (its 7.5e8 bytes kept, frozen), Q alone at 1e9 B/s: Q has 1.25e9 left;
 *   3: P resumed at 5e8 B/s: still 7.5e8 bytes (not 2.5e8, had the pause been counted at the old rate);
 *   3 -> 4.5: P 5e8 B/s (its bound; max-min's equal share of L is 5e8 too, with P weighing as much as Q), Q 5e8:
 *   P ends at 3 + 7.5e8 / 5e8 = 4.5 s; Q has 1.25e9 - 7.5e8 = 5e8 left, alone at 1e9 B/s: ends at 5 s. */
TEST(Seam, PauseKeepsTheBytesAndResumeStartsFromTheResumptionAtTheNewRate) {
  Net n = platform();
  ios_flow_t *p = nullptr, *q = nullptr;
  double at1 = NAN, at2 = NAN, at3 = NAN;
  plan.emplace(0.0, [&] {
    p = start_flow(n.a, n.b, 1e9, 2.5e8, 0, nullptr);
    q = start_flow(n.a, n.b, 4e9, INFINITY, 0, nullptr);
  });
  plan.emplace(1.0, [&] {
    ASSERT_EQ(ios_flow_pause(p), 0);
    EXPECT_EQ(ios_flow_pause(p), -1); /* already paused */
    at1 = ios_flow_remaining(p);
  });
  plan.emplace(2.0, [&] { at2 = ios_flow_remaining(p); });
  plan.emplace(3.0, [&] {
    ios_flow_resume(p, 5e8);
    at3 = ios_flow_remaining(p);
  });
  run();
  ASSERT_TRUE(p && q);
  EXPECT_NEAR(at1, 7.5e8, kBytes);
  EXPECT_NEAR(at2, 7.5e8, kBytes);
  EXPECT_NEAR(at3, 7.5e8, kBytes);
  EXPECT_NEAR(end_of(p), 4.5, kDate);
  EXPECT_NEAR(end_of(q), 5.0, kDate);
}

/* (2, alone) The same pause and resumption with no other flow on L: P has 7.5e8 bytes left at t = 1, paused until 3,
 * then 5e8 B/s: it ends at 3 + 1.5 = 4.5 s. Nothing else re-solves SimGrid's max-min between the pause and the
 * resumption here. */
TEST(Seam, PauseAndResumeAloneOnTheLink) {
  Net n = platform();
  ios_flow_t *p = nullptr;
  double at3 = NAN;
  plan.emplace(0.0, [&] { p = start_flow(n.a, n.b, 1e9, 2.5e8, 0, nullptr); });
  plan.emplace(1.0, [&] { ASSERT_EQ(ios_flow_pause(p), 0); });
  plan.emplace(3.0, [&] {
    ios_flow_resume(p, 5e8);
    at3 = ios_flow_remaining(p);
  });
  run();
  ASSERT_NE(p, nullptr);
  EXPECT_NEAR(at3, 7.5e8, kBytes);
  EXPECT_NEAR(end_of(p), 4.5, kDate);
}

/* (3) Group penalties. G: a flow of k = 3 members of 1e9 bytes each (ios_flow_start, then 2 ios_flow_join), no bound
 * of its own; S: a single flow of 5e8 bytes; both on L from t = 0. One variable of weight k gets k/(k+1) of L:
 *   0 -> 1: G 3/4 x 1e9 = 7.5e8 B/s, S 2.5e8: G has 3e9 - 7.5e8 = 2.25e9 bytes left, S 2.5e8.
 *   1: one member leaves G with its 2.25e9 / 3 = 7.5e8 bytes (ios_flow_leave) and goes on as flow M; G keeps exactly
 *      2.25e9 - 7.5e8 = 1.5e9 bytes for its 2 members.
 *   1 -> 2: weights S 1, G 2, M 1 share L: 2.5e8, 5e8, 2.5e8 B/s (each member still 2.5e8): S ends at 1 + 1 = 2;
 *      G has 1e9 left, M 5e8.
 *   2 -> 3.5: G 2/3 x 1e9, M 1/3 x 1e9: both end at 2 + 1e9 / 6.667e8 = 2 + 5e8 / 3.333e8 = 3.5 s.
 * Were the penalty ignored, G would weigh as S: S would end at t = 1 (5e8 bytes at 5e8 B/s). */
TEST(Seam, AGroupOfKMembersWeighsKFlowsAndAMemberLeavesWithItsExactBytes) {
  Net n = platform();
  ios_flow_t *g = nullptr, *s = nullptr, *m = nullptr;
  double g_at1 = NAN, s_at1 = NAN, g_after_leave = NAN, m_start = NAN;
  plan.emplace(0.0, [&] {
    g = start_flow(n.a, n.b, 1e9, INFINITY, 0, nullptr);
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(ios_flow_join(g, 1e9, INFINITY), 0);
    EXPECT_EQ(ios_flow_join(g, 1e9, INFINITY), 0);
    EXPECT_EQ(ios_flow_join(g, 1e9, 1e8), -1); /* another rate: not the same transfer */
    s = start_flow(n.a, n.b, 5e8, INFINITY, 0, nullptr);
  });
  plan.emplace(1.0, [&] {
    g_at1 = ios_flow_remaining(g);
    s_at1 = ios_flow_remaining(s);
    EXPECT_EQ(ios_flow_join(g, 1e9, INFINITY), -1); /* started at another date */
    double member = ios_flow_remaining(g) / ios_flow_members(g);
    ios_flow_leave(g, member, INFINITY);
    g_after_leave = ios_flow_remaining(g);
    m = start_flow(n.a, n.b, member, INFINITY, 0, nullptr);
    m_start = ios_flow_remaining(m);
  });
  run();
  ASSERT_TRUE(g && s && m);
  EXPECT_NEAR(g_at1, 2.25e9, kBytes);
  EXPECT_NEAR(s_at1, 2.5e8, kBytes);
  EXPECT_NEAR(g_after_leave, 1.5e9, kBytes);
  EXPECT_NEAR(m_start, 7.5e8, kBytes);
  EXPECT_EQ(ios_flow_members(g), 2);
  EXPECT_NEAR(end_of(s), 2.0, kDate);
  EXPECT_NEAR(end_of(g), 3.5, kDate);
  EXPECT_NEAR(end_of(m), 3.5, kDate);
}

/* (4) A new rate mid-flow keeps the bytes moved. F: 1e9 bytes at 2.5e8 B/s on L from t = 0; at t = 2 it has
 * 1e9 - 5e8 = 5e8 bytes left and gets 5e8 B/s: the same 5e8 bytes right after, ending at 2 + 5e8 / 5e8 = 3 s
 * (4 s without the change; 4 s too if the new bound restarted the whole transfer: 2 + 1e9 / 5e8). */
TEST(Seam, ANewRateMidFlowKeepsTheBytesMoved) {
  Net n = platform();
  ios_flow_t *f = nullptr;
  double before = NAN, after = NAN;
  plan.emplace(0.0, [&] { f = start_flow(n.a, n.b, 1e9, 2.5e8, 0, nullptr); });
  plan.emplace(2.0, [&] {
    before = ios_flow_remaining(f);
    ios_flow_set_rate(f, 5e8);
    after = ios_flow_remaining(f);
  });
  run();
  ASSERT_NE(f, nullptr);
  EXPECT_NEAR(before, 5e8, kBytes);
  EXPECT_NEAR(after, 5e8, kBytes);
  EXPECT_NEAR(end_of(f), 3.0, kDate);
}

/* (5) The step at a flow's end date finds it among the network model's finished actions (ios_flows_collect) before
 * SimGrid's own completion report, which then does not report it again. F: 1e9 bytes at 2.5e8 B/s, ends at 4 s:
 * reported once, at 4 s, by the step. */
TEST(Seam, CollectReportsAFinishedFlowBeforeSimGridDoesAndOnce) {
  Net n = platform();
  ios_flow_t *f = nullptr;
  plan.emplace(0.0, [&] { f = start_flow(n.a, n.b, 1e9, 2.5e8, 0, nullptr); });
  run();
  ASSERT_NE(f, nullptr);
  EXPECT_NEAR(end_of(f), 4.0, kDate);
  ASSERT_EQ(reports[f].size(), 1u);
  EXPECT_TRUE(reports[f][0].in_step) << "SimGrid reported the flow before the step could collect it";
}

/* (5, the other half) Without a collect in the step, SimGrid's own completion report gives the flow, once, at the same
 * date: the report is what wakes the engine when no step ran at that date. */
TEST(Seam, WithoutCollectSimGridsReportGivesTheFlowOnce) {
  Net n = platform();
  collect = false;
  ios_flow_t *f = nullptr;
  plan.emplace(0.0, [&] { f = start_flow(n.a, n.b, 1e9, 2.5e8, 0, nullptr); });
  run();
  ASSERT_NE(f, nullptr);
  EXPECT_NEAR(end_of(f), 4.0, kDate);
  ASSERT_EQ(reports[f].size(), 1u);
  EXPECT_FALSE(reports[f][0].in_step);
}

/* (6) A route with latency pays it once. F: 1e9 bytes at 2.5e8 B/s from c to d (LL: 1e9 B/s, 1 ms) from t = 0: its
 * bytes move from t = 0.001; at t = 2.001 it has 1e9 - 2.5e8 x 2 = 5e8 left and gets 5e8 B/s: it ends at
 * 2.001 + 1 = 3.001 s (3.002 s if the new rate paid the latency again). */
TEST(Seam, ALatencyRouteIsPaidOnceAtTheStart) {
  Net n = platform();
  unsigned long long key = 0, key_ab = 0;
  double latency = NAN, latency_ab = NAN;
  ios_flow_route_key(n.c, n.d, &key, &latency);
  ios_flow_route_key(n.a, n.b, &key_ab, &latency_ab);
  EXPECT_DOUBLE_EQ(latency, 1e-3);
  EXPECT_DOUBLE_EQ(latency_ab, 0.0);
  EXPECT_NE(key, key_ab);
  ios_flow_t *f = nullptr;
  double at_start = NAN, before = NAN;
  plan.emplace(0.0, [&] {
    f = start_flow(n.c, n.d, 1e9, 2.5e8, latency, nullptr);
    at_start = ios_flow_remaining(f);
  });
  plan.emplace(2.001, [&] {
    before = ios_flow_remaining(f);
    ios_flow_set_rate(f, 5e8);
  });
  run();
  ASSERT_NE(f, nullptr);
  EXPECT_NEAR(at_start, 1e9, kBytes);
  EXPECT_NEAR(before, 5e8, 1.0); /* 2.5e8 B/s over 2.001 - 0.001 s, to the rounding of 2.001 */
  EXPECT_NEAR(end_of(f), 3.001, 1e-6);
}

/* ios_sg_in_maestro: from an actor, the function runs in the maestro (one simcall) at the same date and its value comes
 * back; from the maestro, it runs directly. */
TEST(Seam, InMaestroRunsTheFunctionInTheMaestro) {
  Net n = platform();
  auto in_maestro = [](void *ctx) {
    *static_cast<bool *>(ctx) = sg4::Actor::is_maestro();
    return 7;
  };
  bool from_main = false, from_actor = false;
  EXPECT_EQ(ios_sg_in_maestro(in_maestro, &from_main), 7);
  EXPECT_TRUE(from_main);
  double date = NAN;
  sg4::Actor::create("caller", n.a, [&] {
    sg4::this_actor::sleep_for(2);
    EXPECT_FALSE(sg4::Actor::is_maestro());
    EXPECT_EQ(ios_sg_in_maestro(in_maestro, &from_actor), 7);
    date = now();
  });
  sg4::Engine::get_instance()->run();
  EXPECT_TRUE(from_actor);
  EXPECT_DOUBLE_EQ(date, 2.0);
}
