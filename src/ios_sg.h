/* iosim — SimGrid glue: the few calls the SimGrid 3.32 C API lacks, as thin wrappers over public s4u calls.
 * This is the only code, with engine.c, that touches SimGrid activities (see shared notes simgrid-3.32.md). */
#ifndef IOS_SG_H
#define IOS_SG_H

#include <stddef.h>
#include <simgrid/forward.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A rate-capped data flow (one SimGrid mailbox communication). Opaque; owned by the actor that started it. */
typedef struct ios_flow ios_flow_t;

/** Sets one SimGrid configuration item ("name:value"); must be called after simgrid_init and before loading
 * the platform. @return 0, or -1 when SimGrid rejects it. */
int ios_sg_set_config(const char *name_value);

/** Loads a SimGrid platform file, catching SimGrid's parse errors.
 * @return 0, or -1 with a one-line reason in err (errlen bytes, NUL-terminated). */
int ios_sg_load_platform(const char *path, char *err, size_t errlen);

/** Whether the route from one host to another crosses the named link (routes are compared as sets: SimGrid's
 * Dijkstra routing may list a hop's links in reverse). @return 1 yes, 0 no, -1 no route. The platform must be
 * loaded with ios_sg_load_platform (which seals it); a zone that cannot route may abort SimGrid, so callers check
 * reachability in a child process first (see platform.c). */
int ios_sg_route_has_link(sg_host_t from, sg_host_t to, const char *link);

/** Bandwidth (bytes/s) of the named link, or -1 when no link has that name. */
double ios_sg_link_bandwidth(const char *name);

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

/** Actor body of the permanent receiver of one mailbox: registers itself as the mailbox's permanent receiver
 * (argv[1] = mailbox name), then consumes delivered and cancelled flows forever, so none accumulate.
 * Start it as a daemon actor on the destination host. */
void ios_sg_receiver_main(int argc, char *argv[]);

#ifdef __cplusplus
}
#endif
#endif
