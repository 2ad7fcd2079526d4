/* iosim — striping `bpio`: TAPP-IO's balanced placement (TAPP-IO §II Eq. 1, §III.A Alg. 1, after BPIO [Wang et al.
 * ICPADS'14]), variant III of §IV.A ("IOR TAPP-IO").
 *
 * Layout: TAPP-IO's tuned layout, as `optimized-striping` (file-per-process: stripe count 1, stripe size
 * `fpp_stripe_size`; shared file: stripe count min(W, N), stripe size = file size / stripe count).
 * Placement: stripes are placed one at a time — file-per-process files in writer order, shared files one after the
 * other (N:M, §III.A case 3), each file's stripes in file order — each on the path of least cost C = w_router·R_router
 * + w_oss·R_oss + w_ost·R_ost (Eq. 1), where R_i is how many flows already crossed component i (ios_stripe_state_t:
 * earlier placements and the earlier stripes of this one); the stripe's flows are then added to the usage
 * (ios_stripe_state_use) before the next stripe is placed. The path of a stripe is (router of its writer, OSS of the
 * OST, OST); an OST already holding a stripe of the same file is never chosen. A writer's router is chosen at its first
 * stripe, the least-used (by w_router·R) of the routers its client may use (ties: the client's first), and kept for all
 * its traffic. Since every router reaches every OSS, C splits into a router term and an OST term, so choosing the
 * router and the OST separately minimises C. Ties: costs within a relative 1e-12 are equal; OSTs are scanned from index
 * `start` upwards (cyclically) and the first of the least cost wins, start = 0 when random_start = 0, else one uniform
 * draw from rng per call (so that jobs placed with separate states do not all begin on OST 0). Weights: the paper only
 * requires Σ w_i = 1 and gives no values; the defaults weigh the three components equally. Scaling all weights does not
 * change the choice, so any non-negative weights with a positive sum are accepted. */
#include "striping_internal.h"

#include <math.h>
#include <stdlib.h>

enum { P_WROUTER, P_WOSS, P_WOST, P_FPP_SIZE, P_RANDOM_START };

static const ios_param_spec_t params[] = {
    [P_WROUTER] = {"w_router", 1.0 / 3, "", "weight of the router usage in the path cost (TAPP-IO Eq. 1)", 0, 1e6, 0},
    [P_WOSS] = {"w_oss", 1.0 / 3, "", "weight of the OSS usage in the path cost", 0, 1e6, 0},
    [P_WOST] = {"w_ost", 1.0 / 3, "", "weight of the OST usage in the path cost", 0, 1e6, 0},
    [P_FPP_SIZE] = {"fpp_stripe_size", 1048576, "bytes", "stripe size of a file-per-process file (Alg. 1: 1 MB)", 1,
                    1e15, 0},
    [P_RANDOM_START] = {"random_start", 1, "", "1: OSTs scanned from a random index (ties fall there); 0: from OST 0",
                        0, 1, 1},
};

/* a < b beyond rounding (costs are sums of weight × count) */
static int less(double a, double b) {
  return a < b - 1e-12 * fmax(1.0, fabs(b));
}

static int least_router(const ios_stripe_topo_t *t, const ios_stripe_state_t *s, double w, int client) {
  int n = ios_stripe_nrouters_of(t, client), best = ios_stripe_router_of(t, client, 0);
  for (int i = 1; i < n; i++) {
    int r = ios_stripe_router_of(t, client, i);
    if (less(w * (double)s->router_uses[r], w * (double)s->router_uses[best])) best = r;
  }
  return best;
}

static int place(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, const ios_params_t *p, ios_rng_t *rng,
                 ios_stripe_state_t *s, ios_stripe_placement_t *out) {
  int rc = ios_stripe_job_validate(t, job);
  if (rc != IOS_OK) return rc;
  if (p == NULL || out == NULL || !ios_stripe_state_matches(s, t)) return IOS_EINVAL;
  double wr = p->v[P_WROUTER], ws = p->v[P_WOSS], wt = p->v[P_WOST];
  long random_start;
  if (!(wr >= 0 && ws >= 0 && wt >= 0) || !isfinite(wr + ws + wt) || !(wr + ws + wt > 0) || !(p->v[P_FPP_SIZE] > 0) ||
      !isfinite(p->v[P_FPP_SIZE]) || ios_stripe_int_param(p->v[P_RANDOM_START], 0, 1, &random_start) != IOS_OK ||
      (random_start && rng == NULL))
    return IOS_EINVAL;
  int N = t->nost, W = job->nwriters, nfiles, nosts;
  ios_stripe_layout_tuned_size(t, job, &nfiles, &nosts);
  ios_stripe_placement_t pl;
  if ((rc = ios_stripe_placement_alloc(&pl, nfiles, nosts, W)) != IOS_OK) return rc;
  int *in_file = calloc((size_t)N, sizeof *in_file);
  if (in_file == NULL) {
    ios_stripe_placement_free(&pl);
    return IOS_ENOMEM;
  }
  ios_stripe_layout_tuned(t, job, p->v[P_FPP_SIZE], &pl);
  int start = random_start ? (int)ios_rng_below(rng, (uint64_t)N) : 0;
  for (int w = 0; w < W; w++)
    pl.writer_router[w] = t->nrouters > 0 ? -2 : -1; /* -2: not chosen yet */
  for (int f = 0; f < pl.nfiles; f++) {
    const ios_stripe_file_t *fl = &pl.files[f];
    for (int j = 0; j < fl->stripe_count; j++) {
      int best = -1;
      double best_cost = 0;
      for (int i = 0; i < N; i++) {
        int o = (start + i) % N;
        if (in_file[o] == f + 1) continue;
        double cost = ws * (double)s->oss_uses[t->ost_oss[o]] + wt * (double)s->ost_uses[o];
        if (best < 0 || less(cost, best_cost)) {
          best = o;
          best_cost = cost;
        }
      }
      pl.osts[fl->first + j] = best;
      in_file[best] = f + 1;
      int lo = f, hi = f; /* the writers with bytes in this stripe */
      if (job->layout == IOS_LAYOUT_SSF) {
        int w0, w1;
        ios_stripe_file_writers(job, f, &w0, &w1);
        ios_stripe_ssf_writers_of_stripe(w1 - w0, fl->stripe_count, j, &lo, &hi);
        lo += w0;
        hi += w0;
      }
      for (int w = lo; w <= hi; w++) {
        if (pl.writer_router[w] == -2) pl.writer_router[w] = least_router(t, s, wr, ios_stripe_client_of(t, job, w));
        ios_stripe_state_use(s, pl.writer_router[w], t->ost_oss[best], best);
      }
    }
  }
  free(in_file);
  *out = pl;
  return IOS_OK;
}

const ios_striping_policy_t ios_striping_bpio = {
    .name = "bpio",
    .alias = "tapp-io",
    .description = "TAPP-IO's tuned layout, each stripe on the path (router, OSS, OST) of least weighted usage",
    .source = "TAPP-IO §II Eq. 1, §III.A Alg. 1, §IV.A variant III (BPIO balanced placement)",
    .nparams = 5,
    .params = params,
    .place = place,
};
