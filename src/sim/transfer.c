/* iosim — the transfer layer (see ios_transfer.h and docs/engine.md). */
#include "ios_transfer.h"
#include "ios_sg.h"

#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
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
  const double *date; /* the engine's own date, or NULL: SimGrid's clock */
  int restart;        /* flow path: a new rate cancels the flow and starts the rest (IOSIM_FLOW_RERATE=restart) */
  const ios_tr_hooks_t *hooks;
  ios_transfer_t **heap; /* direct path: running transfers, a binary min-heap on `finish` (earlier()) */
  int nheap, cap;
  int changed;          /* direct path: heap keys changed since the heap was last read (many: restored at once) */
  int dirty;            /* direct path: the heap order is restored by heap_commit, not at each change */
  ios_transfer_t **due; /* flow path: transfers whose completion SimGrid reported, not collected yet */
  int ndue, duecap;
  long running;          /* flow path: flows running */
  long carried;          /* flow path: transfers those flows carry */
  long started;          /* flow path: flows started */
  long npaused;          /* flow path: flows paused (ios_flow_pause) */
  long order;            /* segments started so far */
  int grouping;          /* flow path: flow groups (IOSIM_FLOW_GROUPS=0 turns them off) */
  ios_transfer_t **open; /* flow path: the flows started at date `open_date` that may take members, hashed */
  int nopen, opencap;
  double open_date;
  struct route_entry { /* the routes seen, hashed on their ends (SimGrid computes a route in microseconds) */
    sg_host_t from, to;
    unsigned long long key;
    double latency;
  } * routes;
  size_t nroutes, routecap;
} T;

static inline double now(void) {
  return T.date != NULL ? *T.date : simgrid_get_clock();
}

/* ---------------------------------------------------------------- direct path: the completion heap */

/* The order of completions at one date, on both paths: by the date each would have ended at its rate, then by gen,
 * then by when its segment started. */
static int earlier(const ios_transfer_t *a, const ios_transfer_t *b) {
  if (a->finish != b->finish) return a->finish < b->finish;
  return a->gen < b->gen || (a->gen == b->gen && a->order < b->order);
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
  if (T.dirty) return; /* heap_commit restores the order */
  heap_up(i);
  heap_down(last->heap);
}

/* Beyond this many key changes between two reads of the heap (a policy that re-rates every transfer at every event),
 * the heap is rebuilt once (O(n)) instead of sifting each change (O(log n) each). earlier() is a total order (`order`
 * is unique), so the heap always yields the same sequence, however it was built. */
#define HEAP_SIFTS 8

/* t's completion date changed, or t is new. @return 0, or -1 when out of memory (the transfer is then not in it). */
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
  if (T.dirty) return 0;
  if (++T.changed > HEAP_SIFTS) {
    T.dirty = 1;
    return 0;
  }
  heap_up(t->heap);
  heap_down(t->heap);
  return 0;
}

/* Before the heap is read: its order restored if it was left to this. */
static void heap_commit(void) {
  if (T.dirty)
    for (int i = T.nheap / 2 - 1; i >= 0; i--)
      heap_down(i);
  T.dirty = 0;
  T.changed = 0;
}

/* Bytes left now on the direct path: none once the completion date is reached (within the timing precision). */
static inline double direct_remaining(const ios_transfer_t *t) {
  if (!(t->rate > 0) || t->heap < 0) return t->remaining;
  double d = now();
  if (d >= t->finish - TIMING_PRECISION) return 0.0;
  double rem = t->remaining - t->rate * (d - t->t_last);
  return rem > 0 ? rem : 0.0;
}

/* `rem`: direct_remaining(t), when the caller has it, else NAN. */
static int direct_set_rate(ios_transfer_t *t, double r, int capped, double rem) {
  if (r == t->rate && (t->heap >= 0 || r == 0)) return 0;
  if (t->heap >= 0) {
    if (isnan(rem)) rem = direct_remaining(t);
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
  t->seg_latency = 0;
  t->order = T.order++;
  t->finish = t->t_last + t->remaining / r;
  return heap_update(t) < 0 ? -1 : 1;
}

double ios_tr_next_completion(void) {
  if (!T.direct) return INFINITY;
  heap_commit();
  return T.nheap > 0 ? T.heap[0]->finish : INFINITY;
}

static int report_direct(void) {
  int k = 0;
  double d = now();
  heap_commit();
  while (T.nheap > 0 && T.heap[0]->finish <= d + TIMING_PRECISION) {
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

static int cmp_due(const void *pa, const void *pb) {
  const ios_transfer_t *a = *(ios_transfer_t *const *)pa, *b = *(ios_transfer_t *const *)pb;
  return earlier(a, b) ? -1 : earlier(b, a) ? 1 : 0;
}

static int report_flows(void) {
  int n = T.ndue;
  if (n > 1) qsort(T.due, (size_t)n, sizeof *T.due, cmp_due);
  for (int i = 0; i < n; i++) { /* a group's flow once, by its leader */
    ios_transfer_t *t = T.due[i];
    if (t->leader) {
      ios_flow_release(t->flow);
      T.running--;
    }
  }
  for (int i = 0; i < n; i++) {
    ios_transfer_t *t = T.due[i];
    t->flow = NULL;
    t->next_member = NULL;
    t->leader = 0;
    T.carried--;
    t->remaining = 0;
    t->finish = INFINITY;
    T.hooks->segment_end(t, t->seg_rem0, 1);
    T.hooks->completed(t, t->gen);
  }
  T.ndue = 0;
  ios_flows_reap();
  return n;
}

int ios_tr_complete_due(void) {
  return T.direct ? report_direct() : report_flows();
}

/* ---------------------------------------------------------------- flow path: one SimGrid flow per transfer */

/* SimGrid's report, in its maestro: the last byte of a flow arrived (of every member of a group); kept for
 * ios_tr_complete_due. */
static void flow_done(ios_flow_t *flow, void *data) {
  for (ios_transfer_t *t = data; t != NULL; t = t->next_member) {
    if (t->flow != flow || T.ndue >= T.duecap) return; /* neither can happen: room for every carried transfer is made */
    T.due[T.ndue++] = t;
  }
  T.hooks->due();
}

/* Bytes of t still to move: its share of its flow's. */
static double flow_remaining(const ios_transfer_t *t) {
  return ios_flow_remaining(t->flow) / ios_flow_members(t->flow);
}

/* The leader of t's group (the transfer its flow reports to). */
static ios_transfer_t *leader_of(const ios_transfer_t *t) {
  return ios_flow_data(t->flow);
}

/* t leaves its group (its `rem` bytes left), whose other members go on at `others` bytes/s each. */
static void group_leave(ios_transfer_t *t, double rem, double others) {
  ios_transfer_t *lead = leader_of(t);
  ios_flow_leave(t->flow, rem, others);
  if (lead == t) { /* the next member leads the rest */
    t->next_member->leader = 1;
    ios_flow_set_data(t->flow, t->next_member);
  } else {
    ios_transfer_t *p = lead;
    while (p->next_member != t)
      p = p->next_member;
    p->next_member = t->next_member;
  }
  t->flow = NULL;
  t->next_member = NULL;
  t->leader = 0;
  T.carried--;
}

/* Stops the flow of t, and of every member of its group (their exact remaining bytes are kept). */
static void flow_stop(ios_transfer_t *t) {
  ios_flow_t *flow = t->flow;
  int k = ios_flow_members(flow);
  for (ios_transfer_t *m = leader_of(t); m != NULL;) {
    ios_transfer_t *next = m->next_member;
    m->remaining = flow_remaining(m);
    m->flow = NULL;
    m->next_member = NULL;
    m->leader = 0;
    m = next;
  }
  if (t->paused) T.npaused--;
  t->paused = 0;
  ios_flow_cancel(flow);
  ios_flow_release(flow);
  T.running--;
  T.carried -= k;
}

/* Makes room for one more carried transfer's completion before SimGrid reports one. @return 0 or -1. */
static int due_room(void) {
  if (T.carried < T.duecap) return 0;
  long ncap = T.duecap ? 2 * (long)T.duecap : 64;
  ios_transfer_t **d = ncap <= INT_MAX ? realloc(T.due, sizeof *d * (size_t)ncap) : NULL;
  if (d == NULL) return -1;
  T.due = d;
  T.duecap = (int)ncap;
  return 0;
}

/* The slot of the open-flow table for a transfer of `bytes` at `rate` to `dest` over the route `key` (linear
 * probing; the table is at most half full): the flow it can join, or an empty slot. */
static ios_transfer_t **open_slot(sg_host_t dest, unsigned long long key, double rate, double bytes) {
  unsigned long long h = key ^ (unsigned long long)(uintptr_t)dest * 0x9E3779B97F4A7C15ULL;
  double v[2] = {rate, bytes};
  unsigned long long bits[2];
  memcpy(bits, v, sizeof bits);
  h ^= bits[0] * 0xC2B2AE3D27D4EB4FULL ^ bits[1] * 0x165667B19E3779F9ULL;
  for (size_t i = (size_t)(h ^ (h >> 29)) & (size_t)(T.opencap - 1);; i = (i + 1) & (size_t)(T.opencap - 1)) {
    ios_transfer_t *l = T.open[i];
    if (l == NULL || (l->dest == dest && l->route_key == key && l->rate == rate && l->seg_rem0 == bytes))
      return &T.open[i];
  }
}

static size_t route_slot(sg_host_t from, sg_host_t to) {
  unsigned long long h = (unsigned long long)(uintptr_t)from * 0x9E3779B97F4A7C15ULL ^ (uintptr_t)to;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ULL;
  return (size_t)(h ^ (h >> 29)) & (T.routecap - 1);
}

int ios_tr_route(sg_host_t from, sg_host_t to, unsigned long long *key, double *latency) {
  if (2 * (T.nroutes + 1) > T.routecap) { /* grow (at most half full), and hash the routes again */
    size_t ncap = T.routecap ? 2 * T.routecap : 256, old = T.routecap;
    struct route_entry *o = T.routes, *n = calloc(ncap, sizeof *n);
    if (n == NULL) return -1;
    T.routes = n;
    T.routecap = ncap;
    for (size_t i = 0; i < old; i++)
      if (o[i].from != NULL) {
        size_t j = route_slot(o[i].from, o[i].to);
        while (T.routes[j].from != NULL)
          j = (j + 1) & (T.routecap - 1);
        T.routes[j] = o[i];
      }
    free(o);
  }
  size_t i = route_slot(from, to);
  while (T.routes[i].from != NULL && (T.routes[i].from != from || T.routes[i].to != to))
    i = (i + 1) & (T.routecap - 1);
  if (T.routes[i].from == NULL) {
    T.routes[i].from = from;
    T.routes[i].to = to;
    ios_flow_route_key(from, to, &T.routes[i].key, &T.routes[i].latency);
    T.nroutes++;
  }
  if (key != NULL) *key = T.routes[i].key;
  if (latency != NULL) *latency = T.routes[i].latency;
  return 0;
}

/* Flow groups: t (rate r, latency 0) joins the group of a flow started at this date over the same route to the same
 * host at the same rate with the same bytes, if there is one (@return 1), else it is remembered as one that may lead
 * one once it has started its flow (*slot, @return 0). @return -1 when out of memory. */
static int group_join(ios_transfer_t *t, double r, ios_transfer_t ***slot) {
  *slot = NULL;
  if (!T.grouping || t->latency != 0) return 0;
  double lat;
  if (ios_tr_route(t->host, t->dest, &t->route_key, &lat) != 0) return -1;
  if (lat != 0) return 0;
  if (now() != T.open_date) { /* flows started before this date take no member */
    if (T.opencap > 0) memset(T.open, 0, sizeof *T.open * (size_t)T.opencap);
    T.nopen = 0;
    T.open_date = now();
  }
  if (2 * (T.nopen + 1) > T.opencap) { /* grow, and hash the open flows again */
    int ncap = T.opencap ? 2 * T.opencap : 256, old = T.opencap;
    ios_transfer_t **o = T.open, **n = calloc((size_t)ncap, sizeof *n);
    if (n == NULL) return -1;
    T.open = n;
    T.opencap = ncap;
    for (int i = 0; i < old; i++)
      if (o[i] != NULL) *open_slot(o[i]->dest, o[i]->route_key, o[i]->rate, o[i]->seg_rem0) = o[i];
    free(o);
  }
  ios_transfer_t **s = open_slot(t->dest, t->route_key, r, t->remaining), *lead = *s;
  if (lead != NULL && lead->flow != NULL && ios_flow_join(lead->flow, t->remaining, r) == 0) {
    t->flow = lead->flow;
    t->next_member = lead->next_member;
    lead->next_member = t;
    return 1;
  }
  *slot = lead == NULL ? s : NULL;
  return 0;
}

/* `rem`: flow_remaining(t), when the caller has it, else NAN. */
static int flow_set_rate(ios_transfer_t *t, double r, int capped, double rem) {
  if (r == t->rate && (t->flow != NULL || r == 0)) return 0;
  if (t->flow != NULL && !t->paused) { /* its segment ends now (a paused one's ended when it paused) */
    if (isnan(rem)) rem = flow_remaining(t);
    if (rem <= 0) return 0; /* already done: SimGrid reported its completion at this very date */
    t->remaining = rem;
    T.hooks->segment_end(t, t->seg_rem0 - rem, 0);
    if (ios_flow_members(t->flow) > 1) /* its group goes on without it */
      group_leave(t, rem, t->rate);
    else if (T.restart)
      flow_stop(t);
    else if (!(r > 0) && ios_flow_pause(t->flow) == 0) { /* paused (a cancel and a new flow cost more), */
      t->paused = 1;
      T.npaused++;
    } else if (!(r > 0)) /* else stopped */
      flow_stop(t);
  }
  t->gen++;
  t->rate = r;
  if (!(r > 0)) return 0;
  t->seg_start = now();
  t->seg_rem0 = t->remaining;
  t->seg_capped = capped;
  t->order = T.order++;
  t->finish = t->seg_start + t->remaining / r;
  t->seg_latency = 0;
  if (t->flow != NULL) { /* the same flow at its new rate, resumed if it was paused */
    if (t->paused) {
      ios_flow_resume(t->flow, r);
      t->paused = 0;
      T.npaused--;
    } else
      ios_flow_set_rate(t->flow, r);
    return 1;
  }
  if (due_room() < 0) return -1;
  ios_transfer_t **slot;
  int joined = group_join(t, r, &slot);
  if (joined < 0) return -1;
  T.carried++;
  if (joined) return 1;
  t->flow = ios_flow_start(t->host, t->dest, t->remaining, r, t->latency, t);
  if (t->flow == NULL) {
    T.carried--;
    return -2;
  }
  t->leader = 1;
  t->seg_latency = t->latency; /* a new flow pays its route's latency once */
  T.running++;
  T.started++;
  if (slot != NULL) { /* later transfers of this date may join it */
    *slot = t;
    T.nopen++;
  }
  return 1;
}

void ios_tr_stop(ios_transfer_t *t) {
  if (!T.direct && t->flow != NULL) flow_stop(t);
}

long ios_tr_running(void) {
  return T.direct ? 0 : T.running - T.npaused;
}

long ios_tr_flows_started(void) {
  return T.direct ? 0 : T.started;
}

int ios_tr_pending(void) {
  return T.direct ? 0 : T.ndue;
}

/* ---------------------------------------------------------------- the interface */

int ios_tr_init(int direct, const double *date, const ios_tr_hooks_t *hooks) {
  T.direct = direct;
  T.date = date;
  T.changed = T.dirty = 0;
  const char *rerate = getenv("IOSIM_FLOW_RERATE"); /* "restart": the benchmark's alternative (docs/engine.md) */
  T.restart = rerate != NULL && strcmp(rerate, "restart") == 0;
  const char *groups = getenv("IOSIM_FLOW_GROUPS"); /* "0": the benchmark's alternative (docs/engine.md) */
  T.grouping = !(groups != NULL && strcmp(groups, "0") == 0);
  T.hooks = hooks;
  T.nheap = T.ndue = T.nopen = 0;
  T.running = T.carried = T.started = T.npaused = T.order = 0;
  T.open_date = -1;
  return direct || ios_flows_init(flow_done) == 0 ? 0 : -1;
}

void ios_tr_fini(void) {
  free(T.heap);
  free(T.due);
  free(T.open);
  free(T.routes);
  T.heap = NULL;
  T.due = NULL;
  T.open = NULL;
  T.routes = NULL;
  T.nroutes = T.routecap = 0;
  T.nheap = T.cap = T.ndue = T.duecap = T.nopen = T.opencap = 0;
  if (!T.direct) ios_flows_fini();
}

void ios_tr_reset(ios_transfer_t *t, double volume) {
  t->volume = volume;
  t->remaining = volume;
  t->rate = 0;
  t->flow = NULL;
  t->next_member = NULL;
  t->leader = 0;
  t->paused = 0;
  t->heap = -1;
  t->finish = INFINITY;
  t->t_last = now();
}

/* @return 1 when a new segment started, 0 when not, -1 out of memory (direct path), -2 SimGrid refused the flow. */
int ios_tr_set_rate(ios_transfer_t *t, double r, int capped) {
  return T.direct ? direct_set_rate(t, r, capped, NAN) : flow_set_rate(t, r, capped, NAN);
}

int ios_tr_set_rates(int k, ios_transfer_t *const *t, const double *rate, const double *rem, int capped,
                     long *started) {
  for (int i = 0; i < k; i++) {
    double r = rate[i] > 0 ? rate[i] : 0.0, hint = rem != NULL ? rem[i] : NAN;
    int rc = T.direct ? direct_set_rate(t[i], r, capped, hint) : flow_set_rate(t[i], r, capped, hint);
    if (rc < 0) return rc;
    *started += rc;
  }
  return 0;
}

double ios_tr_remaining(const ios_transfer_t *t) {
  if (T.direct) return direct_remaining(t);
  return t->flow != NULL ? flow_remaining(t) : t->remaining;
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
