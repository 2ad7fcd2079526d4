/* iosim — sharing `fairshare` (RR-9502 §4.1 FairShare): every pending transfer gets the same fraction
 * α = min(1, B / Σ_j b_j) of its cap, so transfers either get their cap or share B in proportion to their caps. */
#include "../ios_policy.h"

#include <stddef.h>

static int fairshare_share(void *ctx, const ios_share_view_t *in, const ios_params_t *p, double *rate_out) {
  (void)ctx; /* built-in: no context (policies/ios_policy.h) */
  (void)p;
  double demand = 0.0;
  for (int i = 0; i < in->ntransfers; i++)
    demand += in->t[i].cap;
  double alpha = (demand <= in->capacity || demand <= 0.0) ? 1.0 : in->capacity / demand;
  for (int i = 0; i < in->ntransfers; i++)
    rate_out[i] = alpha * in->t[i].cap;
  return IOS_OK;
}

const ios_sharing_policy_t ios_sharing_fairshare = {
    .name = "fairshare",
    .alias = NULL,
    .description = "alpha = min(1, B / sum of caps) for every pending transfer (what parallel file systems do)",
    .source = "RR-9502 §4.1 (FairShare)",
    .nparams = 0,
    .params = NULL,
    .share = fairshare_share,
    .uncapped = 0,
};
