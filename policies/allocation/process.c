/* iosim — allocation `process` (IPDPS'21 §3.2 "PROCESS"): as `size` with the application's processes s_a instead
 * of its compute nodes: n_a = round(F·s_a / Σ_i s_i) (ios_allocation_proportional). An application whose process
 * count is unknown (ios_app_view_t.processes <= 0) counts its compute nodes. Parameter `points`: as `static-ceil`.
 * Inputs: s_a, processes (easy: from the resource manager). */
#include "../ios_policy.h"

#include <stddef.h>

static const ios_param_spec_t process_params[] = {
    {"points", 0, "", "1 = lower each count to the largest count where the profile has a point (measured counts)", 0, 1,
     1},
};

static int process_allocate(const ios_pool_view_t *in, const ios_params_t *p, ios_rng_t *rng, int *n_out) {
  (void)rng;
  if (p->v[0] != 0 && p->v[0] != 1) return IOS_EINVAL;
  return ios_allocation_proportional(in, 1, (int)p->v[0], n_out);
}

const ios_allocation_policy_t ios_allocation_process = {
    .name = "process",
    .alias = NULL,
    .description = "round(F*s_a/sum s) resources: the whole pool shared in proportion to processes",
    .source = "IPDPS'21 §3.2 (PROCESS)",
    .nparams = 1,
    .params = process_params,
    .allocate = process_allocate,
};
