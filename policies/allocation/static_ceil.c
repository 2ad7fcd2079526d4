/* iosim — allocation `static-ceil` (IPDPS'21 §3.2 "STATIC"): the fixed compute-node to I/O-node mapping of machines
 * with forwarding: n_a = ceil(C_a / R) with R = C / F, i.e. ceil(C_a·F / C), at most F, where C_a is the
 * application's compute nodes, C the platform's (Q^cpu) and F the pool size N. Unlike RR-9549's `static` it rounds
 * up, so a small application still gets one resource.
 * Parameter `points` (IPDPS'21 measured only 0, 1, 2, 4, 8 I/O nodes): 1 lowers each count to the largest count at
 * which the application's profile has a point (ios_profile_point_below).
 * Inputs: C_a (RR-9549 Table 2 "Q_j", easy). */
#include "../ios_policy.h"

#include <stddef.h>

static const ios_param_spec_t static_ceil_params[] = {
    {"points", 0, "", "1 = lower each count to the largest count where the profile has a point (measured counts)", 0, 1,
     1},
};

static int static_ceil_allocate(const ios_pool_view_t *in, const ios_params_t *p, ios_rng_t *rng, int *n_out) {
  (void)rng;
  int points = (int)p->v[0];
  if (in->total_nodes < 1 || in->nres < 1 || (p->v[0] != 0 && p->v[0] != 1)) return IOS_EINVAL;
  for (int j = 0; j < in->napps; j++)
    if (in->apps[j].nodes < 1) return IOS_EINVAL;
  for (int j = 0; j < in->napps; j++) {
    long long c = in->total_nodes;
    long long n = ((long long)in->apps[j].nodes * in->nres + c - 1) / c; /* ceil(C_a·F/C), exact in integers */
    n = n > in->nres ? in->nres : n;
    n_out[j] = points ? ios_profile_point_below(in->apps[j].profile, (int)n) : (int)n;
  }
  return IOS_OK;
}

const ios_allocation_policy_t ios_allocation_static_ceil = {
    .name = "static-ceil",
    .alias = NULL,
    .description = "ceil(C_a/R) resources with R = C/F compute nodes per resource (static mapping)",
    .source = "IPDPS'21 §3.2 (STATIC)",
    .nparams = 1,
    .params = static_ceil_params,
    .allocate = static_ceil_allocate,
    .keeps_running = 1,
};
