/* iosim — what allocation and placement policies know (see ios_knowledge.h). */
#include "ios_knowledge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEGREE 6

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

/* Solves the (d+1)×(d+1) system a·x = y by Gaussian elimination with partial pivoting; 0 when singular. */
static int solve(int m, double a[MAX_DEGREE + 1][MAX_DEGREE + 1], double *y, double *x) {
  for (int c = 0; c < m; c++) {
    int piv = c;
    for (int r = c + 1; r < m; r++)
      if (fabs(a[r][c]) > fabs(a[piv][c])) piv = r;
    if (!(fabs(a[piv][c]) > 0)) return 0;
    for (int k = 0; k < m; k++) {
      double t = a[c][k];
      a[c][k] = a[piv][k];
      a[piv][k] = t;
    }
    double t = y[c];
    y[c] = y[piv];
    y[piv] = t;
    for (int r = c + 1; r < m; r++) {
      double f = a[r][c] / a[c][c];
      for (int k = c; k < m; k++)
        a[r][k] -= f * a[c][k];
      y[r] -= f * y[c];
    }
  }
  for (int r = m - 1; r >= 0; r--) {
    double s = y[r];
    for (int k = r + 1; k < m; k++)
      s -= a[r][k] * x[k];
    x[r] = s / a[r][r];
  }
  return 1;
}

int ios_knowledge_group_fit(int napps, ios_profile_t *seen, int degree, double flat) {
  if (degree < 0) return IOS_EINVAL;
  int *shape = malloc(sizeof *shape * (size_t)(napps > 0 ? napps : 1));
  if (shape == NULL) return IOS_ENOMEM;
  for (int j = 0; j < napps; j++)
    shape[j] = ios_profile_shape(&seen[j], flat);
  for (int g = 0; g < 4; g++) {
    /* distinct counts and the largest bandwidth of the group */
    int counts[64], ncounts = 0;
    double top = 0;
    for (int j = 0; j < napps; j++)
      for (int i = 0; shape[j] == g && i < seen[j].npoints; i++) {
        if (seen[j].n[i] < 1) continue;
        int known = 0;
        for (int c = 0; c < ncounts; c++)
          known |= counts[c] == seen[j].n[i];
        if (!known && ncounts < 64) counts[ncounts++] = seen[j].n[i];
        top = fmax(top, seen[j].bw[i]);
      }
    if (ncounts == 0) continue;
    int d = degree < ncounts - 1 ? degree : ncounts - 1;
    if (d > MAX_DEGREE) d = MAX_DEGREE;
    int m = d + 1;
    /* normal equations in x = n (bandwidths scaled by `top` for conditioning) */
    double a[MAX_DEGREE + 1][MAX_DEGREE + 1], y[MAX_DEGREE + 1], coef[MAX_DEGREE + 1];
    memset(a, 0, sizeof a);
    memset(y, 0, sizeof y);
    for (int j = 0; j < napps; j++)
      for (int i = 0; shape[j] == g && i < seen[j].npoints; i++) {
        if (seen[j].n[i] < 1) continue;
        double pw[2 * MAX_DEGREE + 1];
        pw[0] = 1;
        for (int k = 1; k <= 2 * d; k++)
          pw[k] = pw[k - 1] * seen[j].n[i];
        for (int r = 0; r < m; r++) {
          for (int c = 0; c < m; c++)
            a[r][c] += pw[r + c];
          y[r] += pw[r] * seen[j].bw[i] / top;
        }
      }
    if (!solve(m, a, y, coef)) continue; /* cannot happen with d < distinct counts */
    for (int j = 0; j < napps; j++)
      for (int i = 0; shape[j] == g && i < seen[j].npoints; i++) {
        if (seen[j].n[i] < 1) continue;
        double v = 0;
        for (int k = d; k >= 0; k--)
          v = v * seen[j].n[i] + coef[k];
        seen[j].bw[i] = fmax(v, 1e-6) * top;
      }
  }
  free(shape);
  return IOS_OK;
}

void ios_knowledge_noise(int napps, ios_app_view_t *views, double sigma, uint64_t seed) {
  if (!(sigma > 0)) return;
  ios_rng_t rng;
  ios_rng_seed(&rng, seed, IOS_STREAM_KNOWLEDGE);
  for (int j = 0; j < napps; j++) {
    for (int k = 0; k < 2; k++) {
      double u = 1.0 - ios_rng_uniform(&rng), v = ios_rng_uniform(&rng);
      double z = sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
      if (k == 0)
        views[j].volume *= exp(sigma * z);
      else
        views[j].work *= exp(sigma * z);
    }
  }
}
