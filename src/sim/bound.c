/* iosim — what bound each job during its I/O (apps.csv `bound_by`, `bound_share`; docs/outputs.md, docs/engine.md
 * "What bound a job"). At the start of every date's work, before anything changes, the interval since the previous
 * date is credited to one element per application with an operation pending: the element that bound its slowest
 * transfer (the one whose remaining bytes at its rate take longest: the one its operation waits for). Only the
 * transfers pending on the resources are visited (and on the flow path their flows' routes), never every link. */
#include "sim_bound.h"

#include "ios_sg.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

struct sim_bound {
  double last; /* s: the date of the previous accounting */
  long stamp;  /* accountings so far */
};

int sim_bound_init(engine_t *e) {
  e->bound = calloc(1, sizeof *e->bound);
  return e->bound != NULL ? IOS_OK : IOS_ENOMEM;
}

void sim_bound_fini(engine_t *e) {
  free(e->bound);
  e->bound = NULL;
}

static const double EPS = 1e-6;

/* The element that binds a transfer moving at `rate` (bytes/s) under the bound `bound` the policy gave it, whose
 * own cap (the job's b_j(n) per transfer, or its NIC share) is `cap`; `link`: the saturated link SimGrid found on
 * its route (flow path), or NULL. */
static const char *element(const engine_t *e, const app_state_t *as, const res_state_t *rs, double rate, double bound,
                           double cap, const char *link, int saturated) {
  if (isfinite(bound) && rate >= bound * (1 - EPS)) { /* it moved at the policy's rate */
    if (bound >= cap * (1 - EPS)) {                   /* at its own cap: what the cap stands for */
      const char *nic = link != NULL ? link : "nic";  /* its node's link when SimGrid saw it full */
      if (as->st.policy != NULL) return nic;          /* a striped writer's share of its node's NIC */
      if (as->a->has_profile) return "none";          /* a measured profile: the job itself */
      return as->b >= as->a->nodes * e->p->nic_bw * (1 - EPS) ? nic : rs->r->name; /* min(Q·b, n·C) */
    }
    return saturated ? rs->r->name : "none"; /* the policy's share of a full resource, or held back */
  }
  return link != NULL ? link : (saturated && !(rate > 0) ? rs->r->name : "none");
}

static void credit(app_state_t *as, const char *name, double dt) {
  app_bound_t *b = &as->bd;
  int k = 0;
  while (k < b->n && strcmp(b->name[k], name) != 0)
    k++;
  if (k == b->n) {
    if (b->n == SIM_BOUND_MAX)
      k = SIM_BOUND_MAX - 1; /* more elements than kept: the last slot collects the rest */
    else
      b->name[b->n++] = name;
  }
  b->s[k] += dt;
}

/* One candidate (a transfer, or one leg of it) for application as's binding element in this interval. */
static void offer(long stamp, app_state_t *as, const char *name, double rem, double rate) {
  double key = rate > 0 ? rem / rate : INFINITY;
  if (as->bd.stamp != stamp || key > as->bd.key) {
    as->bd.stamp = stamp;
    as->bd.key = key;
    as->bd.cur = name;
  }
}

void sim_bound_account(engine_t *e) {
  struct sim_bound *B = e->bound;
  double now = sim_now(e), dt = now - B->last;
  if (!(dt > 0)) return;
  B->last = now;
  long stamp = ++B->stamp;
  for (int r = 0; r <= e->nres; r++) {
    res_state_t *rs = &e->res[r];
    if (rs->nactive == 0 || rs->r == NULL) continue;
    double sum = 0;
    for (int i = 0; i < rs->nactive; i++)
      sum += isfinite(rs->active[i]->rate) ? rs->active[i]->rate : 0.0;
    int saturated = sum >= rs->r->capacity * (1 - EPS);
    for (int i = 0; i < rs->nactive; i++) {
      transfer_t *t = rs->active[i];
      app_state_t *as = &e->apps[t->app];
      if (e->direct) {
        offer(stamp, as, element(e, as, rs, t->rate, t->rate, t->cap, NULL, saturated), ios_tr_remaining(e->tr, t),
              t->rate);
        continue;
      }
      int nl = t->nlegs > 0 && t->legs != NULL ? t->nlegs : 0;
      for (int k = 0; k < (nl > 0 ? nl : 1); k++) {
        transfer_t *l = nl > 0 ? &t->legs[k] : t;
        double share = nl > 0 ? l->share : 1.0;
        if (l->flow == NULL) { /* waiting (rate 0), or its last byte arrived */
          if (!(t->rate > 0)) offer(stamp, as, element(e, as, rs, 0, t->rate, t->cap, NULL, saturated), INFINITY, 0);
          continue;
        }
        const char *link = NULL;
        double rate = ios_flow_binding(l->flow, &link);
        if (isnan(rate)) continue;
        double rem = ios_flow_remaining(l->flow) / ios_flow_members(l->flow);
        offer(stamp, as, element(e, as, rs, rate, t->rate * share, t->cap * share, link, saturated), rem, rate);
      }
    }
  }
  for (int r = 0; r <= e->nres; r++)
    for (int i = 0; i < e->res[r].nactive; i++) {
      app_state_t *as = &e->apps[e->res[r].active[i]->app];
      if (as->bd.stamp != stamp) continue;
      as->bd.stamp = -1; /* credited once */
      credit(as, as->bd.cur, dt);
    }
}

void sim_bound_result(const app_state_t *as, ios_app_result_t *ar) {
  const app_bound_t *b = &as->bd;
  int best = -1;
  for (int k = 0; k < b->n; k++)
    if (best < 0 || b->s[k] > b->s[best]) best = k;
  ar->bound_by[0] = '\0';
  ar->bound_share = NAN;
  if (best < 0 || !(ar->io_time > 0)) return;
  snprintf(ar->bound_by, sizeof ar->bound_by, "%s", b->name[best]);
  double share = b->s[best] / ar->io_time;
  ar->bound_share = share < 1 ? share : 1;
}
