/* iosim — the dates of the run (calendar.c; src/sim/ only): the calendar of dated wake-ups, the clock, and what
 * drives the run from date to date (the direct path's controller actor, or SimGrid's maestro on the flow path). Its
 * state is the engine's (engine_t.cal). */
#ifndef IOS_SIM_CALENDAR_H
#define IOS_SIM_CALENDAR_H

#include "sim_core.h"

/* Calendar entries: an application to resume, the window's snapshots, a periodic tick, a job's submission. */
enum { CAL_APP, CAL_SNAP_BEGIN, CAL_SNAP_END, CAL_TICK, CAL_SUBMIT, CAL_BEGIN };

/** Makes the calendar's state: no wake-up, SimGrid's clock. @return IOS_OK or IOS_ENOMEM. */
int sim_calendar_init(engine_t *e);
/** Frees it (safe when sim_calendar_init failed or was not called). */
void sim_calendar_fini(engine_t *e);

/** The clock of the run from date 0; `own_clock`: the direct path keeps the date itself (else SimGrid's clock). */
void sim_calendar_clock(engine_t *e, int own_clock);
/** The first wake-ups (each application's start, or a queued job's submission; the window's snapshots; the decision
 * grids) and what will run them. @return IOS_OK or IOS_ENOMEM. */
int sim_calendar_start(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, int napps);
/** A wake-up at `date` (s) of kind CAL_* about `idx` (an application, a grid, or -1). */
void sim_cal_push(engine_t *e, double date, int kind, int idx);

#endif
