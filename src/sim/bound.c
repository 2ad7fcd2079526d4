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

/* One candidate of an interval: a transfer (or leg) of application `app`, the element binding it, and its key. */
typedef struct {
  int app, is_res; /* is_res: the element is a resource of the pool (its name in resources.csv) */
  const char *name;
  double key; /* s: its remaining bytes over its rate */
} cand_t;

struct sim_bound {
  double last; /* s: the date of the previous accounting */
  long stamp;  /* accountings so far */
  cand_t *cand;
  int ncand, room;
  char **sets; /* the names of sets of elements that bound a job equally ("8 OSTs equally"), owned */
  int nsets;
};

int sim_bound_init(engine_t *e) {
  e->bound = calloc(1, sizeof *e->bound);
  return e->bound != NULL ? IOS_OK : IOS_ENOMEM;
}

void sim_bound_fini(engine_t *e) {
  if (e->bound != NULL) {
    for (int i = 0; i < e->bound->nsets; i++)
      free(e->bound->sets[i]);
    free(e->bound->sets);
    free(e->bound->cand);
  }
  free(e->bound);
  e->bound = NULL;
}

static const double EPS = 1e-6;

/* The element that binds a transfer moving at `rate` (bytes/s) under the bound `bound` the policy gave it, whose
 * own cap (the job's b_j(n) per transfer, or its NIC share) is `cap`; `link`: the saturated link SimGrid found on
 * its route (flow path), or NULL. */
static const char NOT_BOUND[] = "not bound"; /* nothing full held it (docs/outputs.md) */

/* The platform's name of the element `link` on a transfer's route to resource rs: the resource's own name when the link
 * is the one standing for its bandwidth (an OST `ost6` whose link is `ost6-dev`), else the link's. */
static const char *link_name(const res_state_t *rs, const char *link) {
  if (link == NULL || rs->r == NULL) return link;
  if ((rs->r->link != NULL && strcmp(link, rs->r->link) == 0) ||
      (rs->r->read_link != NULL && strcmp(link, rs->r->read_link) == 0))
    return rs->r->name;
  return link;
}

static const char *element(const engine_t *e, const app_state_t *as, const res_state_t *rs, double rate, double bound,
                           double cap, const char *link, int saturated) {
  link = link_name(rs, link);
  if (isfinite(bound) && rate >= bound * (1 - EPS)) { /* it moved at the policy's rate */
    if (bound >= cap * (1 - EPS)) {                   /* at its own cap: what the cap stands for */
      const char *nic = link != NULL ? link : "nic";  /* its node's link when SimGrid saw it full */
      if (as->st.policy != NULL) return nic;          /* a striped writer's share of its node's NIC */
      if (as->a->has_profile) return NOT_BOUND;       /* a measured profile: the job itself */
      return as->b >= as->a->nodes * e->p->nic_bw * (1 - EPS) ? nic : rs->r->name; /* min(Q·b, n·C) */
    }
    return saturated ? rs->r->name : NOT_BOUND; /* the policy's share of a full resource, or held back */
  }
  return link != NULL ? link : (saturated && !(rate > 0) ? rs->r->name : NOT_BOUND);
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

/* One candidate (a transfer, or one leg of it) for application as's binding element in this interval: the slowest
 * is kept in as->bd, every candidate in B->cand (the ties, below). */
static void offer(engine_t *e, long stamp, app_state_t *as, const res_state_t *rs, const char *name, double rem,
                  double rate) {
  struct sim_bound *B = e->bound;
  double key = rate > 0 ? rem / rate : INFINITY;
  if (as->bd.stamp != stamp || key > as->bd.key) {
    as->bd.stamp = stamp;
    as->bd.key = key;
    as->bd.cur = name;
  }
  if (B->ncand == B->room) {
    int room = B->room > 0 ? 2 * B->room : 64;
    cand_t *c = realloc(B->cand, sizeof *c * (size_t)room);
    if (c == NULL) return; /* out of memory: the slowest alone is credited */
    B->cand = c;
    B->room = room;
  }
  B->cand[B->ncand++] = (cand_t){(int)(as - e->apps), rs->r != NULL && name == rs->r->name, name, key};
}

static int cand_cmp(const void *x, const void *y) {
  const cand_t *a = x, *b = y;
  if (a->app != b->app) return a->app < b->app ? -1 : 1;
  return strcmp(a->name, b->name);
}

/* The name of a set of k > 1 distinct elements c[0 .. n) (sorted, repeats allowed) that bound a job equally, kept in B:
 * "8 OSTs equally" when all are resources of the pool, "a, b equally" for up to 3 others, else "k links equally" or
 * "k elements equally". NULL out of memory. */
static const char *set_name(engine_t *e, const cand_t *c, int n, int k) {
  struct sim_bound *B = e->bound;
  int res = 1, links = 1;
  for (int i = 0; i < n; i++) {
    res &= c[i].is_res;
    links &= !c[i].is_res && strcmp(c[i].name, "nic") != 0 && c[i].name != NOT_BOUND;
  }
  const char *role = e->p->pool_role != NULL ? e->p->pool_role : "";
  const char *kind = strcmp(role, "ost") == 0 ? "OSTs" : strcmp(role, "ionode") == 0 ? "I/O nodes" : "resources";
  char buf[160];
  if (res)
    snprintf(buf, sizeof buf, "%d %s equally", k, kind);
  else if (k <= 3) {
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len < sizeof buf; i++)
      if (i == 0 || strcmp(c[i].name, c[i - 1].name) != 0)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", len > 0 ? ", " : "", c[i].name);
    if (len < sizeof buf) snprintf(buf + len, sizeof buf - len, " equally");
  } else
    snprintf(buf, sizeof buf, "%d %s equally", k, links ? "links" : "elements");
  for (int i = 0; i < B->nsets; i++)
    if (strcmp(B->sets[i], buf) == 0) return B->sets[i];
  char **sets = realloc(B->sets, sizeof *sets * (size_t)(B->nsets + 1));
  if (sets == NULL) return NULL;
  B->sets = sets;
  char *copy = malloc(strlen(buf) + 1);
  if (copy == NULL) return NULL;
  memcpy(copy, buf, strlen(buf) + 1);
  return B->sets[B->nsets++] = copy;
}

/* Each application's element of this interval: the one binding its slowest transfer, or the set of those binding
 * transfers as slow as it (within 1e-9 of its remaining time: the transfers its operation waits for together). */
static void settle(engine_t *e, long stamp) {
  struct sim_bound *B = e->bound;
  int n = 0;
  for (int i = 0; i < B->ncand; i++) { /* the ties of each application's slowest */
    const app_state_t *as = &e->apps[B->cand[i].app];
    double key = B->cand[i].key, top = as->bd.key;
    if (as->bd.stamp == stamp && (key == top || (isfinite(top) && key >= top * (1 - 1e-9)))) B->cand[n++] = B->cand[i];
  }
  if (n > 1) qsort(B->cand, (size_t)n, sizeof *B->cand, cand_cmp);
  for (int i = 0; i < n;) {
    int j = i, k = 0;
    for (; j < n && B->cand[j].app == B->cand[i].app; j++)
      k += j == i || strcmp(B->cand[j].name, B->cand[j - 1].name) != 0;
    if (k > 1) {
      const char *set = set_name(e, &B->cand[i], j - i, k);
      if (set != NULL) e->apps[B->cand[i].app].bd.cur = set;
    } else
      e->apps[B->cand[i].app].bd.cur = B->cand[i].name;
    i = j;
  }
  B->ncand = 0;
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
        offer(e, stamp, as, rs, element(e, as, rs, t->rate, t->rate, t->cap, NULL, saturated),
              ios_tr_remaining(e->tr, t), t->rate);
        continue;
      }
      int nl = t->nlegs > 0 && t->legs != NULL ? t->nlegs : 0;
      for (int k = 0; k < (nl > 0 ? nl : 1); k++) {
        transfer_t *l = nl > 0 ? &t->legs[k] : t;
        double share = nl > 0 ? l->share : 1.0;
        if (l->flow == NULL) { /* waiting (rate 0), or its last byte arrived */
          if (!(t->rate > 0))
            offer(e, stamp, as, rs, element(e, as, rs, 0, t->rate, t->cap, NULL, saturated), INFINITY, 0);
          continue;
        }
        const char *link = NULL;
        double rate = ios_flow_binding(l->flow, &link);
        if (isnan(rate)) continue;
        double rem = ios_flow_remaining(l->flow) / ios_flow_members(l->flow);
        offer(e, stamp, as, rs, element(e, as, rs, rate, t->rate * share, t->cap * share, link, saturated), rem, rate);
      }
    }
  }
  settle(e, stamp);
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
