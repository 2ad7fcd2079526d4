/* iosim — allocation `fixed`: the resource count comes from the scenario. */
#include "../ios_policy.h"

#include <stddef.h>

static const ios_param_spec_t fixed_params[] = {
    {"n", 1, "resources", "resources per application (an application's own \"io_resources\" overrides it)", 0, 1e6, 1},
};

static int fixed_allocate(const ios_pool_view_t *in, const ios_params_t *p, ios_rng_t *rng, int *n_out) {
  (void)rng;
  for (int j = 0; j < in->napps; j++) {
    double n = in->apps[j].requested_n >= 0 ? in->apps[j].requested_n : p->v[0];
    if (n < 0 || n > in->nres || n != (double)(int)n) return IOS_EINVAL;
  }
  for (int j = 0; j < in->napps; j++)
    n_out[j] = in->apps[j].requested_n >= 0 ? in->apps[j].requested_n : (int)p->v[0];
  return IOS_OK;
}

const ios_allocation_policy_t ios_allocation_fixed = {
    .name = "fixed",
    .alias = NULL,
    .description = "n resources per application, as the scenario says (0 = direct PFS access)",
    .source = "baseline (IPDPS'21 ZERO/ONE are fixed n = 0/1)",
    .nparams = 1,
    .params = fixed_params,
    .allocate = fixed_allocate,
    .keeps_running = 1,
};
