/* iosim — storage capacity allocation (StorAlloc, Monniot et al. 2022): the storage platform (nodes holding disks),
 * what is allocated on each disk and until when, and the storage placement policies that choose a disk for each
 * allocation (random, round-robin, worst-fit, best-bandwidth; StorAlloc §4.2).
 *
 * Pure C, no SimGrid, no hidden global state: the platform and the allocation state are plain structs owned by the
 * caller, and a policy only reads them (the request scheduler in src/storalloc/scheduler.c changes the state).
 * Units everywhere: bytes, seconds, bytes/s. Vocabulary: shared/DESIGN.md ("storage request"). */
#ifndef IOS_STORAGE_H
#define IOS_STORAGE_H

#include "ios_policy.h"
#include "ios_rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------------------------- */
/** One disk (StorAlloc §4.3: a node embeds at least one disk; capacity and read/write bandwidth). */
typedef struct {
  double capacity; /**< bytes, > 0 */
  double read_bw;  /**< bytes/s, > 0 */
  double write_bw; /**< bytes/s, > 0 */
  int node;        /**< index of its node in ios_storage_t.nodes */
} ios_storage_disk_t;

/** One storage node: its network bandwidth and its disks, which are ios_storage_t.disks[first .. first + ndisks). */
typedef struct {
  char name[32]; /**< for outputs ("ssd0", "node3"); may be empty */
  double bw;     /**< bytes/s of the node's network link, > 0; INFINITY = not a bottleneck */
  int first;     /**< index of its first disk */
  int ndisks;    /**< >= 1 */
} ios_storage_node_t;

/** A storage platform: nodes and their disks, disks numbered node by node (StorAlloc §4.3; the network is flat).
 * Independent of any file format: build it with ios_storage_add_node or ios_storage_preset, release it with
 * ios_storage_free. A zero-initialised struct is an empty platform. */
typedef struct {
  int nnodes, ndisks;
  ios_storage_node_t *nodes; /**< [nnodes], owned */
  ios_storage_disk_t *disks; /**< [ndisks], owned */
} ios_storage_t;

/** Appends a node named `name` (may be NULL) with network bandwidth `node_bw` (bytes/s, > 0, INFINITY allowed) and
 * `ndisks` >= 1 identical disks of `capacity` bytes (> 0) and `read_bw`, `write_bw` bytes/s (> 0, finite).
 * @return IOS_OK, IOS_EINVAL (a value out of range; the platform is untouched) or IOS_ENOMEM. */
int ios_storage_add_node(ios_storage_t *s, const char *name, double node_bw, int ndisks, double capacity,
                         double read_bw, double write_bw);

/** Appends one disk of `capacity` bytes and `read_bw`, `write_bw` bytes/s (> 0, finite) to the LAST node of `s`
 * (disks stay numbered node by node; for nodes whose disks differ, e.g. a platform XML's disks).
 * @return IOS_OK, IOS_EINVAL (no node yet, or a value out of range; nothing changed) or IOS_ENOMEM. */
int ios_storage_add_disk(ios_storage_t *s, double capacity, double read_bw, double write_bw);

/** Releases the arrays of `s` and empties it. */
void ios_storage_free(ios_storage_t *s);

/** The preset platforms of StorAlloc §5.1 (Table 4 layouts, disks and links from the authors' platform files) and
 * §5.2 (Table 5), built into `out` (which must be empty):
 * - "1N1D": 1 node, 1 disk of `total` bytes (a RAID-10 volume: 1.465 GB/s write, 1.565 GB/s read);
 * - "1NnD": 1 node, 8 disks of total/8; "nN1D": 8 nodes of 1 disk; "nNnD": 4 nodes of 2 disks
 *   (NVMe SSDs: 2.93 GB/s write, 3.13 GB/s read);
 * - "table5" (alias "heterogeneous"): 2 nodes of 5 SSDs of 1.6 TB at 2.93 GB/s with 200 Gb/s links and 4 nodes of
 *   2 HDDs of 2 TB at 0.08 GB/s with 100 Gb/s links (32 TB; `total` must be 0 or 32e12).
 * Every node of the four layouts has a 100 Gb/s (12.5 GB/s) link. Names are case-insensitive.
 * @param total bytes, > 0 (StorAlloc: 8, 16, 32, 64 TB); ignored by "table5" when 0.
 * @return IOS_OK, IOS_EINVAL (unknown name or bad total; `out` untouched) or IOS_ENOMEM. */
int ios_storage_preset(const char *name, double total, ios_storage_t *out);

/** NULL-terminated list of the preset names, for messages. */
extern const char *const ios_storage_preset_names[];

/* ---------------------------------------------------------------------------------------------------------------- */
/** One allocation held by a disk: `size` bytes from its start until `end` (s), and its bandwidth need. */
typedef struct {
  double size; /**< bytes */
  double end;  /**< s: deallocation time */
  double need; /**< bytes/s it would use at most; 0 = no stated need (it takes what it can) */
  long owner;  /**< the request index that owns it (for the caller) */
} ios_storage_alloc_t;

/** What one disk holds now. */
typedef struct {
  double used;            /**< bytes, sum of the sizes of its allocations, never above the capacity */
  int n, cap;             /**< allocations held, room of the array */
  ios_storage_alloc_t *a; /**< [n], owned, in end order (ios_storage_state_add keeps it sorted) */
} ios_storage_disk_state_t;

/** The allocation state of a platform at time `now`: every allocation started at or before `now` and ends after it
 * (the scheduler removes ended ones first). When the scheduler plans (decides at submission, StorAlloc §4.2), the
 * state it shows a policy is instead its catalogue's reservations overlapping the window asked for, held as if from
 * `now` (ios_storage_state_reserve). */
typedef struct {
  double now; /**< s */
  int ndisks;
  ios_storage_disk_state_t *disk; /**< [ndisks], owned */
} ios_storage_state_t;

/** Prepares an empty state for `s`. @return IOS_OK or IOS_ENOMEM. */
int ios_storage_state_init(ios_storage_state_t *st, const ios_storage_t *s);
/** Releases the state's arrays. */
void ios_storage_state_free(ios_storage_state_t *st);
/** Adds an allocation to disk `d` when it fits (used + size <= capacity, exactly: sizes in whole bytes add up
 * without rounding) and keeps the disk's array in end order. @return IOS_OK, 1 when it does not fit (nothing
 * changed), IOS_EINVAL (bad disk or size), IOS_ENOMEM. */
int ios_storage_state_add(ios_storage_state_t *st, const ios_storage_t *s, int d, const ios_storage_alloc_t *a);
/** A scheduler's view of disk `d` over a planned window (StorAlloc §4.2: the catalogue of on-going and planned
 * allocations): adds `a` like ios_storage_state_add but without the capacity check, so `used` may exceed the capacity
 * (the sum of the reservations overlapping a window is a conservative bound on what the disk will hold at once; free
 * bytes are then 0). @return IOS_OK, IOS_EINVAL (bad disk or size) or IOS_ENOMEM. */
int ios_storage_state_reserve(ios_storage_state_t *st, const ios_storage_t *s, int d, const ios_storage_alloc_t *a);
/** Empties every disk of the state (keeps the arrays' room). */
void ios_storage_state_clear(ios_storage_state_t *st);
/** Removes from disk `d` one allocation of `owner` with this size and end. @return IOS_OK or IOS_EINVAL (none). */
int ios_storage_state_remove(ios_storage_state_t *st, int d, long owner, double size, double end);
/** Free bytes of disk `d` now (capacity − used, >= 0). */
double ios_storage_free_bytes(const ios_storage_state_t *st, const ios_storage_t *s, int d);

/* ---------------------------------------------------------------------------------------------------------------- */
/** What a policy is asked to place: one allocation (a whole request, or one part of a split request). */
typedef struct {
  double size;     /**< bytes, > 0 */
  double start;    /**< s: equals state->now */
  double duration; /**< s, >= 0 */
  double need;     /**< bytes/s, 0 = none */
} ios_storage_ask_t;

/** The bandwidth the new allocation `ask` would get on disk `d`, averaged over [start, start + duration], under
 * StorAlloc's permanent maximum I/O regime (§4.2 best-bandwidth, §5.2 "fairness"): every allocation held (and the new
 * one) does I/O all the time at the most it can; a disk's write bandwidth is shared max-min among its allocations,
 * each capped by its need when it has one, then the node's link is shared max-min among the node's allocations,
 * each capped by its disk share. Allocations leave at their end, so the share grows during the interval. The new
 * allocation itself has no cap (the value ranks disks by what is left). Instantaneous value when duration is 0.
 * @return bytes/s (0 on bad arguments). */
double ios_storage_bw_estimate(const ios_storage_t *s, const ios_storage_state_t *st, int d,
                               const ios_storage_ask_t *ask);

/** ios_storage_bw_estimate for every disk of node v at once (one sweep): out[k] for the node's k-th disk.
 * @param out [nodes[v].ndisks] bytes/s  @return IOS_OK, IOS_EINVAL or IOS_ENOMEM. */
int ios_storage_bw_estimate_node(const ios_storage_t *s, const ios_storage_state_t *st, int v,
                                 const ios_storage_ask_t *ask, double *out);

/** Memory a policy keeps across calls within one run (round-robin's cursors, the random stream). The caller
 * allocates cursor[nnodes + 1] zeroed and seeds rng; nothing else is global. */
typedef struct {
  ios_rng_t rng;
  int *cursor; /**< [nnodes + 1]: round-robin's next node, then each node's next disk */
} ios_storage_ctx_t;

/** What a storage placement returns. */
enum {
  IOS_STORAGE_CHOSEN = 0, /**< *disk_out holds the chosen disk (which may lack room: the allocation then fails) */
  IOS_STORAGE_REFUSED = 1 /**< the policy refuses the request (StorAlloc §4.2: the job falls back to the PFS) */
};

/** Storage placement family (StorAlloc §4.2): which disk holds an allocation. */
typedef struct {
  IOS_POLICY_DESCRIPTOR;
  /** Chooses a disk for `ask` given the platform `s` and its state `st` (st->now = ask->start).
   * @return IOS_STORAGE_CHOSEN with *disk_out in 0..ndisks-1, IOS_STORAGE_REFUSED, or IOS_EINVAL. */
  int (*place)(const ios_storage_t *s, const ios_storage_state_t *st, const ios_storage_ask_t *ask,
               const ios_params_t *p, ios_storage_ctx_t *ctx, int *disk_out);
  int may_refuse; /**< 1: the policy refuses when it foresees no room (round-robin, best-bandwidth); 0: it always
                       chooses a disk and the allocation may fail (random, worst-fit) */
} ios_storage_policy_t;

/** Look-up by name or alias (ios_policy_find of IOS_FAMILY_STORAGE); NULL when unknown. */
const ios_storage_policy_t *ios_storage_policy_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
