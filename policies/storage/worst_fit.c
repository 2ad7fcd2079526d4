/* iosim — storage placement `worst-fit` (StorAlloc §4.2): the disk with the largest free share of its capacity
 * (free bytes / capacity, as StorAlloc's implementation ranks; ties within a relative 1e-12: drawn uniformly, as
 * StorAlloc does, or the lowest index with ties = 1). It never refuses: when even that disk cannot hold the
 * allocation, the allocation fails and the request falls back to the PFS.
 * fill_first = 1 reads the paper's one-line description instead ("disks are filled until no more space is
 * available", §4.2, and §5.2: it maximises the use of a single disk): the lowest-index disk that still has room for
 * the allocation, failing on the last disk when none has. */
#include "ios_storage.h"

#include <stddef.h>

static const ios_param_spec_t params[] = {
    {"fill_first", 0, "", "0: largest free share (StorAlloc's code); 1: fill disks in index order (paper's text)", 0, 1,
     1},
    {"ties", 0, "", "0: a random disk among equally free ones (StorAlloc); 1: the lowest index", 0, 1, 1},
};

static int place(const ios_storage_t *s, const ios_storage_state_t *st, const ios_storage_ask_t *ask,
                 const ios_params_t *p, ios_storage_ctx_t *ctx, int *disk_out) {
  if (s == NULL || st == NULL || ask == NULL || p == NULL || ctx == NULL || disk_out == NULL || s->ndisks < 1)
    return IOS_EINVAL;
  if (p->v[0] != 0) {
    for (int d = 0; d < s->ndisks; d++)
      if (ios_storage_free_bytes(st, s, d) >= ask->size) {
        *disk_out = d;
        return IOS_STORAGE_CHOSEN;
      }
    *disk_out = s->ndisks - 1;
    return IOS_STORAGE_CHOSEN;
  }
  int best = 0, ties = 0;
  double best_share = -1;
  for (int d = 0; d < s->ndisks; d++) {
    double share = ios_storage_free_bytes(st, s, d) / s->disks[d].capacity;
    if (share > best_share + 1e-12) {
      best_share = share;
      best = d;
      ties = 1;
    } else if (share >= best_share - 1e-12 && p->v[1] == 0 && ios_rng_below(&ctx->rng, (uint64_t)++ties) == 0)
      best = d; /* uniform among the ties (reservoir sampling) */
  }
  *disk_out = best;
  return IOS_STORAGE_CHOSEN;
}

const ios_storage_policy_t ios_storage_worst_fit = {
    .name = "worst-fit",
    .alias = "worst_fit",
    .description = "the disk with the largest free share; never refuses, fails when that disk lacks room",
    .source = "StorAlloc (Monniot et al. 2022) §4.2",
    .nparams = 2,
    .params = params,
    .place = place,
    .may_refuse = 0,
};
