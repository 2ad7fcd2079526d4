// iosim unit tests — placement greedy-clairvoyant (RR-9549 §4.2 GC): applications by decreasing congestion-free I/O
// ratio ρ = T_io/(T_cpu + T_io), each on the least stressed resources.
#include "ios_policy.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

ios_profile_t flat(double bw) {
  ios_profile_t p{};
  p.npoints = 1;
  p.n[0] = 1;
  p.bw[0] = bw;
  return p;
}

ios_app_view_t app(double volume, double work, const ios_profile_t *profile) {
  ios_app_view_t a{};
  a.nodes = 1;
  a.volume = volume;
  a.work = work;
  a.profile = profile;
  a.requested_n = -1;
  return a;
}

std::vector<int> place(const char *name, const std::vector<ios_app_view_t> &apps, int nres, const std::vector<int> &n,
                       int expect_rc = IOS_OK) {
  std::vector<double> caps(nres, 1e9);
  ios_pool_view_t v{(int)apps.size(), apps.data(), nres, caps.data(), 64};
  const ios_placement_policy_t *pol = ios_placement_find(name);
  EXPECT_NE(pol, nullptr) << name;
  if (pol == nullptr) return {};
  int total = 0;
  for (int x : n)
    total += x;
  std::vector<int> out(total > 0 ? total : 1, -1);
  ios_params_t params{};
  ios_rng_t rng;
  ios_rng_seed(&rng, 1, 0);
  EXPECT_EQ(pol->place(&v, n.data(), &params, &rng, out.data()), expect_rc);
  out.resize(total);
  return out;
}

} // namespace

// System: 3 applications of 1 resource each, b(1) = 1 GB/s, on 2 resources. A: V = 1 GB, T_cpu = 9 s (T_io = 1 s,
// ρ = 0.1); B: 4 GB, 6 s (ρ = 0.4); C: 3 GB, 7 s (ρ = 0.3).
// Expectations (by hand): order B, C, A. B → r0 (both unloaded, lowest index; r0 carries 0.4); C → r1 (0 < 0.4;
// r1 carries 0.3); A → r1 (0.3 < 0.4). GNC (by count, ties in workload order, round-robin) gives A r0, B r1, C r0.
TEST(PlacementGc, MostIoBoundFirstOnTheLeastStressedResource) {
  ios_profile_t p = flat(1e9);
  std::vector<ios_app_view_t> apps = {app(1e9, 9, &p), app(4e9, 6, &p), app(3e9, 7, &p)};
  EXPECT_EQ(place("gc", apps, 2, {1, 1, 1}), (std::vector<int>{1, 0, 1}));
  EXPECT_EQ(place("greedy-clairvoyant", apps, 2, {1, 1, 1}), (std::vector<int>{1, 0, 1}));
  EXPECT_EQ(place("gnc", apps, 2, {1, 1, 1}), (std::vector<int>{0, 1, 0}));
}

// System: 3 resources; X: n = 1, ρ = 0.5 (V = 5 GB, T_cpu = 5 s); Y: n = 2 with b(2) = 2 GB/s, V = 2 GB, T_cpu = 4 s
// (T_io = 1 s, ρ = 0.2); Z: n = 2, V = 1 GB, T_cpu = 9 s at b(2) = 1 GB/s (T_io = 1 s, ρ = 0.1); W: no I/O (ρ = 0), n
// = 1. Expectations: X → r0 (0.5); Y → r1, r2 (0.2 each); Z → r1, r2 (0.2 < 0.5); W → r1 (0.3, 0.3, 0.5: lowest index
// among the least loaded). Distinct resources within an application.
TEST(PlacementGc, SeveralResourcesPerApplicationAreDistinctAndLeastLoaded) {
  ios_profile_t x = flat(1e9), z = flat(1e9);
  ios_profile_t y{};
  y.npoints = 2;
  y.n[0] = 1;
  y.bw[0] = 1e9;
  y.n[1] = 2;
  y.bw[1] = 2e9;
  std::vector<ios_app_view_t> apps = {app(5e9, 5, &x), app(2e9, 4, &y), app(1e9, 9, &z), app(0, 10, &x)};
  EXPECT_EQ(place("gc", apps, 3, {1, 2, 2, 1}), (std::vector<int>{0, 1, 2, 1, 2, 1}));
}

// Expectations: a count above the pool is refused; zero counts take no resource.
TEST(PlacementGc, BadCountsAreInvalidAndZeroCountsTakeNothing) {
  ios_profile_t p = flat(1e9);
  std::vector<ios_app_view_t> apps = {app(1e9, 9, &p), app(4e9, 6, &p)};
  place("gc", apps, 2, {3, 1}, IOS_EINVAL);
  EXPECT_EQ(place("gc", apps, 2, {0, 1}), (std::vector<int>{0}));
}
