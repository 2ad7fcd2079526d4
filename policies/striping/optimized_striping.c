/* iosim — striping `optimized-striping`: TAPP-IO's tuned stripe count and size with Lustre's default OST allocation
 * (TAPP-IO §IV.A, single-shared-file variant II, "IOR Optimized SSF").
 *
 * The layout is the one TAPP-IO's Algorithm 1 sets (§III.A): a file-per-process file gets stripe count 1 and stripe
 * size `fpp_stripe_size` (1 MiB, Alg. 1 lines 7-8; §III.A case 1: no striping for file-per-process); a shared file of
 * W writers gets stripe count W (at most N, the number of OSTs) and stripe size = file size / stripe count (Alg. 1
 * lines 10-11, layout #1 of Fig. 1), so each writer's contiguous block is one stripe; with M shared files (N:M, §III.A
 * case 3) each file gets this layout for its own writers. Only the placement differs from
 * `bpio`: the OSTs come from Lustre's round-robin allocator, as in `lustre-default` (same `reseed_files`). For
 * file-per-process this is also TAPP-IO's "IOR Default" run, which set a stripe count of 1 (§IV.A.3). */
#include "striping_internal.h"

#include <limits.h>
#include <stddef.h>

static const ios_param_spec_t params[] = {
    {"fpp_stripe_size", 1048576, "bytes", "stripe size of a file-per-process file (TAPP-IO Alg. 1: 1 MB)", 1, 1e15, 0},
    {"reseed_files", 1, "", "files between two random draws of the round-robin start (0: Lustre's period)", 0, 1e15, 1},
};

static int place(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, const ios_params_t *p, ios_rng_t *rng,
                 ios_stripe_state_t *s, ios_stripe_placement_t *out) {
  long reseed;
  if (p == NULL || ios_stripe_int_param(p->v[1], 0, LONG_MAX / 2, &reseed) != IOS_OK) return IOS_EINVAL;
  return ios_stripe_lustre_place(t, job, 1, 0, 0, p->v[0], reseed, rng, s, out);
}

const ios_striping_policy_t ios_striping_optimized = {
    .name = "optimized-striping",
    .alias = "optimized",
    .description = "TAPP-IO's tuned stripe count and size (1 per process file; writers for a shared file), "
                   "Lustre's round-robin OST allocation",
    .source = "TAPP-IO §III.A Alg. 1, §IV.A variant II (IOR Optimized SSF)",
    .nparams = 2,
    .params = params,
    .place = place,
};
