/* iosim — allocation `nsys` (alias `nsysa`, RR-9549 §4.1 "Nsys-Allocator"): every application gets n_sys, the count
 * in 1..N minimising its I/O-Stress n·T_io(n) / (T_cpu + T_io(n)) (RR-9549 Eq. 2; ios_profile_nsys, smallest on
 * ties). The result π_sys minimises the I/O-load (RR-9549 Eq. 3).
 * Inputs (RR-9549 Table 2): V_io^j, T_cpu^j and the profile b_j. */
#include "../ios_policy.h"

#include <stddef.h>

static int nsys_allocate(const ios_pool_view_t *in, const ios_params_t *p, ios_rng_t *rng, int *n_out) {
  (void)p;
  (void)rng;
  if (in->nres < 1) return IOS_EINVAL;
  for (int j = 0; j < in->napps; j++) {
    const ios_app_view_t *a = &in->apps[j];
    n_out[j] = ios_profile_nsys(a->profile, in->nres, a->volume, a->work);
  }
  return IOS_OK;
}

const ios_allocation_policy_t ios_allocation_nsys = {
    .name = "nsys",
    .alias = "nsysa",
    .description = "n_sys = argmin I/O-Stress over 1..N per application (least load on the resources)",
    .source = "RR-9549 §4.1 (Nsys-Allocator), Eq. 2",
    .nparams = 0,
    .params = NULL,
    .allocate = nsys_allocate,
};
