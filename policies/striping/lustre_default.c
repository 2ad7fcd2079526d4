/* iosim — striping `lustre-default`: Lustre's default striping and OST allocation, the baseline of TAPP-IO §IV.A
 * (variant I, "IOR Default": stripe count 4, stripe size 1 MB, the default OST placement).
 *
 * Every file the job creates (one per writer for file-per-process, M for M shared files) gets `stripe_count`
 * stripes (at most N; -1 = every OST, as `lfs setstripe -c -1`) of `stripe_size` bytes. Its OSTs come from Lustre's
 * round-robin allocator (lod_alloc_rr): consecutive positions of an OST order that interleaves the OSSes, from a
 * start position kept in the state; the start is drawn uniformly at random (rng) every `reseed_files` files
 * (default 1: a random start for every file; 0: Lustre's own period, (⌊2000/N⌋ + 30)·N files). Free-space (QoS)
 * weighting, full or degraded OSTs and OST pools are not modelled: every OST is healthy and equally empty. Writers
 * use the first router of their client (the platform's static route). */
#include "striping_internal.h"

#include <limits.h>
#include <stdlib.h>

int ios_stripe_lustre_place(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, int tuned, long count,
                            double stripe_size, double fpp_stripe_size, long reseed, ios_rng_t *rng,
                            ios_stripe_state_t *s, ios_stripe_placement_t *out) {
  int rc = ios_stripe_job_validate(t, job);
  if (rc != IOS_OK) return rc;
  if (out == NULL || rng == NULL || !ios_stripe_state_matches(s, t)) return IOS_EINVAL;
  int N = t->nost, nfiles, nosts, c = 0;
  if (tuned) {
    if (!(fpp_stripe_size > 0)) return IOS_EINVAL;
    ios_stripe_layout_tuned_size(t, job, &nfiles, &nosts);
  } else {
    if (count == 0 || count < -1 || !(stripe_size > 0)) return IOS_EINVAL;
    c = count == -1 || count > N ? N : (int)count;
    nfiles = ios_stripe_job_files(job);
    if ((long long)nfiles * c > INT_MAX) return IOS_EINVAL;
    nosts = nfiles * c;
  }
  int *order = malloc(sizeof *order * (size_t)N);
  if (order == NULL) return IOS_ENOMEM;
  rc = ios_stripe_rr_order(t, order);
  ios_stripe_placement_t pl;
  if (rc == IOS_OK) rc = ios_stripe_placement_alloc(&pl, nfiles, nosts, job->nwriters);
  if (rc != IOS_OK) {
    free(order);
    return rc;
  }
  if (tuned)
    ios_stripe_layout_tuned(t, job, fpp_stripe_size, &pl);
  else {
    for (int f = 0, w0, w1; f < nfiles; f++) {
      ios_stripe_file_writers(job, f, &w0, &w1);
      double size = job->bytes_per_writer * (w1 - w0); /* b for a process file */
      ios_stripe_file_t file = {.size = size, .stripe_size = stripe_size, .stripe_count = c, .first = f * c};
      pl.files[f] = file;
    }
  }
  for (int f = 0; f < nfiles; f++)
    ios_stripe_rr_alloc(t, order, reseed, rng, s, pl.files[f].stripe_count, pl.osts + pl.files[f].first);
  for (int w = 0; w < job->nwriters; w++)
    pl.writer_router[w] = t->nrouters > 0 ? ios_stripe_router_of(t, ios_stripe_client_of(t, job, w), 0) : -1;
  ios_stripe_record_unchecked(s, t, job, &pl);
  free(order);
  *out = pl;
  return IOS_OK;
}

static const ios_param_spec_t params[] = {
    {"stripe_count", 4, "", "stripes per file (Titan's default 4; -1 = every OST; capped at the number of OSTs)", -1,
     2147483647, 1},
    {"stripe_size", 1048576, "bytes", "stripe size (Lustre default 1 MiB)", 1, 1e15, 0},
    {"reseed_files", 1, "", "files between two random draws of the round-robin start (0: Lustre's period)", 0, 1e15, 1},
};

static int place(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, const ios_params_t *p, ios_rng_t *rng,
                 ios_stripe_state_t *s, ios_stripe_placement_t *out) {
  long count, reseed;
  if (p == NULL || ios_stripe_int_param(p->v[0], -1, INT_MAX, &count) != IOS_OK ||
      ios_stripe_int_param(p->v[2], 0, LONG_MAX / 2, &reseed) != IOS_OK)
    return IOS_EINVAL;
  return ios_stripe_lustre_place(t, job, 0, count, p->v[1], 0, reseed, rng, s, out);
}

const ios_striping_policy_t ios_striping_lustre_default = {
    .name = "lustre-default",
    .alias = "default",
    .description = "Lustre's default striping (4 × 1 MiB) and round-robin OST allocation from a random start",
    .source = "TAPP-IO §IV.A variant I (IOR Default); Lustre lod_alloc_rr",
    .nparams = 3,
    .params = params,
    .place = place,
};
