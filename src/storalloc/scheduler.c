/* iosim — StorAlloc's storage request scheduler (see ios_storalloc.h, docs/storalloc.md): its options, the cut of a
 * request into parts, the checks of its inputs, the run (ios_storalloc_run: outcomes started, arrays allocated, the
 * requests taken in submission order) and the requests decided at their start (decide_start 1). The run's shared
 * state, its events and the Table 3 metrics are in sched_state.c; the requests decided at submission then replayed
 * (decide_start 0, the default) in sched_plan.c; requests.csv and the metrics JSON in sched_writers.c. */
#include "scheduler_internal.h"
#include "ios_clock.h"
#include "ios_diag.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---------------------------------------------------------------- decided at start */

/* Decided at its start (decide_start 1): one attempt of request i at time t (attempt a) on the exact state: place
 * every part still pending; all or nothing (split_all) or part by part. */
static int decide(sa_run_t *x, const sa_event_t *e) {
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
    int d = -1, rc = sa_choose(x, i, x->sizes[k], t, q->duration, &d);
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
  int rc = sa_add_estimates(x, i, t, placed);
  for (long m = 0; rc == IOS_OK && m < placed; m++)
    rc = sa_commit_part(x, i, x->idx[m], x->chosen[m], x->sizes[x->idx[m]], t);
  if (rc != IOS_OK) return rc;
  if (refused && !(all && failed) && x->o->requeue && e->a < x->o->retries) {
    sa_event_t retry = {t + x->o->interval, e->seq, i, e->a + 1, 0};
    return sa_heap_push(&x->decisions, retry);
  }
  sa_finalize(x, i, t, e->a);
  return IOS_OK;
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

static int cmp_slot(const void *a, const void *b) {
  const sa_slot_t *x = a, *y = b;
  return x->t < y->t ? -1 : x->t > y->t ? 1 : (x->i > y->i) - (x->i < y->i);
}

static int schedule(sa_run_t *x, int n) {
  sa_slot_t *order = malloc(sizeof *order * (size_t)(n > 0 ? n : 1));
  if (order == NULL) return IOS_ENOMEM;
  for (int i = 0; i < n; i++)
    order[i] = (sa_slot_t){x->req[i].submit, i};
  qsort(order, (size_t)n, sizeof *order, cmp_slot);
  int rc = IOS_OK;
  if (!x->o->decide_start) {
    rc = sa_schedule_planned(x, n, order);
    free(order);
    return rc;
  }
  for (int k = 0; k < n && rc == IOS_OK; k++) {
    sa_event_t ev = {order[k].t, k, order[k].i, 0, 0};
    rc = sa_heap_push(&x->decisions, ev);
  }
  free(order);
  while (rc == IOS_OK && x->decisions.n > 0) {
    double t = x->decisions.e[0].t;
    while (rc == IOS_OK && x->ends.n > 0 && x->ends.e[0].t <= t) { /* [start, end): release before deciding */
      sa_event_t end = sa_heap_pop(&x->ends);
      rc = sa_release(x, &end);
    }
    if (rc != IOS_OK) break;
    sa_event_t ev = sa_heap_pop(&x->decisions);
    rc = decide(x, &ev);
  }
  while (rc == IOS_OK && x->ends.n > 0) {
    sa_event_t end = sa_heap_pop(&x->ends);
    rc = sa_release(x, &end);
  }
  return rc;
}

/* Starts each request's outcome (refused, cut into parts) and counts parts, maxparts and t_begin. */
static int init_outcomes(sa_run_t *x, int n, double threshold) {
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
static int start_run(sa_run_t *x, int n) {
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
static void free_run(sa_run_t *x) {
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
  sa_run_t x = {.s = s, .req = req, .o = o, .r = &r};
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
  if (rc == IOS_OK) sa_finish_metrics(&x, n);
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
