/* iosim — the job queue (IPDPS'21 §5.3): FIFO submission, start on free compute nodes, re-arbitration of allocation
 * and placement over the running jobs (see sim_queue.h, docs/engine.md). */
#include "sim_queue.h"

#include "ios_arbiter.h"
#include "sim_state.h"
#include "sim_traces.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/log.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_queue, iosim, "iosim job queue");

/* The queue's own state. */
struct sim_queue {
  int *waiting, nwaiting; /* submitted jobs not started, in queue order */
  int *free_hosts, nfree; /* compute host indices not used by a running job */
  int running_changed;    /* a job started or ended since the last arbitration */
  int keep_running;       /* running jobs keep their resources at re-arbitration */
  long arbitrations;      /* re-arbitrations done (random streams) */
};

int sim_queue_init(engine_t *e) {
  e->queue = calloc(1, sizeof *e->queue);
  return e->queue != NULL ? IOS_OK : IOS_ENOMEM;
}

void sim_queue_fini(engine_t *e) {
  if (e->queue == NULL) return;
  free(e->queue->waiting);
  free(e->queue->free_hosts);
  free(e->queue);
  e->queue = NULL;
}

int sim_queue_setup(engine_t *e, int keep_running) {
  struct sim_queue *Q = e->queue;
  const ios_platform_t *p = e->p;
  int napps = e->napps;
  Q->keep_running = keep_running;
  Q->waiting = malloc(sizeof *Q->waiting * (size_t)(napps > 0 ? napps : 1));
  Q->free_hosts = malloc(sizeof *Q->free_hosts * (size_t)(p->ncompute > 0 ? p->ncompute : 1));
  if (Q->waiting == NULL || Q->free_hosts == NULL) return IOS_ENOMEM;
  for (int i = p->ncompute - 1; i >= 0; i--) /* a stack sorted by decreasing index: jobs take the lowest free first */
    Q->free_hosts[Q->nfree++] = i;
  return IOS_OK;
}

static int by_index(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Gives a job's K hosts back to the free stack, keeping it sorted by decreasing index (the lowest free index on top,
 * so the next job takes the lowest free nodes, as a scheduler's linear node selection does): HOSTS is sorted
 * ascending in place (a job takes its hosts from the top, so they already are, but for a job placed on given hosts)
 * and merged in from the top, O(nfree + K log K). Without the order, nodes given back in a job's own order scatter
 * the next jobs across racks (docs/performance.md, racked site year). */
static void give_back(struct sim_queue *Q, int *hosts, int k) {
  qsort(hosts, (size_t)k, sizeof *hosts, by_index);
  int i = Q->nfree - 1, j = 0;
  for (int w = Q->nfree + k - 1; j < k; w--) /* the smaller of the two heads goes on top */
    Q->free_hosts[w] = (i >= 0 && Q->free_hosts[i] < hosts[j]) ? Q->free_hosts[i--] : hosts[j++];
  Q->nfree += k;
}

void sim_queue_job_ended(engine_t *e, app_state_t *as) {
  struct sim_queue *Q = e->queue;
  if (as->q.hosts != NULL && !e->s->external) give_back(Q, as->q.hosts, as->a->nodes);
  Q->running_changed = 1;
  if (as->st.policy == NULL) { /* its transfers, allocated when it started (below), go with it */
    for (int i = 0; as->t != NULL && i < as->tcap; i++)
      ios_tr_forget(&as->t[i]);
    free(as->t);
    as->t = NULL;
    as->tcap = 0;
  }
}

/* A starting job's transfers: room for every resource (an allocation may give it any of them), none in the heap. */
static int begin_transfers(engine_t *e, app_state_t *as) {
  if (as->t != NULL) return 0;
  int room = e->p->nres > 0 ? e->p->nres : 1;
  as->t = calloc((size_t)room, sizeof *as->t);
  if (as->t == NULL) {
    sim_fail(e, IOS_ENOMEM, NULL, "out of memory for the transfers of job %s", as->a->name);
    return -1;
  }
  as->tcap = room;
  for (int i = 0; i < room; i++)
    as->t[i].slot = -1;
  return 0;
}

void sim_apply_alloc(engine_t *e, app_state_t *as) {
  int j = (int)(as - e->apps);
  if (as->q.has_alloc) sim_al_row(e, as, as->q.alloc_since, sim_now(e));
  as->n = as->q.next_n;
  memcpy(as->res, as->q.next_res, sizeof *as->res * (size_t)as->n);
  as->b = ios_profile_bw(&e->profiles[j], as->n);
  as->cap = as->b / (as->n > 0 ? as->n : 1);
  as->q.has_alloc = 1;
  as->q.pending = 0;
  as->q.alloc_since = sim_now(e);
}

/* Allocation and placement over the running jobs (IPDPS'21 §5.3); jobs without resources yet get theirs at once, the
 * others from their next I/O operation, unless the policy keeps running jobs' resources. */
static void rearbitrate(engine_t *e) {
  struct sim_queue *Q = e->queue;
  int *sel = malloc(sizeof *sel * (size_t)e->napps), *n = malloc(sizeof *n * (size_t)e->napps), *res = NULL, k = 0;
  if (sel == NULL || n == NULL) {
    sim_fail(e, IOS_ENOMEM, NULL, "out of memory for the re-arbitration");
    free(sel);
    free(n);
    return;
  }
  for (int j = 0; j < e->napps; j++) {
    app_state_t *as = &e->apps[j];
    if (!as->q.started || as->state == ST_DONE) continue;
    if (as->a->given == NULL) {
      sel[k++] = j;
    } else if (!as->q.has_alloc) { /* resources the workload gave it (a Darshan job's OSTs): its own, kept */
      as->q.next_n = as->a->ngiven;
      memcpy(as->q.next_res, as->a->given, sizeof *as->a->given * (size_t)as->a->ngiven);
      sim_apply_alloc(e, as);
    }
  }
  int rc = k > 0 && sim_fault(e, SIM_FAULT_ARBITRATION) ? IOS_ENOMEM
           : k > 0                                      ? ios_arbitrate(e->s, e->p, e->w, e->app_views, sel, k,
                                                                        IOS_STREAM_REARBITRATION + 2 * (uint64_t)Q->arbitrations++, n, &res)
                                                        : IOS_OK;
  if (rc != IOS_OK) {
    sim_fail(e, rc, "allocation.policy", "re-arbitration of %d running jobs at t = %.17g s failed (%s)", k, sim_now(e),
             ios_strerror(rc));
    k = 0; /* nothing to apply */
  }
  for (int i = 0, off = 0; i < k; off += n[i], i++) {
    app_state_t *as = &e->apps[sel[i]];
    if (Q->keep_running && as->q.has_alloc) continue;
    as->q.next_n = n[i];
    memcpy(as->q.next_res, res + off, sizeof *res * (size_t)n[i]);
    as->q.pending = 1;
    if (!as->q.has_alloc) sim_apply_alloc(e, as);
  }
  free(sel);
  free(n);
  free(res);
}

void sim_queue_begin(engine_t *e, app_state_t *as) {
  struct sim_queue *Q = e->queue;
  if (begin_transfers(e, as) != 0) return;
  as->host = e->p->compute[as->q.hosts[0]];
  as->q.started = 1;
  as->start = sim_now(e);
  rearbitrate(e); /* at once: an operation it posts at the same date uses its allocation */
  Q->running_changed = 0;
}

void sim_schedule_jobs(engine_t *e) {
  struct sim_queue *Q = e->queue;
  int *go = malloc(sizeof *go * (size_t)(Q->nwaiting + 1)), ngo = 0;
  if (go == NULL) {
    sim_fail(e, IOS_ENOMEM, NULL, "out of memory for the job queue");
    return;
  }
  for (int q = 0; q < Q->nwaiting;) {
    app_state_t *as = &e->apps[Q->waiting[q]];
    if (as->a->nodes <= Q->nfree) {
      for (int i = 0; i < as->a->nodes; i++)
        as->q.hosts[i] = Q->free_hosts[--Q->nfree];
      if (begin_transfers(e, as) != 0) break;
      as->host = e->p->compute[as->q.hosts[0]];
      as->q.started = 1;
      as->start = sim_now(e);
      go[ngo++] = Q->waiting[q];
      memmove(Q->waiting + q, Q->waiting + q + 1, sizeof *Q->waiting * (size_t)(Q->nwaiting - q - 1));
      Q->nwaiting--;
      Q->running_changed = 1;
      continue;
    }
    if (!e->s->backfill) break;
    q++;
  }
  if (Q->running_changed) rearbitrate(e);
  Q->running_changed = 0;
  for (int i = 0; i < ngo; i++) /* they begin after this batch's decisions (calendar.c) */
    sim_resume(e, go[i]);
  free(go);
}

void sim_on_submit(engine_t *e, int j) {
  struct sim_queue *Q = e->queue;
  int q = Q->nwaiting;
  while (q > 0 && e->apps[Q->waiting[q - 1]].a->release > e->apps[j].a->release)
    q--;
  while (q > 0 && e->apps[Q->waiting[q - 1]].a->release == e->apps[j].a->release && Q->waiting[q - 1] > j)
    q--;
  memmove(Q->waiting + q + 1, Q->waiting + q, sizeof *Q->waiting * (size_t)(Q->nwaiting - q));
  Q->waiting[q] = j;
  Q->nwaiting++;
}
