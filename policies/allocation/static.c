/* iosim — allocation `static` (RR-9549 §4.1 "Static"): n_j = round(Q_j·N / Q^cpu), at least 1, at most N. */
#include "../ios_policy.h"

#include <math.h>
#include <stddef.h>

static int static_allocate(const ios_pool_view_t *in, const ios_params_t *p, ios_rng_t *rng, int *n_out) {
  (void)p;
  (void)rng;
  if (in->total_nodes <= 0 || in->nres <= 0) return IOS_EINVAL;
  for (int j = 0; j < in->napps; j++) {
    double share = (double)in->apps[j].nodes * in->nres / in->total_nodes;
    int n = (int)floor(share + 0.5); /* closest integer, halves rounded up */
    n_out[j] = n < 1 ? 1 : (n > in->nres ? in->nres : n);
  }
  return IOS_OK;
}

const ios_allocation_policy_t ios_allocation_static = {
    .name = "static",
    .alias = NULL,
    .description = "round(Q_j*N/Q) resources, at least 1: proportional to compute nodes",
    .source = "RR-9549 §4.1 (Static)",
    .nparams = 0,
    .params = NULL,
    .allocate = static_allocate,
    .keeps_running = 1,
};
