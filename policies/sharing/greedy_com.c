/* iosim — sharing `greedy-com` (RR-9502 §4.1 GreedyCom): transfers by non-decreasing V_i/b_i, the time the pending
 * transfer still needs at its full bandwidth (here remaining / cap: a transfer's cap is b_i in RR-9502's
 * single-resource model, b_j(n)/n for one of n parts), ties by posting time R_i then posting order; each is granted
 * min(cap, what is left of B) until nothing is left. A transfer with cap 0 can never finish: it comes last. */
#include "greedy.h"

#include <math.h>
#include <stdlib.h>

static int greedy_com_share(void *ctx, const ios_share_view_t *in, const ios_params_t *p, double *rate_out) {
  (void)ctx; /* built-in: no context (policies/ios_policy.h) */
  (void)p;
  int k = in->ntransfers;
  ios_greedy_entry_t *e = malloc(sizeof *e * (size_t)(k > 0 ? k : 1));
  if (e == NULL) return IOS_ENOMEM;
  for (int i = 0; i < k; i++) {
    const ios_transfer_view_t *t = &in->t[i];
    double rem = t->remaining > 0.0 ? t->remaining : 0.0;
    e[i] = (ios_greedy_entry_t){
        .key = t->cap > 0.0 ? rem / t->cap : INFINITY, .posted = t->posted, .seq = t->seq, .idx = i};
  }
  int rc = ios_greedy_sort(e, k, 0.0);
  if (rc == IOS_OK) ios_greedy_fill(in, e, k, rate_out);
  free(e);
  return rc;
}

const ios_sharing_policy_t ios_sharing_greedy_com = {
    .name = "greedy-com",
    .alias = NULL,
    .description = "serve pending transfers by increasing remaining time at full bandwidth, each at its cap",
    .source = "RR-9502 §4.1 (GreedyCom)",
    .nparams = 0,
    .params = NULL,
    .share = greedy_com_share,
    .uncapped = 0,
    .periodic = 0,
};
