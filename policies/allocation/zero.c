/* iosim — allocation `zero` (IPDPS'21 §3.2 "ZERO"): no application uses forwarding; all go to the PFS directly.
 * The engine accepts it only when every application has a profile point n = 0 and the platform a PFS host.
 * Inputs: none. */
#include "../ios_policy.h"

#include <stddef.h>

static int zero_allocate(const ios_pool_view_t *in, const ios_params_t *p, ios_rng_t *rng, int *n_out) {
  (void)p;
  (void)rng;
  for (int j = 0; j < in->napps; j++)
    n_out[j] = 0;
  return IOS_OK;
}

const ios_allocation_policy_t ios_allocation_zero = {
    .name = "zero",
    .alias = NULL,
    .description = "0 resources for every application (direct PFS access)",
    .source = "IPDPS'21 §3.2 (ZERO)",
    .nparams = 0,
    .params = NULL,
    .allocate = zero_allocate,
};
