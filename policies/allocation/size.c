/* iosim — allocation `size` (IPDPS'21 §3.2 "SIZE"): the pool is divided among the applications in proportion to
 * their compute nodes: n_a = round(F·C_a / Σ_i C_i) (halves up), so every resource is used even when compute nodes
 * are idle. At most F; 1 instead of 0 for an application that cannot access the PFS directly (no profile point
 * n = 0). Parameter `points`: as `static-ceil`. Also ios_allocation_proportional, shared with `process`.
 * Inputs: C_a (easy). */
#include "../ios_policy.h"

#include <math.h>
#include <stddef.h>

int ios_allocation_proportional(const ios_pool_view_t *in, int by_processes, int points, int *n_out) {
  if (in->nres < 1) return IOS_EINVAL;
  double total = 0.0;
  for (int j = 0; j < in->napps; j++) {
    const ios_app_view_t *a = &in->apps[j];
    int s = by_processes && a->processes > 0 ? a->processes : a->nodes;
    if (s < 1) return IOS_EINVAL;
    total += s;
  }
  for (int j = 0; j < in->napps; j++) {
    const ios_app_view_t *a = &in->apps[j];
    int s = by_processes && a->processes > 0 ? a->processes : a->nodes;
    int n = (int)floor((double)in->nres * s / total + 0.5);
    n = n > in->nres ? in->nres : n;
    if (n == 0 && ios_profile_bw(a->profile, 0) <= 0.0) n = 1;
    n_out[j] = points ? ios_profile_point_below(a->profile, n) : n;
  }
  return IOS_OK;
}

static const ios_param_spec_t size_params[] = {
    {"points", 0, "", "1 = lower each count to the largest count where the profile has a point (measured counts)", 0, 1,
     1},
};

static int size_allocate(const ios_pool_view_t *in, const ios_params_t *p, ios_rng_t *rng, int *n_out) {
  (void)rng;
  if (p->v[0] != 0 && p->v[0] != 1) return IOS_EINVAL;
  return ios_allocation_proportional(in, 0, (int)p->v[0], n_out);
}

const ios_allocation_policy_t ios_allocation_size = {
    .name = "size",
    .alias = NULL,
    .description = "round(F*C_a/sum C) resources: the whole pool shared in proportion to compute nodes",
    .source = "IPDPS'21 §3.2 (SIZE)",
    .nparams = 1,
    .params = size_params,
    .allocate = size_allocate,
};
