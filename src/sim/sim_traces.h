/* iosim — the run's traces (traces.c; src/sim/ only): events.csv (output.events), else the compact timeline.bin that
 * `iosim view` reads, allocations.csv, and SimGrid's Paje trace. Its state is the engine's (engine_t.traces). */
#ifndef IOS_SIM_TRACES_H
#define IOS_SIM_TRACES_H

#include "sim_core.h"

/** Makes the traces' state, with no file open. @return IOS_OK or IOS_ENOMEM. */
int sim_traces_init(engine_t *e);
/** Removes the traces still being written (a run that failed or never ran) and frees the state (safe when
 * sim_traces_init failed or was not called). */
void sim_traces_fini(engine_t *e);

/** events.csv (output.events) or timeline.bin, and allocations.csv, written through temporary files renamed when the
 * run has finished (sim_close_traces), removed if it fails (sim_traces_fini). @return IOS_OK, IOS_EIO or IOS_ENOMEM. */
int sim_open_traces(engine_t *e, const ios_sim_config_t *s);
/** Commits the traces. @return IOS_OK or IOS_EIO. */
int sim_close_traces(engine_t *e);
/** Whether segment rows are written (events.csv or timeline.bin is open). */
int sim_segment_rows(const engine_t *e);

/** A resource's name: index `res` in the pool, or the PFS for res < 0. */
const char *sim_res_name(const ios_platform_t *p, int res);
/** One interval row of application `app`: kind (work, io, transfer), resource, t0, t1 (s), bytes (< 0: none). */
void sim_ev_row(engine_t *e, int app, const char *kind, const char *resource, double t0, double t1, double bytes);
/** The row of application as's I/O operation of `volume` bytes that completes now. */
void sim_ev_io_row(engine_t *e, const app_state_t *as, double volume);
/** A transfer segment's row (events.csv or timeline.bin): t from its segment's start to t1, having moved `bytes`. */
void sim_segment_row(engine_t *e, const transfer_t *t, double t1, double bytes);
/** One allocations.csv row: application as's allocation over [t0, t1). */
void sim_al_row(const engine_t *e, const app_state_t *as, double t0, double t1);

/** SimGrid's trace (docs/trace.md): one link variable per application, "b" + its name, declared when SimGrid's tracer
 * records the run (sets E.trace). @return IOS_OK, or IOS_EINVAL/IOS_EIO with a message. */
int sim_trace_setup(engine_t *e, const ios_sim_config_t *s);
/** SimGrid's trace: a segment of transfer t that moved `bytes` from t->seg_start to now, at its mean rate, on the
 * shared links of its route. */
void sim_trace_segment(engine_t *e, const transfer_t *t, double bytes);
/** SimGrid's trace, when the run stops at the window's end: the segments still running, up to now (events.csv leaves
 * them out). */
void sim_trace_running(engine_t *e);

#endif
