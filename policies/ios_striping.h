/* iosim — Lustre striping and balanced OST placement along the I/O path (TAPP-IO, Neuwirth et al., §III).
 *
 * Pure C, no SimGrid: a striping policy decides, for each file a job creates, its stripe count, its stripe size and
 * the ordered list of OSTs holding its stripes, and the LNET router each writer's traffic crosses. A helper turns
 * that decision into flows (writer → router → OSS → OST, bytes) and per-component byte loads, which the engine maps
 * to SimGrid flows on the `oss-ost` platform (links rtrI, ossI, ostK). See docs/striping.md.
 *
 * Units: bytes, seconds, bytes/s. Vocabulary: shared/DESIGN.md ("striping", "performance improvement %"). */
#ifndef IOS_STRIPING_H
#define IOS_STRIPING_H

#include "ios_policy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------------------------- */
/** The storage side of the end-to-end I/O path (TAPP-IO §II-III: compute node → LNET router → OSS → OST). Filled by
 * the caller from its platform; arrays are borrowed. Components are numbered from 0: routers 0..nrouters-1,
 * OSSes 0..noss-1, OSTs 0..nost-1, clients (compute nodes) 0..nclients-1. Every router reaches every OSS. */
typedef struct {
  int nrouters;       /**< R >= 0; 0 = clients reach the OSSes directly (no router component) */
  int noss;           /**< S >= 1 */
  int nost;           /**< N >= 1 */
  const int *ost_oss; /**< [nost]: the OSS serving each OST, in 0..noss-1 */
  int nclients;       /**< C >= 1 */
  /** Routers each client may use, as a compressed list: client k may use client_routers[client_router_start[k] ..
   * client_router_start[k+1]), at least one each when R >= 1, in preference order (the first one is the client's
   * static route). Both NULL: client k uses router k mod R only, as `iosim platform` routes cK through rtr(K mod R).
   * Ignored when R = 0. */
  const int *client_router_start; /**< [nclients + 1] or NULL */
  const int *client_routers;      /**< [client_router_start[nclients]] or NULL */
} ios_stripe_topo_t;

/** Checks a topology (counts, OSS of every OST, routers of every client). IOS_OK or IOS_EINVAL. */
int ios_stripe_topo_validate(const ios_stripe_topo_t *t);

/** Fills t for the `oss-ost` kind of `iosim platform` (src/inputs/platgen.c): `servers` OSSes with `osts_per_server`
 * OSTs each (OST k on OSS k div osts_per_server), `routers` routers (0: none) and `clients` compute nodes routed k mod
 * R. ost_oss_buf [servers × osts_per_server] is written and borrowed by t. IOS_OK or IOS_EINVAL (t untouched). */
int ios_stripe_topo_regular(ios_stripe_topo_t *t, int *ost_oss_buf, int servers, int osts_per_server, int routers,
                            int clients);

/* ---------------------------------------------------------------------------------------------------------------- */
/** File layouts of a job (TAPP-IO §III.A, cases 1, 3 and 4). */
typedef enum {
  IOS_LAYOUT_FPP = 0, /**< file-per-process (N:N, case 1): one file per writer, written by that writer only */
  IOS_LAYOUT_SSF = 1  /**< shared files: M = shared_files files (N:1, case 4, when M = 1; N:M, case 3, when M > 1).
                           File m is written by the consecutive writers w_m .. w_{m+1}-1, w_m = ⌊m·W/M⌋ (W/M each when M
                           divides W); its size is (w_{m+1} − w_m)·b and writer w writes the contiguous block
                           [(w − w_m)·b, (w − w_m + 1)·b) of it (TAPP-IO Fig. 1, layout #1) */
} ios_layout_t;

/** One job's write phase: who writes how much in which layout. */
typedef struct {
  int nwriters;             /**< W >= 1 writing processes */
  ios_layout_t layout;      /**< IOS_LAYOUT_FPP or IOS_LAYOUT_SSF */
  double bytes_per_writer;  /**< b > 0, bytes each writer writes */
  const int *writer_client; /**< [nwriters]: client (compute node) of each writer; NULL = writer w on client
                                 w mod nclients. Borrowed. */
  int shared_files;         /**< M, the number of shared files of IOS_LAYOUT_SSF: 0 or 1 = one single shared file,
                                 2..W = N:M (TAPP-IO §III.A case 3). Must be 0 or 1 for IOS_LAYOUT_FPP. */
} ios_stripe_job_t;

/** The writers of file f of a job: [*w0, *w1) (file-per-process: {f}; shared files: ⌊f·W/M⌋ .. ⌊(f+1)·W/M⌋). The job
 * must be valid (ios_stripe_job_validate) and f in 0..files-1 (W for file-per-process, M for shared files). */
void ios_stripe_file_writers(const ios_stripe_job_t *job, int f, int *w0, int *w1);
/** Number of files of a job: W for file-per-process, M (at least 1) for shared files. */
int ios_stripe_job_files(const ios_stripe_job_t *job);

/** Checks a job against a topology. IOS_OK or IOS_EINVAL. */
int ios_stripe_job_validate(const ios_stripe_topo_t *t, const ios_stripe_job_t *job);

/* ---------------------------------------------------------------------------------------------------------------- */
/** One file of a placement. Its stripes are laid out round-robin: bytes [k·stripe_size, (k+1)·stripe_size) of the
 * file are on OST osts[first + (k mod stripe_count)] of the placement (Lustre RAID-0 striping). */
typedef struct {
  double size;        /**< bytes: the whole file */
  double stripe_size; /**< bytes, > 0 */
  int stripe_count;   /**< 1..nost; the file's OSTs are distinct */
  int first;          /**< index of its first OST in ios_stripe_placement_t.osts */
} ios_stripe_file_t;

/** A striping decision for one job. Owned by the caller once filled; release with ios_stripe_placement_free. */
typedef struct {
  int nfiles;               /**< W for file-per-process (file w is writer w's), M for shared files
                                 (ios_stripe_job_files) */
  ios_stripe_file_t *files; /**< [nfiles] */
  int nosts;                /**< Σ stripe_count */
  int *osts;                /**< [nosts]: the OST lists of the files, file after file, in stripe order */
  int nwriters;             /**< W */
  int *writer_router;       /**< [nwriters]: the router all of a writer's traffic crosses; -1 when R = 0 */
} ios_stripe_placement_t;

/** Frees the arrays of a placement filled by a policy and zeroes it (NULL or zeroed: no-op). */
void ios_stripe_placement_free(ios_stripe_placement_t *pl);

/* ---------------------------------------------------------------------------------------------------------------- */
/** State the caller keeps across placements (never a hidden global): how often each path component was used by
 * earlier placements — R_i of the BPIO cost C = Σ w_i·R_i (TAPP-IO Eq. 1) — and the cursor of Lustre's round-robin
 * OST allocator (which lives on the metadata server and is shared by every file created). One use = one flow, i.e.
 * one (writer, OST) pair that carries bytes; it counts once on its router, its OSS and its OST.
 * Scope is the caller's choice: one state per job is BPIO's per-application view (TAPP-IO §II: uses "by previous
 * I/O requests issued by the same application"); one state for every job of a run is a system-wide view. */
typedef struct {
  int nrouters, noss, nost;
  long *router_uses; /**< [nrouters] */
  long *oss_uses;    /**< [noss] */
  long *ost_uses;    /**< [nost] */
  /* Lustre's round-robin allocator (lod_alloc_rr): a file's first stripe goes to position (rr_start + rr_offset)
   * mod N of the OSS-interleaved OST order, each further stripe to the next position; rr_start advances by one per
   * stripe and is drawn again at random every `reseed` files; rr_offset precesses when the start wraps around. */
  long rr_start;  /**< start index (may exceed N until wrapped) */
  long rr_offset; /**< precession offset */
  long rr_left;   /**< decremented at each file; when it drops to 0 or below, rr_start is drawn again and rr_left
                       set to the reseed period (0 after init: the first file draws) */
} ios_stripe_state_t;

/** Allocates a zeroed state for topology t (rr_left = 0: the first file draws its start). IOS_OK, IOS_EINVAL,
 * IOS_ENOMEM (s untouched on failure). */
int ios_stripe_state_init(ios_stripe_state_t *s, const ios_stripe_topo_t *t);
/** Frees a state's arrays and zeroes it (NULL or zeroed: no-op). */
void ios_stripe_state_free(ios_stripe_state_t *s);
/** Zeroes the usage counters and resets the allocator cursor (as after ios_stripe_state_init). */
void ios_stripe_state_reset(ios_stripe_state_t *s);
/** Adds one use of a path: router (-1: none), OSS and OST. The only way policies update usage. IOS_OK or IOS_EINVAL
 * (an index out of range; nothing changed). */
int ios_stripe_state_use(ios_stripe_state_t *s, int router, int oss, int ost);

/* Lustre's round-robin allocator, for the policies (lustre-default) and for what places files as Lustre would outside
 * a policy (a Darshan workload's restriped files, src/inputs/darshan_workload.c): one allocator, here. */
/** Lustre's round-robin OST order (lod_qos_calc_rr): OSSes taken by decreasing OST count (ties: lower index), the
 * j-th of the T OSTs of an OSS placed at position ⌊j·N/T⌋ of an N-slot array, or the next free slot after it, so
 * consecutive positions belong to different OSSes. order [nost]. IOS_OK or IOS_ENOMEM. */
int ios_stripe_rr_order(const ios_stripe_topo_t *t, int *order);

/** Lustre's default round-robin allocator (its moving start index; QoS free-space weighting is not modelled) for one
 * file of `count` stripes (lod_alloc_rr, without its free-space and OST-health checks): updates the cursor of s (draws
 * a new start from rng every `reseed` files; reseed <= 0 means Lustre's own period ⌊2000/N⌋ + 30 times N files) and
 * writes count distinct OSTs to osts. */
void ios_stripe_rr_alloc(const ios_stripe_topo_t *t, const int *order, long reseed, ios_rng_t *rng,
                         ios_stripe_state_t *s, int count, int *osts);

/** Adds every flow of a placement (see ios_stripe_flows) to the usage counters, e.g. to make a shared state see jobs
 * placed elsewhere. Policies already record their own placement. IOS_OK, IOS_EINVAL, IOS_ENOMEM. */
int ios_stripe_state_record(ios_stripe_state_t *s, const ios_stripe_topo_t *t, const ios_stripe_job_t *job,
                            const ios_stripe_placement_t *pl);

/* ---------------------------------------------------------------------------------------------------------------- */
/** One flow of a placement: the bytes one writer sends to one OST, through its router and the OST's OSS. */
typedef struct {
  int writer, client, file;
  int router; /**< -1 when R = 0 */
  int oss, ost;
  double bytes; /**< > 0 */
} ios_stripe_flow_t;

/** The flows of a placement, file by file and writer by writer, each writer's in order of first byte:
 * file-per-process writer w sends its whole file; shared-file writer w of file m sends its block
 * [(w − w_m)·b, (w − w_m + 1)·b) of file m (ios_stripe_file_writers), cut by the stripe pattern. Bytes of
 * one (writer, OST) pair are merged into one flow. The bytes of every file's flows sum to its size.
 * *flows_out is malloc'ed (free() it) and *nflows_out set; both untouched on failure. IOS_OK, IOS_EINVAL,
 * IOS_ENOMEM. */
int ios_stripe_flows(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, const ios_stripe_placement_t *pl,
                     ios_stripe_flow_t **flows_out, int *nflows_out);

/** Per-component byte loads of a placement: the bytes crossing each OST, OSS and router (the sums of its flows).
 * Arrays [nost], [noss], [nrouters] are overwritten (router_bytes may be NULL when R = 0; any may be NULL when not
 * wanted). IOS_OK, IOS_EINVAL, IOS_ENOMEM (arrays untouched on failure). */
int ios_stripe_loads(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, const ios_stripe_placement_t *pl,
                     double *ost_bytes, double *oss_bytes, double *router_bytes);

/** Performance improvement in % (TAPP-IO Eq. 2): 100·(bw_balanced / bw_default − 1), bandwidths in bytes/s (or any
 * common unit). NAN when bw_default <= 0 or either bandwidth is not finite. */
double ios_stripe_improvement_pct(double bw_balanced, double bw_default);

/* ---------------------------------------------------------------------------------------------------------------- */
/** Striping family: the layout and placement of a job's files. */
typedef struct {
  IOS_POLICY_DESCRIPTOR;
  /** Fills *out (allocated; free with ios_stripe_placement_free) for job on topology t, with parameters p (in the
   * order of params), random stream rng (may be NULL when the policy draws nothing, see its doc) and state s (the
   * allocator cursor and usage counters, read and updated: the placement's flows are added to the usage). Returns
   * IOS_OK, or IOS_EINVAL / IOS_ENOMEM with *out and *s untouched. */
  int (*place)(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, const ios_params_t *p, ios_rng_t *rng,
               ios_stripe_state_t *s, ios_stripe_placement_t *out);
} ios_striping_policy_t;

/** Look-up by name or alias (ios_policy_find of IOS_FAMILY_STRIPING); NULL when unknown. */
const ios_striping_policy_t *ios_striping_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
