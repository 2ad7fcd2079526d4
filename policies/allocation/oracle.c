/* iosim — allocation `oracle` (IPDPS'21 §3.2 "ORACLE", fictional upper bound): every application gets the count
 * with its highest bandwidth, as if it were alone: argmax b_j(n) over n in {0 when the profile has a point n = 0
 * (direct PFS access)} ∪ 1..N, smallest on ties. It ignores the pool size as a budget — the counts may sum to more
 * than N, so applications share resources — but no count exceeds N (an application cannot use more resources than
 * exist). Differs from `best-bandwidth` only by the n = 0 choice.
 * Inputs: the profile b_j (or its argmax). */
#include "../ios_policy.h"

#include <stddef.h>

static int oracle_allocate(const ios_pool_view_t *in, const ios_params_t *p, ios_rng_t *rng, int *n_out) {
  (void)p;
  (void)rng;
  if (in->nres < 1) return IOS_EINVAL;
  for (int j = 0; j < in->napps; j++) {
    const ios_profile_t *prof = in->apps[j].profile;
    int n = ios_profile_nperf(prof, in->nres);
    double direct = ios_profile_bw(prof, 0);
    n_out[j] = direct > 0.0 && direct >= ios_profile_bw(prof, n) ? 0 : n;
  }
  return IOS_OK;
}

const ios_allocation_policy_t ios_allocation_oracle = {
    .name = "oracle",
    .alias = NULL,
    .description = "each application's best count in 0..N, ignoring that together they may exceed N (upper bound)",
    .source = "IPDPS'21 §3.2 (ORACLE)",
    .nparams = 0,
    .params = NULL,
    .allocate = oracle_allocate,
};
