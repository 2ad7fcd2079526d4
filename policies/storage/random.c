/* iosim — storage placement `random` (StorAlloc §4.2): a node drawn uniformly, then one of its disks drawn uniformly
 * (as StorAlloc's implementation draws; on heterogeneous platforms a disk of a node with few disks is more likely).
 * It never refuses and never checks the room left: when the drawn disk cannot hold the allocation, the allocation
 * fails (StorAlloc §4.2, §5.2 "failures") and the request falls back to the PFS. */
#include "ios_storage.h"

#include <stddef.h>

static int place(const ios_storage_t *s, const ios_storage_state_t *st, const ios_storage_ask_t *ask,
                 const ios_params_t *p, ios_storage_ctx_t *ctx, int *disk_out) {
  (void)st, (void)ask, (void)p;
  if (s == NULL || s->nnodes < 1 || ctx == NULL || disk_out == NULL) return IOS_EINVAL;
  const ios_storage_node_t *n = &s->nodes[ios_rng_below(&ctx->rng, (uint64_t)s->nnodes)];
  *disk_out = n->first + (int)ios_rng_below(&ctx->rng, (uint64_t)n->ndisks);
  return IOS_STORAGE_CHOSEN;
}

const ios_storage_policy_t ios_storage_random = {
    .name = "random",
    .alias = NULL,
    .description = "a random node, then a random disk of it; never refuses, fails when that disk lacks room",
    .source = "StorAlloc (Monniot et al. 2022) §4.2",
    .nparams = 0,
    .params = NULL,
    .place = place,
    .may_refuse = 0,
};
