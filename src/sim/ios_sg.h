/* iosim — SimGrid glue of the simulation: rate-capped flows, thin wrappers over SimGrid's installed C++ API (s4u, and
 * the maximum rate of a flow's max-min variable through kernel/resource/Action.hpp) that the SimGrid 3.32 C API
 * lacks. Only src/sim/ touches SimGrid activities (see shared notes simgrid-3.32.md, docs/engine.md).
 *
 * This header is iosim's one seam with SimGrid's internals: every use of what lies beyond SimGrid's public s4u and C
 * API (kernel actions and models, kernel timers, simcalls) is in its implementation, src/sim/sg_glue.cpp, which is
 * built for SimGrid 3.32 only (checked when CMake configures and when the file compiles). test/seam_simgrid.cpp
 * (ctest -L seam) fails if one of the behaviours relied on changes; docs/engine.md, "The SimGrid seam", lists them. */
#ifndef IOS_SG_H
#define IOS_SG_H

#include <stddef.h>
#include <simgrid/forward.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The glue's state for one run (opaque): its flows, the maestro's driver, the deadlock watch, the links it scaled and
 * what it caches. Made by ios_sg_new, freed by ios_sg_free; every function below that changes or reads that state
 * takes it, or a flow of it. */
typedef struct ios_sg ios_sg_t;

/** What outlives the runs of a process (its owner keeps it for the process's lifetime and zero-initialises it: the
 * engine's one instance, src/sim/engine.c). SimGrid 3.32's signals (Activity::on_completion, Engine::on_time_advance)
 * cannot be disconnected and carry no user data, so the glue connects each once per process and they find the run's
 * glue here; the extension slot that marks iosim's flows on SimGrid's activities is made once too. */
typedef struct {
  ios_sg_t *run;    /**< the glue of the run in progress (ios_sg_new), NULL between runs */
  size_t flow_slot; /**< SimGrid's extension slot of a flow on its activity, 0 before the first ios_flows_init */
  int watching;     /**< Activity::on_completion is connected (ios_flows_init) */
  int driving;      /**< Engine::on_time_advance is connected (ios_sg_drive) */
} ios_sg_anchor_t;

/** The glue of a run, which SimGrid's signals reach through `anchor` (kept by the caller, see ios_sg_anchor_t) until
 * ios_sg_free. @return it, or NULL when out of memory. */
ios_sg_t *ios_sg_new(ios_sg_anchor_t *anchor);

/** Frees the glue of a run (after ios_flows_fini; what it still holds goes with it). NULL is allowed. */
void ios_sg_free(ios_sg_t *sg);

/** A rate-capped data flow: one SimGrid host-to-host communication, started by the SimGrid maestro so that no actor
 * waits on it, whose rate is changed in place (the maximum rate of its max-min variable) instead of being cancelled
 * and restarted (docs/engine.md). Opaque. */
typedef struct ios_flow ios_flow_t;

/** Called, in SimGrid's maestro, when the last byte of a flow has arrived: `ctx` is the one given to ios_flows_init,
 * `data` the flow's (ios_flow_start). It must not call back into SimGrid nor free the flow: it records the completion
 * for the controller. */
typedef void (*ios_flow_done_fn)(void *ctx, ios_flow_t *flow, void *data);

/** Prepares the flows of `sg`'s run (once, before its first ios_flow_start): finds SimGrid's network model and watches
 * the completions, reported through `done` with `ctx`. @return 0, or -1 when the network model
 * cannot be found (a SimGrid build other than the 3.32 this glue was written for). */
int ios_flows_init(ios_sg_t *sg, ios_flow_done_fn done, void *ctx);

/** Starts a flow of `sg`'s run of `bytes` bytes (> 0, fractional allowed) from host `from` to host `to` on their route,
 * whose latency is `latency` (s), at most `rate` bytes/s (INFINITY: no bound of its own, the links decide), reporting
 * its completion to the `done` function of ios_flows_init with `data`. Runs in SimGrid's maestro: callable from any
 * actor. The route's latency is paid once, at the start. @return the flow (owned by the caller until ios_flow_release),
 * or NULL when SimGrid did not create it (a route with a failed link). */
ios_flow_t *ios_flow_start(ios_sg_t *sg, sg_host_t from, sg_host_t to, double bytes, double rate, double latency,
                           void *data);

/** Gives a running flow the maximum rate `rate` (bytes/s; INFINITY: none of its own) from the current date on; its
 * transferred bytes so far are kept (SimGrid's max-min re-solves with the new bound). On a flow of k members
 * (ios_flow_join) `rate` is each member's: the flow's bound is k times it. */
void ios_flow_set_rate(ios_flow_t *flow, double rate);

/** Makes `flow` carry one more member: a transfer of `bytes` bytes at `rate` bytes/s over the same route, which
 * SimGrid's max-min would treat exactly as the flow's other members (same links, same bound, same bytes, started now).
 * A flow of k members is one max-min variable of weight k (sharing penalty 1/k): it gets k times a member's share on
 * every link, up to k times a member's bound, and carries k times a member's bytes, which is what k separate variables
 * would get, to rounding (docs/engine.md). @return 0, or -1 when the flow cannot take it (started at another date, or
 * re-rated since it started). */
int ios_flow_join(ios_flow_t *flow, double bytes, double rate);

/** Takes one member of `bytes` bytes still to move out of a flow of k > 1 members (its other members go on at `rate`
 * bytes/s each). */
void ios_flow_leave(ios_flow_t *flow, double bytes, double rate);

/** Suspends a running flow of one member whose route has no latency (a transfer at rate 0): its bytes so far are
 * kept, it takes no bandwidth until ios_flow_resume. Cheaper than a cancel and a new flow, and exact. @return 0, or -1
 * when the flow cannot be paused (several members, a latency, already paused or over): stop it instead. */
int ios_flow_pause(ios_flow_t *flow);

/** Gives a flow of one member the weight `w` (0 < w <= 1) in SimGrid's max-min (its variable's sharing penalty 1/w):
 * on a shared link it gets w times the share of a flow of weight 1. A flow whose route has a latency gets SimGrid's own
 * weight once the latency is paid (CM02), which replaces this one. Ignored on a flow of several members or one over. */
void ios_flow_weigh(ios_flow_t *flow, double w);

/** Resumes a paused flow at `rate` bytes/s from the current date (no latency is paid again). */
void ios_flow_resume(ios_flow_t *flow, double rate);

/** Members of a flow (1 unless joined). */
int ios_flow_members(const ios_flow_t *flow);

/** The `data` SimGrid's completion report gives (ios_flow_start's), and its replacement (a group's new leader). */
void *ios_flow_data(const ios_flow_t *flow);
void ios_flow_set_data(ios_flow_t *flow, void *data);

/** Identifies the route from host `from` to host `to`: *key (a hash of its links, in order) and *latency (s). Two
 * routes with the same key cross the same links (up to a hash collision, which callers guard against by also comparing
 * the flows' destinations). */
void ios_flow_route_key(sg_host_t from, sg_host_t to, unsigned long long *key, double *latency);

/** Bytes still to transfer (all members together), exact at the current simulated time (0 once finished). */
double ios_flow_remaining(const ios_flow_t *flow);

/** Sets `link`'s bandwidth to bw × factor (bytes/s; factor >= 1): a link that carries `factor` alike nodes' parts
 * (ios_tr_node_group); factor 1 gives it `bw` back. ios_flow_binding compares the link at bandwidth / factor. */
void ios_sg_link_scale(ios_sg_t *sg, sg_link_t link, double bw, double factor);

/** What binds `flow` over the interval that ends at the current date, read before anything changes at this date (the
 * step's start): SimGrid's max-min values of the last solve. *link = the narrowest link of its route whose usage is
 * within 1e-6 of its bandwidth (saturated; a link scaled by ios_sg_link_scale compared at its bandwidth over its
 * factor, one node's), else NULL (the name is SimGrid's, valid for the run). Reads
 * Link::get_usage once per link and date and the route once per flow (docs/engine.md, "What bound a job").
 * @return bytes/s: each member's rate over that interval, or NAN when the flow has ended. */
double ios_flow_binding(ios_flow_t *flow, const char **link);

/** Stops a running flow (its `done` is never called). The caller must still ios_flow_release it. */
void ios_flow_cancel(ios_flow_t *flow);

/** Gives the flow back: SimGrid frees it once it has finished with it (a flow whose completion is being reported is
 * freed after the report; a cancelled one once SimGrid has recorded the cancellation). NULL is allowed. */
void ios_flow_release(ios_flow_t *flow);

/** Frees every flow released since the last call whose SimGrid activity has ended. Call it outside SimGrid's
 * completion reports (e.g. from the controller). */
void ios_flows_reap(ios_sg_t *sg);

/** Frees every flow of `sg` still held, after the simulation (ios_flows_init may then be called again). */
void ios_flows_fini(ios_sg_t *sg);

/** Flow path: reports to `done` (ios_flows_init) every flow whose last byte arrived at the current date, from
 * SimGrid's finished actions, before SimGrid's own report of them (which then does not report them again). Call it
 * from a step (ios_sg_drive). */
void ios_flows_collect(ios_sg_t *sg);

/** The flow path's driver, without any actor: SimGrid's maestro calls `step(ctx)` once at every date its clock
 * reaches (a kernel timer set when SimGrid's models have reached the date, before its other timers and its completion
 * reports run), the first time at the current date. A step may start, re-rate and stop flows, and set the next
 * wake-up. */
void ios_sg_drive(ios_sg_t *sg, void (*step)(void *ctx), void *ctx);

/** A step at the current date, unless one is set or running (a completion SimGrid reported after the date's step). */
void ios_sg_drive_arm(ios_sg_t *sg);

/** SimGrid's clock stops at `date` (s, not in the past) even when no flow ends then: the step there does the work.
 * Replaces the previous wake-up when `date` differs. */
void ios_sg_wake_at(ios_sg_t *sg, double date);

/** No step any more, and the pending wake-up is removed (SimGrid's clock stops with the last flow). */
void ios_sg_drive_stop(ios_sg_t *sg);

/** Runs fn(ctx) in SimGrid's maestro and returns what it returns: from an actor, as one simcall answered at once
 * (the actor resumes at the same date); from the maestro, directly. For code that changes state SimGrid's maestro
 * owns (the engine's, on the flow path) from an actor of the program (the SimGrid plugin, src/lib/plugin.cpp). */
int ios_sg_in_maestro(int (*fn)(void *ctx), void *ctx);

/** Deadlock watch, for a caller whose actors wait on iosim (the SimGrid plugin): after each step of ios_sg_drive at
 * which waiting() > 0, no flow moves and no wake-up is set, SimGrid's state is examined once every actor that can run
 * at the current date has run (released() > 0 — actors the caller let go that have not run yet — means some can).
 * When no timer is set and no activity of any SimGrid model will end, SimGrid would declare a deadlock next and kill
 * every actor (SimGrid 3.32: Engine::on_deadlock, then EngineImpl::run kills them): stalled() is called first, in the
 * maestro, so that the caller can let its waiting actors go with an error, at the same date. A re-check at the date
 * runs a short-lived actor ("iosim-deadlock-watch"). Until ios_sg_drive_stop; the functions are the caller's. */
void ios_sg_stall_watch(ios_sg_t *sg, int (*waiting)(void), int (*released)(void), void (*stalled)(void));

/** Declares, in SimGrid's tracer (which must trace the platform: ios_sg_tracing), a variable of every link named
 * `variable`, drawn in `color` ("R G B", each from 0 to 1). */
void ios_sg_trace_declare(const char *variable, const char *color);

/** Links of at least this bandwidth (bytes/s: 1000 TB/s, the fabric links of iosim's generated platforms, which stand
 * for an interconnect that never limits the I/O) are left out of the trace, like FATPIPE links. */
#define IOS_SG_TRACE_UNBOUNDED_BPS 1e15

/** Adds to link variable `variable` (declared with ios_sg_trace_declare) of every shared link on the route from host
 * `from` to host `to` the rate `rate` (bytes/s) from date t0 to date t1 (s, t0 < t1), in SimGrid's trace: the first
 * time a link's variable is used, it is set to 0 at date 0. FATPIPE links, which give each flow their whole bandwidth,
 * are left out: nothing is shared there, and SimGrid's tracer keeps every event in memory until the run ends; so are
 * links of IOS_SG_TRACE_UNBOUNDED_BPS or more. */
void ios_sg_trace_flow(ios_sg_t *sg, sg_host_t from, sg_host_t to, const char *variable, double t0, double t1,
                       double rate);

#ifdef __cplusplus
}
#endif
#endif
