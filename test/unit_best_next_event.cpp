// Unit tests of the sharing policy `best-next-event` (RR-9502 §4.3 and Appendix A, BestNextEvent): hand-worked
// decisions, the §5 examples that apply to it (§5.1, §5.3, §5.6 Lemma 2, §5.7.3), an independent brute-force check
// of the best minimum yield at the next event, and the ios_policy.h contract on random views.
//
// Notation in the comments: one transfer per application, parts = 1, b = cap; P = progress (s), A = now − release
// (s), V = remaining, B = capacity. A rate r over [t, t+u] gives the yield (P + r·u/b) / (A + u) at t+u (Eq. 6).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "ios_policy.h"
#include "ios_rng.h"

namespace {

const ios_sharing_policy_t *bne() {
  return ios_sharing_find("best-next-event");
}

// A pending transfer of an application with progress P and age A at `now`, V left, cap (= b_i), posted at `posted`.
ios_transfer_view_t app(double P, double A, double V, double cap, double now, long seq, double posted = -1.0) {
  ios_transfer_view_t t{};
  t.app = (int)seq;
  t.cap = cap;
  t.remaining = V;
  t.posted = posted >= 0.0 ? posted : now;
  t.seq = seq;
  t.b = cap;
  t.parts = 1;
  t.release = now - A;
  t.progress = P;
  t.omega = NAN;
  t.nodes = 1;
  return t;
}

std::vector<double> share(const ios_sharing_policy_t *pol, double now, double capacity, double t_end,
                          const std::vector<ios_transfer_view_t> &t) {
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
  EXPECT_EQ(pol->share(pol->ctx, &v, &p, rates.data()), IOS_OK);
  return rates;
}

} // namespace

namespace {
// The date (after now) of the next predictable event under `rates`, and the minimum yield then.
struct NextEvent {
  double u, min_yield;
};
NextEvent next_event(const std::vector<ios_transfer_view_t> &t, const std::vector<double> &rates, double now,
                     double t_end) {
  double u = std::isfinite(t_end) ? t_end - now : INFINITY;
  for (size_t i = 0; i < t.size(); i++)
    if (rates[i] > 0.0) u = std::min(u, t[i].remaining / rates[i]);
  double y = INFINITY;
  for (size_t i = 0; i < t.size(); i++) {
    double age = now - t[i].release;
    y = std::min(y, (t[i].progress + rates[i] * u / t[i].b) / (age + u));
  }
  return {u, y};
}
} // namespace

// ================================================================================================ basic decisions
TEST(BestNextEvent, Registered) {
  ASSERT_NE(bne(), nullptr);
  EXPECT_STREQ(bne()->name, "best-next-event");
  EXPECT_EQ(bne()->uncapped, 0);
  EXPECT_EQ(bne()->periodic, 0);
}

TEST(BestNextEvent, AloneGetsItsCap) {
  // System: one pending transfer, B = 10. Expectations: min(cap, B) (Alg. 2 Step 3): cap 6 → 6; cap 25 → 10;
  // whatever its yield (P = 1, A = 50) and the window (T_end = now + 3 or none).
  const ios_sharing_policy_t *pol = bne();
  ASSERT_NE(pol, nullptr);
  EXPECT_DOUBLE_EQ(share(pol, 50.0, 10.0, INFINITY, {app(1.0, 50.0, 100.0, 6.0, 50.0, 0)})[0], 6.0);
  EXPECT_DOUBLE_EQ(share(pol, 50.0, 10.0, INFINITY, {app(1.0, 50.0, 100.0, 25.0, 50.0, 0)})[0], 10.0);
  EXPECT_DOUBLE_EQ(share(pol, 50.0, 10.0, 53.0, {app(1.0, 50.0, 100.0, 25.0, 50.0, 0)})[0], 10.0);
}

TEST(BestNextEvent, EveryoneAtCapWhenItFits) {
  // System: caps {3, 4, 3}, B = 10 (Σ = B), different yields. Expectations: the caps (preliminary remark, App. A).
  std::vector<double> r = share(
      bne(), 10.0, 10.0, INFINITY,
      {app(2.0, 10.0, 5.0, 3.0, 10.0, 0), app(10.0, 10.0, 50.0, 4.0, 10.0, 1), app(9.0, 10.0, 1.0, 3.0, 10.0, 2)});
  EXPECT_DOUBLE_EQ(r[0], 3.0);
  EXPECT_DOUBLE_EQ(r[1], 4.0);
  EXPECT_DOUBLE_EQ(r[2], 3.0);
}

TEST(BestNextEvent, SymmetricApplicationsShareEqually) {
  // System: two applications in the same state, P = A = 10 (yield 1), V = 1, b = B = 1, no window end.
  // If A_1 defines the event at t+u (u >= 1): y_1 = 11/(10+u), y_2 = (10 + (1 − 1/u)u)/(10+u) = (9+u)/(10+u);
  // the minimum is largest where they meet, u = 2 (Eq. 13 meets y_k: Step 12).
  // Expectations: rates {1/2, 1/2} (both complete at t+2 with yield 11/12).
  std::vector<ios_transfer_view_t> t = {app(10, 10, 1, 1, 10, 0), app(10, 10, 1, 1, 10, 1)};
  std::vector<double> r = share(bne(), 10.0, 1.0, INFINITY, t);
  EXPECT_NEAR(r[0], 0.5, 1e-9);
  EXPECT_NEAR(r[1], 0.5, 1e-9);
  NextEvent ev = next_event(t, r, 10.0, INFINITY);
  EXPECT_NEAR(ev.u, 2.0, 1e-8);
  EXPECT_NEAR(ev.min_yield, 11.0 / 12.0, 1e-9);
  // System: three such applications. A_1 defining the event at u: the two others share 1 − 1/u and each may take
  // at most V/u, so for u in [1, 3] y = (10 + (u − 1)/2)/(10+u), decreasing (Eq. 14 >= 0, Step 8): best at u = 1,
  // where A_1 has everything and the others keep 10/11 > 11/13 (the all-share date u = 3).
  // Expectations: not a fair share: {1, 0, 0} (the tie between the three k goes to the first posted).
  t.push_back(app(10, 10, 1, 1, 10, 2));
  r = share(bne(), 10.0, 1.0, INFINITY, t);
  EXPECT_NEAR(r[0], 1.0, 1e-9);
  EXPECT_NEAR(r[1], 0.0, 1e-9);
  EXPECT_NEAR(r[2], 0.0, 1e-9);
  EXPECT_NEAR(next_event(t, r, 10.0, INFINITY).min_yield, 10.0 / 11.0, 1e-9);
  // System: the two applications with a window end at now + 100 (far). Expectations: unchanged, {1/2, 1/2}: at the
  // window end each may get at most V/100 and the yields are only 11/110 (the window-end candidate loses).
  t.pop_back();
  r = share(bne(), 10.0, 1.0, 110.0, t);
  EXPECT_NEAR(r[0], 0.5, 1e-9);
  EXPECT_NEAR(r[1], 0.5, 1e-9);
}

TEST(BestNextEvent, LowYieldApplicationGetsPriority) {
  // System: B = b = 1, V = 10 each; A_1 has yield 1/2 (P = 5, A = 10), A_2 yield 1 (P = A = 10).
  // A_1 defines the event (u >= 10): y_1 = 15/(10+u); A_2 gets 1 − 10/u: y_2 = (10 + u − 10)/(10+u) = u/(10+u),
  // increasing (Eq. 14 < 0) until it meets y_1 at u = 15: min yield 15/25 = 0.6 (Step 12).
  // A_2 defines it: A_1 gets at most V/u, y_1 <= 15/(10+u) meets (u − 5)/(10+u) at u = 20: 0.5 < 0.6.
  // Expectations: rates {10/15, 5/15} = {2/3, 1/3} (FairShare would give 1/2 each), in either view order.
  std::vector<double> r = share(bne(), 10.0, 1.0, INFINITY, {app(5, 10, 10, 1, 10, 0), app(10, 10, 10, 1, 10, 1)});
  EXPECT_NEAR(r[0], 2.0 / 3.0, 1e-9);
  EXPECT_NEAR(r[1], 1.0 / 3.0, 1e-9);
  r = share(bne(), 10.0, 1.0, INFINITY, {app(10, 10, 10, 1, 10, 0), app(5, 10, 10, 1, 10, 1)});
  EXPECT_NEAR(r[0], 1.0 / 3.0, 1e-9);
  EXPECT_NEAR(r[1], 2.0 / 3.0, 1e-9);
}

TEST(BestNextEvent, ProgressNormalisedByBOverParts) {
  // System: the LowYield case with each operation split in 2 transfers (parts = 2, b = 2, cap = 1 on this resource):
  // a rate r moves the progress at 2r/2 = r per second, as before. A window end already past (T_end < now) counts
  // as no window. Expectations: the same rates {2/3, 1/3}.
  std::vector<ios_transfer_view_t> t = {app(5, 10, 10, 1, 10, 0), app(10, 10, 10, 1, 10, 1)};
  for (auto &x : t) {
    x.parts = 2;
    x.b = 2;
  }
  std::vector<double> r = share(bne(), 10.0, 1.0, 5.0, t);
  EXPECT_NEAR(r[0], 2.0 / 3.0, 1e-9);
  EXPECT_NEAR(r[1], 1.0 / 3.0, 1e-9);
}

TEST(BestNextEvent, ShortTransferOfALowYieldApplicationFinishesFirst) {
  // System: B = b = 1; A_1: P = 5, A = 10, V = 1 (short); A_2: P = A = 10, V = 10.
  // A_1 defines the event at u >= 1: y_1 = 6/(10+u) is already the minimum at u = 1 (y_2 >= 10/11) and decreases:
  // best at u = 1 (Steps 14–15), min yield 6/11. A_2 defining it (u >= 10) leaves y_1 <= 6/20.
  // Expectations: rates {1, 0}: the short transfer runs alone and completes at t+1.
  std::vector<ios_transfer_view_t> t = {app(5, 10, 1, 1, 10, 0), app(10, 10, 10, 1, 10, 1)};
  std::vector<double> r = share(bne(), 10.0, 1.0, INFINITY, t);
  EXPECT_NEAR(r[0], 1.0, 1e-9);
  EXPECT_NEAR(r[1], 0.0, 1e-9);
  EXPECT_NEAR(next_event(t, r, 10.0, INFINITY).min_yield, 6.0 / 11.0, 1e-9);
}

TEST(BestNextEvent, ShortTransferDefinesTheEventWhereYieldsMeet) {
  // System: B = b = 1; A_1: P = A = 10, V = 1 (short); A_2: P = 8, A = 10, V = 10.
  // A_1 defines the event at u >= 1: y_1 = 11/(10+u), y_2 = (8 + u − 1)/(10+u) = (7+u)/(10+u), meeting at u = 4:
  // min yield 11/14. A_2 defining it (u >= 10): A_1 reaches its cap V/u (y_1 = 11/(10+u)) at u = 11: 11/21 < 11/14.
  // Expectations: rates {V_1/4, 1 − V_1/4} = {1/4, 3/4}; the next event is A_1's completion at t+4, y = 11/14.
  std::vector<ios_transfer_view_t> t = {app(10, 10, 1, 1, 10, 0), app(8, 10, 10, 1, 10, 1)};
  std::vector<double> r = share(bne(), 10.0, 1.0, INFINITY, t);
  EXPECT_NEAR(r[0], 0.25, 1e-9);
  EXPECT_NEAR(r[1], 0.75, 1e-9);
  NextEvent ev = next_event(t, r, 10.0, INFINITY);
  EXPECT_NEAR(ev.u, 4.0, 1e-7);
  EXPECT_NEAR(ev.min_yield, 11.0 / 14.0, 1e-9);
}

TEST(BestNextEvent, CapOfAnotherApplicationBindsTheWalk) {
  // System: B = 1; A_1: P = A = 10, V = 1, cap 1; A_2: P = 8, A = 10, V = 10, cap 0.5 (b_2 = 0.5).
  // A_1 defines the event at u: A_2 may get only 0.5, y_2 <= (8 + 0.5u/0.5)/(10+u) = (8+u)/(10+u); with the rest
  // 1 − 1/u >= 0.5 for u >= 2, A_2 is cap-bound (y^UB achievable, Steps 17–25) and its yield meets y_1 = 11/(10+u)
  // at u = 3 (min 11/13); for u in [1, 2] Eq. 13 is (8 + 2(u − 1))/(10+u) < y_1, increasing up to the cap at u = 2.
  // A_2 defining the event (u >= 20) leaves y_1 <= 11/30. Expectations: rates {V_1/3, 1/2} = {1/3, 1/2}, next event
  // t+3, min yield 11/13. B/6 stays unused (Alg. 3 ends with RB > 0, its "Error" case): giving it to A_1 would end
  // A_1 at t+2 with y_2 = 10/12 < 11/13.
  std::vector<ios_transfer_view_t> t = {app(10, 10, 1, 1, 10, 0), app(8, 10, 10, 0.5, 10, 1)};
  std::vector<double> r = share(bne(), 10.0, 1.0, INFINITY, t);
  EXPECT_NEAR(r[0], 1.0 / 3.0, 1e-9);
  EXPECT_NEAR(r[1], 0.5, 1e-9);
  NextEvent ev = next_event(t, r, 10.0, INFINITY);
  EXPECT_NEAR(ev.u, 3.0, 1e-7);
  EXPECT_NEAR(ev.min_yield, 11.0 / 13.0, 1e-9);
}

// ================================================================================================ §5 examples
TEST(BestNextEvent, Example1FreshApplicationCatchesUp) {
  // System (§5.1, m = 4, T = 100): window [T, T+1]; A_1..A_3 released at 0 with yield 1 (P = A = 100); A_4 released
  // at T (P = A = 0); all b_i = B = 1 and post V = 1 at T. Every e_i = 1 = T_end − t, so D holds the window end
  // only (Alg. 2), where the max-min yield gives everyone the same yield x: A_4 gets x, the others (1 − x)/3 each with
  // (100 + (1 − x)/3)/101 = x, x = 301/304 (> T/(T+1) of the paper's "all to A_4" schedule; FairShare: 1/4).
  // Expectations: rates {1/304, 1/304, 1/304, 301/304}; the minimum yield at T_end is 301/304.
  std::vector<ios_transfer_view_t> t = {app(100, 100, 1, 1, 100, 0), app(100, 100, 1, 1, 100, 1),
                                        app(100, 100, 1, 1, 100, 2), app(0, 0, 1, 1, 100, 3)};
  std::vector<double> r = share(bne(), 100.0, 1.0, 101.0, t);
  for (int i = 0; i < 3; i++)
    EXPECT_NEAR(r[i], 1.0 / 304.0, 1e-12);
  EXPECT_NEAR(r[3], 301.0 / 304.0, 1e-12);
  NextEvent ev = next_event(t, r, 100.0, 101.0);
  EXPECT_NEAR(ev.u, 1.0, 1e-12);
  EXPECT_NEAR(ev.min_yield, 301.0 / 304.0, 1e-12);
  EXPECT_GT(ev.min_yield, 100.0 / 101.0);
}

TEST(BestNextEvent, Example3LowYieldApplicationTakesEverything) {
  // System (§5.3, m = 5, ε = 0.01): window [1, 2]; all released at 0, b_i = B = 1; A_1..A_4 have yield 1 (P = A = 1)
  // and V = ε/m; A_5 has yield 0 (P = 0, A = 1) and V = 1.
  // As in the paper, BestNextEvent gives the whole bandwidth to the last application: any completion of a short
  // transfer at t+u leaves y_5 <= (u − ε/m)/(1+u) < 1/2, while giving A_5 everything up to T_end makes every yield 1/2.
  // Expectations: rates {0, 0, 0, 0, 1}.
  std::vector<ios_transfer_view_t> t;
  for (int i = 0; i < 4; i++)
    t.push_back(app(1, 1, 0.01 / 5, 1, 1, i));
  t.push_back(app(0, 1, 1, 1, 1, 4));
  std::vector<double> r = share(bne(), 1.0, 1.0, 2.0, t);
  for (int i = 0; i < 4; i++)
    EXPECT_NEAR(r[i], 0.0, 1e-12);
  EXPECT_NEAR(r[4], 1.0, 1e-12);
}

namespace {
// §5.6 Example 6 with m applications: window [m, m²/2 − 2m + 2], all released at 0 with yield 1 at T_begin, b = B = 1.
// A_1 (index 0) cycles I/O 1/m, work ε/m³; the others do I/O 1 + ε, then work m².
struct Ex6App {
  std::vector<double> phases; // alternating I/O volume (even index) and work length (odd index), from the window start
  size_t ph = 0;
  double left = 0, progress = 0, posted = 0;
  long seq = 0;
  bool cycles = false;
  bool io() const { return ph % 2 == 0; }
};

// Runs the window with either best-next-event or FairShare (each pending I/O gets B/n) and returns the minimum yield
// at T_end; *decisions counts the sharing decisions.
double run_example6(int m, double eps, bool use_bne, long *decisions) {
  double t = m, t_end = m * m / 2.0 - 2.0 * m + 2.0;
  std::vector<Ex6App> a(m);
  long seq = 0;
  for (int i = 0; i < m; i++) {
    a[i].cycles = i == 0;
    a[i].phases =
        i == 0 ? std::vector<double>{1.0 / m, eps / (m * (double)m * m)} : std::vector<double>{1 + eps, m * (double)m};
    a[i].left = a[i].phases[0];
    a[i].progress = m;
    a[i].posted = t;
    a[i].seq = seq++;
  }
  *decisions = 0;
  while (t < t_end * (1 - 1e-12)) {
    std::vector<ios_transfer_view_t> v;
    std::vector<int> who;
    for (int i = 0; i < m; i++)
      if (a[i].io() && a[i].ph < a[i].phases.size()) {
        ios_transfer_view_t x = app(a[i].progress, t, a[i].left, 1.0, t, a[i].seq, a[i].posted);
        v.push_back(x);
        who.push_back(i);
      }
    std::vector<double> r(v.size(), 0.0);
    if (!v.empty()) {
      if (use_bne)
        r = share(bne(), t, 1.0, t_end, v);
      else
        std::fill(r.begin(), r.end(), 1.0 / (double)v.size());
      ++*decisions;
    }
    std::vector<double> rate(m, 0.0);
    for (size_t j = 0; j < v.size(); j++)
      rate[who[j]] = r[j];
    double dt = t_end - t;
    for (int i = 0; i < m; i++) {
      if (a[i].ph >= a[i].phases.size()) continue;
      if (!a[i].io())
        dt = std::min(dt, a[i].left);
      else if (rate[i] > 0)
        dt = std::min(dt, a[i].left / rate[i]);
    }
    t += dt;
    for (int i = 0; i < m; i++) {
      Ex6App &x = a[i];
      if (x.ph >= x.phases.size()) continue;
      double moved = x.io() ? rate[i] * dt : dt;
      x.left -= moved;
      x.progress += moved;
      if (x.left <= 1e-12 * x.phases[x.ph]) {
        x.progress += x.left; // the rounding residue
        x.ph++;
        if (x.cycles && x.ph == x.phases.size()) x.ph = 0;
        if (x.ph < x.phases.size()) {
          x.left = x.phases[x.ph];
          if (x.io()) {
            x.posted = t;
            x.seq = seq++;
          }
        }
      }
    }
  }
  double y = INFINITY;
  for (int i = 0; i < m; i++)
    y = std::min(y, a[i].progress / t_end);
  return y;
}
} // namespace

TEST(BestNextEvent, Example6Lemma2Decisions) {
  // System (§5.6, m = 12, ε = 1e-3, Lemma 2): at T_begin = m every application posts its I/O with yield 1 (P = A = m).
  // Event 1 (Case 1.2): A_1 (V = 1/m) gets the whole bandwidth.
  // Event 2, t = m + 1/m, A_1 working (Case 2.2, k = 1): the whole bandwidth to one of A_2..A_m — all tie; ours is
  // the first in posting order.
  // Event 3, t + ε/m³: A_1 posts again (yield 1) and gets everything (Case 1.2); A_2 has moved ε/m³.
  // Event 4, A_1 working again: the whole bandwidth to A_2 (Case 2.2.1, strictly better than any other), even when
  // it is not first in posting order.
  const int m = 12;
  const double eps = 1e-3, w = eps / (m * m * m);
  double t = m, t_end = m * m / 2.0 - 2.0 * m + 2.0;
  std::vector<ios_transfer_view_t> v;
  v.push_back(app(m, t, 1.0 / m, 1, t, 0));
  for (int i = 1; i < m; i++)
    v.push_back(app(m, t, 1 + eps, 1, t, i));
  std::vector<double> r = share(bne(), t, 1.0, t_end, v);
  EXPECT_NEAR(r[0], 1.0, 1e-9) << "event 1";
  for (int i = 1; i < m; i++)
    EXPECT_NEAR(r[i], 0.0, 1e-9) << "event 1, A_" << i + 1;

  t = m + 1.0 / m;
  v.clear();
  for (int i = 1; i < m; i++)
    v.push_back(app(m, t, 1 + eps, 1, t, i, m));
  r = share(bne(), t, 1.0, t_end, v);
  EXPECT_NEAR(r[0], 1.0, 1e-9) << "event 2";
  for (int i = 1; i < m - 1; i++)
    EXPECT_NEAR(r[i], 0.0, 1e-9) << "event 2, A_" << i + 2;

  t += w;
  v.clear();
  v.push_back(app(t, t, 1.0 / m, 1, t, m)); // A_1, yield 1
  for (int i = 1; i < m; i++)
    v.push_back(app(i == 1 ? m + w : m, t, i == 1 ? 1 + eps - w : 1 + eps, 1, t, i, m));
  r = share(bne(), t, 1.0, t_end, v);
  EXPECT_NEAR(r[0], 1.0, 1e-9) << "event 3";
  for (int i = 1; i < m; i++)
    EXPECT_NEAR(r[i], 0.0, 1e-9) << "event 3, A_" << i + 1;

  t += 1.0 / m;
  v.clear();
  for (int i = m - 1; i >= 1; i--) // A_2 last in the view and in posting order
    v.push_back(app(i == 1 ? m + w : m, t, i == 1 ? 1 + eps - w : 1 + eps, 1, t, i == 1 ? 100 : i, m));
  r = share(bne(), t, 1.0, t_end, v);
  EXPECT_NEAR(r[m - 2], 1.0, 1e-9) << "event 4: A_2";
  for (int i = 0; i < m - 2; i++)
    EXPECT_NEAR(r[i], 0.0, 1e-9) << "event 4";
}

TEST(BestNextEvent, Example6FairShareArbitrarilyBetter) {
  // System (§5.6 and §5.7.3, m = 14, ε = 1e-3): the whole window [14, 72], simulated with exact event dates.
  // Expectations: BestNextEvent starves A_3..A_m (Lemma 2): its MinYield at T_end is at most
  // 2(m+2)/(m−2)² = 32/144; FairShare's is at least (m²/2 − 5m)/(m²/2 − 2m + 2) = 28/72.
  const int m = 14;
  long nb = 0, nf = 0;
  double yb = run_example6(m, 1e-3, true, &nb), yf = run_example6(m, 1e-3, false, &nf);
  EXPECT_LE(yb, 2.0 * (m + 2) / ((m - 2.0) * (m - 2.0)));
  EXPECT_GE(yf, (m * m / 2.0 - 5.0 * m) / (m * m / 2.0 - 2.0 * m + 2.0));
  EXPECT_GT(yf, 1.5 * yb);
  EXPECT_GT(nb, 1000); // A_1's ~ (72 − 14)·m cycles, two events each
}

// ================================================================================================ brute force
namespace {
// Independent of the policy: the best minimum yield at t+u when transfer k (or nobody, k < 0) completes at t+u and
// no other transfer completes before, by bisection on the level y.
double brute_f(const std::vector<ios_transfer_view_t> &t, double now, double B, int k, double u) {
  double RB = B, hi = INFINITY;
  auto ymax = [&](size_t i, double r) { return (t[i].progress + r * u / t[i].b) / (now - t[i].release + u); };
  if (k >= 0) {
    RB -= t[k].remaining / u;
    hi = ymax(k, t[k].remaining / u);
  }
  if (RB < 0) return -INFINITY;
  for (size_t i = 0; i < t.size(); i++)
    if ((int)i != k) hi = std::min(hi, ymax(i, std::min(t[i].cap, t[i].remaining / u)));
  auto need = [&](double y) {
    double s = 0;
    for (size_t i = 0; i < t.size(); i++)
      if ((int)i != k) s += std::max(0.0, t[i].b * (y * (now - t[i].release + u) - t[i].progress) / u);
    return s;
  };
  if (need(hi) <= RB) return hi;
  double lo = 0;
  for (int it = 0; it < 100; it++) {
    double mid = 0.5 * (lo + hi);
    (need(mid) <= RB ? lo : hi) = mid;
  }
  return lo;
}
} // namespace

TEST(BestNextEvent, MatchesABruteForceSearchOfTheNextEvent) {
  // System: 200 random views (seeded) of 2..5 transfers, B = 1, caps in [0.2, 1], P/A in [0, 1], V in [0.05, 5],
  // a window end now + [1, 20] or none. Brute force: for every k and 1500 dates u in [e_k, H] (geometric, plus every
  // e_i), the best minimum yield at t+u by bisection; with a window end, also the end itself.
  // Expectations: the minimum yield at the next event that the policy's rates lead to is at least the brute-force
  // best (− 1e-7): MinYieldInInterval's walk finds the true maximum of each f_k.
  ios_rng_t rng;
  ios_rng_seed(&rng, 9502, 3);
  for (int trial = 0; trial < 200; trial++) {
    int n = 2 + (int)ios_rng_below(&rng, 4);
    double now = 100.0;
    std::vector<ios_transfer_view_t> t;
    for (int i = 0; i < n; i++) {
      double A = 10 + 90 * ios_rng_uniform(&rng);
      double cap = 0.2 + 0.8 * ios_rng_uniform(&rng);
      t.push_back(app(A * ios_rng_uniform(&rng), A, 0.05 + 5 * ios_rng_uniform(&rng), cap, now, i));
    }
    double t_end = ios_rng_below(&rng, 2) ? now + 1 + 19 * ios_rng_uniform(&rng) : INFINITY;
    double H = t_end - now;
    double best = -INFINITY;
    if (std::isfinite(H)) best = brute_f(t, now, 1.0, -1, H);
    double sumcap = 0;
    for (auto &x : t)
      sumcap += x.cap;
    if (sumcap <= 1.0) continue;
    for (int k = 0; k < n; k++) {
      double ek = t[k].remaining / t[k].cap, top = std::isfinite(H) ? H : 50.0 * ek + 200.0;
      if (ek > top) continue;
      std::vector<double> us;
      for (int j = 0; j <= 1500; j++)
        us.push_back(ek * std::pow(top / ek, j / 1500.0));
      for (auto &x : t)
        if (x.remaining / x.cap >= ek && x.remaining / x.cap <= top) us.push_back(x.remaining / x.cap);
      for (double u : us)
        best = std::max(best, brute_f(t, now, 1.0, k, u));
    }
    std::vector<double> r = share(bne(), now, 1.0, t_end, t);
    NextEvent ev = next_event(t, r, now, t_end);
    EXPECT_GE(ev.min_yield, best - 1e-7) << "trial " << trial;
  }
}

// ================================================================================================ contract
TEST(BestNextEvent, RatesWithinCapsAndCapacityOnRandomViews) {
  // System: 400 random views (seeded): 1..24 transfers, B in [1e3, 1e11) bytes/s, caps 0 (some) to 3·B, b and parts
  // (1..4) unrelated to the cap, progress in [0, 1.2·age], releases before, at and after now, remaining 0 (some) to
  // 1e12 bytes, window end none, past, or ahead. Expectations (ios_policy.h): IOS_OK; every rate finite, in
  // [0, cap]; the sum <= B (relative 1e-12).
  ios_rng_t rng;
  ios_rng_seed(&rng, 20240601, 77);
  for (int trial = 0; trial < 400; trial++) {
    int n = 1 + (int)ios_rng_below(&rng, 24);
    double B = 1e3 * std::pow(10.0, 8.0 * ios_rng_uniform(&rng)), now = 1000.0;
    std::vector<ios_transfer_view_t> t;
    for (int i = 0; i < n; i++) {
      double cap = ios_rng_below(&rng, 8) == 0 ? 0.0 : 3.0 * B * ios_rng_uniform(&rng);
      double age = ios_rng_below(&rng, 10) == 0 ? 0.0 : 1000.0 * ios_rng_uniform(&rng);
      double V = ios_rng_below(&rng, 10) == 0 ? 0.0 : 1.0 + 1e12 * ios_rng_uniform(&rng);
      ios_transfer_view_t x = app(1.2 * age * ios_rng_uniform(&rng), age, V, cap, now, (long)ios_rng_below(&rng, 5),
                                  (double)ios_rng_below(&rng, 3));
      x.parts = 1 + (int)ios_rng_below(&rng, 4);
      x.b = B * (0.1 + 3.0 * ios_rng_uniform(&rng));
      t.push_back(x);
    }
    int w = (int)ios_rng_below(&rng, 3);
    double t_end = w == 0 ? INFINITY : (w == 1 ? now - 5.0 : now + 1e4 * ios_rng_uniform(&rng));
    std::vector<double> r = share(bne(), now, B, t_end, t);
    double sum = 0;
    for (int i = 0; i < n; i++) {
      EXPECT_TRUE(std::isfinite(r[i])) << "trial " << trial;
      EXPECT_GE(r[i], 0.0) << "trial " << trial;
      EXPECT_LE(r[i], t[i].cap * (1 + 1e-12)) << "trial " << trial;
      sum += r[i];
    }
    EXPECT_LE(sum, B * (1 + 1e-12)) << "trial " << trial;
  }
}

TEST(BestNextEvent, DeterministicAndPure) {
  // System: the LowYield view, asked twice and then with an unrelated view in between.
  // Expectations: identical rates every time (no state between calls).
  std::vector<ios_transfer_view_t> t = {app(5, 10, 10, 1, 10, 0), app(10, 10, 10, 1, 10, 1)};
  std::vector<double> a = share(bne(), 10.0, 1.0, INFINITY, t);
  share(bne(), 3.0, 7.0, 50.0, {app(1, 3, 5, 2, 3, 0), app(2, 3, 9, 6, 3, 1), app(0, 0, 1, 7, 3, 2)});
  std::vector<double> b = share(bne(), 10.0, 1.0, INFINITY, t);
  EXPECT_EQ(a, b);
}

TEST(BestNextEvent, RejectsBadArguments) {
  // Expectations: IOS_EINVAL for a NULL view or output, or a negative count; IOS_OK and nothing written for 0.
  const ios_sharing_policy_t *pol = bne();
  ios_params_t p;
  ios_params_defaults(pol->nparams, pol->params, &p);
  ios_share_view_t v{};
  double r = -1;
  EXPECT_EQ(pol->share(pol->ctx, nullptr, &p, &r), IOS_EINVAL);
  EXPECT_EQ(pol->share(pol->ctx, &v, &p, nullptr), IOS_EINVAL);
  v.ntransfers = -1;
  EXPECT_EQ(pol->share(pol->ctx, &v, &p, &r), IOS_EINVAL);
  v.ntransfers = 0;
  EXPECT_EQ(pol->share(pol->ctx, &v, &p, &r), IOS_OK);
  EXPECT_EQ(r, -1);
}
