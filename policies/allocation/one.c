/* iosim — allocation `one` (IPDPS'21 §3.2 "ONE"): every application uses one I/O resource. The paper means one
 * non-shared I/O node each; whether they are distinct is the placement's decision.
 * Inputs: none. */
#include "../ios_policy.h"

#include <stddef.h>

static int one_allocate(const ios_pool_view_t *in, const ios_params_t *p, ios_rng_t *rng, int *n_out) {
  (void)p;
  (void)rng;
  if (in->nres < 1) return IOS_EINVAL;
  for (int j = 0; j < in->napps; j++)
    n_out[j] = 1;
  return IOS_OK;
}

const ios_allocation_policy_t ios_allocation_one = {
    .name = "one",
    .alias = NULL,
    .description = "1 resource for every application",
    .source = "IPDPS'21 §3.2 (ONE)",
    .nparams = 0,
    .params = NULL,
    .allocate = one_allocate,
};
