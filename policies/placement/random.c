/* iosim — placement `random` (RR-9549 §4.2 Random-Placement, RandP): n_j distinct resources drawn uniformly. */
#include "../ios_policy.h"

#include <stdlib.h>

static int random_place(const ios_pool_view_t *in, const int *n, const ios_params_t *p, ios_rng_t *rng, int *res_out) {
  (void)p;
  int *perm = malloc(sizeof *perm * (size_t)(in->nres > 0 ? in->nres : 1));
  if (perm == NULL) return IOS_ENOMEM;
  int off = 0;
  for (int j = 0; j < in->napps; j++) {
    if (n[j] < 0 || n[j] > in->nres) {
      free(perm);
      return IOS_EINVAL;
    }
    for (int r = 0; r < in->nres; r++)
      perm[r] = r;
    for (int k = 0; k < n[j]; k++) { /* partial Fisher-Yates shuffle */
      int pick = k + (int)ios_rng_below(rng, (uint64_t)(in->nres - k));
      int tmp = perm[k];
      perm[k] = perm[pick];
      perm[pick] = tmp;
      res_out[off + k] = perm[k];
    }
    off += n[j];
  }
  free(perm);
  return IOS_OK;
}

const ios_placement_policy_t ios_placement_random = {
    .name = "random",
    .alias = "randp",
    .description = "each application gets distinct resources drawn uniformly at random",
    .source = "RR-9549 §4.2 (RandP)",
    .nparams = 0,
    .params = NULL,
    .place = random_place,
};
