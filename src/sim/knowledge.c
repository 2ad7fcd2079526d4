/* iosim — what allocation and placement policies know (see ios_knowledge.h). */
#include "ios_knowledge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEGREE IOS_FIT_MAX_DEGREE

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

/* Least-squares polynomial of group g over the points (n >= 1) of the population's profiles of that shape; leaves
 * fit->degree[g] = -1 when the group has no point. */
static void fit_group(int npop, const ios_profile_t *pop, const int *shape, int g, int degree,
                      ios_knowledge_fit_t *fit) {
  /* distinct counts and the largest bandwidth of the group */
  int counts[64], ncounts = 0;
  double top = 0;
  fit->degree[g] = -1;
  for (int j = 0; j < npop; j++)
    for (int i = 0; shape[j] == g && i < pop[j].npoints; i++) {
      if (pop[j].n[i] < 1) continue;
      int known = 0;
      for (int c = 0; c < ncounts; c++)
        known |= counts[c] == pop[j].n[i];
      if (!known && ncounts < 64) counts[ncounts++] = pop[j].n[i];
      top = fmax(top, pop[j].bw[i]);
    }
  if (ncounts == 0) return;
  int d = degree < ncounts - 1 ? degree : ncounts - 1;
  if (d > MAX_DEGREE) d = MAX_DEGREE;
  int m = d + 1;
  /* normal equations in x = n (bandwidths scaled by `top` for conditioning) */
  double a[MAX_DEGREE + 1][MAX_DEGREE + 1], y[MAX_DEGREE + 1], coef[MAX_DEGREE + 1];
  memset(a, 0, sizeof a);
  memset(y, 0, sizeof y);
  for (int j = 0; j < npop; j++)
    for (int i = 0; shape[j] == g && i < pop[j].npoints; i++) {
      if (pop[j].n[i] < 1) continue;
      double pw[2 * MAX_DEGREE + 1];
      pw[0] = 1;
      for (int k = 1; k <= 2 * d; k++)
        pw[k] = pw[k - 1] * pop[j].n[i];
      for (int r = 0; r < m; r++) {
        for (int c = 0; c < m; c++)
          a[r][c] += pw[r + c];
        y[r] += pw[r] * pop[j].bw[i] / top;
      }
    }
  if (!solve(m, a, y, coef)) return; /* cannot happen with d < distinct counts */
  fit->degree[g] = d;
  fit->top[g] = top;
  for (int k = 0; k <= d; k++)
    fit->coef[g][k] = coef[k] * top;
}

int ios_knowledge_fit(int npop, const ios_profile_t *pop, int degree, double flat, ios_knowledge_fit_t *fit) {
  if (degree < 0) return IOS_EINVAL;
  int *shape = malloc(sizeof *shape * (size_t)(npop > 0 ? npop : 1));
  if (shape == NULL) return IOS_ENOMEM;
  memset(fit, 0, sizeof *fit);
  fit->flat = flat;
  for (int j = 0; j < npop; j++) {
    shape[j] = ios_profile_shape(&pop[j], flat);
    fit->profiles[shape[j]]++;
  }
  for (int g = 0; g < 4; g++)
    fit_group(npop, pop, shape, g, degree, fit);
  free(shape);
  return IOS_OK;
}

double ios_knowledge_fit_eval(const ios_knowledge_fit_t *fit, int shape, int n) {
  double v = 0;
  for (int k = fit->degree[shape]; k >= 0; k--)
    v = v * n + fit->coef[shape][k];
  return fmax(v, 1e-6 * fit->top[shape]);
}

int ios_knowledge_apply(const ios_knowledge_fit_t *fit, int napps, ios_profile_t *seen) {
  int kept = 0;
  for (int j = 0; j < napps; j++) {
    int g = ios_profile_shape(&seen[j], fit->flat);
    if (fit->degree[g] < 0) {
      kept++;
      continue;
    }
    for (int i = 0; i < seen[j].npoints; i++)
      if (seen[j].n[i] >= 1) seen[j].bw[i] = ios_knowledge_fit_eval(fit, g, seen[j].n[i]);
  }
  return kept;
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
