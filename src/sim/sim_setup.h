/* iosim — a run's set-up (setup.c; src/sim/ only): the records of the applications and resources, what the policies
 * know, allocation and placement, the transfer path, the window, the traces. The engine façade (engine.c) calls it. */
#ifndef IOS_SIM_SETUP_H
#define IOS_SIM_SETUP_H

#include "sim_core.h"

/** Makes the run's records, empty: the applications' and resources' states ([E.napps], [E.nres + 1]) and what the
 * policies know of the applications (profiles, views, allocations). @return IOS_OK or IOS_ENOMEM. */
int sim_records_init(engine_t *e);
/** Frees the records and what each holds (safe after a set-up that failed part-way, or when sim_records_init failed
 * or was not called). */
void sim_records_fini(engine_t *e);

/** Sets the run up from E's configuration, platform and workload. @return IOS_OK, IOS_EINVAL (with a message),
 * IOS_EIO or IOS_ENOMEM. */
int sim_setup(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w);

#endif
