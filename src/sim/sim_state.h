/* iosim — the engine's failure record, the fault injection of the failure path's tests, and the batch of applications
 * resumed at one date (state.c; src/sim/ only). Its state is the engine's (engine_t.state). */
#ifndef IOS_SIM_STATE_H
#define IOS_SIM_STATE_H

#include "sim_core.h"

/** Makes the module's state: no failure recorded, the fault injection from the benchmark switch
 * (ios_sim_config_t.bench, E.s), room for a batch of E.napps resumed applications. @return IOS_OK or IOS_ENOMEM. */
int sim_state_init(engine_t *e);
/** Frees it (safe when sim_state_init failed or was not called). */
void sim_state_fini(engine_t *e);

/** IOS_OK, or the code of the first failure sim_fail recorded. */
int sim_failure(const engine_t *e);
/** Records the first failure of a policy during the run (rc, and a message on scenario field `field`, followed by
 * the policy's own ios_diag_message()); the controller then stops the simulation and ios_engine_run returns rc. */
void sim_fail(engine_t *e, int rc, const char *field, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/** The applications that go on after this batch's decisions: sim_resume(e, j) adds application j (each at most once
 * per batch: an operation completed, a job started); sim_resumed(e, &list) gives them to the calendar (their count;
 * the list stays valid until the next sim_resume) and empties the batch. */
void sim_resume(engine_t *e, int j);
int sim_resumed(engine_t *e, const int **list);

/** Fault injection, for the tests of the failure path: the environment variable IOSIM_FAULT=SITE:K (read at
 * sim_state_init, from the benchmark switches ios_sim_config_t.bench) makes the K-th policy call at SITE fail as if
 * the policy had run out of memory. */
enum { SIM_FAULT_NONE, SIM_FAULT_SHARING, SIM_FAULT_STRIPING, SIM_FAULT_ARBITRATION };
/** Whether this call at `site` (SIM_FAULT_*) is the one IOSIM_FAULT makes fail. */
int sim_fault(engine_t *e, int site);

#endif
