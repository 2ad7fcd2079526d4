// Unit tests of the measurement window and δ (src/sim/ios_window.h; RR-9502 §3.2 and Eq. 5), pure arithmetic checked
// on hand-built applications whose dedicated schedules are computed by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "ios_model.h"
#include "ios_window.h"

namespace {

// A workload whose applications own their phases (freed by the destructor).
struct Apps {
  std::vector<std::vector<ios_phase_t>> phases;
  std::vector<ios_app_t> apps;
  ios_workload_t w{};
  void add(std::vector<ios_phase_t> p) {
    phases.push_back(std::move(p));
    ios_app_t a;
    std::memset(&a, 0, sizeof a);
    a.nodes = 1;
    apps.push_back(a);
    for (size_t j = 0; j < apps.size(); j++) {
      apps[j].nphases = (int)phases[j].size();
      apps[j].phases = phases[j].data();
    }
    w.napps = (int)apps.size();
    w.apps = apps.data();
  }
};

ios_phase_t work(double s) {
  return {s, 0};
}
ios_phase_t io(double bytes) {
  return {bytes, 1};
}

// A: starts at 0, b = 2: work 10, I/O 20 B (10 s), work 10, I/O 20 B (10 s): posts at 10 and 30, ends at 40.
// B: starts at 5, b = 1: work 5, I/O 10 B (10 s), work 5, I/O 10 B (10 s), work 10: posts at 10 and 25, ends at 45.
struct TwoApps : Apps {
  double start[2] = {0, 5}, b[2] = {2, 1};
  TwoApps() {
    add({work(10), io(20), work(10), io(20)});
    add({work(5), io(10), work(5), io(10), work(10)});
  }
  ios_window_in_t in(double fraction) { return {&w, start, b, NAN, NAN, fraction, 0}; }
};

} // namespace

// The steady-state window runs from the last start (5) to the earliest dedicated completion (A at 40).
TEST(Window, SteadyStateFromLastStartToEarliestDedicatedEnd) {
  TwoApps t;
  double tb, te;
  ios_window_in_t in = t.in(1.0);
  EXPECT_STREQ(ios_window_choose(&in, &tb, &te), "steady-state");
  EXPECT_DOUBLE_EQ(tb, 5.0);
  EXPECT_DOUBLE_EQ(te, 40.0);
  in = t.in(0.5); // half of its length: [5, 5 + 0.5 × 35]
  EXPECT_STREQ(ios_window_choose(&in, &tb, &te), "steady-state");
  EXPECT_DOUBLE_EQ(te, 22.5);
}

// A given window wins; unknown start times (job queue, replay) give the whole run.
TEST(Window, GivenAndWholeRun) {
  TwoApps t;
  double tb, te;
  ios_window_in_t in = t.in(1.0);
  in.begin = 7;
  in.end = 9;
  EXPECT_STREQ(ios_window_choose(&in, &tb, &te), "given");
  EXPECT_EQ(tb, 7.0);
  EXPECT_EQ(te, 9.0);
  in = t.in(1.0);
  in.whole_run = 1;
  EXPECT_STREQ(ios_window_choose(&in, &tb, &te), "whole-run");
  EXPECT_EQ(tb, 0.0);
  EXPECT_TRUE(std::isnan(te));
}

// No moment when both run: A ends at 40 before C starts at 50, so there is no steady state.
TEST(Window, NoConcurrencyGivesTheWholeRun) {
  Apps a;
  a.add({work(10), io(20), work(10), io(20)});
  a.add({work(1), io(1)});
  double start[2] = {0, 50}, b[2] = {2, 1}, tb, te;
  ios_window_in_t in = {&a.w, start, b, NAN, NAN, 1.0, 0};
  EXPECT_STREQ(ios_window_choose(&in, &tb, &te), "whole-run");
  EXPECT_TRUE(std::isnan(te));
}

// Eq. 5: in [5, 40) A posts at 10 and 30, B at 10 and 25: E = 2 × 4 = 8, δ = 35 / 8. Without a window end, or with no
// operation posted in it, δ cannot be derived (0).
TEST(Window, DeltaOfEquation5) {
  TwoApps t;
  ios_window_in_t in = t.in(1.0);
  EXPECT_DOUBLE_EQ(ios_window_delta(&in, 5.0, 40.0), 35.0 / 8.0);
  EXPECT_DOUBLE_EQ(ios_window_delta(&in, 26.0, 29.0), 0.0); // nobody posts in [26, 29)
  EXPECT_DOUBLE_EQ(ios_window_delta(&in, 0.0, NAN), 0.0);
}
