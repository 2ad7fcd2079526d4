/* iosim — bandwidth profiles and I/O-Stress (see ios_profile.h). */
#include "ios_profile.h"

#include <math.h>
#include <stddef.h>

double ios_profile_bw(const ios_profile_t *p, int n) {
  if (p == NULL || p->npoints <= 0 || n < 0) return 0.0;
  for (int i = 0; i < p->npoints; i++)
    if (p->n[i] == n) return p->bw[i];
  if (n == 0) return 0.0;
  /* n >= 1 and not a point: interpolate among the points with n >= 1 */
  int lo = -1, hi = -1;
  for (int i = 0; i < p->npoints; i++) {
    if (p->n[i] < 1) continue;
    if (p->n[i] < n)
      lo = i;
    else if (hi < 0)
      hi = i;
  }
  if (lo < 0 && hi < 0) return 0.0;
  if (lo < 0) return p->bw[hi];
  if (hi < 0) return p->bw[lo];
  double f = (double)(n - p->n[lo]) / (double)(p->n[hi] - p->n[lo]);
  return p->bw[lo] + f * (p->bw[hi] - p->bw[lo]);
}

int ios_profile_nperf(const ios_profile_t *p, int nmax) {
  int best = 1;
  double best_bw = ios_profile_bw(p, 1);
  for (int n = 2; n <= nmax; n++) { /* every available count, interpolated ones included */
    double bw = ios_profile_bw(p, n);
    if (bw > best_bw) {
      best = n;
      best_bw = bw;
    }
  }
  return best;
}

double ios_io_stress(const ios_profile_t *p, int n, double volume, double work) {
  double bw = ios_profile_bw(p, n);
  if (volume <= 0.0) return 0.0;
  if (bw <= 0.0) return (double)n; /* never finishes its I/O: the resources are busy all the time */
  double tio = volume / bw;
  return (double)n * tio / (work + tio);
}

const char *ios_shape_name(int shape) {
  static const char *const names[] = {"ascent", "descent", "peak", "neutral"};
  return shape >= 0 && shape < 4 ? names[shape] : "?";
}

int ios_profile_shape(const ios_profile_t *p, double flat) {
  int best = -1, first = -1, last = -1;
  double hi = -INFINITY, lo = INFINITY;
  for (int i = 0; i < p->npoints; i++) {
    if (p->n[i] < 1) continue;
    if (first < 0) first = i;
    last = i;
    if (p->bw[i] > hi) hi = p->bw[i], best = i;
    if (p->bw[i] < lo) lo = p->bw[i];
  }
  if (best < 0 || !(hi > 0) || (hi - lo) / hi < flat) return IOS_SHAPE_NEUTRAL;
  return best == last ? IOS_SHAPE_ASCENT : best == first ? IOS_SHAPE_DESCENT : IOS_SHAPE_PEAK;
}
