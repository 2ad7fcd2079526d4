/* iosim — benchmark of the `mckp` allocation (IPDPS'21 §3.1): time to arbitrate 256 I/O nodes among 512 jobs, the
 * case for which IPDPS'21 §5.3 quotes 2.7 s. Random profiles (seeded): points at 0, 1, 2, 4, ..., 256 I/O nodes
 * with bandwidths uniform in [0.1, 10] GB/s; compute nodes uniform in 1..512. Two settings: divisors = 0 (every
 * count 0..256 is a choice: the largest knapsack) and divisors = 1 (counts dividing the job's nodes, the paper's
 * option). Prints the median and the minimum over the repetitions, in seconds.
 * Usage: iosim_bench_mckp [JOBS [IONODES [REPETITIONS [SEED]]]] (defaults 512 256 5 1). */
#include "ios_policy.h"
#include "ios_rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int jobs = argc > 1 ? atoi(argv[1]) : 512, nres = argc > 2 ? atoi(argv[2]) : 256;
  int reps = argc > 3 ? atoi(argv[3]) : 5;
  unsigned long long seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
  if (jobs < 1 || nres < 1 || reps < 1) {
    fprintf(stderr, "usage: %s [JOBS [IONODES [REPETITIONS [SEED]]]] (positive integers)\n", argv[0]);
    return 2;
  }
  const ios_allocation_policy_t *pol = ios_allocation_find("mckp");
  ios_profile_t *prof = calloc((size_t)jobs, sizeof *prof);
  ios_app_view_t *apps = calloc((size_t)jobs, sizeof *apps);
  double *caps = calloc((size_t)nres, sizeof *caps), *times = calloc((size_t)reps, sizeof *times);
  int *n = calloc((size_t)jobs, sizeof *n);
  if (pol == NULL || !prof || !apps || !caps || !times || !n) {
    fprintf(stderr, "%s: out of memory or no mckp policy\n", argv[0]);
    return 1;
  }
  ios_rng_t rng;
  ios_rng_seed(&rng, seed, 0);
  for (int j = 0; j < jobs; j++) {
    prof[j].n[prof[j].npoints] = 0;
    prof[j].bw[prof[j].npoints++] = 1e8 + 9.9e9 * ios_rng_uniform(&rng);
    for (int c = 1; c <= nres && prof[j].npoints < IOS_PROFILE_MAX; c *= 2) {
      prof[j].n[prof[j].npoints] = c;
      prof[j].bw[prof[j].npoints++] = 1e8 + 9.9e9 * ios_rng_uniform(&rng);
    }
    apps[j] = (ios_app_view_t){.nodes = 1 + (int)ios_rng_below(&rng, 512),
                               .volume = 1e12,
                               .work = 3600,
                               .profile = &prof[j],
                               .requested_n = -1,
                               .processes = 0};
  }
  for (int r = 0; r < nres; r++)
    caps[r] = 1e9;
  ios_pool_view_t pool = {.napps = jobs, .apps = apps, .nres = nres, .res_capacity = caps, .total_nodes = 512 * jobs};
  printf("mckp allocation, %d jobs x %d I/O nodes, %d repetitions (IPDPS'21 §5.3 quotes 2.7 s for 512 x 256)\n", jobs,
         nres, reps);
  for (int divisors = 0; divisors <= 1; divisors++) {
    ios_params_t p;
    ios_params_defaults(pol->nparams, pol->params, &p);
    p.v[0] = divisors;
    int used = 0;
    for (int r = 0; r < reps; r++) {
      double t0 = now_s();
      if (pol->allocate(&pool, &p, NULL, n) != IOS_OK) {
        fprintf(stderr, "%s: mckp failed\n", argv[0]);
        return 1;
      }
      times[r] = now_s() - t0;
    }
    for (int j = 0; j < jobs; j++)
      used += n[j];
    qsort(times, (size_t)reps, sizeof *times, cmp_double);
    printf("  divisors=%d: median %.4f s, min %.4f s (I/O nodes used: %d)\n", divisors, times[reps / 2], times[0],
           used);
  }
  free(prof);
  free(apps);
  free(caps);
  free(times);
  free(n);
  return 0;
}
