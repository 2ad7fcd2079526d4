/* iosim — helpers shared by the striping policies (policies/striping/common.c). Not part of the public API. */
#ifndef IOS_STRIPING_INTERNAL_H
#define IOS_STRIPING_INTERNAL_H

#include "../ios_striping.h"

/** 1 MiB: Lustre's default stripe size, and the stripe size TAPP-IO gives file-per-process files (Alg. 1, line 7). */
#define IOS_STRIPE_MIB 1048576.0

/** Number of routers client k may use (0 when R = 0) and the i-th of them, in preference order. */
int ios_stripe_nrouters_of(const ios_stripe_topo_t *t, int client);
int ios_stripe_router_of(const ios_stripe_topo_t *t, int client, int i);
/** The client of writer w (job->writer_client, or w mod nclients). */
int ios_stripe_client_of(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, int w);

/** Allocates out's arrays for nfiles files, nosts OST slots and nwriters writers (contents unset). IOS_OK or
 * IOS_ENOMEM (out untouched). */
int ios_stripe_placement_alloc(ios_stripe_placement_t *out, int nfiles, int nosts, int nwriters);

/** The layout TAPP-IO gives a job (Alg. 1; §III.A; §IV.A variant II and III): file-per-process, W files of b bytes,
 * stripe count 1, stripe size fpp_stripe_size; shared files, each file m of W_m writers (ios_stripe_file_writers)
 * W_m·b bytes, stripe count min(W_m, N), stripe size W_m·b / count (one stripe per writer when W_m <= N, TAPP-IO's
 * case 3 "stripe count = writers per file"). Fills pl->files (offsets `first` included) and pl->nfiles. */
void ios_stripe_layout_tuned(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, double fpp_stripe_size,
                             ios_stripe_placement_t *pl);
/** Number of files and of OST slots of the tuned layout. */
void ios_stripe_layout_tuned_size(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, int *nfiles, int *nosts);

/** Calls use(ctx, writer, ost) for every (writer, OST) pair of file f of pl that carries bytes, in the order of
 * ios_stripe_flows, with the bytes; returns the number of such pairs. */
long ios_stripe_file_pairs(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, const ios_stripe_placement_t *pl,
                           int f, void (*use)(void *ctx, int writer, int ost, double bytes), void *ctx);

/** Adds the flows of a checked placement to the usage of s (which matches t). Cannot fail. */
void ios_stripe_record_unchecked(ios_stripe_state_t *s, const ios_stripe_topo_t *t, const ios_stripe_job_t *job,
                                 const ios_stripe_placement_t *pl);
/** 1 when s was initialised for t's component counts. */
int ios_stripe_state_matches(const ios_stripe_state_t *s, const ios_stripe_topo_t *t);

/** Lustre's default placement (lod_alloc_rr) of every file of job: stripe count `count` (-1: every OST; capped at N)
 * and stripe size `stripe_size`, or, with tuned = 1, TAPP-IO's tuned layout (ios_stripe_layout_tuned with
 * fpp_stripe_size; count and stripe_size unused). Writers use the first router of their client. Shared by
 * lustre-default and optimized-striping. */
int ios_stripe_lustre_place(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, int tuned, long count,
                            double stripe_size, double fpp_stripe_size, long reseed, ios_rng_t *rng,
                            ios_stripe_state_t *s, ios_stripe_placement_t *out);

/** Writers whose block of a tuned shared file of nwriters writers (count c) overlaps stripe j: [*lo, *hi], counted
 * from the file's first writer (0 .. nwriters-1). */
void ios_stripe_ssf_writers_of_stripe(int nwriters, int c, int j, int *lo, int *hi);

/** Checks and reads an integer parameter in [lo, hi]. IOS_OK or IOS_EINVAL. */
int ios_stripe_int_param(double v, long lo, long hi, long *out);

#endif
