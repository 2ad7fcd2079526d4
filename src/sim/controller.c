/* iosim — the controller: its events, every decision through the sharing policy, the window snapshots and periodic
 * ticks, and the hooks of the transfer layer (see sim_controller.h, docs/engine.md; its loop is calendar.c's). */
#include "sim_controller.h"

#include "ios_clock.h"
#include "ios_diag.h"
#include "ios_sg.h"
#include "sim_alone.h"
#include "sim_apps.h"
#include "sim_queue.h"
#include "sim_state.h"
#include "sim_striping.h"
#include "sim_traces.h"

#include <float.h>
#include <math.h>
#include <simgrid/host.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xbt/log.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_controller, iosim, "iosim controller");

typedef struct {
  int type, app;
  transfer_t *t;
  unsigned gen;
} event_t;

/* The controller's own state: its events, the buffers of its decisions, the progress line. */
struct sim_controller {
  event_t *q; /* events waiting for a decision, a ring of qcap from qhead */
  int qhead, qlen, qcap;
  ios_transfer_view_t *views; /* [vcap] what the sharing policy sees of one resource's transfers */
  transfer_t **vt;            /* [vcap] those transfers */
  double *rates;              /* [vcap] the rates it gives them */
  double *rems;               /* [vcap] each viewed transfer's remaining bytes at the decision */
  int vcap;
  double last_progress; /* s of wall clock at the last progress line (0: none shown) */
  long progress_calls;  /* decisions since the start (the progress line reads the wall clock every 1,024) */
  int tty;              /* standard error is a terminal (-1: not asked yet) */
};

int sim_controller_init(engine_t *e) {
  e->ctl = calloc(1, sizeof *e->ctl);
  if (e->ctl == NULL) return IOS_ENOMEM;
  e->ctl->tty = -1;
  return IOS_OK;
}

void sim_controller_fini(engine_t *e) {
  struct sim_controller *k = e->ctl;
  if (k == NULL) return;
  free(k->q);
  free(k->views);
  free(k->rates);
  free(k->rems);
  free(k->vt);
  free(k);
  e->ctl = NULL;
}

void sim_push_event(engine_t *e, int type, int app, transfer_t *t, unsigned gen) {
  struct sim_controller *K = e->ctl;
  if (K->qlen == K->qcap) {
    int ncap = K->qcap ? 2 * K->qcap : 256;
    event_t *q = malloc(sizeof *q * (size_t)ncap);
    if (q == NULL) {
      sim_fail(e, IOS_ENOMEM, NULL, "out of memory for the event queue"); /* the run stops; the event is lost with it */
      return;
    }
    for (int i = 0; i < K->qlen; i++)
      q[i] = K->q[(K->qhead + i) % K->qcap];
    free(K->q);
    K->q = q;
    K->qhead = 0;
    K->qcap = ncap;
  }
  K->q[(K->qhead + K->qlen) % K->qcap] = (event_t){type, app, t, gen};
  K->qlen++;
}

/* A flow segment of transfer t ended having moved `bytes`: when the sharing policy had set its rate and the segment
 * averaged less than that rate once its route's latency is taken off (a flow moves no byte during it), the platform
 * (a link the policy does not decide on, through SimGrid's max-min) was the bottleneck. */
static void account_segment(engine_t *e, const transfer_t *t, double bytes) {
  double d = sim_now(e) - t->seg_start;
  if (!t->seg_capped || !(d > 0) || !(bytes > 0)) return;
  e->seg_bytes += bytes;
  if (bytes < t->rate * (d - t->seg_latency) * (1 - 1e-6)) e->limited_bytes += bytes;
}

/* s: the latency of the route of transfer t to its resource (flow path only: on the direct path no route is taken). */
static double route_latency(engine_t *e, const transfer_t *t) {
  double latency = 0.0;
  if (!e->direct && ios_tr_route(e->tr, t->host, t->dest, NULL, &latency) != 0)
    sim_fail(e, IOS_ENOMEM, NULL, "out of memory for the routes of the transfers");
  return latency;
}

/* ---------------------------------------------------------------- transfer layer */

/* A segment of a transfer ended: its events.csv row, SimGrid's trace and the platform-limited share. */
static void segment_end(void *ctx, const transfer_t *t, double bytes, int done) {
  engine_t *e = ctx;
  if (sim_segment_rows(e) && (done || sim_now(e) > t->seg_start)) sim_segment_row(e, t, sim_now(e), bytes);
  if (e->trace) sim_trace_segment(e, t, bytes);
  account_segment(e, t, bytes);
}

/* A transfer's last byte arrived (reported by the controller's ios_tr_complete_due): an event for this batch. */
static void transfer_completed(void *ctx, transfer_t *t, unsigned gen) {
  engine_t *e = ctx;
  sim_push_event(e, EV_COMPLETE, t->app, t, gen);
}

/* Flow path, in SimGrid's maestro: a flow has ended; a step at this date collects it (unless one is running). */
static void completion_due(void *ctx) {
  engine_t *e = ctx;
  ios_sg_drive_arm(e->sg); /* the step at this date collects it */
}

const ios_tr_hooks_t sim_tr_hooks = {segment_end, transfer_completed, completion_due};

/* Records a failure of the transfer layer (its negative code rc, about transfer t). */
static void transfer_failed(engine_t *e, int rc, const transfer_t *t) {
  if (rc == -1) sim_fail(e, IOS_ENOMEM, NULL, "out of memory for the transfers' completion dates");
  if (rc == -2)
    sim_fail(e, IOS_EINVAL, "platform", "SimGrid could not start a flow from %s to %s at t = %.17g s (a failed link?)",
             sg_host_get_name(t->host), sg_host_get_name(t->dest), sim_now(e));
}

/* Gives transfer t the rate r from now on (the transfer layer restarts it if needed). */
static void set_rate(engine_t *e, transfer_t *t, double r) {
  int changed = ios_tr_set_rate(e->tr, t, r, !e->sharing->uncapped);
  if (changed < 0) transfer_failed(e, changed, t);
  if (changed > 0) e->rate_changes++;
}

static double transferred(const engine_t *e, const transfer_t *t) {
  return t->volume - ios_tr_remaining(e->tr, t);
}

/* ---------------------------------------------------------------- resources */

static void res_add(engine_t *e, res_state_t *rs, transfer_t *t) {
  if (rs->nactive == rs->cap_active) {
    int ncap = rs->cap_active ? 2 * rs->cap_active : 8;
    transfer_t **a = realloc(rs->active, sizeof *a * (size_t)ncap);
    if (a == NULL) {
      sim_fail(e, IOS_ENOMEM, NULL, "out of memory for the transfers of %s", rs->r->name);
      t->slot = -1; /* not active: never removed */
      return;
    }
    rs->active = a;
    rs->cap_active = ncap;
  }
  if (rs->nactive == 0) rs->busy_since = sim_now(e);
  t->slot = rs->nactive;
  rs->active[rs->nactive++] = t;
  if (e->sharing->cap_only)
    set_rate(e, t, t->cap); /* its rate does not depend on the others, nor theirs on it */
  else
    rs->dirty = 1;
}

static void res_remove(engine_t *e, res_state_t *rs, transfer_t *t) {
  rs->active[t->slot] = rs->active[--rs->nactive];
  rs->active[t->slot]->slot = t->slot;
  t->slot = -1;
  if (rs->nactive == 0) rs->busy_time += sim_now(e) - rs->busy_since;
  if (!e->sharing->cap_only) rs->dirty = 1;
}

/* s: the numerator of the yield (RR-9502 Eq. 6) of an application now: history, work, and volume over b_i. `moved`:
 * the bytes its one transfer has moved (an application with one transfer, whose caller has them), else NAN. */
static double app_progress(engine_t *e, const app_state_t *as, double moved) {
  double w = as->work_done + (as->state == ST_WORK ? sim_now(e) - as->phase_start : 0.0);
  double v = as->bytes_done;
  if (as->op_active) {
    if (!isnan(moved))
      v += moved;
    else
      for (int i = 0; i < as->ntransfers; i++)
        v += transferred(e, &as->t[i]);
  }
  return as->a->progress0 + w + (as->b > 0 ? v / as->b : 0.0);
}

static void decide(engine_t *e, res_state_t *rs) {
  struct sim_controller *K = e->ctl;
  int k = rs->nactive;
  if (k == 0) return;
  if (k > K->vcap) {
    ios_transfer_view_t *views = realloc(K->views, sizeof *K->views * (size_t)2 * (size_t)k);
    if (views != NULL) K->views = views;
    double *rates = views != NULL ? realloc(K->rates, sizeof *K->rates * (size_t)2 * (size_t)k) : NULL;
    if (rates != NULL) K->rates = rates;
    double *rems = rates != NULL ? realloc(K->rems, sizeof *K->rems * (size_t)2 * (size_t)k) : NULL;
    if (rems != NULL) K->rems = rems;
    transfer_t **vt = rems != NULL ? realloc(K->vt, sizeof *K->vt * (size_t)2 * (size_t)k) : NULL;
    if (vt == NULL) {
      sim_fail(e, IOS_ENOMEM, NULL, "out of memory for the %d transfers on %s", k, rs->r->name);
      return;
    }
    K->vt = vt;
    K->vcap = 2 * k;
  }
  for (int i = 0; i < k; i++) {
    transfer_t *t = rs->active[i];
    const app_state_t *as = &e->apps[t->app];
    K->rems[i] = ios_tr_remaining(e->tr, t);
    double moved = t->volume - K->rems[i]; /* transferred(t) */
    K->vt[i] = t;
    K->views[i] = (ios_transfer_view_t){.app = t->app,
                                        .cap = t->cap,
                                        .remaining = t->volume - moved,
                                        .posted = as->posted,
                                        .seq = as->seq,
                                        .b = as->b,
                                        .parts = as->ntransfers,
                                        .release = as->a->release,
                                        .progress = app_progress(e, as, as->ntransfers == 1 ? moved : NAN),
                                        .omega = as->iter_count > 0 ? as->iter_sum / as->iter_count : NAN,
                                        .nodes = as->a->nodes};
  }
  ios_share_view_t view = {.now = sim_now(e),
                           .capacity = rs->r->capacity,
                           .ntransfers = k,
                           .t = K->views,
                           .t_begin = e->t_begin,
                           .t_end = isnan(e->t_end) ? INFINITY : e->t_end};
  int rc = sim_fault(e, SIM_FAULT_SHARING) ? IOS_ENOMEM
                                           : e->sharing->share(e->sharing->ctx, &view, e->sharing_params, K->rates);
  if (rc != IOS_OK) {
    sim_fail(e, rc, "sharing.policy", "policy '%s' failed at t = %.17g s on %s (%s)", e->sharing->name, sim_now(e),
             rs->r->name, ios_strerror(rc));
    return;
  }
  int rc2 = ios_tr_set_rates(e->tr, k, K->vt, K->rates, K->rems, !e->sharing->uncapped, &e->rate_changes);
  if (rc2 < 0) transfer_failed(e, rc2, K->vt[0]);
}

/* ---------------------------------------------------------------- metrics snapshots */

static void snapshot(engine_t *e, double *w, double *v) {
  for (int j = 0; j < e->napps; j++) {
    app_state_t *as = &e->apps[j];
    w[j] = as->work_done + (as->state == ST_WORK ? sim_now(e) - as->phase_start : 0.0);
    v[j] = as->bytes_done;
    if (as->op_active) /* an operation posted at this date but not yet handled has moved nothing */
      for (int i = 0; i < as->ntransfers; i++)
        v[j] += transferred(e, &as->t[i]);
  }
}

static void take_snapshot(engine_t *e, int end) {
  double *w = malloc(sizeof *w * (size_t)e->napps), *v = malloc(sizeof *v * (size_t)e->napps);
  if (w == NULL || v == NULL) {
    sim_fail(e, IOS_ENOMEM, NULL, "out of memory for the window's snapshot");
    free(w);
    free(v);
    return;
  }
  snapshot(e, w, v);
  for (int j = 0; j < e->napps; j++) {
    if (end) {
      e->r->apps[j].w_end = w[j];
      e->r->apps[j].v_end = v[j];
    } else {
      e->r->apps[j].w_begin = w[j];
      e->r->apps[j].v_begin = v[j];
    }
  }
  free(w);
  free(v);
  if (end)
    e->snap_end_done = 1;
  else
    e->snap_begin_done = 1;
}

/* ---------------------------------------------------------------- controller */

static int cmp_host(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (const sg_host_t *)a, y = (uintptr_t) * (const sg_host_t *)b;
  return x < y ? -1 : x > y;
}

/* A striped operation's transfers: t->cap = how many of the operation's transfers leave from t's node (sorting
 * their hosts: n log n), so that the caller's NIC / count keeps each node's transfers within its NIC. @return 0, -1
 * out of memory. */
static int nic_shares(app_state_t *as) {
  int n = as->ntransfers;
  sg_host_t *h = malloc(sizeof *h * (size_t)(n > 0 ? n : 1));
  if (h == NULL) return -1;
  for (int i = 0; i < n; i++)
    h[i] = as->t[i].host;
  qsort(h, (size_t)n, sizeof *h, cmp_host);
  for (int i = 0; i < n; i++) {
    sg_host_t x = as->t[i].host;
    int bound[2]; /* the first index of x, and one past its last: two binary searches */
    for (int upper = 0; upper < 2; upper++) {
      int lo = 0, hi = n;
      while (lo < hi) {
        int mid = (lo + hi) / 2, c = cmp_host(&h[mid], &x);
        if (c < 0 || (upper && c == 0))
          lo = mid + 1;
        else
          hi = mid;
      }
      bound[upper] = lo;
    }
    as->t[i].cap = bound[1] - bound[0];
  }
  free(h);
  return 0;
}

/* A striped operation's b_j(n): n = the OSTs its transfers use (TAPP-IO §III: the resources it really uses), not its
 * allocation's count, so that its dedicated bandwidth (the yield's b_i, RR-9502 Eq. 6; ded_io) is that of those OSTs.
 * @return that n, -1 out of memory. */
static int osts_of_op(engine_t *e, app_state_t *as) {
  unsigned char *seen = calloc((size_t)(e->nres > 0 ? e->nres : 1), 1);
  if (seen == NULL) return -1;
  int k = 0;
  for (int i = 0; i < as->ntransfers; i++)
    if (as->t[i].res >= 0 && !seen[as->t[i].res]) {
      seen[as->t[i].res] = 1;
      k++;
    }
  free(seen);
  as->b = ios_profile_bw(&e->profiles[as - e->apps], k);
  return k;
}

/* The destination of a transfer to resource `res` (-1: the PFS): a disk's reads take its read route. */
static sg_host_t dest_of(engine_t *e, int res, int reads) {
  res_state_t *rs = &e->res[res < 0 ? e->nres : res];
  return reads && rs->read_dest != NULL ? rs->read_dest : rs->dest;
}

/* How application j's operation from its nsrc nodes goes (ios_tr_node_group; a job's nodes are its own): k >= 1
 * classes of alike nodes, *reps and *counts theirs; 0 one leg per node; -1 out of memory. */
static int node_group(engine_t *e, app_state_t *as, int j, int nsrc, int reads, const sg_host_t **reps,
                      const int **counts) {
  int n = as->n > 0 ? as->n : 1;
  sg_host_t *dests = malloc(sizeof *dests * (size_t)n);
  if (dests == NULL) return -1;
  for (int i = 0; i < n; i++)
    dests[i] = dest_of(e, as->n > 0 ? as->res[i] : -1, reads);
  int g = ios_tr_node_group(e->tr, j, as->nodes, nsrc, dests, n, reps, counts);
  free(dests);
  return g;
}

static void on_post(engine_t *e, int j) {
  app_state_t *as = &e->apps[j];
  if (e->ops_pending++ == 0) e->io_busy_since = sim_now(e); /* the platform's I/O busy time (io_busy_s) */
  if (as->q.pending) sim_apply_alloc(e, as);                /* a re-arbitration applies from the next I/O operation */
  double volume = as->a->phases[as->phase].value;
  int reads = as->a->phases[as->phase].is_io == IOS_PHASE_READ;
  if (as->st.policy != NULL) {
    sim_striping_place(e, j, volume);
    as->nleft = as->ntransfers;
    as->op_active = 1;
    as->seq = e->seq++;
    int k = osts_of_op(e, as);
    if (k < 0 || nic_shares(as) != 0) {
      sim_fail(e, IOS_ENOMEM, NULL, "out of memory for the NIC shares of %s", as->a->name);
      return;
    }
    for (int i = 0; i < as->ntransfers; i++) {
      transfer_t *t = &as->t[i];
      ios_tr_reset(e->tr, t, t->volume);
      /* its share of its node's NIC (the node's transfers share it equally: k stripes of a writer never carry more
       * than the NIC together); the platform's links decide the rest */
      t->cap = e->p->nic_bw / t->cap;
      t->dest = e->res[t->res].dest;
      t->latency = route_latency(e, t);
      res_add(e, &e->res[t->res], t);
    }
    as->op_alone = sim_alone_op(e, as, volume); /* its layout alone on the platform: the reference b_i */
    return;
  }
  int n = as->n, nsrc = sim_app_nodes(e, as);
  const sg_host_t *src = as->nodes;
  const int *srcn = NULL;
  if (nsrc > 1) { /* classes of alike nodes: one leg per class and resource from its first node (ios_tr_node_group) */
    int g = node_group(e, as, j, nsrc, reads, &src, &srcn);
    if (g < 0) {
      sim_fail(e, IOS_ENOMEM, NULL, "out of memory for the node groups of %s", as->a->name);
      return;
    }
    if (g == 0) { /* one leg per node */
      src = as->nodes;
      srcn = NULL;
    } else
      nsrc = g; /* 1: one transfer per resource from the first node, as from one node */
  }
  as->ntransfers = n > 0 ? n : 1;
  as->nleft = as->ntransfers;
  as->op_active = 1;
  as->seq = e->seq++;
  for (int i = 0; i < as->ntransfers; i++) {
    transfer_t *t = &as->t[i];
    t->app = j;
    t->res = n > 0 ? as->res[i] : -1;
    t->host = nsrc > 1 || as->nodes == NULL ? as->host : as->nodes[0];
    t->nsrc = nsrc; /* its bytes leave from every node of the job, each its part (the flow path's legs) */
    t->src = nsrc > 1 ? src : NULL;
    t->srcn = nsrc > 1 ? srcn : NULL;
    /* a recorded layout's shares, while the job uses its given resources: bytes and cap b_j(n) in proportion */
    const double *share = as->a->given_share;
    int shared = share != NULL && n == as->a->ngiven && t->res == as->a->given[i];
    ios_tr_reset(e->tr, t, shared ? volume * share[i] : volume / as->ntransfers);
    t->cap = shared ? as->cap * n * share[i] : as->cap;
    res_state_t *rs = &e->res[t->res < 0 ? e->nres : t->res];
    t->dest = dest_of(e, t->res, reads);
    t->latency = route_latency(e, t);
    res_add(e, rs, t);
  }
  as->op_alone = sim_alone_op(e, as, volume); /* alone on the platform: the reference b_i */
}

/* s: the I/O time of as's operation that completes now. Its dates are absolute, so at a date of 1e8 s (a Darshan
 * stream) their difference carries their rounding (an ulp of 1.5e-8 s at 1e8 s, 1.2e-7 s at 1e9 s), which for a short
 * operation is a rate above what its elements can carry (docs/outputs.md, "Dates"): a duration within 4 ulps of the
 * operation's time alone (sim_alone_op) is that time, the one the dates cannot tell from it. */
static double op_duration(const engine_t *e, const app_state_t *as) {
  double now = sim_now(e), posted = as->posted > 0 ? as->posted : 0.0, d = now - posted;
  double rounding = 4 * DBL_EPSILON * fmax(fabs(now), fabs(posted));
  return fabs(d - as->op_alone) <= rounding ? as->op_alone : d;
}

static void on_complete(engine_t *e, transfer_t *t, unsigned gen) {
  if (gen != t->gen || t->slot < 0) return; /* stale: the flow was re-rated after it had finished */
  res_state_t *rs = &e->res[t->res < 0 ? e->nres : t->res];
  rs->bytes += t->volume;
  res_remove(e, rs, t);
  t->rate = 0;
  app_state_t *as = &e->apps[t->app];
  if (--as->nleft == 0) {
    as->op_active = 0;
    double v = as->a->phases[as->phase].value;
    sim_ev_io_row(e, as, v);
    if (as->last_work > 0) { /* an iteration: a work phase and the I/O operation after it (RR-9502 §4.2) */
      as->iter_sum += as->last_work + (as->b > 0 ? v / as->b : 0.0);
      as->iter_count++;
    }
    as->last_work = 0;
    as->bytes_done += v;
    if (--e->ops_pending == 0) e->io_busy_s += sim_now(e) - e->io_busy_since;
    as->ded_io += as->op_alone;
    as->io_time += op_duration(e, as);
    as->state = ST_WAITING;
    sim_resume(e, t->app); /* resumed by the controller after this batch's decisions */
  }
}

/* ---------------------------------------------------------------- allocations and the job queue */

static void on_app_end(engine_t *e, int j) {
  app_state_t *as = &e->apps[j];
  e->apps_left--;
  ios_tr_node_ungroup(e->tr, j); /* its first node's links get their bandwidth back */
  if (as->q.has_alloc) sim_al_row(e, as, as->q.alloc_since, sim_now(e));
  if (e->s->queue) sim_queue_job_ended(e, as);
}

static void progress_line(engine_t *e, int force) {
  struct sim_controller *K = e->ctl;
  if (!e->s->progress) return;
  if (!force && (++K->progress_calls & 1023) != 0) return; /* the wall clock read every 1,024 decisions */
  if (K->tty < 0) K->tty = isatty(2);
  double wall = ios_clock_s() - e->wall0;
  if (!force && wall - K->last_progress < (K->tty ? 1.0 : 30.0)) return;
  K->last_progress = wall;
  fprintf(stderr, "%siosim: simulated %.6g s, %d/%d applications done, %ld events, %.1f s wall%s", K->tty ? "\r" : "",
          sim_now(e), e->napps - e->apps_left, e->napps, e->events, wall, K->tty ? "   " : "\n");
  if (force && K->tty) fputc('\n', stderr);
}

void sim_handle_events(engine_t *e) {
  struct sim_controller *K = e->ctl;
  while (K->qlen > 0 && sim_failure(e) == IOS_OK) {
    event_t ev = K->q[K->qhead];
    K->qhead = (K->qhead + 1) % K->qcap;
    K->qlen--;
    e->events++;
    switch (ev.type) {
    case EV_POST:
      on_post(e, ev.app);
      break;
    case EV_COMPLETE:
      on_complete(e, ev.t, ev.gen);
      break;
    case EV_APP_END:
      on_app_end(e, ev.app);
      break;
    case EV_SUBMIT:
      sim_on_submit(e, ev.app);
      break;
    case EV_BEGIN:
      sim_queue_begin(e, &e->apps[ev.app]);
      break;
    case EV_SNAPSHOT_BEGIN:
      take_snapshot(e, 0);
      if (e->v2) { /* v2: the strategy takes over from FairShare at the start of the measured half */
        e->sharing = e->s->sharing;
        e->sharing_params = &e->s->sharing_params;
        for (int r = 0; r <= e->nres; r++)
          e->res[r].dirty = 1;
      }
      break;
    case EV_SNAPSHOT_END:
      take_snapshot(e, 1);
      break;
    case EV_TICK:
      for (int r = 0; r <= e->nres; r++)
        e->res[r].dirty = 1;
      break;
    }
  }
}

void sim_decide_all(engine_t *e) {
  if (e->s->queue) sim_schedule_jobs(e);
  for (int r = 0; r <= e->nres; r++)
    if (e->res[r].dirty) {
      e->res[r].dirty = 0;
      decide(e, &e->res[r]);
    }
  progress_line(e, 0);
}

void sim_stop_transfers(engine_t *e) {
  for (int j = 0; j < e->napps; j++)
    for (int i = 0; e->apps[j].t != NULL && i < e->apps[j].tcap; i++)
      ios_tr_stop(e->tr, &e->apps[j].t[i]);
}

int sim_events_pending(const engine_t *e) {
  return e->ctl->qlen;
}

void sim_progress_end(engine_t *e) {
  if (e->ctl->last_progress > 0) /* only runs long enough to have shown progress get a final line */
    progress_line(e, 1);
}
