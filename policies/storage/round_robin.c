/* iosim — storage placement `round-robin` (StorAlloc §4.2): nodes in turn, and within each node its disks in turn
 * (node 0 disk 0, node 1 disk 0, ..., node 0 disk 1, ...: the order of StorAlloc's implementation). The candidate
 * must have room for the whole allocation now (free bytes >= size; allocations held only shrink until they end, and
 * nothing is planned ahead, so this is StorAlloc's overlap test); otherwise the next candidate is tried, at most
 * `tries` candidates, then the request is refused. Every candidate looked at advances the cursors.
 * Refusing after `tries` candidates although another disk might have room is StorAlloc's deliberate bias towards
 * refusing (§4.2: "conservative"; its implementation tries 5); tries = 0 looks at every disk before refusing. */
#include "ios_storage.h"

#include <stddef.h>

static const ios_param_spec_t params[] = {
    {"tries", 5, "", "candidates looked at before refusing (StorAlloc: 5); 0 = every disk", 0, 1e15, 1},
};

static int place(const ios_storage_t *s, const ios_storage_state_t *st, const ios_storage_ask_t *ask,
                 const ios_params_t *p, ios_storage_ctx_t *ctx, int *disk_out) {
  if (s == NULL || st == NULL || ask == NULL || p == NULL || ctx == NULL || ctx->cursor == NULL || disk_out == NULL ||
      s->nnodes < 1 || !(p->v[0] >= 0))
    return IOS_EINVAL;
  int widest = 1;
  for (int v = 0; v < s->nnodes; v++)
    if (s->nodes[v].ndisks > widest) widest = s->nodes[v].ndisks;
  long every = (long)s->nnodes * widest; /* enough turns to visit every disk */
  long tries = p->v[0] >= 1 && p->v[0] < (double)every ? (long)p->v[0] : every;
  for (long t = 0; t < tries; t++) {
    int v = ctx->cursor[0] % s->nnodes;
    const ios_storage_node_t *n = &s->nodes[v];
    int d = n->first + ctx->cursor[1 + v] % n->ndisks;
    ctx->cursor[0] = (v + 1) % s->nnodes;
    ctx->cursor[1 + v] = (ctx->cursor[1 + v] + 1) % n->ndisks;
    if (ios_storage_free_bytes(st, s, d) >= ask->size) {
      *disk_out = d;
      return IOS_STORAGE_CHOSEN;
    }
  }
  return IOS_STORAGE_REFUSED;
}

const ios_storage_policy_t ios_storage_round_robin = {
    .name = "round-robin",
    .alias = "round_robin",
    .description = "nodes in turn, disks of a node in turn; refuses after `tries` candidates without room",
    .source = "StorAlloc (Monniot et al. 2022) §4.2",
    .nparams = 1,
    .params = params,
    .place = place,
    .may_refuse = 1,
};
