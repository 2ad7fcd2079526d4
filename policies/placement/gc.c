/* iosim — placement `greedy-clairvoyant` (RR-9549 §4.2, GC). Needs each application's volume V, work T_cpu and
 * profile b_j(n) (RR-9549 Table 2: clairvoyant).
 *
 * With n_j resources, application j spends the congestion-free fraction ρ_j = T_io/(T_cpu + T_io) of its time in
 * I/O, T_io = V/b_j(n_j), and stresses each of its resources by I-O-Stress(j, n_j)/n_j = ρ_j (RR-9549 §3.2).
 * Applications are taken by decreasing ρ_j (ties: workload order); each gets the n_j resources of least accumulated
 * stress (ties: lowest index), which then carry ρ_j more. Applications with n_j = 0 are skipped. */
#include "../ios_policy.h"

#include <stdlib.h>

/* ρ_j: the congestion-free I/O ratio with n resources (0 without I/O; 1 when b_j(n) = 0 but there is I/O). */
static double io_ratio(const ios_app_view_t *a, int n) {
  if (!(a->volume > 0) || n <= 0) return 0;
  double b = ios_profile_bw(a->profile, n);
  if (!(b > 0)) return 1;
  double tio = a->volume / b;
  return tio / (a->work + tio);
}

static int gc_place(const ios_pool_view_t *in, const int *n, const ios_params_t *p, ios_rng_t *rng, int *res_out) {
  (void)p;
  (void)rng;
  int k = in->napps, nres = in->nres;
  int *order = malloc(sizeof *order * (size_t)(k > 0 ? k : 1)), *off = malloc(sizeof *off * (size_t)(k > 0 ? k : 1));
  double *rho = malloc(sizeof *rho * (size_t)(k > 0 ? k : 1));
  double *load = calloc((size_t)(nres > 0 ? nres : 1), sizeof *load);
  char *taken = calloc((size_t)(nres > 0 ? nres : 1), 1);
  int rc = order && off && rho && load && taken ? IOS_OK : IOS_ENOMEM;
  int total = 0;
  for (int j = 0; rc == IOS_OK && j < k; j++) {
    if (n[j] < 0 || n[j] > nres) rc = IOS_EINVAL;
    off[j] = total;
    total += n[j];
    order[j] = j;
    rho[j] = rc == IOS_OK ? io_ratio(&in->apps[j], n[j]) : 0;
  }
  /* stable insertion sort by decreasing ρ (K is small: hundreds) */
  for (int a = 1; rc == IOS_OK && a < k; a++) {
    int x = order[a], b = a - 1;
    while (b >= 0 && rho[order[b]] < rho[x]) {
      order[b + 1] = order[b];
      b--;
    }
    order[b + 1] = x;
  }
  for (int a = 0; rc == IOS_OK && a < k; a++) {
    int j = order[a];
    for (int i = 0; i < n[j]; i++) { /* the least loaded resource not yet given to j */
      int best = -1;
      for (int r = 0; r < nres; r++)
        if (!taken[r] && (best < 0 || load[r] < load[best])) best = r;
      taken[best] = 1;
      res_out[off[j] + i] = best;
    }
    for (int i = 0; i < n[j]; i++) {
      load[res_out[off[j] + i]] += rho[j];
      taken[res_out[off[j] + i]] = 0;
    }
  }
  free(order);
  free(off);
  free(rho);
  free(load);
  free(taken);
  return rc;
}

const ios_placement_policy_t ios_placement_gc = {
    .name = "greedy-clairvoyant",
    .alias = "gc",
    .description = "sort by decreasing congestion-free I/O ratio, place each on the least stressed resources",
    .source = "RR-9549 §4.2 (Greedy-Clairvoyant)",
    .nparams = 0,
    .params = NULL,
    .place = gc_place,
};
