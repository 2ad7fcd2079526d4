// Unit tests of the weighted max-min solve and the fluid completion of a set of flows (src/model/ios_maxmin.h), the
// solve behind each job's reference bandwidth b_i (docs/outputs.md). Every expected value is computed by hand in the
// comments.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ios_errors.h"
#include "ios_maxmin.h"

namespace {

// A system built flow by flow: each flow its cap, weight and constraints.
struct System {
  std::vector<double> capacity, cap, weight;
  std::vector<int> start{0}, cons;
  void flow(double c, double w, std::vector<int> on) {
    cap.push_back(c);
    weight.push_back(w);
    cons.insert(cons.end(), on.begin(), on.end());
    start.push_back((int)cons.size());
  }
  ios_maxmin_t view() const {
    return ios_maxmin_t{(int)cap.size(), (int)capacity.size(), capacity.data(), start.data(),
                        cons.data(),     cap.data(),           weight.data()};
  }
  std::vector<double> rates() const {
    std::vector<double> r(cap.size(), -1);
    ios_maxmin_t m = view();
    EXPECT_EQ(ios_maxmin_rates(&m, nullptr, r.data()), IOS_OK);
    return r;
  }
};

} // namespace

// Two flows on one link of 10: 5 each; with weights 0.5 and 1 on a link of 9: 3 and 6 (the weighted level 6).
TEST(maxmin, OneLinkSharedByWeight) {
  System s;
  s.capacity = {10};
  s.flow(INFINITY, 1, {0});
  s.flow(INFINITY, 1, {0});
  auto r = s.rates();
  EXPECT_DOUBLE_EQ(r[0], 5);
  EXPECT_DOUBLE_EQ(r[1], 5);
  System w;
  w.capacity = {9};
  w.flow(INFINITY, 0.5, {0});
  w.flow(INFINITY, 1, {0});
  r = w.rates();
  EXPECT_DOUBLE_EQ(r[0], 3);
  EXPECT_DOUBLE_EQ(r[1], 6);
}

// A flow capped at 2 beside an uncapped one on a link of 10: 2 and the rest, 8.
TEST(maxmin, ACapLeavesTheRestToTheOthers) {
  System s;
  s.capacity = {10};
  s.flow(2, 1, {0});
  s.flow(INFINITY, 1, {0});
  auto r = s.rates();
  EXPECT_DOUBLE_EQ(r[0], 2);
  EXPECT_DOUBLE_EQ(r[1], 8);
}

// Link A (10) carries flows 0 and 1, link B (4) flows 1 and 2: B binds first at level 2 (flows 1 and 2 get 2 each),
// then flow 0 takes what is left of A, 8.
TEST(maxmin, TheNarrowestSharedLinkBindsFirst) {
  System s;
  s.capacity = {10, 4};
  s.flow(INFINITY, 1, {0});
  s.flow(INFINITY, 1, {0, 1});
  s.flow(INFINITY, 1, {1});
  auto r = s.rates();
  EXPECT_DOUBLE_EQ(r[0], 8);
  EXPECT_DOUBLE_EQ(r[1], 2);
  EXPECT_DOUBLE_EQ(r[2], 2);
}

// A job's imbalanced layout alone: two OSTs of 1.5 behind a core of 2, 3 bytes on one, 1 on the other. Both move at 1
// (the core's fair share, under the OSTs' 1.5) until the small one ends at t = 1; then the other alone at its OST's
// 1.5 for its last 2 bytes: 4/3 s more, 7/3 s in all. Balanced (2 and 2): 2 s, at the core's 2.
TEST(maxmin, AnImbalancedLayoutEndsWithItsLongestPart) {
  System s;
  s.capacity = {2, 1.5, 1.5};
  s.flow(INFINITY, 1, {0, 1});
  s.flow(INFINITY, 1, {0, 2});
  ios_maxmin_t m = s.view();
  double bytes[2] = {3, 1}, end[2], t = -1;
  ASSERT_EQ(ios_maxmin_makespan(&m, bytes, &t, end), IOS_OK);
  EXPECT_NEAR(t, 7.0 / 3.0, 1e-12);
  EXPECT_NEAR(end[1], 1.0, 1e-12);
  double even[2] = {2, 2};
  ASSERT_EQ(ios_maxmin_makespan(&m, even, &t, nullptr), IOS_OK);
  EXPECT_NEAR(t, 2.0, 1e-12);
}

// A flow with bytes and nothing to move them (cap 0) never ends; no flow at all takes 0 s; a constraint index out of
// range is refused.
TEST(maxmin, NoRateNoEndAndBadSystems) {
  System s;
  s.capacity = {1};
  s.flow(0, 1, {0});
  ios_maxmin_t m = s.view();
  double bytes[1] = {1}, t = -1;
  ASSERT_EQ(ios_maxmin_makespan(&m, bytes, &t, nullptr), IOS_OK);
  EXPECT_TRUE(std::isinf(t));
  System none;
  m = none.view();
  ASSERT_EQ(ios_maxmin_makespan(&m, nullptr, &t, nullptr), IOS_OK);
  EXPECT_EQ(t, 0);
  System bad;
  bad.capacity = {1};
  bad.flow(1, 1, {3});
  m = bad.view();
  double r[1];
  EXPECT_EQ(ios_maxmin_rates(&m, nullptr, r), IOS_EINVAL);
}

// Weights 0.1 and 0.2 filling two links of 1 at once (level 1 / 0.3: rates 1/3 and 2/3), and a third flow alone on a
// link of 5 (rate 5). Once the first two freeze, 0.1 + 0.2 - 0.1 - 0.2 is 5.6e-17, not 0: a solve that subtracts
// the frozen weights sees the second link, with nothing left of it, still filled by that residue and binds it at
// d = 0 for ever (the racked node groups' 1/3 weights hung a run so); summed anew, the third flow fills its link.
TEST(maxmin, FrozenWeightsLeaveNoResidue) {
  System s;
  s.capacity = {1, 1, 5};
  s.flow(INFINITY, 0.1, {0, 1});
  s.flow(INFINITY, 0.2, {0, 1});
  s.flow(INFINITY, 1, {2});
  auto r = s.rates();
  EXPECT_NEAR(r[0], 1.0 / 3, 1e-12);
  EXPECT_NEAR(r[1], 2.0 / 3, 1e-12);
  EXPECT_NEAR(r[2], 5, 1e-12);
}
