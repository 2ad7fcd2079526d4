/* iosim — the StorAlloc scheduler decided at submission (decide_start 0, the default; StorAlloc §4.2, §4.4): each
 * request is decided when submitted as a reservation of each part for its window, on the scheduler's catalogue of
 * reservations; the granted reservations are then replayed in time order on the exact state, where one that does not
 * fit fails (Fig. 7). Called by ios_storalloc_run (scheduler.c) on the run state of scheduler_internal.h. */
#include "scheduler_internal.h"

#include <math.h>
#include <stdlib.h>

/* One reservation of the scheduler's catalogue: part `part` of request `req` on `disk`, asked for [start, end); the
 * job holds it [start, start + duration). seq: its rank in the scheduler's decisions. */
typedef struct {
  int req, disk;
  long part, seq;
  double start, end, size;
} resv_t;

typedef struct {
  resv_t *r;
  long n, cap;
} catalogue_t;

static int cat_push(catalogue_t *c, resv_t v) {
  if (c->n == c->cap) {
    long cap = c->cap ? 2 * c->cap : 1024;
    resv_t *more = realloc(c->r, sizeof *more * (size_t)cap);
    if (more == NULL) return IOS_ENOMEM;
    c->r = more;
    c->cap = cap;
  }
  c->r[c->n++] = v;
  return IOS_OK;
}

/* Does the reservation overlap the window [w0, w1)? An empty window (w1 == w0) overlaps what is held at w0. */
static int overlaps(const resv_t *v, double w0, double w1) {
  return w1 > w0 ? v->start < w1 && v->end > w0 : v->start <= w0 && v->end > w0;
}

/* The scheduler's phase (StorAlloc §4.2): request i, submitted at its time `submit`, decided now as a reservation of
 * each part for its window, on the catalogue `live` of the reservations decided before it that the scheduler still
 * holds (ended ones are pruned by the caller). Attempt a asks for [submit + a·interval, end) with end = submit +
 * duration (requeue_window 0) or the shifted end (1); a part is granted when the policy chooses a disk (refusing
 * policies test the catalogue conservatively: capacity minus every reservation overlapping the window). */
static int plan_request(sa_run_t *x, int i, catalogue_t *live, catalogue_t *plan) {
  const ios_request_t *q = &x->req[i];
  ios_request_outcome_t *out = &x->r->req[i];
  long parts = ios_storalloc_split(q->capacity, x->o->split ? x->o->split_threshold : 0, x->sizes, x->maxparts);
  int tries = x->o->requeue ? x->o->retries : 0, last = 0, all = x->o->split_all;
  long pending = parts;
  for (int a = 0; a <= tries && pending > 0; a++) {
    double w0 = q->submit + a * x->o->interval;
    double w1 = x->o->requeue_window ? w0 + q->duration : q->submit + q->duration;
    if (a > 0 && !(w1 > w0)) break; /* nothing left of the window asked for */
    last = a;
    ios_storage_state_clear(&x->st);
    x->st.now = w0;
    for (long m = 0; m < live->n; m++) {
      const resv_t *v = &live->r[m];
      ios_storage_alloc_t al = {v->size, v->end, x->req[v->req].bandwidth, v->req};
      if (overlaps(v, w0, w1) && ios_storage_state_reserve(&x->st, x->s, v->disk, &al) != IOS_OK) return IOS_ENOMEM;
    }
    long placed = 0;
    int refused = 0;
    for (long k = 0; k < parts && !(all && refused); k++) {
      if (x->r->part_status[out->first_part + k] != PART_PENDING) continue;
      int d = -1, rc = sa_choose(x, i, x->sizes[k], w0, w1 - w0, &d);
      if (rc < 0) return rc;
      if (rc == IOS_STORAGE_REFUSED) {
        refused = 1;
        continue;
      }
      ios_storage_alloc_t al = {x->sizes[k], w1, q->bandwidth, i};
      if (ios_storage_state_reserve(&x->st, x->s, d, &al) != IOS_OK) return IOS_ENOMEM;
      x->chosen[placed] = d;
      x->idx[placed++] = k;
    }
    if (all && refused) continue;
    for (long m = 0; m < placed; m++) {
      resv_t v = {i, x->chosen[m], x->idx[m], plan->n, w0, w1, x->sizes[x->idx[m]]};
      x->r->part_status[out->first_part + v.part] = IOS_REQ_ALLOCATED; /* granted; the replay decides */
      if (cat_push(live, v) != IOS_OK || cat_push(plan, v) != IOS_OK) return IOS_ENOMEM;
      pending--;
    }
  }
  out->requeued = last;
  return IOS_OK;
}

static int cmp_resv(const void *a, const void *b) {
  const resv_t *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start ? 1 : (x->seq > y->seq) - (x->seq < y->seq);
}

/* The replay (StorAlloc §4.4): the granted reservations happen in time order (stable: ties keep the scheduler's
 * order) on the exact state; one that does not fit when it starts fails (Fig. 7). With split_all, the parts of one
 * request granted at one attempt start together and fail together. */
static int replay(sa_run_t *x, catalogue_t *plan) {
  ios_storage_state_clear(&x->st); /* from the scheduler's views to the storage's exact state */
  if (plan->n > 0)                 /* plan->r is in decision order (NULL when nothing was granted); seq breaks ties */
    qsort(plan->r, (size_t)plan->n, sizeof *plan->r, cmp_resv);
  int rc = IOS_OK;
  for (long m = 0; rc == IOS_OK && m < plan->n;) {
    const resv_t *v = &plan->r[m];
    double t = v->start;
    while (rc == IOS_OK && x->ends.n > 0 && x->ends.e[0].t <= t) { /* [start, end): release first */
      sa_event_t end = sa_heap_pop(&x->ends);
      rc = sa_release(x, &end);
    }
    long g = m + 1; /* the group: this request's parts granted at this attempt (split_all) or this part alone */
    while (x->o->split_all && g < plan->n && plan->r[g].req == v->req && plan->r[g].start == t)
      g++;
    int i = v->req;
    const ios_request_t *q = &x->req[i];
    long placed = 0, bad = -1;
    x->st.now = t;
    for (long k = m; rc == IOS_OK && k < g && bad < 0; k++) {
      ios_storage_alloc_t al = {plan->r[k].size, t + q->duration, q->bandwidth, i};
      int fit = ios_storage_state_add(&x->st, x->s, plan->r[k].disk, &al);
      if (fit < 0) rc = fit;
      if (fit == 1) bad = k;
      if (fit == 0) {
        x->chosen[placed] = plan->r[k].disk;
        x->sizes[placed] = plan->r[k].size;
        x->idx[placed++] = plan->r[k].part;
      }
    }
    if (rc != IOS_OK) break;
    ios_request_outcome_t *out = &x->r->req[i];
    if (bad >= 0) { /* this part fails; with split_all the whole group does */
      if (out->fail_disk < 0) out->fail_disk = plan->r[bad].disk;
      for (long k = x->o->split_all ? m : bad; k < (x->o->split_all ? g : bad + 1); k++)
        x->r->part_status[out->first_part + plan->r[k].part] = IOS_REQ_FAILED;
      if (x->o->split_all) {
        for (long p = 0; p < placed; p++)
          ios_storage_state_remove(&x->st, x->chosen[p], i, x->sizes[p], t + q->duration);
        placed = 0;
      }
    }
    for (long p = 0; rc == IOS_OK && p < placed; p++) { /* sizes[] is by group here: estimate then commit */
      ios_storage_ask_t ask = {x->sizes[p], t, q->duration, q->bandwidth};
      ios_storage_state_remove(&x->st, x->chosen[p], i, x->sizes[p], t + q->duration);
      double bw = ios_storage_bw_estimate(x->s, &x->st, x->chosen[p], &ask);
      ios_storage_alloc_t al = {x->sizes[p], t + q->duration, q->bandwidth, i};
      rc = ios_storage_state_add(&x->st, x->s, x->chosen[p], &al) == IOS_OK ? IOS_OK : IOS_EINTERNAL;
      if (rc == IOS_OK) rc = sa_commit_part(x, i, x->idx[p], x->chosen[p], x->sizes[p], t);
      out->est_bw = (isnan(out->est_bw) ? 0 : out->est_bw) + bw;
    }
    m = g;
  }
  while (rc == IOS_OK && x->ends.n > 0) {
    sa_event_t end = sa_heap_pop(&x->ends);
    rc = sa_release(x, &end);
  }
  return rc;
}

/* decide_start 0: the scheduler's phase over every request in submission order, then the replay. */
int sa_schedule_planned(sa_run_t *x, int n, const sa_slot_t *order) {
  catalogue_t live = {NULL, 0, 0}, plan = {NULL, 0, 0};
  int rc = IOS_OK;
  for (int k = 0; rc == IOS_OK && k < n; k++) {
    int i = order[k].i;
    long keep = 0; /* the scheduler's clock is the submission: reservations ended by then leave its catalogue */
    for (long m = 0; m < live.n; m++)
      if (live.r[m].end > x->req[i].submit) live.r[keep++] = live.r[m];
    live.n = keep;
    rc = plan_request(x, i, &live, &plan);
  }
  if (rc == IOS_OK) rc = replay(x, &plan);
  for (int i = 0; rc == IOS_OK && i < n; i++)
    sa_finalize(x, i, x->req[i].submit + x->r->req[i].requeued * x->o->interval, x->r->req[i].requeued);
  free(live.r);
  free(plan.r);
  return rc;
}
