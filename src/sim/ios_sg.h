/* iosim — SimGrid glue of the simulation: rate-capped flows and their receivers, thin wrappers over public s4u calls
 * that the SimGrid 3.32 C API lacks. Only src/sim/ touches SimGrid activities (see shared notes simgrid-3.32.md). */
#ifndef IOS_SG_H
#define IOS_SG_H

#include <stddef.h>
#include <simgrid/forward.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A rate-capped data flow (one SimGrid mailbox communication). Opaque; owned by the actor that started it. */
typedef struct ios_flow ios_flow_t;

/** Starts a flow of `bytes` bytes (fractional allowed) at most `rate` bytes/s from the calling actor's host to the
 * mailbox `mbox` (which must have a permanent receiver, see ios_sg_receiver_main). Must be called by an actor running
 * on the source host. @return a new flow the caller owns (free with ios_flow_free after ios_flow_wait returns). */
ios_flow_t *ios_flow_start(sg_mailbox_t mbox, double bytes, double rate);

/** Blocks until the flow ends. @return 0 when all bytes arrived, 1 when it was cancelled (by ios_flow_cancel). */
int ios_flow_wait(ios_flow_t *flow);

/** Bytes still to transfer, exact at the current simulated time (0 once finished). */
double ios_flow_remaining(const ios_flow_t *flow);

/** Cancels a running flow; its waiter then returns 1. Harmless on a finished flow. */
void ios_flow_cancel(ios_flow_t *flow);

/** Frees a flow (after its ios_flow_wait returned). NULL is allowed. */
void ios_flow_free(ios_flow_t *flow);

/** Declares, in SimGrid's tracer (which must trace the platform: ios_sg_tracing), a variable of every link named
 * `variable`, drawn in `color` ("R G B", each from 0 to 1). */
void ios_sg_trace_declare(const char *variable, const char *color);

/** Adds to link variable `variable` (declared with ios_sg_trace_declare) of every shared link on the route from host
 * `from` to host `to` the rate `rate` (bytes/s) from date t0 to date t1 (s, t0 < t1), in SimGrid's trace: the first
 * time a link's variable is used, it is set to 0 at date 0. FATPIPE links, which give each flow their whole bandwidth,
 * are left out: nothing is shared there, and SimGrid's tracer keeps every event in memory until the run ends. */
void ios_sg_trace_flow(sg_host_t from, sg_host_t to, const char *variable, double t0, double t1, double rate);

/** Actor body of the permanent receiver of one mailbox: registers itself as the mailbox's permanent receiver
 * (argv[1] = mailbox name), then consumes delivered and cancelled flows forever, so none accumulate.
 * Start it as a daemon actor on the destination host. */
void ios_sg_receiver_main(int argc, char *argv[]);

#ifdef __cplusplus
}
#endif
#endif
