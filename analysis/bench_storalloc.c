/* iosim — benchmark of the StorAlloc request scheduler (src/storalloc/ios_storalloc.h): a generated year of storage
 * requests (default 24,000, shaped on $IOSIM_DATA_DIR/tokio-abc, src/storalloc/ios_storalloc_requests.h) scheduled on a
 * preset platform by each storage policy, with and without split and requeue (StorAlloc Table 4's strategy grid).
 * StorAlloc §5.1 reports 5 min 9 s per run on average (4 min 50 s to 6 min 51 s) on one core of a Xeon E5-2630. Prints
 * the generation time, then one line per run: its scheduling time and its main outcomes. Usage: iosim_bench_storalloc
 * [REQUESTS [SEED [LAYOUT [CAPACITY_TB [DURATION_SCALE]]]]] (defaults 24000 1 nNnD 32 1; DURATION_SCALE multiplies the
 * TOKIO walltimes, e.g. 100 for hours-long allocations and a busier platform). */
#include "ios_diag.h"
#include "ios_storalloc_requests.h"
#include "ios_storalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  ios_storalloc_gen_t g;
  ios_storalloc_gen_default(&g);
  if (argc > 1) g.requests = atoi(argv[1]);
  unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
  const char *layout = argc > 3 ? argv[3] : "nNnD";
  double tb = argc > 4 ? atof(argv[4]) : 32;
  if (argc > 5) g.duration_scale = atof(argv[5]);
  ios_storage_t st = {0, 0, NULL, NULL};
  if (g.requests < 1 || ios_storage_preset(layout, tb * 1e12, &st) != IOS_OK) {
    fprintf(stderr,
            "usage: %s [REQUESTS [SEED [LAYOUT [CAPACITY_TB]]]]: REQUESTS >= 1, LAYOUT one of 1N1D 1NnD "
            "nN1D nNnD table5, CAPACITY_TB > 0\n",
            argv[0]);
    return 2;
  }
  ios_request_t *req = NULL;
  int n = 0;
  double t0 = now_s();
  int rc = ios_storalloc_generate(&g, seed, &req, &n);
  if (rc != IOS_OK) {
    fprintf(stderr, "%s: %s\n", argv[0], ios_diag_message());
    return rc == IOS_EINVAL || rc == IOS_EIO ? 2 : 1;
  }
  double sum_cap = 0;
  for (int i = 0; i < n; i++)
    sum_cap += req[i].capacity;
  printf("StorAlloc scheduling of %d requests over %g days (seed %llu, sum_cap %.3g PB, durations x %g) on %s %g TB "
         "(%d nodes, %d disks); generation %.3f s. StorAlloc §5.1: 5 min 9 s per run.\n",
         n, g.days, seed, sum_cap / 1e15, g.duration_scale, layout, tb, st.nnodes, st.ndisks, now_s() - t0);
  printf("%-15s %-5s %-7s %9s %8s %8s %8s %8s %9s %10s\n", "policy", "split", "requeue", "time_s", "served%", "refused",
         "failed", "requeued", "max_fill%", "disk_max_n");
  double total = 0;
  int runs = 0;
  for (int p = 0; ios_policy_list(IOS_FAMILY_STORAGE)[p] != NULL; p++)
    for (int split = 1; split >= 0; split--)
      for (int requeue = 0; requeue <= 1; requeue++) {
        ios_storalloc_options_t o;
        ios_storalloc_options_default(&o);
        ios_storalloc_options_policy(&o, ios_policy_list(IOS_FAMILY_STORAGE)[p]->name);
        o.split = split;
        o.requeue = requeue;
        o.seed = seed;
        ios_storalloc_result_t r;
        double t1 = now_s();
        rc = ios_storalloc_run(&st, req, n, &o, &r);
        double dt = now_s() - t1;
        if (rc != IOS_OK) {
          fprintf(stderr, "%s: %s\n", argv[0], ios_diag_message());
          return 1;
        }
        total += dt;
        runs++;
        printf("%-15s %-5s %-7s %9.3f %8.2f %8d %8d %8d %9.1f %10d\n", o.policy->name, split ? "on" : "off",
               requeue ? "on" : "off", dt, 100 * r.m.served_share, r.m.refused, r.m.failed, r.m.requeued,
               r.m.max_fill_pct, r.m.disk_max_allocs);
        ios_storalloc_result_free(&r);
      }
  printf("mean scheduling time per run: %.3f s over %d runs (StorAlloc: 309 s)\n", total / runs, runs);
  free(req);
  ios_storage_free(&st);
  return 0;
}
