/* iosim — what the transfer layer's two paths share (transfer_internal.h): the state common to both, the one order of
 * simultaneous completions, a segment's start. Used by transfer.c, transfer_direct.c and transfer_flow.c; uses none
 * of them. */
#include "transfer_internal.h"

tr_common_t tr;

int tr_earlier(const ios_transfer_t *a, const ios_transfer_t *b) {
  if (a->finish != b->finish) return a->finish < b->finish;
  return a->gen < b->gen || (a->gen == b->gen && a->order < b->order);
}

void tr_segment_begin(ios_transfer_t *t, double r, int capped) {
  t->seg_start = tr_now();
  t->seg_rem0 = t->remaining;
  t->seg_capped = capped;
  t->seg_latency = 0;
  t->order = tr.order++;
  t->finish = t->seg_start + t->remaining / r;
}
