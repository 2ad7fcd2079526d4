/* iosim — the StorAlloc scheduler's run state (scheduler_internal.h): the event heaps (decisions, ends), the
 * time-weighted counters of disks, nodes, requests and parts, a part held (with StorAlloc's bandwidth estimate) and
 * released, a request's final status, the policy's choice, and the Table 3 metrics at the end of a run. Used by the
 * run decided at start (scheduler.c) and the one decided at submission (sched_plan.c). */
#include "scheduler_internal.h"
#include "ios_diag.h"

#include <math.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- events */

static int before(const sa_event_t *x, const sa_event_t *y) {
  return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

int sa_heap_push(sa_heap_t *h, sa_event_t ev) {
  if (h->n == h->cap) {
    long cap = h->cap ? 2 * h->cap : 1024;
    sa_event_t *more = realloc(h->e, sizeof *more * (size_t)cap);
    if (more == NULL) return IOS_ENOMEM;
    h->e = more;
    h->cap = cap;
  }
  long i = h->n++;
  while (i > 0 && before(&ev, &h->e[(i - 1) / 2])) {
    h->e[i] = h->e[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->e[i] = ev;
  return IOS_OK;
}

sa_event_t sa_heap_pop(sa_heap_t *h) {
  sa_event_t top = h->e[0], last = h->e[--h->n];
  long i = 0;
  for (;;) {
    long c = 2 * i + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && before(&h->e[c + 1], &h->e[c])) c++;
    if (!before(&h->e[c], &last)) break;
    h->e[i] = h->e[c];
    i = c;
  }
  if (h->n > 0) h->e[i] = last;
  return top;
}

/* ---------------------------------------------------------------- time-weighted counters */

/* Moves to time t, then changes the level and the count. Maxima are taken over spans of positive length, as the
 * integrals are: an allocation of duration 0 holds nothing ([start, end) is empty). */
static void acc_move(sa_acc_t *a, double t, double dlevel, int dcount) {
  if (t > a->last) {
    if (a->level > a->max_level) a->max_level = a->level;
    if (a->count > a->max_count) a->max_count = (int)a->count;
  }
  a->int_level += a->level * (t - a->last);
  a->int_count += a->count * (t - a->last);
  a->last = t;
  a->level += dlevel;
  a->count += dcount;
  if (a->count <= 0) a->level = 0; /* no rounding drift once empty */
}

/* ---------------------------------------------------------------- parts and requests */

/* Part k of request i starts being held on disk d at time t (it is in x->st already). StorAlloc's estimate of its
 * bandwidth (the permanent regime, sharing with everything held, the request's other parts included) is added to the
 * request's est_bw. */
int sa_commit_part(sa_run_t *x, int i, long k, int d, double size, double t) {
  const ios_request_t *q = &x->req[i];
  ios_request_outcome_t *out = &x->r->req[i];
  long p = out->first_part + k;
  int v = x->s->disks[d].node;
  x->r->part_disk[p] = d;
  x->r->part_status[p] = IOS_REQ_ALLOCATED;
  x->r->part_start[p] = t;
  acc_move(&x->disk[d], t, size, 1);
  acc_move(&x->node[v], t, 0, 1);
  x->r->disk[d].allocations++;
  x->r->disk[d].volume += size;
  x->r->node[v].allocations++;
  sa_event_t end = {t + q->duration, i, i, d, size};
  if (sa_heap_push(&x->ends, end) != IOS_OK) return IOS_ENOMEM;
  if (x->left[i]++ == 0) acc_move(&x->requests, t, 0, 1);
  acc_move(&x->parts, t, 0, 1);
  if (out->parts_allocated++ == 0) {
    out->start = t;
    out->delay = t - q->submit;
  }
  out->allocated_bytes += size;
  x->r->m.allocated_volume += size;
  x->r->m.parts_allocated++;
  return IOS_OK;
}

/* StorAlloc's estimate for the `placed` parts just added to x->st at t: each part's share with all the others. */
int sa_add_estimates(sa_run_t *x, int i, double t, long placed) {
  const ios_request_t *q = &x->req[i];
  for (long m = 0; m < placed; m++) {
    double size = x->sizes[x->idx[m]];
    ios_storage_alloc_t a = {size, t + q->duration, q->bandwidth, i};
    ios_storage_ask_t ask = {size, t, q->duration, q->bandwidth};
    ios_storage_state_remove(&x->st, x->chosen[m], i, size, t + q->duration);
    if (isnan(x->r->req[i].est_bw)) x->r->req[i].est_bw = 0;
    x->r->req[i].est_bw += ios_storage_bw_estimate(x->s, &x->st, x->chosen[m], &ask);
    if (ios_storage_state_add(&x->st, x->s, x->chosen[m], &a) != IOS_OK) return IOS_EINTERNAL;
  }
  return IOS_OK;
}

int sa_release(sa_run_t *x, const sa_event_t *e) {
  if (ios_storage_state_remove(&x->st, e->a, e->req, e->size, e->t) != IOS_OK) {
    ios_diag_set(NULL, "storalloc", "internal error: part of request %d missing from disk %d", e->req, e->a);
    return IOS_EINTERNAL;
  }
  acc_move(&x->disk[e->a], e->t, -e->size, -1);
  acc_move(&x->node[x->s->disks[e->a].node], e->t, 0, -1);
  acc_move(&x->parts, e->t, 0, -1);
  if (--x->left[e->req] == 0) acc_move(&x->requests, e->t, 0, -1);
  x->r->m.deallocated_volume += e->size;
  return IOS_OK;
}

/* Request i's last attempt was at t (attempt a): its status from its parts'. */
void sa_finalize(sa_run_t *x, int i, double t, int a) {
  ios_request_outcome_t *out = &x->r->req[i];
  int failed = 0;
  for (long k = 0; k < out->parts; k++) {
    int *ps = &x->r->part_status[out->first_part + k];
    if (*ps == PART_PENDING) *ps = IOS_REQ_REFUSED;
    failed |= *ps == IOS_REQ_FAILED;
  }
  out->requeued = a;
  if (out->parts_allocated == 0) { /* falls back to the PFS at its last attempt */
    out->start = t;
    out->delay = t - x->req[i].submit;
  }
  out->status = out->parts_allocated == out->parts ? IOS_REQ_ALLOCATED
                : out->parts_allocated > 0         ? IOS_REQ_PARTIAL
                : failed                           ? IOS_REQ_FAILED
                                                   : IOS_REQ_REFUSED;
}

/* The policy's choice for part k of request i asked at t for `duration` s. @return IOS_STORAGE_CHOSEN (*d set),
 * IOS_STORAGE_REFUSED or a negative error. */
int sa_choose(sa_run_t *x, int i, double size, double t, double duration, int *d) {
  const ios_request_t *q = &x->req[i];
  ios_storage_ask_t ask = {size, t, duration, q->bandwidth};
  int rc = x->o->policy->place(x->s, &x->st, &ask, &x->o->params, &x->ctx, d);
  if (rc == IOS_STORAGE_REFUSED) return rc;
  if (rc != IOS_STORAGE_CHOSEN || *d < 0 || *d >= x->s->ndisks) {
    ios_diag_set(NULL, "storalloc", "policy %s returned %d (disk %d) for request %ld: check its parameters",
                 x->o->policy->name, rc, *d, q->id);
    return rc < 0 ? rc : IOS_EINTERNAL;
  }
  return rc;
}

/* ---------------------------------------------------------------- metrics */

/* StorAlloc's Table 3 metrics of the finished run (counts, t_end, per-disk and per-node time-weighted means). */
void sa_finish_metrics(sa_run_t *x, int n) {
  ios_storalloc_result_t *r = x->r;
  ios_storalloc_metrics_t *m = &r->m;
  double t_end = m->t_begin;
  for (int i = 0; i < n; i++) {
    const ios_request_outcome_t *q = &r->req[i];
    if (q->start > t_end) t_end = q->start;
    for (long k = q->first_part; k < q->first_part + q->parts; k++) {
      if (r->part_status[k] == IOS_REQ_ALLOCATED && r->part_start[k] + x->req[i].duration > t_end)
        t_end = r->part_start[k] + x->req[i].duration;
      m->parts_refused += r->part_status[k] == IOS_REQ_REFUSED;
      m->parts_failed += r->part_status[k] == IOS_REQ_FAILED;
    }
    m->sum_cap += x->req[i].capacity;
    m->allocated += q->status == IOS_REQ_ALLOCATED;
    m->partial += q->status == IOS_REQ_PARTIAL;
    m->refused += q->status == IOS_REQ_REFUSED;
    m->failed += q->status == IOS_REQ_FAILED;
    m->requeued += q->requeued > 0;
    m->requeued_allocated += q->requeued > 0 && q->status == IOS_REQ_ALLOCATED;
    m->total_delay += q->delay;
    m->split += q->parts > 1;
    m->split_allocated += q->parts > 1 && q->status == IOS_REQ_ALLOCATED;
  }
  m->requests = n;
  m->t_end = t_end;
  double span = t_end - m->t_begin, sum = 0, sum2 = 0;
  for (int d = 0; d < r->ndisks; d++) {
    sa_acc_t *a = &x->disk[d];
    acc_move(a, t_end, 0, 0);
    double cap = x->s->disks[d].capacity;
    ios_storalloc_disk_metrics_t *dm = &r->disk[d];
    dm->mean_fill_pct = span > 0 ? 100 * a->int_level / (span * cap) : 0;
    dm->max_fill_pct = 100 * a->max_level / cap;
    dm->mean_allocs = span > 0 ? a->int_count / span : 0;
    dm->max_allocs = a->max_count;
    m->mean_fill_pct += dm->mean_fill_pct / r->ndisks;
    if (dm->max_fill_pct > m->max_fill_pct) m->max_fill_pct = dm->max_fill_pct;
    sum += dm->mean_allocs;
    sum2 += dm->mean_allocs * dm->mean_allocs;
    if (dm->max_allocs > m->disk_max_allocs) m->disk_max_allocs = dm->max_allocs;
  }
  m->disk_mean_allocs = sum / r->ndisks;
  m->disk_mean_allocs_sd = sqrt(fmax(sum2 / r->ndisks - m->disk_mean_allocs * m->disk_mean_allocs, 0));
  for (int v = 0; v < r->nnodes; v++) {
    acc_move(&x->node[v], t_end, 0, 0);
    r->node[v].mean_allocs = span > 0 ? x->node[v].int_count / span : 0;
    r->node[v].max_allocs = x->node[v].max_count;
    m->node_mean_allocs += r->node[v].mean_allocs / r->nnodes;
    if (r->node[v].max_allocs > m->node_max_allocs) m->node_max_allocs = r->node[v].max_allocs;
  }
  acc_move(&x->requests, t_end, 0, 0);
  acc_move(&x->parts, t_end, 0, 0);
  m->mean_requests = span > 0 ? x->requests.int_count / span : 0;
  m->max_requests = x->requests.max_count;
  m->mean_parts = span > 0 ? x->parts.int_count / span : 0;
  m->max_parts = x->parts.max_count;
  m->served_share = m->sum_cap > 0 ? m->allocated_volume / m->sum_cap : 0;
}
