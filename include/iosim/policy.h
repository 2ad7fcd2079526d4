/* iosim/policy.h — the policy face of libiosim (docs/library.md): the registered policies of the five families
 * (allocation, placement, sharing, storage, striping), their parameters, one decision at a time on caller-owned
 * arrays, and sharing policies registered at run time. These are the functions the simulator itself runs (policies/
 * in the source tree), called directly: no SimGrid engine is started by anything in this header.
 *
 * Units everywhere: bytes, seconds, bytes/s. Vocabulary: the papers' (docs/library.md lists them): an application
 * A_j on Q_j compute nodes, its bandwidth profile b_j(n), N I/O resources of a pool, transfers on a resource of
 * bandwidth B.
 *
 * Errors: functions returning int return IOSIM_OK (0) or a negative IOSIM_E* code (iosim/common.h) and leave their
 * outputs untouched on failure; functions returning a pointer return NULL. Either way iosim_error() then names the
 * argument, the value and the fix. Handles are not thread-safe: use one per thread (the decisions themselves share
 * no state). */
#ifndef IOSIM_POLICY_H
#define IOSIM_POLICY_H

#include "iosim/common.h"
#include "iosim/transfer_view.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------ families, policies
 */
/** The five policy families. */
enum {
  IOSIM_ALLOCATION = 0, /**< how many I/O resources each application gets (RR-9549 §4.1, IPDPS'21 §3.2) */
  IOSIM_PLACEMENT = 1,  /**< which resources (RR-9549 §4.2) */
  IOSIM_SHARING = 2,    /**< the rate of each pending transfer of one resource (RR-9502 §3-4) */
  IOSIM_STORAGE = 3,    /**< StorAlloc: which burst-buffer disk holds a storage request (StorAlloc §4.2) */
  IOSIM_STRIPING = 4,   /**< Lustre: stripe count, stripe size and OSTs of a job's files (TAPP-IO §III) */
  IOSIM_NFAMILIES = 5
};

/** A policy (opaque; owned by the library, valid until the process ends). */
typedef struct iosim_policy iosim_policy_t;

/** The family's name ("allocation", "placement", "sharing", "storage", "striping") and what it decides (one line).
 * @return static strings; NULL when family is not in 0..IOSIM_NFAMILIES-1. */
IOSIM_API const char *iosim_family_name(int family);
IOSIM_API const char *iosim_family_description(int family);

/** The family called `name`. @return 0..IOSIM_NFAMILIES-1, or IOSIM_EINVAL (iosim_error() lists the names). */
IOSIM_API int iosim_family_find(const char *name);

/** How many policies family `family` has (built-in, then registered at run time), or IOSIM_EINVAL. */
IOSIM_API int iosim_policy_count(int family);

/** The index-th policy of the family (0..iosim_policy_count-1, in the order `iosim policies` lists them), or NULL. */
IOSIM_API const iosim_policy_t *iosim_policy_at(int family, int index);

/** The policy of the family called `name` (its name or its alias), or NULL with iosim_error() listing the names. */
IOSIM_API const iosim_policy_t *iosim_policy_find(int family, const char *name);

/** The policy's family (0..IOSIM_NFAMILIES-1), or IOSIM_EINVAL for NULL. */
IOSIM_API int iosim_policy_family(const iosim_policy_t *policy);

/** The policy's descriptor: its name (what a scenario's "policy" field takes), its alias (NULL when none), a one-line
 * description and its source (paper and section). Strings owned by the library; NULL for a NULL policy. */
IOSIM_API const char *iosim_policy_name(const iosim_policy_t *policy);
IOSIM_API const char *iosim_policy_alias(const iosim_policy_t *policy);
IOSIM_API const char *iosim_policy_description(const iosim_policy_t *policy);
IOSIM_API const char *iosim_policy_source(const iosim_policy_t *policy);

/** How many numeric parameters the policy takes (0..8), or IOSIM_EINVAL for NULL. */
IOSIM_API int iosim_policy_param_count(const iosim_policy_t *policy);

/** The index of the parameter called `name`, or IOSIM_EINVAL with iosim_error() listing the policy's parameters. */
IOSIM_API int iosim_policy_param_find(const iosim_policy_t *policy, const char *name);

/** Parameter i (0..count-1): its name (the scenario key beside "policy"), unit ("s", "bytes", "" ...), one-line
 * description. Strings owned by the library; NULL when i is out of range. */
IOSIM_API const char *iosim_policy_param_name(const iosim_policy_t *policy, int i);
IOSIM_API const char *iosim_policy_param_unit(const iosim_policy_t *policy, int i);
IOSIM_API const char *iosim_policy_param_description(const iosim_policy_t *policy, int i);

/** Parameter i: its default, in its unit. NAN when i is out of range. */
IOSIM_API double iosim_policy_param_default(const iosim_policy_t *policy, int i);

/** Parameter i: its accepted range [*lo, *hi] (either pointer may be NULL) and whether it must be an integer.
 * @return 1 when the range is bounded, 0 when any finite number is accepted (*lo, *hi then -INFINITY, INFINITY),
 *   IOSIM_EINVAL when i is out of range. */
IOSIM_API int iosim_policy_param_range(const iosim_policy_t *policy, int i, double *lo, double *hi, int *integer);

/* ---------------------------------------------------------------------------------------------------- parameter values
 */
/** Parameter values of one policy (opaque; the caller owns it and frees it with iosim_params_free). */
typedef struct iosim_params iosim_params_t;

/** Values for `policy`, each at its default. @return NULL for a NULL policy or out of memory. */
IOSIM_API iosim_params_t *iosim_params_new(const iosim_policy_t *policy);

/** Sets parameter `name` to `value` (in the parameter's unit), checked as a scenario's value is: finite, in range,
 * an integer where one is needed. @return IOSIM_OK, or IOSIM_EINVAL (unknown name, value refused: the message names
 * the parameter, the value and the accepted range) with the values unchanged. */
IOSIM_API int iosim_params_set(iosim_params_t *params, const char *name, double value);

/** Sets parameter `name` from text, read as a scenario reads it: a number, or with a unit where the parameter has one
 * ("10s", "5min", "200GB", "1GiB"). @return as iosim_params_set. */
IOSIM_API int iosim_params_parse(iosim_params_t *params, const char *name, const char *text);

/** The value of parameter `name`. @return IOSIM_OK with *value set, or IOSIM_EINVAL (unknown name). */
IOSIM_API int iosim_params_get(const iosim_params_t *params, const char *name, double *value);

/** The policy these values are for, or NULL. */
IOSIM_API const iosim_policy_t *iosim_params_policy(const iosim_params_t *params);

/** Frees the values (NULL: no-op). */
IOSIM_API void iosim_params_free(iosim_params_t *params);

/* ------------------------------------------------------------------------------------------------------ random stream
 */
/** A seeded random stream for the policies that draw (random allocation and placement, random storage, Lustre's
 * round-robin start): xoshiro256** seeded through splitmix64, the same on every machine (opaque; the caller owns it).
 * The simulator seeds allocation with (seed, IOSIM_STREAM_ALLOCATION) and placement with (seed,
 * IOSIM_STREAM_PLACEMENT) at the start of a run, storage with IOSIM_STREAM_STORAGE and striping with
 * IOSIM_STREAM_STRIPING: the same seed and stream give the decisions a run makes. */
typedef struct iosim_rng iosim_rng_t;

#define IOSIM_STREAM_STORAGE 0
#define IOSIM_STREAM_ALLOCATION 1
#define IOSIM_STREAM_PLACEMENT 2
#define IOSIM_STREAM_STRIPING 91

/** A stream seeded with `seed`, sub-stream `stream`. @return NULL when out of memory. */
IOSIM_API iosim_rng_t *iosim_rng_new(uint64_t seed, uint64_t stream);
/** Frees the stream (NULL: no-op). */
IOSIM_API void iosim_rng_free(iosim_rng_t *rng);

/* ------------------------------------------------------------------------------------------- allocation and placement
 */
/** What allocation and placement policies see (RR-9549 Table 2): a pool of N I/O resources with their bandwidths, the
 * machine's compute-node count Q^cpu, and K applications (opaque; the caller owns it). */
typedef struct iosim_pool iosim_pool_t;

/** A pool of `nres` resources (>= 1) of bandwidth capacity[0 .. nres) bytes/s (> 0; copied) on a machine of
 * `total_nodes` compute nodes (>= 1). @return NULL with iosim_error() on a bad argument. */
IOSIM_API iosim_pool_t *iosim_pool_new(int nres, const double *capacity, int total_nodes);

/** Adds application j = the number of applications added before: Q_j = nodes (>= 1), V_io = volume_bytes (>= 0), T_cpu
 * = work_s (>= 0), and its bandwidth profile b_j(n): npoints (1..16) points n[k] (resource counts, strictly increasing,
 * >= 0; n = 0 is direct access to the PFS, IPDPS'21 §2) with bw[k] bytes/s (> 0). Arrays copied.
 * @return j (>= 0), or IOSIM_EINVAL / IOSIM_ENOMEM with the pool unchanged. */
IOSIM_API int iosim_pool_add_app(iosim_pool_t *pool, int nodes, double volume_bytes, double work_s, int npoints,
                                 const int *n, const double *bw);

/** Application j's resource count asked for by the user (policy `fixed` honours it; -1 = none, the default) and its
 * process count s_a (IPDPS'21 §3.2 PROCESS; <= 0 = unknown, then its node count is used). @return IOSIM_OK or
 * IOSIM_EINVAL (j out of range). */
IOSIM_API int iosim_pool_set_app(iosim_pool_t *pool, int j, int requested_n, int processes);

/** The number of applications (K) and of resources (N) of the pool, or IOSIM_EINVAL for NULL. */
IOSIM_API int iosim_pool_app_count(const iosim_pool_t *pool);
IOSIM_API int iosim_pool_resource_count(const iosim_pool_t *pool);

/** Frees the pool (NULL: no-op). */
IOSIM_API void iosim_pool_free(iosim_pool_t *pool);

/** One allocation decision: writes n_out[j] in 0..N, the resource count of application j, for j in 0..K-1.
 * @param policy an allocation policy  @param params its values, or NULL for its defaults
 * @param rng the stream of a policy that draws (NULL: a stream seeded (0, IOSIM_STREAM_ALLOCATION), fresh each call)
 * @param n_out [K], caller-owned. @return IOSIM_OK, or IOSIM_EINVAL (wrong family, empty pool, the policy refusing the
 * pool) with n_out untouched. */
IOSIM_API int iosim_allocate(const iosim_policy_t *policy, const iosim_params_t *params, const iosim_pool_t *pool,
                             iosim_rng_t *rng, int *n_out);

/** One placement decision: given n[j] in 0..N resources per application, writes application j's resource indices
 * (distinct, 0..N-1) at res_out[off_j .. off_j + n[j]), off_j = n[0] + ... + n[j-1].
 * @param n [K] @param res_out [n[0] + ... + n[K-1]], caller-owned @param rng as iosim_allocate's (NULL: seeded
 * (0, IOSIM_STREAM_PLACEMENT)). @return IOSIM_OK or IOSIM_EINVAL (res_out untouched). */
IOSIM_API int iosim_place(const iosim_policy_t *policy, const iosim_params_t *params, const iosim_pool_t *pool,
                          const int *n, iosim_rng_t *rng, int *res_out);

/* --------------------------------------------------------------------------------------------------- bandwidth sharing
 */
/** One resource of bandwidth B at date `now` with its pending transfers, as a sharing policy sees it (RR-9502 §3.1.2,
 * §4; opaque). A caller builds one to call iosim_share; a sharing policy registered with iosim_sharing_register
 * receives one (read-only) at each decision. */
typedef struct iosim_share_view iosim_share_view_t;

/** The fields of a transfer i of a share view, by id (RR-9502 §3.3, §4): IOSIM_T_APP (0), IOSIM_T_CAP,
 * IOSIM_T_REMAINING, IOSIM_T_POSTED, IOSIM_T_SEQ, IOSIM_T_B, IOSIM_T_PARTS, IOSIM_T_RELEASE, IOSIM_T_PROGRESS,
 * IOSIM_T_OMEGA, IOSIM_T_NODES (10), then IOSIM_T_NFIELDS (11). Their meaning, units, accepted values and defaults are
 * declared once, in iosim/transfer_view.h (IOSIM_TRANSFER_VIEW_FIELDS), which a caller may expand too. */
// clang-format off
enum {
#define IOSIM_T_ID(ID, name, ctype, integer, lo, open, nan, def) IOSIM_T_##ID,
  IOSIM_TRANSFER_VIEW_FIELDS(IOSIM_T_ID)
#undef IOSIM_T_ID
  IOSIM_T_NFIELDS
};
// clang-format on

/** The field's name ("app", "cap", "remaining", "posted", "seq", "b", "parts", "release", "progress", "omega",
 * "nodes": the names in IOSIM_TRANSFER_VIEW_FIELDS), or NULL out of range. */
IOSIM_API const char *iosim_transfer_field_name(int field);

/** A view of one resource of bandwidth `capacity` bytes/s (> 0) at date `now` s with `ntransfers` (>= 1) transfers
 * at their defaults (above), and the steady-state window [0, +inf). @return NULL with iosim_error(). */
IOSIM_API iosim_share_view_t *iosim_share_view_new(double now, double capacity, int ntransfers);

/** Sets field `field` of transfer i. @return IOSIM_OK or IOSIM_EINVAL (i or field out of range, a value not finite
 * where one is needed, negative where it cannot be, not an integer where one is needed). */
IOSIM_API int iosim_share_view_set(iosim_share_view_t *view, int i, int field, double value);

/** Sets the steady-state window [t_begin, t_end] s (t_end may be INFINITY). @return IOSIM_OK or IOSIM_EINVAL. */
IOSIM_API int iosim_share_view_set_window(iosim_share_view_t *view, double t_begin, double t_end);

/** Field `field` of transfer i, or NAN when out of range. */
IOSIM_API double iosim_share_view_get(const iosim_share_view_t *view, int i, int field);

/** The view's date (s), its resource's bandwidth B (bytes/s), its window's bounds (s), its number of transfers; NAN
 * (or IOSIM_EINVAL for the count) for NULL. */
IOSIM_API double iosim_share_view_now(const iosim_share_view_t *view);
IOSIM_API double iosim_share_view_capacity(const iosim_share_view_t *view);
IOSIM_API double iosim_share_view_window_begin(const iosim_share_view_t *view);
IOSIM_API double iosim_share_view_window_end(const iosim_share_view_t *view);
IOSIM_API int iosim_share_view_count(const iosim_share_view_t *view);

/** Frees a view made by iosim_share_view_new (NULL: no-op; never one a registered policy received). */
IOSIM_API void iosim_share_view_free(iosim_share_view_t *view);

/** One sharing decision: writes rates_out[i] in [0, cap_i] bytes/s for every transfer of the view, with sum <= B for a
 * policy that caps (policies that leave the share to SimGrid's max-min, e.g. maxmin, give every transfer its cap).
 * @param params NULL for the defaults @param rates_out [iosim_share_view_count(view)], caller-owned.
 * @return IOSIM_OK, or IOSIM_EINVAL (not a sharing policy, the policy failing) with rates_out untouched. */
IOSIM_API int iosim_share(const iosim_policy_t *policy, const iosim_params_t *params, const iosim_share_view_t *view,
                          double *rates_out);

/** A sharing policy of one's own: writes rates[i] bytes/s for the view's transfers and returns 0, or fails with
 * iosim_share_fail. Called by the simulator's controller at each decision on each resource (RR-9502 §3: at every
 * event) and by iosim_share; `params` holds its values in the scenario's (or the caller's), `user` is what was
 * registered. It must not call the scenario face. */
typedef int (*iosim_share_fn)(const iosim_share_view_t *view, const iosim_params_t *params, double *rates, void *user);

/** Flags of a registered sharing policy. */
#define IOSIM_SHARING_UNCAPPED 1 /**< its rates may sum above B (SimGrid's max-min then shares the resource) */

/** Registers a sharing policy under `name` (letters, digits, '-', '_' and '.'; not the name or alias of a policy of
 * the family), with `nparams` (0..8) numeric parameters param_names[k] of default param_defaults[k] (any finite
 * value is accepted), so that a scenario run later in this process, or in the children the scenario face forks, can
 * name it ("sharing": {"policy": NAME, PARAM: VALUE}) and `iosim_policy_find(IOSIM_SHARING, name)` finds it. Every
 * string is copied. At each decision the simulator checks the rates the function returns: finite, in [0, cap_i] (up
 * to a relative 1e-9) and, without IOSIM_SHARING_UNCAPPED, summing to at most B; a rate refused, or a failing call,
 * stops the run with an error naming the policy, the date and the value. Any number of policies per process (each
 * keeps a record of its function and user data until the process ends); not thread-safe (register before running
 * anything). @return the policy, or NULL with iosim_error() (a bad or taken name, too many parameters, out of
 * memory). */
IOSIM_API const iosim_policy_t *iosim_sharing_register(const char *name, const char *description, const char *source,
                                                       int flags, int nparams, const char *const *param_names,
                                                       const double *param_defaults, iosim_share_fn fn, void *user);

/** From inside a registered sharing function: records `message` (why it failed, and the fix) as the decision's error.
 * @return IOSIM_EINVAL, for `return iosim_share_fail(view, "...");`. */
IOSIM_API int iosim_share_fail(const iosim_share_view_t *view, const char *message);

/* ------------------------------------------------------------------------------------------------- StorAlloc storage
 */
/** A storage platform (nodes holding disks, StorAlloc §4.3) and what its disks hold now (opaque; the caller owns it).
 * Disks are numbered node by node from 0. */
typedef struct iosim_storage iosim_storage_t;

/** An empty platform. @return NULL when out of memory. */
IOSIM_API iosim_storage_t *iosim_storage_new(void);

/** A preset platform of StorAlloc §5.1-5.2: "1N1D", "1NnD", "nN1D", "nNnD" (Table 4 layouts of `total_bytes` in all)
 * or "table5" (Table 5's 32 TB heterogeneous platform; total_bytes 0 or 32e12). Names are case-insensitive.
 * @return NULL with iosim_error() listing the names. */
IOSIM_API iosim_storage_t *iosim_storage_preset(const char *name, double total_bytes);

/** Appends a node named `name` (NULL: none) with network bandwidth node_bw (bytes/s, > 0, INFINITY = no bottleneck)
 * and `ndisks` (>= 1) identical disks of `capacity` bytes (> 0), read_bw and write_bw bytes/s (> 0, finite).
 * @return IOSIM_OK, IOSIM_EINVAL or IOSIM_ENOMEM (the platform unchanged). Only before the first hold or choice. */
IOSIM_API int iosim_storage_add_node(iosim_storage_t *storage, const char *name, double node_bw, int ndisks,
                                     double capacity, double read_bw, double write_bw);

/** The number of disks of the platform, or IOSIM_EINVAL for NULL. */
IOSIM_API int iosim_storage_disk_count(const iosim_storage_t *storage);

/** Disk d holds `size` bytes (> 0) until date `end` s, with a bandwidth need (bytes/s, 0 = none), for request `owner`.
 * @return IOSIM_OK, 1 when it does not fit (nothing changed), IOSIM_EINVAL or IOSIM_ENOMEM. */
IOSIM_API int iosim_storage_hold(iosim_storage_t *storage, int d, double size, double end, double need, long owner);

/** Advances the platform's date to `now` s (never backwards): the allocations ending at or before it are released.
 * @return IOSIM_OK or IOSIM_EINVAL. */
IOSIM_API int iosim_storage_set_time(iosim_storage_t *storage, double now);

/** Free bytes of disk d now, or NAN when d is out of range. */
IOSIM_API double iosim_storage_free_bytes(const iosim_storage_t *storage, int d);

/** Seeds the stream the random policy draws from (seed, IOSIM_STREAM_STORAGE) and resets round-robin's cursors. A
 * new platform is seeded with 0. @return IOSIM_OK or IOSIM_EINVAL. */
IOSIM_API int iosim_storage_seed(iosim_storage_t *storage, uint64_t seed);

/** What iosim_storage_choose returns besides errors. */
#define IOSIM_STORAGE_CHOSEN 0  /**< *disk_out holds the chosen disk (which may lack room: the request then fails) */
#define IOSIM_STORAGE_REFUSED 1 /**< the policy refuses the request (StorAlloc §4.2: the job falls back to the PFS) */

/** One storage placement (StorAlloc §4.2) of a request of `size` bytes (> 0) for `duration` s (>= 0) from now, with a
 * bandwidth need (bytes/s, 0 = none). It does not hold it: call iosim_storage_hold for that. Policies keep their
 * memory (round-robin's cursors, the random stream) in the platform.
 * @return IOSIM_STORAGE_CHOSEN with *disk_out in 0..disks-1, IOSIM_STORAGE_REFUSED, or IOSIM_EINVAL. */
IOSIM_API int iosim_storage_choose(const iosim_policy_t *policy, const iosim_params_t *params, iosim_storage_t *storage,
                                   double size, double duration, double need, int *disk_out);

/** The bandwidth (bytes/s) a new allocation of `size` bytes for `duration` s would get on disk d, averaged over its
 * duration under StorAlloc's permanent maximum I/O regime (§4.2 best-bandwidth: max-min on the disk then on its
 * node's link); NAN on a bad argument. */
IOSIM_API double iosim_storage_bandwidth(const iosim_storage_t *storage, int d, double size, double duration);

/** Frees the platform (NULL: no-op). */
IOSIM_API void iosim_storage_free(iosim_storage_t *storage);

/* ------------------------------------------------------------------------------------------------ TAPP-IO striping */
/** The storage side of a Lustre I/O path (TAPP-IO §II-III): R LNET routers, S OSSes, N OSTs each served by one OSS,
 * C clients (compute nodes) each routed through router k mod R; and the usage counters and round-robin cursor that
 * successive placements read and update (opaque; the caller owns it). */
typedef struct iosim_stripe_topo iosim_stripe_topo_t;

/** A topology of `nost` OSTs where OST k is served by OSS ost_oss[k] (0..noss-1; copied), noss >= 1, nrouters >= 0
 * (0: clients reach the OSSes directly), nclients >= 1. @return NULL with iosim_error() on a bad argument. */
IOSIM_API iosim_stripe_topo_t *iosim_stripe_topo_new(int nrouters, int noss, int nost, const int *ost_oss,
                                                     int nclients);

/** The topology of `iosim platform oss-ost`: `servers` OSSes of `osts_per_server` OSTs each (OST k on OSS
 * k / osts_per_server), `routers` routers, `clients` clients. @return NULL with iosim_error(). */
IOSIM_API iosim_stripe_topo_t *iosim_stripe_topo_regular(int servers, int osts_per_server, int routers, int clients);

/** Forgets the earlier placements (usage counters and round-robin cursor as new). @return IOSIM_OK or IOSIM_EINVAL. */
IOSIM_API int iosim_stripe_topo_reset(iosim_stripe_topo_t *topo);

/** Frees the topology (NULL: no-op). */
IOSIM_API void iosim_stripe_topo_free(iosim_stripe_topo_t *topo);

/** A striping decision for one job: its files, each file's stripe size, count and OSTs, each writer's router
 * (opaque; the caller owns it, frees it with iosim_stripe_layout_free). */
typedef struct iosim_stripe_layout iosim_stripe_layout_t;

/** One striping decision (TAPP-IO §III) for a job of `nwriters` (>= 1) processes writing `bytes_per_writer` (> 0)
 * each, file-per-process (shared_files = 0: one file per writer, case 1) or into shared_files >= 1 shared files (1 =
 * a single shared file, N:1; more, N:M: TAPP-IO §III.A cases 3-4). Writer w runs on client w mod C. The placement's
 * flows are added to the topology's usage counters (what bpio balances, TAPP-IO Eq. 1).
 * @param rng the stream of a policy that draws (NULL: seeded (0, IOSIM_STREAM_STRIPING), fresh each call)
 * @return the layout, or NULL with iosim_error() (the topology unchanged). */
IOSIM_API iosim_stripe_layout_t *iosim_stripe_place(const iosim_policy_t *policy, const iosim_params_t *params,
                                                    iosim_stripe_topo_t *topo, iosim_rng_t *rng, int nwriters,
                                                    double bytes_per_writer, int shared_files);

/** The number of files of the layout (W file-per-process, M shared), or IOSIM_EINVAL for NULL. */
IOSIM_API int iosim_stripe_file_count(const iosim_stripe_layout_t *layout);

/** File f: its size and stripe size (bytes) and its stripe count (each pointer may be NULL), and its OSTs in stripe
 * order into osts_out [stripe count] (NULL: not wanted). @return IOSIM_OK or IOSIM_EINVAL (f out of range). */
IOSIM_API int iosim_stripe_file(const iosim_stripe_layout_t *layout, int f, double *size, double *stripe_size,
                                int *stripe_count, int *osts_out);

/** The router writer w's traffic crosses (-1 when the topology has none), or IOSIM_EINVAL out of range. */
IOSIM_API int iosim_stripe_writer_router(const iosim_stripe_layout_t *layout, int w);

/** The bytes the layout sends to each OST: ost_bytes_out [N], caller-owned. @return IOSIM_OK, IOSIM_EINVAL or
 * IOSIM_ENOMEM. */
IOSIM_API int iosim_stripe_ost_bytes(const iosim_stripe_layout_t *layout, double *ost_bytes_out);

/** Frees the layout (NULL: no-op). */
IOSIM_API void iosim_stripe_layout_free(iosim_stripe_layout_t *layout);

#ifdef __cplusplus
}
#endif
#endif
