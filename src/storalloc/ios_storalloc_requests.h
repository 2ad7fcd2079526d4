/* iosim — the inputs of StorAlloc runs (Monniot et al. 2022): the storage platform and the scheduler options from
 * JSON, request traces in CSV (the fields of StorAlloc's Theta extraction, §5.1), and a generator of a year of
 * requests shaped on the TOKIO-ABC job summaries ($IOSIM_DATA_DIR/tokio-abc), since the Theta 2020 extract is not
 * public. See docs/storalloc.md for the formats. Units: bytes, seconds, bytes/s. */
#ifndef IOS_GEN_STORALLOC_H
#define IOS_GEN_STORALLOC_H

#include "ios_rng.h"
#include "ios_storalloc.h"

#include <cjson/cJSON.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Reads a storage platform from JSON: {"preset": "nNnD", "capacity": "32TB"} (ios_storage_preset; "table5" needs no
 * capacity) or {"nodes": [{"name": "ssd", "count": 2, "bandwidth": "200Gbps", "disks": 5, "disk_capacity": "1.6TB",
 * "read_bw": "3.13GB/s", "write_bw": "2.93GB/s"}, ...]}: "count" (nodes of this kind) defaults to 1, "name" to
 * "node", "bandwidth" (the node's link) to unlimited, "disks" (per node) to 1, "read_bw" to "write_bw"; numbers are
 * bytes and bytes/s, strings take units ("1.6TB", "2.93GB/s", "200Gbps" = bits). Unknown members are errors.
 * `obj` names the object in messages ("platform"). `out` must be empty.
 * @return IOS_OK, IOS_EINVAL (the message names file, field, value and fix; out untouched) or IOS_ENOMEM. */
int ios_storage_from_json(const cJSON *j, const char *file, const char *obj, ios_storage_t *out);

/** Reads scheduler options from a JSON object: "policy" (a storage policy name), "params" (an object of that
 * policy's parameters), "split" (false, true, or {"threshold": "200GB"}), "requeue" (false, true, or {"retries": 5,
 * "interval": "5min"}), "seed" (integer >= 0). Sizes and durations take numbers (bytes, s) or strings with units.
 * Absent members keep o's values; unknown members are errors. @return IOS_OK or IOS_EINVAL (o untouched). */
int ios_storalloc_options_from_json(const cJSON *j, const char *file, const char *obj, ios_storalloc_options_t *o);

/** Reads a request trace: CSV with a header naming its columns, in any order, either StorAlloc's names or iosim's:
 * id; nodes|nodesUsed; submission_time|submissionTime; start_time|startTime; end_time|endTime;
 * read_bytes|readBytes; written_bytes|writtenBytes; runtime|runTime; optional bandwidth (bytes/s need).
 * Times are seconds or "YYYY-MM-DD HH:MM:SS" (UTC); bytes may carry units. Required: id, read and written bytes, a
 * start (start_time, else submission_time) and a duration (end_time, else runtime). Each row becomes a request
 * (StorAlloc §5.1): capacity = max(read, written), submit = start_time (submission_time when there is no start),
 * duration = end − start (runtime when there is no end). Rows with capacity 0 are skipped (as StorAlloc's client
 * does) and counted in *skipped (may be NULL). Empty lines are ignored.
 * @param out a malloc'ed array of *n requests in file order (caller frees).
 * @return IOS_OK, IOS_EIO (unreadable) or IOS_EINVAL (message: path, line, column, value, fix); out untouched. */
int ios_storalloc_read_trace(const char *path, ios_request_t **out, int *n, int *skipped);

/** Writes requests as a trace ios_storalloc_read_trace reads back (columns id, nodes, submission_time, start_time,
 * end_time, read_bytes, written_bytes, runtime, bandwidth; times in s). @return IOS_OK, IOS_EINVAL or IOS_EIO. */
int ios_storalloc_write_trace(const char *path, const ios_request_t *req, int n);

/* ---------------------------------------------------------------------------------------------------------------- */
/** The request generator's parameters (defaults: ios_storalloc_gen_default). */
typedef struct {
  int requests;          /**< requests in the span (StorAlloc §5.1: about 24,000 in 2020) */
  double days;           /**< span in days (365) */
  double size_scale;     /**< multiplies the TOKIO bytes (1) */
  double duration_scale; /**< multiplies the TOKIO walltimes (1) */
  double jitter;         /**< σ of the log-normal factors on each request's bytes and on its duration (0.3) */
  int bandwidth;         /**< 1: the request needs its job's measured bandwidth (agg_perf_MiBps, scaled); 0: none */
  double cores_per_node; /**< nodes = ceil(nprocs / cores_per_node) (32) */
  char data[1024];       /**< the TOKIO CSV; "" = ${IOSIM_DATA_DIR}/tokio-abc/tokio_abc_jobs_slim.csv */
  /* shape "theta": requests calibrated to the statistics StorAlloc publishes of its Theta 2020 extract (§5.1, §5.2;
   * docs/storalloc.md "Theta 2020 generator" gives the source of each default); the TOKIO fields above are unused */
  int theta;             /**< 0: shape "tokio" (the default); 1: shape "theta" */
  double min_size;       /**< bytes: the smallest capacity (1e10: §5.1 keeps jobs reading or writing >= 10 GB) */
  double max_size;       /**< bytes: the largest (32e12: §5.2, never more than 32 TB needed at once) */
  double sum_cap;        /**< bytes: expected sum of the capacities (1.6e15: §5.2 sum_cap) */
  double tail_from;      /**< bytes: the tail's lower bound (8e12: the largest disk of Table 4) */
  double tail_share;     /**< share of sum_cap in requests of at least tail_from (0.4: Fig. 4), 0 = no tail */
  double duration_mean;  /**< s: mean duration (9650: §5.2's 1.53 % mean disk use of 32 TB over `days`) */
  double duration_sigma; /**< σ of the log-normal durations (1: an assumption; the paper gives none) */
} ios_storalloc_gen_t;

/** Fills the defaults above. */
void ios_storalloc_gen_default(ios_storalloc_gen_t *g);

/** Reads the parameters of a JSON object {"kind": "storalloc", "requests": 24000, "days": 365, "size_scale": 1,
 * "duration_scale": 1, "jitter": 0.3, "bandwidth": 0, "cores_per_node": 32, "data": "...", "shape": "tokio"} or,
 * with "shape": "theta", {"min_size": 1e10, "max_size": 32e12, "sum_cap": 1.6e15, "tail_from": 8e12, "tail_share":
 * 0.4, "duration_mean": 9650, "duration_sigma": 1} (bytes and s; all but kind optional; each shape ignores the other's
 * parameters; `obj` names it in messages). @return IOS_OK or IOS_EINVAL (g untouched). */
int ios_storalloc_gen_from_json(const cJSON *j, const char *file, const char *obj, ios_storalloc_gen_t *g);

/** Submission times of a request generator: n times over [0, span) s, a Poisson process conditioned on its count
 * (sorted uniform draws from `rng`), into times[n]. */
void ios_storalloc_arrivals(ios_rng_t *rng, int n, double span, double *times);

/** Shape "theta" of ios_storalloc_generate (theta.c): g->requests requests, submission times as for "tokio"; sizes
 * from a mixture: n_tail = round(tail_share · sum_cap / E_tail) requests log-uniform on [tail_from, max_size]
 * (E_tail = (max − tail_from) / ln(max / tail_from)), chosen uniformly among the requests, the others a truncated
 * Pareto on [min_size, tail_from) whose exponent makes their mean (1 − tail_share) · sum_cap / (requests − n_tail)
 * (tail_share 0: one truncated Pareto on [min_size, max_size] of mean sum_cap / requests); durations log-normal of
 * mean duration_mean and σ duration_sigma, independent of the size; capacity = read = written bytes, 1 node, no
 * bandwidth need. @return IOS_OK, IOS_EINVAL (a mean no truncated Pareto reaches, bad bounds: the message names the
 * parameters and the fix) or IOS_ENOMEM. */
int ios_storalloc_generate_theta(const ios_storalloc_gen_t *g, uint64_t seed, ios_request_t **out, int *n);

/** Generates g->requests requests over g->days days (shape "theta": ios_storalloc_generate_theta): submission times are
 * those of a Poisson process conditioned on the count (sorted uniform times from 0); each request copies a job of the
 * TOKIO-ABC table drawn uniformly (its read and written bytes, walltime, nprocs, and measured bandwidth), multiplied by
 * the scales and by log-normal factors exp(jitter·N(0,1)) (one on the bytes, one on the duration); capacity = max(read,
 * written), rounded to whole bytes (>= 1). Same seed, same requests.
 * @param out a malloc'ed array of *n requests sorted by submission time (caller frees).
 * @return IOS_OK, IOS_EIO (the data file is missing), IOS_EINVAL (bad parameters, or IOSIM_DATA_DIR needed but unset;
 * the message says to set it) or IOS_ENOMEM. */
int ios_storalloc_generate(const ios_storalloc_gen_t *g, uint64_t seed, ios_request_t **out, int *n);

#ifdef __cplusplus
}
#endif
#endif
