/* iosim — sharing `timeshare` (RR-9549 §5.2, the collision model of its time-based simulator): when k
 * applications do I/O on one resource at once, they take turns, each transferring at its own rate for one time
 * unit in k; over many units each progresses at cap_i / k. A resource is thus as busy with one application as its
 * own bandwidth makes it, whatever the resource's nominal capacity (RR-9549 §3.2: an application occupies the n
 * resources it uses while it does I/O). The rates are scaled down together if they would exceed B in sum. */
#include "../ios_policy.h"

#include <stddef.h>

static int timeshare_share(void *ctx, const ios_share_view_t *in, const ios_params_t *p, double *rate_out) {
  (void)ctx; /* built-in: no context (policies/ios_policy.h) */
  (void)p;
  int k = in->ntransfers;
  double sum = 0.0;
  for (int i = 0; i < k; i++) {
    rate_out[i] = in->t[i].cap / k;
    sum += rate_out[i];
  }
  if (sum > in->capacity && sum > 0.0)
    for (int i = 0; i < k; i++)
      rate_out[i] *= in->capacity / sum;
  return IOS_OK;
}

const ios_sharing_policy_t ios_sharing_timeshare = {
    .name = "timeshare",
    .alias = NULL,
    .description = "k transfers on a resource take turns: each gets cap / k (scaled to B if needed)",
    .source = "RR-9549 §5.2 (collisions in its simulator)",
    .nparams = 0,
    .params = NULL,
    .share = timeshare_share,
    .uncapped = 0,
};
