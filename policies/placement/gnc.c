/* iosim — placement `greedy-non-clairvoyant` (RR-9549 §4.2, GNC): applications sorted by decreasing resource count
 * (ties: workload order), each placed on the next n_j resources of one round-robin cursor over the pool. */
#include "../ios_policy.h"

#include <stdlib.h>

static int gnc_place(const ios_pool_view_t *in, const int *n, const ios_params_t *p, ios_rng_t *rng, int *res_out) {
  (void)p;
  (void)rng;
  int k = in->napps;
  int *order = malloc(sizeof *order * (size_t)(k > 0 ? k : 1));
  int *off = malloc(sizeof *off * (size_t)(k > 0 ? k : 1));
  if (order == NULL || off == NULL) {
    free(order);
    free(off);
    return IOS_ENOMEM;
  }
  int total = 0;
  for (int j = 0; j < k; j++) {
    if (n[j] < 0 || n[j] > in->nres) {
      free(order);
      free(off);
      return IOS_EINVAL;
    }
    off[j] = total;
    total += n[j];
    order[j] = j;
  }
  /* stable insertion sort by decreasing n (K is small: hundreds) */
  for (int a = 1; a < k; a++) {
    int x = order[a], b = a - 1;
    while (b >= 0 && n[order[b]] < n[x]) {
      order[b + 1] = order[b];
      b--;
    }
    order[b + 1] = x;
  }
  int cursor = 0;
  for (int a = 0; a < k; a++) {
    int j = order[a];
    for (int i = 0; i < n[j]; i++) {
      res_out[off[j] + i] = cursor;
      cursor = (cursor + 1) % in->nres;
    }
  }
  free(order);
  free(off);
  return IOS_OK;
}

const ios_placement_policy_t ios_placement_gnc = {
    .name = "greedy-non-clairvoyant",
    .alias = "gnc",
    .description = "sort by decreasing resource count, deal resources round-robin (balances applications per resource)",
    .source = "RR-9549 §4.2 (Greedy-Non-Clairvoyant)",
    .nparams = 0,
    .params = NULL,
    .place = gnc_place,
};
