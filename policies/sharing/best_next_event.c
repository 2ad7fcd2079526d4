/* iosim — sharing `best-next-event` (RR-9502 §4.3 and Appendix A, BestNextEvent): at each event, choose the
 * *predictable* next event — the window end T_end, or the completion of one pending transfer k at a date t + u —
 * at which the minimum yield (Eq. 6) is largest, then apply until the next event the constant allocation that
 * maximises the yields lexicographically at that date (LexicoMinYield, §A.3).
 *
 * Notation (Appendix A, with iosim's view): every pending transfer of the resource is one "application" i of S(t);
 * T_i = progress (s), t − τ_i = A_i = now − release (>= 0), V_i = remaining (bytes); a rate r moves the progress
 * at r / c_i per second with c_i = b/parts (the paper's b_i as normaliser; = cap when b is unknown); the paper's
 * b_i as a bound is cap_i = min(cap, B). y_i(t+u, r) = (T_i + r·u/c_i) / (A_i + u); BW_i(u, y) = c_i (y (A_i+u) −
 * T_i) / u is the rate reaching yield y at t+u; e_i = V_i / cap_i is the earliest completion; y_i^max (Eq. 12) uses
 * the rate min(cap_i, V_i/u) (no other transfer completes before the event; completing with it is allowed).
 *
 * Algorithm 2 (BestNextEvent, §A.2): Σ cap_i <= B → everyone at its cap (Step 3, the preliminary remark of App. A);
 * no e_i <= H → LexicoMinYield at the window end (Step 2); otherwise the candidates D are the window end (H, ∅) and,
 * for each simple interval [u_i, u_{i+1}] of the partition U (Steps 1, 5–10) and each k with u_i >= e_k, the
 * (u, k) returned by MinYieldInInterval (Algorithm 1, §A.1); the applied allocation is LexicoMinYield (Algorithm 3,
 * with MinYield, Algorithm 4) of the lexicographically best candidate (Step 20).
 * MinYieldInInterval walks the lower envelope f_k(u) = min(y_k(t+u, V_k/u), min_i y_i^max(t+u), y^opt(u)) from u_i:
 * y^opt is Eq. 13 for the set I of the transfers whose yield without bandwidth is below the level; it stops where
 * the envelope is y_k (Steps 12, 14–15, 24), where it does not increase (Eq. 14, Steps 8, 18), or at u_{i+1}
 * (Steps 11, 23); otherwise it moves to the next change of structure, found by solving second-degree polynomials
 * (the equality of two functions (αu + β)/(γu + δ)), and repeats (the recursive calls of Steps 13, 25).
 *
 * Where the paper is ambiguous or its pseudo-code has slips, we chose (section interpreted in brackets):
 *  - H = T_end − t [Alg. 2 Step 1, §4.3 "]t, T_end]"]; t_end = INFINITY (or <= now): there is no window-end event,
 *    D has no (H, ∅) and the last interval is [u_last, ∞): the search still ends because y_k(t+u, V_k/u) → 0.
 *  - U also holds Z, the crossings of the curves y_i(t+u, 0) [Step 10 lists JointEvents ∪ S ∪ X ∪ M1 ∪ M2 only, but
 *    §A.1 calls Z "peculiar events"]; M2 reads y_i(u, b_i) = y_j(u, b_j) [Step 7 prints y_i(u, b_j)]; "y_k / t'" in
 *    §4.3 and Step 22 is V_k / u; Algorithm 4 Step 6 uses its bandwidth argument as the remaining bandwidth.
 *  - The structure on [u, u + ε] is re-derived at each step from the values at u, ties broken by the right
 *    derivative (footnote 3, applied to every piece), and the next change is searched among all pieces (a superset
 *    of the lists of Steps 10 and 22; equal to them in exact arithmetic on a simple interval) so that a crossing
 *    lost to rounding in U cannot be skipped.
 *  - Dominated candidates are not searched [Step 18 generalised]: f_k is quasi-concave (a minimum of functions that
 *    never increase again once they stop increasing: y_i^max, y_k, and y^opt, whose Eq. 14 sign cannot turn negative
 *    when I changes), so k is not searched after its first return before an interval's end; the scan stops at the
 *    first u_i where a transfer i with e_i <= u_i has y_i(t+u_i, V_i/u_i) below the best minimum found (any later
 *    event leaves i at most that: Step 18's argument, for every i); candidates below the best are not kept and
 *    LexicoMinYield runs only for those tying it. A walk that reaches u_{i+1} with no change of structure hands the
 *    active piece and the date of its next change to the next interval instead of searching again.
 *  - Ties (relative 1e-9): transfers are scanned by posting time R_i then posting order; the earlier candidate
 *    (window end, then interval order, then scan order) wins.
 *  - Bandwidth left when every transfer is at min(cap_i, V_i/u) [Alg. 3 last line, "Error"] stays unallocated: more
 *    would end a transfer before the chosen event. A transfer with nothing left gets its cap first (it ends at once).
 * Pure: no state between calls; IOS_ENOMEM when scratch memory cannot be had. */
#include "../ios_policy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TOL 1e-9  /* relative tolerance on yields and bandwidths */
#define UTOL 1e-9 /* relative tolerance on dates */

typedef struct {
  double a, b, c, d; /* u ↦ (a·u + b) / (c·u + d), with c·u + d > 0 for u > 0 */
} hom_t;

typedef struct {
  int view;                  /* index in the share view */
  double P, A, V, cap, c, e; /* T_i (s), A_i (s), V_i (bytes), cap_i (bytes/s), c_i (bytes/s), e_i (s) */
  hom_t full, done;          /* y_i(t+u, b_i) and y_i(t+u, V_i/u), computed once per decision (set_curves) */
} app_t;

typedef struct {
  double key;
  long seq;
  int i;
} item_t;

typedef struct {
  double y, u;
  int k;
} cand_t;

typedef struct {
  double next; /* the next change of structure of f_k after the end of the last interval searched */
  hom_t act;   /* the piece of f_k up to it */
  int valid;
} walk_t;

typedef struct {
  int m;
  app_t *a;
  double B, H;
  item_t *items;           /* [m] sorting scratch */
  unsigned char *in, *fix; /* [m] */
  double *r, *ys;          /* [m] LexicoMinYield output */
} ctx_t;

static int item_cmp(const void *p, const void *q) {
  const item_t *x = p, *y = q;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  if (x->seq != y->seq) return x->seq < y->seq ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

static int dbl_cmp(const void *p, const void *q) {
  double x = *(const double *)p, y = *(const double *)q;
  return (x > y) - (x < y);
}

static double hom_at(hom_t h, double u) {
  return (h.a * u + h.b) / (h.c * u + h.d);
}
static double hom_slope(hom_t h, double u) {
  double den = h.c * u + h.d;
  return (h.a * h.d - h.b * h.c) / (den * den);
}
static hom_t h_zero(const app_t *x) {
  return (hom_t){0.0, x->P, 1.0, x->A};
} /* y_i(t+u, 0) */
static void set_curves(app_t *x) {
  x->full = (hom_t){x->cap / x->c, x->P, 1.0, x->A};
  x->done = (hom_t){0.0, x->P + x->V / x->c, 1.0, x->A};
}
static hom_t h_full(const app_t *x) {
  return x->full;
} /* y_i(t+u, b_i) */
static hom_t h_done(const app_t *x) {
  return x->done;
} /* y_i(t+u, V_i/u) */
/* y_i^max (Eq. 12) as a function on [u, u + ε]. */
static hom_t h_max(const app_t *x, double u) {
  return u >= x->e * (1.0 - UTOL) ? h_done(x) : h_full(x);
}
static double y_max(const app_t *x, double u) {
  return (x->P + fmin(x->cap, x->V / u) * u / x->c) / (x->A + u);
}
static int tie_or_below(double v, double f) {
  return v <= f + TOL * fabs(f);
}

/* Roots of (a1 u + b1)(c2 u + d2) − (a2 u + b2)(c1 u + d1) = q2 u² + q1 u + q0, which is > 0 iff h1 > h2. */
static int hom_roots(hom_t h1, hom_t h2, double r[2], double q[3]) {
  q[2] = h1.a * h2.c - h2.a * h1.c;
  q[1] = h1.a * h2.d + h1.b * h2.c - h2.a * h1.d - h2.b * h1.c;
  q[0] = h1.b * h2.d - h2.b * h1.d;
  if (q[2] == 0.0) {
    if (q[1] == 0.0) return 0;
    r[0] = -q[0] / q[1];
    return 1;
  }
  double disc = q[1] * q[1] - 4.0 * q[2] * q[0];
  if (disc < 0.0) return 0;
  double s = -0.5 * (q[1] + copysign(sqrt(disc), q[1])); /* the stable pair q/a, c/q */
  int n = 0;
  r[n++] = s / q[2];
  if (s != 0.0) r[n++] = q[0] / s;
  return n;
}

/* The first date in (lo, hi) where h2 goes below h1 (hi when none). */
static double first_below(hom_t h1, hom_t h2, double lo, double hi) {
  if (!(lo < hi)) return hi; /* no date in an empty range */
  double r[2], q[3];
  int n = hom_roots(h1, h2, r, q);
  for (int j = 0; j < n; j++)
    if (r[j] > lo && r[j] < hi && 2.0 * q[2] * r[j] + q[1] > 0.0) hi = r[j];
  return hi;
}

/* Adds the roots of h1 = h2 lying in [lo, hi] to pts. */
static void add_roots(hom_t h1, hom_t h2, double lo, double hi, double *pts, int *np) {
  if (!(lo <= hi)) return; /* an empty range holds no root (and often: M1 when e_j > e_i) */
  double r[2], q[3];
  int n = hom_roots(h1, h2, r, q);
  for (int j = 0; j < n; j++)
    if (r[j] >= lo && r[j] <= hi && r[j] > 0.0) pts[(*np)++] = r[j];
}

/* MinYield's water level (Alg. 4 Steps 3–6, Eq. 13): the yield y at t+u such that the transfers i != excl (with
 * only[i] when only != NULL) whose yield without bandwidth is below y share u·RB bytes to all reach y. Instead of
 * sorting 𝒴_0 (Step 3), those above the level of the current set are dropped until none is: the level only goes
 * down, so at most one pass per transfer, and the result is the same. */
static double water(ctx_t *x, double u, double RB, int excl, const unsigned char *only) {
  int n = 0;
  for (int i = 0; i < x->m; i++)
    if (i != excl && (only == NULL || only[i])) x->items[n++] = (item_t){x->a[i].P / (x->a[i].A + u), 0, i};
  if (n == 0) return INFINITY;
  for (;;) {
    double num = u * RB, den = 0.0;
    for (int l = 0; l < n; l++) {
      const app_t *ai = &x->a[x->items[l].i];
      num += ai->c * ai->P;
      den += ai->c * (ai->A + u);
    }
    double y = num / den;
    int kept = 0;
    for (int l = 0; l < n; l++)
      if (x->items[l].key <= y) x->items[kept++] = x->items[l];
    if (kept == n || kept == 0) return y;
    n = kept;
  }
}

/* f_k(u): the maximum over allocations of the minimum yield at t+u when k completes at t+u (k < 0: nobody). */
static double f_at(ctx_t *x, int k, double u) {
  double RB = x->B, f = INFINITY;
  if (k >= 0) {
    RB = fmax(0.0, x->B - x->a[k].V / u);
    f = hom_at(h_done(&x->a[k]), u);
  }
  for (int i = 0; i < x->m; i++)
    if (i != k) f = fmin(f, y_max(&x->a[i], u));
  return fmin(f, water(x, u, RB, k, NULL));
}

/* Algorithm 1, MinYieldInInterval(A_k, umin, umax): the best minimum yield for k defining the next event in
 * [t + umin, t + umax]; the date in *u_out. *w carries from one interval to the next the piece that was active at
 * the end of the previous one and its end: while it lasts, the next interval is answered without a new search. */
static double min_yield_in_interval(ctx_t *x, int k, double umin, double umax, walk_t *w, double *u_out) {
  const app_t *ak = &x->a[k];
  hom_t hk = h_done(ak);
  double u0 = umin;
  if (w->valid) {
    w->valid = umax <= w->next;
    if (w->valid) {
      *u_out = umax;
      return hom_at(w->act, umax);
    }
    u0 = w->next;
  }
  for (int step = 0; step < 4 * x->m + 16; step++) {
    double yk = hom_at(hk, u0), f = f_at(x, k, u0);
    if (tie_or_below(yk, f)) break;      /* y_k is the minimum and decreases: Steps 12, 14–15, 24 */
    hom_t hl = {x->B, -ak->V, 0.0, 0.0}; /* y_I^opt (Eq. 13) over I (Steps 6, 19) */
    int nI = 0;
    for (int i = 0; i < x->m; i++) {
      const app_t *ai = &x->a[i];
      x->in[i] = i != k && tie_or_below(hom_at(h_zero(ai), u0), f);
      if (x->in[i]) {
        hl.b += ai->c * ai->P;
        hl.c += ai->c;
        hl.d += ai->c * ai->A;
        nI++;
      }
    }
    int act = -2; /* the piece of the envelope on [u0, u0 + ε]: -1 = y_I^opt, i = y_i^max (footnote 3) */
    hom_t ha = hl;
    double sa = INFINITY;
    if (nI > 0 && tie_or_below(hom_at(hl, u0), f)) {
      act = -1;
      sa = hom_slope(hl, u0);
    }
    for (int i = 0; i < x->m; i++) {
      if (i == k) continue;
      hom_t h = h_max(&x->a[i], u0);
      double s;
      if (tie_or_below(hom_at(h, u0), f) && (s = hom_slope(h, u0)) < sa) {
        act = i;
        ha = h;
        sa = s;
      }
    }
    if (act == -2 || !(sa > 0.0)) break;                                     /* non-increasing (Eq. 14): Steps 8, 18 */
    double lo = u0 * (1.0 + UTOL), next = first_below(ha, hk, lo, INFINITY); /* Steps 9–10, 21–22 */
    for (int i = 0; i < x->m; i++) {
      const app_t *ai = &x->a[i];
      if (i == k) continue;
      if (i != act) next = first_below(ha, h_max(ai, u0), lo, next);
      if (!x->in[i]) next = first_below(ha, h_zero(ai), lo, next);
      if (ai->e > lo && ai->e < next) next = ai->e; /* not inside a simple interval, but rounding */
    }
    if (act != -1 && nI > 0) next = first_below(ha, hl, lo, next);
    if (!(next < umax)) { /* no change up to umax: Steps 11, 23 */
      if (isfinite(umax)) *w = (walk_t){next, ha, 1};
      if (isfinite(umax)) u0 = umax;
      break;
    }
    u0 = next; /* Steps 13, 25 */
  }
  *u_out = u0;
  return f_at(x, k, u0);
}

/* Algorithm 3, LexicoMinYield(t, u, k) (k < 0: nobody): rates in x->r, the sorted yields at t+u in x->ys. */
static void lexico_min_yield(ctx_t *x, double u, int k) {
  double RB = x->B;
  for (int i = 0; i < x->m; i++) {
    x->r[i] = 0.0;
    x->fix[i] = 0;
  }
  if (k >= 0) {
    x->r[k] = fmin(x->a[k].cap, x->a[k].V / u);
    RB -= x->r[k];
    x->fix[k] = 1;
  }
  for (int round = 0; round < x->m && RB > TOL * x->B; round++) {
    double ymx = INFINITY, need = 0.0;
    int nfree = 0;
    for (int i = 0; i < x->m; i++)
      if (!x->fix[i]) {
        ymx = fmin(ymx, y_max(&x->a[i], u));
        nfree++;
      }
    if (nfree == 0) break;
    for (int i = 0; i < x->m; i++) /* MinYield (Alg. 4), Steps 1–2 */
      if (!x->fix[i]) need += fmax(0.0, x->a[i].c * (ymx * (x->a[i].A + u) - x->a[i].P) / u);
    unsigned char *free_ = x->in;
    for (int i = 0; i < x->m; i++)
      free_[i] = !x->fix[i];
    if (need >= RB * (1.0 - TOL)) { /* the whole remaining bandwidth is used (Steps 11–14) */
      double y = need <= RB ? ymx : water(x, u, RB, -1, free_);
      for (int i = 0; i < x->m; i++)
        if (!x->fix[i]) {
          const app_t *ai = &x->a[i];
          x->r[i] = fmin(fmin(ai->cap, ai->V / u), fmax(0.0, ai->c * (y * (ai->A + u) - ai->P) / u));
        }
      break;
    }
    for (int i = 0; i < x->m; i++) /* those that cannot get more: fixed at min(b_i, V_i/u) (Steps 16–21) */
      if (!x->fix[i] && tie_or_below(y_max(&x->a[i], u), ymx)) {
        x->r[i] = fmin(x->a[i].cap, x->a[i].V / u);
        RB -= x->r[i];
        x->fix[i] = 1;
      }
  }
  for (int i = 0; i < x->m; i++)
    x->ys[i] = (x->a[i].P + x->r[i] * u / x->a[i].c) / (x->a[i].A + u);
  qsort(x->ys, (size_t)x->m, sizeof *x->ys, dbl_cmp);
}

static int lex_better(const double *a, const double *b, int m) {
  for (int i = 0; i < m; i++) {
    double scale = fmax(fabs(a[i]), fabs(b[i]));
    if (a[i] > b[i] + TOL * scale) return 1;
    if (a[i] < b[i] - TOL * scale) return 0;
  }
  return 0;
}

/* The partition U of Algorithm 2 (Steps 1, 5–10) restricted to [e_min, H], sorted, without near-duplicates; H (or
 * INFINITY) last. Returns its size. */
static int partition(const ctx_t *x, double emin, double *pts) {
  int np = 0;
  double H = x->H, top = isfinite(H) ? H : INFINITY;
  for (int i = 0; i < x->m; i++) {
    const app_t *ai = &x->a[i];
    if (ai->e <= H) pts[np++] = ai->e; /* S */
    for (int j = 0; j < x->m; j++) {
      if (j == i) continue;
      const app_t *aj = &x->a[j];
      if (i < j) {
        add_roots(h_done(ai), h_done(aj), fmax(emin, fmax(ai->e, aj->e)), top, pts, &np); /* JointEvents */
        add_roots(h_full(ai), h_full(aj), emin, fmin(top, fmin(ai->e, aj->e)), pts, &np); /* M2 */
        add_roots(h_zero(ai), h_zero(aj), emin, top, pts, &np);                           /* Z */
      }
      add_roots(h_full(ai), h_done(aj), fmax(emin, aj->e), fmin(top, ai->e), pts, &np); /* M1 */
      add_roots(h_zero(ai), h_done(aj), fmax(emin, aj->e), top, pts, &np);              /* X */
    }
  }
  qsort(pts, (size_t)np, sizeof *pts, dbl_cmp);
  int n = 0;
  for (int j = 0; j < np; j++)
    if (n == 0 || pts[j] > pts[n - 1] * (1.0 + UTOL)) pts[n++] = pts[j];
  if (n > 0 && isfinite(H) && pts[n - 1] >= H * (1.0 - UTOL)) n--;
  pts[n++] = H;
  return n;
}

/* The candidates D of Algorithm 2 kept so far (n of cap, owned) and the best minimum yield among them. */
typedef struct {
  cand_t *c;
  size_t n, cap;
  double besty;
} cands_t;

/* Appends candidate c to d (doubling its room when full). Returns IOS_OK or IOS_ENOMEM. */
static int add_cand(cands_t *d, cand_t c) {
  if (d->n == d->cap) {
    cand_t *nw = realloc(d->c, sizeof *d->c * d->cap * 2);
    if (nw == NULL) return IOS_ENOMEM;
    d->c = nw;
    d->cap *= 2;
  }
  d->c[d->n++] = c;
  return IOS_OK;
}

/* Steps 13–19 of Algorithm 2: the candidates of MinYieldInInterval over the partition's intervals. */
static int search_intervals(ctx_t *x, const double *pts, int np, walk_t *walks, unsigned char *done, cands_t *d) {
  int m = x->m, dominant = 0;
  for (int iv = 0; iv + 1 < np && !dominant; iv++) { /* Steps 13–19 */
    double ui = pts[iv], uj = pts[iv + 1], ub = INFINITY;
    for (int i = 0; i < m; i++) /* a candidate at t+u, u >= ui, has a minimum <= y_i(t+u, V_i/u) <= y_i(t+ui, ...) */
      if (x->a[i].e <= ui) ub = fmin(ub, hom_at(h_done(&x->a[i]), ui));
    if (ub < d->besty * (1.0 - TOL)) break; /* Step 18, generalised */
    int left = 0;
    for (int k = 0; k < m; k++) {
      if (done[k]) continue;
      left = 1;
      if (ui < x->a[k].e * (1.0 - UTOL)) continue; /* Step 15 */
      double u0 = fmax(ui, x->a[k].e), u;
      double y = min_yield_in_interval(x, k, u0, uj, &walks[k], &u); /* Step 16 */
      if (u < uj * (1.0 - UTOL)) done[k] = 1;
      if (y >= hom_at(h_done(&x->a[k]), u) * (1.0 - TOL)) dominant = 1; /* Step 18 */
      if (y < d->besty * (1.0 - TOL)) continue;                         /* dominated: cannot win Step 20 */
      if (add_cand(d, (cand_t){y, u, k}) != IOS_OK) return IOS_ENOMEM;  /* Step 17 */
      d->besty = fmax(d->besty, y);
    }
    if (!left) break;
  }
  return IOS_OK;
}

/* Step 20 of Algorithm 2: LexicoMinYield's rates, in x->r, for the best of the tying candidates. */
static void choose_best(ctx_t *x, const cands_t *d, double *best_r, double *best_ys) {
  int m = x->m, have = 0;
  for (size_t c = 0; c < d->n; c++) {
    if (d->c[c].y < d->besty * (1.0 - TOL)) continue;
    lexico_min_yield(x, d->c[c].u, d->c[c].k);
    if (!have || lex_better(x->ys, best_ys, m)) {
      for (int i = 0; i < m; i++) {
        best_r[i] = x->r[i];
        best_ys[i] = x->ys[i];
      }
      have = 1;
    }
  }
  for (int i = 0; i < m; i++)
    x->r[i] = have ? best_r[i] : 0.0;
}

/* Algorithm 2 on the regular transfers of x; the chosen rates in x->r. Returns IOS_OK or IOS_ENOMEM. */
static int best_next_event(ctx_t *x) {
  int m = x->m;
  double emin = INFINITY, sumcap = 0.0;
  for (int i = 0; i < m; i++) {
    emin = fmin(emin, x->a[i].e);
    sumcap += x->a[i].cap;
  }
  if (sumcap <= x->B) { /* Step 3 */
    for (int i = 0; i < m; i++)
      x->r[i] = x->a[i].cap;
    return IOS_OK;
  }
  if (!(emin <= x->H)) { /* Step 2 */
    lexico_min_yield(x, x->H, -1);
    return IOS_OK;
  }
  size_t npmax = (size_t)m + 1 + 7 * (size_t)m * (size_t)(m - 1), um = (size_t)m;
  /* one block for the fixed-size arrays of this decision (walks first: the strictest alignment) */
  char *block = malloc(sizeof(walk_t) * um + sizeof(double) * (npmax + 2 * um) + um);
  walk_t *walks = (walk_t *)block;
  double *pts = (double *)(block + sizeof(walk_t) * um), *best_r = pts + npmax, *best_ys = best_r + um;
  unsigned char *done = (unsigned char *)(best_ys + um);
  cands_t d = {malloc(sizeof(cand_t) * 64), 0, 64, -INFINITY};
  int rc = IOS_ENOMEM;
  if (block == NULL || d.c == NULL) goto out;
  memset(walks, 0, sizeof(walk_t) * um); /* walks and done start cleared (pts, best_r, best_ys are written first) */
  memset(done, 0, um);
  int np = partition(x, emin, pts);
  if (isfinite(x->H)) { /* D ← {(h, ∅)} (Step 4) */
    d.c[d.n++] = (cand_t){f_at(x, -1, x->H), x->H, -1};
    d.besty = d.c[0].y;
  }
  for (int i = 0; i < m; i++)
    done[i] = !(x->a[i].e <= x->H);
  if (search_intervals(x, pts, np, walks, done, &d) != IOS_OK) goto out;
  choose_best(x, &d, best_r, best_ys);
  rc = IOS_OK;
out:
  free(block);
  free(d.c);
  return rc;
}

/* Gives each transfer with nothing left its cap, in scan order, from B; returns the bandwidth left. */
static double give_finished(const ios_share_view_t *in, const item_t *ord, double B, double *rate) {
  double left = B;
  for (int j = 0; j < in->ntransfers; j++) { /* a transfer with nothing left ends at once: its cap first */
    const ios_transfer_view_t *t = &in->t[ord[j].i];
    if (t->cap > 0.0 && !(t->remaining > 0.0)) {
      rate[ord[j].i] = fmin(t->cap, left);
      left -= rate[ord[j].i];
    }
  }
  return left;
}

/* Makes x->a the regular transfers (a cap, a finite remaining volume) in scan order, capped by `left`. */
static void make_apps(const ios_share_view_t *in, const item_t *ord, double left, ctx_t *x) {
  for (int j = 0; j < in->ntransfers; j++) {
    const ios_transfer_view_t *t = &in->t[ord[j].i];
    if (!(t->cap > 0.0) || !(t->remaining > 0.0) || !isfinite(t->remaining) || left <= 0.0) continue;
    app_t *ai = &x->a[x->m++];
    ai->view = ord[j].i;
    ai->cap = fmin(t->cap, left);
    ai->V = t->remaining;
    ai->c = t->b > 0.0 && isfinite(t->b) ? t->b / (t->parts > 1 ? t->parts : 1) : ai->cap;
    ai->P = isfinite(t->progress) ? fmax(0.0, t->progress) : 0.0;
    ai->A = isfinite(in->now - t->release) ? fmax(0.0, in->now - t->release) : 0.0;
    ai->e = ai->V / ai->cap;
    set_curves(ai);
  }
}

/* Hands x->r over to rate by view index, capped, scaled down to `left` if rounding exceeds it. */
static void set_rates(const ctx_t *x, double left, double *rate) {
  const app_t *a = x->a;
  double sum = 0.0;
  for (int i = 0; i < x->m; i++) {
    double r = x->r[i] > 0.0 && isfinite(x->r[i]) ? fmin(x->r[i], a[i].cap) : 0.0;
    rate[a[i].view] = r;
    sum += r;
  }
  if (sum > left) /* rounding only */
    for (int i = 0; i < x->m; i++)
      rate[a[i].view] *= left / sum;
}

static int bne_share(void *ctx, const ios_share_view_t *in, const ios_params_t *p, double *rate_out) {
  (void)ctx; /* built-in: no context (policies/ios_policy.h) */
  (void)p;
  if (in == NULL || rate_out == NULL || in->ntransfers < 0 || (in->ntransfers > 0 && in->t == NULL)) return IOS_EINVAL;
  int n = in->ntransfers;
  if (n == 0) return IOS_OK;
  double B = in->capacity > 0.0 && isfinite(in->capacity) ? in->capacity : 0.0;
  /* one block for every per-decision array (a decision is made at every event: one allocation, not eight) */
  size_t un = (size_t)n, bytes = 0, o_ord, o_a, o_rate, o_items, o_r, o_ys, o_in, o_fix;
  o_ord = bytes, bytes += sizeof(item_t) * un;
  bytes = (bytes + 15) & ~(size_t)15, o_a = bytes, bytes += sizeof(app_t) * un;
  bytes = (bytes + 15) & ~(size_t)15, o_items = bytes, bytes += sizeof(item_t) * un;
  bytes = (bytes + 15) & ~(size_t)15, o_rate = bytes, bytes += sizeof(double) * un;
  o_r = bytes, bytes += sizeof(double) * un;
  o_ys = bytes, bytes += sizeof(double) * un;
  o_in = bytes, bytes += un;
  o_fix = bytes, bytes += un;
  char *block = malloc(bytes);
  if (block == NULL) return IOS_ENOMEM;
  item_t *ord = (item_t *)(block + o_ord);
  double *rate = (double *)(block + o_rate);
  ctx_t x = {0};
  x.a = (app_t *)(block + o_a);
  x.items = (void *)(block + o_items);
  x.in = (unsigned char *)(block + o_in);
  x.fix = (unsigned char *)(block + o_fix);
  x.r = (double *)(block + o_r);
  x.ys = (double *)(block + o_ys);
  for (int i = 0; i < n; i++) { /* scan order: posting time, then posting order */
    ord[i] = (item_t){in->t[i].posted, in->t[i].seq, i};
    rate[i] = 0.0;
  }
  qsort(ord, (size_t)n, sizeof *ord, item_cmp);
  double left = give_finished(in, ord, B, rate);
  make_apps(in, ord, left, &x);
  x.B = left;
  x.H = isfinite(in->t_end) && in->t_end > in->now ? in->t_end - in->now : INFINITY;
  if (x.m > 0) {
    int rc = best_next_event(&x);
    if (rc != IOS_OK) {
      free(block);
      return rc;
    }
    set_rates(&x, left, rate);
  }
  for (int i = 0; i < n; i++)
    rate_out[i] = rate[i];
  free(block);
  return IOS_OK;
}

const ios_sharing_policy_t ios_sharing_best_next_event = {
    .name = "best-next-event",
    .alias = NULL,
    .description = "maximise the minimum yield at the best predictable next event (a completion or the window end), "
                   "then lexicographically",
    .source = "RR-9502 §4.3, Appendix A (BestNextEvent)",
    .nparams = 0,
    .params = NULL,
    .share = bne_share,
    .uncapped = 0,
    .periodic = 0,
};
