/* iosim — what a job's I/O operation takes alone on the platform (sim_alone.h; docs/outputs.md, "The reference
 * bandwidth b_i"). The operation's flows are solved by weighted max-min (src/model/maxmin.c) over the links of their
 * routes and their resources' capacities, as SimGrid's CM02 model shares them, with nothing else running. The answer
 * scales with the operation's bytes while its shape (each transfer's resource, sources, destination, part of the bytes
 * and cap) stays the same, so it is kept per application as seconds per byte and solved again only when the shape
 * changes (a new allocation, a striping decision). */
#include "sim_alone.h"

#include "ios_maxmin.h"
#include "sim_state.h"

#include <math.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/dynar.h>

/* One transfer of an operation's shape. */
typedef struct {
  int res, nsrc;
  const void *host, *dest, *src;
  double part, cap; /* its part of the operation's bytes; its cap (bytes/s) */
} shape_t;

/* What is kept of one application: its last shape and the answer for it. */
typedef struct {
  shape_t *shape;
  int n, room;
  double s_per_byte, latency; /* the solve's seconds per byte of the operation; the longest route latency (s) */
} kept_t;

struct sim_alone {
  kept_t *apps; /* [napps] */
  int napps;
  /* the system being built: flows (start, cap, weight, bytes), constraints (capacity), routes (cons) */
  int nf, fcap, nc, ccap, nk, kcap;
  int *start, *cons;
  double *cap, *weight, *bytes, *capacity;
  sg_link_t *hkey; /* [hcap] links seen in this solve (open addressing), NULL = empty */
  int *hval, hcap, nlinks;
  xbt_dynar_t route;
};

int sim_alone_init(engine_t *e) {
  e->alone = calloc(1, sizeof *e->alone);
  return e->alone != NULL ? IOS_OK : IOS_ENOMEM;
}

void sim_alone_fini(engine_t *e) {
  struct sim_alone *A = e->alone;
  if (A == NULL) return;
  for (int j = 0; A->apps != NULL && j < A->napps; j++)
    free(A->apps[j].shape);
  free(A->apps);
  free(A->start);
  free(A->cons);
  free(A->cap);
  free(A->weight);
  free(A->bytes);
  free(A->capacity);
  free(A->hkey);
  free(A->hval);
  if (A->route != NULL) xbt_dynar_free(&A->route);
  free(A);
  e->alone = NULL;
}

/* Room for `n` items of `size` bytes in *p (room *room). @return 0, or -1 out of memory. */
static int grow(void **p, int *room, int n, size_t size) {
  if (n <= *room) return 0;
  int r = *room > 0 ? *room : 16;
  while (r < n)
    r *= 2;
  void *q = realloc(*p, size * (size_t)r);
  if (q == NULL) return -1;
  *p = q;
  *room = r;
  return 0;
}

/* A new flow (its constraints added after it by add_cons). @return 0 or -1. */
static int add_flow(struct sim_alone *A, double cap, double weight, double bytes) {
  if (A->nf + 2 > A->fcap) {
    int room = A->fcap > 0 ? 2 * A->fcap : 64;
    double *c = realloc(A->cap, sizeof *c * (size_t)room);
    if (c != NULL) A->cap = c;
    double *w = c != NULL ? realloc(A->weight, sizeof *w * (size_t)room) : NULL;
    if (w != NULL) A->weight = w;
    double *b = w != NULL ? realloc(A->bytes, sizeof *b * (size_t)room) : NULL;
    if (b != NULL) A->bytes = b;
    int *s = b != NULL ? realloc(A->start, sizeof *s * (size_t)room) : NULL;
    if (s == NULL) return -1;
    A->start = s;
    A->fcap = room;
  }
  A->cap[A->nf] = cap;
  A->weight[A->nf] = weight;
  A->bytes[A->nf] = bytes;
  A->start[A->nf] = A->nk;
  A->nf++;
  A->start[A->nf] = A->nk;
  return 0;
}

/* The current flow crosses constraint c. */
static int add_cons(struct sim_alone *A, int c) {
  if (grow((void **)&A->cons, &A->kcap, A->nk + 1, sizeof(int)) != 0) return -1;
  A->cons[A->nk++] = c;
  A->start[A->nf] = A->nk;
  return 0;
}

/* A new constraint of `capacity` bytes/s. @return its index, or -1. */
static int new_cons(struct sim_alone *A, double capacity) {
  if (grow((void **)&A->capacity, &A->ccap, A->nc + 1, sizeof(double)) != 0) return -1;
  A->capacity[A->nc] = capacity;
  return A->nc++;
}

static size_t slot_of(const struct sim_alone *A, sg_link_t l) {
  size_t i = (size_t)((((uintptr_t)l >> 4) * 0x9E3779B97F4A7C15ULL) >> 20) & (size_t)(A->hcap - 1);
  while (A->hkey[i] != NULL && A->hkey[i] != l)
    i = (i + 1) & (size_t)(A->hcap - 1);
  return i;
}

/* The constraint of link l, made on first sight (the table kept at most half full). @return its index, or -1. */
static int link_cons(struct sim_alone *A, sg_link_t l) {
  if (2 * (A->nlinks + 1) > A->hcap) {
    int old = A->hcap, hcap = old > 0 ? 2 * old : 256;
    sg_link_t *ok = A->hkey, *nk = calloc((size_t)hcap, sizeof *nk);
    int *ov = A->hval, *nv = nk != NULL ? malloc(sizeof *nv * (size_t)hcap) : NULL;
    if (nv == NULL) {
      free(nk);
      return -1;
    }
    A->hkey = nk;
    A->hval = nv;
    A->hcap = hcap;
    for (int i = 0; i < old; i++)
      if (ok[i] != NULL) {
        size_t j = slot_of(A, ok[i]);
        A->hkey[j] = ok[i];
        A->hval[j] = ov[i];
      }
    free(ok);
    free(ov);
  }
  size_t i = slot_of(A, l);
  if (A->hkey[i] == NULL) {
    int c = new_cons(A, sg_link_get_bandwidth(l));
    if (c < 0) return -1;
    A->hkey[i] = l;
    A->hval[i] = c;
    A->nlinks++;
  }
  return A->hval[i];
}

/* The operation's flows and constraints into A; *latency the longest route latency. @return 0 or -1. */
static int build(engine_t *e, struct sim_alone *A, const app_state_t *as, double *latency) {
  A->nf = A->nc = A->nk = 0;
  *latency = 0;
  if (!e->direct) {
    if (A->hkey != NULL) memset(A->hkey, 0, sizeof *A->hkey * (size_t)A->hcap);
    A->nlinks = 0;
    if (A->route == NULL) A->route = xbt_dynar_new(sizeof(sg_link_t), NULL);
  }
  /* one constraint per resource used: its capacity, shared by the job's transfers to it */
  int *res_cons = malloc(sizeof *res_cons * (size_t)(e->nres + 1));
  if (res_cons == NULL) return -1;
  for (int r = 0; r <= e->nres; r++)
    res_cons[r] = -1;
  int rc = 0;
  for (int i = 0; rc == 0 && i < as->ntransfers; i++) {
    const transfer_t *t = &as->t[i];
    int ri = t->res < 0 ? e->nres : t->res;
    const res_state_t *rs = &e->res[ri];
    if (res_cons[ri] < 0 && rs->r != NULL && rs->r->capacity > 0 && isfinite(rs->r->capacity))
      res_cons[ri] = new_cons(A, rs->r->capacity);
    int ns = t->nsrc > 1 && t->src != NULL ? t->nsrc : 1;
    for (int k = 0; rc == 0 && k < ns; k++) {
      sg_host_t from = ns > 1 ? t->src[k] : t->host;
      double cap = t->cap / ns;
      if (!e->direct && from != NULL && t->dest != NULL) {
        xbt_dynar_reset(A->route);
        sg_host_get_route(from, t->dest, A->route);
        double lat = sg_host_get_route_latency(from, t->dest);
        *latency = lat > *latency ? lat : *latency;
        unsigned n;
        sg_link_t l;
        xbt_dynar_foreach(A->route, n, l) {
          if (!sg_link_is_shared(l) && sg_link_get_bandwidth(l) < cap) cap = sg_link_get_bandwidth(l); /* FATPIPE */
        }
      }
      if (add_flow(A, cap, 1.0 / ns, t->volume / ns) != 0 || (res_cons[ri] >= 0 && add_cons(A, res_cons[ri]) != 0)) {
        rc = -1;
        break;
      }
      if (e->direct || from == NULL || t->dest == NULL) continue;
      unsigned n;
      sg_link_t l;
      xbt_dynar_foreach(A->route, n, l) {
        if (!sg_link_is_shared(l)) continue;
        int c = link_cons(A, l);
        if (c < 0 || add_cons(A, c) != 0) {
          rc = -1;
          break;
        }
      }
    }
  }
  free(res_cons);
  return rc;
}

/* The shape of as's operation of `volume` bytes into kept->shape; @return 1 when it differs from the kept one (or
 * nothing was kept), 0 when the same, -1 out of memory. */
static int shape(const app_state_t *as, double volume, kept_t *k) {
  int same = k->n == as->ntransfers && k->s_per_byte >= 0;
  if (grow((void **)&k->shape, &k->room, as->ntransfers, sizeof *k->shape) != 0) return -1;
  for (int i = 0; i < as->ntransfers; i++) {
    const transfer_t *t = &as->t[i];
    shape_t s = {t->res, t->nsrc, t->host, t->dest, t->src, t->volume / volume, t->cap};
    if (same && memcmp(&s, &k->shape[i], sizeof s) != 0) same = 0;
    k->shape[i] = s;
  }
  k->n = as->ntransfers;
  return !same;
}

double sim_alone_op(engine_t *e, app_state_t *as, double volume) {
  double own = as->b > 0 ? volume / as->b : 0.0; /* the job's own b_j(n) */
  if (!(volume > 0)) return 0.0;
  struct sim_alone *A = e->alone;
  if (A->apps == NULL) {
    A->apps = calloc((size_t)(e->napps > 0 ? e->napps : 1), sizeof *A->apps);
    if (A->apps == NULL) goto oom;
    A->napps = e->napps;
    for (int j = 0; j < A->napps; j++)
      A->apps[j].s_per_byte = -1; /* nothing kept */
  }
  kept_t *k = &A->apps[as - e->apps];
  int changed = shape(as, volume, k);
  if (changed < 0) goto oom;
  if (changed) {
    double latency, seconds;
    if (build(e, A, as, &latency) != 0) goto oom;
    ios_maxmin_t m = {.nflows = A->nf,
                      .ncons = A->nc,
                      .capacity = A->capacity,
                      .start = A->start,
                      .cons = A->cons,
                      .cap = A->cap,
                      .weight = A->weight};
    int rc = ios_maxmin_makespan(&m, A->bytes, &seconds, NULL);
    if (rc == IOS_ENOMEM) goto oom;
    k->s_per_byte = rc == IOS_OK && isfinite(seconds) ? seconds / volume : 0.0; /* unbounded: the job's own b_j(n) */
    k->latency = latency;
  }
  double t = k->s_per_byte * volume + k->latency;
  return t > own ? t : own;
oom:
  if (A->apps != NULL) A->apps[as - e->apps].s_per_byte = -1;
  sim_fail(e, IOS_ENOMEM, NULL, "out of memory for the time alone of %s's I/O operation", as->a->name);
  return own;
}
