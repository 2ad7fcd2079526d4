/* iosim — what bound each job during its I/O (bound.c; apps.csv `bound_by`, `bound_share`; src/sim/ only). Its
 * state is the engine's (engine_t.bound); each application's part is app_state_t.bd. */
#ifndef IOS_SIM_BOUND_H
#define IOS_SIM_BOUND_H

#include "sim_core.h"

/** Makes the accounting's state (nothing credited yet). @return IOS_OK or IOS_ENOMEM. */
int sim_bound_init(engine_t *e);
/** Frees it (safe when sim_bound_init failed or was not called). */
void sim_bound_fini(engine_t *e);

/** Credits the interval since the previous call to what bound each application with I/O pending (call at a date's
 * start, before anything changes). */
void sim_bound_account(engine_t *e);
/** Application as's apps.csv result (bound_by, bound_share) from what was credited. */
void sim_bound_result(const app_state_t *as, ios_app_result_t *ar);

#endif
