/* iosim — sharing `fcfs` (RR-9502 §4.1 FCFS): transfers by non-decreasing posting time R_i (ties: posting order),
 * each granted min(cap, what is left of B) until nothing is left. */
#include "../ios_policy.h"

#include <stdlib.h>

static int before(const ios_transfer_view_t *a, const ios_transfer_view_t *b) {
  return a->posted < b->posted || (a->posted == b->posted && a->seq < b->seq);
}

static int fcfs_share(void *ctx, const ios_share_view_t *in, const ios_params_t *p, double *rate_out) {
  (void)ctx; /* built-in: no context (policies/ios_policy.h) */
  (void)p;
  int k = in->ntransfers;
  int *order = malloc(sizeof *order * (size_t)(k > 0 ? k : 1));
  if (order == NULL) return IOS_ENOMEM;
  for (int a = 0; a < k; a++) { /* insertion sort: the engine's lists are nearly in posting order already */
    int b = a - 1;
    while (b >= 0 && before(&in->t[a], &in->t[order[b]])) {
      order[b + 1] = order[b];
      b--;
    }
    order[b + 1] = a;
  }
  double left = in->capacity;
  for (int a = 0; a < k; a++) {
    const ios_transfer_view_t *t = &in->t[order[a]];
    double r = t->cap < left ? t->cap : left;
    rate_out[order[a]] = r > 0.0 ? r : 0.0;
    left -= rate_out[order[a]];
  }
  free(order);
  return IOS_OK;
}

const ios_sharing_policy_t ios_sharing_fcfs = {
    .name = "fcfs",
    .alias = NULL,
    .description = "serve pending transfers in posting order, each at its cap while bandwidth is left",
    .source = "RR-9502 §4.1 (FCFS)",
    .nparams = 0,
    .params = NULL,
    .share = fcfs_share,
    .uncapped = 0,
};
