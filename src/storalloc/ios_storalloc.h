/* iosim — StorAlloc's storage request scheduler (Monniot et al. 2022, §4.2-§4.4): storage requests (capacity, duration,
 * submission time, optional bandwidth need) allocated on the disks of a storage platform (policies/ios_storage.h) by
 * a storage placement policy, with the optional `split` and `requeue` strategies (Table 2); a refused or failed
 * request falls back to the PFS. Outputs the outcome of every request and the metrics of StorAlloc's Table 3.
 * Pure C (no SimGrid): the SimGrid side reads the outcomes (which disks hold which request, from when) to run the
 * jobs' I/O on the allocated storage. Units: bytes, seconds, bytes/s. See docs/storalloc.md.
 *
 * How a command runs it (e.g. `iosim storalloc CONFIG.json --out DIR`):
 *   ios_storage_t st = {0};           ios_storage_from_json(cfg_platform, file, "platform", &st)
 *                                     (or ios_storage_preset("nNnD", 32e12, &st))
 *   ios_request_t *req; int n;        ios_storalloc_read_trace(path, &req, &n, NULL)
 *                                     (or ios_storalloc_generate(&gen, seed, &req, &n))
 *   ios_storalloc_options_t o;        ios_storalloc_options_default(&o);
 *                                     ios_storalloc_options_from_json(cfg_storalloc, file, "storalloc", &o)
 * (the input functions are in src/storalloc/ios_storalloc_requests.h)
 *   ios_storalloc_result_t r;         ios_storalloc_run(&st, req, n, &o, &r)
 *   ios_sink_t *k = ios_sink_files(DIR, "output.dir");   (the results sink, ios_sink.h)
 *   ios_storalloc_write_requests(k, req, n, &st, &r, NULL);   (DIR/requests.csv)
 *   ios_storalloc_write_metrics(k, "storalloc", &st, &o, &r); (DIR/storalloc.json)
 *   ios_sink_close(k, 1);
 *   ios_storalloc_result_free(&r); free(req); ios_storage_free(&st);
 * Every function returns IOS_OK or a negative IOS_E* code; on IOS_EINVAL/IOS_EIO, ios_diag_message() names the
 * file or object, the field, the value and the fix. */
#ifndef IOS_STORALLOC_H
#define IOS_STORALLOC_H

#include "ios_sink.h"
#include "ios_storage.h"

#include <cjson/cJSON.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One storage request (StorAlloc §4.2: a capacity, an allocation time and a submission time). From a job trace
 * (§5.1): capacity = max(read, written bytes), duration = the job's end − start, submit = the job's start. */
typedef struct {
  long id;              /**< the trace's id (any value; outputs repeat it) */
  double submit;        /**< s: when the storage is asked for and should start */
  double capacity;      /**< bytes, > 0 */
  double duration;      /**< s, >= 0 */
  double bandwidth;     /**< bytes/s the job needs, >= 0; 0 = no stated need */
  int nodes;            /**< compute nodes of the job (informative, for the SimGrid side; 0 = unknown) */
  double read_bytes;    /**< informative: the job's read and written bytes (the SimGrid side replays them) */
  double written_bytes; /**< bytes */
} ios_request_t;

/** The scheduler's options. Defaults (ios_storalloc_options_default): best-bandwidth with its default parameters,
 * split on at 200 GB, requeue off (5 retries every 300 s when on), seed 1. */
typedef struct {
  const ios_storage_policy_t *policy; /**< the storage placement policy (never NULL after the defaults) */
  ios_params_t params;                /**< its parameters, in the order of policy->params */
  int split;                          /**< 1: requests above split_threshold are cut into equal parts (Table 2) */
  double split_threshold;             /**< bytes, > 0 (StorAlloc: 200 GB = 200e9) */
  int requeue;                        /**< 1: a refused request is retried (Table 2; only refusing policies refuse) */
  int retries;                        /**< >= 0 (StorAlloc Table 2: 5) */
  double interval;                    /**< s between two attempts, > 0 (StorAlloc: 5 min = 300 s) */
  uint64_t seed;                      /**< seeds the policy's random stream (random policy) */
  int split_all;      /**< 0 (default, StorAlloc §4.2 and its router: each part is an independent request, so a split
                           request may be partly allocated); 1: a request's parts are placed all or nothing */
  int decide_start;   /**< 0 (default, StorAlloc §4.2, §4.4): every request is decided when it is submitted, as a
                           reservation for its window, on the scheduler's catalogue of reservations; the decisions are
                           then replayed on the storage, where a reservation that does not fit fails (Fig. 7);
                           1: every request is decided at its start on the exact state (iosim's earlier model) */
  int requeue_window; /**< decide_start 0 and requeue: 0 (default, Table 2 "postpone starting time"): retry k asks for
                           [submit + k·interval, submit + duration), the end as submitted, while the job then holds
                           its storage for its duration; 1: retry k asks for the window it will hold,
                           [submit + k·interval, submit + k·interval + duration) */
} ios_storalloc_options_t;

/** Fills `o` with the defaults above. */
void ios_storalloc_options_default(ios_storalloc_options_t *o);

/** Sets the policy by name or alias, with its default parameters. @return IOS_OK, or IOS_EINVAL with a message
 * listing the valid names. */
int ios_storalloc_options_policy(ios_storalloc_options_t *o, const char *name);

/* ---------------------------------------------------------------------------------------------------------------- */
/** A request's final status. A refused or failed request falls back to the PFS (StorAlloc §4.2). */
enum {
  IOS_REQ_ALLOCATED = 0, /**< every part is held on a disk from `start` to `start + duration` */
  IOS_REQ_REFUSED = 1,   /**< the policy refused it (after its retries when requeue is on) */
  IOS_REQ_FAILED = 2,    /**< no part allocated and at least one failed: the disk chosen for it had no room when the
                              part was to start (random, worst-fit; with decide_start 0 any policy, §5.2 Fig. 7) */
  IOS_REQ_PARTIAL = 3    /**< split_all 0 only: some parts allocated, the others refused or failed */
};

/** The outcome of one request. */
typedef struct {
  int status;             /**< IOS_REQ_* */
  int requeued;           /**< retries made: 0..options.retries */
  double start;           /**< s: when its storage was allocated, or when it fell back to the PFS */
  double delay;           /**< s: start − submit (requeue waits) */
  int parts;              /**< 1, or ceil(capacity / split_threshold) when split */
  double part_size;       /**< bytes: capacity / parts (whole-byte parts differ from it by less than 1 byte) */
  long first_part;        /**< its parts' disks are part_disk[first_part .. first_part + parts) */
  int fail_disk;          /**< the disk of its first failed part (chosen without room); -1 when no part failed */
  int parts_allocated;    /**< parts held on a disk (0..parts; = parts when allocated) */
  double allocated_bytes; /**< bytes of those parts (= capacity when allocated) */
  double est_bw;          /**< bytes/s: StorAlloc's estimate of the allocation's bandwidth (ios_storage_bw_estimate: the
                               permanent maximum I/O regime of §4.2, averaged over its duration) at its start, summed over
                               its parts, each part sharing with the others; NAN when not allocated */
} ios_request_outcome_t;

/** Per disk, over [t_begin, t_end] (time-weighted means; StorAlloc Table 3). */
typedef struct {
  double mean_fill_pct, max_fill_pct; /**< % of its capacity held */
  double mean_allocs;                 /**< mean number of allocations held */
  int max_allocs;
  long allocations; /**< allocations it received */
  double volume;    /**< bytes it received */
} ios_storalloc_disk_metrics_t;

/** Per node: allocations held by its disks. */
typedef struct {
  double mean_allocs;
  int max_allocs;
  long allocations;
} ios_storalloc_node_metrics_t;

/** Global metrics (StorAlloc Table 3 and §5.2). Means are time-weighted over [t_begin, t_end] = [earliest
 * submission, latest deallocation or decision]. */
typedef struct {
  int requests, allocated, refused, failed; /**< requests by status (allocated = every part held) */
  int partial;                              /**< requests partly allocated (split_all 0) */
  long parts_refused, parts_failed;         /**< parts of every request refused, failed */
  int requeued;                             /**< requests retried at least once */
  int requeued_allocated;                   /**< of which allocated in the end */
  double total_delay;                       /**< s: sum of the delays of every request */
  int split;                                /**< requests cut into several parts */
  int split_allocated;
  long parts_allocated;       /**< allocations made (a part counts as one) */
  double sum_cap;             /**< bytes: the total requested capacity (StorAlloc §5.2 sum_cap) */
  double allocated_volume;    /**< bytes allocated: the sum of the allocated parts' sizes (a partly allocated request
                                   counts the parts it holds) */
  double deallocated_volume;  /**< bytes released at the allocations' ends (equal when the run completes) */
  double served_share;        /**< allocated_volume / sum_cap (0..1; Fig. 4) */
  double mean_fill_pct;       /**< mean over disks of their mean fill % */
  double max_fill_pct;        /**< max over disks of their max fill % (Fig. 5 max_disk_use) */
  double disk_mean_allocs;    /**< mean over disks of their mean allocation count (Fig. 6) */
  double disk_mean_allocs_sd; /**< standard deviation over disks of it */
  int disk_max_allocs;        /**< max over disks of their max allocation count */
  double node_mean_allocs;    /**< the same per node */
  int node_max_allocs;
  double mean_requests; /**< globally: requests holding storage at once (a split request counts once) */
  int max_requests;
  double mean_parts; /**< globally: allocations held at once */
  int max_parts;
  double t_begin, t_end; /**< s */
} ios_storalloc_metrics_t;

/** Everything ios_storalloc_run produces (owned; ios_storalloc_result_free). */
typedef struct {
  int nrequests;
  ios_request_outcome_t *req; /**< [nrequests], in the input order */
  long nparts;
  int *part_disk;     /**< [nparts]: the disk of each part of each request (−1 when not allocated) */
  int *part_status;   /**< [nparts]: IOS_REQ_ALLOCATED, _REFUSED or _FAILED of each part */
  double *part_start; /**< [nparts]: s, when the part's storage is held from (NAN when not allocated) */
  int ndisks, nnodes;
  ios_storalloc_disk_metrics_t *disk; /**< [ndisks] */
  ios_storalloc_node_metrics_t *node; /**< [nnodes] */
  ios_storalloc_metrics_t m;
  double wall_time_s; /**< s of CPU wall clock spent in ios_storalloc_run */
} ios_storalloc_result_t;

/** Schedules the n requests on the platform `s` (StorAlloc §4.2, §4.4) in receiving order (submission time, then
 * input order). o->decide_start 0 (default): each request is decided at its submission as a reservation of each part
 * for its window, on the catalogue of earlier reservations not ended by then (refusing policies subtract every
 * reservation overlapping the window); the granted reservations are then replayed in time order on the exact state,
 * and one that does not fit when it starts fails (Fig. 7). o->decide_start 1: each request is decided at its start on
 * the exact state (ended allocations released first); a choice without room fails at once. Parts are independent
 * (o->split_all 0: a request may be partial) or all or nothing (1). With requeue, refused parts are retried with
 * their start postponed by `interval`, at most `retries` times, then fall back to the PFS; failures are not retried
 * (§4.2). No disk ever holds more than its capacity. See docs/storalloc.md "The scheduler".
 * @param s the platform (>= 1 disk)  @param req [n] requests (n >= 0)  @param o options (NULL = defaults)
 * @param out filled on success (free with ios_storalloc_result_free); untouched on failure.
 * @return IOS_OK, IOS_EINVAL (a bad request or option: message names it) or IOS_ENOMEM. */
int ios_storalloc_run(const ios_storage_t *s, const ios_request_t *req, int n, const ios_storalloc_options_t *o,
                      ios_storalloc_result_t *out);

/** Releases what a result owns. */
void ios_storalloc_result_free(ios_storalloc_result_t *r);

/** The sizes of the parts of a request of `capacity` bytes: parts = 1 when capacity <= threshold (or threshold
 * <= 0), else ceil(capacity / threshold) parts of equal size (whole bytes: the first ones get one byte more when
 * the capacity does not divide; a fractional remainder goes to the last part), so they sum exactly to capacity.
 * Writes at most `max` sizes into sizes (may be NULL) and returns the number of parts (>= 1), or −1 on bad input. */
long ios_storalloc_split(double capacity, double threshold, double *sizes, long max);

/** Status name: "allocated", "refused", "failed". */
const char *ios_storalloc_status_name(int status);

/** The simulated I/O of one request's job (its I/O phases run through SimGrid on its allocated disks, or on the PFS
 * when refused or failed; src/storalloc/run.c). */
typedef struct {
  double bytes; /**< bytes read and written */
  double start; /**< s: the job's start (its allocation's start, or when it fell back to the PFS) */
  double end;   /**< s: when its last I/O phase ended */
  double time;  /**< s spent in I/O phases (posting to completion) */
} ios_request_io_t;

/** Writes the requests table `requests` into sink `k` (borrowed; in a run's directory: requests.csv): one row per
 * request, in input order, columns id, submit_s, capacity_bytes, duration_s, bandwidth_Bps, status, requeued, start_s,
 * delay_s, end_s, parts, part_bytes, disks, nodes, est_bw_Bps, parts_allocated, allocated_bytes (disks and nodes: the
 * indices of each part's disk and node separated by ';', empty when not allocated; end_s = start + duration when
 * allocated, else empty; est_bw_Bps: outcome est_bw, empty when not allocated); with `io` [n] (may be NULL) also
 * io_bytes, io_start_s, io_end_s, io_time_s and sim_bw_Bps = io_bytes / io_time_s (empty when no I/O). Reals in their
 * shortest exact form (ios_fmt_double). @return IOS_OK, IOS_EINVAL, IOS_ENOMEM or the sink's error (IOS_EIO: the
 * message names the file). */
int ios_storalloc_write_requests(ios_sink_t *k, const ios_request_t *req, int n, const ios_storage_t *s,
                                 const ios_storalloc_result_t *r, const ios_request_io_t *io);

/** The metrics as a JSON object (caller deletes): "policy", "options", "platform" (nodes and disks), "metrics"
 * (ios_storalloc_metrics_t, units in the key names), "disks" and "nodes" (per-item metrics). NULL on ENOMEM. */
cJSON *ios_storalloc_metrics_json(const ios_storage_t *s, const ios_storalloc_options_t *o,
                                  const ios_storalloc_result_t *r);

/** Writes ios_storalloc_metrics_json as document `name` of sink `k` (borrowed; in a directory: NAME.json).
 * @return IOS_OK, IOS_EINVAL, IOS_ENOMEM or the sink's error. */
int ios_storalloc_write_metrics(ios_sink_t *k, const char *name, const ios_storage_t *s,
                                const ios_storalloc_options_t *o, const ios_storalloc_result_t *r);

#ifdef __cplusplus
}
#endif
#endif
