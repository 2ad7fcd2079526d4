/* iosim — StorAlloc's storage request scheduler and its Table 3 metrics (see ios_storalloc.h, docs/storalloc.md). */
#include "ios_storalloc.h"
#include "ios_clock.h"
#include "ios_diag.h"
#include "ios_units.h"
#include "ios_gen.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PARTS 100000000L /* parts of all requests together */

void ios_storalloc_options_default(ios_storalloc_options_t *o) {
  if (o == NULL) return;
  memset(o, 0, sizeof *o);
  o->policy = ios_storage_policy_find("best-bandwidth");
  ios_params_defaults(o->policy->nparams, o->policy->params, &o->params);
  o->split = 1;
  o->split_threshold = 200e9;
  o->requeue = 0;
  o->retries = 5;
  o->interval = 300;
  o->seed = 1;
}

int ios_storalloc_options_policy(ios_storalloc_options_t *o, const char *name) {
  const ios_storage_policy_t *p = ios_storage_policy_find(name);
  if (o == NULL || p == NULL) {
    char valid[256];
    ios_policy_names(IOS_FAMILY_STORAGE, valid, sizeof valid);
    ios_diag_set(NULL, "storage policy", "unknown name '%s': give one of %s", name != NULL ? name : "(null)", valid);
    return IOS_EINVAL;
  }
  o->policy = p;
  ios_params_defaults(p->nparams, p->params, &o->params);
  return IOS_OK;
}

long ios_storalloc_split(double capacity, double threshold, double *sizes, long max) {
  if (!(capacity >= 0) || !isfinite(capacity) || isnan(threshold)) return -1;
  double q = threshold > 0 ? ceil(capacity / threshold) : 1;
  if (q > (double)MAX_PARTS) return -1;
  long parts = q < 1 ? 1 : (long)q;
  if (sizes == NULL || max <= 0) return parts;
  double base = floor(capacity / (double)parts), rem = capacity - base * (double)parts, whole = floor(rem);
  for (long i = 0; i < parts && i < max; i++)
    sizes[i] = base + ((double)i < whole ? 1 : 0) + (i == parts - 1 ? rem - whole : 0);
  return parts;
}

const char *ios_storalloc_status_name(int status) {
  return status == IOS_REQ_ALLOCATED ? "allocated"
         : status == IOS_REQ_REFUSED ? "refused"
         : status == IOS_REQ_PARTIAL ? "partial"
                                     : "failed";
}

/* ---------------------------------------------------------------- events */

/* A decision (a request's attempt: a = attempt) or an end (a part leaving disk a). */
typedef struct {
  double t;
  long seq;
  int req, a;
  double size;
} event_t;

typedef struct {
  event_t *e;
  long n, cap;
} heap_t;

static int before(const event_t *x, const event_t *y) {
  return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

static int heap_push(heap_t *h, event_t ev) {
  if (h->n == h->cap) {
    long cap = h->cap ? 2 * h->cap : 1024;
    event_t *more = realloc(h->e, sizeof *more * (size_t)cap);
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

static event_t heap_pop(heap_t *h) {
  event_t top = h->e[0], last = h->e[--h->n];
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

typedef struct {
  double level, count, last, int_level, int_count, max_level;
  int max_count;
} acc_t;

/* Moves to time t, then changes the level and the count. Maxima are taken over spans of positive length, as the
 * integrals are: an allocation of duration 0 holds nothing ([start, end) is empty). */
static void acc_move(acc_t *a, double t, double dlevel, int dcount) {
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

typedef struct {
  const ios_storage_t *s;
  const ios_request_t *req;
  const ios_storalloc_options_t *o;
  ios_storalloc_result_t *r;
  ios_storage_state_t st;
  ios_storage_ctx_t ctx;
  heap_t decisions, ends;
  acc_t *disk, *node, requests, parts;
  int *left;     /* parts of each request held now */
  double *sizes; /* scratch: part sizes of the current request */
  int *chosen;   /* scratch: their disks */
  long *idx;     /* scratch: which part each chosen disk is for */
  long maxparts;
} run_t;

enum { PART_PENDING = -1 };

/* Part k of request i starts being held on disk d at time t (it is in x->st already). StorAlloc's estimate of its
 * bandwidth (the permanent regime, sharing with everything held, the request's other parts included) is added to the
 * request's est_bw. */
static int commit_part(run_t *x, int i, long k, int d, double size, double t) {
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
  event_t end = {t + q->duration, i, i, d, size};
  if (heap_push(&x->ends, end) != IOS_OK) return IOS_ENOMEM;
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
static int add_estimates(run_t *x, int i, double t, long placed) {
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

static int release(run_t *x, const event_t *e) {
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
static void finalize(run_t *x, int i, double t, int a) {
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
static int choose(run_t *x, int i, double size, double t, double duration, int *d) {
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

/* Decided at its start (decide_start 1): one attempt of request i at time t (attempt a) on the exact state: place
 * every part still pending; all or nothing (split_all) or part by part. */
static int decide(run_t *x, const event_t *e) {
  int i = e->req;
  const ios_request_t *q = &x->req[i];
  ios_request_outcome_t *out = &x->r->req[i];
  double t = e->t;
  x->st.now = t;
  long parts = ios_storalloc_split(q->capacity, x->o->split ? x->o->split_threshold : 0, x->sizes, x->maxparts);
  long placed = 0;
  int all = x->o->split_all, refused = 0, failed = 0;
  for (long k = 0; k < parts && !(all && (refused || failed)); k++) {
    int *ps = &x->r->part_status[out->first_part + k];
    if (*ps != PART_PENDING) continue;
    int d = -1, rc = choose(x, i, x->sizes[k], t, q->duration, &d);
    if (rc < 0) return rc;
    if (rc == IOS_STORAGE_REFUSED) {
      refused = 1;
      continue;
    }
    ios_storage_alloc_t a = {x->sizes[k], t + q->duration, q->bandwidth, i};
    rc = ios_storage_state_add(&x->st, x->s, d, &a);
    if (rc < 0) return rc;
    if (rc == 1) { /* a failure: the chosen disk has no room */
      failed = 1;
      if (out->fail_disk < 0) out->fail_disk = d;
      if (!all) *ps = IOS_REQ_FAILED;
      continue;
    }
    x->chosen[placed] = d;
    x->idx[placed++] = k;
  }
  if (all && (refused || failed)) { /* all or nothing: release the parts placed so far */
    for (long m = 0; m < placed; m++)
      ios_storage_state_remove(&x->st, x->chosen[m], i, x->sizes[x->idx[m]], t + q->duration);
    placed = 0;
    if (failed)
      for (long k = 0; k < parts; k++)
        x->r->part_status[out->first_part + k] = IOS_REQ_FAILED;
  }
  int rc = add_estimates(x, i, t, placed);
  for (long m = 0; rc == IOS_OK && m < placed; m++)
    rc = commit_part(x, i, x->idx[m], x->chosen[m], x->sizes[x->idx[m]], t);
  if (rc != IOS_OK) return rc;
  if (refused && !(all && failed) && x->o->requeue && e->a < x->o->retries) {
    event_t retry = {t + x->o->interval, e->seq, i, e->a + 1, 0};
    return heap_push(&x->decisions, retry);
  }
  finalize(x, i, t, e->a);
  return IOS_OK;
}

/* ---------------------------------------------------------------- planned at submission */

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
static int plan_request(run_t *x, int i, catalogue_t *live, catalogue_t *plan) {
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
      int d = -1, rc = choose(x, i, x->sizes[k], w0, w1 - w0, &d);
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
static int replay(run_t *x, catalogue_t *plan) {
  ios_storage_state_clear(&x->st); /* from the scheduler's views to the storage's exact state */
  if (plan->n > 0)                 /* plan->r is in decision order (NULL when nothing was granted); seq breaks ties */
    qsort(plan->r, (size_t)plan->n, sizeof *plan->r, cmp_resv);
  int rc = IOS_OK;
  for (long m = 0; rc == IOS_OK && m < plan->n;) {
    const resv_t *v = &plan->r[m];
    double t = v->start;
    while (rc == IOS_OK && x->ends.n > 0 && x->ends.e[0].t <= t) { /* [start, end): release first */
      event_t end = heap_pop(&x->ends);
      rc = release(x, &end);
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
      if (rc == IOS_OK) rc = commit_part(x, i, x->idx[p], x->chosen[p], x->sizes[p], t);
      out->est_bw = (isnan(out->est_bw) ? 0 : out->est_bw) + bw;
    }
    m = g;
  }
  while (rc == IOS_OK && x->ends.n > 0) {
    event_t end = heap_pop(&x->ends);
    rc = release(x, &end);
  }
  return rc;
}

/* ---------------------------------------------------------------- the run */

static int check_inputs(const ios_storage_t *s, const ios_request_t *req, int n, const ios_storalloc_options_t *o) {
  if (s == NULL || s->ndisks < 1 || s->nnodes < 1) {
    ios_diag_set(NULL, "storage platform", "has no disk: give at least one node with one disk");
    return IOS_EINVAL;
  }
  for (int d = 0; d < s->ndisks; d++)
    if (!(s->disks[d].capacity > 0) || !isfinite(s->disks[d].capacity) || !(s->disks[d].write_bw > 0) ||
        s->disks[d].node < 0 || s->disks[d].node >= s->nnodes) {
      ios_diag_set(NULL, "storage platform",
                   "disk %d: capacity %g bytes, write bandwidth %g bytes/s, node %d: give "
                   "a positive capacity and bandwidth (build it with ios_storage_add_node)",
                   d, s->disks[d].capacity, s->disks[d].write_bw, s->disks[d].node);
      return IOS_EINVAL;
    }
  if (n < 0 || (n > 0 && req == NULL)) {
    ios_diag_set(NULL, "storage requests", "%d requests: give n >= 0 and the array", n);
    return IOS_EINVAL;
  }
  if (o->policy == NULL || (o->split && (!(o->split_threshold > 0) || !isfinite(o->split_threshold))) ||
      (o->requeue && (o->retries < 0 || !(o->interval > 0) || !isfinite(o->interval)))) {
    ios_diag_set(NULL, "storalloc options",
                 "policy %s, split threshold %g bytes, %d retries every %g s: give a policy, a positive threshold "
                 "(StorAlloc: 200e9), retries >= 0 and a positive interval (StorAlloc: 5 every 300 s)",
                 o->policy != NULL ? o->policy->name : "(none)", o->split_threshold, o->retries, o->interval);
    return IOS_EINVAL;
  }
  for (int i = 0; i < n; i++) {
    const ios_request_t *q = &req[i];
    if (!(q->capacity > 0) || !isfinite(q->capacity) || !(q->duration >= 0) || !isfinite(q->duration) ||
        !isfinite(q->submit) || !(q->bandwidth >= 0) || !isfinite(q->bandwidth)) {
      char where[64];
      snprintf(where, sizeof where, "request %d (id %ld)", i, q->id);
      ios_diag_set(NULL, where,
                   "capacity %g bytes, duration %g s, submit %g s, bandwidth %g bytes/s: give a positive capacity, a "
                   "duration >= 0, a finite submission time and a bandwidth need >= 0 (0 = none)",
                   q->capacity, q->duration, q->submit, q->bandwidth);
      return IOS_EINVAL;
    }
  }
  return IOS_OK;
}

/* A request's place in time order. */
typedef struct {
  double t;
  int i;
} slot_t;

static int cmp_slot(const void *a, const void *b) {
  const slot_t *x = a, *y = b;
  return x->t < y->t ? -1 : x->t > y->t ? 1 : (x->i > y->i) - (x->i < y->i);
}

static void finish_metrics(run_t *x, int n) {
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
    acc_t *a = &x->disk[d];
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

/* decide_start 0: the scheduler's phase over every request in submission order, then the replay. */
static int schedule_planned(run_t *x, int n, const slot_t *order) {
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
    finalize(x, i, x->req[i].submit + x->r->req[i].requeued * x->o->interval, x->r->req[i].requeued);
  free(live.r);
  free(plan.r);
  return rc;
}

static int schedule(run_t *x, int n) {
  slot_t *order = malloc(sizeof *order * (size_t)(n > 0 ? n : 1));
  if (order == NULL) return IOS_ENOMEM;
  for (int i = 0; i < n; i++)
    order[i] = (slot_t){x->req[i].submit, i};
  qsort(order, (size_t)n, sizeof *order, cmp_slot);
  int rc = IOS_OK;
  if (!x->o->decide_start) {
    rc = schedule_planned(x, n, order);
    free(order);
    return rc;
  }
  for (int k = 0; k < n && rc == IOS_OK; k++) {
    event_t ev = {order[k].t, k, order[k].i, 0, 0};
    rc = heap_push(&x->decisions, ev);
  }
  free(order);
  while (rc == IOS_OK && x->decisions.n > 0) {
    double t = x->decisions.e[0].t;
    while (rc == IOS_OK && x->ends.n > 0 && x->ends.e[0].t <= t) { /* [start, end): release before deciding */
      event_t end = heap_pop(&x->ends);
      rc = release(x, &end);
    }
    if (rc != IOS_OK) break;
    event_t ev = heap_pop(&x->decisions);
    rc = decide(x, &ev);
  }
  while (rc == IOS_OK && x->ends.n > 0) {
    event_t end = heap_pop(&x->ends);
    rc = release(x, &end);
  }
  return rc;
}

/* Starts each request's outcome (refused, cut into parts) and counts parts, maxparts and t_begin. */
static int init_outcomes(run_t *x, int n, double threshold) {
  const ios_request_t *req = x->req;
  ios_storalloc_result_t *r = x->r;
  for (int i = 0; i < n; i++) {
    long parts = ios_storalloc_split(req[i].capacity, threshold, NULL, 0);
    if (parts < 0 || r->nparts > MAX_PARTS - parts) {
      ios_diag_set(NULL, "storalloc options",
                   "split threshold %g bytes cuts the requests into more than %ld parts: "
                   "raise it (StorAlloc: 200e9)",
                   threshold, MAX_PARTS);
      return IOS_EINVAL;
    }
    r->req[i] = (ios_request_outcome_t){
        IOS_REQ_REFUSED, 0, req[i].submit, 0, (int)parts, req[i].capacity / (double)parts, r->nparts, -1, 0, 0, NAN};
    r->nparts += parts;
    if (parts > x->maxparts) x->maxparts = parts;
    if (i == 0 || req[i].submit < r->m.t_begin) r->m.t_begin = req[i].submit;
  }
  return IOS_OK;
}

/* Allocates the result's and the run's arrays, seeds the policy and starts the accumulators at t_begin. */
static int start_run(run_t *x, int n) {
  const ios_storage_t *s = x->s;
  ios_storalloc_result_t *r = x->r;
  r->part_disk = malloc(sizeof *r->part_disk * (size_t)(r->nparts > 0 ? r->nparts : 1));
  r->part_status = malloc(sizeof *r->part_status * (size_t)(r->nparts > 0 ? r->nparts : 1));
  r->part_start = malloc(sizeof *r->part_start * (size_t)(r->nparts > 0 ? r->nparts : 1));
  x->idx = malloc(sizeof *x->idx * (size_t)(x->maxparts > 0 ? x->maxparts : 1));
  r->disk = calloc((size_t)s->ndisks, sizeof *r->disk);
  r->node = calloc((size_t)s->nnodes, sizeof *r->node);
  x->disk = calloc((size_t)s->ndisks, sizeof *x->disk);
  x->node = calloc((size_t)s->nnodes, sizeof *x->node);
  x->left = calloc((size_t)(n > 0 ? n : 1), sizeof *x->left);
  x->sizes = malloc(sizeof *x->sizes * (size_t)(x->maxparts > 0 ? x->maxparts : 1));
  x->chosen = malloc(sizeof *x->chosen * (size_t)(x->maxparts > 0 ? x->maxparts : 1));
  x->ctx.cursor = calloc((size_t)s->nnodes + 1, sizeof *x->ctx.cursor);
  ios_rng_seed(&x->ctx.rng, x->o->seed, IOS_STREAM_STORAGE);
  int rc = r->part_disk && r->part_status && r->part_start && x->idx && r->disk && r->node && x->disk && x->node &&
                   x->left && x->sizes && x->chosen && x->ctx.cursor
               ? ios_storage_state_init(&x->st, s)
               : IOS_ENOMEM;
  if (rc != IOS_OK) return rc;
  for (long k = 0; k < r->nparts; k++) {
    r->part_disk[k] = -1;
    r->part_status[k] = PART_PENDING;
    r->part_start[k] = NAN;
  }
  for (int d = 0; d < s->ndisks; d++)
    x->disk[d].last = r->m.t_begin;
  for (int v = 0; v < s->nnodes; v++)
    x->node[v].last = r->m.t_begin;
  x->requests.last = x->parts.last = r->m.t_begin;
  return IOS_OK;
}

/* Frees what the run holds besides its result. */
static void free_run(run_t *x) {
  ios_storage_state_free(&x->st);
  free(x->decisions.e);
  free(x->ends.e);
  free(x->disk);
  free(x->node);
  free(x->left);
  free(x->sizes);
  free(x->chosen);
  free(x->idx);
  free(x->ctx.cursor);
}

int ios_storalloc_run(const ios_storage_t *s, const ios_request_t *req, int n, const ios_storalloc_options_t *o,
                      ios_storalloc_result_t *out) {
  ios_storalloc_options_t defaults;
  if (o == NULL) {
    ios_storalloc_options_default(&defaults);
    o = &defaults;
  }
  if (out == NULL) return IOS_EINVAL;
  int rc = check_inputs(s, req, n, o);
  if (rc != IOS_OK) return rc;
  double t0 = ios_clock_s(), threshold = o->split ? o->split_threshold : 0;
  ios_storalloc_result_t r = {0};
  run_t x = {.s = s, .req = req, .o = o, .r = &r};
  r.nrequests = n;
  r.ndisks = s->ndisks;
  r.nnodes = s->nnodes;
  r.req = calloc((size_t)(n > 0 ? n : 1), sizeof *r.req);
  if (r.req == NULL) return IOS_ENOMEM;
  if (init_outcomes(&x, n, threshold) != IOS_OK) {
    free(r.req);
    return IOS_EINVAL;
  }
  rc = start_run(&x, n);
  if (rc == IOS_OK) rc = schedule(&x, n);
  if (rc == IOS_OK) finish_metrics(&x, n);
  free_run(&x);
  if (rc != IOS_OK) {
    ios_storalloc_result_free(&r);
    return rc;
  }
  r.wall_time_s = ios_clock_s() - t0;
  *out = r;
  return IOS_OK;
}

void ios_storalloc_result_free(ios_storalloc_result_t *r) {
  if (r == NULL) return;
  free(r->req);
  free(r->part_disk);
  free(r->part_status);
  free(r->part_start);
  free(r->disk);
  free(r->node);
  memset(r, 0, sizeof *r);
}

/* ---------------------------------------------------------------- outputs */

int ios_storalloc_write_requests_csv(const char *path, const ios_request_t *req, int n, const ios_storage_t *s,
                                     const ios_storalloc_result_t *r, const ios_request_io_t *io) {
  if (path == NULL || s == NULL || r == NULL || n != r->nrequests || (n > 0 && req == NULL)) return IOS_EINVAL;
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    ios_diag_set(path, NULL, "cannot write the requests (%s): check the output directory", strerror(errno));
    return IOS_EIO;
  }
  fprintf(f,
          "id,submit_s,capacity_bytes,duration_s,bandwidth_Bps,status,requeued,start_s,delay_s,end_s,parts,"
          "part_bytes,disks,nodes,est_bw_Bps,parts_allocated,allocated_bytes%s\n",
          io != NULL ? ",io_bytes,io_start_s,io_end_s,io_time_s,sim_bw_Bps" : "");
  char a[40], b[40], c[40], d[40], e[40], g[40], h[40];
  for (int i = 0; i < n; i++) {
    const ios_request_outcome_t *q = &r->req[i];
    int ok = q->parts_allocated > 0;
    double last = q->start; /* the latest start of its allocated parts */
    for (long k = q->first_part; k < q->first_part + q->parts; k++)
      if (r->part_status[k] == IOS_REQ_ALLOCATED && r->part_start[k] > last) last = r->part_start[k];
    ios_fmt_double(a, sizeof a, req[i].submit);
    ios_fmt_double(b, sizeof b, req[i].capacity);
    ios_fmt_double(c, sizeof c, req[i].duration);
    ios_fmt_double(d, sizeof d, req[i].bandwidth);
    ios_fmt_double(e, sizeof e, q->start);
    ios_fmt_double(g, sizeof g, q->delay);
    ios_fmt_double(h, sizeof h, q->part_size);
    fprintf(f, "%ld,%s,%s,%s,%s,%s,%d,%s,%s,", req[i].id, a, b, c, d, ios_storalloc_status_name(q->status), q->requeued,
            e, g);
    if (ok) {
      ios_fmt_double(a, sizeof a, last + req[i].duration);
      fputs(a, f);
    }
    fprintf(f, ",%d,%s,", q->parts, h);
    int first = 1;
    for (long k = q->first_part; k < q->first_part + q->parts; k++)
      if (r->part_status[k] == IOS_REQ_ALLOCATED) {
        fprintf(f, "%s%d", first ? "" : ";", r->part_disk[k]);
        first = 0;
      }
    fputc(',', f);
    first = 1;
    for (long k = q->first_part; k < q->first_part + q->parts; k++)
      if (r->part_status[k] == IOS_REQ_ALLOCATED) {
        fprintf(f, "%s%d", first ? "" : ";", s->disks[r->part_disk[k]].node);
        first = 0;
      }
    fputc(',', f);
    if (ok) {
      ios_fmt_double(a, sizeof a, q->est_bw);
      fputs(a, f);
    }
    ios_fmt_double(a, sizeof a, q->allocated_bytes);
    fprintf(f, ",%d,%s", q->parts_allocated, a);
    if (io != NULL) {
      const ios_request_io_t *x = &io[i];
      ios_fmt_double(a, sizeof a, x->bytes);
      ios_fmt_double(b, sizeof b, x->start);
      ios_fmt_double(c, sizeof c, x->end);
      ios_fmt_double(d, sizeof d, x->time);
      ios_fmt_double(e, sizeof e, x->time > 0 ? x->bytes / x->time : 0);
      fprintf(f, ",%s,%s,%s,%s,%s", a, b, c, d, x->time > 0 ? e : "");
    }
    fputc('\n', f);
  }
  if (ferror(f) | fclose(f)) {
    ios_diag_set(path, NULL, "write error: check the disk space");
    return IOS_EIO;
  }
  return IOS_OK;
}

/* Adds the "policy" (name, source, parameters) and "options" objects of the metrics to `root`. */
static void add_policy_options(cJSON *root, const ios_storalloc_options_t *o) {
  cJSON *pol = cJSON_AddObjectToObject(root, "policy");
  cJSON_AddStringToObject(pol, "name", o->policy->name);
  cJSON_AddStringToObject(pol, "source", o->policy->source);
  cJSON *par = cJSON_AddObjectToObject(pol, "params");
  for (int k = 0; k < o->policy->nparams; k++)
    cJSON_AddNumberToObject(par, o->policy->params[k].name, o->params.v[k]);
  cJSON *opt = cJSON_AddObjectToObject(root, "options");
  cJSON_AddBoolToObject(opt, "split", o->split);
  cJSON_AddNumberToObject(opt, "split_threshold_bytes", o->split_threshold);
  cJSON_AddBoolToObject(opt, "requeue", o->requeue);
  cJSON_AddNumberToObject(opt, "retries", o->retries);
  cJSON_AddNumberToObject(opt, "interval_s", o->interval);
  cJSON_AddNumberToObject(opt, "seed", (double)o->seed);
  cJSON_AddStringToObject(opt, "split_parts", o->split_all ? "all" : "independent");
  cJSON_AddStringToObject(opt, "decide", o->decide_start ? "start" : "submission");
  cJSON_AddStringToObject(opt, "requeue_window", o->requeue_window ? "duration" : "end");
}

/* Adds the "metrics" object (StorAlloc Table 3, and the run's wall time) to `root`. */
static void add_metric_items(cJSON *root, const ios_storalloc_result_t *r) {
  const ios_storalloc_metrics_t *m = &r->m;
  cJSON *mm = cJSON_AddObjectToObject(root, "metrics");
  const struct {
    const char *key;
    double v;
  } items[] = {
      {"requests", m->requests},
      {"allocated", m->allocated},
      {"refused", m->refused},
      {"failed", m->failed},
      {"partial", m->partial},
      {"parts_refused", (double)m->parts_refused},
      {"parts_failed", (double)m->parts_failed},
      {"requeued", m->requeued},
      {"requeued_allocated", m->requeued_allocated},
      {"total_delay_s", m->total_delay},
      {"split", m->split},
      {"split_allocated", m->split_allocated},
      {"parts_allocated", (double)m->parts_allocated},
      {"sum_cap_bytes", m->sum_cap},
      {"allocated_volume_bytes", m->allocated_volume},
      {"deallocated_volume_bytes", m->deallocated_volume},
      {"served_share", m->served_share},
      {"mean_disk_fill_pct", m->mean_fill_pct},
      {"max_disk_fill_pct", m->max_fill_pct},
      {"disk_mean_allocations", m->disk_mean_allocs},
      {"disk_mean_allocations_sd", m->disk_mean_allocs_sd},
      {"disk_max_allocations", m->disk_max_allocs},
      {"node_mean_allocations", m->node_mean_allocs},
      {"node_max_allocations", m->node_max_allocs},
      {"mean_concurrent_requests", m->mean_requests},
      {"max_concurrent_requests", m->max_requests},
      {"mean_concurrent_allocations", m->mean_parts},
      {"max_concurrent_allocations", m->max_parts},
      {"t_begin_s", m->t_begin},
      {"t_end_s", m->t_end},
      {"wall_time_s", r->wall_time_s},
  };
  for (size_t k = 0; k < sizeof items / sizeof *items; k++)
    cJSON_AddNumberToObject(mm, items[k].key, items[k].v);
}

/* Adds the "disks" array (each disk's characteristics and metrics) to `root`. */
static void add_disks(cJSON *root, const ios_storage_t *s, const ios_storalloc_result_t *r) {
  cJSON *disks = cJSON_AddArrayToObject(root, "disks");
  for (int d = 0; d < r->ndisks && d < s->ndisks; d++) {
    const ios_storalloc_disk_metrics_t *dm = &r->disk[d];
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "disk", d);
    cJSON_AddNumberToObject(j, "node", s->disks[d].node);
    cJSON_AddNumberToObject(j, "capacity_bytes", s->disks[d].capacity);
    cJSON_AddNumberToObject(j, "write_bw_Bps", s->disks[d].write_bw);
    cJSON_AddNumberToObject(j, "read_bw_Bps", s->disks[d].read_bw);
    cJSON_AddNumberToObject(j, "mean_fill_pct", dm->mean_fill_pct);
    cJSON_AddNumberToObject(j, "max_fill_pct", dm->max_fill_pct);
    cJSON_AddNumberToObject(j, "mean_allocations", dm->mean_allocs);
    cJSON_AddNumberToObject(j, "max_allocations", dm->max_allocs);
    cJSON_AddNumberToObject(j, "allocations", (double)dm->allocations);
    cJSON_AddNumberToObject(j, "volume_bytes", dm->volume);
    cJSON_AddItemToArray(disks, j);
  }
}

/* Adds the "nodes" array (each node's disks, bandwidth, null when unlimited, and allocations) to `root`. */
static void add_nodes(cJSON *root, const ios_storage_t *s, const ios_storalloc_result_t *r) {
  cJSON *nodes = cJSON_AddArrayToObject(root, "nodes");
  for (int v = 0; v < r->nnodes && v < s->nnodes; v++) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "node", v);
    cJSON_AddStringToObject(j, "name", s->nodes[v].name);
    cJSON_AddNumberToObject(j, "disks", s->nodes[v].ndisks);
    if (isfinite(s->nodes[v].bw))
      cJSON_AddNumberToObject(j, "bw_Bps", s->nodes[v].bw);
    else
      cJSON_AddNullToObject(j, "bw_Bps");
    cJSON_AddNumberToObject(j, "mean_allocations", r->node[v].mean_allocs);
    cJSON_AddNumberToObject(j, "max_allocations", r->node[v].max_allocs);
    cJSON_AddNumberToObject(j, "allocations", (double)r->node[v].allocations);
    cJSON_AddItemToArray(nodes, j);
  }
}

cJSON *ios_storalloc_metrics_json(const ios_storage_t *s, const ios_storalloc_options_t *o,
                                  const ios_storalloc_result_t *r) {
  if (s == NULL || o == NULL || r == NULL || o->policy == NULL) return NULL;
  cJSON *root = cJSON_CreateObject();
  add_policy_options(root, o);
  double total = 0;
  for (int d = 0; d < s->ndisks; d++)
    total += s->disks[d].capacity;
  cJSON *pl = cJSON_AddObjectToObject(root, "platform");
  cJSON_AddNumberToObject(pl, "nodes", s->nnodes);
  cJSON_AddNumberToObject(pl, "disks", s->ndisks);
  cJSON_AddNumberToObject(pl, "capacity_bytes", total);
  add_metric_items(root, r);
  add_disks(root, s, r);
  add_nodes(root, s, r);
  return root;
}

int ios_storalloc_write_metrics_json(const char *path, const ios_storage_t *s, const ios_storalloc_options_t *o,
                                     const ios_storalloc_result_t *r) {
  if (path == NULL) return IOS_EINVAL;
  cJSON *root = ios_storalloc_metrics_json(s, o, r);
  char *text = root != NULL ? cJSON_Print(root) : NULL;
  cJSON_Delete(root);
  if (text == NULL) return IOS_ENOMEM;
  FILE *f = fopen(path, "w");
  int rc = IOS_OK;
  if (f == NULL || fputs(text, f) < 0 || fputc('\n', f) == EOF) rc = IOS_EIO;
  if (f != NULL && fclose(f) != 0) rc = IOS_EIO;
  free(text);
  if (rc != IOS_OK)
    ios_diag_set(path, NULL, "cannot write the metrics (%s): check the output directory", strerror(errno));
  return rc;
}
