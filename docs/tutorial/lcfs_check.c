/* iosim tutorial, step 4 — checks the rates of docs/tutorial/lcfs.c on the snapshots of docs/tutorial.md, step 4:
 * the pending transfers of the three applications of step 1 at t = 10 s and t = 15 s on a PFS of B = 1 GB/s, and at
 * t = 15 s on the PFS of B = 2 GB/s of step 5. Registers the policy, then asks libiosim for each decision
 * (iosim_share, the call the simulator's controller makes), prints one line per snapshot (rates in GB/s, 10^9
 * bytes/s) and exits 1 when a rate differs from the one computed by hand in the tutorial. Public API only
 * (iosim/policy.h): it builds against an installed iosim. */
#include <iosim/policy.h>

#include <math.h>
#include <stdio.h>

const iosim_policy_t *tutorial_lcfs_register(void); /* docs/tutorial/lcfs.c */

#define GB 1e9

/* One transfer of a snapshot: its application (0-based), cap (bytes/s), bytes left, posting date (s) and order. */
typedef struct {
  int app;
  double cap, remaining, posted;
  int seq;
} transfer_t;

/* Shares the n transfers t on a resource of capacity `capacity` bytes/s at date `now` s, prints the rates, compares
 * them with want[] (bytes/s). @return the number of mismatches. */
static int check(const iosim_policy_t *lcfs, double now, double capacity, int n, const transfer_t *t,
                 const double *want) {
  iosim_share_view_t *v = iosim_share_view_new(now, capacity, n);
  double rate[3];
  int ok = v != NULL;
  for (int i = 0; ok && i < n; i++)
    ok = iosim_share_view_set(v, i, IOSIM_T_APP, t[i].app) == IOSIM_OK &&
         iosim_share_view_set(v, i, IOSIM_T_CAP, t[i].cap) == IOSIM_OK &&
         iosim_share_view_set(v, i, IOSIM_T_B, t[i].cap) == IOSIM_OK &&
         iosim_share_view_set(v, i, IOSIM_T_REMAINING, t[i].remaining) == IOSIM_OK &&
         iosim_share_view_set(v, i, IOSIM_T_POSTED, t[i].posted) == IOSIM_OK &&
         iosim_share_view_set(v, i, IOSIM_T_SEQ, t[i].seq) == IOSIM_OK;
  if (!ok || iosim_share(lcfs, NULL, v, rate) != IOSIM_OK) {
    printf("t=%g s: %s\n", now, iosim_error());
    iosim_share_view_free(v);
    return 1;
  }
  iosim_share_view_free(v);
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
  const iosim_policy_t *lcfs = tutorial_lcfs_register();
  if (lcfs == NULL) {
    printf("cannot register lcfs: %s\n", iosim_error());
    return 1;
  }
  /* The transfers of step 1: app1 and app2 post 10 GB at t = 10 s (app1 first in posting order), app3 posts 4 GB
   * at t = 15 s; every cap is b_i = 1 GB/s. At t = 15 s under lcfs, app2 has moved 5 GB. */
  const transfer_t at10[2] = {{0, 1 * GB, 10 * GB, 10, 0}, {1, 1 * GB, 10 * GB, 10, 1}};
  const transfer_t at15[3] = {{0, 1 * GB, 10 * GB, 10, 0}, {1, 1 * GB, 5 * GB, 10, 1}, {2, 1 * GB, 4 * GB, 15, 2}};
  const double want10[2] = {0, 1 * GB};           /* app2, posted after app1, first */
  const double want15[3] = {0, 0, 1 * GB};        /* app3, the newest, takes all of B */
  const double want15_2[3] = {0, 1 * GB, 1 * GB}; /* B = 2 GB/s: app3 its cap, then app2 its cap, nothing left */
  int bad = check(lcfs, 10, 1 * GB, 2, at10, want10) + check(lcfs, 15, 1 * GB, 3, at15, want15) +
            check(lcfs, 15, 2 * GB, 3, at15, want15_2);
  return bad ? 1 : 0;
}
