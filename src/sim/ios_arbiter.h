/* iosim — arbitration: the scenario's allocation policy (how many resources) then its placement policy (which ones)
 * over a set of applications. Called once before the simulation, and, with a job queue, whenever the set of running
 * jobs changes (IPDPS'21 §5.3). */
#ifndef IOS_ARBITER_H
#define IOS_ARBITER_H

#include "ios_model.h"
#include "ios_platform.h"
#include "ios_policy.h"
#include "ios_engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Runs s->allocation then s->placement over the applications sel[0..k) (indices into w->apps and views[], which
 * has what the policies know of each); the policies see
 * only those, in that order, with the platform's pool and compute-node count. The allocation draws from random
 * stream (s->seed, stream), the placement from (s->seed, stream + 1).
 * @param n_out [k] resource count of each selected application
 * @param res_out set to a malloc'd array of Σ n_out resource indices, application i's at offset n_out[0] + ... +
 *        n_out[i-1] (the caller frees it)
 * @return IOS_OK; IOS_EINVAL with ios_diag_message() when a policy rejects the set or gives an application 0
 * resources without a way to the PFS (a profile point n = 0 and a PFS host); IOS_ENOMEM. */
int ios_arbitrate(const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w,
                  const ios_app_view_t *views, const int *sel, int k, uint64_t stream, int *n_out, int **res_out);

#ifdef __cplusplus
}
#endif
#endif
