// iosim engine tests — exactness: small systems whose completion times, yields and objectives are computed by hand
// (relative error <= 1e-9). Every test runs the iosim binary in its own process (see run_helpers.h).
//
// Model used for the hand arithmetic (src/sim/engine.c, RR-9502 §3-4, RR-9549 §3.2): an I/O operation of volume V by an
// application with n resources is n transfers of V/n bytes, each capped at b(n)/n where b is the application's
// profile; fairshare gives every pending transfer of a resource cap·min(1, B/Σcaps); fcfs serves transfers by
// posting time, each min(cap, what is left of B); maxmin asks for the caps and SimGrid's max-min sharing decides.
// Work phases last exactly their duration. All platforms here have latency 0 (platforms/README.md).
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

using namespace iosim_test;

namespace {

constexpr double kTol = 1e-9;

// One resource r0 of capacity B = 1 GB/s, 4 compute nodes with fast NICs (100 GB/s).
const double kB = 1e9;

std::string one_resource_platform() {
  return tiny_platform_xml({kB}, 4, 100e9);
}

// A scenario with inline applications (a JSON array text) and the given policies.
std::string scenario(const std::string &apps, const std::string &sharing, const std::string &more = "") {
  return "{\n  \"workload\": {\"applications\": " + apps + "},\n  \"sharing\": {\"policy\": \"" + sharing +
         "\"},\n  \"output\": {\"progress\": false}" + (more.empty() ? "" : ",\n  " + more) + "\n}\n";
}

// Runs and checks the run succeeded with every application complete.
SimRun run_ok(const std::string &scenario_json, const std::string &platform, const RunOptions &opt = RunOptions()) {
  SimRun r = run_scenario(scenario_json, platform, opt);
  EXPECT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_TRUE(r.has_results) << r.describe();
  EXPECT_EQ(r.str("status"), "complete") << r.describe();
  return r;
}

// The whole content of results.json without the wall-clock time (the only field allowed to differ between runs),
// the run's temporary directory (in the resolved platform and output paths) replaced by "<dir>".
std::string results_without_wall_time(const SimRun &r) {
  if (!r.has_results) return "";
  JsonPtr copy(cJSON_Duplicate(r.results.get(), 1));
  cJSON_DeleteItemFromObjectCaseSensitive(copy.get(), "wall_time_s");
  char *text = cJSON_PrintUnformatted(copy.get());
  std::string s = text != nullptr ? text : "";
  cJSON_free(text);
  const std::string &dir = r.dir->path();
  for (size_t pos = s.find(dir); !dir.empty() && pos != std::string::npos; pos = s.find(dir, pos))
    s.replace(pos, dir.size(), "<dir>");
  return s;
}

} // namespace

// ---------------------------------------------------------------------------------------------------------------
// (a) one application alone

// System: r0 with B = 1e9 B/s; application A alone, profile b(1) = 8e8 B/s, one I/O operation V = 4e9 B.
// Expectations: one transfer of 4e9 B capped at 8e8 B/s (< B) → io_time = V/b = 5 s; end = 5 s; apps.csv bandwidth
// = 8e8; r0 carried 4e9 B and was busy 5 s (occupancy 5/5 = 1).
TEST(engine_exact, SingleAppIoTimeIsVolumeOverProfileBandwidth) {
  SimRun r =
      run_ok(scenario(R"([{"name": "A", "profile": {"1": 8e8}, "io": 4e9}])", "fairshare"), one_resource_platform());
  const AppRow &a = r.app("A");
  EXPECT_EQ(a.n_resources, 1);
  EXPECT_REL(a.bandwidth, 8e8, kTol);
  EXPECT_REL(a.io_volume, 4e9, kTol);
  EXPECT_REL(a.io_time, 5.0, kTol);
  EXPECT_REL(a.end, 5.0, kTol);
  EXPECT_REL(a.io_time, a.io_volume / a.bandwidth, kTol);
  EXPECT_REL(r.res("r0").bytes, 4e9, kTol);
  EXPECT_REL(r.res("r0").busy_time, 5.0, kTol);
  EXPECT_REL(r.res("r0").occupancy, 1.0, kTol);
  EXPECT_REL(r.metric("makespan_s"), 5.0, kTol);
}

// System: r0 with B = 1e9; no profile, so b(n) = min(nodes·nic_bw, n·C) with C = 1e9.
//   A: 2 nodes, nic_bw 3e8 → b = min(6e8, 1e9) = 6e8;  V = 3e9 → 5 s (NIC-bound).
//   Second run, A: 4 nodes → b = min(1.2e9, 1e9) = 1e9; V = 3e9 → 3 s (resource-bound).
TEST(engine_exact, SingleAppWithoutProfileUsesNicOrResourceBound) {
  std::string platform = tiny_platform_xml({kB}, 4, 3e8);
  SimRun r = run_ok(scenario(R"([{"name": "A", "nodes": 2, "io": 3e9}])", "fairshare"), platform);
  EXPECT_REL(r.app("A").bandwidth, 6e8, kTol);
  EXPECT_REL(r.app("A").io_time, 5.0, kTol);
  EXPECT_REL(r.app("A").end, 5.0, kTol);

  SimRun r4 = run_ok(scenario(R"([{"name": "A", "nodes": 4, "io": 3e9}])", "fairshare"), platform);
  EXPECT_REL(r4.app("A").bandwidth, 1e9, kTol);
  EXPECT_REL(r4.app("A").io_time, 3.0, kTol);
  EXPECT_REL(r4.app("A").end, 3.0, kTol);
}

// System: r0 with B = 1e9; A alone with profile b(1) = 8e8, released at τ = 7 s, I/O of V = 2e9.
// Expectations: start 7, io_time = 2.5 s, end = 9.5 s.
TEST(engine_exact, SingleAppReleasedLateStartsAtRelease) {
  SimRun r = run_ok(scenario(R"([{"name": "A", "release": 7, "profile": {"1": 8e8}, "io": 2e9}])", "fcfs"),
                    one_resource_platform());
  EXPECT_REL(r.app("A").start, 7.0, kTol);
  EXPECT_REL(r.app("A").io_time, 2.5, kTol);
  EXPECT_REL(r.app("A").end, 9.5, kTol);
}

// ---------------------------------------------------------------------------------------------------------------
// (b) two applications on one resource, fcfs and fairshare

// System: r0 with B = 1e9. A: cap b_A = 8e8, V_A = 2e9; B: cap b_B = 6e8, V_B = 3e9; both post at t = 0.
// Expectations (fairshare): Σcaps = 1.4e9 > B → α = 1/1.4: r_A = 8e8/1.4 = 4e9/7, r_B = 3e9/7.
//   A ends at 2e9 / (4e9/7) = 3.5 s. B has then 3.5·3e9/7 = 1.5e9 B; the rest 1.5e9 B at its cap 6e8 takes 2.5 s
//   → B ends at 6.0 s. r0 is busy [0, 6] and carries 5e9 B.
TEST(engine_exact, TwoAppsFairshareSimultaneous) {
  SimRun r = run_ok(scenario(R"([{"name": "A", "profile": {"1": 8e8}, "io": 2e9},
                              {"name": "B", "profile": {"1": 6e8}, "io": 3e9}])",
                             "fairshare"),
                    one_resource_platform());
  EXPECT_REL(r.app("A").io_time, 3.5, kTol);
  EXPECT_REL(r.app("A").end, 3.5, kTol);
  EXPECT_REL(r.app("B").io_time, 6.0, kTol);
  EXPECT_REL(r.app("B").end, 6.0, kTol);
  EXPECT_REL(r.res("r0").busy_time, 6.0, kTol);
  EXPECT_REL(r.res("r0").bytes, 5e9, kTol);
}

// System: as in TwoAppsFcfsSimultaneous, plus a 1 s work phase before A's I/O, with output.events. A works [0, 1];
// B posts at 0 and gets min(6e8, B) = 6e8 alone. A posts at 1 s; B posted first (R = 0 < 1), so fcfs keeps B at
// 6e8 and A gets the 4e8 left. B has moved 6e8 B at 1 s and the other 2.4e9 B take 4 s: B ends at 5 s. A moves
// 4e8·4 = 1.6e9 B by 5 s, then alone at its cap 8e8 for the last 4e8 B: 0.5 s → A ends at 5.5 s.
// Expectations (events.csv): work row A [0, 1]; transfer rows B [0, 5] 3e9 B at 6e8 B/s, A [1, 5] 1.6e9 B at
// 4e8 B/s and A [5, 5.5] 4e8 B at 8e8 B/s; io rows A [1, 5.5] 2e9 B and B [0, 5] 3e9 B; transfer bytes of each
// application sum to its I/O volume.
TEST(engine_exact, EventsCsvRecordsWorkOperationsAndFlowSegments) {
  SimRun r = run_ok(scenario(R"([{"name": "A", "profile": {"1": 8e8}, "phases": [{"work": 1}, {"io": 2e9}]},
                              {"name": "B", "profile": {"1": 6e8}, "io": 3e9}])",
                             "fcfs", R"("window": {"length_fraction": 1})"),
                    one_resource_platform(), options("run", {"output.events=true"}));
  CsvTable ev = parse_csv(read_text(r.out_dir + "/events.csv"));
  ASSERT_EQ(ev.size(), 6u) << read_text(r.out_dir + "/events.csv");
  auto find = [&](const std::string &app, const std::string &kind, double start) -> std::map<std::string, std::string> {
    for (const auto &row : ev)
      if (row.at("app") == app && row.at("kind") == kind && std::abs(std::stod(row.at("start_s")) - start) < 1e-9)
        return row;
    ADD_FAILURE() << "no " << kind << " row of " << app << " starting at " << start;
    return {{"end_s", "nan"}, {"bytes", "nan"}, {"rate_Bps", "nan"}, {"resource", ""}};
  };
  auto num = [](const std::map<std::string, std::string> &row, const char *col) { return std::stod(row.at(col)); };
  auto w = find("A", "work", 0.0);
  EXPECT_REL(num(w, "end_s"), 1.0, kTol);
  EXPECT_EQ(w.at("bytes"), "");
  auto b = find("B", "transfer", 0.0);
  EXPECT_REL(num(b, "end_s"), 5.0, kTol);
  EXPECT_REL(num(b, "bytes"), 3e9, kTol);
  EXPECT_REL(num(b, "rate_Bps"), 6e8, kTol);
  EXPECT_EQ(b.at("resource"), "r0");
  auto a1 = find("A", "transfer", 1.0);
  EXPECT_REL(num(a1, "end_s"), 5.0, kTol);
  EXPECT_REL(num(a1, "bytes"), 1.6e9, kTol);
  EXPECT_REL(num(a1, "rate_Bps"), 4e8, kTol);
  auto a2 = find("A", "transfer", 5.0);
  EXPECT_REL(num(a2, "end_s"), 5.5, kTol);
  EXPECT_REL(num(a2, "bytes"), 4e8, kTol);
  EXPECT_REL(num(a2, "rate_Bps"), 8e8, kTol);
  auto ia = find("A", "io", 1.0);
  EXPECT_REL(num(ia, "end_s"), 5.5, kTol);
  EXPECT_REL(num(ia, "bytes"), 2e9, kTol);
  EXPECT_EQ(ia.at("resource"), "r0");
  auto ib = find("B", "io", 0.0);
  EXPECT_REL(num(ib, "end_s"), 5.0, kTol);
  // without output.events, no events.csv
  SimRun quiet =
      run_ok(scenario(R"([{"name": "A", "profile": {"1": 8e8}, "io": 2e9}])", "fcfs"), one_resource_platform());
  EXPECT_FALSE(file_exists(quiet.out_dir + "/events.csv"));
}

// System: as above under timeshare (RR-9549 §5.2: colliding applications take turns). Both post at t = 0; k = 2:
// A gets 8e8/2 = 4e8, B 6e8/2 = 3e8 (sum 7e8 <= B: the resource had room, the collision still halves them).
//   A ends at 2e9/4e8 = 5 s; B has then moved 5·3e8 = 1.5e9 B; alone (k = 1) it gets 6e8 for the other 1.5e9 B:
//   2.5 s → B ends at 7.5 s.
TEST(engine_exact, TwoAppsTimeshareSimultaneous) {
  SimRun r = run_ok(scenario(R"([{"name": "A", "profile": {"1": 8e8}, "io": 2e9},
                              {"name": "B", "profile": {"1": 6e8}, "io": 3e9}])",
                             "timeshare"),
                    one_resource_platform());
  EXPECT_REL(r.app("A").end, 5.0, kTol);
  EXPECT_REL(r.app("B").end, 7.5, kTol);
  EXPECT_REL(r.res("r0").busy_time, 7.5, kTol);
}

// System: as above under fcfs; both post at t = 0, A first in posting order (workload order breaks the tie).
// Expectations: A gets min(8e8, B) = 8e8, B gets min(6e8, 1e9 − 8e8) = 2e8.
//   A ends at 2e9/8e8 = 2.5 s; B has then 2.5·2e8 = 5e8 B; the rest 2.5e9 B at 6e8 takes 25/6 s
//   → B ends at 2.5 + 25/6 = 20/3 s.
TEST(engine_exact, TwoAppsFcfsSimultaneous) {
  SimRun r = run_ok(scenario(R"([{"name": "A", "profile": {"1": 8e8}, "io": 2e9},
                              {"name": "B", "profile": {"1": 6e8}, "io": 3e9}])",
                             "fcfs"),
                    one_resource_platform());
  EXPECT_REL(r.app("A").end, 2.5, kTol);
  EXPECT_REL(r.app("A").io_time, 2.5, kTol);
  EXPECT_REL(r.app("B").end, 20.0 / 3.0, kTol);
  EXPECT_REL(r.app("B").io_time, 20.0 / 3.0, kTol);
}

// System: r0 with B = 1e9. B: cap 6e8, V_B = 3e9, released at 0; A: cap 8e8, V_A = 2e9, released at 1 s.
// Expectations (fcfs): [0, 1): B alone at 6e8 → 6e8 B. At t = 1 A posts; B (earlier) keeps 6e8, A gets
//   min(8e8, 4e8) = 4e8. B's rest 2.4e9 B takes 4 s → B ends at 5. A has then 4·4e8 = 1.6e9 B; its rest 4e8 B at
//   8e8 takes 0.5 s → A ends at 5.5 s, io_time_A = 4.5 s.
TEST(engine_exact, TwoAppsFcfsLaterArrivalGetsTheLeftover) {
  SimRun r = run_ok(scenario(R"([{"name": "B", "profile": {"1": 6e8}, "io": 3e9},
                              {"name": "A", "release": 1, "profile": {"1": 8e8}, "io": 2e9}])",
                             "fcfs"),
                    one_resource_platform());
  EXPECT_REL(r.app("B").end, 5.0, kTol);
  EXPECT_REL(r.app("B").io_time, 5.0, kTol);
  EXPECT_REL(r.app("A").end, 5.5, kTol);
  EXPECT_REL(r.app("A").io_time, 4.5, kTol);
}

// System: the same under fairshare.
// Expectations: [0, 1): B alone at 6e8 → 6e8 B. At t = 1: α = 1/1.4, r_A = 4e9/7, r_B = 3e9/7. A's 2e9 B take
//   3.5 s → A ends at 4.5 (io_time 3.5). B has then 6e8 + 3.5·3e9/7 = 2.1e9 B; its rest 9e8 B at 6e8 takes 1.5 s
//   → B ends at 6.0 s.
TEST(engine_exact, TwoAppsFairshareLaterArrival) {
  SimRun r = run_ok(scenario(R"([{"name": "B", "profile": {"1": 6e8}, "io": 3e9},
                              {"name": "A", "release": 1, "profile": {"1": 8e8}, "io": 2e9}])",
                             "fairshare"),
                    one_resource_platform());
  EXPECT_REL(r.app("A").end, 4.5, kTol);
  EXPECT_REL(r.app("A").io_time, 3.5, kTol);
  EXPECT_REL(r.app("B").end, 6.0, kTol);
  EXPECT_REL(r.app("B").io_time, 6.0, kTol);
}

// System: r0 with B = 1e9, fcfs. A: cap 1e9 (= B), V = 2e9; B: cap 6e8, V = 1e9; both post at 0, A first.
// Expectations: A takes all of B, B gets 0 and waits; A ends at 2 s; B then runs at 6e8: 1e9/6e8 = 5/3 s → B ends
//   at 11/3 s, io_time_B = 11/3 s (waiting counts as I/O time).
TEST(engine_exact, FcfsWaitingTransferStartsWhenTheResourceFrees) {
  SimRun r = run_ok(scenario(R"([{"name": "A", "profile": {"1": 1e9}, "io": 2e9},
                              {"name": "B", "profile": {"1": 6e8}, "io": 1e9}])",
                             "fcfs"),
                    one_resource_platform());
  EXPECT_REL(r.app("A").end, 2.0, kTol);
  EXPECT_REL(r.app("B").end, 11.0 / 3.0, kTol);
  EXPECT_REL(r.app("B").io_time, 11.0 / 3.0, kTol);
  EXPECT_REL(r.res("r0").busy_time, 11.0 / 3.0, kTol);
}

// System: RR-9502 sample file on r0 (B = 1e9, bandwidth unit "pool" = 1e9 B/s), fcfs, one resource each.
//   line 1: B 0.6 5 0 0 1 0 C 3 → b_B = 6e8, one I/O of 3e9 B posted at t = 0 (agePhase 0);
//   line 2: A 0.8 10 0 3 1 0 C 2 → b_A = 8e8, one I/O of 2e9 B posted 3 s before the start (R_A = −3).
// Expectations: FCFS orders by posting time R, not by file order: A first at 8e8, B at 2e8. A ends at 2.5 s; B has
//   then 5e8 B, its last 2.5e9 B at 6e8 take 25/6 s → B ends at 20/3 s. (Serving B first would end B at 5 s.)
TEST(engine_exact, FcfsOrdersByPostingTimeIncludingHistory) {
  RunOptions opt;
  opt.extra_files["sample.txt"] = "# name bandwidth age progress agePhase nphases wIter W|C x_1 .. x_n\n"
                                  "B 0.6 5 0 0 1 0 C 3\n"
                                  "A 0.8 10 0 3 1 0 C 2\n";
  SimRun r = run_ok(R"({"workload": {"file": "sample.txt"}, "allocation": {"policy": "fixed", "n": 1},
                      "sharing": {"policy": "fcfs"}, "output": {"progress": false}})",
                    one_resource_platform(), opt);
  EXPECT_REL(r.app("A").bandwidth, 8e8, kTol);
  EXPECT_REL(r.app("A").end, 2.5, kTol);
  EXPECT_REL(r.app("B").end, 20.0 / 3.0, kTol);
}

// System: r0 with B = 1e9; fairshare, as TwoAppsFairshareLaterArrival, with a periodic controller decision every
//   0.3 s (controller.tick_s). Expectations: re-deciding with unchanged inputs changes nothing: A ends at 4.5 s and
//   B at 6.0 s.
TEST(engine_exact, PeriodicTicksDoNotChangeTheSchedule) {
  SimRun r = run_ok(scenario(R"([{"name": "B", "profile": {"1": 6e8}, "io": 3e9},
                              {"name": "A", "release": 1, "profile": {"1": 8e8}, "io": 2e9}])",
                             "fairshare", R"("controller": {"tick_s": 0.3})"),
                    one_resource_platform());
  EXPECT_REL(r.app("A").end, 4.5, kTol);
  EXPECT_REL(r.app("B").end, 6.0, kTol);
}

// ---------------------------------------------------------------------------------------------------------------
// (c) a third application arriving mid-transfer (re-rating) under fairshare

// System: r0 with B = 1e9. A: cap 8e8, V = 4e9, t = 0; B: cap 6e8, V = 2.4e9, t = 0; C: cap 6e8, V = 1e9, t = 2.
// Expectations:
//   [0, 2): α = 1/1.4 → A gets 4e9/7, B 3e9/7: A has 8e9/7 B, B has 6e9/7 B at t = 2.
//   [2, ·): C arrives, Σcaps = 2e9, α = 1/2 → A 4e8, B 3e8, C 3e8. C's 1e9 B take 10/3 s → C ends at 16/3 s.
//           (A would need (20e9/7)/4e8 = 50/7 s and B (10.8e9/7)/3e8 = 36/7 s > 10/3 s, so C is first.)
//   At 16/3: A has 8e9/7 + 4e9/3, rest 32e9/21 B; B has 6e9/7 + 1e9, rest 3.8e9/7 B.
//   [16/3, ·): α = 1/1.4 again → A 4e9/7, B 3e9/7. B's rest takes (3.8e9/7)/(3e9/7) = 19/15 s → B ends at 6.6 s.
//           A's rest is then 32e9/21 − (4e9/7)(19/15) = 8e8 B.
//   [6.6, ·): A alone at its cap 8e8 → 1 s → A ends at 7.6 s.
//   Check: r0 saturated on [0, 6.6] (6.6e9 B) plus 8e8 B in [6.6, 7.6] = 7.4e9 = 4e9 + 2.4e9 + 1e9.
TEST(engine_exact, ThirdAppArrivingMidTransferReRates) {
  SimRun r = run_ok(scenario(R"([{"name": "A", "profile": {"1": 8e8}, "io": 4e9},
                              {"name": "B", "profile": {"1": 6e8}, "io": 2.4e9},
                              {"name": "C", "release": 2, "profile": {"1": 6e8}, "io": 1e9}])",
                             "fairshare"),
                    one_resource_platform());
  EXPECT_REL(r.app("C").end, 16.0 / 3.0, kTol);
  EXPECT_REL(r.app("C").io_time, 10.0 / 3.0, kTol);
  EXPECT_REL(r.app("B").end, 6.6, kTol);
  EXPECT_REL(r.app("A").end, 7.6, kTol);
  EXPECT_REL(r.app("A").io_time, 7.6, kTol);
  EXPECT_REL(r.res("r0").bytes, 7.4e9, kTol);
  EXPECT_REL(r.res("r0").busy_time, 7.6, kTol);
}

// ---------------------------------------------------------------------------------------------------------------
// (d) an operation over n resources ends with its slowest transfer

// System: r0, r1 with B = 1e9 each; allocation fixed by io_resources, placement gnc (decreasing n, round robin):
//   A: 2 resources (r0, r1), profile b(2) = 1.6e9 → two transfers of V/2 = 2e9 B each capped at 8e8;
//   B: 1 resource (cursor wraps to r0), profile b(1) = 6e8, V = 3e9. Fairshare.
// Expectations: on r1 A's transfer is alone: 2e9/8e8 = 2.5 s. On r0, α = 1/1.4: A's transfer at 4e9/7 takes 3.5 s,
//   B has then 1.5e9 B and ends 1.5e9/6e8 = 2.5 s later, at 6.0 s. The operation of A ends with its slowest
//   transfer: io_time_A = max(2.5, 3.5) = 3.5 s. r1 busy 2.5 s with 2e9 B; r0 busy 6 s with 5e9 B.
TEST(engine_exact, MultiResourceOperationEndsWithSlowestTransfer) {
  SimRun r = run_ok(scenario(R"([{"name": "A", "io_resources": 2, "profile": {"2": 1.6e9}, "io": 4e9},
                              {"name": "B", "io_resources": 1, "profile": {"1": 6e8}, "io": 3e9}])",
                             "fairshare", R"("allocation": {"policy": "fixed"})"),
                    tiny_platform_xml({kB, kB}));
  const AppRow &a = r.app("A");
  ASSERT_EQ(a.n_resources, 2);
  EXPECT_EQ(std::set<std::string>(a.resources.begin(), a.resources.end()), (std::set<std::string>{"r0", "r1"}));
  ASSERT_EQ(r.app("B").resources, std::vector<std::string>{"r0"});
  EXPECT_REL(a.bandwidth, 1.6e9, kTol);
  EXPECT_REL(a.io_time, 3.5, kTol);
  EXPECT_REL(a.end, 3.5, kTol);
  EXPECT_REL(r.app("B").end, 6.0, kTol);
  EXPECT_REL(r.res("r1").busy_time, 2.5, kTol);
  EXPECT_REL(r.res("r1").bytes, 2e9, kTol);
  EXPECT_REL(r.res("r0").busy_time, 6.0, kTol);
  EXPECT_REL(r.res("r0").bytes, 5e9, kTol);
  // RR-9549 metrics of the same run (makespan 6 s, 4 compute nodes, N = 2):
  //   I/O-spread = max − min occupancy = 6/6 − 2.5/6 = 7/12;
  //   Machine-Idletime = Σ io_time·nodes / (makespan·Q^cpu) = (3.5 + 6)/(6·4) = 19/48;
  //   I/O slowdown: A's only point is b(2) = 1.6e9, so n_perf = 1 with b(1) = 1.6e9 (flat extrapolation):
  //   ρ_A = 3.5/(4e9/1.6e9) = 1.4; ρ_B = 6/(3e9/6e8) = 1.2; mean 1.3; ρ_io = 1 for both, mean ρ_con = 0.3;
  //   I/O-load = Σ n·T_io/(T_cpu + T_io) / N = (2·1 + 1·1)/2 = 1.5 (no work phases);
  //   aggregate bandwidth = 4e9/3.5 + 3e9/6 = 8e9/7 + 5e8.
  EXPECT_REL(r.metric("io_spread"), 7.0 / 12.0, kTol);
  EXPECT_REL(r.metric("machine_idle_time"), 19.0 / 48.0, kTol);
  EXPECT_REL(r.app("A").io_slowdown, 1.4, kTol);
  EXPECT_REL(r.app("B").io_slowdown, 1.2, kTol);
  EXPECT_REL(r.metric("mean_io_slowdown"), 1.3, kTol);
  EXPECT_REL(r.metric("mean_rho_io"), 1.0, kTol);
  EXPECT_REL(r.metric("mean_rho_con"), 0.3, kTol);
  EXPECT_REL(r.metric("io_load"), 1.5, kTol);
  EXPECT_REL(r.metric("aggregate_bandwidth_Bps"), 8e9 / 7.0 + 5e8, kTol);
}

// System: one application alone on r0 (B = 1e9) and r1 (B = 4e8): profile b(2) = 1.6e9, V = 4e9.
// Expectations: transfers of 2e9 B capped at 8e8; on r1 the platform limits it to 4e8 (5 s), on r0 2.5 s; the
//   operation ends with the slower one: io_time = 5 s.
TEST(engine_exact, MultiResourceOperationLimitedBySlowResource) {
  SimRun r = run_ok(scenario(R"([{"name": "A", "io_resources": 2, "profile": {"2": 1.6e9}, "io": 4e9}])", "fairshare",
                             R"("allocation": {"policy": "fixed"})"),
                    tiny_platform_xml({kB, 4e8}));
  EXPECT_REL(r.app("A").io_time, 5.0, kTol);
  EXPECT_REL(r.res("r0").busy_time, 2.5, kTol);
  EXPECT_REL(r.res("r1").busy_time, 5.0, kTol);
}

// System: r0, r1, r2 with B = 1e9; A alone with 2 resources (allocation fixed n = 2) and profile points b(1) = 4e8,
//   b(4) = 1e9 only. Expectations: b(2) is interpolated linearly: 4e8 + (2 − 1)/(4 − 1)·6e8 = 6e8; each transfer
//   carries V/2 = 1.5e9 B at 3e8 → io_time = 5 s = V/b(2).
TEST(engine_exact, ProfileInterpolatedBetweenPoints) {
  SimRun r = run_ok(scenario(R"([{"name": "A", "profile": {"1": 4e8, "4": 1e9}, "io": 3e9}])", "fairshare",
                             R"("allocation": {"policy": "fixed", "n": 2})"),
                    tiny_platform_xml({kB, kB, kB}));
  EXPECT_EQ(r.app("A").n_resources, 2);
  EXPECT_REL(r.app("A").bandwidth, 6e8, kTol);
  EXPECT_REL(r.app("A").io_time, 5.0, kTol);
}

// System: I/O node r0 (1e9) with a PFS host behind it (link gpfs, 1e10); A with 0 resources (direct PFS access),
//   profile b(0) = 5e8, b(1) = 9e8, V = 2e9. Expectations: one transfer to the PFS capped at b(0) = 5e8 → 4 s;
//   apps.csv names the PFS as its resource; r0 carries nothing.
TEST(engine_exact, DirectPfsAccessWithZeroResources) {
  TinyPlatform p;
  p.resources = {{"r0", kB}};
  p.pfs_behind = true;
  p.pfs_capacity = 1e10;
  SimRun r = run_ok(scenario(R"([{"name": "A", "io_resources": 0, "profile": {"0": 5e8, "1": 9e8}, "io": 2e9}])",
                             "fairshare", R"("allocation": {"policy": "fixed"})"),
                    tiny_platform_xml(p));
  EXPECT_EQ(r.app("A").n_resources, 0);
  EXPECT_EQ(r.app("A").resources, std::vector<std::string>{"pfs"});
  EXPECT_REL(r.app("A").bandwidth, 5e8, kTol);
  EXPECT_REL(r.app("A").io_time, 4.0, kTol);
  EXPECT_REL(r.res("r0").bytes, 0.0, kTol);
}

// ---------------------------------------------------------------------------------------------------------------
// (e) work phases between I/O operations

// System: A alone on r0 (B = 1e9), profile b(1) = 5e8, phases work 10 s, io 2e9, work 5 s, io 1e9.
// Expectations: end = Σwork + ΣV/b = 15 + 4 + 2 = 21 s; work_time 15, io_time 6, io_volume 3e9.
TEST(engine_exact, WorkPhasesBetweenIoOperationsAlone) {
  SimRun r =
      run_ok(scenario(R"([{"name": "A", "profile": {"1": 5e8}, "phases": [{"work": 10}, {"io": 2e9}, {"work": "5s"},
                                                                   {"io": 1e9}]}])",
                      "fairshare"),
             one_resource_platform());
  EXPECT_REL(r.app("A").end, 21.0, kTol);
  EXPECT_REL(r.app("A").work_time, 15.0, kTol);
  EXPECT_REL(r.app("A").io_time, 6.0, kTol);
  EXPECT_REL(r.app("A").io_volume, 3e9, kTol);
}

// System: A alone, shorthand work 3 s + io 1e9 with 4 iterations, b(1) = 5e8.
// Expectations: end = 4·(3 + 2) = 20 s; work_time 12, io_time 8, io_volume 4e9.
TEST(engine_exact, IterationsRepeatWorkAndIo) {
  SimRun r =
      run_ok(scenario(R"([{"name": "A", "profile": {"1": 5e8}, "work": 3, "io": 1e9, "iterations": 4}])", "fcfs"),
             one_resource_platform());
  EXPECT_REL(r.app("A").end, 20.0, kTol);
  EXPECT_REL(r.app("A").work_time, 12.0, kTol);
  EXPECT_REL(r.app("A").io_time, 8.0, kTol);
  EXPECT_REL(r.app("A").io_volume, 4e9, kTol);
}

// System: r0 with B = 1e9, fairshare. A: cap 8e8, phases work 1, io 1.6e9, work 2, io 8e8. B: cap 6e8, io 3.3e9.
// Expectations:
//   [0, 1): A works; B alone at 6e8 → 6e8 B.
//   t = 1: A posts; α = 1/1.4 → A 4e9/7, B 3e9/7; A's 1.6e9 B take 2.8 s → t = 3.8; B has 6e8 + 1.2e9 = 1.8e9 B.
//   [3.8, 5.8): A works; B alone at 6e8 → 3.0e9 B at 5.8.
//   t = 5.8: A posts 8e8 B; α = 1/1.4; B's last 3e8 B take 0.7 s → B ends at 6.5; A has 4e8 B, its last 4e8 B at
//            8e8 take 0.5 s → A ends at 7.0 s = Σwork (3) + Σ I/O durations (2.8 + 1.2).
TEST(engine_exact, WorkPhasesInterleavedWithSharedIo) {
  SimRun r = run_ok(scenario(R"([{"name": "A", "profile": {"1": 8e8},
                               "phases": [{"work": 1}, {"io": 1.6e9}, {"work": 2}, {"io": 8e8}]},
                              {"name": "B", "profile": {"1": 6e8}, "io": 3.3e9}])",
                             "fairshare"),
                    one_resource_platform());
  const AppRow &a = r.app("A");
  EXPECT_REL(a.end, 7.0, kTol);
  EXPECT_REL(a.work_time, 3.0, kTol);
  EXPECT_REL(a.io_time, 4.0, kTol);
  EXPECT_REL(a.end, a.work_time + a.io_time, kTol);
  EXPECT_REL(r.app("B").end, 6.5, kTol);
  EXPECT_REL(r.app("B").io_time, 6.5, kTol);
}

// ---------------------------------------------------------------------------------------------------------------
// (f) yield, MinYield, Utilization, Efficiency, I/O pressure (RR-9502 Eq. 6, 8, 9, 10, 11)

// System: r0 with B = 1e9, fairshare.
//   A: p_A = 2 nodes, τ_A = 0, b_A = 8e8, phases work 2, io 2e9, work 2.
//   B: p_B = 1 node,  τ_B = 0.5, b_B = 4e8, phases io 3e9, work 1.
// Timeline: [0.5, 2): B alone at 4e8 → 6e8 B at t = 2. t = 2: A posts; Σcaps = 1.2e9 → α = 1/1.2: A 2e9/3, B 1e9/3.
//   A's 2e9 B take 3 s → t = 5 (A then works 2 s, ends at 7). B has 6e8 + 1e9 = 1.6e9 B at t = 5; its last 1.4e9 B
//   at 4e8 take 3.5 s → t = 8.5 (then works 1 s, ends at 9.5).
// Progress: W_A(t) = min(t, 2) + max(0, t − 5) for t <= 7, V_A(t) = 2e9 for t >= 5;
//           V_B(t) = 4e8(t − 0.5) on [0.5, 2], 6e8 + (1e9/3)(t − 2) on [2, 5], 1.6e9 + 4e8(t − 5) on [5, 8.5].
const char *const kYieldApps = R"([{"name": "A", "nodes": 2, "profile": {"1": 8e8},
                                     "phases": [{"work": 2}, {"io": 2e9}, {"work": 2}]},
                                    {"name": "B", "nodes": 1, "release": 0.5, "profile": {"1": 4e8},
                                     "phases": [{"io": 3e9}, {"work": 1}]}])";

// Given window [1, 6]:
//   A: W(1) = 1, V(1) = 0; W(6) = 3, V(6) = 2e9. y_A = (3 + 2e9/8e8)/(6 − 0) = 5.5/6.
//   B: W(1) = 0, V(1) = 2e8; W(6) = 0, V(6) = 2e9.   y_B = (2e9/4e8)/(6 − 0.5) = 5/5.5 = 10/11.
//   MinYield = 10/11.
//   Utilization (Eq. 9) = [2·(3 − 1) + 1·0] / ((6 − 1)·3) = 4/15.
//   Efficiency (Eq. 10) = [2·(2 + 2e9/8e8) + 1·(1.8e9/4e8)] / 15 = (9 + 4.5)/15 = 0.9.
//   I/O pressure (Eq. 11): dedicated volumes in [1, 6]: A transfers on [2, 4.5] → 2e9; B on [0.5, 8] → 5·4e8 = 2e9;
//   W = 4e9 / (1e9·5) = 0.8.
TEST(engine_exact, YieldAndObjectivesOverGivenWindow) {
  SimRun r =
      run_ok(scenario(kYieldApps, "fairshare", R"("window": {"begin_s": 1, "end_s": 6})"), one_resource_platform());
  // the timeline itself
  EXPECT_REL(r.app("A").end, 7.0, kTol);
  EXPECT_REL(r.app("B").end, 9.5, kTol);
  EXPECT_REL(r.app("B").io_time, 8.0, kTol);
  // the window and the objectives
  EXPECT_EQ(r.str("window.kind"), "given");
  EXPECT_REL(r.num("window.begin_s"), 1.0, kTol);
  EXPECT_REL(r.num("window.end_s"), 6.0, kTol);
  EXPECT_REL(r.app("A").yield, 5.5 / 6.0, kTol);
  EXPECT_REL(r.app("B").yield, 10.0 / 11.0, kTol);
  EXPECT_REL(r.metric("min_yield"), 10.0 / 11.0, kTol);
  EXPECT_REL(r.metric("utilization"), 4.0 / 15.0, kTol);
  EXPECT_REL(r.metric("efficiency"), 0.9, kTol);
  EXPECT_REL(r.metric("io_pressure"), 0.8, kTol);
}

// Automatic window: [latest start, earliest dedicated completion] = [max(0, 0.5), min(0 + 2 + 2.5 + 2,
//   0.5 + 7.5 + 1)] = [0.5, 6.5].
//   A: W(0.5) = 0.5, V = 0; W(6.5) = 2 + 1.5 = 3.5, V = 2e9. y_A = (3.5 + 2.5)/6.5 = 12/13.
//   B: W = 0, V(0.5) = 0; V(6.5) = 1.6e9 + 1.5·4e8 = 2.2e9. y_B = 5.5/(6.5 − 0.5) = 11/12.
//   MinYield = 11/12. Utilization = 2·(3.5 − 0.5) / (6·3) = 1/3.
//   Efficiency = [2·(3 + 2.5) + 1·5.5] / 18 = 16.5/18 = 11/12.
//   I/O pressure: A dedicated on [2, 4.5] → 2e9; B on [0.5, 8] ∩ [0.5, 6.5] → 6·4e8 = 2.4e9; 4.4e9/(1e9·6) = 11/15.
TEST(engine_exact, YieldAndObjectivesOverAutomaticWindow) {
  SimRun r = run_ok(scenario(kYieldApps, "fairshare"), one_resource_platform());
  EXPECT_EQ(r.str("window.kind"), "steady-state");
  EXPECT_REL(r.num("window.begin_s"), 0.5, kTol);
  EXPECT_REL(r.num("window.end_s"), 6.5, kTol);
  EXPECT_REL(r.app("A").yield, 12.0 / 13.0, kTol);
  EXPECT_REL(r.app("B").yield, 11.0 / 12.0, kTol);
  EXPECT_REL(r.metric("min_yield"), 11.0 / 12.0, kTol);
  EXPECT_REL(r.metric("utilization"), 1.0 / 3.0, kTol);
  EXPECT_REL(r.metric("efficiency"), 11.0 / 12.0, kTol);
  EXPECT_REL(r.metric("io_pressure"), 11.0 / 15.0, kTol);
}

// Automatic window scaled by window.length_fraction = 0.5: [0.5, 0.5 + 0.5·6] = [0.5, 3.5].
//   A: W(3.5) = 2, V(3.5) = 1.5·2e9/3 = 1e9 → y_A = (2 + 1.25)/3.5 = 13/14.
//   B: V(3.5) = 6e8 + 1.5·1e9/3 = 1.1e9 → y_B = 2.75/3 = 11/12. MinYield = 11/12.
//   Utilization = 2·(2 − 0.5)/(3·3) = 1/3. Efficiency = [2·(1.5 + 1.25) + 2.75]/9 = 8.25/9 = 11/12.
TEST(engine_exact, YieldOverScaledAutomaticWindow) {
  SimRun r =
      run_ok(scenario(kYieldApps, "fairshare", R"("window": {"length_fraction": 0.5})"), one_resource_platform());
  EXPECT_REL(r.num("window.begin_s"), 0.5, kTol);
  EXPECT_REL(r.num("window.end_s"), 3.5, kTol);
  EXPECT_REL(r.app("A").yield, 13.0 / 14.0, kTol);
  EXPECT_REL(r.app("B").yield, 11.0 / 12.0, kTol);
  EXPECT_REL(r.metric("min_yield"), 11.0 / 12.0, kTol);
  EXPECT_REL(r.metric("utilization"), 1.0 / 3.0, kTol);
  EXPECT_REL(r.metric("efficiency"), 11.0 / 12.0, kTol);
}

// System: RR-9502 sample line "A 0.8 10 6 2 3 0 W 5 2 3" on r0 (B = 1e9, unit "pool" = 1e9): b = 8e8, released
//   10 s before the start (τ = −10) with 6 s of progress; its first work phase (5 s) began 2 s before the start, so
//   3 s are left; then an I/O of 2e9 B and 3 s of work.
// Expectations: work [0, 3], I/O [3, 5.5], work [5.5, 8.5]; automatic window [0, 8.5] (its dedicated completion);
//   y = (progress + W + V/b)/(T_end − τ) = (6 + 6 + 2.5)/(8.5 + 10) = 14.5/18.5 (RR-9502 Eq. 6 with history).
TEST(engine_exact, YieldCountsHistoryOfAnRr9502Sample) {
  RunOptions opt;
  opt.extra_files["sample.txt"] = "A 0.8 10 6 2 3 0 W 5 2 3\n";
  SimRun r = run_ok(R"({"workload": {"file": "sample.txt"}, "allocation": {"policy": "fixed", "n": 1},
                      "output": {"progress": false}})",
                    one_resource_platform(), opt);
  EXPECT_REL(r.app("A").end, 8.5, kTol);
  EXPECT_REL(r.app("A").work_time, 6.0, kTol);
  EXPECT_REL(r.app("A").io_time, 2.5, kTol);
  EXPECT_REL(r.num("window.end_s"), 8.5, kTol);
  EXPECT_REL(r.app("A").yield, 14.5 / 18.5, kTol);
  EXPECT_REL(r.metric("min_yield"), 14.5 / 18.5, kTol);
}

// Given window [1, 20] ending after every completion (A at 7, B at 9.5): progress is frozen at the end values and
// each yield is taken at the application's completion (not at T_end, where it would decay while it no longer runs).
//   A: W = 4, V = 2e9 → y_A = (4 + 2.5)/(7 − 0) = 13/14.  B: W = 1, V = 3e9 → y_B = (1 + 7.5)/(9.5 − 0.5) = 17/18.
//   Utilization = [2·(4 − 1) + 1·(1 − 0)] / (19·3) = 7/57.
//   Efficiency = [2·(3 + 2.5) + 1·(1 + 2.8e9/4e8)] / 57 = (11 + 8)/57 = 1/3.
TEST(engine_exact, YieldOverWindowEndingAfterTheLastCompletion) {
  SimRun r =
      run_ok(scenario(kYieldApps, "fairshare", R"("window": {"begin_s": 1, "end_s": 20})"), one_resource_platform());
  EXPECT_REL(r.num("window.end_s"), 20.0, kTol);
  EXPECT_REL(r.app("A").yield, 13.0 / 14.0, kTol);
  EXPECT_REL(r.app("B").yield, 17.0 / 18.0, kTol);
  EXPECT_REL(r.metric("utilization"), 7.0 / 57.0, kTol);
  EXPECT_REL(r.metric("efficiency"), 1.0 / 3.0, kTol);
}

// Given window [10, 20] beginning after every completion (A at 7, B at 9.5): nobody progresses inside it.
//   Utilization = Efficiency = 0 (ΔW = ΔV = 0); I/O pressure 0 (dedicated runs end at 6.5 and 9);
//   yields at the completions as in the previous test: y_A = 13/14, y_B = 17/18; MinYield = 13/14.
TEST(engine_exact, WindowBeginningAfterTheLastCompletion) {
  SimRun r =
      run_ok(scenario(kYieldApps, "fairshare", R"("window": {"begin_s": 10, "end_s": 20})"), one_resource_platform());
  EXPECT_REL(r.num("window.begin_s"), 10.0, kTol);
  EXPECT_REL(r.app("A").yield, 13.0 / 14.0, kTol);
  EXPECT_REL(r.app("B").yield, 17.0 / 18.0, kTol);
  EXPECT_REL(r.metric("min_yield"), 13.0 / 14.0, kTol);
  EXPECT_REL(r.metric("utilization"), 0.0, kTol);
  EXPECT_REL(r.metric("efficiency"), 0.0, kTol);
  EXPECT_REL(r.metric("io_pressure"), 0.0, kTol);
}

// Given window [1, 6] with window.stop_at_end: the run stops at 6 s (status stopped_at_window_end, makespan 6 − 0).
//   A (working since 5): work_time 3, io_volume 2e9, io_time 3, no end. B (I/O pending since 0.5): io_volume =
//   V_B(6) = 2e9 (partial), io_time 6 − 0.5 = 5.5, no end. r0 busy from 0.5 to 6 = 5.5 s, 2e9 B completed (A's).
//   Yields and objectives as in YieldAndObjectivesOverGivenWindow.
TEST(engine_exact, StopAtWindowEnd) {
  SimRun r =
      run_scenario(scenario(kYieldApps, "fairshare", R"("window": {"begin_s": 1, "end_s": 6, "stop_at_end": true})"),
                   one_resource_platform());
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_EQ(r.str("status"), "stopped_at_window_end");
  EXPECT_REL(r.metric("makespan_s"), 6.0, kTol);
  EXPECT_REL(r.app("A").work_time, 3.0, kTol);
  EXPECT_REL(r.app("A").io_volume, 2e9, kTol);
  EXPECT_REL(r.app("A").io_time, 3.0, kTol);
  EXPECT_TRUE(std::isnan(r.app("A").end));
  EXPECT_REL(r.app("B").io_volume, 2e9, kTol);
  EXPECT_REL(r.app("B").io_time, 5.5, kTol);
  EXPECT_TRUE(std::isnan(r.app("B").end));
  EXPECT_REL(r.res("r0").busy_time, 5.5, kTol);
  EXPECT_REL(r.res("r0").bytes, 2e9, kTol);
  EXPECT_REL(r.metric("min_yield"), 10.0 / 11.0, kTol);
  EXPECT_REL(r.metric("utilization"), 4.0 / 15.0, kTol);
  EXPECT_REL(r.metric("efficiency"), 0.9, kTol);
}

// System: A alone on r0 (B = 1e9), b(1) = 5e8, phases io 1e9, work 2, io 1e9, work 1: I/O on [0, 2], work on
//   [2, 4], I/O on [4, 6], work on [6, 7]. Windows whose ends fall exactly when the second operation is posted (t = 4).
// Expectations: at t = 4, W = 2 and V = 1e9 (the second operation has not transferred anything yet).
//   [1, 4]: V(1) = 5e8, W(1) = 0 → y = (2 + 1e9/5e8)/4 = 1; Efficiency = (2 + 5e8/5e8)/3 = 1.
//   [0, 4]: y = 1, Efficiency = (2 + 2)/4 = 1.   [4, 5]: V(5) = 1.5e9, W(5) = 2 → y = (2 + 3)/5 = 1;
//   Efficiency = (0 + 5e8/5e8)/1 = 1.   [2, 4]: y = 1, Efficiency = (2 + 0)/2 = 1.
//   Utilization = ΔW/(T_end − T_begin): 2/3, 2/4, 0/1, 2/2. A lone application never has a yield or an efficiency
//   above 1.
TEST(engine_exact, WindowBoundaryAtAnOperationPosting) {
  const std::string apps = R"([{"name": "A", "profile": {"1": 5e8},
                                "phases": [{"io": 1e9}, {"work": 2}, {"io": 1e9}, {"work": 1}]}])";
  struct Case {
    double begin, end, yield, efficiency, utilization;
  } cases[] = {{1, 4, 1.0, 1.0, 2.0 / 3.0}, {0, 4, 1.0, 1.0, 0.5}, {4, 5, 1.0, 1.0, 0.0}, {2, 4, 1.0, 1.0, 1.0}};
  for (const Case &c : cases) {
    SCOPED_TRACE("window [" + fmt(c.begin) + ", " + fmt(c.end) + "]");
    SimRun r = run_ok(
        scenario(apps, "fairshare", "\"window\": {\"begin_s\": " + fmt(c.begin) + ", \"end_s\": " + fmt(c.end) + "}"),
        one_resource_platform());
    EXPECT_REL(r.app("A").end, 7.0, kTol);
    EXPECT_REL(r.app("A").yield, c.yield, kTol);
    EXPECT_REL(r.metric("efficiency"), c.efficiency, kTol);
    EXPECT_REL(r.metric("utilization"), c.utilization, kTol);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// (g) maxmin: SimGrid's max-min sharing decides

// System: r0 with B = 1e9, maxmin. A: cap 8e8, V = 2e9; B: cap 8e8, V = 3e9 (both caps > B/2).
// Expectations: max-min gives each B/2 = 5e8 → A ends at 2e9/5e8 = 4 s; B has then 2e9 B, its last 1e9 B at its
//   cap 8e8 take 1.25 s → B ends at 5.25 s. (Fairshare would give the same 5e8 each; see the next test.)
TEST(engine_exact, MaxminEqualSplitWhenCapsExceedHalf) {
  SimRun r = run_ok(scenario(R"([{"name": "A", "profile": {"1": 8e8}, "io": 2e9},
                              {"name": "B", "profile": {"1": 8e8}, "io": 3e9}])",
                             "maxmin"),
                    one_resource_platform());
  EXPECT_REL(r.app("A").end, 4.0, kTol);
  EXPECT_REL(r.app("B").end, 5.25, kTol);
  EXPECT_REL(r.res("r0").busy_time, 5.25, kTol);
}

// System: r0 with B = 1e9. A: cap 3e8, V = 1.5e9; B: cap 9e8, V = 2.1e9.
// Expectations (maxmin): A is bounded by its cap 3e8, B gets the rest 7e8 → B ends at 2.1e9/7e8 = 3 s; A at
//   1.5e9/3e8 = 5 s. Under fairshare (α = 1/1.2: A 2.5e8, B 7.5e8) B would end at 2.8 s and A at 2.8 + (1.5e9 −
//   7e8)/3e8 = 5.4667 s: the two policies must differ.
TEST(engine_exact, MaxminGivesTheLeftoverToTheLargerCap) {
  const char *apps = R"([{"name": "A", "profile": {"1": 3e8}, "io": 1.5e9},
                         {"name": "B", "profile": {"1": 9e8}, "io": 2.1e9}])";
  SimRun r = run_ok(scenario(apps, "maxmin"), one_resource_platform());
  EXPECT_REL(r.app("B").end, 3.0, kTol);
  EXPECT_REL(r.app("A").end, 5.0, kTol);
  SimRun f = run_ok(scenario(apps, "fairshare"), one_resource_platform());
  EXPECT_REL(f.app("B").end, 2.8, kTol);
  EXPECT_REL(f.app("A").end, 2.8 + 8e8 / 3e8, kTol);
}

// ---------------------------------------------------------------------------------------------------------------
// (h) seeds and random placement

// System: 8 resources of 1e9, 6 applications with 2 resources each (allocation fixed), placement random, fairshare.
// Expectations: the same seed gives byte-identical apps.csv and resources.csv and the same results.json (but for
//   wall_time_s); among seeds 2..9 at least one gives another placement than seed 1 (6 ordered draws of 2 among 8: a
//   seed repeats seed 1's placement with probability (1/56)^6, so all 8 do with (1/56)^48).
TEST(engine_exact, SameSeedSameOutputsDifferentSeedOtherPlacement) {
  std::string apps = "[";
  for (int j = 0; j < 6; j++)
    apps += std::string(j ? "," : "") + "{\"name\": \"A" + std::to_string(j) +
            "\", \"profile\": {\"2\": 1.2e9}, \"work\": " + std::to_string(1 + j) +
            ", \"io\": " + std::to_string(1 + j) + "e9, \"iterations\": 3}";
  apps += "]";
  std::string platform = tiny_platform_xml(std::vector<double>(8, kB), 8);
  auto run_seed = [&](int seed) {
    return run_ok(scenario(apps, "fairshare",
                           R"("allocation": {"policy": "fixed", "n": 2}, "placement": {"policy": "random"}, "seed": )" +
                               std::to_string(seed)),
                  platform);
  };
  SimRun a = run_seed(7), b = run_seed(7);
  ASSERT_EQ(a.apps.size(), 6u);
  EXPECT_EQ(read_text(a.out_dir + "/apps.csv"), read_text(b.out_dir + "/apps.csv"));
  EXPECT_EQ(read_text(a.out_dir + "/resources.csv"), read_text(b.out_dir + "/resources.csv"));
  EXPECT_EQ(results_without_wall_time(a), results_without_wall_time(b));
  EXPECT_FALSE(results_without_wall_time(a).empty());

  auto placement = [](const SimRun &r) {
    std::vector<std::vector<std::string>> p;
    for (const auto &x : r.apps)
      p.push_back(x.resources);
    return p;
  };
  SimRun s1 = run_seed(1);
  for (const auto &x : s1.apps)
    EXPECT_EQ(x.n_resources, 2) << x.name;
  bool differs = false;
  for (int seed = 2; seed <= 9 && !differs; seed++)
    differs = placement(run_seed(seed)) != placement(s1);
  EXPECT_TRUE(differs) << "seeds 1..9 all gave the same random placement";
}

// ---------------------------------------------------------------------------------------------------------------
// window.mode v2 (the RR-9502 reference simulator's v2 windows)

// System: A and B each post one 4e9 B operation at t = 0, caps 1e9 = B; window given [0, 4] s.
//   v2 with fcfs: FairShare on [0, 2] (5e8 each: 1e9 B moved each by t = 2), then fcfs from the window's middle
//   (A posted first: 1e9 to A, 0 to B) on [2, 4]: at 4 s A has moved 3e9 B, B 1e9 B.
//   Expectations: yields at T_end = 4 (Eq. 6, τ = 0): A (3e9/1e9)/4 = 0.75, B 1/4 = 0.25 → MinYield 0.25;
//   objectives over [2, 4]: Efficiency = ((3e9 − 1e9)/1e9 + 0)/(2·2) = 0.5; window begin reported 2.
//   v1 with fcfs: A alone at 1e9 on [0, 4]: yields 1 and 0 → MinYield 0, Efficiency over [0, 4] = 4/(4·2) = 0.5.
TEST(engine_exact, WindowModeV2RunsFairShareOverTheFirstHalf) {
  const std::string apps = R"([{"name": "A", "profile": {"1": 1e9}, "io": 4e9},
                               {"name": "B", "profile": {"1": 1e9}, "io": 4e9}])";
  SimRun v2 =
      run_ok(scenario(apps, "fcfs", R"("window": {"begin_s": 0, "end_s": 4, "mode": "v2"})"), one_resource_platform());
  EXPECT_REL(v2.metric("min_yield"), 0.25, kTol);
  EXPECT_REL(v2.metric("efficiency"), 0.5, kTol);
  EXPECT_REL(v2.num("window.begin_s"), 2.0, kTol);
  EXPECT_EQ(v2.str("window.kind"), "given-v2");
  EXPECT_REL(v2.app("A").yield, 0.75, kTol);
  SimRun v1 = run_ok(scenario(apps, "fcfs", R"("window": {"begin_s": 0, "end_s": 4})"), one_resource_platform());
  EXPECT_REL(v1.metric("min_yield"), 0.0, kTol);
  EXPECT_REL(v1.metric("efficiency"), 0.5, kTol);
  SimRun bad = run_scenario(scenario(apps, "fcfs", R"("window": {"mode": "v3"})"), one_resource_platform());
  EXPECT_EQ(bad.proc.exit_code, 2);
  EXPECT_NE(bad.proc.err.find("window.mode"), std::string::npos) << bad.proc.err;
}

// System: A and B each post one 4e9 B operation at t = 0 (caps 1e9 = B); window given [0, 4] s; sharing
// periodic-greedy-yield with the automatic δ. In dedicated mode each posts once in [0, 4): N_op = 1 each, E = 2·2 = 4
// (RR-9502 Eq. 5), δ = (4 − 0)/4 = 1 s. Expectations: results.json window.period_s = 1; with delta_s = 0.25, 0.25;
// the resolved scenario lists the policy's parameters with their values (delta_s 0 and ties 0 when not given).
TEST(engine_exact, PeriodicPolicyRecordsItsPeriodAndParameters) {
  const std::string apps = R"([{"name": "A", "profile": {"1": 1e9}, "io": 4e9},
                               {"name": "B", "profile": {"1": 1e9}, "io": 4e9}])";
  SimRun autod = run_ok(scenario(apps, "periodic-greedy-yield", R"("window": {"begin_s": 0, "end_s": 4})"),
                        one_resource_platform());
  EXPECT_REL(autod.num("window.period_s"), 1.0, kTol);
  EXPECT_EQ(autod.num("scenario.sharing.delta_s"), 0.0);
  EXPECT_EQ(autod.num("scenario.sharing.ties"), 0.0);
  SimRun given = run_ok(scenario(apps, "periodic-greedy-yield", R"("window": {"begin_s": 0, "end_s": 4})"),
                        one_resource_platform(), options("run", {"sharing.delta_s=0.25"}));
  EXPECT_REL(given.num("window.period_s"), 0.25, kTol);
  SimRun none = run_ok(scenario(apps, "fcfs", R"("window": {"begin_s": 0, "end_s": 4})"), one_resource_platform());
  EXPECT_TRUE(std::isnan(none.num("window.period_s")));
}

// An application whose last operation ends exactly at the window's end has completed, on both transfer paths.
// A: work 1 s, then 2e9 B at b(1) = 1e9 B/s alone on r0 (B only computes until 10 s): its operation ends at
//   1 + 2 = 3 s, the window's end (given [0, 3], stop_at_end). Expectations: A end = 3 (the direct path used to stop
//   first and leave it empty), B end empty, status stopped_at_window_end, makespan 3.
TEST(engine_exact, CompletionAtTheWindowEndIsRecorded) {
  const std::string apps = R"([{"name": "A", "nodes": 1, "profile": {"1": 1e9}, "phases": [{"work": 1}, {"io": 2e9}]},
                               {"name": "B", "nodes": 1, "profile": {"1": 1e9}, "phases": [{"work": 10}, {"io": 1e9}]}])";
  SimRun r = run_scenario(scenario(apps, "fairshare", R"("window": {"begin_s": 0, "end_s": 3, "stop_at_end": true})"),
                          one_resource_platform());
  ASSERT_EQ(r.proc.exit_code, 0) << r.describe();
  EXPECT_EQ(r.str("status"), "stopped_at_window_end");
  EXPECT_REL(r.app("A").end, 3.0, kTol);
  EXPECT_TRUE(std::isnan(r.app("B").end));
  EXPECT_REL(r.metric("makespan_s"), 3.0, kTol);
}
