// iosim unit tests — what policies know (src/sim/ios_knowledge.h, RR-9549 §6.2): profile shapes, the per-group
// polynomial fit and the multiplicative noise on volumes and compute times.
#include "ios_knowledge.h"

#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <utility>
#include <vector>

namespace {

ios_profile_t profile(std::initializer_list<std::pair<int, double>> points) {
  ios_profile_t p{};
  for (const auto &pt : points) {
    p.n[p.npoints] = pt.first;
    p.bw[p.npoints++] = pt.second;
  }
  return p;
}

int shape(std::initializer_list<std::pair<int, double>> points) {
  ios_profile_t p = profile(points);
  return ios_profile_shape(&p, 0.2);
}

} // namespace

// Expectations (RR-9549 Fig. 1 shapes over n >= 1, flat = 0.2): best count last → ascent, first → descent, inside →
// peak; a relative variation (max − min)/max = 0.1/1.1 < 0.2 → neutral; a direct-access point n = 0 is ignored.
TEST(KnowledgeShape, AscentDescentPeakNeutral) {
  EXPECT_EQ(shape({{1, 1}, {2, 2}, {4, 4}}), IOS_SHAPE_ASCENT);
  EXPECT_EQ(shape({{1, 4}, {2, 2}, {4, 1}}), IOS_SHAPE_DESCENT);
  EXPECT_EQ(shape({{1, 1}, {2, 3}, {4, 2}}), IOS_SHAPE_PEAK);
  EXPECT_EQ(shape({{1, 1}, {2, 1.1}, {4, 1.05}}), IOS_SHAPE_NEUTRAL);
  EXPECT_EQ(shape({{0, 10}, {1, 1}, {2, 2}}), IOS_SHAPE_ASCENT);
  EXPECT_STREQ(ios_shape_name(IOS_SHAPE_PEAK), "peak");
}

// System: two ascent profiles b = 1e9·n and 2e9·n at n = 1, 2, 4, 8, and one descent profile 8e9/n.
// Expectations: the ascent group's least-squares quadratic through the points is the mean line 1.5e9·n (the means
// at each count lie on it, so the fit is exact): both ascent applications are seen with 1.5e9·n; the descent
// application is alone in its group and a quadratic through its 4 points is its own least-squares fit, not exact:
// its seen values keep its shape (decreasing) and their sum equals its own (a property of least squares with a
// constant term). The fit counts 2 ascent and 1 descent profiles, no peak or neutral (degree −1); applied to a peak
// profile it leaves it as measured and reports it kept.
TEST(KnowledgeGroupFit, OnePolynomialPerShapeGroup) {
  std::vector<ios_profile_t> p = {profile({{1, 1e9}, {2, 2e9}, {4, 4e9}, {8, 8e9}}),
                                  profile({{1, 2e9}, {2, 4e9}, {4, 8e9}, {8, 16e9}}),
                                  profile({{1, 8e9}, {2, 4e9}, {4, 2e9}, {8, 1e9}})};
  ios_knowledge_fit_t fit;
  ASSERT_EQ(ios_knowledge_fit(3, p.data(), 2, 0.2, &fit), IOS_OK);
  EXPECT_EQ(fit.profiles[IOS_SHAPE_ASCENT], 2);
  EXPECT_EQ(fit.profiles[IOS_SHAPE_DESCENT], 1);
  EXPECT_EQ(fit.degree[IOS_SHAPE_ASCENT], 2);
  EXPECT_EQ(fit.degree[IOS_SHAPE_PEAK], -1);
  EXPECT_EQ(ios_knowledge_apply(&fit, 3, p.data()), 0);
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 4; i++)
      EXPECT_NEAR(p[j].bw[i], 1.5e9 * p[j].n[i], 1e-6 * 1.5e9 * p[j].n[i]) << j << " " << i;
  double sum = 0;
  for (int i = 0; i < 4; i++) {
    sum += p[2].bw[i];
    if (i > 0) {
      EXPECT_LT(p[2].bw[i], p[2].bw[i - 1]);
    }
  }
  EXPECT_NEAR(sum, 15e9, 1e-6 * 15e9);
  ios_profile_t peak = profile({{1, 1e9}, {2, 3e9}, {4, 2e9}});
  EXPECT_EQ(ios_knowledge_apply(&fit, 1, &peak), 1);
  EXPECT_EQ(peak.bw[1], 3e9);
  EXPECT_EQ(ios_knowledge_fit(3, p.data(), -1, 0.2, &fit), IOS_EINVAL);
}

// System: 4,000 applications with volume 1 and work 1, σ = 0.5, seed 3; again with seed 3; with σ = 0.
// Expectations: the logs of the seen values are N(0, σ²): sample mean within 0.03 of 0 and standard deviation
// within 0.03 of 0.5 (4,000 draws: standard errors 0.008 and 0.006); the same seed gives the same values; σ = 0
// changes nothing.
TEST(KnowledgeNoise, LogNormalFactorsOnVolumeAndWork) {
  const int n = 4000;
  std::vector<ios_app_view_t> v(n), again(n), none(n);
  for (auto *vec : {&v, &again, &none})
    for (auto &a : *vec)
      a.volume = a.work = 1.0;
  ios_knowledge_noise(n, v.data(), 0.5, 3);
  ios_knowledge_noise(n, again.data(), 0.5, 3);
  ios_knowledge_noise(n, none.data(), 0.0, 3);
  for (int k = 0; k < 2; k++) {
    double s = 0, s2 = 0;
    for (const auto &a : v) {
      double x = std::log(k == 0 ? a.volume : a.work);
      s += x;
      s2 += x * x;
    }
    double mean = s / n, sd = std::sqrt(s2 / n - mean * mean);
    EXPECT_NEAR(mean, 0.0, 0.03) << k;
    EXPECT_NEAR(sd, 0.5, 0.03) << k;
  }
  for (int j = 0; j < n; j++) {
    EXPECT_EQ(v[j].volume, again[j].volume);
    EXPECT_EQ(v[j].work, again[j].work);
    EXPECT_EQ(none[j].volume, 1.0);
    EXPECT_EQ(none[j].work, 1.0);
  }
}
