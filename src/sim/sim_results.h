/* iosim — a run's results (results.c; src/sim/ only): each application's, the window's progress, the resources', the
 * counters and the metrics. The engine façade (engine.c) calls it once the simulation has ended. */
#ifndef IOS_SIM_RESULTS_H
#define IOS_SIM_RESULTS_H

#include "sim_core.h"

/** Fills E.r once the simulation has ended and closes the traces. @return IOS_OK or IOS_EIO. */
int sim_collect(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w);

#endif
