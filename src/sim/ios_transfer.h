/* iosim — the transfer layer: the only code that moves I/O bytes (DESIGN.md, data flow). A transfer is the part of an
 * application's I/O operation that goes to one resource (RR-9549 §3.2.2: an operation over n resources is n
 * transfers); the controller gives it a rate (bytes/s) and the transfer layer makes the bytes move at that rate until
 * the last one arrives, then reports the completion.
 *
 * Two paths, chosen once per run (docs/engine.md), each a table of operations in its own file (transfer_direct.c,
 * transfer_flow.c) behind this one interface (transfer.c), with one order of completions (tr_earlier):
 *  - flows: a transfer is one rate-capped SimGrid flow from its host to its resource's host (ios_sg.h), started by
 *    SimGrid's maestro (no actor per transfer); a new rate moves the flow's bound and keeps its transferred bytes; rate
 *    0 pauses the flow (or, where it cannot be paused, stops it keeping its exact remaining bytes, and a later rate
 *    starts the rest as a new flow). SimGrid's
 *    max-min shares every link, so a link the policy does not decide on (a file-system link behind I/O nodes, a router,
 *    an OSS link, a disk) slows the flows that cross it. SimGrid reports each completion from its maestro; the layer
 *    keeps them until the controller collects them (ios_tr_complete_due), in the order the direct path would give.
 *    Transfers that start at the same date over the same route (no latency) to the same host, at the same rate with
 *    the same bytes, share one flow of weight k (a flow group, ios_flow_join): SimGrid's max-min treats it exactly as
 *    k flows, at the cost of one (a checkpoint of 75,000 writers is about a thousand flows); a member given another
 *    rate leaves its group. IOSIM_FLOW_GROUPS=0 turns groups off (the benchmark's side-by-side).
 *    A transfer whose bytes leave from several nodes (nsrc > 1: a job's I/O from all its nodes) is carried by one
 *    flow per distinct route from them (its legs, each with its nodes' part of the bytes and of the rate, weighing
 *    that part in max-min), or by one flow when every node has the same route (transfer_flow.c).
 *  - direct: when no link can bind the rates the sharing policy gives (ios_tr_direct_possible), SimGrid's max-min
 *    would give every flow exactly its rate, so the layer computes what it would: remaining bytes = remaining at the
 *    segment's start − rate × elapsed time, completion date = segment start + remaining / rate. The controller
 *    waits on SimGrid's clock until the next completion date (ios_tr_next_completion); no actor, comm or exception
 *    per segment. Results agree with the flow path to rounding (docs/engine.md gives the measured differences). */
#ifndef IOS_TRANSFER_H
#define IOS_TRANSFER_H

#include "ios_sg.h"

#include <simgrid/forward.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One transfer. The engine owns it (one per resource part of an application's operation, reused by every
 * operation) and fills the public fields; the fields below `private` belong to the transfer layer. */
typedef struct ios_transfer {
  int app, res;   /**< application index; resource index (-1: the PFS, direct access) */
  double volume;  /**< bytes of this transfer */
  double cap;     /**< bytes/s: the application's cap on it */
  double rate;    /**< bytes/s: its current rate (0 = waiting) */
  sg_host_t host; /**< where its bytes leave from: the application's first node, or a striped job's writer's node */
  int nsrc;       /**< the nodes its bytes leave from, in equal parts (>= 1; 0 counts as 1: `host` alone) */
  const sg_host_t *src; /**< [nsrc] those nodes when nsrc > 1 (borrowed from the engine), else NULL */
  const int *srcn;      /**< [nsrc] how many nodes each of `src` stands for (a node group's classes, ios_tr_node_group:
                             its part of the bytes and rate is srcn[i] / their sum; borrowed), or NULL: one each */
  sg_host_t dest;       /**< where they go: its resource's host (a disk's reads: its read host) */
  unsigned gen;         /**< bumped at every new rate: a completion reported for an older rate is stale */
  int slot;             /**< the engine's: index in its resource's list of pending transfers, -1 when not pending */
  double seg_start;     /**< s: start of the current segment */
  double seg_rem0;      /**< bytes remaining when the current segment started */
  int seg_capped;       /**< the rate of the current segment was set by a policy that decides rates itself */
  double latency;     /**< s: the engine's: the route latency from host to the resource, which a flow pays once when it
                           starts (flow path; 0 on the direct path) */
  double seg_latency; /**< s: the latency the current segment paid (a segment that started a flow), else 0 */
  /* private */
  double remaining;      /**< bytes left at `t_last` (flow path: when the current flow started or was stopped) */
  double t_last;         /**< s: date `remaining` refers to (direct path) */
  double finish;         /**< s: completion date at the current rate if nothing else limits it, INFINITY when not
                              running: the direct path's completion date, and the flow path's order of simultaneous
                              completions */
  long order;            /**< segments started before this one's (ties among simultaneous completions) */
  int heap;              /**< index in the direct path's completion heap, -1 when not in it */
  struct ios_flow *flow; /**< flow path: the running flow, or NULL (shared by the members of a flow group) */
  struct ios_transfer *next_member; /**< flow path: the next transfer of its flow group, or NULL */
  int leader;                       /**< flow path: it started its flow (SimGrid reports the group's end to it) */
  int paused;                       /**< flow path: its flow is paused at rate 0 (ios_flow_pause) */
  unsigned long long route_key;     /**< flow path: its route's identity when it started its flow (grouping) */
  struct ios_transfer *legs;        /**< flow path: [nlegs] a transfer from several nodes: one leg per distinct route */
  int nlegs, legcap;                /**< flow path: its legs, and the room of `legs` (owned by the transfer layer) */
  int legs_left;                    /**< flow path: legs whose last byte has not arrived */
  struct ios_transfer *parent;      /**< flow path: a leg's transfer, else NULL */
  double share; /**< flow path: a leg's part of its transfer's bytes and rate (its nodes / the transfer's nodes) */
} ios_transfer_t;

/** What the transfer layer tells the engine. Every callback is required; `ctx` is the one given to ios_tr_init. */
typedef struct {
  /** A segment of `t` ended at the current date having moved `bytes`: `done` 1 at its completion, 0 at a new rate. */
  void (*segment_end)(void *ctx, const ios_transfer_t *t, double bytes, int done);
  /** The last byte of `t` arrived at the current date; `gen` is t->gen when its segment started (called from
   * ios_tr_complete_due, in the controller). */
  void (*completed)(void *ctx, ios_transfer_t *t, unsigned gen);
  /** Flow path, in SimGrid's maestro: a completion is waiting for ios_tr_complete_due (arm the date's step,
   * ios_sg_drive_arm; no other SimGrid call). */
  void (*due)(void *ctx);
} ios_tr_hooks_t;

/** The flows the flow path drives: the functions of ios_sg.h (ios_tr_sg_flows, SimGrid's), or a stand-in with the
 * same contract (the kernel's unit tests, test/unit_kernel.cpp, drive the flow path without a SimGrid run). Each
 * member has the contract of the ios_flow_* / ios_flows_* function of the same name in ios_sg.h; `fl` is the object
 * the flows belong to (ios_tr_options_t.flows_ctx). */
typedef struct {
  int (*init)(void *fl, ios_flow_done_fn done, void *ctx);
  void (*fini)(void *fl);
  ios_flow_t *(*start)(void *fl, sg_host_t from, sg_host_t to, double bytes, double rate, double latency, void *data);
  void (*set_rate)(ios_flow_t *flow, double rate);
  int (*join)(ios_flow_t *flow, double bytes, double rate);
  void (*leave)(ios_flow_t *flow, double bytes, double rate);
  int (*pause)(ios_flow_t *flow);
  void (*resume)(ios_flow_t *flow, double rate);
  int (*members)(const ios_flow_t *flow);
  void *(*data)(const ios_flow_t *flow);
  void (*set_data)(ios_flow_t *flow, void *data);
  void (*route_key)(sg_host_t from, sg_host_t to, unsigned long long *key, double *latency);
  double (*remaining)(const ios_flow_t *flow);
  void (*cancel)(ios_flow_t *flow);
  void (*release)(ios_flow_t *flow);
  void (*reap)(void *fl);
  /** Gives a flow of one member the weight `w` (0 < w <= 1) in max-min sharing (a leg of a transfer from several
   * nodes: its legs together weigh as one flow). */
  void (*weigh)(ios_flow_t *flow, double w);
} ios_tr_flows_t;

/** SimGrid's flows (src/sim/sg_glue.cpp through ios_sg.h). */
extern const ios_tr_flows_t ios_tr_sg_flows;

/** How a run's transfer layer works, chosen once at ios_tr_init. */
typedef struct {
  int direct;         /**< 1: the direct path (see above); 0: flows */
  const double *date; /**< s: the simulated date when the engine keeps its own (borrowed), NULL for SimGrid's clock */
  int flow_groups;    /**< flow path: flow groups (1, the default; 0: the benchmark switch IOSIM_FLOW_GROUPS=0) */
  int flow_restart;   /**< flow path: a new rate cancels the flow and starts the rest as a new one instead of moving
                           its bound (0, the default; 1: the benchmark switch IOSIM_FLOW_RERATE=restart) */
  const ios_tr_flows_t *flows; /**< flow path: the flows it drives; NULL: SimGrid's (ios_tr_sg_flows) of `sg` */
  void *flows_ctx;             /**< the object `flows` belong to: their init, fini, start and reap get it (borrowed) */
  ios_sg_t *sg;    /**< the SimGrid glue of the run (borrowed): SimGrid's flows are its, node groups scale its links */
  int node_groups; /**< flow path: alike nodes of a job as one flow per destination (ios_tr_node_group;
                        1 by default; 0: the benchmark switch IOSIM_NODE_GROUPS=0) */
  const sg_host_t *senders; /**< [nsenders] the compute nodes flows leave from (read at ios_tr_init) */
  int nsenders;
  sg_host_t controller; /**< one more host flows may leave from, or NULL; with `senders`, what decides which
                             links are a node's own (ios_tr_node_group) */
} ios_tr_options_t;

/** A run's transfer layer: its path and each part's state (opaque; its caller owns it, between ios_tr_init and
 * ios_tr_fini). Every function below that takes one acts on that run's transfers only. */
typedef struct ios_tr ios_tr_t;

/** Starts the transfer layer for one run into *tr with options `o` (read at the call), `hooks` (borrowed, must outlive
 * the run) and their context `ctx`. The benchmark switches are read by the engine's configuration
 * (ios_sim_config_t.bench), never here (docs/engine.md, "Benchmark switches"). @return 0; -1 when SimGrid's network
 * model cannot be used for flows (ios_flows_init), -2 when out of memory: then *tr is NULL and nothing is left. */
int ios_tr_init(ios_tr_t **tr, const ios_tr_options_t *o, const ios_tr_hooks_t *hooks, void *ctx);

/** Flow path: stops the running flow of `t`, if any (the run stops with transfers in progress); harmless otherwise. */
void ios_tr_stop(ios_tr_t *tr, ios_transfer_t *t);

/** Ends the run's transfer layer and frees it (the direct path's heap, the flows, the completions not collected, the
 * node groups' links given their bandwidths back). NULL is allowed. */
void ios_tr_fini(ios_tr_t *tr);

/** Node groups (flow path; docs/engine.md, "A job's nodes as one flow"): how an operation of `owner` (an application
 * index >= 0) from its nodes[0..nnodes) to dests[0..ndests) goes. The nodes are partitioned into classes: two nodes
 * are in one class when, for every destination, their routes are the same links in the same order except links of
 * their own (crossed by no other sender's route to the first destination ever checked), and their own links have the
 * same bandwidths, latencies and sharing (a node whose route crosses a shared FATPIPE link is a class of its own). The
 * max-min problem is then symmetric in the nodes of a class, and one flow per destination from the class's first node,
 * with that node's own links at (class size) times their bandwidth, gives the class's legs exactly their rates; those
 * links keep that bandwidth until ios_tr_node_ungroup(owner) or a later call that finds another partition.
 * @return k >= 1 classes of nodes: *reps = [k] each class's first node (reps[0] = nodes[0]) and *counts = [k] its node
 * count (both owned by the layer, valid until the owner's next call or ungroup): k = 1, one transfer per destination
 * from nodes[0] (nsrc 1); k > 1, nsrc = k, src = *reps, srcn = *counts (one leg per class). 0: one leg per node
 * (every class is one node, a node is a destination, or a route crosses another sender's own link; the platform's
 * bandwidths are restored), also when node groups are off (the direct path, the option off, fewer than 2 nodes).
 * -1 out of memory. Call it between the owner's operations only (none of its transfers running), with the owner's
 * nodes its own (no other application's). */
int ios_tr_node_group(ios_tr_t *tr, int owner, const sg_host_t *nodes, int nnodes, const sg_host_t *dests, int ndests,
                      const sg_host_t **reps, const int **counts);

/** Gives back the bandwidths ios_tr_node_group gave the links of `owner`'s classes' first nodes, and frees what it kept
 * for `owner` (its classes: *reps and *counts are no longer valid). Call it when the owner's job ended. */
void ios_tr_node_ungroup(ios_tr_t *tr, int owner);

/** Frees what the transfer layer holds for `t` (its legs), before the engine frees it. */
void ios_tr_forget(ios_transfer_t *t);

/** Makes `t` a new transfer of `volume` bytes, waiting (rate 0). */
void ios_tr_reset(const ios_tr_t *tr, ios_transfer_t *t, double volume);

/** Gives `t` the rate `r` (bytes/s, >= 0; INFINITY on the flow path: no bound of its own) from now on; `capped`
 * marks a rate a policy decided (for the platform-limited share). A transfer whose last byte arrives at this very
 * date keeps its rate (its completion is being reported). @return 1 when a new segment started, 0 when not, -1 out
 * of memory, -2 SimGrid did not start the flow (a route through a failed link). */
int ios_tr_set_rate(ios_tr_t *tr, ios_transfer_t *t, double r, int capped);

/** ios_tr_set_rate for transfers t[0..k) at rates rate[0..k) (bytes/s; <= 0 means 0): one policy decision. `rem`
 * (may be NULL) holds each one's ios_tr_remaining at the current date, which the caller computed already; *started
 * grows by the segments started. @return 0, or ios_tr_set_rate's first negative code (the later ones are not set). */
int ios_tr_set_rates(ios_tr_t *tr, int k, ios_transfer_t *const *t, const double *rate, const double *rem, int capped,
                     long *started);

/** Bytes of `t` still to move at the current date (0 once its last byte arrived). */
double ios_tr_remaining(const ios_tr_t *tr, const ios_transfer_t *t);

/** Direct path: the date (s) of the earliest completion at the current rates, INFINITY when none is running (and
 * always on the flow path). */
double ios_tr_next_completion(ios_tr_t *tr);

/** Flow path: flows running (at a rate > 0); 0 on the direct path. */
long ios_tr_running(const ios_tr_t *tr);

/** The route from host `from` to host `to`: its identity *key (ios_flow_route_key) and latency *latency (s), either
 * may be NULL; computed by SimGrid once per pair in a run. @return 0, or -1 when out of memory. */
int ios_tr_route(ios_tr_t *tr, sg_host_t from, sg_host_t to, unsigned long long *key, double *latency);

/** Flow path: SimGrid flows started so far in this run; 0 on the direct path. */
long ios_tr_flows_started(const ios_tr_t *tr);

/** Flow path: completions SimGrid reported that ios_tr_complete_due has not collected yet; 0 on the direct path. */
int ios_tr_pending(const ios_tr_t *tr);

/** Reports (hooks->completed) every transfer whose last byte arrived at the current date: on the direct path every
 * running transfer whose completion date is the current date, within SimGrid's timing precision (1e-9 s); on the
 * flow path those SimGrid reported. Both in the same order: by the date each would have ended at its rate (`finish`),
 * then by gen, then by `order`. Frees the flows SimGrid is done with. @return how many. */
int ios_tr_complete_due(ios_tr_t *tr);

/** Whether the direct path gives what SimGrid's max-min would, for transfers from host `from[k]` to resource `to[k]`
 * (k < npairs; pairs grouped by resource) whose rates are set by a policy that keeps the sum of the rates on resource
 * r at most `capacity[r]` (bytes/s), each rate at most that too. `res_hosts[r]` is resource r's host. True when every
 * route of the pairs has zero latency (the flow path pays a route's latency at every new rate) and, on every link of
 * those routes, the capacities of the resources reached through it fit the link (their sum on a shared link, each one
 * on a fatpipe). Routes must exist (validated with the platform). @return 1 yes, 0 no, -1 out of memory. */
int ios_tr_direct_possible(int npairs, const sg_host_t *from, const int *to, const sg_host_t *res_hosts,
                           const double *capacity);

#ifdef __cplusplus
}
#endif
#endif
