/* iosim — the engine: the applications (SimGrid actors, or the controller's calendar on the direct path), the
 * controller actor (the only caller of policies), the transfer layer (src/sim/ios_transfer.h: rate-capped SimGrid flows
 * re-rated by cancel + restart of the remaining bytes, or computed directly where no link can bind the policy's
 * rates; docs/engine.md) and the metrics recorder. */
#ifndef IOS_ENGINE_H
#define IOS_ENGINE_H

#include "ios_metrics.h"
#include "ios_model.h"
#include "ios_platform.h"
#include "ios_scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Runs one simulation (once per process: one SimGrid engine per process). The platform must be loaded.
 * Fills `r` (which the caller frees with ios_results_free). @return IOS_OK; IOS_EINVAL with ios_diag_message() for
 * inputs the engine or the policies reject, before the run (node counts, window, δ, policies' arguments) or during
 * it (a policy failing on a running set, more SimGrid actors than the machine allows); IOS_EIO when events.csv or
 * allocations.csv cannot be written; IOS_ENOMEM; IOS_EINTERNAL when a policy returns a result the engine cannot use.
 * On any error nothing in `r` is a result. */
int ios_engine_run(const ios_scenario_t *s, const ios_platform_t *p, const ios_workload_t *w, ios_results_t *r);

#ifdef __cplusplus
}
#endif
#endif
