// Unit tests of the policy layer (policies/ios_policy.h): bandwidth profiles and I/O-Stress (RR-9549 §3.2),
// allocation (RR-9549 §4.1), placement (RR-9549 §4.2), bandwidth sharing (RR-9502 §4.1), the registry, and
// invariants checked on random snapshots for every registered policy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ios_policy.h"
#include "ios_rng.h"

namespace {

ios_profile_t profile(std::initializer_list<std::pair<int, double>> points) {
  ios_profile_t p{};
  for (const auto &pt : points) {
    p.n[p.npoints] = pt.first;
    p.bw[p.npoints] = pt.second;
    p.npoints++;
  }
  return p;
}

ios_app_view_t app(int nodes, const ios_profile_t *prof, int requested_n = -1, double volume = 1e9,
                   double work = 100.0) {
  ios_app_view_t a{};
  a.nodes = nodes;
  a.volume = volume;
  a.work = work;
  a.profile = prof;
  a.requested_n = requested_n;
  return a;
}

struct Pool {
  std::vector<ios_app_view_t> apps;
  std::vector<double> caps;
  ios_pool_view_t view{};
  Pool(std::vector<ios_app_view_t> a, int nres, int total_nodes, double cap = 1e9)
      : apps(std::move(a)), caps(nres, cap) {
    view.napps = (int)apps.size();
    view.apps = apps.data();
    view.nres = nres;
    view.res_capacity = caps.data();
    view.total_nodes = total_nodes;
  }
};

ios_transfer_view_t transfer(double cap, double posted = 0.0, long seq = 0, int app_index = 0, double remaining = 1e9) {
  ios_transfer_view_t t{};
  t.app = app_index;
  t.cap = cap;
  t.remaining = remaining;
  t.posted = posted;
  t.seq = seq;
  return t;
}

// The rates `pol` gives on one resource of capacity `capacity`, with its default parameters, the first of them
// replaced by `param0` when given.
std::vector<double> share(const ios_sharing_policy_t *pol, double capacity, const std::vector<ios_transfer_view_t> &t,
                          const double *param0 = nullptr) {
  ios_share_view_t v{};
  v.now = 10.0;
  v.capacity = capacity;
  v.ntransfers = (int)t.size();
  v.t = t.data();
  ios_params_t p;
  ios_params_defaults(pol->nparams, pol->params, &p);
  if (param0 != nullptr) p.v[0] = *param0;
  std::vector<double> rates(t.size(), -1.0);
  EXPECT_EQ(pol->share(pol->ctx, &v, &p, rates.data()), IOS_OK);
  return rates;
}

std::vector<int> place(const ios_placement_policy_t *pol, const Pool &pool, const std::vector<int> &n, ios_rng_t *rng,
                       int *rc_out = nullptr) {
  int total = 0;
  for (int x : n)
    total += x;
  ios_params_t p;
  ios_params_defaults(pol->nparams, pol->params, &p);
  std::vector<int> res(total + 1, -7);
  int rc = pol->place(&pool.view, n.data(), &p, rng, res.data());
  if (rc_out != nullptr)
    *rc_out = rc;
  else
    EXPECT_EQ(rc, IOS_OK);
  EXPECT_EQ(res[total], -7) << "placement wrote past the end of res_out";
  res.pop_back();
  return res;
}

std::string sanitize(const char *name) {
  std::string s(name);
  for (char &c : s)
    if (!isalnum((unsigned char)c)) c = '_';
  return s;
}

} // namespace

// ================================================================================================ profiles
TEST(ProfileBw, ExactPoints) {
  // System: b(1) = 100, b(4) = 400, b(8) = 500. Expectations: the points' own values at n = 1, 4, 8.
  ios_profile_t p = profile({{1, 100}, {4, 400}, {8, 500}});
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 1), 100.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 4), 400.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 8), 500.0);
}

TEST(ProfileBw, LinearInterpolationBetweenPoints) {
  // System: b(1) = 100, b(4) = 400, b(8) = 500.
  // Expectations: b(2) = 100 + (1/3)·300 = 200; b(3) = 300; b(5) = 400 + (1/4)·100 = 425; b(6) = 450; b(7) = 475.
  ios_profile_t p = profile({{1, 100}, {4, 400}, {8, 500}});
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 2), 200.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 3), 300.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 5), 425.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 6), 450.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 7), 475.0);
}

TEST(ProfileBw, DecreasingSegment) {
  // System: b(2) = 900, b(5) = 300 (more resources, less bandwidth). Expectations: b(3) = 900 - (1/3)·600 = 700,
  // b(4) = 500.
  ios_profile_t p = profile({{2, 900}, {5, 300}});
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 3), 700.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 4), 500.0);
}

TEST(ProfileBw, BeyondLastAndBelowFirstPoint) {
  // System: b(2) = 100, b(4) = 400.
  // Expectations: beyond the last point the last value, b(5) = b(100) = 400; below the first point (n >= 1) the
  // first value, b(1) = 100.
  ios_profile_t p = profile({{2, 100}, {4, 400}});
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 5), 400.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 100), 400.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 1), 100.0);
}

TEST(ProfileBw, SinglePoint) {
  // System: b(1) = 250 only. Expectations: b(n) = 250 for every n >= 1; b(0) = 0 (no 0 point).
  ios_profile_t p = profile({{1, 250}});
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 1), 250.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 7), 250.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 0), 0.0);
}

TEST(ProfileBw, ZeroWithoutAZeroPoint) {
  // System: b(1) = 100, b(4) = 400, no n = 0 point. Expectations: b(0) = 0 (cannot bypass the resources).
  ios_profile_t p = profile({{1, 100}, {4, 400}});
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 0), 0.0);
}

TEST(ProfileBw, ZeroPointIsOnlyUsedForZero) {
  // System: b(0) = 50 (direct PFS access), b(2) = 200, b(6) = 300.
  // Expectations: b(0) = 50; n >= 1 interpolates among the n >= 1 points only, so b(1) is below the first such point
  // and equals b(2) = 200 (not 125, the 0..2 interpolation); b(4) = 200 + (2/4)·100 = 250; b(9) = 300.
  ios_profile_t p = profile({{0, 50}, {2, 200}, {6, 300}});
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 0), 50.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 1), 200.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 2), 200.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 4), 250.0);
  EXPECT_DOUBLE_EQ(ios_profile_bw(&p, 9), 300.0);
}

TEST(ProfileNperf, ArgmaxOfThePoints) {
  // System: b(1) = 100, b(4) = 400, b(8) = 300, nmax = 16.
  // Expectations: interpolation is linear, so the maximum 400 is at the point n = 4.
  ios_profile_t p = profile({{1, 100}, {4, 400}, {8, 300}});
  EXPECT_EQ(ios_profile_nperf(&p, 16), 4);
}

TEST(ProfileNperf, SmallestOnTies) {
  // System: b(1) = 100, b(2) = 300, b(4) = 300, b(6) = 200: b(2) = b(3) = b(4) = 300 is the maximum.
  // Expectations: the smallest maximiser, 2.
  ios_profile_t p = profile({{1, 100}, {2, 300}, {4, 300}, {6, 200}});
  EXPECT_EQ(ios_profile_nperf(&p, 16), 2);
  // System: b(1) = 100, b(3) = 300 then flat: b(n) = 300 for every n >= 3. Expectations: 3.
  ios_profile_t q = profile({{1, 100}, {3, 300}});
  EXPECT_EQ(ios_profile_nperf(&q, 10), 3);
  // System: b(2) = 100, b(4) = 50: b(1) = b(2) = 100 (below the first point). Expectations: 1.
  ios_profile_t r = profile({{2, 100}, {4, 50}});
  EXPECT_EQ(ios_profile_nperf(&r, 10), 1);
}

TEST(ProfileNperf, ZeroIsNotACandidate) {
  // System: b(0) = 1000 (direct access is fastest), b(1) = 100, b(2) = 200. Expectations: n_perf in 1..nmax: 2.
  ios_profile_t p = profile({{0, 1000}, {1, 100}, {2, 200}});
  EXPECT_EQ(ios_profile_nperf(&p, 8), 2);
}

TEST(ProfileNperf, NmaxLimitOnAPoint) {
  // System: b(1) = 100, b(4) = 400, b(8) = 800, nmax = 4.
  // Expectations: the candidates are 1..4; b is increasing there, so 4 (the point 8 is out of reach).
  ios_profile_t p = profile({{1, 100}, {4, 400}, {8, 800}});
  EXPECT_EQ(ios_profile_nperf(&p, 4), 4);
  EXPECT_EQ(ios_profile_nperf(&p, 1), 1);
}

TEST(ProfileNperf, NmaxLimitBetweenPoints) {
  // System: b(1) = 100, b(4) = 400, b(8) = 800, nmax = 6 (RR-9549 Eq. 1: n_perf = argmax over the available
  // counts of b_j(n), where b_j is ios_profile_bw).
  // Expectations: b(5) = 500 and b(6) = 400 + (2/4)·400 = 600 are in 1..6 and exceed b(4) = 400, so n_perf = 6.
  // Same with nmax = 3: b(3) = 300 > b(1) = 100, so n_perf = 3. (Answering 4 resp. 1 would make an application
  // given n_perf resources slower than one given nmax: its I/O-SlowDown in isolation would be below 1.)
  ios_profile_t p = profile({{1, 100}, {4, 400}, {8, 800}});
  EXPECT_EQ(ios_profile_nperf(&p, 6), 6);
  EXPECT_EQ(ios_profile_nperf(&p, 3), 3);
}

TEST(ProfileNperf, MaximisesProfileBwOnRandomProfiles) {
  // System: 200 random profiles (1..6 points, n in 0..20, bw in 1..1000 rounded to integers so that ties happen),
  // nmax in 1..24. Expectations: ios_profile_nperf is the smallest n in 1..nmax with the largest ios_profile_bw(n)
  // (header: "the count in 1..nmax maximising b_j(n) (smallest such n)"), computed here by exhaustive search.
  ios_rng_t rng;
  ios_rng_seed(&rng, 31, 0);
  for (int trial = 0; trial < 200; trial++) {
    ios_profile_t p{};
    int n = (int)ios_rng_below(&rng, 3);
    int npoints = 1 + (int)ios_rng_below(&rng, 6);
    for (int i = 0; i < npoints; i++) {
      p.n[i] = n;
      p.bw[i] = 1.0 + (double)ios_rng_below(&rng, 1000);
      n += 1 + (int)ios_rng_below(&rng, 4);
    }
    p.npoints = npoints;
    int nmax = 1 + (int)ios_rng_below(&rng, 24);
    int best = 1;
    for (int k = 2; k <= nmax; k++)
      if (ios_profile_bw(&p, k) > ios_profile_bw(&p, best)) best = k;
    std::string points;
    for (int i = 0; i < p.npoints; i++)
      points += " " + std::to_string(p.n[i]) + ":" + std::to_string((int)p.bw[i]);
    EXPECT_EQ(ios_profile_nperf(&p, nmax), best) << "trial " << trial << ", nmax " << nmax << ", points" << points;
  }
}

TEST(IoStress, FormulaOfRr9549) {
  // System: b(1) = 100, b(4) = 400 bytes/s; V_io = 1000 bytes, T_cpu = 10 s.
  // I/O-Stress(j, n) = n·T_io(n) / (T_cpu + T_io(n)), T_io(n) = V_io / b(n).
  // Expectations: n = 1: T_io = 10, stress = 1·10/20 = 0.5;
  //               n = 2: b = 200, T_io = 5, stress = 2·5/15 = 2/3;
  //               n = 4: T_io = 2.5, stress = 4·2.5/12.5 = 0.8;
  //               n = 6: b = 400 (beyond last point), T_io = 2.5, stress = 6·2.5/12.5 = 1.2.
  ios_profile_t p = profile({{1, 100}, {4, 400}});
  EXPECT_DOUBLE_EQ(ios_io_stress(&p, 1, 1000.0, 10.0), 0.5);
  EXPECT_DOUBLE_EQ(ios_io_stress(&p, 2, 1000.0, 10.0), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(ios_io_stress(&p, 4, 1000.0, 10.0), 0.8);
  EXPECT_DOUBLE_EQ(ios_io_stress(&p, 6, 1000.0, 10.0), 1.2);
}

TEST(IoStress, DegenerateVolumesAndWork) {
  // System: b(1) = 100, b(4) = 400.
  // Expectations: V_io = 0 and T_cpu = 0 gives 0 (header); V_io = 0, T_cpu = 50 gives T_io = 0, stress 0;
  // T_cpu = 0, V_io = 1000, n = 3 gives 3·T_io/T_io = 3 (the resources are busy all the time).
  ios_profile_t p = profile({{1, 100}, {4, 400}});
  EXPECT_DOUBLE_EQ(ios_io_stress(&p, 2, 0.0, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(ios_io_stress(&p, 2, 0.0, 50.0), 0.0);
  EXPECT_DOUBLE_EQ(ios_io_stress(&p, 3, 1000.0, 0.0), 3.0);
}

// ================================================================================================ allocation
TEST(AllocationFixed, DefaultParameterIsOne) {
  // System: `fixed` with its default parameters (n = 1), 3 applications with no request, 4 resources.
  // Expectations: ios_params_defaults sets n = 1 and the rest 0; every application gets 1.
  const ios_allocation_policy_t *pol = ios_allocation_find("fixed");
  ASSERT_NE(pol, nullptr);
  ios_params_t p;
  ios_params_defaults(pol->nparams, pol->params, &p);
  ASSERT_EQ(pol->nparams, 1);
  EXPECT_EQ(p.v[0], 1.0);
  for (int i = 1; i < IOS_MAX_PARAMS; i++)
    EXPECT_EQ(p.v[i], 0.0);
  ios_profile_t prof = profile({{1, 100}});
  Pool pool({app(4, &prof), app(8, &prof), app(2, &prof)}, 4, 16);
  int n[3] = {-9, -9, -9};
  ASSERT_EQ(pol->allocate(&pool.view, &p, nullptr, n), IOS_OK);
  EXPECT_EQ(n[0], 1);
  EXPECT_EQ(n[1], 1);
  EXPECT_EQ(n[2], 1);
}

TEST(AllocationFixed, ParameterAndRequestedOverride) {
  // System: n = 3, 4 resources; requested_n = -1, 2, 0, 4.
  // Expectations: {3, 2, 0, 4}: the application's own request wins, including 0 (direct PFS access) and N.
  const ios_allocation_policy_t *pol = ios_allocation_find("fixed");
  ASSERT_NE(pol, nullptr);
  ios_params_t p{};
  p.v[0] = 3;
  ios_profile_t prof = profile({{1, 100}});
  Pool pool({app(4, &prof, -1), app(4, &prof, 2), app(4, &prof, 0), app(4, &prof, 4)}, 4, 16);
  int n[4] = {-9, -9, -9, -9};
  ASSERT_EQ(pol->allocate(&pool.view, &p, nullptr, n), IOS_OK);
  EXPECT_EQ(n[0], 3);
  EXPECT_EQ(n[1], 2);
  EXPECT_EQ(n[2], 0);
  EXPECT_EQ(n[3], 4);
}

TEST(AllocationFixed, InvalidCountsAreRejectedWithNothingWritten) {
  // System: 4 resources. Expectations: IOS_EINVAL and n_out untouched for n = 5 > N; a request 5 > N on the
  // second application (the first one is valid, but nothing may be written); a negative n; a fractional n = 1.5.
  const ios_allocation_policy_t *pol = ios_allocation_find("fixed");
  ASSERT_NE(pol, nullptr);
  ios_profile_t prof = profile({{1, 100}});
  struct Case {
    double param;
    int req0, req1;
  } cases[] = {{5, -1, -1}, {2, -1, 5}, {2, 3, 5}, {-1, -1, -1}, {1.5, -1, -1}};
  for (const Case &c : cases) {
    ios_params_t p{};
    p.v[0] = c.param;
    Pool pool({app(4, &prof, c.req0), app(4, &prof, c.req1)}, 4, 16);
    int n[2] = {-9, -9};
    EXPECT_EQ(pol->allocate(&pool.view, &p, nullptr, n), IOS_EINVAL)
        << "n=" << c.param << " requests " << c.req0 << "," << c.req1;
    EXPECT_EQ(n[0], -9);
    EXPECT_EQ(n[1], -9);
  }
}

TEST(AllocationStatic, ProportionalToComputeNodes) {
  // System (RR-9549 §4.1 Static): n_j = Q_j·N/Q^cpu rounded to the closest positive integer, at most N;
  // Q^cpu = 480, N = 20.
  // Expectations: Q_j = 12 → 0.5 → 1; 36 → 1.5 → 2; 6 → 0.25 → 1 (at least 1); 480 → 20; 60 → 2.5 → 3 (halves
  // rounded up); 100 → 4.1667 → 4; 250 → 10.4167 → 10; 1 → 0.04 → 1; 1000 → 41.67 → 20 (at most N).
  const ios_allocation_policy_t *pol = ios_allocation_find("static");
  ASSERT_NE(pol, nullptr);
  ios_profile_t prof = profile({{1, 100}});
  const int nodes[] = {12, 36, 6, 480, 60, 100, 250, 1, 1000};
  const int expected[] = {1, 2, 1, 20, 3, 4, 10, 1, 20};
  std::vector<ios_app_view_t> apps;
  for (int q : nodes)
    apps.push_back(app(q, &prof));
  Pool pool(apps, 20, 480);
  ios_params_t p;
  ios_params_defaults(pol->nparams, pol->params, &p);
  std::vector<int> n(apps.size(), -9);
  ASSERT_EQ(pol->allocate(&pool.view, &p, nullptr, n.data()), IOS_OK);
  for (size_t j = 0; j < apps.size(); j++)
    EXPECT_EQ(n[j], expected[j]) << "Q_j = " << nodes[j];
}

TEST(AllocationStatic, AnotherPlatform) {
  // System: Q^cpu = 100, N = 7. Expectations: Q_j = 30 → 2.1 → 2; 50 → 3.5 → 4; 64 → 4.48 → 4; 100 → 7.
  const ios_allocation_policy_t *pol = ios_allocation_find("static");
  ASSERT_NE(pol, nullptr);
  ios_profile_t prof = profile({{1, 100}});
  Pool pool({app(30, &prof), app(50, &prof), app(64, &prof), app(100, &prof)}, 7, 100);
  ios_params_t p{};
  int n[4] = {-9, -9, -9, -9};
  ASSERT_EQ(pol->allocate(&pool.view, &p, nullptr, n), IOS_OK);
  EXPECT_EQ(n[0], 2);
  EXPECT_EQ(n[1], 4);
  EXPECT_EQ(n[2], 4);
  EXPECT_EQ(n[3], 7);
}

TEST(AllocationStatic, NoComputeNodesIsInvalid) {
  // System: Q^cpu = 0. Expectations: IOS_EINVAL (Q_j·N/0 is undefined), n_out untouched.
  const ios_allocation_policy_t *pol = ios_allocation_find("static");
  ASSERT_NE(pol, nullptr);
  ios_profile_t prof = profile({{1, 100}});
  Pool pool({app(4, &prof)}, 4, 0);
  ios_params_t p{};
  int n[1] = {-9};
  EXPECT_EQ(pol->allocate(&pool.view, &p, nullptr, n), IOS_EINVAL);
  EXPECT_EQ(n[0], -9);
}

// ================================================================================================ placement
TEST(PlacementGnc, SortedByDecreasingCountRoundRobin) {
  // System (RR-9549 §4.2 GNC): n = {1, 3, 2} on 4 resources.
  // Order by decreasing n: app 1 (3), app 2 (2), app 0 (1); one cursor dealing 0, 1, 2, 3, 0, 1, ...
  // app 1 gets {0, 1, 2}, app 2 gets {3, 0}, app 0 gets {1}.
  // Expectations: res_out laid out by application index (offsets 0, 1, 4): {1 | 0, 1, 2 | 3, 0}.
  const ios_placement_policy_t *pol = ios_placement_find("gnc");
  ASSERT_NE(pol, nullptr);
  ios_profile_t prof = profile({{1, 100}});
  Pool pool({app(1, &prof), app(1, &prof), app(1, &prof)}, 4, 16);
  EXPECT_EQ(place(pol, pool, {1, 3, 2}, nullptr), (std::vector<int>{1, 0, 1, 2, 3, 0}));
}

TEST(PlacementGnc, TiesKeepWorkloadOrder) {
  // System: n = {2, 2, 1} on 3 resources: equal counts keep workload order (stable sort): app 0, app 1, app 2.
  // app 0 gets {0, 1}, app 1 gets {2, 0}, app 2 gets {1}. Expectations: {0, 1 | 2, 0 | 1}.
  const ios_placement_policy_t *pol = ios_placement_find("greedy-non-clairvoyant");
  ASSERT_NE(pol, nullptr);
  ios_profile_t prof = profile({{1, 100}});
  Pool pool({app(1, &prof), app(1, &prof), app(1, &prof)}, 3, 16);
  EXPECT_EQ(place(pol, pool, {2, 2, 1}, nullptr), (std::vector<int>{0, 1, 2, 0, 1}));
}

TEST(PlacementGnc, BalancesApplicationsPerResource) {
  // System: n = {1, 1, 2, 1, 0, 1} on 3 resources. Order: app 2 (2), then apps 0, 1, 3, 5 (1 each), app 4 (0).
  // app 2 → {0, 1}; app 0 → {2}; app 1 → {0}; app 3 → {1}; app 5 → {2}.
  // Expectations: res_out = {2 | 0 | 0, 1 | 1 | (none) | 2}; every resource serves exactly 2 applications.
  const ios_placement_policy_t *pol = ios_placement_find("gnc");
  ASSERT_NE(pol, nullptr);
  ios_profile_t prof = profile({{1, 100}});
  std::vector<ios_app_view_t> apps(6, app(1, &prof));
  Pool pool(apps, 3, 16);
  std::vector<int> res = place(pol, pool, {1, 1, 2, 1, 0, 1}, nullptr);
  EXPECT_EQ(res, (std::vector<int>{2, 0, 0, 1, 1, 2}));
  for (int r = 0; r < 3; r++)
    EXPECT_EQ(std::count(res.begin(), res.end(), r), 2) << "resource " << r;
}

TEST(PlacementGnc, CountAbovePoolIsInvalid) {
  // System: n = {1, 5} on 4 resources. Expectations: IOS_EINVAL.
  const ios_placement_policy_t *pol = ios_placement_find("gnc");
  ASSERT_NE(pol, nullptr);
  ios_profile_t prof = profile({{1, 100}});
  Pool pool({app(1, &prof), app(1, &prof)}, 4, 16);
  int rc = IOS_OK;
  place(pol, pool, {1, 5}, nullptr, &rc);
  EXPECT_EQ(rc, IOS_EINVAL);
}

TEST(PlacementRandom, DistinctIndicesInRange) {
  // System: `random` (alias randp), n = {3, 8, 1, 0, 5} on 8 resources, 200 seeds.
  // Expectations: each application's indices are distinct and in 0..7; app 1 (n = N) gets a permutation of 0..7.
  const ios_placement_policy_t *pol = ios_placement_find("randp");
  ASSERT_NE(pol, nullptr);
  ios_profile_t prof = profile({{1, 100}});
  std::vector<ios_app_view_t> apps(5, app(1, &prof));
  Pool pool(apps, 8, 16);
  const std::vector<int> n = {3, 8, 1, 0, 5};
  for (uint64_t seed = 0; seed < 200; seed++) {
    ios_rng_t rng;
    ios_rng_seed(&rng, seed, 0);
    std::vector<int> res = place(pol, pool, n, &rng);
    size_t off = 0;
    for (size_t j = 0; j < n.size(); j++) {
      std::set<int> seen;
      for (int i = 0; i < n[j]; i++) {
        int r = res[off + i];
        EXPECT_GE(r, 0);
        EXPECT_LT(r, 8);
        EXPECT_TRUE(seen.insert(r).second) << "seed " << seed << " app " << j << " uses " << r << " twice";
      }
      off += n[j];
    }
  }
}

TEST(PlacementRandom, SameSeedSamePlacement) {
  // System: n = {2, 3, 1} on 10 resources placed twice from streams seeded (seed, 0), for 50 seeds.
  // Expectations: identical placements.
  const ios_placement_policy_t *pol = ios_placement_find("random");
  ASSERT_NE(pol, nullptr);
  ios_profile_t prof = profile({{1, 100}});
  Pool pool({app(1, &prof), app(1, &prof), app(1, &prof)}, 10, 16);
  for (uint64_t seed = 0; seed < 50; seed++) {
    ios_rng_t a, b;
    ios_rng_seed(&a, seed, 0);
    ios_rng_seed(&b, seed, 0);
    EXPECT_EQ(place(pol, pool, {2, 3, 1}, &a), place(pol, pool, {2, 3, 1}, &b)) << "seed " << seed;
  }
}

TEST(PlacementRandom, DifferentSeedsDiffer) {
  // System: n = {2} on 8 resources, seeds 0..99. There are 8·7 = 56 ordered pairs; a uniform draw repeats the seed-0
  // pair with probability 1/56. Expectations: at least one seed differs from seed 0, and at least 30 distinct pairs
  // appear (the expected number is 56·(1 - (55/56)^100) ~ 47).
  const ios_placement_policy_t *pol = ios_placement_find("random");
  ASSERT_NE(pol, nullptr);
  ios_profile_t prof = profile({{1, 100}});
  Pool pool({app(1, &prof)}, 8, 16);
  std::set<std::vector<int>> distinct;
  std::vector<int> first;
  int differ = 0;
  for (uint64_t seed = 0; seed < 100; seed++) {
    ios_rng_t rng;
    ios_rng_seed(&rng, seed, 0);
    std::vector<int> res = place(pol, pool, {2}, &rng);
    if (seed == 0) first = res;
    differ += res != first;
    distinct.insert(res);
  }
  EXPECT_GT(differ, 0);
  EXPECT_GE(distinct.size(), 30u);
}

TEST(PlacementRandom, RoughlyUniformUsage) {
  // System: n = {3} on 8 resources, 80000 placements from one stream.
  // Expectations: each resource is used 80000·3/8 = 30000 times (binomial standard deviation
  // sqrt(80000·(3/8)·(5/8)) = 137; tolerance 900 = 6.6 sigma), and is the *first* index 80000/8 = 10000 times
  // (standard deviation sqrt(80000·(1/8)·(7/8)) = 94; tolerance 600 = 6.4 sigma).
  const ios_placement_policy_t *pol = ios_placement_find("random");
  ASSERT_NE(pol, nullptr);
  ios_profile_t prof = profile({{1, 100}});
  Pool pool({app(1, &prof)}, 8, 16);
  ios_rng_t rng;
  ios_rng_seed(&rng, 4242, 1);
  std::vector<int> used(8, 0), first(8, 0);
  ios_params_t p{};
  const int n[1] = {3};
  for (int draw = 0; draw < 80000; draw++) {
    int res[3];
    ASSERT_EQ(pol->place(&pool.view, n, &p, &rng, res), IOS_OK);
    for (int r : res)
      used[r]++;
    first[res[0]]++;
  }
  for (int r = 0; r < 8; r++) {
    EXPECT_NEAR(used[r], 30000, 900) << "resource " << r;
    EXPECT_NEAR(first[r], 10000, 600) << "resource " << r;
  }
}

TEST(PlacementRandom, CountAbovePoolIsInvalid) {
  // System: n = {9} on 8 resources. Expectations: IOS_EINVAL.
  const ios_placement_policy_t *pol = ios_placement_find("random");
  ASSERT_NE(pol, nullptr);
  ios_profile_t prof = profile({{1, 100}});
  Pool pool({app(1, &prof)}, 8, 16);
  ios_rng_t rng;
  ios_rng_seed(&rng, 1, 0);
  int rc = IOS_OK;
  place(pol, pool, {9}, &rng, &rc);
  EXPECT_EQ(rc, IOS_EINVAL);
}

// ================================================================================================ sharing
TEST(SharingFairshare, ProportionalWhenOversubscribed) {
  // System (RR-9502 §4.1): α = min(1, B/Σ b_j); B = 10, caps {4, 8}: Σ = 12, α = 10/12.
  // Expectations: rates {4·10/12, 8·10/12} = {10/3, 20/3}, summing to B.
  const ios_sharing_policy_t *pol = ios_sharing_find("fairshare");
  ASSERT_NE(pol, nullptr);
  std::vector<double> r = share(pol, 10.0, {transfer(4), transfer(8)});
  EXPECT_DOUBLE_EQ(r[0], 10.0 / 3.0);
  EXPECT_DOUBLE_EQ(r[1], 20.0 / 3.0);
  // System: B = 10, caps {10, 20, 30, 40}: α = 10/100. Expectations: {1, 2, 3, 4}.
  r = share(pol, 10.0, {transfer(10), transfer(20), transfer(30), transfer(40)});
  EXPECT_DOUBLE_EQ(r[0], 1.0);
  EXPECT_DOUBLE_EQ(r[1], 2.0);
  EXPECT_DOUBLE_EQ(r[2], 3.0);
  EXPECT_DOUBLE_EQ(r[3], 4.0);
  // System: one transfer, cap 15 > B = 10. Expectations: α = 10/15, rate 10.
  r = share(pol, 10.0, {transfer(15)});
  EXPECT_DOUBLE_EQ(r[0], 10.0);
}

TEST(SharingFairshare, CapsWhenUndersubscribed) {
  // System: B = 10, caps {2, 3}: Σ = 5 <= B, α = 1. Expectations: {2, 3}.
  // System: B = 10, caps {4, 6}: Σ = 10 = B, α = 1. Expectations: {4, 6}.
  const ios_sharing_policy_t *pol = ios_sharing_find("fairshare");
  ASSERT_NE(pol, nullptr);
  std::vector<double> r = share(pol, 10.0, {transfer(2), transfer(3)});
  EXPECT_DOUBLE_EQ(r[0], 2.0);
  EXPECT_DOUBLE_EQ(r[1], 3.0);
  r = share(pol, 10.0, {transfer(4), transfer(6)});
  EXPECT_DOUBLE_EQ(r[0], 4.0);
  EXPECT_DOUBLE_EQ(r[1], 6.0);
}

TEST(SharingTimeshare, EachTakesItsTurn) {
  // System (RR-9549 §5.2): k applications colliding on one resource alternate, each at its own rate one unit in k.
  // B = 10, caps {3, 6}: k = 2, rates {3/2, 6/2} = {1.5, 3}, sum 4.5 <= B: even though B could serve both caps in
  // full (fairshare would give {3, 6}), each is slowed by the collision.
  const ios_sharing_policy_t *pol = ios_sharing_find("timeshare");
  ASSERT_NE(pol, nullptr);
  std::vector<double> r = share(pol, 10.0, {transfer(3), transfer(6)});
  EXPECT_DOUBLE_EQ(r[0], 1.5);
  EXPECT_DOUBLE_EQ(r[1], 3.0);
  // Alone: its cap (k = 1).
  r = share(pol, 10.0, {transfer(7)});
  EXPECT_DOUBLE_EQ(r[0], 7.0);
  // B = 10, caps {30, 30, 30}: k = 3, cap/k = 10 each, sum 30 > B: scaled by 10/30 to {10/3, 10/3, 10/3}.
  r = share(pol, 10.0, {transfer(30), transfer(30), transfer(30)});
  for (double x : r)
    EXPECT_DOUBLE_EQ(x, 10.0 / 3.0);
}

TEST(SharingFcfs, ByPostingTime) {
  // System (RR-9502 §4.1 FCFS): B = 10, caps 6, 6, 6 posted at 3, 1, 2 (seq 0, 1, 2).
  // Order: t1 (R = 1), t2 (R = 2), t0 (R = 3). t1 gets min(6, 10) = 6, 4 left; t2 gets min(6, 4) = 4, 0 left;
  // t0 gets 0. Expectations: rates {0, 6, 4}.
  const ios_sharing_policy_t *pol = ios_sharing_find("fcfs");
  ASSERT_NE(pol, nullptr);
  std::vector<double> r = share(pol, 10.0, {transfer(6, 3.0, 0), transfer(6, 1.0, 1), transfer(6, 2.0, 2)});
  EXPECT_DOUBLE_EQ(r[0], 0.0);
  EXPECT_DOUBLE_EQ(r[1], 6.0);
  EXPECT_DOUBLE_EQ(r[2], 4.0);
}

TEST(SharingFcfs, TiesBrokenByPostingOrder) {
  // System: B = 10, caps {5, 4, 3}, all posted at t = 1, seq {7, 3, 5}.
  // Order by seq: t1 (cap 4) → 4, 6 left; t2 (cap 3) → 3, 3 left; t0 (cap 5) → min(5, 3) = 3.
  // Expectations: {3, 4, 3}.
  const ios_sharing_policy_t *pol = ios_sharing_find("fcfs");
  ASSERT_NE(pol, nullptr);
  std::vector<double> r = share(pol, 10.0, {transfer(5, 1.0, 7), transfer(4, 1.0, 3), transfer(3, 1.0, 5)});
  EXPECT_DOUBLE_EQ(r[0], 3.0);
  EXPECT_DOUBLE_EQ(r[1], 4.0);
  EXPECT_DOUBLE_EQ(r[2], 3.0);
  // System: posting time wins over seq: caps {8, 8}, posted {2, 1}, seq {0, 9}, B = 10.
  // t1 first → 8; t0 → 2. Expectations: {2, 8}.
  r = share(pol, 10.0, {transfer(8, 2.0, 0), transfer(8, 1.0, 9)});
  EXPECT_DOUBLE_EQ(r[0], 2.0);
  EXPECT_DOUBLE_EQ(r[1], 8.0);
}

TEST(SharingFcfs, EveryoneAtCapWhenItFits) {
  // System: B = 10, caps {1, 2, 3} posted 5, 4, 3. Σ = 6 <= 10. Expectations: {1, 2, 3}.
  const ios_sharing_policy_t *pol = ios_sharing_find("fcfs");
  ASSERT_NE(pol, nullptr);
  std::vector<double> r = share(pol, 10.0, {transfer(1, 5.0, 0), transfer(2, 4.0, 1), transfer(3, 3.0, 2)});
  EXPECT_DOUBLE_EQ(r[0], 1.0);
  EXPECT_DOUBLE_EQ(r[1], 2.0);
  EXPECT_DOUBLE_EQ(r[2], 3.0);
}

TEST(SharingMaxmin, RatesAreTheCaps) {
  // System: B = 10, caps {7, 9} (Σ = 16 > B): maxmin caps nothing and lets SimGrid share.
  // Expectations: rates {7, 9} and the policy declares uncapped = 1.
  const ios_sharing_policy_t *pol = ios_sharing_find("maxmin");
  ASSERT_NE(pol, nullptr);
  EXPECT_EQ(pol->uncapped, 1);
  std::vector<double> r = share(pol, 10.0, {transfer(7), transfer(9)});
  EXPECT_DOUBLE_EQ(r[0], 7.0);
  EXPECT_DOUBLE_EQ(r[1], 9.0);
}

namespace {

// The interference policy's rates on one resource of capacity `capacity` with its parameter kappa (bytes/s).
std::vector<double> share_interference(double capacity, const std::vector<ios_transfer_view_t> &t, double kappa) {
  const ios_sharing_policy_t *pol = ios_sharing_find("interference");
  if (pol == nullptr) {
    ADD_FAILURE() << "no sharing policy interference";
    return std::vector<double>(t.size(), -1.0);
  }
  return share(pol, capacity, t, &kappa);
}

} // namespace

TEST(SharingInterference, SlowedByTheOtherApplicationsLoad) {
  // System (docs/validation.md, "Interference sharing"): rate_i = cap_i / (1 + L_i / κ), L_i = Σ cap_j over the
  // transfers j of other applications. B = 5e9, κ = 4e9, transfers (app, cap) = (0, 2e9), (0, 1e9), (1, 3e9).
  // By hand: t0 and t1 (app 0) see L = 3e9 (t2 only; t1 does not count for t0 nor t0 for t1), t2 (app 1) sees
  // L = 2e9 + 1e9 = 3e9: each divided by 1 + 3/4 = 1.75. Expectations: {2e9/1.75, 1e9/1.75, 3e9/1.75}
  // = {1.142857e9, 0.571429e9, 1.714286e9}, sum 3.43e9 (under B here, but the policy is uncapped either way).
  const ios_sharing_policy_t *pol = ios_sharing_find("interference");
  ASSERT_NE(pol, nullptr);
  EXPECT_EQ(pol->uncapped, 1);
  EXPECT_EQ(pol->cap_only, 0);
  EXPECT_EQ(pol->periodic, 0);
  ASSERT_EQ(pol->nparams, 1);
  EXPECT_STREQ(pol->params[0].name, "kappa");
  EXPECT_EQ(pol->params[0].def, 0.0);
  std::vector<double> r =
      share_interference(5e9, {transfer(2e9, 0.0, 0, 0), transfer(1e9, 0.0, 1, 0), transfer(3e9, 0.0, 2, 1)}, 4e9);
  EXPECT_DOUBLE_EQ(r[0], 2e9 / 1.75);
  EXPECT_DOUBLE_EQ(r[1], 1e9 / 1.75);
  EXPECT_DOUBLE_EQ(r[2], 3e9 / 1.75);
  // System: the same caps, three applications 0, 1, 2, κ = 2e9. By hand: L = {1e9 + 3e9, 2e9 + 3e9, 2e9 + 1e9}
  // = {4e9, 5e9, 3e9}; divisors 1 + L/κ = {3, 3.5, 2.5}. Expectations: {2e9/3, 1e9/3.5, 3e9/2.5 = 1.2e9}.
  r = share_interference(5e9, {transfer(2e9, 0.0, 0, 0), transfer(1e9, 0.0, 1, 1), transfer(3e9, 0.0, 2, 2)}, 2e9);
  EXPECT_DOUBLE_EQ(r[0], 2e9 / 3.0);
  EXPECT_DOUBLE_EQ(r[1], 1e9 / 3.5);
  EXPECT_DOUBLE_EQ(r[2], 1.2e9);
}

TEST(SharingInterference, NoInterferenceWhenKappaIsZeroOrAlone) {
  // System: the first view above with κ = 0 (the default). Expectations: the caps {2e9, 1e9, 3e9}, as maxmin.
  std::vector<double> r =
      share_interference(5e9, {transfer(2e9, 0.0, 0, 0), transfer(1e9, 0.0, 1, 0), transfer(3e9, 0.0, 2, 1)}, 0.0);
  EXPECT_DOUBLE_EQ(r[0], 2e9);
  EXPECT_DOUBLE_EQ(r[1], 1e9);
  EXPECT_DOUBLE_EQ(r[2], 3e9);
  // System: one transfer, cap 7e9 > B = 5e9, κ = 1e9. By hand: L = 0, divisor 1. Expectations: its cap 7e9 (max-min
  // then gives it B in the engine).
  r = share_interference(5e9, {transfer(7e9, 0.0, 0, 3)}, 1e9);
  EXPECT_DOUBLE_EQ(r[0], 7e9);
  // System: two transfers of the same application (two parts of one operation), caps 2e9 and 4e9, κ = 1e9. By hand:
  // no other application, L = 0. Expectations: their caps {2e9, 4e9}.
  r = share_interference(5e9, {transfer(2e9, 0.0, 0, 5), transfer(4e9, 0.0, 1, 5)}, 1e9);
  EXPECT_DOUBLE_EQ(r[0], 2e9);
  EXPECT_DOUBLE_EQ(r[1], 4e9);
}

TEST(SharingInterference, RatesWithinCapsForAnyKappa) {
  // System: 300 random snapshots (1..16 transfers of applications 0..3, caps 0 (one in 8) to 3·B, B in [1e3, 1e11))
  // with κ drawn in [1e-3·B, 1e3·B), the invariant test above having only the default κ = 0.
  // Expectations: every rate finite, in [0, cap]; equal to its cap exactly when no other application has a cap > 0
  // on the resource (L = 0), strictly below it otherwise (a cap > 0 divided by 1 + L/κ > 1).
  ios_rng_t rng;
  ios_rng_seed(&rng, 31337, 3);
  for (int trial = 0; trial < 300; trial++) {
    int k = 1 + (int)ios_rng_below(&rng, 16);
    double capacity = 1e3 * std::pow(10.0, 8.0 * ios_rng_uniform(&rng));
    double kappa = capacity * std::pow(10.0, -3.0 + 6.0 * ios_rng_uniform(&rng));
    std::vector<ios_transfer_view_t> t;
    for (int i = 0; i < k; i++) {
      double cap = ios_rng_below(&rng, 8) == 0 ? 0.0 : 3.0 * capacity * ios_rng_uniform(&rng);
      t.push_back(transfer(cap, 0.0, i, (int)ios_rng_below(&rng, 4)));
    }
    std::vector<double> r = share_interference(capacity, t, kappa);
    for (int i = 0; i < k; i++) {
      bool others = false;
      for (int j = 0; j < k; j++)
        others = others || (t[j].app != t[i].app && t[j].cap > 0.0);
      EXPECT_TRUE(std::isfinite(r[i])) << "trial " << trial << " transfer " << i;
      EXPECT_GE(r[i], 0.0) << "trial " << trial << " transfer " << i;
      if (others && t[i].cap > 0.0)
        EXPECT_LT(r[i], t[i].cap) << "trial " << trial << " transfer " << i;
      else
        EXPECT_EQ(r[i], t[i].cap) << "trial " << trial << " transfer " << i;
    }
  }
}

TEST(SharingGreedy, FairshareAndFcfsAreWorkConserving) {
  // System: 300 random snapshots (as in the invariant tests below).
  // Expectations: FairShare and FCFS hand out min(B, Σ caps) in total (relative 1e-9): FairShare gives α·Σ caps
  // = min(Σ caps, B); FCFS stops only when B is exhausted or every transfer is at its cap.
  ios_rng_t rng;
  ios_rng_seed(&rng, 555, 0);
  for (const char *name : {"fairshare", "fcfs"}) {
    const ios_sharing_policy_t *pol = ios_sharing_find(name);
    ASSERT_NE(pol, nullptr);
    for (int trial = 0; trial < 300; trial++) {
      int k = 1 + (int)ios_rng_below(&rng, 10);
      double capacity = 1e6 + ios_rng_uniform(&rng) * 1e10;
      std::vector<ios_transfer_view_t> t;
      double demand = 0.0;
      for (int i = 0; i < k; i++) {
        double cap = ios_rng_uniform(&rng) * 2.0 * capacity / k * 2.0;
        t.push_back(transfer(cap, (double)ios_rng_below(&rng, 4), i, i));
        demand += cap;
      }
      std::vector<double> r = share(pol, capacity, t);
      double sum = 0.0;
      for (double x : r)
        sum += x;
      EXPECT_NEAR(sum, std::min(capacity, demand), 1e-9 * capacity) << name << " trial " << trial;
    }
  }
}

// ================================================================================================ invariants
namespace {

std::vector<const ios_sharing_policy_t *> all_sharing() {
  std::vector<const ios_sharing_policy_t *> v;
  for (int i = 0; ((const ios_sharing_policy_t *)ios_policy_list(IOS_FAMILY_SHARING)[i]) != nullptr; i++)
    v.push_back(((const ios_sharing_policy_t *)ios_policy_list(IOS_FAMILY_SHARING)[i]));
  return v;
}
std::vector<const ios_allocation_policy_t *> all_allocation() {
  std::vector<const ios_allocation_policy_t *> v;
  for (int i = 0; ((const ios_allocation_policy_t *)ios_policy_list(IOS_FAMILY_ALLOCATION)[i]) != nullptr; i++)
    v.push_back(((const ios_allocation_policy_t *)ios_policy_list(IOS_FAMILY_ALLOCATION)[i]));
  return v;
}
std::vector<const ios_placement_policy_t *> all_placement() {
  std::vector<const ios_placement_policy_t *> v;
  for (int i = 0; ((const ios_placement_policy_t *)ios_policy_list(IOS_FAMILY_PLACEMENT)[i]) != nullptr; i++)
    v.push_back(((const ios_placement_policy_t *)ios_policy_list(IOS_FAMILY_PLACEMENT)[i]));
  return v;
}

template <class P> struct PolicyName {
  std::string operator()(const testing::TestParamInfo<const P *> &info) const { return sanitize(info.param->name); }
};

} // namespace

class EverySharingPolicy : public testing::TestWithParam<const ios_sharing_policy_t *> {};

TEST_P(EverySharingPolicy, RatesWithinCapsAndCapacity) {
  // System: 500 random snapshots of one resource from a seeded stream: 1..16 transfers, capacity B in
  // [1e3, 1e11) bytes/s, caps from 0 (some exactly 0) to 3·B, posting times with ties, remaining volumes > 0.
  // Expectations (ios_policy.h contract): IOS_OK; every rate finite, >= 0 and <= its cap (relative 1e-12); the sum
  // <= B (relative 1e-12) unless the policy declares uncapped.
  const ios_sharing_policy_t *pol = GetParam();
  ios_rng_t rng;
  ios_rng_seed(&rng, 20240601, 11);
  ios_params_t p;
  ios_params_defaults(pol->nparams, pol->params, &p);
  for (int trial = 0; trial < 500; trial++) {
    int k = 1 + (int)ios_rng_below(&rng, 16);
    double capacity = 1e3 * std::pow(10.0, 8.0 * ios_rng_uniform(&rng));
    std::vector<ios_transfer_view_t> t;
    for (int i = 0; i < k; i++) {
      double cap = ios_rng_below(&rng, 8) == 0 ? 0.0 : 3.0 * capacity * ios_rng_uniform(&rng);
      double posted = (double)ios_rng_below(&rng, 5);
      double remaining = 1.0 + ios_rng_uniform(&rng) * 1e12;
      t.push_back(transfer(cap, posted, (long)(k - i), (int)ios_rng_below(&rng, 6), remaining));
    }
    ios_share_view_t v{};
    v.now = 5.0;
    v.capacity = capacity;
    v.ntransfers = k;
    v.t = t.data();
    std::vector<double> rate(k, -1.0);
    ASSERT_EQ(pol->share(pol->ctx, &v, &p, rate.data()), IOS_OK) << "trial " << trial;
    double sum = 0.0;
    for (int i = 0; i < k; i++) {
      EXPECT_TRUE(std::isfinite(rate[i])) << "trial " << trial << " transfer " << i;
      EXPECT_GE(rate[i], 0.0) << "trial " << trial << " transfer " << i;
      EXPECT_LE(rate[i], t[i].cap * (1.0 + 1e-12)) << "trial " << trial << " transfer " << i;
      sum += rate[i];
    }
    if (!pol->uncapped) {
      EXPECT_LE(sum, capacity * (1.0 + 1e-12)) << "trial " << trial;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, EverySharingPolicy, testing::ValuesIn(all_sharing()),
                         PolicyName<ios_sharing_policy_t>());

class EveryAllocationPolicy : public testing::TestWithParam<const ios_allocation_policy_t *> {};

TEST_P(EveryAllocationPolicy, CountsWithinPool) {
  // System: 300 random pools from a seeded stream: 1..12 applications with 1..Q^cpu nodes, Q^cpu in 1..1000,
  // N in 1..40 resources, random profiles, requests either -1 or in 0..N; default parameters.
  // Expectations: IOS_OK (the input is valid) and 0 <= n_j <= N for every application.
  const ios_allocation_policy_t *pol = GetParam();
  ios_rng_t rng;
  ios_rng_seed(&rng, 777, 12);
  ios_params_t p;
  ios_params_defaults(pol->nparams, pol->params, &p);
  for (int trial = 0; trial < 300; trial++) {
    int napps = 1 + (int)ios_rng_below(&rng, 12);
    int nres = 1 + (int)ios_rng_below(&rng, 40);
    int total = 1 + (int)ios_rng_below(&rng, 1000);
    std::vector<ios_profile_t> profiles(napps);
    std::vector<ios_app_view_t> apps;
    for (int j = 0; j < napps; j++) {
      ios_profile_t &prof = profiles[j];
      prof.npoints = 1 + (int)ios_rng_below(&rng, 4);
      for (int i = 0; i < prof.npoints; i++) {
        prof.n[i] = i == 0 ? (int)ios_rng_below(&rng, 2) : prof.n[i - 1] + 1 + (int)ios_rng_below(&rng, 8);
        prof.bw[i] = 1e6 + ios_rng_uniform(&rng) * 1e10;
      }
      int req = ios_rng_below(&rng, 2) == 0 ? -1 : (int)ios_rng_below(&rng, (uint64_t)nres + 1);
      apps.push_back(app(1 + (int)ios_rng_below(&rng, (uint64_t)total), &prof, req, ios_rng_uniform(&rng) * 1e12,
                         ios_rng_uniform(&rng) * 1e4));
    }
    Pool pool(apps, nres, total);
    std::vector<int> n(napps + 1, -9);
    ASSERT_EQ(pol->allocate(&pool.view, &p, &rng, n.data()), IOS_OK) << "trial " << trial;
    for (int j = 0; j < napps; j++) {
      EXPECT_GE(n[j], 0) << "trial " << trial << " app " << j;
      EXPECT_LE(n[j], nres) << "trial " << trial << " app " << j;
    }
    EXPECT_EQ(n[napps], -9) << "wrote past the last application";
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryAllocationPolicy, testing::ValuesIn(all_allocation()),
                         PolicyName<ios_allocation_policy_t>());

class EveryPlacementPolicy : public testing::TestWithParam<const ios_placement_policy_t *> {};

TEST_P(EveryPlacementPolicy, DistinctIndicesInRange) {
  // System: 300 random pools: 1..12 applications, N in 1..40, n_j in 0..N; default parameters; seeded stream.
  // Expectations: IOS_OK; each application's n_j indices are in 0..N-1 and distinct; nothing written past
  // Σ n_j entries.
  const ios_placement_policy_t *pol = GetParam();
  ios_rng_t rng;
  ios_rng_seed(&rng, 888, 13);
  ios_profile_t prof = profile({{1, 1e9}, {4, 3e9}});
  for (int trial = 0; trial < 300; trial++) {
    int napps = 1 + (int)ios_rng_below(&rng, 12);
    int nres = 1 + (int)ios_rng_below(&rng, 40);
    std::vector<ios_app_view_t> apps;
    std::vector<int> n;
    for (int j = 0; j < napps; j++) {
      apps.push_back(app(1 + (int)ios_rng_below(&rng, 64), &prof));
      n.push_back((int)ios_rng_below(&rng, (uint64_t)nres + 1));
    }
    Pool pool(apps, nres, 64);
    std::vector<int> res = place(pol, pool, n, &rng);
    size_t off = 0;
    for (int j = 0; j < napps; j++) {
      std::set<int> seen;
      for (int i = 0; i < n[j]; i++) {
        int r = res[off + i];
        EXPECT_GE(r, 0) << "trial " << trial << " app " << j;
        EXPECT_LT(r, nres) << "trial " << trial << " app " << j;
        EXPECT_TRUE(seen.insert(r).second) << "trial " << trial << " app " << j << " uses " << r << " twice";
      }
      off += n[j];
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryPlacementPolicy, testing::ValuesIn(all_placement()),
                         PolicyName<ios_placement_policy_t>());

// ================================================================================================ registry
TEST(Registry, FindByNameAndAlias) {
  // Expectations: each family finds its policies by name and by alias, and the alias gives the same table.
  ASSERT_NE(ios_allocation_find("fixed"), nullptr);
  ASSERT_NE(ios_allocation_find("static"), nullptr);
  EXPECT_STREQ(ios_allocation_find("fixed")->name, "fixed");
  EXPECT_STREQ(ios_allocation_find("static")->name, "static");
  ASSERT_NE(ios_placement_find("gnc"), nullptr);
  EXPECT_EQ(ios_placement_find("gnc"), ios_placement_find("greedy-non-clairvoyant"));
  EXPECT_STREQ(ios_placement_find("gnc")->name, "greedy-non-clairvoyant");
  ASSERT_NE(ios_placement_find("randp"), nullptr);
  EXPECT_EQ(ios_placement_find("randp"), ios_placement_find("random"));
  EXPECT_STREQ(ios_placement_find("randp")->name, "random");
  for (const char *name : {"fairshare", "fcfs", "maxmin", "interference", "timeshare"}) {
    ASSERT_NE(ios_sharing_find(name), nullptr) << name;
    EXPECT_STREQ(ios_sharing_find(name)->name, name);
  }
}

TEST(Registry, UnknownNamesAreNull) {
  // Expectations: NULL for unknown names, the empty string, NULL, and names of another family.
  EXPECT_EQ(ios_allocation_find("nope"), nullptr);
  EXPECT_EQ(ios_allocation_find(""), nullptr);
  EXPECT_EQ(ios_allocation_find(nullptr), nullptr);
  EXPECT_EQ(ios_allocation_find("gnc"), nullptr);
  EXPECT_EQ(ios_placement_find("nope"), nullptr);
  EXPECT_EQ(ios_placement_find(nullptr), nullptr);
  EXPECT_EQ(ios_placement_find("fairshare"), nullptr);
  EXPECT_EQ(ios_sharing_find("nope"), nullptr);
  EXPECT_EQ(ios_sharing_find(nullptr), nullptr);
  EXPECT_EQ(ios_sharing_find("static"), nullptr);
  EXPECT_EQ(ios_sharing_find("FAIRSHARE x"), nullptr);
}

namespace {

// Checks the descriptive fields of one policy and records its name and alias in `names`.
template <class P> void check_entry(const P *pol, std::set<std::string> &names) {
  ASSERT_NE(pol->name, nullptr);
  EXPECT_STRNE(pol->name, "");
  ASSERT_NE(pol->description, nullptr) << pol->name;
  EXPECT_STRNE(pol->description, "") << pol->name;
  ASSERT_NE(pol->source, nullptr) << pol->name;
  EXPECT_STRNE(pol->source, "") << pol->name;
  EXPECT_GE(pol->nparams, 0) << pol->name;
  EXPECT_LE(pol->nparams, IOS_MAX_PARAMS) << pol->name;
  if (pol->nparams > 0) {
    ASSERT_NE(pol->params, nullptr) << pol->name;
  }
  for (int i = 0; i < pol->nparams; i++) {
    ASSERT_NE(pol->params[i].name, nullptr) << pol->name;
    EXPECT_STRNE(pol->params[i].name, "") << pol->name;
    EXPECT_NE(pol->params[i].unit, nullptr) << pol->name;
    EXPECT_NE(pol->params[i].description, nullptr) << pol->name;
  }
  EXPECT_TRUE(names.insert(pol->name).second) << "duplicate name " << pol->name;
  if (pol->alias != nullptr) {
    EXPECT_STRNE(pol->alias, "") << pol->name;
    EXPECT_TRUE(names.insert(pol->alias).second) << "duplicate alias " << pol->alias;
  }
}

} // namespace

TEST(Registry, EveryEntryIsDescribedAndFindable) {
  // Expectations: every registered policy has a non-empty name, description and source, sane parameter specs,
  // names and aliases unique within its family, and is returned by the family's find for its name and alias.
  std::set<std::string> names;
  ASSERT_FALSE(all_allocation().empty());
  for (const ios_allocation_policy_t *pol : all_allocation()) {
    check_entry(pol, names);
    EXPECT_NE(pol->allocate, nullptr) << pol->name;
    EXPECT_EQ(ios_allocation_find(pol->name), pol);
    if (pol->alias != nullptr) {
      EXPECT_EQ(ios_allocation_find(pol->alias), pol);
    }
  }
  names.clear();
  ASSERT_FALSE(all_placement().empty());
  for (const ios_placement_policy_t *pol : all_placement()) {
    check_entry(pol, names);
    EXPECT_NE(pol->place, nullptr) << pol->name;
    EXPECT_EQ(ios_placement_find(pol->name), pol);
    if (pol->alias != nullptr) {
      EXPECT_EQ(ios_placement_find(pol->alias), pol);
    }
  }
  names.clear();
  ASSERT_FALSE(all_sharing().empty());
  for (const ios_sharing_policy_t *pol : all_sharing()) {
    check_entry(pol, names);
    EXPECT_NE(pol->share, nullptr) << pol->name;
    EXPECT_TRUE(pol->uncapped == 0 || pol->uncapped == 1) << pol->name;
    EXPECT_EQ(ios_sharing_find(pol->name), pol);
    if (pol->alias != nullptr) {
      EXPECT_EQ(ios_sharing_find(pol->alias), pol);
    }
  }
}

TEST(Registry, ErrorStrings) {
  // Expectations: each IOS_E* code has its own non-empty message, distinct from the others.
  std::set<std::string> seen;
  for (int code : {IOS_OK, IOS_EINVAL, IOS_ENOMEM, IOS_EIO, IOS_EINTERNAL}) {
    const char *s = ios_strerror(code);
    ASSERT_NE(s, nullptr);
    EXPECT_STRNE(s, "");
    EXPECT_TRUE(seen.insert(s).second) << "code " << code << " shares message \"" << s << "\"";
  }
}
