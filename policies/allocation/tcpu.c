/* iosim — allocation `tcpu` (alias `ta`, RR-9549 §4.1 "TCPU-Allocator", Algorithm 1): a compromise between
 * `nsys` and `best-bandwidth`. It starts from π_sys (n_sys for everyone) and, round after round, moves one
 * application towards its n_perf: the one whose move raises the compute-node utilisation
 * CPUload(i, n) = Q_i·T_cpu / (T_cpu + T_io(n)) the most, provided the I/O-load (RR-9549 Eq. 3,
 * Σ_i I/O-Stress(i, n_i) / N) stays <= 1. It stops when no application has such a move.
 *
 * One round, as Algorithm 1 writes it: for each application i, scan n = π(i)+1, π(i)+2, ... up to n_perf(i); a
 * count n is admissible when I/O-load(π) − I/O-Stress(i, π(i))/N + I/O-Stress(i, n)/N <= 1 (the other applications
 * keep their counts). At each admissible n the gain is CPUload(i, n) − CPUload(i, π̃(i)), where π̃(i) is the
 * previously admissible count of this scan (π(i) at first, Algorithm 1 lines 12-13), and the scan stops at the first
 * admissible n with a gain >= 0. Then the application with the largest gain (the first one on ties) takes its
 * candidate count; when every gain is negative (or nobody has an admissible count) the allocation is final.
 * Consequences: the I/O-load never exceeds max(1, I/O-load(π_sys)) — when π_sys already saturates the system
 * (I/O-load > 1) no move is admissible and the result is π_sys — and when I/O-load(π_perf) <= 1 the result is
 * π_perf, as BBA (RR-9549 §4.1). T_io(n) = V_io / b(n); CPUload is Q_i when V_io = 0 and 0 when b(n) = 0.
 * Inputs (RR-9549 Table 2): Q_j, V_io^j, T_cpu^j and the profile b_j. */
#include "../ios_policy.h"

#include <stdlib.h>

/* Q·T_cpu / (T_cpu + T_io(n)) */
static double cpuload(const ios_app_view_t *a, int n) {
  if (a->volume <= 0.0) return (double)a->nodes;
  double bw = ios_profile_bw(a->profile, n);
  if (bw <= 0.0) return 0.0;
  double tio = a->volume / bw;
  return (double)a->nodes * a->work / (a->work + tio);
}

static int tcpu_allocate(const ios_pool_view_t *in, const ios_params_t *p, ios_rng_t *rng, int *n_out) {
  (void)p;
  (void)rng;
  int k = in->napps, nres = in->nres;
  if (nres < 1) return IOS_EINVAL;
  if (k == 0) return IOS_OK;
  size_t cells = (size_t)k * (size_t)(nres + 1);
  double *stress = malloc(sizeof *stress * cells); /* [j][n], n in 0..N (0 unused) */
  double *cpu = malloc(sizeof *cpu * cells);
  int *pi = malloc(sizeof *pi * (size_t)k), *nperf = malloc(sizeof *nperf * (size_t)k);
  int *cand = malloc(sizeof *cand * (size_t)k);
  double *gain = malloc(sizeof *gain * (size_t)k);
  if (!stress || !cpu || !pi || !nperf || !cand || !gain) {
    free(stress);
    free(cpu);
    free(pi);
    free(nperf);
    free(cand);
    free(gain);
    return IOS_ENOMEM;
  }
  for (int j = 0; j < k; j++) {
    const ios_app_view_t *a = &in->apps[j];
    for (int n = 1; n <= nres; n++) {
      stress[(size_t)j * (nres + 1) + n] = ios_io_stress(a->profile, n, a->volume, a->work);
      cpu[(size_t)j * (nres + 1) + n] = cpuload(a, n);
    }
    pi[j] = ios_profile_nsys(a->profile, nres, a->volume, a->work); /* line 1: π ← π_sys */
    nperf[j] = ios_profile_nperf(a->profile, nres);
  }
#define STRESS(j, n) stress[(size_t)(j) * (nres + 1) + (n)]
#define CPU(j, n) cpu[(size_t)(j) * (nres + 1) + (n)]
  for (;;) {
    double load = 0.0; /* line 6: I/O-load(π) */
    for (int j = 0; j < k; j++)
      load += STRESS(j, pi[j]);
    load /= nres;
    int best = -1;
    for (int j = 0; j < k; j++) { /* lines 7-13 */
      gain[j] = -1.0;
      cand[j] = pi[j];
      /* n < n_perf rather than n != n_perf: the same by Lemma 1 (n_sys <= n_perf), and safe against rounding */
      for (int n = pi[j] + 1; n <= nperf[j] && gain[j] < 0.0; n++) {
        if (load + (STRESS(j, n) / nres - STRESS(j, pi[j]) / nres) <= 1.0) {
          gain[j] = CPU(j, n) - CPU(j, cand[j]);
          cand[j] = n;
        }
      }
      if (best < 0 || gain[j] > gain[best]) best = j; /* line 14: argmax, the first on ties */
    }
    if (gain[best] < 0.0) break; /* lines 15-16 */
    pi[best] = cand[best];       /* line 18 */
  }
#undef STRESS
#undef CPU
  for (int j = 0; j < k; j++)
    n_out[j] = pi[j];
  free(stress);
  free(cpu);
  free(pi);
  free(nperf);
  free(cand);
  free(gain);
  return IOS_OK;
}

const ios_allocation_policy_t ios_allocation_tcpu = {
    .name = "tcpu",
    .alias = "ta",
    .description = "from n_sys, move applications towards n_perf by largest CPU-load gain while I/O-load <= 1",
    .source = "RR-9549 §4.1 (TCPU-Allocator), Algorithm 1",
    .nparams = 0,
    .params = NULL,
    .allocate = tcpu_allocate,
};
