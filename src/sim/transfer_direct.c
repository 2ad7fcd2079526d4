/* iosim — the transfer layer's direct path (ios_transfer.h, docs/engine.md): where no link can bind the rates the
 * sharing policy gives, SimGrid's max-min would give every flow exactly its rate, so the bytes are computed here:
 * remaining = remaining at the segment's start − rate × elapsed, completion date = segment start + remaining / rate.
 * The running transfers are a heap on their completion order (tr_earlier). No SimGrid call. */
#include "transfer_internal.h"

#include "ios_heap.h"

#include <math.h>
#include <stdlib.h>

static int heap_before(ios_transfer_t *const *a, ios_transfer_t *const *b) {
  return tr_earlier(*a, *b);
}
#define HEAP_PLACED(x, i) ((*(x))->heap = (i))
IOS_HEAP_DEFINE(tr_heap, ios_transfer_t *, heap_before, HEAP_PLACED)

/* Beyond this many key changes between two reads of the heap (a policy that re-rates every transfer at every event),
 * the heap is rebuilt once (O(n)) instead of sifting each change (O(log n) each). tr_earlier is a total order, so the
 * heap always yields the same sequence, however it was built. */
#define HEAP_SIFTS 8

/* The direct path's state (ios_tr_t.direct). */
struct tr_direct {
  tr_heap_t heap; /* running transfers, by completion order */
  int changed;    /* heap keys changed since the heap was last read */
  int dirty;      /* the heap order is restored by heap_commit, not at each change */
};

static void heap_remove(struct tr_direct *D, ios_transfer_t *t) {
  int i = t->heap;
  if (i < 0) return;
  t->heap = -1;
  if (D->dirty) { /* heap_commit restores the order */
    ios_transfer_t *last = D->heap.a[--D->heap.n];
    if (i < D->heap.n) tr_heap_store(&D->heap, i, last);
    return;
  }
  tr_heap_remove(&D->heap, i);
}

/* t's completion date changed, or t is new. @return 0, or -1 when out of memory (the transfer is then not in it). */
static int heap_update(struct tr_direct *D, ios_transfer_t *t) {
  if (t->heap < 0 && tr_heap_append(&D->heap, t) != IOS_OK) return -1;
  if (D->dirty) return 0;
  if (++D->changed > HEAP_SIFTS) {
    D->dirty = 1;
    return 0;
  }
  tr_heap_fix(&D->heap, t->heap);
  return 0;
}

/* Before the heap is read: its order restored if it was left to this. */
static void heap_commit(struct tr_direct *D) {
  if (D->dirty) tr_heap_heapify(&D->heap);
  D->dirty = 0;
  D->changed = 0;
}

/* Bytes left now: none once the completion date is reached (within the timing precision). */
static double direct_remaining(const ios_tr_t *tr, const ios_transfer_t *t) {
  if (!(t->rate > 0) || t->heap < 0) return t->remaining;
  double d = tr_now(tr);
  if (d >= t->finish - TR_TIMING_PRECISION) return 0.0;
  double rem = t->remaining - t->rate * (d - t->t_last);
  return rem > 0 ? rem : 0.0;
}

static int direct_set_rate(ios_tr_t *tr, ios_transfer_t *t, double r, int capped, double rem) {
  if (r == t->rate && (t->heap >= 0 || r == 0)) return 0;
  if (t->heap >= 0) {
    if (isnan(rem)) rem = direct_remaining(tr, t);
    if (rem <= 0) return 0; /* its last byte arrives at this very date: ios_tr_complete_due reports it */
    t->remaining = rem;
    t->t_last = tr_now(tr);
    tr_segment_end(tr, t, t->seg_rem0 - rem, 0);
  }
  t->gen++;
  t->rate = r;
  if (!(r > 0)) {
    heap_remove(tr->direct, t);
    t->finish = INFINITY;
    return 0;
  }
  t->t_last = tr_now(tr);
  tr_segment_begin(tr, t, r, capped);
  return heap_update(tr->direct, t) < 0 ? -1 : 1;
}

static double direct_next_completion(ios_tr_t *tr) {
  struct tr_direct *D = tr->direct;
  heap_commit(D);
  return D->heap.n > 0 ? D->heap.a[0]->finish : INFINITY;
}

static int direct_complete_due(ios_tr_t *tr) {
  struct tr_direct *D = tr->direct;
  int k = 0;
  double d = tr_now(tr);
  heap_commit(D);
  while (D->heap.n > 0 && D->heap.a[0]->finish <= d + TR_TIMING_PRECISION) {
    ios_transfer_t *t = D->heap.a[0];
    heap_remove(D, t);
    t->remaining = 0;
    t->t_last = d;
    t->finish = INFINITY;
    tr_segment_end(tr, t, t->seg_rem0, 1);
    tr_completed(tr, t, t->gen);
    k++;
  }
  return k;
}

static int direct_init(ios_tr_t *tr, const ios_tr_options_t *o) {
  (void)o;
  tr->direct = calloc(1, sizeof *tr->direct);
  return tr->direct != NULL ? 0 : -2;
}

static void direct_fini(ios_tr_t *tr) {
  if (tr->direct == NULL) return;
  tr_heap_free(&tr->direct->heap);
  free(tr->direct);
  tr->direct = NULL;
}

static void direct_stop(ios_tr_t *tr, ios_transfer_t *t) {
  (void)tr;
  (void)t; /* nothing runs in SimGrid */
}

static long direct_zero(const ios_tr_t *tr) {
  (void)tr;
  return 0;
}

static int direct_pending(const ios_tr_t *tr) {
  (void)tr;
  return 0;
}

const tr_path_t tr_direct_path = {
    .name = "direct",
    .init = direct_init,
    .fini = direct_fini,
    .set_rate = direct_set_rate,
    .remaining = direct_remaining,
    .complete_due = direct_complete_due,
    .next_completion = direct_next_completion,
    .stop = direct_stop,
    .running = direct_zero,
    .flows_started = direct_zero,
    .pending = direct_pending,
};
