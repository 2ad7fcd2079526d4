/* iosim tutorial, step 4 — checks the rates of docs/tutorial/lcfs.c on the snapshots of docs/tutorial.md, step 4:
 * the pending transfers of the three applications of step 1 at t = 10 s and t = 15 s on a PFS of B = 1 GB/s, and at
 * t = 15 s on the PFS of B = 2 GB/s of step 5. Prints one line per snapshot (rates in GB/s, 10^9 bytes/s) and exits
 * 1 when a rate differs from the one computed by hand in the tutorial. */
#include "ios_policy.h"

#include <math.h>
#include <stdio.h>

extern const ios_sharing_policy_t tutorial_sharing_lcfs;

#define GB 1e9

/* Shares the first n transfers of t on a resource of capacity `capacity` at time `now`, prints the rates, compares
 * them with want[] (bytes/s). Returns the number of mismatches. */
static int check(double now, double capacity, int n, const ios_transfer_view_t *t, const double *want) {
  ios_share_view_t view = {
      .now = now, .capacity = capacity, .ntransfers = n, .t = t, .t_begin = 0.0, .t_end = INFINITY};
  double rate[3];
  if (tutorial_sharing_lcfs.share(tutorial_sharing_lcfs.ctx, &view, NULL, rate) != IOS_OK) {
    printf("t=%g s: share() failed\n", now);
    return 1;
  }
  int bad = 0;
  printf("t=%g s, B=%g GB/s:", now, capacity / GB);
  for (int i = 0; i < n; i++) {
    printf(" app%d %g GB/s", t[i].app + 1, rate[i] / GB);
    if (fabs(rate[i] - want[i]) > 1e-9 * GB) bad++;
  }
  printf("%s\n", bad ? "  <- differs from the tutorial" : "");
  return bad;
}

int main(void) {
  /* The transfers of step 1: app1 and app2 post 10 GB at t = 10 s (app1 first in posting order), app3 posts 4 GB
   * at t = 15 s; every cap is b_i = 1 GB/s. At t = 15 s under lcfs, app2 has moved 5 GB. */
  ios_transfer_view_t at10[2] = {
      {.app = 0, .cap = 1 * GB, .remaining = 10 * GB, .posted = 10, .seq = 0, .b = 1 * GB, .parts = 1, .nodes = 1},
      {.app = 1, .cap = 1 * GB, .remaining = 10 * GB, .posted = 10, .seq = 1, .b = 1 * GB, .parts = 1, .nodes = 1},
  };
  ios_transfer_view_t at15[3] = {
      {.app = 0, .cap = 1 * GB, .remaining = 10 * GB, .posted = 10, .seq = 0, .b = 1 * GB, .parts = 1, .nodes = 1},
      {.app = 1, .cap = 1 * GB, .remaining = 5 * GB, .posted = 10, .seq = 1, .b = 1 * GB, .parts = 1, .nodes = 1},
      {.app = 2, .cap = 1 * GB, .remaining = 4 * GB, .posted = 15, .seq = 2, .b = 1 * GB, .parts = 1, .nodes = 1},
  };
  const double want10[2] = {0, 1 * GB};           /* app2, posted after app1, first */
  const double want15[3] = {0, 0, 1 * GB};        /* app3, the newest, takes all of B */
  const double want15_2[3] = {0, 1 * GB, 1 * GB}; /* B = 2 GB/s: app3 its cap, then app2 its cap, nothing left */
  int bad =
      check(10, 1 * GB, 2, at10, want10) + check(15, 1 * GB, 3, at15, want15) + check(15, 2 * GB, 3, at15, want15_2);
  return bad ? 1 : 0;
}
