// Unit tests of the RR-9502 bandwidth-sharing strategies written as pure policies (policies/sharing/):
// greedy-yield, periodic-greedy-yield, greedy-com, lookahead-greedy-yield (§4.1) and set10 (§4.2), on hand-built
// snapshots of one resource, plus invariants (rates within [0, cap], Σ <= B, work conservation) on random snapshots.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "ios_policy.h"
#include "ios_rng.h"

namespace {

// One pending transfer of an application in RR-9502's single-resource model (parts = 1, b = cap unless given).
struct T {
  double cap = 1.0;
  double remaining = 1.0;
  double posted = 0.0;
  long seq = 0;
  double release = 0.0;
  double progress = 0.0;
  double omega = NAN;
  double b = -1.0; // -1: b = cap
  int parts = 1;
};

ios_transfer_view_t view_of(const T &x, int app) {
  ios_transfer_view_t t{};
  t.app = app;
  t.cap = x.cap;
  t.remaining = x.remaining;
  t.posted = x.posted;
  t.seq = x.seq;
  t.b = x.b < 0 ? x.cap : x.b;
  t.parts = x.parts;
  t.release = x.release;
  t.progress = x.progress;
  t.omega = x.omega;
  t.nodes = 1;
  return t;
}

std::vector<double> share(const char *name, double capacity, const std::vector<T> &ts, double now = 10.0,
                          double t_end = INFINITY) {
  const ios_sharing_policy_t *pol = ios_sharing_find(name);
  EXPECT_NE(pol, nullptr) << name;
  if (pol == nullptr) return {};
  std::vector<ios_transfer_view_t> t;
  for (size_t i = 0; i < ts.size(); i++)
    t.push_back(view_of(ts[i], (int)i));
  ios_share_view_t v{};
  v.now = now;
  v.capacity = capacity;
  v.ntransfers = (int)t.size();
  v.t = t.data();
  v.t_begin = 0.0;
  v.t_end = t_end;
  ios_params_t p;
  ios_params_defaults(pol->nparams, pol->params, &p);
  std::vector<double> rates(t.size(), -1.0);
  EXPECT_EQ(pol->share(pol->ctx, &v, &p, rates.data()), IOS_OK) << name;
  return rates;
}

T app(double cap, double remaining, double posted, long seq) {
  T x;
  x.cap = cap;
  x.remaining = remaining;
  x.posted = posted;
  x.seq = seq;
  return x;
}

T with_yield(T x, double release, double progress) {
  x.release = release;
  x.progress = progress;
  return x;
}

T with_omega(T x, double omega) {
  x.omega = omega;
  return x;
}

const char *const kRR9502[] = {"greedy-yield", "periodic-greedy-yield", "greedy-com", "lookahead-greedy-yield",
                               "set10"};

} // namespace

// ================================================================================================ greedy-com
TEST(SharingGreedyCom, ShortestRemainingTransferFirst) {
  // System (RR-9502 §4.1 GreedyCom): B = 10, caps 6, 6, 6; remaining 30, 12, 24 bytes → V/b = 5, 2, 4 s; posted
  // 0, 1, 2 (FCFS would serve t0 first). Order t1, t2, t0: t1 gets 6 (4 left), t2 gets min(6, 4) = 4, t0 gets 0.
  // Expectations: {0, 6, 4}.
  std::vector<double> r = share("greedy-com", 10.0, {app(6, 30, 0, 0), app(6, 12, 1, 1), app(6, 24, 2, 2)});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_DOUBLE_EQ(r[0], 0.0);
  EXPECT_DOUBLE_EQ(r[1], 6.0);
  EXPECT_DOUBLE_EQ(r[2], 4.0);
}

TEST(SharingGreedyCom, RemainingTimeAtFullBandwidthNotBytes) {
  // System: B = 10; t0 cap 10, remaining 20 bytes (2 s at full bandwidth); t1 cap 4, remaining 12 bytes (3 s).
  // t1 has fewer bytes but needs longer: V_i/b_i orders t0 first. t0 gets 10, nothing left.
  // Expectations: {10, 0}.
  std::vector<double> r = share("greedy-com", 10.0, {app(10, 20, 1, 1), app(4, 12, 0, 0)});
  EXPECT_DOUBLE_EQ(r[0], 10.0);
  EXPECT_DOUBLE_EQ(r[1], 0.0);
}

TEST(SharingGreedyCom, TiesByPostingTimeThenOrder) {
  // System: B = 10, caps 8, remaining 16 (2 s) for all three; posted {3, 1, 1}, seq {0, 9, 4}.
  // Order: t2 (R = 1, seq 4) → 8, t1 (R = 1, seq 9) → 2, t0 (R = 3) → 0. Expectations: {0, 2, 8}.
  std::vector<double> r = share("greedy-com", 10.0, {app(8, 16, 3, 0), app(8, 16, 1, 9), app(8, 16, 1, 4)});
  EXPECT_DOUBLE_EQ(r[0], 0.0);
  EXPECT_DOUBLE_EQ(r[1], 2.0);
  EXPECT_DOUBLE_EQ(r[2], 8.0);
}

// ================================================================================================ greedy-yield
TEST(SharingGreedyYield, LowestYieldFirst) {
  // System (RR-9502 §4.1 GreedyYield, Eq. 6): now = 10, all released at 0, progress 9, 5, 7 → y = 0.9, 0.5, 0.7;
  // B = 10, caps 6; posted 0, 1, 2 (FCFS would serve t0). Order t1, t2, t0: t1 → 6, t2 → 4, t0 → 0.
  // Expectations: {0, 6, 4}.
  std::vector<double> r =
      share("greedy-yield", 10.0,
            {with_yield(app(6, 1, 0, 0), 0, 9), with_yield(app(6, 1, 1, 1), 0, 5), with_yield(app(6, 1, 2, 2), 0, 7)});
  EXPECT_DOUBLE_EQ(r[0], 0.0);
  EXPECT_DOUBLE_EQ(r[1], 6.0);
  EXPECT_DOUBLE_EQ(r[2], 4.0);
}

TEST(SharingGreedyYield, YieldNotProgress) {
  // System: now = 10, B = 10, caps 10. t0 released at 6 with progress 4 → y = 4/4 = 1; t1 released at 0 with
  // progress 8 → y = 0.8. t1 has more progress but the lower yield: it is served first.
  // Expectations: {0, 10}.
  std::vector<double> r =
      share("greedy-yield", 10.0, {with_yield(app(10, 1, 0, 0), 6, 4), with_yield(app(10, 1, 1, 1), 0, 8)});
  EXPECT_DOUBLE_EQ(r[0], 0.0);
  EXPECT_DOUBLE_EQ(r[1], 10.0);
}

TEST(SharingGreedyYield, PaperExample3LowYieldTakesEverything) {
  // System (RR-9502 §5.3, Example 3, m = 4): window [1, 2], b_i = B = 1, released at 0; at t = 1 the first m − 1
  // applications have yield 1 (progress 1) and post small I/O operations; the last has yield 0 (progress 0) and posts
  // a volume-1 operation (it posted last). As the paper argues, GreedyYield gives the whole bandwidth to the last
  // application, whose yield is the lowest. Expectations: {0, 0, 0, 1}.
  std::vector<double> r = share("greedy-yield", 1.0,
                                {with_yield(app(1, 0.01, 1, 0), 0, 1), with_yield(app(1, 0.01, 1, 1), 0, 1),
                                 with_yield(app(1, 0.01, 1, 2), 0, 1), with_yield(app(1, 1, 1, 3), 0, 0)},
                                1.0);
  EXPECT_DOUBLE_EQ(r[0], 0.0);
  EXPECT_DOUBLE_EQ(r[1], 0.0);
  EXPECT_DOUBLE_EQ(r[2], 0.0);
  EXPECT_DOUBLE_EQ(r[3], 1.0);
}

TEST(SharingGreedyYield, FreshApplicationFirst) {
  // System (RR-9502 §5.1, Example 1, m = 3, T = 100): two applications released at 0 with yield 1 (progress 100)
  // and one released at T = now = 100 (no elapsed time: yield taken as 0), all post a volume-1 operation at T,
  // b_i = B = 1. The fresh application is served first (the paper's better schedule). Expectations: {0, 0, 1}.
  std::vector<double> r = share("greedy-yield", 1.0,
                                {with_yield(app(1, 1, 100, 0), 0, 100), with_yield(app(1, 1, 100, 1), 0, 100),
                                 with_yield(app(1, 1, 100, 2), 100, 0)},
                                100.0);
  EXPECT_DOUBLE_EQ(r[0], 0.0);
  EXPECT_DOUBLE_EQ(r[1], 0.0);
  EXPECT_DOUBLE_EQ(r[2], 1.0);
}

TEST(SharingGreedyYield, TiesByPostingTimeThenOrder) {
  // System: now = 10, equal yields 0.5 (progress 5, release 0), B = 10, caps 7; posted {2, 1, 1}, seq {0, 8, 3}.
  // Order: t2 (R = 1, seq 3) → 7, t1 (R = 1, seq 8) → 3, t0 → 0. Expectations: {0, 3, 7}.
  std::vector<double> r =
      share("greedy-yield", 10.0,
            {with_yield(app(7, 1, 2, 0), 0, 5), with_yield(app(7, 1, 1, 8), 0, 5), with_yield(app(7, 1, 1, 3), 0, 5)});
  EXPECT_DOUBLE_EQ(r[0], 0.0);
  EXPECT_DOUBLE_EQ(r[1], 3.0);
  EXPECT_DOUBLE_EQ(r[2], 7.0);
}

TEST(SharingGreedyYield, RoundingLevelDifferencesAreTies) {
  // System: now = 510.88435412171475 (a date from a real run), released 0, B = 1, b_i = cap_i = 1. t0 was never slowed
  // down but its progress reads 510.88435412171464 (rounding: y = 0.99999999999999978), posted now; t1 has progress
  // = now (y = 1), posted at 496.5. The yields are equal up to rounding (< 1e-12 apart): a tie, broken by posting
  // time: t1 first. Expectations: {0, 1}; and a real difference (t0 progress 510.8 → y = 0.99984) still puts t0
  // first: {1, 0}.
  const double now = 510.88435412171475;
  std::vector<double> r =
      share("greedy-yield", 1.0,
            {with_yield(app(1, 1, now, 1), 0, 510.88435412171464), with_yield(app(1, 1, 496.5, 0), 0, now)}, now);
  EXPECT_DOUBLE_EQ(r[0], 0.0);
  EXPECT_DOUBLE_EQ(r[1], 1.0);
  r = share("greedy-yield", 1.0, {with_yield(app(1, 1, now, 1), 0, 510.8), with_yield(app(1, 1, 496.5, 0), 0, now)},
            now);
  EXPECT_DOUBLE_EQ(r[0], 1.0);
  EXPECT_DOUBLE_EQ(r[1], 0.0);
}

// ================================================================================================ periodic
TEST(SharingPeriodicGreedyYield, SameRatesAsGreedyYieldAndPeriodic) {
  // System: the descriptor of periodic-greedy-yield (RR-9502 §4.1 PeriodicGreedyYield(δ)), and 200 random snapshots
  // with random yields. Expectations: periodic = 1 (greedy-yield: 0); one parameter delta_s, unit "s", default 0
  // (automatic δ = (T_end − T_begin)/E, computed by the engine); exactly greedy-yield's rates on every snapshot.
  const ios_sharing_policy_t *per = ios_sharing_find("periodic-greedy-yield");
  const ios_sharing_policy_t *gy = ios_sharing_find("greedy-yield");
  ASSERT_NE(per, nullptr);
  ASSERT_NE(gy, nullptr);
  EXPECT_EQ(per->periodic, 1);
  EXPECT_EQ(gy->periodic, 0);
  EXPECT_EQ(per->uncapped, 0);
  ASSERT_EQ(per->nparams, 2); // delta_s, then ties (ReferenceTiesByApplicationIndex)
  EXPECT_STREQ(per->params[0].name, "delta_s");
  EXPECT_STREQ(per->params[0].unit, "s");
  EXPECT_EQ(per->params[0].def, 0.0);
  ios_rng_t rng;
  ios_rng_seed(&rng, 9502, 1);
  int differ_from_fcfs = 0;
  for (int trial = 0; trial < 200; trial++) {
    int k = 1 + (int)ios_rng_below(&rng, 8);
    std::vector<T> ts;
    for (int i = 0; i < k; i++)
      ts.push_back(with_yield(app(1 + 9 * ios_rng_uniform(&rng), 1, (double)ios_rng_below(&rng, 3), i), 0,
                              10 * ios_rng_uniform(&rng)));
    std::vector<double> a = share("periodic-greedy-yield", 10.0, ts), b = share("greedy-yield", 10.0, ts),
                        c = share("fcfs", 10.0, ts);
    for (int i = 0; i < k; i++)
      EXPECT_EQ(a[i], b[i]) << "trial " << trial << " transfer " << i;
    if (a != c) differ_from_fcfs++;
  }
  EXPECT_GT(differ_from_fcfs, 20) << "the snapshots should exercise the yield order";
}

// ================================================================================================ lookahead
namespace {
// The worked system of the lookahead tests (B = 10, now = 100, b_i = cap_i, one part each):
//   A: cap 10, remaining 100, released 0,  progress 50 → y = 0.5;  posted 1
//   C: cap 6,  remaining 6,   released 90, progress 6  → y = 0.6;  posted 2
//   D: cap 6,  remaining 60,  released 0,  progress 80 → y = 0.8;  posted 0
std::vector<T> lookahead_system() {
  return {with_yield(app(10, 100, 1, 1), 0, 50), with_yield(app(6, 6, 2, 2), 90, 6),
          with_yield(app(6, 60, 0, 0), 0, 80)};
}
} // namespace

TEST(SharingLookaheadGreedyYield, PicksThePriorityThatMaximisesMinYieldAtHorizon) {
  // System: lookahead_system(). GreedyYield order A (0.5), C (0.6), D (0.8).
  // Candidate A: A 10, rest by GreedyYield: C 0, D 0. Horizon = first completion = A: 100/10 = 10 s → t = 110.
  //   y_A = (50 + 10)/110 = 0.5455, y_C = 6/(110 − 90) = 0.3, y_D = 80/110 = 0.7273 → Z_A = 0.3.
  // Candidate C: C 6, rest: A min(10, 4) = 4, D 0. Horizon: C 6/6 = 1 s, A 100/4 = 25 s → 1 s, t = 101.
  //   y_A = (50 + 1·4/10)/101 = 0.49901, y_C = (6 + 1)/11 = 0.6364, y_D = 80/101 = 0.7921 → Z_C = 0.49901.
  // Candidate D: D 6, rest: A 4, C 0. Horizon: D 60/6 = 10 s, A 25 s → 10 s, t = 110.
  //   y_A = (50 + 4)/110 = 0.4909, y_C = 6/20 = 0.3, y_D = 90/110 → Z_D = 0.3.
  // Best: C (0.49901). Expectations: {A 4, C 6, D 0}. GreedyYield alone gives {10, 0, 0}; an FCFS rest after C
  // would give D (posted first) the 4 left: {0, 6, 4}.
  std::vector<double> r = share("lookahead-greedy-yield", 10.0, lookahead_system(), 100.0);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_DOUBLE_EQ(r[0], 4.0);
  EXPECT_DOUBLE_EQ(r[1], 6.0);
  EXPECT_DOUBLE_EQ(r[2], 0.0);
  std::vector<double> g = share("greedy-yield", 10.0, lookahead_system(), 100.0);
  EXPECT_DOUBLE_EQ(g[0], 10.0);
  EXPECT_DOUBLE_EQ(g[1], 0.0);
  EXPECT_DOUBLE_EQ(g[2], 0.0);
}

TEST(SharingLookaheadGreedyYield, HorizonStopsAtWindowEnd) {
  // System: lookahead_system() with T_end = 100.5: every horizon is cut to 0.5 s (t = 100.5).
  // Candidate A: y_A = 50.5/100.5 = 0.50249, y_C = 6/10.5 = 0.5714, y_D = 0.796 → Z_A = 0.50249.
  // Candidate C: y_A = (50 + 0.5·0.4)/100.5 = 0.49950 → Z_C = 0.49950. Candidate D: same y_A → Z_D = 0.49950.
  // Best: A. Expectations: {10, 0, 0}.
  std::vector<double> r = share("lookahead-greedy-yield", 10.0, lookahead_system(), 100.0, 100.5);
  EXPECT_DOUBLE_EQ(r[0], 10.0);
  EXPECT_DOUBLE_EQ(r[1], 0.0);
  EXPECT_DOUBLE_EQ(r[2], 0.0);
}

TEST(SharingLookaheadGreedyYield, HorizonIsTheFirstCompletionOfAnyTransfer) {
  // System: B = 10, now = 100, b_i = cap_i.
  //   X: cap 6,  remaining 1000, released 0,  progress 40  → y = 0.4, posted 0
  //   S: cap 6,  remaining 2,    released 0,  progress 45  → y = 0.45, posted 1
  //   W: cap 10, remaining 1000, released 95, progress 4.5 → y = 0.9, posted 2
  // GreedyYield order X, S, W.
  // Candidate X: X 6, S 4, W 0. First completion: S after 2/4 = 0.5 s (X needs 166.7 s) → t = 100.5:
  //   y_X = (40 + 0.5)/100.5 = 0.40299, y_S = (45 + 0.5·4/6)/100.5 = 0.45108, y_W = 4.5/5.5 = 0.818 → Z_X = 0.40299.
  // Candidate S: S 6, X 4, W 0. First completion: S after 2/6 s → t = 100.3333:
  //   y_X = (40 + 0.3333·4/6)/100.3333 = 0.40089 → Z_S = 0.40089.
  // Candidate W: W 10, X 0, S 0. First completion: W after 100 s → t = 200: y_X = 40/200 = 0.2 → Z_W = 0.2.
  // Best: X. Expectations: {6, 4, 0}. (Were the horizon the priority application's own completion, candidate X
  // would be scored at t = 266.7 where y_W = 4.5/171.7 = 0.026, and S would win: {4, 6, 0}.)
  std::vector<double> r = share("lookahead-greedy-yield", 10.0,
                                {with_yield(app(6, 1000, 0, 0), 0, 40), with_yield(app(6, 2, 1, 1), 0, 45),
                                 with_yield(app(10, 1000, 2, 2), 95, 4.5)},
                                100.0);
  EXPECT_DOUBLE_EQ(r[0], 6.0);
  EXPECT_DOUBLE_EQ(r[1], 4.0);
  EXPECT_DOUBLE_EQ(r[2], 0.0);
}

TEST(SharingLookaheadGreedyYield, TiesKeepTheFirstInGreedyYieldOrder) {
  // System: two identical applications (b_i = B = 1, remaining 5, released 0, progress 5 → y = 0.5 at now = 10),
  // posted at the same time, seq {5, 2}. Both candidates give the mirror allocation (1, 0): the same Z = min(
  // (5 + 5)/15, 5/15) = 1/3. The first candidate in GreedyYield order (equal yields, equal R_i: seq 2 = t1) is kept.
  // Expectations: {0, 1}.
  std::vector<double> r =
      share("lookahead-greedy-yield", 1.0, {with_yield(app(1, 5, 3, 5), 0, 5), with_yield(app(1, 5, 3, 2), 0, 5)});
  EXPECT_DOUBLE_EQ(r[0], 0.0);
  EXPECT_DOUBLE_EQ(r[1], 1.0);
}

TEST(SharingLookaheadGreedyYield, RoundingLevelDifferencesAreTies) {
  // System: the mirror pair of TiesKeepTheFirstInGreedyYieldOrder (B = 1, caps 1, remaining 5, now = 10, released 0)
  // but C's progress reads 5 − 1e-15 (rounding), and A posted first (R = 2 against 3).
  //   Candidate A: A 1, C waits 5 s → Z = (5 − 1e-15)/15; candidate C: C 1 → Z = 5/15, larger by ~7e-17 only.
  // Equal up to rounding: the yields tie (A first by posting time) and C's Z is not larger by more than 1e-12, so
  // A is kept. Expectations: {1, 0}. (Exact comparisons would pick C.)
  std::vector<double> r = share("lookahead-greedy-yield", 1.0,
                                {with_yield(app(1, 5, 2, 1), 0, 5), with_yield(app(1, 5, 3, 2), 0, 5 - 1e-15)});
  EXPECT_DOUBLE_EQ(r[0], 1.0);
  EXPECT_DOUBLE_EQ(r[1], 0.0);
}

TEST(SharingLookaheadGreedyYield, PartsScaleTheProgress) {
  // System: B = 10, now = 100.
  //   A: one of 4 parts (parts = 4), cap 2.5, b = 10, remaining 1000 (400 s), released 0, progress 50 → y = 0.5
  //   D: cap 7.5 = b, remaining 7.5 (1 s at 7.5), released −900, progress 950 → y = 0.95
  //   E: cap 7.5 = b, remaining 75 (10 s at 7.5), released −900, progress 960 → y = 0.96
  // GreedyYield order A, D, E. Candidates A and D give {A 2.5, D 7.5, E 0}, horizon 1 s (D); candidate E gives
  // {A 2.5, D 0, E 7.5}, horizon 10 s (E). A's progress moves at 4·2.5/10 = 1 s per s:
  //   horizon 1 s:  y_A = (50 + 1)/101 = 0.50495, y_D = 951/1001, y_E = 960/1001 → Z = 0.50495;
  //   horizon 10 s: y_A = (50 + 10)/110 = 0.54545, y_D = 950/1010 = 0.9406, y_E = 970/1010 → Z = 0.54545.
  // Best: E. Expectations: {2.5, 0, 7.5}. (Ignoring parts, A would move at 0.25 s per s: y_A = 50.25/101 = 0.4975
  // against 52.5/110 = 0.4773, and A would be kept: {2.5, 7.5, 0}.)
  T a = with_yield(app(2.5, 1000, 0, 0), 0, 50);
  a.b = 10;
  a.parts = 4;
  std::vector<double> r =
      share("lookahead-greedy-yield", 10.0,
            {a, with_yield(app(7.5, 7.5, 1, 1), -900, 950), with_yield(app(7.5, 75, 2, 2), -900, 960)}, 100.0);
  EXPECT_DOUBLE_EQ(r[0], 2.5);
  EXPECT_DOUBLE_EQ(r[1], 0.0);
  EXPECT_DOUBLE_EQ(r[2], 7.5);
}

TEST(SharingLookaheadGreedyYield, ScoresAreClampedAtOne) {
  // System: B = 1, b_i = cap_i = 1, now = 10, released 0. Yields above 1 only arise from rounding; exaggerated here:
  //   A: progress 30 → y = 3, remaining 0.1, posted 0;  C: progress 20 → y = 2, remaining 1, posted 1.
  // GreedyYield order C, A. Candidate C: C 1, horizon 1 s → y_C = 21/11 = 1.91, y_A = 30/11 = 2.73 → Z = min(1, ...)
  // = 1. Candidate A: A 1, horizon 0.1 s → y_A = 30.1/10.1, y_C = 20/10.1 = 1.98 → Z = 1: a tie, C (first) kept.
  // Expectations: {0, 1}. (Unclamped, A would win with 1.98 > 1.91.)
  std::vector<double> r =
      share("lookahead-greedy-yield", 1.0, {with_yield(app(1, 0.1, 0, 0), 0, 30), with_yield(app(1, 1, 1, 1), 0, 20)});
  EXPECT_DOUBLE_EQ(r[0], 0.0);
  EXPECT_DOUBLE_EQ(r[1], 1.0);
}

// ================================================================================================ set10
TEST(SharingSet10, ExclusiveFcfsWithinASet) {
  // System (RR-9502 §4.2, basic algorithm: caps = B = 10): three applications with ω = 1000, 1200, 900 s: all in
  // S_3 (round(log10 ω) = 3); posted 2, 1, 3. One set: exclusive access for the first poster (t1).
  // Expectations: {0, 10, 0}.
  std::vector<double> r = share(
      "set10", 10.0,
      {with_omega(app(10, 1, 2, 0), 1000), with_omega(app(10, 1, 1, 1), 1200), with_omega(app(10, 1, 3, 2), 900)});
  EXPECT_DOUBLE_EQ(r[0], 0.0);
  EXPECT_DOUBLE_EQ(r[1], 10.0);
  EXPECT_DOUBLE_EQ(r[2], 0.0);
}

TEST(SharingSet10, SetsSplitByPriority) {
  // System (basic algorithm, caps = B = 11): t0 ω = 10 (S_1, q = 0.1), t1 ω = 100 (S_2, q = 0.01), t2 ω = 12
  // (S_1, posted after t0). α_1 = 0.1/0.11 = 10/11, α_2 = 1/11. S_1's first poster t0 gets 10, t1 gets 1, t2 0.
  // Expectations: {10, 1, 0}.
  std::vector<double> r =
      share("set10", 11.0,
            {with_omega(app(11, 1, 0, 0), 10), with_omega(app(11, 1, 1, 1), 100), with_omega(app(11, 1, 2, 2), 12)});
  EXPECT_NEAR(r[0], 10.0, 1e-12);
  EXPECT_NEAR(r[1], 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(r[2], 0.0);
}

TEST(SharingSet10, SetIndexIsTheNearestIntegerOfLog10) {
  // System (caps = B = 11): t0 ω = 31 (log10 = 1.491 → S_1, q 0.1), t1 ω = 32 (log10 = 1.505 → S_2, q 0.01).
  // Different sets: 10 and 1. (Truncation would put both in S_1; ceiling both in S_2: one would get 11.)
  // Expectations: {10, 1}.
  std::vector<double> r = share("set10", 11.0, {with_omega(app(11, 1, 0, 0), 31), with_omega(app(11, 1, 1, 1), 32)});
  EXPECT_NEAR(r[0], 10.0, 1e-12);
  EXPECT_NEAR(r[1], 1.0, 1e-12);
}

TEST(SharingSet10, ExtendedLowPrioritySetLimitedByItsCaps) {
  // System (extended algorithm, B = 10): S_2 (q 0.01): t0 cap 0.5 (ω 100). S_1 (q 0.1): t1 cap 6, t2 cap 6
  // (ω 10, posted 1 and 2). α_1 = 10/11, α_2 = 1/11; β_2 = 0.5/10 = 0.05 <= 1/11 → S_2 limited: t0 gets 0.5,
  // B_left = 9.5. Round 2: S_1 alone, β_1 = 1.2 > α_1 = 1: FCFS in S_1 with 9.5: t1 6, t2 3.5.
  // Expectations: {0.5, 6, 3.5}.
  std::vector<double> r =
      share("set10", 10.0,
            {with_omega(app(0.5, 1, 0, 0), 100), with_omega(app(6, 1, 1, 1), 10), with_omega(app(6, 1, 2, 2), 10)});
  EXPECT_NEAR(r[0], 0.5, 1e-12);
  EXPECT_NEAR(r[1], 6.0, 1e-12);
  EXPECT_NEAR(r[2], 3.5, 1e-12);
}

TEST(SharingSet10, ExtendedRepeatsWithBLeft) {
  // System (B = 111): S_0 (ω 1, q 1): t0 cap 50. S_1 (ω 10, q 0.1): t1 cap 20. S_2 (ω 100, q 0.01): t2 cap 30,
  // t3 cap 30 (posted 3 then 4).
  // Round 1: α = 100/111, 10/111, 1/111 → shares 100, 10, 1; S_0 demand 50 <= 100 → limited, gets 50; S_1 demand 20
  //   > 10, S_2 60 > 1. B_left = 61.
  // Round 2: shares over S_1, S_2: 61·(10/11) = 55.45, 61/11 = 5.55; S_1 demand 20 <= 55.45 → limited, gets 20.
  //   B_left = 41.
  // Round 3: S_2 alone, share 41 < 60: FCFS t2 30, t3 11.
  // Expectations: {50, 20, 30, 11} (a single round would give S_1 10·61/... — not 20 — and S_2 far less).
  std::vector<double> r = share("set10", 111.0,
                                {with_omega(app(50, 1, 0, 0), 1), with_omega(app(20, 1, 1, 1), 10),
                                 with_omega(app(30, 1, 3, 2), 100), with_omega(app(30, 1, 4, 3), 100)});
  EXPECT_NEAR(r[0], 50.0, 1e-9);
  EXPECT_NEAR(r[1], 20.0, 1e-9);
  EXPECT_NEAR(r[2], 30.0, 1e-9);
  EXPECT_NEAR(r[3], 11.0, 1e-9);
}

TEST(SharingSet10, ExtendedHighPrioritySetLimitedGivesTheRestToLowerSets) {
  // System (B = 10): S_1 (ω 10): t0 cap 2. S_2 (ω 100): t1 cap 5, t2 cap 5 (posted 1, 2).
  // α_1 = 10/11: β_1 = 0.2 <= 0.909 → S_1 limited: t0 2, B_left = 8. S_2 alone: FCFS t1 5, t2 3.
  // Expectations: {2, 5, 3}.
  std::vector<double> r =
      share("set10", 10.0,
            {with_omega(app(2, 1, 0, 0), 10), with_omega(app(5, 1, 1, 1), 100), with_omega(app(5, 1, 2, 2), 100)});
  EXPECT_NEAR(r[0], 2.0, 1e-12);
  EXPECT_NEAR(r[1], 5.0, 1e-12);
  EXPECT_NEAR(r[2], 3.0, 1e-12);
}

TEST(SharingSet10, UnknownOmegaGoesToTheTopSet) {
  // System (caps = B = 11): t0 ω = NAN (no completed I/O), t1 ω = 10 (S_1, q 0.1), t2 ω = NAN posted after t0.
  // The applications without ω form the set S_-2 (q = 100): α_-2 = 100/100.1, α_1 = 0.1/100.1. FCFS in S_-2: t0.
  // Expectations: t0 = 11·100/100.1 = 10.989011, t1 = 11·0.1/100.1 = 0.010989, t2 = 0.
  std::vector<double> r =
      share("set10", 11.0,
            {with_omega(app(11, 1, 0, 0), NAN), with_omega(app(11, 1, 1, 1), 10), with_omega(app(11, 1, 2, 2), NAN)});
  EXPECT_NEAR(r[0], 11.0 * 100.0 / 100.1, 1e-12);
  EXPECT_NEAR(r[1], 11.0 * 0.1 / 100.1, 1e-12);
  EXPECT_DOUBLE_EQ(r[2], 0.0);
}

TEST(SharingSet10, UnknownOmegaJoinsAFasterKnownTopSet) {
  // System (caps = B = 1): t0 ω = 0.001 s (S_-3, q 1000), posted 1; t1 ω = NAN, posted 0. The top set is S_-3,
  // above S_-2: t1 joins it (never below a known set) and, posted first, gets exclusive access.
  // Expectations: {0, 1}. (Were it in S_-2 of its own, t0 would get 1000/1100.)
  std::vector<double> r = share("set10", 1.0, {with_omega(app(1, 1, 1, 0), 0.001), with_omega(app(1, 1, 0, 1), NAN)});
  EXPECT_DOUBLE_EQ(r[0], 0.0);
  EXPECT_DOUBLE_EQ(r[1], 1.0);
}

TEST(SharingSet10, AllUnknownIsOneFcfsSet) {
  // System (RR-9502 §5.2 remark: all applications in the same I/O-set when they start): B = 1, caps 1, all ω NAN,
  // posted 2, 0, 1. One set, exclusive FCFS: t1. Expectations: {0, 1, 0}.
  std::vector<double> r = share("set10", 1.0, {app(1, 1, 2, 0), app(1, 1, 0, 1), app(1, 1, 1, 2)});
  EXPECT_DOUBLE_EQ(r[0], 0.0);
  EXPECT_DOUBLE_EQ(r[1], 1.0);
  EXPECT_DOUBLE_EQ(r[2], 0.0);
}

// ================================================================================================ invariants
TEST(SharingRR9502, RatesWithinCapsCapacityAndWorkConserving) {
  // System: 400 random snapshots from a fixed seed for each of the five strategies: 1..12 transfers, B in
  // [1, 1e10), caps 0 (one in 6) to 2·B, posting times with ties, yields from random progress / release / now,
  // ω NAN (one in 3) or 10^[−3, 6), parts 1..4, b = parts·cap (b = 0 when cap = 0), t_end infinite or ahead.
  // Expectations: IOS_OK; every rate finite, in [0, cap] (relative 1e-12); Σ <= B (relative 1e-12); and Σ = min(B,
  // Σ caps) (relative 1e-9): all five hand out all the bandwidth that can be handed out (RR-9502 §5.7.2).
  ios_rng_t rng;
  ios_rng_seed(&rng, 95020, 3);
  for (const char *name : kRR9502) {
    const ios_sharing_policy_t *pol = ios_sharing_find(name);
    ASSERT_NE(pol, nullptr) << name;
    ios_params_t p;
    ios_params_defaults(pol->nparams, pol->params, &p);
    for (int trial = 0; trial < 400; trial++) {
      int k = 1 + (int)ios_rng_below(&rng, 12);
      double capacity = std::pow(10.0, 10.0 * ios_rng_uniform(&rng));
      double now = 1000.0 * ios_rng_uniform(&rng);
      std::vector<ios_transfer_view_t> t;
      double demand = 0.0;
      for (int i = 0; i < k; i++) {
        T x;
        x.cap = ios_rng_below(&rng, 6) == 0 ? 0.0 : 2.0 * capacity * ios_rng_uniform(&rng);
        x.remaining = 1.0 + ios_rng_uniform(&rng) * 1e12;
        x.posted = (double)ios_rng_below(&rng, 4);
        x.seq = (long)ios_rng_below(&rng, 100);
        x.release = now - 1000.0 * ios_rng_uniform(&rng);
        x.progress = (now - x.release) * ios_rng_uniform(&rng);
        x.omega = ios_rng_below(&rng, 3) == 0 ? NAN : std::pow(10.0, -3.0 + 9.0 * ios_rng_uniform(&rng));
        x.parts = 1 + (int)ios_rng_below(&rng, 4);
        x.b = x.parts * x.cap;
        t.push_back(view_of(x, i));
        demand += x.cap;
      }
      ios_share_view_t v{};
      v.now = now;
      v.capacity = capacity;
      v.ntransfers = k;
      v.t = t.data();
      v.t_end = ios_rng_below(&rng, 2) == 0 ? INFINITY : now + 100.0 * ios_rng_uniform(&rng);
      std::vector<double> rate(k, -1.0);
      ASSERT_EQ(pol->share(pol->ctx, &v, &p, rate.data()), IOS_OK) << name << " trial " << trial;
      double sum = 0.0;
      for (int i = 0; i < k; i++) {
        EXPECT_TRUE(std::isfinite(rate[i])) << name << " trial " << trial << " transfer " << i;
        EXPECT_GE(rate[i], 0.0) << name << " trial " << trial << " transfer " << i;
        EXPECT_LE(rate[i], t[i].cap * (1.0 + 1e-12)) << name << " trial " << trial << " transfer " << i;
        sum += rate[i];
      }
      EXPECT_LE(sum, capacity * (1.0 + 1e-12)) << name << " trial " << trial;
      EXPECT_NEAR(sum, std::min(capacity, demand), 1e-9 * capacity) << name << " trial " << trial;
    }
  }
}

TEST(SharingRR9502, DescriptorsAndSources) {
  // Expectations: the five are registered under their names, cap their rates (uncapped = 0), cite RR-9502, and only
  // periodic-greedy-yield is periodic.
  for (const char *name : kRR9502) {
    const ios_sharing_policy_t *pol = ios_sharing_find(name);
    ASSERT_NE(pol, nullptr) << name;
    EXPECT_STREQ(pol->name, name);
    EXPECT_EQ(pol->uncapped, 0) << name;
    EXPECT_NE(std::string(pol->source).find("RR-9502"), std::string::npos) << name;
    EXPECT_EQ(pol->periodic, std::string(name) == "periodic-greedy-yield" ? 1 : 0) << name;
  }
}

TEST(SharingGreedyYield, ReferenceTiesByApplicationIndex) {
  // System: as TiesByPostingTimeThenOrder (equal yields 0.5, B = 10, caps 7, posted {2, 1, 1}, seq {0, 8, 3}) with
  // ties = 1 (the reference simulator's rule: application index). Order: t0, t1, t2. Expectations: {7, 3, 0}; the
  // same with periodic-greedy-yield, whose `ties` is its second parameter (after delta_s).
  std::vector<T> ts = {with_yield(app(7, 1, 2, 0), 0, 5), with_yield(app(7, 1, 1, 8), 0, 5),
                       with_yield(app(7, 1, 1, 3), 0, 5)};
  std::vector<ios_transfer_view_t> t;
  for (size_t i = 0; i < ts.size(); i++)
    t.push_back(view_of(ts[i], (int)i));
  ios_share_view_t v{};
  v.now = 10.0;
  v.capacity = 10.0;
  v.ntransfers = 3;
  v.t = t.data();
  v.t_end = INFINITY;
  for (const char *name : {"greedy-yield", "periodic-greedy-yield"}) {
    const ios_sharing_policy_t *pol = ios_sharing_find(name);
    ASSERT_NE(pol, nullptr);
    ios_params_t p;
    ios_params_defaults(pol->nparams, pol->params, &p);
    int ties = pol->nparams - 1;
    ASSERT_STREQ(pol->params[ties].name, "ties") << name;
    p.v[ties] = 1.0;
    std::vector<double> r(3, -1.0);
    ASSERT_EQ(pol->share(pol->ctx, &v, &p, r.data()), IOS_OK);
    EXPECT_DOUBLE_EQ(r[0], 7.0) << name;
    EXPECT_DOUBLE_EQ(r[1], 3.0) << name;
    EXPECT_DOUBLE_EQ(r[2], 0.0) << name;
  }
}
