/* iosim — allocation `best-bandwidth` (alias `bba`, RR-9549 §4.1 "BestBdw"): every application gets n_perf, the
 * count in 1..N maximising its bandwidth b_j(n) (RR-9549 Eq. 1; ios_profile_nperf, smallest on ties). It minimises
 * each application's ρ^io whatever the congestion it causes.
 * Inputs (RR-9549 Table 2): n_perf only (here computed from the profile b_j). */
#include "../ios_policy.h"

#include <stddef.h>

static int bba_allocate(const ios_pool_view_t *in, const ios_params_t *p, ios_rng_t *rng, int *n_out) {
  (void)p;
  (void)rng;
  if (in->nres < 1) return IOS_EINVAL;
  for (int j = 0; j < in->napps; j++)
    n_out[j] = ios_profile_nperf(in->apps[j].profile, in->nres);
  return IOS_OK;
}

const ios_allocation_policy_t ios_allocation_best_bandwidth = {
    .name = "best-bandwidth",
    .alias = "bba",
    .description = "n_perf = argmax b_j(n) over 1..N per application (fastest I/O in isolation)",
    .source = "RR-9549 §4.1 (BestBdw), Eq. 1",
    .nparams = 0,
    .params = NULL,
    .allocate = bba_allocate,
};
