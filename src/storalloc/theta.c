/* iosim — storage requests calibrated to StorAlloc's Theta 2020 extract (Monniot et al. 2022, §5.1-5.2; see
 * ios_storalloc_requests.h, ios_storalloc_generate_theta, and docs/storalloc.md "Theta 2020 generator"). The extract
 * itself is not public: every parameter is one of the statistics the paper states, or says so. */
#include "ios_storalloc_requests.h"

#include "ios_diag.h"
#include "ios_gen.h"
#include "ios_rng.h"

#include <math.h>
#include <stdlib.h>

/* Mean (bytes) of the Pareto law of exponent a truncated to [lo, hi]: density ∝ x^(−a−1). */
static double pareto_mean(double a, double lo, double hi) {
  double r = lo / hi, norm = 1 - pow(r, a);
  if (fabs(a - 1) < 1e-12) return lo * log(hi / lo) / norm;
  return a * lo * (pow(hi / lo, 1 - a) - 1) / ((1 - a) * norm); /* lo^a (hi^(1−a) − lo^(1−a)) without overflow */
}

/* The exponent in [1e-6, 60] giving mean m on [lo, hi] (the mean falls as the exponent grows), or NAN when m is out
 * of the reachable range. */
static double pareto_exponent(double m, double lo, double hi) {
  double a = 1e-6, b = 60;
  if (!(m < pareto_mean(a, lo, hi)) || !(m > pareto_mean(b, lo, hi))) return NAN;
  for (int i = 0; i < 200; i++) {
    double c = 0.5 * (a + b);
    if (pareto_mean(c, lo, hi) > m)
      a = c;
    else
      b = c;
  }
  return 0.5 * (a + b);
}

/* A draw of the Pareto law of exponent a truncated to [lo, hi] (inverse of its distribution function). */
static double pareto_draw(ios_rng_t *rng, double a, double lo, double hi) {
  double u = ios_rng_uniform(rng), x = lo * pow(1 - u * (1 - pow(lo / hi, a)), -1 / a);
  return x < hi ? x : hi;
}

int ios_storalloc_generate_theta(const ios_storalloc_gen_t *g, uint64_t seed, ios_request_t **out, int *n) {
  if (g == NULL || out == NULL || n == NULL) return IOS_EINVAL;
  int N = g->requests;
  double lo = g->min_size, hi = g->max_size, tf = g->tail_from, share = g->tail_share;
  if (N < 1 || !(g->days > 0) || !(lo > 0) || !(hi > lo) || !(g->sum_cap > 0) || !(share >= 0 && share < 1) ||
      (share > 0 && !(tf > lo && tf < hi)) || !(g->duration_mean > 0) || !(g->duration_sigma >= 0)) {
    ios_diag_set(NULL, "generator",
                 "shape theta: requests %d, days %g, min_size %g, max_size %g, tail_from %g, tail_share %g, sum_cap "
                 "%g, duration_mean %g, duration_sigma %g: give min_size < tail_from < max_size (bytes), tail_share "
                 "in [0, 1), and positive requests, days, sum_cap and duration_mean",
                 N, g->days, lo, hi, tf, share, g->sum_cap, g->duration_mean, g->duration_sigma);
    return IOS_EINVAL;
  }
  /* the tail: log-uniform on [tail_from, max] (mean (hi − tf) / ln(hi / tf)), a whole number of requests */
  double tail_mean = share > 0 ? (hi - tf) / log(hi / tf) : 0;
  int ntail = share > 0 ? (int)lround(share * g->sum_cap / tail_mean) : 0;
  double body_hi = share > 0 ? tf : hi;
  double body_mean = ntail < N ? (g->sum_cap - ntail * tail_mean) / (N - ntail) : NAN;
  double alpha = ntail < N ? pareto_exponent(body_mean, lo, body_hi) : NAN;
  if (isnan(alpha)) {
    ios_diag_set(NULL, "generator",
                 "shape theta: the %d requests below %g bytes would need a mean of %g bytes, which no truncated Pareto "
                 "law on [min_size %g, %g] has: raise requests or min_size, or lower sum_cap or tail_share",
                 N - ntail, body_hi, body_mean, lo, body_hi);
    return IOS_EINVAL;
  }
  ios_request_t *req = malloc(sizeof *req * (size_t)N);
  double *times = malloc(sizeof *times * (size_t)N);
  int *idx = malloc(sizeof *idx * (size_t)N);
  char *tail = calloc((size_t)N, 1);
  if (req == NULL || times == NULL || idx == NULL || tail == NULL) {
    free(req);
    free(times);
    free(idx);
    free(tail);
    return IOS_ENOMEM;
  }
  ios_rng_t rng;
  ios_rng_seed(&rng, seed, IOS_STREAM_STORALLOC_GEN);
  ios_storalloc_arrivals(&rng, N, g->days * 86400.0, times);
  for (int i = 0; i < N; i++)
    idx[i] = i;
  for (int k = 0; k < ntail; k++) { /* the tail requests: a uniform choice (partial Fisher-Yates) */
    int m = k + (int)ios_rng_below(&rng, (uint64_t)(N - k)), t = idx[k];
    idx[k] = idx[m];
    idx[m] = t;
    tail[idx[k]] = 1;
  }
  double s2 = g->duration_sigma * g->duration_sigma, mu = log(g->duration_mean) - s2 / 2;
  for (int i = 0; i < N; i++) {
    double c = tail[i] ? tf * pow(hi / tf, ios_rng_uniform(&rng)) : pareto_draw(&rng, alpha, lo, body_hi);
    c = fmax(round(c), 1);
    double d = exp(mu + g->duration_sigma * ios_gen_normal(&rng));
    req[i] = (ios_request_t){.id = i + 1,
                             .submit = times[i],
                             .capacity = c,
                             .duration = d,
                             .bandwidth = 0,
                             .nodes = 1,
                             .read_bytes = c,
                             .written_bytes = c};
  }
  free(times);
  free(idx);
  free(tail);
  *out = req;
  *n = N;
  return IOS_OK;
}
