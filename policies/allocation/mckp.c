/* iosim — allocation `mckp` (IPDPS'21 §3.1, the MCKP arbitration policy): choose one count per application so that
 * the sum of the applications' bandwidths Σ_a b_a(n_a) is maximal while Σ_a n_a <= W, a multiple-choice knapsack
 * (IPDPS'21 Eq. 1: one class per application, one item per count it may use, weight = the count, value = its
 * bandwidth, capacity W = the pool size N). Solved exactly by dynamic programming over the used capacity 0..W,
 * O(W·Σ_a |choices_a|) time and O(K·W) memory.
 *
 * An application's choices: n = 0 when its profile has a point n = 0 (direct PFS access, which the paper allows and
 * which needs no resource), and the counts 1..W — only those dividing its compute nodes with `divisors` = 1 (the
 * paper's load-balancing restriction), only those where the profile has a point with `points` = 1. Values come from
 * ios_profile_bw (interpolated between points).
 * Shared resource (IPDPS'21 §3.1, for systems where sharing cannot be avoided): one resource is set aside as a
 * system-wide shared one and the other N − 1 are arbitrated; every application gets one more choice, "use the shared
 * resource", of weight 0 and value b_a(1)/K (K = the number of applications, the paper's naive estimate). An
 * application that takes it is reported with n_a = 1; which resource that is, and with whom it is shared, is the
 * placement policy's decision (iosim's placements do not reserve a resource). `shared` = 1 always offers it;
 * `shared` = 0 offers it only when sharing is inevitable: when the applications that cannot use n = 0 need more
 * than N resources in all (their smallest admissible counts).
 * Ties: among optimal choices (relative 1e-12), the fewest resources in total, then the first choice in the order
 * 0, shared, 1, 2, ... for the last applications.
 * Inputs: the profile b_a (IPDPS'21 §3.1 assumes it known from previous runs or estimated), C_a with `divisors`. */
#include "../ios_policy.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
  int w, out; /* weight (resources taken from the budget), count reported */
  double v;   /* bandwidth, bytes/s */
} item_t;

static int has_point(const ios_profile_t *p, int n) {
  for (int i = 0; i < p->npoints; i++)
    if (p->n[i] == n) return 1;
  return 0;
}

/* Fills items (offsets off[0..k]) for capacity w_cap, with or without the shared choice. Returns 1 when every class
 * has a choice and the smallest weights fit in w_cap. */
static int build(const ios_pool_view_t *in, int divisors, int points, int shared, int w_cap, item_t *items, int *off) {
  int m = 0;
  long need = 0;
  int feasible = 1;
  for (int j = 0; j < in->napps; j++) {
    const ios_app_view_t *a = &in->apps[j];
    off[j] = m;
    int minw = -1;
    double direct = ios_profile_bw(a->profile, 0);
    if (direct > 0.0) {
      items[m++] = (item_t){.w = 0, .out = 0, .v = direct};
      minw = 0;
    }
    if (shared) {
      items[m++] = (item_t){.w = 0, .out = 1, .v = ios_profile_bw(a->profile, 1) / in->napps};
      minw = 0;
    }
    for (int n = 1; n <= w_cap; n++) {
      if (divisors && a->nodes % n != 0) continue;
      if (points && !has_point(a->profile, n)) continue;
      items[m++] = (item_t){.w = n, .out = n, .v = ios_profile_bw(a->profile, n)};
      if (minw < 0) minw = n;
    }
    if (minw < 0)
      feasible = 0;
    else
      need += minw;
  }
  off[in->napps] = m;
  return feasible && need <= w_cap;
}

static const ios_param_spec_t mckp_params[] = {
    {"divisors", 1, "", "1 = only counts that divide the application's compute nodes (IPDPS'21 §3.1); 0 = any", 0, 1,
     1},
    {"shared", 0, "",
     "1 = one resource is shared by choice (value b(1)/K), N-1 arbitrated (IPDPS'21 §3.1); 0 = only when inevitable", 0,
     1, 1},
    {"points", 0, "", "1 = only counts where the profile has a point (measured counts)", 0, 1, 1},
};

static int mckp_allocate(const ios_pool_view_t *in, const ios_params_t *p, ios_rng_t *rng, int *n_out) {
  (void)rng;
  int k = in->napps, nres = in->nres;
  for (int i = 0; i < 3; i++)
    if (p->v[i] != 0 && p->v[i] != 1) return IOS_EINVAL;
  int divisors = (int)p->v[0], shared = (int)p->v[1], points = (int)p->v[2];
  if (nres < 1) return IOS_EINVAL;
  for (int j = 0; j < k; j++)
    if (in->apps[j].nodes < 1) return IOS_EINVAL;
  if (k == 0) return IOS_OK;
  item_t *items = malloc(sizeof *items * (size_t)k * (size_t)(nres + 2));
  int *off = malloc(sizeof *off * (size_t)(k + 1));
  double *dp = malloc(sizeof *dp * (size_t)(nres + 1)), *next = malloc(sizeof *next * (size_t)(nres + 1));
  int *arg = malloc(sizeof *arg * (size_t)k * (size_t)(nres + 1)); /* [j][c]: item chosen for class j at total c */
  if (!items || !off || !dp || !next || !arg) {
    free(items);
    free(off);
    free(dp);
    free(next);
    free(arg);
    return IOS_ENOMEM;
  }
  int w_cap = nres;
  if (shared || !build(in, divisors, points, 0, w_cap, items, off)) {
    w_cap = nres - 1;                                  /* one resource set aside as the shared one */
    build(in, divisors, points, 1, w_cap, items, off); /* always feasible: every class has a weight-0 choice */
  }
  for (int c = 0; c <= w_cap; c++)
    dp[c] = c == 0 ? 0.0 : -INFINITY; /* dp[c]: best total bandwidth of the classes so far using exactly c */
  for (int j = 0; j < k; j++) {
    int *aj = arg + (size_t)j * (size_t)(nres + 1);
    for (int c = 0; c <= w_cap; c++) {
      next[c] = -INFINITY;
      aj[c] = -1;
    }
    for (int t = off[j]; t < off[j + 1]; t++) {
      int w = items[t].w;
      double v = items[t].v;
      for (int c = w; c <= w_cap; c++) {
        double x = dp[c - w] + v;
        if (dp[c - w] > -INFINITY && x > next[c]) {
          next[c] = x;
          aj[c] = t;
        }
      }
    }
    double *tmp = dp;
    dp = next;
    next = tmp;
  }
  double best = -INFINITY;
  for (int c = 0; c <= w_cap; c++)
    best = dp[c] > best ? dp[c] : best;
  int c = 0;
  while (dp[c] < best - 1e-12 * fabs(best)) /* the fewest resources among the optimal totals */
    c++;
  for (int j = k - 1; j >= 0; j--) {
    const item_t *it = &items[arg[(size_t)j * (size_t)(nres + 1) + c]];
    n_out[j] = it->out;
    c -= it->w;
  }
  free(items);
  free(off);
  free(dp);
  free(next);
  free(arg);
  return IOS_OK;
}

const ios_allocation_policy_t ios_allocation_mckp = {
    .name = "mckp",
    .alias = NULL,
    .description = "maximise the sum of bandwidths within N resources (multiple-choice knapsack, exact DP)",
    .source = "IPDPS'21 §3.1 (MCKP), Eq. 1",
    .nparams = 3,
    .params = mckp_params,
    .allocate = mckp_allocate,
};
