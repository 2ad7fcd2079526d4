/* iosim — the controller (controller.c; src/sim/ only): its events, every decision through the sharing policy, the
 * window's snapshots and the periodic ticks, and the hooks of the transfer layer. Its loop is the calendar's
 * (calendar.c); its state is the engine's (engine_t.ctl). */
#ifndef IOS_SIM_CONTROLLER_H
#define IOS_SIM_CONTROLLER_H

#include "sim_core.h"

/* The controller's events. */
enum { EV_POST, EV_COMPLETE, EV_APP_END, EV_SNAPSHOT_BEGIN, EV_SNAPSHOT_END, EV_TICK, EV_SUBMIT, EV_BEGIN };

/** Makes the controller's state (no event, no buffer yet). @return IOS_OK or IOS_ENOMEM. */
int sim_controller_init(engine_t *e);
/** Frees it: its events and decision buffers (safe when sim_controller_init failed or was not called). */
void sim_controller_fini(engine_t *e);

/** The hooks of the transfer layer (ios_transfer.h) into the engine; their context is the engine_t. */
extern const ios_tr_hooks_t sim_tr_hooks;

/** Queues an event for the controller's next batch (an out-of-memory is recorded with sim_fail). */
void sim_push_event(engine_t *e, int type, int app, transfer_t *t, unsigned gen);
/** Handles every queued event. */
void sim_handle_events(engine_t *e);
/** After a batch of events: starts queued jobs, decides on every resource whose set of transfers changed. */
void sim_decide_all(engine_t *e);
/** Events waiting for the controller (sim_handle_events). */
int sim_events_pending(const engine_t *e);
/** Stops every running flow (the run ends with transfers in progress: the window's end, a failure). */
void sim_stop_transfers(engine_t *e);
/** The progress line's last one, when the run showed any. */
void sim_progress_end(engine_t *e);

#endif
