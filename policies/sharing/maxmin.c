/* iosim — sharing `maxmin`: no policy cap. Each transfer asks for its application cap and SimGrid's max-min
 * fairness over the platform's links decides (the RR-9549 §3.1 equal-share capacity model when caps exceed it). */
#include "../ios_policy.h"

#include <stddef.h>

static int maxmin_share(void *ctx, const ios_share_view_t *in, const ios_params_t *p, double *rate_out) {
  (void)ctx; /* built-in: no context (policies/ios_policy.h) */
  (void)p;
  for (int i = 0; i < in->ntransfers; i++)
    rate_out[i] = in->t[i].cap;
  return IOS_OK;
}

const ios_sharing_policy_t ios_sharing_maxmin = {
    .name = "maxmin",
    .alias = NULL,
    .description = "no policy caps: SimGrid max-min sharing with the applications' own caps",
    .source = "SimGrid max-min (RR-9549 §3.1 capacity sharing)",
    .nparams = 0,
    .params = NULL,
    .share = maxmin_share,
    .uncapped = 1,
    .cap_only = 1,
};
