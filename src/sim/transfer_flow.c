/* iosim — the transfer layer's flow path (ios_transfer.h, docs/engine.md): a transfer is one rate-capped flow from its
 * host to its resource's host, re-rated in place (its bound moved), paused at rate 0 where it can be, and grouped with
 * the identical transfers that start with it (a flow group: one flow of weight k). The flows are SimGrid's
 * (ios_tr_sg_flows, src/sim/sg_glue.cpp), or a stand-in with the same contract in the kernel's unit tests. SimGrid
 * reports completions from its maestro; they are kept until the controller collects them (ios_tr_complete_due), in
 * the completion order the direct path gives (tr_earlier). */
#include "transfer_internal.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* SimGrid's flows behind the table's contract (`fl`: the run's glue, ios_tr_options_t.sg). */
static int sg_init(void *fl, ios_flow_done_fn done, void *ctx) {
  return ios_flows_init(fl, done, ctx);
}

static void sg_fini(void *fl) {
  ios_flows_fini(fl);
}

static ios_flow_t *sg_start(void *fl, sg_host_t from, sg_host_t to, double bytes, double rate, double latency,
                            void *data) {
  return ios_flow_start(fl, from, to, bytes, rate, latency, data);
}

static void sg_reap(void *fl) {
  ios_flows_reap(fl);
}

const ios_tr_flows_t ios_tr_sg_flows = {
    .init = sg_init,
    .fini = sg_fini,
    .start = sg_start,
    .set_rate = ios_flow_set_rate,
    .join = ios_flow_join,
    .leave = ios_flow_leave,
    .pause = ios_flow_pause,
    .resume = ios_flow_resume,
    .members = ios_flow_members,
    .data = ios_flow_data,
    .set_data = ios_flow_set_data,
    .route_key = ios_flow_route_key,
    .remaining = ios_flow_remaining,
    .cancel = ios_flow_cancel,
    .release = ios_flow_release,
    .reap = sg_reap,
    .weigh = ios_flow_weigh,
};

/* The flow path's state (ios_tr_t.flows); the flows it drives are the layer's (ios_tr_t.fl, flctx). */
struct tr_flows {
  int restart;          /* a new rate cancels the flow and starts the rest (the benchmark switch) */
  int grouping;         /* flow groups (the benchmark switch turns them off) */
  ios_transfer_t **due; /* transfers whose completion SimGrid reported, not collected yet */
  int ndue, duecap;
  long running;          /* flows running */
  long carried;          /* transfers those flows carry */
  long started;          /* flows started */
  long npaused;          /* flows paused (pause) */
  ios_transfer_t **open; /* the flows started at date `open_date` that may take members, hashed */
  int nopen, opencap;
  double open_date;
};

static int cmp_due(const void *pa, const void *pb) {
  const ios_transfer_t *a = *(ios_transfer_t *const *)pa, *b = *(ios_transfer_t *const *)pb;
  return tr_earlier(a, b) ? -1 : tr_earlier(b, a) ? 1 : 0;
}

/* A leg's flow has ended: its flow goes back. @return its transfer when that was its last leg, else NULL. */
static ios_transfer_t *leg_done(ios_tr_t *tr, ios_transfer_t *leg) {
  struct tr_flows *F = tr->flows;
  tr->fl->release(leg->flow);
  F->running--;
  F->carried--;
  leg->flow = NULL;
  leg->leader = 0;
  leg->remaining = 0;
  leg->finish = INFINITY;
  ios_transfer_t *t = leg->parent;
  return --t->legs_left == 0 ? t : NULL;
}

static int report_flows(ios_tr_t *tr) {
  struct tr_flows *F = tr->flows;
  int n = 0;
  for (int i = 0; i < F->ndue; i++) { /* a leg's end completes its transfer once its last leg has ended */
    ios_transfer_t *t = F->due[i];
    if (t->parent != NULL) t = leg_done(tr, t);
    if (t != NULL) F->due[n++] = t;
  }
  if (n > 1) qsort(F->due, (size_t)n, sizeof *F->due, cmp_due);
  for (int i = 0; i < n; i++) { /* a group's flow once, by its leader */
    ios_transfer_t *t = F->due[i];
    if (t->leader) {
      tr->fl->release(t->flow);
      F->running--;
    }
  }
  for (int i = 0; i < n; i++) {
    ios_transfer_t *t = F->due[i];
    if (t->nlegs == 0) { /* legs were given back by leg_done */
      t->flow = NULL;
      t->next_member = NULL;
      t->leader = 0;
      F->carried--;
    }
    t->remaining = 0;
    t->finish = INFINITY;
    tr_segment_end(tr, t, t->seg_rem0, 1);
    tr_completed(tr, t, t->gen);
  }
  F->ndue = 0;
  tr->fl->reap(tr->flctx);
  return n;
}

/* SimGrid's report, in its maestro: the last byte of a flow arrived (of every member of a group); kept for
 * ios_tr_complete_due. */
static void flow_done(void *ctx, ios_flow_t *flow, void *data) {
  ios_tr_t *tr = ctx;
  struct tr_flows *F = tr->flows;
  for (ios_transfer_t *t = data; t != NULL; t = t->next_member) {
    if (t->flow != flow || F->ndue >= F->duecap)
      return; /* neither can happen: room for every carried transfer is made */
    F->due[F->ndue++] = t;
  }
  tr->hooks->due(tr->ctx);
}

/* Bytes of t still to move: its share of its flow's. */
static double flow_remaining(const ios_tr_t *tr, const ios_transfer_t *t) {
  return tr->fl->remaining(t->flow) / tr->fl->members(t->flow);
}

/* The leader of t's group (the transfer its flow reports to). */
static ios_transfer_t *leader_of(const ios_tr_t *tr, const ios_transfer_t *t) {
  return tr->fl->data(t->flow);
}

/* t leaves its group (its `rem` bytes left), whose other members go on at `others` bytes/s each. */
static void group_leave(ios_tr_t *tr, ios_transfer_t *t, double rem, double others) {
  ios_transfer_t *lead = leader_of(tr, t);
  tr->fl->leave(t->flow, rem, others);
  if (lead == t) { /* the next member leads the rest */
    t->next_member->leader = 1;
    tr->fl->set_data(t->flow, t->next_member);
  } else {
    ios_transfer_t *p = lead;
    while (p->next_member != t)
      p = p->next_member;
    p->next_member = t->next_member;
  }
  t->flow = NULL;
  t->next_member = NULL;
  t->leader = 0;
  tr->flows->carried--;
}

/* Stops the flow of t, and of every member of its group (their exact remaining bytes are kept). */
static void flow_stop(ios_tr_t *tr, ios_transfer_t *t) {
  struct tr_flows *F = tr->flows;
  ios_flow_t *flow = t->flow;
  int k = tr->fl->members(flow);
  for (ios_transfer_t *m = leader_of(tr, t); m != NULL;) {
    ios_transfer_t *next = m->next_member;
    m->remaining = flow_remaining(tr, m);
    m->flow = NULL;
    m->next_member = NULL;
    m->leader = 0;
    m = next;
  }
  if (t->paused) F->npaused--;
  t->paused = 0;
  tr->fl->cancel(flow);
  tr->fl->release(flow);
  F->running--;
  F->carried -= k;
}

/* Makes room for one more carried transfer's completion before SimGrid reports one. @return 0 or -1. */
static int due_room(struct tr_flows *F) {
  if (F->carried < F->duecap) return 0;
  long ncap = F->duecap ? 2 * (long)F->duecap : 64;
  ios_transfer_t **d = ncap <= INT_MAX ? realloc(F->due, sizeof *d * (size_t)ncap) : NULL;
  if (d == NULL) return -1;
  F->due = d;
  F->duecap = (int)ncap;
  return 0;
}

/* The slot of the open-flow table for a transfer of `bytes` at `rate` to `dest` over the route `key` (linear
 * probing; the table is at most half full): the flow it can join, or an empty slot. */
static ios_transfer_t **open_slot(const struct tr_flows *F, sg_host_t dest, unsigned long long key, double rate,
                                  double bytes) {
  unsigned long long h = key ^ (unsigned long long)(uintptr_t)dest * 0x9E3779B97F4A7C15ULL;
  double v[2] = {rate, bytes};
  unsigned long long bits[2];
  memcpy(bits, v, sizeof bits);
  h ^= bits[0] * 0xC2B2AE3D27D4EB4FULL ^ bits[1] * 0x165667B19E3779F9ULL;
  for (size_t i = (size_t)(h ^ (h >> 29)) & (size_t)(F->opencap - 1);; i = (i + 1) & (size_t)(F->opencap - 1)) {
    ios_transfer_t *l = F->open[i];
    if (l == NULL || (l->dest == dest && l->route_key == key && l->rate == rate && l->seg_rem0 == bytes))
      return &F->open[i];
  }
}

/* Flow groups: t (rate r, latency 0) joins the group of a flow started at this date over the same route to the same
 * host at the same rate with the same bytes, if there is one (@return 1), else it is remembered as one that may lead
 * one once it has started its flow (*slot, @return 0). @return -1 when out of memory. */
static int group_join(ios_tr_t *tr, ios_transfer_t *t, double r, ios_transfer_t ***slot) {
  struct tr_flows *F = tr->flows;
  *slot = NULL;
  if (!F->grouping || t->latency != 0 || t->parent != NULL) return 0;
  double lat;
  if (ios_tr_route(tr, t->host, t->dest, &t->route_key, &lat) != 0) return -1;
  if (lat != 0) return 0;
  if (tr_now(tr) != F->open_date) { /* flows started before this date take no member */
    if (F->opencap > 0) memset(F->open, 0, sizeof *F->open * (size_t)F->opencap);
    F->nopen = 0;
    F->open_date = tr_now(tr);
  }
  if (2 * (F->nopen + 1) > F->opencap) { /* grow, and hash the open flows again */
    int ncap = F->opencap ? 2 * F->opencap : 256, old = F->opencap;
    ios_transfer_t **o = F->open, **n = calloc((size_t)ncap, sizeof *n);
    if (n == NULL) return -1;
    F->open = n;
    F->opencap = ncap;
    for (int i = 0; i < old; i++)
      if (o[i] != NULL) *open_slot(F, o[i]->dest, o[i]->route_key, o[i]->rate, o[i]->seg_rem0) = o[i];
    free(o);
  }
  ios_transfer_t **s = open_slot(F, t->dest, t->route_key, r, t->remaining), *lead = *s;
  if (lead != NULL && lead->flow != NULL && tr->fl->join(lead->flow, t->remaining, r) == 0) {
    t->flow = lead->flow;
    t->next_member = lead->next_member;
    lead->next_member = t;
    return 1;
  }
  *slot = lead == NULL ? s : NULL;
  return 0;
}

/* `rem`: flow_remaining(tr, t), when the caller has it, else NAN. */
static int one_set_rate(ios_tr_t *tr, ios_transfer_t *t, double r, int capped, double rem) {
  struct tr_flows *F = tr->flows;
  if (r == t->rate && (t->flow != NULL || r == 0)) return 0;
  if (t->flow != NULL && !t->paused) { /* its segment ends now (a paused one's ended when it paused) */
    if (isnan(rem)) rem = flow_remaining(tr, t);
    if (rem <= 0) return 0; /* already done: SimGrid reported its completion at this very date */
    t->remaining = rem;
    tr_segment_end(tr, t, t->seg_rem0 - rem, 0);
    if (tr->fl->members(t->flow) > 1) /* its group goes on without it */
      group_leave(tr, t, rem, t->rate);
    else if (F->restart)
      flow_stop(tr, t);
    else if (!(r > 0) && tr->fl->pause(t->flow) == 0) { /* paused (a cancel and a new flow cost more), */
      t->paused = 1;
      F->npaused++;
    } else if (!(r > 0)) /* else stopped */
      flow_stop(tr, t);
  }
  t->gen++;
  t->rate = r;
  if (!(r > 0)) return 0;
  tr_segment_begin(tr, t, r, capped);
  if (t->flow != NULL) { /* the same flow at its new rate, resumed if it was paused */
    if (t->paused) {
      tr->fl->resume(t->flow, r);
      t->paused = 0;
      F->npaused--;
    } else
      tr->fl->set_rate(t->flow, r);
    return 1;
  }
  if (due_room(F) < 0) return -1;
  ios_transfer_t **slot;
  int joined = group_join(tr, t, r, &slot);
  if (joined < 0) return -1;
  F->carried++;
  if (joined) return 1;
  t->flow = tr->fl->start(tr->flctx, t->host, t->dest, t->remaining, r, t->latency, t);
  if (t->flow == NULL) {
    F->carried--;
    return -2;
  }
  t->leader = 1;
  if (t->parent != NULL) tr->fl->weigh(t->flow, t->share); /* its transfer's legs weigh as one flow together */
  t->seg_latency = t->latency;                             /* a new flow pays its route's latency once */
  F->running++;
  F->started++;
  if (slot != NULL) { /* later transfers of this date may join it */
    *slot = t;
    F->nopen++;
  }
  return 1;
}

/* ---------------------------------------------------------------- a transfer from several nodes: its legs
 * A transfer whose bytes leave from nsrc > 1 nodes (each its equal part) is carried by one leg per distinct route from
 * those nodes to its destination: the nodes with the same route (the same links, the same latency) are one leg, with
 * their part of the bytes and of the rate (share = their count / the transfer's nodes; a source that stands for a
 * node group's class of srcn[i] nodes counts srcn[i]). Legs never join flow groups, and each weighs
 * `share` in SimGrid's max-min, so that a transfer weighs as one flow on a link its legs share, as a transfer from one
 * node does. When every node has the same route (a platform whose nodes have no link of their own on the I/O route)
 * the transfer is one flow from its first node, exactly as a transfer from one node. The transfer ends when its last
 * leg has ended; its rate, segments and completion are the transfer's, the legs are the layer's own. */

/* The legs of t (nsrc > 1) for its `remaining` bytes: one per distinct route. @return 0, or -1 when out of memory. */
static int legs_make(ios_tr_t *tr, ios_transfer_t *t) {
  if (t->legcap < t->nsrc) {
    ios_transfer_t *l = realloc(t->legs, sizeof *l * (size_t)t->nsrc);
    if (l == NULL) return -1;
    t->legs = l;
    t->legcap = t->nsrc;
  }
  int nl = 0;
  double nodes = 0; /* the nodes the transfer leaves from (a node group's class stands for srcn[i] of them) */
  for (int i = 0; i < t->nsrc; i++) {
    unsigned long long key;
    double lat;
    if (ios_tr_route(tr, t->src[i], t->dest, &key, &lat) != 0) return -1;
    int k = 0;
    while (k < nl && !(t->legs[k].route_key == key && t->legs[k].latency == lat))
      k++;
    if (k == nl) {
      memset(&t->legs[nl], 0, sizeof t->legs[nl]);
      ios_transfer_t *l = &t->legs[nl++];
      l->app = t->app;
      l->res = t->res;
      l->host = t->src[i];
      l->dest = t->dest;
      l->latency = lat;
      l->route_key = key;
      l->parent = t;
      l->slot = l->heap = -1;
    }
    double w = t->srcn != NULL ? t->srcn[i] : 1.0;
    t->legs[k].share += w; /* nodes on this route, made a fraction below */
    nodes += w;
  }
  if (nl == 1) { /* one route for every node: one flow from the first, as a transfer from one node */
    t->nlegs = 0;
    return 0;
  }
  double given = 0;
  for (int k = 0; k < nl; k++) {
    ios_transfer_t *l = &t->legs[k];
    l->share /= nodes;
    l->volume = l->remaining = k + 1 < nl ? t->remaining * l->share : t->remaining - given; /* bytes add up exactly */
    given += l->remaining;
    l->finish = INFINITY;
  }
  t->nlegs = t->legs_left = nl;
  return 0;
}

/* Bytes of t still to move over its legs. */
static double legs_remaining(const ios_tr_t *tr, const ios_transfer_t *t) {
  double rem = 0;
  for (int k = 0; k < t->nlegs; k++) {
    const ios_transfer_t *l = &t->legs[k];
    rem += l->flow != NULL ? flow_remaining(tr, l) : l->remaining;
  }
  return rem;
}

static int flow_set_rate(ios_tr_t *tr, ios_transfer_t *t, double r, int capped, double rem) {
  if (t->nsrc <= 1 || (t->nlegs == 0 && t->flow != NULL)) return one_set_rate(tr, t, r, capped, rem);
  if (t->nlegs == 0) { /* not started yet */
    if (!(r > 0)) return one_set_rate(tr, t, r, capped, rem);
    if (legs_make(tr, t) != 0) return -1;
    if (t->nlegs == 0) return one_set_rate(tr, t, r, capped, rem);
  } else {
    if (r == t->rate) return 0;
    if (t->rate > 0) { /* its segment ends now */
      if (isnan(rem)) rem = legs_remaining(tr, t);
      if (rem <= 0) return 0; /* its last leg ends at this very date: ios_tr_complete_due reports it */
      t->remaining = rem;
      tr_segment_end(tr, t, t->seg_rem0 - rem, 0);
    }
  }
  t->gen++;
  t->rate = r;
  if (r > 0) tr_segment_begin(tr, t, r, capped);
  for (int k = 0; k < t->nlegs; k++) {
    ios_transfer_t *l = &t->legs[k];
    if (l->finish == INFINITY && l->flow == NULL && l->remaining <= 0) continue; /* ended */
    int rc = one_set_rate(tr, l, r * l->share, capped, NAN);
    if (rc < 0) return rc;
  }
  return r > 0 ? 1 : 0;
}

static void flows_stop(ios_tr_t *tr, ios_transfer_t *t) {
  for (int k = 0; k < t->nlegs; k++)
    if (t->legs[k].flow != NULL) flow_stop(tr, &t->legs[k]);
  if (t->flow != NULL) flow_stop(tr, t);
}

static long flows_running(const ios_tr_t *tr) {
  return tr->flows->running - tr->flows->npaused;
}

static long flows_started(const ios_tr_t *tr) {
  return tr->flows->started;
}

static int flows_pending(const ios_tr_t *tr) {
  return tr->flows->ndue;
}

static double flows_remaining_of(const ios_tr_t *tr, const ios_transfer_t *t) {
  if (t->nlegs > 0) return t->rate > 0 ? legs_remaining(tr, t) : t->remaining;
  return t->flow != NULL ? flow_remaining(tr, t) : t->remaining;
}

static double flows_next_completion(ios_tr_t *tr) {
  (void)tr;
  return INFINITY; /* SimGrid reports each completion */
}

static int flows_init(ios_tr_t *tr, const ios_tr_options_t *o) {
  struct tr_flows *F = calloc(1, sizeof *F);
  if (F == NULL) return -2;
  tr->flows = F;
  F->restart = o->flow_restart;
  F->grouping = o->flow_groups;
  F->open_date = -1;
  return tr->fl->init(tr->flctx, flow_done, tr);
}

static void flows_fini(ios_tr_t *tr) {
  struct tr_flows *F = tr->flows;
  if (F == NULL) return;
  free(F->due);
  free(F->open);
  free(F);
  tr->flows = NULL;
  tr->fl->fini(tr->flctx);
}

const tr_path_t tr_flow_path = {
    .name = "flows",
    .init = flows_init,
    .fini = flows_fini,
    .set_rate = flow_set_rate,
    .remaining = flows_remaining_of,
    .complete_due = report_flows,
    .next_completion = flows_next_completion,
    .stop = flows_stop,
    .running = flows_running,
    .flows_started = flows_started,
    .pending = flows_pending,
};
