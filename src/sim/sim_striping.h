/* iosim — striping in the engine (striping.c; TAPP-IO §III; src/sim/ only): the platform's regular oss-ost topology,
 * the usage states of the placements, and each striped operation placed into (writer, OST) transfers. Its state is
 * the engine's (engine_t.striping). */
#ifndef IOS_SIM_STRIPING_H
#define IOS_SIM_STRIPING_H

#include "sim_core.h"

/** Makes the striping state, empty (a run without striping keeps it so). @return IOS_OK or IOS_ENOMEM. */
int sim_striping_init(engine_t *e);
/** Frees it (safe when sim_striping_init failed or was not called). */
void sim_striping_fini(engine_t *e);

/** The striping of the run (scenario `striping`, or an application's own): the platform's regular oss-ost topology,
 * the usage state(s), each striped application's policy, parameters and layout (E.apps[j].st). @return IOS_OK,
 * IOS_EINVAL (with a message: not an oss-ost platform, an unknown policy, a layout that contradicts the workload) or
 * IOS_ENOMEM. */
int sim_striping_setup(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w);
/** Transfers a striped application needs at most (see striping.c). */
long sim_striping_room(const engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, const app_state_t *as);
/** Application j's I/O operation of `volume` bytes placed by its striping policy: as->t[0..ntransfers) set (app, res,
 * volume, host) and as->st.ost_used marked; a failure is recorded with sim_fail. */
void sim_striping_place(engine_t *e, int j, double volume);

#endif
