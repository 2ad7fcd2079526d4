/* iosim — allocation `random` (RR-9549 §4.1 "Random", the baseline): each application receives a count drawn
 * uniformly in 1..N from the policy's random stream, in workload order.
 * Inputs (RR-9549 Table 2): none. Needs a random stream (IOS_EINVAL without one). */
#include "../ios_policy.h"

#include <stddef.h>

static int random_allocate(const ios_pool_view_t *in, const ios_params_t *p, ios_rng_t *rng, int *n_out) {
  (void)p;
  if (rng == NULL || in->nres < 1) return IOS_EINVAL;
  for (int j = 0; j < in->napps; j++)
    n_out[j] = 1 + (int)ios_rng_below(rng, (uint64_t)in->nres);
  return IOS_OK;
}

const ios_allocation_policy_t ios_allocation_random = {
    .name = "random",
    .alias = NULL,
    .description = "a count drawn uniformly in 1..N per application (baseline)",
    .source = "RR-9549 §4.1 (Random)",
    .nparams = 0,
    .params = NULL,
    .allocate = random_allocate,
};
