/* iosim — the transfer layer (see ios_transfer.h and docs/engine.md). */
#include "ios_transfer.h"
#include "ios_sg.h"

#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/asserts.h>
#include <xbt/dynar.h>
#include <xbt/log.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_transfer, iosim, "iosim transfer layer");

/* SimGrid's timing precision (its surf/precision, 1e-9 s): SimGrid ends together every activity whose end is within
 * this of the current date; the direct path does the same. */
#define TIMING_PRECISION 1e-9

static struct {
  int direct;
  int actor_per_segment; /* flow path: a new actor per segment instead of one per transfer (IOSIM_FLOW_ACTORS) */
  double (*clock)(void);
  const ios_tr_hooks_t *hooks;
  ios_transfer_t **heap; /* direct path: running transfers, a binary min-heap on `finish` */
  int nheap, cap;
} T;

static double now(void) {
  return T.clock != NULL ? T.clock() : simgrid_get_clock();
}

/* ---------------------------------------------------------------- direct path: the completion heap */

static int earlier(const ios_transfer_t *a, const ios_transfer_t *b) {
  return a->finish < b->finish || (a->finish == b->finish && a->gen < b->gen);
}

static void heap_place(int i, ios_transfer_t *t) {
  T.heap[i] = t;
  t->heap = i;
}

static void heap_up(int i) {
  ios_transfer_t *t = T.heap[i];
  while (i > 0 && earlier(t, T.heap[(i - 1) / 2])) {
    heap_place(i, T.heap[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  heap_place(i, t);
}

static void heap_down(int i) {
  ios_transfer_t *t = T.heap[i];
  for (;;) {
    int c = 2 * i + 1;
    if (c >= T.nheap) break;
    if (c + 1 < T.nheap && earlier(T.heap[c + 1], T.heap[c])) c++;
    if (!earlier(T.heap[c], t)) break;
    heap_place(i, T.heap[c]);
    i = c;
  }
  heap_place(i, t);
}

static void heap_remove(ios_transfer_t *t) {
  int i = t->heap;
  if (i < 0) return;
  t->heap = -1;
  ios_transfer_t *last = T.heap[--T.nheap];
  if (i == T.nheap) return;
  heap_place(i, last);
  heap_up(i);
  heap_down(last->heap);
}

/* @return 0, or -1 when out of memory (the transfer is then not in the heap). */
static int heap_update(ios_transfer_t *t) {
  if (t->heap < 0) {
    if (T.nheap == T.cap) {
      int ncap = T.cap ? 2 * T.cap : 64;
      ios_transfer_t **h = realloc(T.heap, sizeof *h * (size_t)ncap);
      if (h == NULL) return -1;
      T.heap = h;
      T.cap = ncap;
    }
    heap_place(T.nheap++, t);
  }
  heap_up(t->heap);
  heap_down(t->heap);
  return 0;
}

/* Bytes left now on the direct path: none once the completion date is reached (within the timing precision). */
static double direct_remaining(const ios_transfer_t *t) {
  if (!(t->rate > 0) || t->heap < 0) return t->remaining;
  double d = now();
  if (d >= t->finish - TIMING_PRECISION) return 0.0;
  double rem = t->remaining - t->rate * (d - t->t_last);
  return rem > 0 ? rem : 0.0;
}

static int direct_set_rate(ios_transfer_t *t, double r, int capped) {
  if (r == t->rate && (t->heap >= 0 || r == 0)) return 0;
  if (t->heap >= 0) {
    double rem = direct_remaining(t);
    if (rem <= 0) return 0; /* its last byte arrives at this very date: ios_tr_complete_due reports it */
    t->remaining = rem;
    t->t_last = now();
    T.hooks->segment_end(t, t->seg_rem0 - rem, 0);
  }
  t->gen++;
  t->rate = r;
  if (!(r > 0)) {
    heap_remove(t);
    t->finish = INFINITY;
    return 0;
  }
  t->seg_start = t->t_last = now();
  t->seg_rem0 = t->remaining;
  t->seg_capped = capped;
  t->finish = t->t_last + t->remaining / r;
  return heap_update(t) < 0 ? -1 : 1;
}

double ios_tr_next_completion(void) {
  return T.direct && T.nheap > 0 ? T.heap[0]->finish : INFINITY;
}

int ios_tr_complete_due(void) {
  int k = 0;
  double d = now();
  while (T.direct && T.nheap > 0 && T.heap[0]->finish <= d + TIMING_PRECISION) {
    ios_transfer_t *t = T.heap[0];
    heap_remove(t);
    t->remaining = 0;
    t->t_last = d;
    t->finish = INFINITY;
    T.hooks->segment_end(t, t->seg_rem0, 1);
    T.hooks->completed(t, t->gen);
    k++;
  }
  return k;
}

/* ---------------------------------------------------------------- flow path: one SimGrid flow per segment */

/* Starts the transfer's current segment as a flow from the calling actor's host and waits for it: a completion is
 * reported, a cancelled flow (a new rate) is not. */
static void flow_run(ios_transfer_t *t) {
  unsigned gen = t->gen;
  if (!t->starting) return;
  t->starting = 0;
  ios_flow_t *flow = ios_flow_start(t->mbox, t->remaining, t->rate);
  t->flow = flow;
  if (ios_flow_wait(flow) == 0 && t->flow == flow) {
    t->flow = NULL;
    T.hooks->segment_end(t, t->seg_rem0, 1);
    t->remaining = 0;
    T.hooks->completed(t, gen);
  }
  ios_flow_free(flow);
}

/* One actor per segment (IOSIM_FLOW_ACTORS=segment, the benchmark's alternative). */
static void segment_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  flow_run(sg_actor_self_get_data());
  T.hooks->actor_release();
}

/* The transfer's own actor: sleeps on its semaphore until the transfer has a segment to run (or retires), moves to
 * the transfer's host when it changed (a job's node, a striped job's writer), runs the segment. It outlives the
 * segments: a new rate costs a cancelled flow and a new one, not a new actor (whose stack SimGrid would map). */
static void transfer_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  ios_transfer_t *t = sg_actor_self_get_data();
  for (;;) {
    sg_sem_acquire(t->wake);
    if (t->retired) break;
    if (!t->starting) continue; /* a wake-up for a segment already run */
    if (sg_host_self() != t->host) sg_actor_set_host(sg_actor_self(), t->host);
    flow_run(t);
  }
  /* its semaphore goes with it: kept until the end of the run, one per transfer (half a million in a year of
   * storage requests) would hold ~500 bytes each */
  sg_sem_destroy(t->wake);
  t->wake = NULL;
  t->actor = NULL;
  T.hooks->actor_release();
}

static int flow_set_rate(ios_transfer_t *t, double r, int capped) {
  if (r == t->rate && (t->flow != NULL || t->starting || r == 0)) return 0;
  if (t->flow != NULL) {
    double rem = ios_flow_remaining(t->flow);
    if (rem <= 0) return 0; /* already done: its completion is being delivered at this very date */
    ios_flow_cancel(t->flow);
    t->flow = NULL;
    t->remaining = rem;
    T.hooks->segment_end(t, t->seg_rem0 - rem, 0);
  }
  t->gen++;
  t->rate = r;
  t->starting = 0;
  if (!(r > 0)) return 0;
  int fresh = T.actor_per_segment || t->actor == NULL;
  if (fresh && !T.hooks->actor_reserve()) return 0;
  /* the segment is described before any actor can run (starting an actor lets SimGrid run it at once) */
  t->starting = 1;
  t->seg_start = now();
  t->seg_rem0 = t->remaining;
  t->seg_capped = capped;
  if (fresh) {
    sg_actor_t a = sg_actor_init("transfer", t->host);
    sg_actor_set_data(a, t);
    if (T.actor_per_segment)
      sg_actor_start(a, segment_actor, 0, NULL);
    else {
      if (t->wake == NULL) t->wake = sg_sem_init(0);
      t->actor = a;
      t->retired = 0;
      sg_actor_daemonize(a);
      sg_actor_start(a, transfer_actor, 0, NULL);
    }
  }
  if (!T.actor_per_segment) sg_sem_release(t->wake);
  return 1;
}

void ios_tr_retire(ios_transfer_t *t) {
  if (t->actor == NULL || t->retired) return;
  t->retired = 1;
  sg_sem_release(t->wake);
}

void ios_tr_dispose(ios_transfer_t *t) {
  if (t->wake != NULL) sg_sem_destroy(t->wake);
  t->wake = NULL;
}

/* ---------------------------------------------------------------- the interface */

int ios_tr_init(int direct, double (*clock)(void), const ios_tr_hooks_t *hooks) {
  T.direct = direct;
  T.clock = clock;
  const char *per = getenv("IOSIM_FLOW_ACTORS"); /* "segment": the benchmark's alternative (docs/engine.md) */
  T.actor_per_segment = per != NULL && strcmp(per, "segment") == 0;
  T.hooks = hooks;
  T.nheap = 0;
  return 0;
}

void ios_tr_fini(void) {
  free(T.heap);
  T.heap = NULL;
  T.nheap = T.cap = 0;
}

void ios_tr_reset(ios_transfer_t *t, double volume) {
  t->volume = volume;
  t->remaining = volume;
  t->rate = 0;
  t->flow = NULL;
  t->starting = 0;
  t->heap = -1;
  t->finish = INFINITY;
  t->t_last = now();
}

int ios_tr_set_rate(ios_transfer_t *t, double r, int capped) {
  return T.direct ? direct_set_rate(t, r, capped) : flow_set_rate(t, r, capped);
}

double ios_tr_remaining(const ios_transfer_t *t) {
  if (T.direct) return direct_remaining(t);
  return t->flow != NULL ? ios_flow_remaining(t->flow) : t->remaining;
}

/* ---------------------------------------------------------------- when the direct path is exact */

int ios_tr_direct_possible(int npairs, const sg_host_t *from, const int *to, const sg_host_t *res_hosts,
                           const double *capacity) {
  size_t nlinks = sg_link_count();
  sg_link_t *all = sg_link_list();
  double *sum = calloc(nlinks + 1, sizeof *sum), *max = calloc(nlinks + 1, sizeof *max);
  int *mark = malloc(sizeof *mark * (nlinks + 1));
  void **saved = malloc(sizeof *saved * (nlinks + 1)); /* the links' user data, restored below */
  xbt_dynar_t route = xbt_dynar_new(sizeof(sg_link_t), NULL);
  int ok = all != NULL && sum != NULL && max != NULL && mark != NULL && saved != NULL ? 1 : -1, indexed = ok > 0;
  for (size_t i = 0; indexed && i < nlinks; i++) { /* each link's index in `all`, through its user data */
    saved[i] = sg_link_get_data(all[i]);
    sg_link_set_data(all[i], (void *)(i + 1));
    mark[i] = -1;
  }
  for (int k = 0; k < npairs && ok > 0; k++) {
    int r = to[k];
    if (from[k] == res_hosts[r]) continue;
    if (sg_host_get_route_latency(from[k], res_hosts[r]) != 0) {
      XBT_DEBUG("the route from %s to %s has a latency: flows", sg_host_get_name(from[k]),
                sg_host_get_name(res_hosts[r]));
      ok = 0;
      break;
    }
    xbt_dynar_reset(route);
    sg_host_get_route(from[k], res_hosts[r], route);
    unsigned i;
    sg_link_t l;
    xbt_dynar_foreach(route, i, l) {
      size_t li = (size_t)sg_link_get_data(l) - 1;
      if (mark[li] == r) continue; /* resource r already counted on this link (pairs come grouped by resource) */
      mark[li] = r;
      sum[li] += capacity[r];
      max[li] = capacity[r] > max[li] ? capacity[r] : max[li];
    }
  }
  for (size_t i = 0; i < nlinks && ok > 0; i++) {
    double bw = sg_link_get_bandwidth(all[i]);
    if (mark[i] >= 0 && (sg_link_is_shared(all[i]) ? sum[i] : max[i]) > bw) {
      XBT_DEBUG("link %s can bind the policy's rates (%.17g B/s of resources behind a %.17g B/s link): flows",
                sg_link_get_name(all[i]), sg_link_is_shared(all[i]) ? sum[i] : max[i], bw);
      ok = 0;
    }
  }
  for (size_t i = 0; indexed && i < nlinks; i++)
    sg_link_set_data(all[i], saved[i]);
  free(saved);
  free(all);
  free(sum);
  free(max);
  free(mark);
  xbt_dynar_free(&route);
  return ok;
}
