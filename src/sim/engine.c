/* iosim — the engine (see ios_engine.h).
 *
 * Actors: one per application (on its first compute node: work phases, then post an I/O operation and wait), one
 * controller (on the controller host: the only caller of policies), one short-lived transfer actor per flow segment
 * (on the application's node: starts a rate-capped mailbox flow and reports its completion), one permanent receiver
 * per resource host, and a timer for window snapshots and periodic ticks. Actors talk through an in-memory event
 * queue and semaphores: no simulated time passes in control messages.
 *
 * Direct path (ios_transfer.h, docs/engine.md): where no link can bind the sharing policy's rates, transfers are
 * computed rather than simulated as flows; without a job queue the controller then also runs the applications from a
 * calendar of dated wake-ups (app_advance is the applications' one set of steps, for actors and calendar alike) and
 * keeps the date itself: one SimGrid actor in all.
 *
 * Job queue (scenario `queue`, IPDPS'21 §5.3): applications are submitted at their release time and wait, in FIFO
 * order, for enough free compute nodes (no backfilling unless asked); whenever the set of running jobs changes the
 * controller re-runs allocation and placement over the running jobs (ios_arbitrate). A job's new resources apply
 * from its next I/O operation (an operation in progress finishes where it started). */
#include "ios_engine.h"
#include "ios_arbiter.h"
#include "ios_clock.h"
#include "ios_csv.h"
#include "ios_diag.h"
#include "ios_knowledge.h"
#include "ios_sg.h"
#include "ios_sg_platform.h"
#include "ios_striping.h"
#include "ios_transfer.h"
#include "ios_window.h"

#include <errno.h>
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xbt/asserts.h>
#include <xbt/log.h>

XBT_LOG_NEW_CATEGORY(iosim, "iosim: I/O resource sharing simulator");

/* KiB of stack per SimGrid actor (SimGrid's contexts/stack-size) */
#define IOS_ACTOR_STACK_KIB "256"
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_engine, iosim, "iosim engine");

enum { EV_POST, EV_COMPLETE, EV_APP_END, EV_SNAPSHOT_BEGIN, EV_SNAPSHOT_END, EV_TICK, EV_SUBMIT };
enum { ST_WAITING, ST_WORK, ST_IO, ST_DONE };

typedef ios_transfer_t transfer_t;

typedef struct {
  const ios_app_t *a;
  int n;      /* resources allocated */
  int *res;   /* [n] resource indices */
  double b;   /* dedicated bandwidth b_j(n) */
  double cap; /* per-transfer cap b_j(n)/n */
  sg_host_t host;
  sg_sem_t sem;
  int state, phase;
  double phase_start, posted;
  double work_done, bytes_done, io_time;
  double start, end;
  long seq;
  int ntransfers, nleft;
  int op_active;    /* the controller has handled the current operation's post and it is not complete */
  int posted_op;    /* the I/O phase `phase` has posted its operation (app_advance) */
  double last_work; /* s of work since the previous I/O operation (for ω) */
  double iter_sum;  /* s: Σ (work + V/b) over the iterations counted in ω (RR-9502 §4.2) */
  int iter_count;   /* iterations counted in ω */
  transfer_t *t;    /* [max(n,1)] reused by every operation ([max(N,1)] with a queue) */
  double ded_io;    /* s: Σ volume/b over completed operations (b of each operation's allocation) */
  /* job queue */
  int started;        /* 1 once the job has compute nodes */
  int *hosts;         /* [nodes] compute host indices while running (queue mode), else NULL */
  int has_alloc;      /* an allocation has been applied */
  int pending;        /* next_n/next_res wait for the next I/O operation */
  int next_n;         /* resources of the pending allocation */
  int *next_res;      /* [max(N,1)] its resource indices (queue mode), else NULL */
  double alloc_since; /* s: when the current allocation was applied (allocations.csv) */
  int host0;          /* index of its first compute host (without a queue) */
  int tcap;           /* transfers t[] can hold */
  /* striping (TAPP-IO): each I/O operation's files are placed by this policy, or NULL */
  const ios_striping_policy_t *stripe;
  const ios_params_t *stripe_params;
  int layout;
} app_state_t;

typedef struct {
  const ios_resource_t *r;
  sg_mailbox_t mbox;
  transfer_t **active;
  int nactive, cap_active;
  int dirty;
  double busy_since, busy_time, bytes;
} res_state_t;

typedef struct {
  int type, app;
  transfer_t *t;
  unsigned gen;
  int wake; /* its push released the controller's semaphore */
} event_t;

typedef struct {
  const ios_scenario_t *s;
  const ios_platform_t *p;
  int napps, nres;
  app_state_t *apps;
  res_state_t *res; /* [nres + 1]: index nres is the PFS for direct access */
  event_t *q;
  int qhead, qlen, qcap;
  sg_sem_t sem;
  int apps_left;
  long seq, events, rate_changes;
  double t_begin, t_end;
  int snap_begin_done, snap_end_done;
  ios_transfer_view_t *views;
  transfer_t **vt;
  double *rates;
  int vcap;
  ios_results_t *r;
  double wall0; /* ios_clock_s() at the start */
  double last_progress;
  double period;                       /* s: periodic decisions of the sharing policy (0 = none), from t_begin */
  const ios_sharing_policy_t *sharing; /* the policy deciding now (fairshare before t_begin in v2 mode) */
  const ios_params_t *sharing_params;
  int v2;            /* window.mode v2: switch to the scenario's policy at t_begin */
  FILE *ev;          /* events.csv being written (output.events), or NULL */
  char ev_tmp[4200]; /* its temporary path */
  FILE *al;          /* allocations.csv being written */
  char al_tmp[4200]; /* its temporary path */
  /* job queue */
  const ios_workload_t *w;
  const ios_app_view_t *app_views; /* [napps] what allocation and placement policies know of each application */
  const ios_profile_t *profiles;   /* [napps] the true b_j(n) the simulation uses */
  ios_profile_t *profiles_owned;   /* [napps] the same, owned */
  ios_app_view_t *views_owned;     /* [napps] app_views, owned */
  ios_profile_t *seen;             /* [napps] the b_j(n) the policies see (RR-9549 §6.2 knowledge) */
  int *alloc_n;                    /* [napps] resources allocated to each application at the start */
  int *waiting, nwaiting;          /* submitted jobs not started, in queue order */
  int *free_hosts, nfree;          /* compute host indices not used by a running job */
  int running_changed;             /* a job started or ended since the last arbitration */
  int keep_running;                /* running jobs keep their resources at re-arbitration */
  long arbitrations;               /* re-arbitrations done (random streams) */
  double seg_bytes, limited_bytes; /* bytes of flow segments at a policy's rate, and of those the platform slowed */
  /* striping (TAPP-IO §III) on a regular oss-ost platform */
  ios_stripe_topo_t topo;
  int *ost_oss;
  ios_stripe_state_t stripe_state;
  ios_rng_t stripe_rng;
  ios_params_t *app_stripe_params; /* [napps] parameters of per-application striping policies */
  /* SimGrid actors alive (applications and transfers): each maps a stack and a guard page, and Linux caps a
   * process's mappings (vm.max_map_count); past the budget the run stops with an error instead of SimGrid aborting */
  long actors, actor_budget;
  int overflow;
  int *launch_order;     /* replay: application indices by start time */
  int direct;            /* the transfer layer's direct path (ios_transfer.h): no link can bind the policy's rates */
  int calendar;          /* direct path without a job queue: the controller runs the applications from a calendar */
  struct cal_entry *cal; /* calendar mode: the dated wake-ups, a binary min-heap on (date, seq) */
  int ncal, calcap;
  long calseq;
  int own_clock;        /* calendar mode: the controller keeps the date itself instead of sleeping on SimGrid's clock */
  double clock;         /* s: that date */
  int *resume, nresume; /* calendar mode: applications whose operation completed in this batch, in order */
  struct grid {
    double start, period;
  } grids[2]; /* controller.tick_s from 0; a periodic sharing policy's δ from T_begin */
} engine_t;

static engine_t E; /* one engine per process */

/* s: the simulated date — SimGrid's clock, or the calendar's own when it keeps one (E.own_clock). */
static double now(void) {
  return E.own_clock ? E.clock : simgrid_get_clock();
}

/* Queues an event for the controller; `wake`: release its semaphore (an event from another actor). */
static void push_event(int type, int app, transfer_t *t, unsigned gen, int wake) {
  if (E.qlen == E.qcap) {
    int ncap = E.qcap ? 2 * E.qcap : 256;
    event_t *q = malloc(sizeof *q * (size_t)ncap);
    if (q == NULL) xbt_die("iosim: out of memory for the event queue");
    for (int i = 0; i < E.qlen; i++)
      q[i] = E.q[(E.qhead + i) % E.qcap];
    free(E.q);
    E.q = q;
    E.qhead = 0;
    E.qcap = ncap;
  }
  E.q[(E.qhead + E.qlen) % E.qcap] = (event_t){type, app, t, gen, wake};
  E.qlen++;
  if (wake) sg_sem_release(E.sem);
}

/* ---------------------------------------------------------------- events.csv (docs/outputs.md) */

static const char *res_name(int res) {
  return res < 0 ? E.p->pfs.name : E.p->res[res].name;
}

/* One interval row: app, kind (work, io, transfer), resource, start_s, end_s, bytes, rate_Bps (mean over it). */
static void ev_row(int app, const char *kind, const char *resource, double t0, double t1, double bytes) {
  if (E.ev == NULL) return;
  ios_csv_field(E.ev, E.apps[app].a->name);
  fprintf(E.ev, ",%s,", kind);
  ios_csv_field(E.ev, resource); /* a host name, or names joined with ';' */
  fprintf(E.ev, ",%.17g,%.17g,", t0, t1);
  if (bytes >= 0) {
    fprintf(E.ev, "%.17g,", bytes);
    if (t1 > t0) fprintf(E.ev, "%.17g", bytes / (t1 - t0));
  } else
    fputc(',', E.ev);
  fputc('\n', E.ev);
}

/* A flow segment of transfer t ended having moved `bytes`: when the sharing policy had set its rate and the segment
 * averaged less than that rate, the platform (a link the policy does not decide on, through SimGrid's max-min) was
 * the bottleneck. */
static void account_segment(const transfer_t *t, double bytes) {
  double d = now() - t->seg_start;
  if (!t->seg_capped || !(d > 0) || !(bytes > 0)) return;
  E.seg_bytes += bytes;
  if (bytes < t->rate * d * (1 - 1e-6)) E.limited_bytes += bytes;
}

static void ev_io_row(const app_state_t *as, double volume) {
  if (E.ev == NULL) return;
  char names[1024] = "";
  for (int i = 0; i < as->ntransfers; i++) {
    size_t l = strlen(names);
    snprintf(names + l, sizeof names - l, "%s%s", i ? ";" : "", res_name(as->t[i].res));
  }
  ev_row((int)(as - E.apps), "io", names, as->posted, now(), volume);
}

/* ---------------------------------------------------------------- transfer layer */

/* One more actor, or the budget is spent (E.overflow: the controller stops the run). */
static int actor_reserve(void) {
  if (E.actors >= E.actor_budget) {
    E.overflow = 1;
    return 0;
  }
  E.actors++;
  return 1;
}

static void actor_release(void) {
  E.actors--;
}

/* A segment of a transfer ended: its events.csv row and the platform-limited share. */
static void segment_end(const transfer_t *t, double bytes, int done) {
  if (done || now() > t->seg_start) ev_row(t->app, "transfer", res_name(t->res), t->seg_start, now(), bytes);
  account_segment(t, bytes);
}

/* A transfer's last byte arrived: an event for the controller (the direct path reports from the controller itself,
 * which needs no wake-up). */
static void transfer_completed(transfer_t *t, unsigned gen) {
  push_event(EV_COMPLETE, t->app, t, gen, !E.direct);
}

static const ios_tr_hooks_t tr_hooks = {segment_end, transfer_completed, actor_reserve, actor_release};

/* Gives transfer t the rate r from now on (the transfer layer restarts it if needed). */
static void set_rate(transfer_t *t, double r) {
  if (ios_tr_set_rate(t, r, !E.sharing->uncapped)) E.rate_changes++;
}

static double transferred(const transfer_t *t) {
  return t->volume - ios_tr_remaining(t);
}

/* ---------------------------------------------------------------- resources */

static void res_add(res_state_t *rs, transfer_t *t) {
  if (rs->nactive == rs->cap_active) {
    int ncap = rs->cap_active ? 2 * rs->cap_active : 8;
    transfer_t **a = realloc(rs->active, sizeof *a * (size_t)ncap);
    if (a == NULL) xbt_die("iosim: out of memory");
    rs->active = a;
    rs->cap_active = ncap;
  }
  if (rs->nactive == 0) rs->busy_since = now();
  t->slot = rs->nactive;
  rs->active[rs->nactive++] = t;
  if (E.sharing->cap_only)
    set_rate(t, t->cap); /* its rate does not depend on the others, nor theirs on it */
  else
    rs->dirty = 1;
}

static void res_remove(res_state_t *rs, transfer_t *t) {
  rs->active[t->slot] = rs->active[--rs->nactive];
  rs->active[t->slot]->slot = t->slot;
  t->slot = -1;
  if (rs->nactive == 0) rs->busy_time += now() - rs->busy_since;
  if (!E.sharing->cap_only) rs->dirty = 1;
}

/* s: the numerator of the yield (RR-9502 Eq. 6) of an application now: history, work, and volume over b_i. */
static double app_progress(const app_state_t *as) {
  double w = as->work_done + (as->state == ST_WORK ? now() - as->phase_start : 0.0);
  double v = as->bytes_done;
  if (as->op_active)
    for (int i = 0; i < as->ntransfers; i++)
      v += transferred(&as->t[i]);
  return as->a->progress0 + w + (as->b > 0 ? v / as->b : 0.0);
}

static void decide(res_state_t *rs) {
  int k = rs->nactive;
  if (k == 0) return;
  if (k > E.vcap) {
    E.vcap = 2 * k;
    E.views = realloc(E.views, sizeof *E.views * (size_t)E.vcap);
    E.rates = realloc(E.rates, sizeof *E.rates * (size_t)E.vcap);
    E.vt = realloc(E.vt, sizeof *E.vt * (size_t)E.vcap);
    if (!E.views || !E.rates || !E.vt) xbt_die("iosim: out of memory");
  }
  for (int i = 0; i < k; i++) {
    transfer_t *t = rs->active[i];
    const app_state_t *as = &E.apps[t->app];
    E.vt[i] = t;
    E.views[i] = (ios_transfer_view_t){.app = t->app,
                                       .cap = t->cap,
                                       .remaining = t->volume - transferred(t),
                                       .posted = as->posted,
                                       .seq = as->seq,
                                       .b = as->b,
                                       .parts = as->ntransfers,
                                       .release = as->a->release,
                                       .progress = app_progress(as),
                                       .omega = as->iter_count > 0 ? as->iter_sum / as->iter_count : NAN,
                                       .nodes = as->a->nodes};
  }
  ios_share_view_t view = {.now = now(),
                           .capacity = rs->r->capacity,
                           .ntransfers = k,
                           .t = E.views,
                           .t_begin = E.t_begin,
                           .t_end = isnan(E.t_end) ? INFINITY : E.t_end};
  if (E.sharing->share(&view, E.sharing_params, E.rates) != IOS_OK)
    xbt_die("iosim: sharing policy %s failed", E.sharing->name);
  for (int i = 0; i < k; i++)
    set_rate(E.vt[i], E.rates[i] > 0 ? E.rates[i] : 0.0);
}

/* ---------------------------------------------------------------- metrics snapshots */

static void snapshot(double *w, double *v) {
  for (int j = 0; j < E.napps; j++) {
    app_state_t *as = &E.apps[j];
    w[j] = as->work_done + (as->state == ST_WORK ? now() - as->phase_start : 0.0);
    v[j] = as->bytes_done;
    if (as->op_active) /* an operation posted at this date but not yet handled has moved nothing */
      for (int i = 0; i < as->ntransfers; i++)
        v[j] += transferred(&as->t[i]);
  }
}

static void take_snapshot(int end) {
  double *w = malloc(sizeof *w * (size_t)E.napps), *v = malloc(sizeof *v * (size_t)E.napps);
  if (w == NULL || v == NULL) xbt_die("iosim: out of memory");
  snapshot(w, v);
  for (int j = 0; j < E.napps; j++) {
    if (end) {
      E.r->apps[j].w_end = w[j];
      E.r->apps[j].v_end = v[j];
    } else {
      E.r->apps[j].w_begin = w[j];
      E.r->apps[j].v_begin = v[j];
    }
  }
  free(w);
  free(v);
  if (end)
    E.snap_end_done = 1;
  else
    E.snap_begin_done = 1;
}

/* ---------------------------------------------------------------- controller */

static void apply_alloc(app_state_t *as);

/* A striped job's I/O operation: its files placed by its striping policy, one transfer per (writer, OST) flow from
 * the writer's node (TAPP-IO §III). */
static void post_striped(int j, double volume) {
  app_state_t *as = &E.apps[j];
  int nw = as->a->nodes, *clients = malloc(sizeof *clients * (size_t)nw);
  if (clients == NULL) xbt_die("iosim: out of memory");
  for (int w = 0; w < nw; w++)
    clients[w] = as->hosts != NULL ? as->hosts[w] : as->host0 + w;
  ios_stripe_job_t job = {.nwriters = nw,
                          .layout = as->layout ? IOS_LAYOUT_SSF : IOS_LAYOUT_FPP,
                          .bytes_per_writer = volume / nw,
                          .writer_client = clients};
  ios_stripe_placement_t pl = {0};
  ios_stripe_flow_t *flows = NULL;
  int nflows = 0;
  if (as->stripe->place(&E.topo, &job, as->stripe_params, &E.stripe_rng, &E.stripe_state, &pl) != IOS_OK ||
      ios_stripe_flows(&E.topo, &job, &pl, &flows, &nflows) != IOS_OK || nflows > as->tcap)
    xbt_die("iosim: striping policy %s failed for %s", as->stripe->name, as->a->name);
  as->ntransfers = nflows;
  for (int i = 0; i < nflows; i++) {
    transfer_t *t = &as->t[i];
    t->app = j;
    t->res = flows[i].ost;
    t->volume = flows[i].bytes;
    t->host = E.p->compute[flows[i].client];
  }
  free(flows);
  free(clients);
  ios_stripe_placement_free(&pl);
}

static void on_post(int j) {
  app_state_t *as = &E.apps[j];
  if (as->pending) apply_alloc(as); /* a re-arbitration applies from the next I/O operation */
  double volume = as->a->phases[as->phase].value;
  if (as->stripe != NULL) {
    post_striped(j, volume);
    as->nleft = as->ntransfers;
    as->op_active = 1;
    as->seq = E.seq++;
    for (int i = 0; i < as->ntransfers; i++) {
      transfer_t *t = &as->t[i];
      ios_tr_reset(t, t->volume);
      t->cap = E.p->nic_bw; /* a writer's node: the platform's links decide the rest */
      t->mbox = E.res[t->res].mbox;
      res_add(&E.res[t->res], t);
    }
    return;
  }
  int n = as->n;
  as->ntransfers = n > 0 ? n : 1;
  as->nleft = as->ntransfers;
  as->op_active = 1;
  as->seq = E.seq++;
  for (int i = 0; i < as->ntransfers; i++) {
    transfer_t *t = &as->t[i];
    t->app = j;
    t->res = n > 0 ? as->res[i] : -1;
    t->host = as->host;
    ios_tr_reset(t, volume / as->ntransfers);
    t->cap = as->cap;
    t->mbox = E.res[t->res < 0 ? E.nres : t->res].mbox;
    res_add(&E.res[t->res < 0 ? E.nres : t->res], t);
  }
}

static void on_complete(transfer_t *t, unsigned gen) {
  if (gen != t->gen || t->slot < 0) return; /* stale: the flow was re-rated after it had finished */
  res_state_t *rs = &E.res[t->res < 0 ? E.nres : t->res];
  rs->bytes += t->volume;
  res_remove(rs, t);
  t->rate = 0;
  app_state_t *as = &E.apps[t->app];
  if (--as->nleft == 0) {
    as->op_active = 0;
    double v = as->a->phases[as->phase].value;
    ev_io_row(as, v);
    if (as->last_work > 0) { /* an iteration: a work phase and the I/O operation after it (RR-9502 §4.2) */
      as->iter_sum += as->last_work + (as->b > 0 ? v / as->b : 0.0);
      as->iter_count++;
    }
    as->last_work = 0;
    as->bytes_done += v;
    as->ded_io += as->b > 0 ? v / as->b : 0.0;
    as->io_time += now() - (as->posted > 0 ? as->posted : 0.0);
    as->state = ST_WAITING;
    if (E.calendar)
      E.resume[E.nresume++] = t->app; /* resumed by the controller after this batch's decisions */
    else
      sg_sem_release(as->sem);
  }
}

/* ---------------------------------------------------------------- allocations and the job queue */

/* One allocations.csv row: application, [t0, t1), resource count, resource names. */
static const char *al_res_item(int i, void *ctx) {
  return res_name(((const app_state_t *)ctx)->res[i]);
}

static void al_row(const app_state_t *as, double t0, double t1) {
  if (E.al == NULL || !(t1 >= t0)) return;
  ios_csv_field(E.al, as->a->name);
  fprintf(E.al, ",%.17g,%.17g,%d,", t0, t1, as->n);
  ios_csv_list(E.al, as->n, al_res_item, (void *)as, ';');
  fputc('\n', E.al);
}

/* Makes the pending allocation the application's own (its resources, b_j(n) and per-transfer cap). */
static void apply_alloc(app_state_t *as) {
  int j = (int)(as - E.apps);
  if (as->has_alloc) al_row(as, as->alloc_since, now());
  as->n = as->next_n;
  memcpy(as->res, as->next_res, sizeof *as->res * (size_t)as->n);
  as->b = ios_profile_bw(&E.profiles[j], as->n);
  as->cap = as->b / (as->n > 0 ? as->n : 1);
  as->has_alloc = 1;
  as->pending = 0;
  as->alloc_since = now();
}

/* Allocation and placement over the running jobs (IPDPS'21 §5.3); jobs without resources yet get theirs at once, the
 * others from their next I/O operation, unless the policy keeps running jobs' resources. */
static void rearbitrate(void) {
  int *sel = malloc(sizeof *sel * (size_t)E.napps), *n = malloc(sizeof *n * (size_t)E.napps), *res = NULL, k = 0;
  if (sel == NULL || n == NULL) xbt_die("iosim: out of memory");
  for (int j = 0; j < E.napps; j++)
    if (E.apps[j].started && E.apps[j].state != ST_DONE) sel[k++] = j;
  if (k > 0 &&
      ios_arbitrate(E.s, E.p, E.w, E.app_views, sel, k, 1000 + 2 * (uint64_t)E.arbitrations++, n, &res) != IOS_OK)
    xbt_die("iosim: re-arbitration at t = %.17g s failed: %s", now(), ios_diag_message());
  for (int i = 0, off = 0; i < k; off += n[i], i++) {
    app_state_t *as = &E.apps[sel[i]];
    if (E.keep_running && as->has_alloc) continue;
    as->next_n = n[i];
    memcpy(as->next_res, res + off, sizeof *res * (size_t)n[i]);
    as->pending = 1;
    if (!as->has_alloc) apply_alloc(as);
  }
  free(sel);
  free(n);
  free(res);
}

/* Starts the waiting jobs that fit, in queue order (the head blocks the others unless backfilling), re-arbitrates
 * when the running set changed, then lets the started jobs run. */
static void schedule_jobs(void) {
  int *go = malloc(sizeof *go * (size_t)(E.nwaiting + 1)), ngo = 0;
  if (go == NULL) xbt_die("iosim: out of memory");
  for (int q = 0; q < E.nwaiting;) {
    app_state_t *as = &E.apps[E.waiting[q]];
    if (as->a->nodes <= E.nfree) {
      for (int i = 0; i < as->a->nodes; i++)
        as->hosts[i] = E.free_hosts[--E.nfree];
      as->host = E.p->compute[as->hosts[0]];
      as->started = 1;
      as->start = now();
      go[ngo++] = E.waiting[q];
      memmove(E.waiting + q, E.waiting + q + 1, sizeof *E.waiting * (size_t)(E.nwaiting - q - 1));
      E.nwaiting--;
      E.running_changed = 1;
      continue;
    }
    if (!E.s->backfill) break;
    q++;
  }
  if (E.running_changed) rearbitrate();
  E.running_changed = 0;
  for (int i = 0; i < ngo; i++)
    sg_sem_release(E.apps[go[i]].sem);
  free(go);
}

/* A submitted job joins the queue, behind the jobs submitted before it (ties: workload order). */
static void on_submit(int j) {
  int q = E.nwaiting;
  while (q > 0 && E.apps[E.waiting[q - 1]].a->release > E.apps[j].a->release)
    q--;
  while (q > 0 && E.apps[E.waiting[q - 1]].a->release == E.apps[j].a->release && E.waiting[q - 1] > j)
    q--;
  memmove(E.waiting + q + 1, E.waiting + q, sizeof *E.waiting * (size_t)(E.nwaiting - q));
  E.waiting[q] = j;
  E.nwaiting++;
}

static void on_app_end(int j) {
  app_state_t *as = &E.apps[j];
  E.apps_left--;
  for (int i = 0; i < as->tcap; i++) /* its transfers' actors run no more flows */
    ios_tr_retire(&as->t[i]);
  if (as->has_alloc) al_row(as, as->alloc_since, now());
  if (!E.s->queue) return;
  for (int i = 0; i < as->a->nodes; i++)
    E.free_hosts[E.nfree++] = as->hosts[i];
  E.running_changed = 1;
}

static void progress_line(int force) {
  if (!E.s->progress) return;
  double wall = ios_clock_s() - E.wall0;
  if (!force && wall - E.last_progress < (isatty(2) ? 1.0 : 30.0)) return;
  E.last_progress = wall;
  fprintf(stderr, "%siosim: simulated %.6g s, %d/%d applications done, %ld events, %.1f s wall%s",
          isatty(2) ? "\r" : "", now(), E.napps - E.apps_left, E.napps, E.events, wall, isatty(2) ? "   " : "\n");
  if (force && isatty(2)) fputc('\n', stderr);
}

/* Handles every queued event. @return how many of them released the controller's semaphore. */
static long handle_events(void) {
  long wakes = 0; /* semaphore releases of the events handled in this batch */
  while (E.qlen > 0) {
    event_t ev = E.q[E.qhead];
    E.qhead = (E.qhead + 1) % E.qcap;
    E.qlen--;
    wakes += ev.wake;
    E.events++;
    switch (ev.type) {
    case EV_POST:
      on_post(ev.app);
      break;
    case EV_COMPLETE:
      on_complete(ev.t, ev.gen);
      break;
    case EV_APP_END:
      on_app_end(ev.app);
      break;
    case EV_SUBMIT:
      on_submit(ev.app);
      break;
    case EV_SNAPSHOT_BEGIN:
      take_snapshot(0);
      if (E.v2) { /* v2: the strategy takes over from FairShare at the start of the measured half */
        E.sharing = E.s->sharing;
        E.sharing_params = &E.s->sharing_params;
        for (int r = 0; r <= E.nres; r++)
          E.res[r].dirty = 1;
      }
      break;
    case EV_SNAPSHOT_END:
      take_snapshot(1);
      break;
    case EV_TICK:
      for (int r = 0; r <= E.nres; r++)
        E.res[r].dirty = 1;
      break;
    }
  }
  return wakes;
}

/* After a batch of events: start queued jobs, decide on every resource whose set of transfers changed. */
static void decide_all(void) {
  if (E.s->queue) schedule_jobs();
  for (int r = 0; r <= E.nres; r++)
    if (E.res[r].dirty) {
      E.res[r].dirty = 0;
      decide(&E.res[r]);
    }
  progress_line(0);
}

static void controller_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  int stop = E.s->stop_at_end && !isnan(E.t_end);
  while (E.apps_left > 0 || (stop && !E.snap_end_done)) {
    /* wait for an event, or (direct path) for the next completion date */
    double next = ios_tr_next_completion();
    long got = 1;
    if (next < INFINITY)
      got = sg_sem_acquire_timeout(E.sem, next > now() ? next - now() : 0.0) == 0;
    else
      sg_sem_acquire(E.sem);
    /* let every actor woken at this date report first, so one decision covers all simultaneous events */
    int before;
    do {
      before = E.qlen;
      sg_actor_yield();
    } while (E.qlen != before);
    ios_tr_complete_due();
    long wakes = handle_events();
    for (; wakes > got; wakes--)
      sg_sem_acquire(E.sem); /* consume the releases of the events handled in this batch */
    decide_all();
    if (E.overflow) { /* out of actors: stop here (the run reports an error, no result) */
      sg_actor_kill_all();
      return;
    }
    if (stop && E.snap_end_done) {
      sg_actor_kill_all();
      return;
    }
  }
}

static void timer_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  if (E.t_begin > 0) sg_actor_sleep_for(E.t_begin);
  push_event(EV_SNAPSHOT_BEGIN, -1, NULL, 0, 1);
  if (!isnan(E.t_end)) {
    sg_actor_sleep_for(E.t_end - now());
    push_event(EV_SNAPSHOT_END, -1, NULL, 0, 1);
  }
}

/* Extra decision events on a grid: controller.tick_s from 0, or a periodic sharing policy's δ from T_begin
 * (RR-9502 §4.1). The actor's data points to its grid (E.grids). */
typedef struct grid grid_t;

static void tick_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  const grid_t *g = sg_actor_self_get_data();
  for (double next = g->start + g->period; E.apps_left > 0; next += g->period) {
    if (next > now()) sg_actor_sleep_for(next - now());
    push_event(EV_TICK, -1, NULL, 0, 1);
  }
}

/* What an application does next (app_advance). */
enum { APP_SLEEP, APP_WAIT, APP_DONE };

/* Runs application `as` from where it stands at the current date until it must wait: APP_SLEEP (a work phase of
 * *sleep_s seconds started), APP_WAIT (an I/O operation posted: the controller resumes it at its completion) or
 * APP_DONE (its last phase ended). The same steps drive an application actor (flow path) and the controller's
 * calendar (direct path). */
static int app_advance(app_state_t *as, double *sleep_s) {
  int j = (int)(as - E.apps);
  for (; as->phase < as->a->nphases; as->phase++) {
    const ios_phase_t *ph = &as->a->phases[as->phase];
    if (!ph->is_io) {
      if (as->state != ST_WORK) { /* start the work phase */
        as->state = ST_WORK;
        as->phase_start = now();
        *sleep_s = ph->value;
        return APP_SLEEP;
      }
      ev_row(j, "work", "", as->phase_start, now(), -1); /* it has just ended */
      as->work_done += ph->value;
      as->last_work += ph->value;
      as->state = ST_WAITING;
    } else if (ph->value > 0 && !as->posted_op) {
      as->state = ST_IO;
      as->posted_op = 1;
      as->posted = (as->phase == 0 && as->a->first_posted < 0) ? as->a->first_posted : now();
      push_event(EV_POST, j, NULL, 0, !E.calendar);
      return APP_WAIT;
    } else
      as->posted_op = 0; /* its operation is complete (or empty) */
  }
  as->state = ST_DONE;
  as->end = now();
  push_event(EV_APP_END, j, NULL, 0, !E.calendar);
  return APP_DONE;
}

static void app_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  app_state_t *as = sg_actor_self_get_data();
  int j = (int)(as - E.apps);
  if (E.s->queue) { /* submitted at its release time, started by the controller when nodes are free */
    if (as->a->release > 0) sg_actor_sleep_for(as->a->release);
    push_event(EV_SUBMIT, j, NULL, 0, 1);
    sg_sem_acquire(as->sem);
  } else if (as->start > now())
    sg_actor_sleep_for(as->start - now());
  for (;;) {
    double d = 0;
    int next = app_advance(as, &d);
    if (next == APP_SLEEP)
      sg_actor_sleep_for(d);
    else if (next == APP_WAIT)
      sg_sem_acquire(as->sem);
    else
      break;
  }
  E.actors--;
}

/* ---------------------------------------------------------------- calendar (direct path, no job queue) */

/* With the direct path and no job queue, no SimGrid activity other than the passing of time is left: the controller
 * runs the applications itself (app_advance) from a calendar of dated wake-ups (work phases' ends, starts, window
 * snapshots, decision grids) and sleeps on SimGrid's clock from one date to the next. It reproduces the actors' order
 * of events: at one date, the wake-ups in calendar order, then the completions, one decision over them all; then the
 * applications resumed by those completions, whose new operations form the next batch at the same date. */
enum { CAL_APP, CAL_SNAP_BEGIN, CAL_SNAP_END, CAL_TICK };

typedef struct cal_entry {
  double date;
  long seq;
  int kind, idx;
} cal_entry_t;

static int cal_before(const cal_entry_t *a, const cal_entry_t *b) {
  return a->date < b->date || (a->date == b->date && a->seq < b->seq);
}

static void cal_push(double date, int kind, int idx) {
  if (E.ncal == E.calcap) {
    int ncap = E.calcap ? 2 * E.calcap : 64;
    cal_entry_t *c = realloc(E.cal, sizeof *c * (size_t)ncap);
    if (c == NULL) xbt_die("iosim: out of memory for the calendar");
    E.cal = c;
    E.calcap = ncap;
  }
  cal_entry_t e = {date, E.calseq++, kind, idx};
  int i = E.ncal++;
  while (i > 0 && cal_before(&e, &E.cal[(i - 1) / 2])) {
    E.cal[i] = E.cal[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  E.cal[i] = e;
}

static cal_entry_t cal_pop(void) {
  cal_entry_t top = E.cal[0], last = E.cal[--E.ncal];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= E.ncal) break;
    if (c + 1 < E.ncal && cal_before(&E.cal[c + 1], &E.cal[c])) c++;
    if (!cal_before(&E.cal[c], &last)) break;
    E.cal[i] = E.cal[c];
    i = c;
  }
  if (E.ncal > 0) E.cal[i] = last;
  return top;
}

/* Application j runs at the current date until it waits; a work phase puts its end in the calendar. */
static void cal_app(int j) {
  double d = 0;
  if (app_advance(&E.apps[j], &d) == APP_SLEEP) cal_push(now() + d, CAL_APP, j);
}

static void cal_fire(cal_entry_t e) {
  switch (e.kind) {
  case CAL_APP:
    cal_app(e.idx);
    break;
  case CAL_SNAP_BEGIN:
    push_event(EV_SNAPSHOT_BEGIN, -1, NULL, 0, 0);
    break;
  case CAL_SNAP_END:
    push_event(EV_SNAPSHOT_END, -1, NULL, 0, 0);
    break;
  case CAL_TICK:
    push_event(EV_TICK, -1, NULL, 0, 0);
    if (E.apps_left > 0) cal_push(e.date + E.grids[e.idx].period, CAL_TICK, e.idx);
    break;
  }
}

/* SimGrid's timing precision: activities ending within it of the current date end together (ios_transfer.h). */
#define CAL_PRECISION 1e-9

static void calendar_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  int stop = E.s->stop_at_end && !isnan(E.t_end);
  while (E.apps_left > 0 || (stop && !E.snap_end_done)) {
    if (E.qlen == 0) { /* nothing more at this date: on to the next one */
      double next = ios_tr_next_completion();
      if (E.ncal > 0 && E.cal[0].date < next) next = E.cal[0].date;
      if (!(next < INFINITY)) { /* every pending transfer at rate 0 and nothing else to come: as SimGrid's deadlock */
        XBT_WARN("nothing can progress at %.17g s: %d applications wait on transfers the sharing policy gives no "
                 "bandwidth, and no event is due",
                 now(), E.apps_left);
        break;
      }
      if (next > now()) {
        if (E.own_clock)
          E.clock = next;
        else
          sg_actor_sleep_for(next - now());
      }
      while (E.ncal > 0 && E.cal[0].date <= now() + CAL_PRECISION)
        cal_fire(cal_pop());
      ios_tr_complete_due();
    }
    handle_events();
    decide_all();
    if (stop && E.snap_end_done) break;
    int n = E.nresume;
    E.nresume = 0;
    for (int i = 0; i < n; i++)
      cal_app(E.resume[i]);
  }
  if (E.own_clock && E.clock > simgrid_get_clock()) { /* SimGrid's clock ends where the simulation did */
    double end = E.clock;
    E.own_clock = 0;
    sg_actor_sleep_for(end - simgrid_get_clock());
  }
}

static void spawn_app(int j) {
  sg_actor_t a = sg_actor_init(E.apps[j].a->name, E.apps[j].host);
  sg_actor_set_data(a, &E.apps[j]);
  sg_actor_start(a, app_actor, 0, NULL);
}

static int cmp_start(const void *pa, const void *pb) {
  int a = *(const int *)pa, b = *(const int *)pb;
  double x = E.apps[a].start, y = E.apps[b].start;
  return x < y ? -1 : x > y ? 1 : (a > b) - (a < b);
}

/* Replay: each application's actor is created at its start, so only running ones hold an actor (a year of storage
 * requests would otherwise keep 24,000 sleeping actors). */
static void launcher_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  for (int i = 0; i < E.napps && !E.overflow; i++) {
    int j = E.launch_order[i];
    if (E.apps[j].start > now()) sg_actor_sleep_for(E.apps[j].start - now());
    if (!actor_reserve()) {
      push_event(EV_TICK, -1, NULL, 0, 1); /* wake the controller, which stops the run */
      return;
    }
    spawn_app(j);
  }
}

/* ---------------------------------------------------------------- set-up */

/* b_j(n) with the platform's default when the application has no profile: min(Q_j·b_nic, n·C) (RR-9502 Eq. 1). */
static void fill_profile(const ios_app_t *a, ios_profile_t *prof) {
  if (a->has_profile) {
    *prof = a->profile;
    return;
  }
  memset(prof, 0, sizeof *prof);
  int nmax = E.nres < IOS_PROFILE_MAX ? E.nres : IOS_PROFILE_MAX;
  double c = 0;
  for (int r = 0; r < E.nres; r++)
    c += E.p->res[r].capacity;
  c /= E.nres;
  double nic = a->nodes * E.p->nic_bw;
  for (int n = 1; n <= nmax; n++) {
    prof->n[prof->npoints] = n;
    prof->bw[prof->npoints++] = nic < n * c ? nic : n * c;
  }
  if (E.nres > IOS_PROFILE_MAX) {
    prof->n[prof->npoints - 1] = E.nres;
    prof->bw[prof->npoints - 1] = nic < E.nres * c ? nic : E.nres * c;
  }
}

/* Closes a CSV written through temporary file `tmp` and renames it to DIR/name (removed on failure). */
static int close_csv(FILE **f, const char *tmp, const char *dir, const char *name) {
  if (*f == NULL) return IOS_OK;
  char final[4200];
  snprintf(final, sizeof final, "%s/%s", dir, name);
  int bad = ferror(*f);
  bad |= fclose(*f) != 0;
  *f = NULL;
  if (bad || rename(tmp, final) != 0) {
    remove(tmp);
    ios_diag_set(final, NULL, "cannot write (%s): check free space", strerror(errno));
    return IOS_EIO;
  }
  return IOS_OK;
}

/* events.csv (output.events) and allocations.csv, written through temporary files renamed when the run has finished
 * (close_traces), removed if it fails (release_engine). */
static int open_traces(const ios_scenario_t *s) {
  if (s->events) {
    snprintf(E.ev_tmp, sizeof E.ev_tmp, "%s/.events.csv.tmp", s->out_dir);
    if ((E.ev = fopen(E.ev_tmp, "w")) == NULL) {
      ios_diag_set(E.ev_tmp, "output.events", "cannot write (%s): choose a writable output.dir", strerror(errno));
      return IOS_EIO;
    }
    fputs("app,kind,resource,start_s,end_s,bytes,rate_Bps\n", E.ev);
  }
  snprintf(E.al_tmp, sizeof E.al_tmp, "%s/.allocations.csv.tmp", s->out_dir);
  if ((E.al = fopen(E.al_tmp, "w")) == NULL) {
    ios_diag_set(E.al_tmp, "output.dir", "cannot write (%s): choose a writable output.dir", strerror(errno));
    return IOS_EIO;
  }
  fputs("app,start_s,end_s,n_resources,resources\n", E.al);
  return IOS_OK;
}

static int close_traces(const ios_scenario_t *s) {
  int rc = close_csv(&E.al, E.al_tmp, s->out_dir, "allocations.csv");
  if (close_csv(&E.ev, E.ev_tmp, s->out_dir, "events.csv") != IOS_OK) rc = IOS_EIO;
  return rc;
}

static void receiver_start(sg_host_t host, const char *mbox) {
  char *argv[] = {"receiver", (char *)mbox, NULL};
  sg_actor_t a = sg_actor_init("receiver", host);
  sg_actor_daemonize(a);
  sg_actor_start(a, ios_sg_receiver_main, 2, argv);
}

/* Frees what the engine state owns (after a run, or a set-up that failed part-way); CSVs still open belong to a
 * failed set-up and are removed with their temporary files. */
static void release_engine(int napps, int nres) {
  for (int j = 0; E.apps != NULL && j < napps; j++) {
    for (int i = 0; E.apps[j].t != NULL && i < E.apps[j].tcap; i++)
      ios_tr_dispose(&E.apps[j].t[i]);
    free(E.apps[j].res);
    free(E.apps[j].t);
    free(E.apps[j].next_res);
    free(E.apps[j].hosts);
    if (E.apps[j].sem != NULL) sg_sem_destroy(E.apps[j].sem);
  }
  for (int i = 0; E.res != NULL && i <= nres; i++)
    free(E.res[i].active);
  if (E.sem != NULL) sg_sem_destroy(E.sem);
  free(E.waiting);
  free(E.free_hosts);
  free(E.ost_oss);
  free(E.launch_order);
  free(E.cal);
  free(E.resume);
  free(E.app_stripe_params);
  free(E.profiles_owned);
  free(E.views_owned);
  free(E.seen);
  free(E.alloc_n);
  ios_stripe_state_free(&E.stripe_state);
  free(E.apps);
  free(E.res);
  free(E.q);
  free(E.views);
  free(E.rates);
  free(E.vt);
  ios_tr_fini();
  FILE **open_csv[2] = {&E.al, &E.ev};
  const char *tmp[2] = {E.al_tmp, E.ev_tmp};
  for (int k = 0; k < 2; k++)
    if (*open_csv[k] != NULL) {
      fclose(*open_csv[k]);
      *open_csv[k] = NULL;
      remove(tmp[k]);
    }
}

/* Striping (scenario `striping` or an application's own): the regular oss-ost topology (`iosim platform oss-ost`: OST k
 * on OSS k div (N/S), client k through router rtr(k mod R)), the shared usage state and each application's policy. */
static int setup_striping(const ios_scenario_t *s, const ios_platform_t *p, const ios_workload_t *w) {
  int any = s->striping != NULL;
  for (int j = 0; j < w->napps; j++)
    any |= w->apps[j].striping[0] != '\0';
  if (!any) return IOS_OK;
  if (strcmp(p->pool_role, "ost") != 0 || p->noss < 1 || p->nres % p->noss != 0) {
    ios_diag_set(s->platform, "striping",
                 "striping needs OSTs behind object storage servers, the same number per server (this platform has "
                 "%d %s resources and %d oss hosts): use `iosim platform oss-ost`",
                 p->nres, p->pool_role, p->noss);
    return IOS_EINVAL;
  }
  E.ost_oss = malloc(sizeof *E.ost_oss * (size_t)p->nres);
  E.app_stripe_params = calloc((size_t)(w->napps > 0 ? w->napps : 1), sizeof *E.app_stripe_params);
  if (E.ost_oss == NULL || E.app_stripe_params == NULL) return IOS_ENOMEM;
  int rc = ios_stripe_topo_regular(&E.topo, E.ost_oss, p->noss, p->nres / p->noss, p->nrouters, p->ncompute);
  if (rc == IOS_OK) rc = ios_stripe_state_init(&E.stripe_state, &E.topo);
  if (rc != IOS_OK) {
    ios_diag_set(s->platform, "striping", "cannot describe this platform's storage path for striping");
    return rc;
  }
  ios_rng_seed(&E.stripe_rng, s->seed, 91);
  for (int j = 0; j < w->napps; j++) {
    app_state_t *as = &E.apps[j];
    const ios_app_t *a = &w->apps[j];
    const char *pname = a->striping[0] != '\0' ? a->striping : s->striping != NULL ? s->striping->name : NULL;
    if (pname == NULL) continue;
    if ((as->stripe = ios_striping_find(pname)) == NULL) {
      ios_diag_set(s->file, a->name, "unknown striping policy '%s': use lustre-default, optimized-striping or bpio",
                   pname);
      return IOS_EINVAL;
    }
    if (as->stripe == s->striping)
      as->stripe_params = &s->striping_params;
    else {
      ios_params_defaults(as->stripe->nparams, as->stripe->params, &E.app_stripe_params[j]);
      as->stripe_params = &E.app_stripe_params[j];
    }
    as->layout = a->layout >= 0 ? a->layout : s->striping_layout;
  }
  return IOS_OK;
}

/* Actors this process can hold: half of vm.max_map_count (a stack and its guard page each) minus a margin for the
 * libraries and the heap; IOSIM_MAX_ACTORS overrides it (tests). */
static long actor_budget(void) {
  const char *env = getenv("IOSIM_MAX_ACTORS");
  if (env != NULL && atol(env) > 0) return atol(env);
  long maps = 65530;
  FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
  if (f != NULL) {
    if (fscanf(f, "%ld", &maps) != 1) maps = 65530;
    fclose(f);
  }
  return maps / 2 > 8000 ? maps / 2 - 4000 : maps / 4;
}

/* Allocation and placement of every application: the scenario's policies decide for the applications without given
 * resources (ios_app_t.given), the others keep theirs. alloc_n[napps] out; *placed_out = the resource indices of
 * the applications in order (owned by the caller). */
static int arbitrate_all(const ios_scenario_t *s, const ios_platform_t *p, const ios_workload_t *w,
                         const ios_app_view_t *views, int *alloc_n, int **placed_out) {
  int napps = w->napps, k = 0, total = 0;
  *placed_out = NULL;
  for (int j = 0; j < napps; j++) {
    const ios_app_t *a = &w->apps[j];
    if (a->given == NULL) continue;
    if (s->queue) {
      ios_diag_set(s->file, a->name,
                   "resources given by the workload cannot be re-arbitrated by a job queue: "
                   "drop queue.enabled");
      return IOS_EINVAL;
    }
    if (a->ngiven == 0 && (!p->has_pfs || ios_profile_bw(views[j].profile, 0) <= 0)) {
      ios_diag_set(s->file, a->name, "gets direct PFS access but %s",
                   p->has_pfs ? "its profile has no point n = 0: give one" : "the platform has no role=pfs host");
      return IOS_EINVAL;
    }
    for (int i = 0; i < a->ngiven; i++)
      if (a->given[i] < 0 || a->given[i] >= p->nres) {
        ios_diag_set(s->file, a->name, "given resource index %d is not one of the platform's %d resources", a->given[i],
                     p->nres);
        return IOS_EINVAL;
      }
  }
  int *sel = malloc(sizeof *sel * (size_t)(napps > 0 ? napps : 1));
  int *pol_n = malloc(sizeof *pol_n * (size_t)(napps > 0 ? napps : 1));
  int *pol_res = NULL, rc = sel && pol_n ? IOS_OK : IOS_ENOMEM;
  for (int j = 0; rc == IOS_OK && j < napps; j++)
    if (w->apps[j].given == NULL) sel[k++] = j;
  if (rc == IOS_OK && k > 0) rc = ios_arbitrate(s, p, w, views, sel, k, 1, pol_n, &pol_res);
  for (int j = 0, i = 0; rc == IOS_OK && j < napps; j++) {
    alloc_n[j] = w->apps[j].given != NULL ? w->apps[j].ngiven : pol_n[i++];
    total += alloc_n[j];
  }
  int *placed = rc == IOS_OK ? malloc(sizeof *placed * (size_t)(total > 0 ? total : 1)) : NULL;
  if (rc == IOS_OK && placed == NULL) rc = IOS_ENOMEM;
  for (int j = 0, off = 0, poff = 0; rc == IOS_OK && j < napps; j++) {
    const int *from = w->apps[j].given != NULL ? w->apps[j].given : pol_res + poff;
    memcpy(placed + off, from, sizeof *placed * (size_t)alloc_n[j]);
    if (w->apps[j].given == NULL) poff += alloc_n[j];
    off += alloc_n[j];
  }
  free(sel);
  free(pol_n);
  free(pol_res);
  if (rc == IOS_OK) *placed_out = placed;
  return rc;
}

/* The transfer layer's path for this run (ios_transfer.h, docs/engine.md): direct when the sharing policy decides
 * every rate itself (not max-min, no striping) and no link between the applications' hosts and the resources can bind
 * those rates; SimGrid flows otherwise, or when the scenario asks for them (engine.flows). */
static int choose_transfer_path(const ios_scenario_t *s, const ios_platform_t *p) {
  int direct = !s->flows_simgrid && !s->replay && !s->sharing->uncapped;
  for (int j = 0; direct && j < E.napps; j++)
    direct = E.apps[j].stripe == NULL;
  if (direct) {
    /* the (host, resource) pairs transfers can use, grouped by resource: each application's first node to its
     * resources (the PFS when it has none); with a job queue, any compute node to any resource */
    int nres = p->nres + (p->has_pfs ? 1 : 0), hosts = s->queue ? p->ncompute : E.napps, npairs = 0;
    size_t most = (size_t)hosts * (size_t)(nres > 0 ? nres : 1) + 1;
    sg_host_t *from = malloc(sizeof *from * most), *res_hosts = malloc(sizeof *res_hosts * (size_t)(nres + 1));
    int *to = malloc(sizeof *to * most);
    double *cap = malloc(sizeof *cap * (size_t)(nres + 1));
    int ok = from && res_hosts && to && cap ? 1 : -1;
    for (int r = 0; ok > 0 && r < nres; r++) {
      const ios_resource_t *res = r < p->nres ? &p->res[r] : &p->pfs;
      res_hosts[r] = res->host;
      cap[r] = res->capacity;
      for (int h = 0; h < hosts; h++) {
        int uses = s->queue;
        for (int i = 0; !uses && i < E.apps[h].n; i++)
          uses = E.apps[h].res[i] == r;
        uses |= !s->queue && r == p->nres && E.apps[h].n == 0;
        if (!uses) continue;
        from[npairs] = s->queue ? p->compute[h] : E.apps[h].host;
        to[npairs++] = r;
      }
    }
    if (ok > 0) ok = ios_tr_direct_possible(npairs, from, to, res_hosts, cap);
    free(from);
    free(res_hosts);
    free(to);
    free(cap);
    if (ok < 0) return IOS_ENOMEM;
    direct = ok;
  }
  E.direct = direct;
  /* IOSIM_APP_ACTORS=1 keeps application actors on the direct path: the benchmark's side-by-side (docs/engine.md) */
  const char *actors = getenv("IOSIM_APP_ACTORS");
  E.calendar = direct && !s->queue && !(actors != NULL && strcmp(actors, "1") == 0);
  /* IOSIM_SIMGRID_CLOCK=1: the calendar sleeps on SimGrid's clock from date to date (same side-by-side) */
  const char *sgclock = getenv("IOSIM_SIMGRID_CLOCK");
  E.own_clock = E.calendar && !(sgclock != NULL && strcmp(sgclock, "1") == 0);
  E.clock = 0;
  XBT_VERB("transfers: %s", direct ? "direct (no link can bind the policy's rates)" : "SimGrid flows");
  return ios_tr_init(direct, now, &tr_hooks) == 0 ? IOS_OK : IOS_ENOMEM;
}

/* Starts what simulates: the applications (actors, a launcher for a replay, or the controller's calendar), the
 * controller, the window timer and the decision grids. With more applications than the actor budget it starts nothing
 * and sets E.overflow. @return IOS_OK or IOS_ENOMEM. */
static int start_simulation(const ios_scenario_t *s, const ios_platform_t *p, int napps) {
  E.actor_budget = actor_budget();
  /* SimGrid maps each actor's stack (8 MiB by default) and unmaps it when the actor ends; on the flow path an actor
   * lives for one flow segment, and with 256 KiB stacks the mapping costs a third of the kernel time (docs/engine.md)
   * while leaving far more than the engine's deepest call chain needs */
  if (ios_sg_set_config("contexts/stack-size:" IOS_ACTOR_STACK_KIB) != 0)
    XBT_WARN("SimGrid refused contexts/stack-size:" IOS_ACTOR_STACK_KIB);
  if (s->replay) {
    E.launch_order = malloc(sizeof *E.launch_order * (size_t)(napps > 0 ? napps : 1));
    if (E.launch_order == NULL) return IOS_ENOMEM;
    for (int j = 0; j < napps; j++)
      E.launch_order[j] = j;
    qsort(E.launch_order, (size_t)napps, sizeof *E.launch_order, cmp_start);
    sg_actor_start(sg_actor_init("launcher", p->controller), launcher_actor, 0, NULL);
  } else if (!E.calendar) {
    if (napps > E.actor_budget) {
      E.overflow = 1; /* the run stops before it starts */
      return IOS_OK;
    }
    for (int j = 0; j < napps; j++) {
      E.actors++;
      spawn_app(j);
    }
  }
  E.grids[0] = (grid_t){0.0, s->tick_s};
  E.grids[1] = (grid_t){E.t_begin, E.period};
  if (E.calendar) { /* the same wake-ups as the actors', in the order the actors are created */
    E.resume = malloc(sizeof *E.resume * (size_t)(napps > 0 ? napps : 1));
    if (E.resume == NULL) return IOS_ENOMEM;
    for (int j = 0; j < napps; j++)
      cal_push(E.apps[j].start > 0 ? E.apps[j].start : 0.0, CAL_APP, j);
    cal_push(E.t_begin > 0 ? E.t_begin : 0.0, CAL_SNAP_BEGIN, -1);
    if (!isnan(E.t_end)) cal_push(E.t_end, CAL_SNAP_END, -1);
    for (int g = 0; g < 2; g++)
      if (E.grids[g].period > 0) cal_push(E.grids[g].start + E.grids[g].period, CAL_TICK, g);
    sg_actor_start(sg_actor_init("controller", p->controller), calendar_actor, 0, NULL);
  } else {
    sg_actor_start(sg_actor_init("controller", p->controller), controller_actor, 0, NULL);
    sg_actor_t timer = sg_actor_init("window", p->controller);
    sg_actor_daemonize(timer);
    sg_actor_start(timer, timer_actor, 0, NULL);
    for (int g = 0; g < 2; g++)
      if (E.grids[g].period > 0) {
        sg_actor_t tick = sg_actor_init(g == 0 ? "tick" : "period", p->controller);
        sg_actor_daemonize(tick);
        sg_actor_set_data(tick, &E.grids[g]);
        sg_actor_start(tick, tick_actor, 0, NULL);
      }
  }
  return IOS_OK;
}

/* What allocation and placement policies know of each application (RR-9549 Table 2), which may be less than the
 * truth (RR-9549 §6.2), and whether the workload fits the compute nodes. Fills E.profiles (the true b_j(n)), E.seen
 * and E.app_views. */
static int setup_knowledge(const ios_scenario_t *s, const ios_platform_t *p, const ios_workload_t *w) {
  ios_profile_t *profiles = E.profiles_owned, *seen = E.seen;
  ios_app_view_t *views = E.views_owned;
  long long total_nodes = 0; /* many applications of many nodes must not overflow an int */
  int biggest = 0;
  for (int j = 0; j < w->napps; j++) {
    fill_profile(&w->apps[j], &profiles[j]);
    ios_app_totals(&w->apps[j], &views[j].work, &views[j].volume);
    views[j].nodes = w->apps[j].nodes;
    seen[j] = profiles[j];
    views[j].profile = &seen[j];
    views[j].requested_n = w->apps[j].requested_n;
    views[j].processes = w->apps[j].processes > 0 ? w->apps[j].processes : w->apps[j].nodes;
    total_nodes += w->apps[j].nodes;
    biggest = w->apps[j].nodes > biggest ? w->apps[j].nodes : biggest;
  }
  if (s->group_fit && ios_knowledge_group_fit(w->napps, seen, (int)s->fit_degree, s->fit_flat) != IOS_OK)
    return IOS_ENOMEM;
  ios_knowledge_noise(w->napps, views, s->knowledge_noise, s->seed);
  if (!s->replay && (s->queue ? biggest > p->ncompute : total_nodes > p->ncompute)) {
    ios_diag_set(s->platform, "compute nodes",
                 s->queue
                     ? "an application needs %lld compute nodes but the platform has %d: it could never start; use "
                       "a larger platform (iosim platform KIND --set compute=N, or platform.compute in a "
                       "platform object) or a smaller application"
                     : "the applications need %lld compute nodes but the platform has %d: use a larger platform "
                       "(iosim platform KIND --set compute=N, or platform.compute in a platform object), fewer "
                       "applications, or a job queue (queue.enabled)",
                 s->queue ? (long long)biggest : total_nodes, p->ncompute);
    return IOS_EINVAL;
  }
  E.profiles = profiles;
  E.app_views = views;
  return IOS_OK;
}

/* The job queue's state: no job waits yet, every compute node is free. */
static int setup_queue(const ios_platform_t *p, int napps) {
  E.waiting = malloc(sizeof *E.waiting * (size_t)(napps > 0 ? napps : 1));
  E.free_hosts = malloc(sizeof *E.free_hosts * (size_t)(p->ncompute > 0 ? p->ncompute : 1));
  if (E.waiting == NULL || E.free_hosts == NULL) return IOS_ENOMEM;
  for (int i = p->ncompute - 1; i >= 0; i--) /* a stack: jobs take the lowest free indices first */
    E.free_hosts[E.nfree++] = i;
  return IOS_OK;
}

/* Storage replay: b = the application's NICs; a flow needs no bound of its own when they exceed every link it can
 * use (fewer flow bounds: SimGrid's max-min solves much faster). */
static void replay_cap(const ios_platform_t *p, app_state_t *as) {
  double links = as->n > 0 ? 0.0 : p->pfs.capacity;
  for (int i = 0; i < as->n; i++) {
    int seen = 0;
    for (int k = 0; k < i && !seen; k++)
      seen = as->res[k] == as->res[i];
    links += seen ? 0.0 : p->res[as->res[i]].capacity;
  }
  if (as->b >= links) as->cap = INFINITY;
}

/* Where application j runs and from when: a queued job nowhere until it starts; a replayed request on the compute
 * hosts in turn (the compute side is a FATPIPE); otherwise on its own nodes from its release. */
static void place_app(const ios_scenario_t *s, const ios_platform_t *p, int j, int *host_cursor) {
  app_state_t *as = &E.apps[j];
  if (s->queue) {
    as->host = p->controller;
    as->start = NAN;
    as->n = 0;
    return;
  }
  int h = s->replay ? j % p->ncompute : *host_cursor;
  if (!s->replay) *host_cursor += as->a->nodes;
  as->host = p->compute[h];
  as->host0 = h;
  as->start = ios_app_start(as->a);
  as->started = as->has_alloc = 1;
  as->alloc_since = as->start;
}

/* Application j's state from its allocation (n resources at placed[0..n)), and its result's resources. */
static int setup_app(const ios_scenario_t *s, const ios_platform_t *p, int j, const int *placed, int *host_cursor) {
  app_state_t *as = &E.apps[j];
  as->a = &E.w->apps[j];
  as->n = E.alloc_n[j];
  int room = s->queue ? (p->nres > 0 ? p->nres : 1) : (as->n > 0 ? as->n : 1);
  if (as->stripe != NULL && room < as->a->nodes * p->nres) room = as->a->nodes * p->nres; /* (writer, OST) flows */
  as->tcap = room;
  as->res = malloc(sizeof *as->res * (size_t)room);
  as->t = calloc((size_t)room, sizeof *as->t);
  if (s->queue) {
    as->next_res = malloc(sizeof *as->next_res * (size_t)room);
    as->hosts = malloc(sizeof *as->hosts * (size_t)as->a->nodes);
  }
  ios_app_result_t *ar = &E.r->apps[j];
  ar->resources = malloc(sizeof *ar->resources * (size_t)room); /* a queued job's last allocation may be larger */
  if (!as->res || !as->t || (s->queue && (!as->next_res || !as->hosts)) || !ar->resources) return IOS_ENOMEM;
  memcpy(as->res, placed, sizeof *as->res * (size_t)as->n);
  as->b = ios_profile_bw(&E.profiles[j], as->n);
  as->cap = as->b / (as->n > 0 ? as->n : 1);
  if (s->replay) replay_cap(p, as);
  as->sem = sg_sem_init(0);
  as->end = NAN;
  for (int i = 0; i < room; i++)
    as->t[i].slot = -1;
  place_app(s, p, j, host_cursor);
  for (int i = 0; !s->replay && i < as->n; i++)
    if (as->cap > p->res[as->res[i]].capacity * (1 + 1e-12))
      XBT_WARN("application %s: its cap %.6g B/s per resource exceeds the capacity of %s (%.6g B/s); the platform "
               "limits it",
               as->a->name, as->cap, p->res[as->res[i]].name, p->res[as->res[i]].capacity);
  ar->n_resources = as->n;
  memcpy(ar->resources, as->res, sizeof *as->res * (size_t)as->n);
  ar->bandwidth = as->b;
  return IOS_OK;
}

/* Every resource's state (index nres: the PFS of direct access), and its receiver on the flow path. */
static void setup_resources(const ios_platform_t *p) {
  for (int i = 0; i <= p->nres; i++) {
    if (i == p->nres && !p->has_pfs) break;
    const ios_resource_t *res = i < p->nres ? &p->res[i] : &p->pfs;
    E.res[i].r = res;
    E.res[i].mbox = sg_mailbox_by_name(res->name);
    if (!E.direct) receiver_start(res->host, res->name);
  }
}

/* The window (ios_window_choose), the v2 mode's switch at its middle, and δ of a periodic sharing policy. */
static int setup_window(const ios_scenario_t *s, const ios_workload_t *w) {
  double *start = malloc(sizeof *start * (size_t)(w->napps > 0 ? 2 * w->napps : 1));
  if (start == NULL) return IOS_ENOMEM;
  double *b = start + w->napps;
  for (int j = 0; j < w->napps; j++) {
    start[j] = E.apps[j].start;
    b[j] = E.apps[j].b;
  }
  ios_window_in_t in = {w, start, b, s->window_begin, s->window_end, s->window_fraction, s->queue || s->replay};
  E.r->window_kind = ios_window_choose(&in, &E.t_begin, &E.t_end);
  E.sharing = s->sharing;
  E.sharing_params = &s->sharing_params;
  int rc = IOS_OK;
  if (s->window_v2) { /* the reference's v2 windows: FairShare over the first half, objectives over the second */
    static const ios_params_t none = {{0}};
    if (isnan(E.t_end)) {
      ios_diag_set(s->file, "window.mode",
                   "v2 needs a window with an end (no steady-state window exists here): give window.begin_s and "
                   "window.end_s, or use mode v1");
      rc = IOS_EINVAL;
    }
    E.v2 = 1;
    E.t_begin = 0.5 * (E.t_begin + E.t_end);
    E.sharing = ios_sharing_find("fairshare");
    E.sharing_params = &none;
    E.r->window_kind = strcmp(E.r->window_kind, "given") == 0 ? "given-v2" : "steady-state-v2";
  }
  if (rc == IOS_OK && s->sharing->periodic) { /* δ given, or RR-9502 Eq. 5 */
    double delta = s->sharing->nparams > 0 ? s->sharing_params.v[0] : 0.0;
    if (!(delta > 0)) delta = ios_window_delta(&in, E.t_begin, E.t_end);
    if (!(delta > 0)) {
      ios_diag_set(s->file, "sharing",
                   "policy '%s' decides every δ seconds but δ cannot be derived (no steady-state window or no I/O "
                   "operation in it): give %s.%s > 0",
                   s->sharing->name, "sharing", s->sharing->nparams > 0 ? s->sharing->params[0].name : "delta_s");
      rc = IOS_EINVAL;
    }
    E.period = delta;
  }
  free(start);
  return rc;
}

/* Set-up: knowledge, allocation and placement, the applications' and resources' states, the transfer path, the
 * window, the traces. Nothing is simulated yet. */
static int setup(const ios_scenario_t *s, const ios_platform_t *p, const ios_workload_t *w) {
  int *placed = NULL, rc = setup_knowledge(s, p, w);
  /* allocation and placement once for the whole workload (RR-9549 §4: decisions for entire executions); with a job
   * queue this only validates the policies, which decide again over the running jobs as they change */
  if (rc == IOS_OK) rc = arbitrate_all(s, p, w, E.app_views, E.alloc_n, &placed);
  E.keep_running = s->rearbitrate == 0 ? s->allocation->keeps_running : s->rearbitrate == 2;
  if (rc == IOS_OK && s->queue) rc = setup_queue(p, w->napps);
  for (int j = 0; j < w->napps; j++)
    E.apps[j].a = &w->apps[j];
  if (rc == IOS_OK) rc = setup_striping(s, p, w);
  if (rc == IOS_OK) E.sem = sg_sem_init(0);
  for (int j = 0, host_cursor = 0, off = 0; rc == IOS_OK && j < w->napps; off += E.alloc_n[j], j++)
    rc = setup_app(s, p, j, placed + off, &host_cursor);
  free(placed);
  if (rc == IOS_OK) rc = choose_transfer_path(s, p);
  E.r->direct_transfers = E.direct;
  if (rc == IOS_OK) setup_resources(p);
  if (rc == IOS_OK) rc = setup_window(s, w);
  if (rc == IOS_OK) rc = open_traces(s);
  return rc;
}

/* Runs SimGrid to the end (or to the window's end); IOS_EINVAL when the run needs more actors than the budget. */
static int run(const ios_scenario_t *s, const ios_platform_t *p, int napps) {
  E.apps_left = napps;
  int rc = start_simulation(s, p, napps);
  if (rc != IOS_OK) return rc;
  if (!E.overflow) {
    simgrid_run();
    if (E.last_progress > 0) /* only runs long enough to have shown progress get a final line */
      progress_line(1);
  }
  if (!E.overflow) return IOS_OK;
  ios_diag_set(s->file, "concurrency",
               "the simulation needs more than %ld SimGrid actors at once at %.6g s (one per running application "
               "and one per transfer of a running application on the flow path; this machine's vm.max_map_count "
               "allows about that many): run "
               "fewer transfers at once (fewer or smaller concurrent jobs, fewer resources or split parts per job, "
               "a faster or larger storage tier), or raise the limit (sudo sysctl -w vm.max_map_count=1048576)",
               E.actor_budget, now());
  return IOS_EINVAL;
}

/* Each application's result; sets *first and *last (the earliest start and the latest end). */
static void collect_apps(const ios_scenario_t *s, double *first, double *last) {
  ios_results_t *r = E.r;
  *first = INFINITY;
  *last = 0;
  for (int j = 0; j < E.napps; j++) {
    app_state_t *as = &E.apps[j];
    ios_app_result_t *ar = &r->apps[j];
    ar->start = as->start;
    ar->end = as->end;
    ar->release = s->queue ? as->start : as->a->release; /* τ_i: a queued job's clock starts with it */
    if (s->queue) { /* the last allocation, and the dedicated bandwidth its operations saw on average */
      ar->n_resources = as->n;
      memcpy(ar->resources, as->res, sizeof *as->res * (size_t)as->n);
      ar->bandwidth = as->bytes_done > 0 && as->ded_io > 0 ? as->bytes_done / as->ded_io : as->b;
    }
    ar->work_time = as->work_done;
    ar->io_volume = as->bytes_done;
    ar->io_time = as->io_time;
    if (!r->complete) { /* stopped at the window's end: count the operations and work in progress */
      ar->work_time = ar->w_end;
      ar->io_volume = ar->v_end;
      if (as->state == ST_IO) ar->io_time += E.t_end - (as->posted > 0 ? as->posted : 0.0);
    }
    *first = as->start < *first ? as->start : *first;
    *last = (!isnan(as->end) && as->end > *last) ? as->end : *last;
  }
}

/* The window's progress: a whole run ends at the last completion; snapshots never taken are the end state. */
static void collect_window(double last) {
  ios_results_t *r = E.r;
  r->t_begin = E.t_begin;
  if (isnan(E.t_end)) { /* whole run: progress at the end is everything done */
    E.t_end = last;
    for (int j = 0; j < E.napps; j++) {
      r->apps[j].w_end = r->apps[j].work_time;
      r->apps[j].v_end = r->apps[j].io_volume;
    }
  }
  r->t_end = E.t_end;
  r->period_s = E.period;
  for (int j = 0; j < E.napps; j++) {
    if (!E.snap_end_done) { /* the window ends after the last completion */
      r->apps[j].w_end = r->apps[j].work_time;
      r->apps[j].v_end = r->apps[j].io_volume;
    }
    if (!E.snap_begin_done) { /* ... or even begins after it */
      r->apps[j].w_begin = r->apps[j].work_time;
      r->apps[j].v_begin = r->apps[j].io_volume;
    }
  }
}

/* Results: applications, window, resources, counters and metrics; the traces closed. */
static int collect(const ios_scenario_t *s, const ios_platform_t *p, const ios_workload_t *w) {
  ios_results_t *r = E.r;
  double first, last;
  r->complete = E.apps_left == 0;
  collect_apps(s, &first, &last);
  r->makespan_s = r->complete ? last - first : E.t_end - first;
  collect_window(last);
  double horizon = r->complete ? last : E.t_end, pool = 0;
  for (int j = 0; j < w->napps; j++) /* allocations of jobs stopped at the window's end */
    if (E.apps[j].has_alloc && E.apps[j].state != ST_DONE) al_row(&E.apps[j], E.apps[j].alloc_since, horizon);
  for (int i = 0; i < p->nres; i++) {
    if (E.res[i].nactive > 0) E.res[i].busy_time += horizon - E.res[i].busy_since;
    r->res[i].busy_time = E.res[i].busy_time;
    r->res[i].bytes = E.res[i].bytes;
    pool += p->res[i].capacity;
  }
  r->events = E.events;
  r->rate_changes = E.rate_changes;
  r->platform_limited_share = E.seg_bytes > 0 ? E.limited_bytes / E.seg_bytes : NAN;
  ios_metrics_compute(w, E.profiles, p->nres, pool, p->ncompute, r);
  r->wall_time_s = ios_clock_s() - E.wall0;
  return close_traces(s);
}

int ios_engine_run(const ios_scenario_t *s, const ios_platform_t *p, const ios_workload_t *w, ios_results_t *r) {
  memset(&E, 0, sizeof E);
  memset(r, 0, sizeof *r);
  E.wall0 = ios_clock_s();
  E.s = s;
  E.p = p;
  E.r = r;
  E.w = w;
  E.napps = r->napps = w->napps;
  E.nres = r->nres = p->nres;
  size_t napps = (size_t)w->napps;
  E.apps = calloc(napps, sizeof *E.apps);
  E.res = calloc((size_t)p->nres + 1, sizeof *E.res);
  r->apps = calloc(napps, sizeof *r->apps);
  r->res = calloc((size_t)p->nres, sizeof *r->res);
  E.profiles_owned = calloc(napps, sizeof *E.profiles_owned);
  E.views_owned = calloc(napps, sizeof *E.views_owned);
  E.seen = calloc(napps, sizeof *E.seen);
  E.alloc_n = calloc(napps, sizeof *E.alloc_n);
  int rc = E.apps && E.res && r->apps && r->res && E.profiles_owned && E.views_owned && E.seen && E.alloc_n
               ? IOS_OK
               : IOS_ENOMEM;
  if (rc == IOS_OK) rc = setup(s, p, w);
  if (rc == IOS_OK) rc = run(s, p, w->napps);
  if (rc == IOS_OK) rc = collect(s, p, w);
  release_engine(w->napps, p->nres); /* on failure nothing was simulated, or the run stopped: no results */
  return rc;
}
