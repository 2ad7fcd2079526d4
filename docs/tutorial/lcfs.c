/* iosim tutorial, step 4 (docs/tutorial.md) — sharing `lcfs`: last come, first served, written against libiosim's
 * public header iosim/policy.h and registered at run time (iosim_sharing_register), so that it builds against an
 * installed iosim (`make install`, pkg-config iosim) with no file of iosim's source tree.
 *
 * The pending transfers of one resource are served from the most recently posted I/O operation to the oldest (ties
 * of posting time: the later posting order first), each granted min(cap, what is left of the capacity B) until
 * nothing is left. A deliberately naive policy: a new operation always overtakes the ones waiting, so an old one
 * can starve while others keep arriving. Rates in bytes/s, times in s (the fields of iosim/transfer_view.h). */
#include <iosim/policy.h>

#include <stdlib.h>

/* 1 when transfer a was posted after transfer b (it is served first): posting date (s), then posting order. */
static int newer(const iosim_share_view_t *v, int a, int b) {
  double ta = iosim_share_view_get(v, a, IOSIM_T_POSTED), tb = iosim_share_view_get(v, b, IOSIM_T_POSTED);
  return ta > tb || (ta == tb && iosim_share_view_get(v, a, IOSIM_T_SEQ) > iosim_share_view_get(v, b, IOSIM_T_SEQ));
}

/* The policy (an iosim_share_fn): k rounds, each granting the newest transfer not yet served min(cap, what is left of
 * B). O(k^2): a resource rarely has more than a few dozen pending transfers. rates[i] < 0 marks "not yet served". */
static int lcfs_share(const iosim_share_view_t *v, const iosim_params_t *params, double *rates, void *user) {
  (void)params; /* no parameters */
  (void)user;   /* no data of its own */
  int n = iosim_share_view_count(v);
  for (int i = 0; i < n; i++)
    rates[i] = -1.0;
  double left = iosim_share_view_capacity(v); /* bytes/s not yet granted */
  for (int round = 0; round < n; round++) {
    int pick = -1;
    for (int i = 0; i < n; i++)
      if (rates[i] < 0.0 && (pick < 0 || newer(v, i, pick))) pick = i;
    double cap = iosim_share_view_get(v, pick, IOSIM_T_CAP);
    double r = cap < left ? cap : left;
    rates[pick] = r > 0.0 ? r : 0.0;
    left -= rates[pick];
  }
  return 0;
}

/* Registers `lcfs` in the sharing family of this process: iosim_policy_find(IOSIM_SHARING, "lcfs") finds it, and a
 * scenario run afterwards by the scenario face may name it ("sharing": {"policy": "lcfs"}). @return the policy, or
 * NULL with iosim_error() (e.g. registered twice). */
const iosim_policy_t *tutorial_lcfs_register(void) {
  return iosim_sharing_register("lcfs",
                                "serve pending transfers from the newest to the oldest, each at its cap "
                                "while bandwidth is left",
                                "docs/tutorial.md, step 4 (last come, first served)", 0, 0, NULL, NULL, lcfs_share,
                                NULL);
}
