/* iosim tutorial, step 4 (docs/tutorial.md) — sharing `lcfs`: last come, first served.
 *
 * The pending transfers of one resource are served from the most recently posted I/O operation to the oldest (ties
 * of posting time: the later posting order first), each granted min(cap, what is left of the capacity B) until
 * nothing is left. A deliberately naive policy: a new operation always overtakes the ones waiting, so an old one
 * can starve while others keep arriving. Rates in bytes/s, times in s (policies/ios_policy.h). */
#include "ios_policy.h"

#include <stddef.h>

/* 1 when transfer a was posted after transfer b (it is served first). */
static int newer(const ios_transfer_view_t *a, const ios_transfer_view_t *b) {
  return a->posted > b->posted || (a->posted == b->posted && a->seq > b->seq);
}

/* k rounds: each grants the newest transfer not yet served min(cap, what is left of B). O(k^2): a resource rarely has
 * more than a few dozen pending transfers. rate_out[i] < 0 marks "not yet served". */
static int lcfs_share(void *ctx, const ios_share_view_t *in, const ios_params_t *p, double *rate_out) {
  (void)ctx; /* no context: a built-in policy (policies/ios_policy.h) */
  (void)p;   /* no parameters */
  for (int i = 0; i < in->ntransfers; i++)
    rate_out[i] = -1.0;
  double left = in->capacity; /* bytes/s not yet granted */
  for (int round = 0; round < in->ntransfers; round++) {
    int pick = -1;
    for (int i = 0; i < in->ntransfers; i++)
      if (rate_out[i] < 0.0 && (pick < 0 || newer(&in->t[i], &in->t[pick]))) pick = i;
    double r = in->t[pick].cap < left ? in->t[pick].cap : left;
    rate_out[pick] = r > 0.0 ? r : 0.0;
    left -= rate_out[pick];
  }
  return IOS_OK;
}

const ios_sharing_policy_t tutorial_sharing_lcfs = {
    .name = "lcfs",
    .alias = NULL,
    .description = "serve pending transfers from the newest to the oldest, each at its cap while bandwidth is left",
    .source = "docs/tutorial.md, step 4 (last come, first served)",
    .nparams = 0,
    .params = NULL,
    .share = lcfs_share,
    .uncapped = 0,
    .cap_only = 0,
    .periodic = 0,
};
