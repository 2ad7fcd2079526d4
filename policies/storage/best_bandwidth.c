/* iosim — storage placement `best-bandwidth` (StorAlloc §4.2): among the disks with room for the whole allocation
 * now, the one where it would get the most bandwidth over its duration under the permanent maximum I/O regime of
 * the allocations held (ios_storage_bw_estimate: disk and node link shared max-min, averaged as the held
 * allocations end). Ties (within a relative 1e-9): drawn uniformly, as StorAlloc does; with ties = 1, the disk with
 * the most free bytes, then the lowest index. When no disk has room the request is refused (StorAlloc's conservative
 * refusal). StorAlloc's implementation ("worst_case")
 * approximates the same regime with the longest overlap and the count of overlapping allocations. */
#include "ios_storage.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

static const ios_param_spec_t params[] = {
    {"ties", 0, "",
     "0: a random disk among equally good ones (StorAlloc); 1: the most free bytes, then the lowest index", 0, 1, 1},
};

static int place(const ios_storage_t *s, const ios_storage_state_t *st, const ios_storage_ask_t *ask,
                 const ios_params_t *p, ios_storage_ctx_t *ctx, int *disk_out) {
  if (s == NULL || st == NULL || ask == NULL || p == NULL || ctx == NULL || disk_out == NULL) return IOS_EINVAL;
  int best = -1, widest = 1, ties = 0;
  for (int v = 0; v < s->nnodes; v++)
    if (s->nodes[v].ndisks > widest) widest = s->nodes[v].ndisks;
  double best_bw = 0, best_free = 0, *bw = malloc(sizeof *bw * (size_t)widest);
  if (bw == NULL) return IOS_ENOMEM;
  for (int v = 0; v < s->nnodes; v++) {
    const ios_storage_node_t *n = &s->nodes[v];
    int room = 0;
    for (int k = 0; k < n->ndisks; k++)
      room |= ios_storage_free_bytes(st, s, n->first + k) >= ask->size;
    if (!room) continue;
    int rc = ios_storage_bw_estimate_node(s, st, v, ask, bw);
    if (rc != IOS_OK) {
      free(bw);
      return rc;
    }
    for (int k = 0; k < n->ndisks; k++) {
      double free_bytes = ios_storage_free_bytes(st, s, n->first + k), tol = 1e-9 * fmax(bw[k], best_bw);
      if (free_bytes < ask->size) continue;
      int tie = best >= 0 && fabs(bw[k] - best_bw) <= tol;
      if (best < 0 || bw[k] > best_bw + tol || (tie && p->v[0] != 0 && free_bytes > best_free)) {
        best = n->first + k;
        best_bw = bw[k];
        best_free = free_bytes;
        ties = 1;
      } else if (tie && p->v[0] == 0 && ios_rng_below(&ctx->rng, (uint64_t)++ties) == 0) {
        best = n->first + k; /* uniform among the ties (reservoir sampling) */
        best_free = free_bytes;
      }
    }
  }
  free(bw);
  if (best < 0) return IOS_STORAGE_REFUSED;
  *disk_out = best;
  return IOS_STORAGE_CHOSEN;
}

const ios_storage_policy_t ios_storage_best_bandwidth = {
    .name = "best-bandwidth",
    .alias = "best_bandwidth",
    .description = "the disk with room where the allocation gets the most bandwidth under the permanent maximum I/O "
                   "regime; refuses when no disk has room",
    .source = "StorAlloc (Monniot et al. 2022) §4.2, §5.2",
    .nparams = 1,
    .params = params,
    .place = place,
    .may_refuse = 1,
};
