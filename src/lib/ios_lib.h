/* iosim — what the policy and scenario faces of libiosim share inside the library (src/lib/): the thread-local error
 * message of iosim_error() and the opaque handles' definitions that several files read. Internal: not installed. */
#ifndef IOS_LIB_H
#define IOS_LIB_H

#include "iosim/policy.h"
#include "iosim/scenario.h"

#include "ios_policy.h"
#include "ios_rng.h"
#include "ios_scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Records the message of a failed call (printf-style; it should end with the fix) for iosim_error(). @return rc. */
int ios_lib_fail(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** Records ios_diag_message() (the message the layers below left), or `fallback` when it is empty. @return rc. */
int ios_lib_fail_diag(int rc, const char *fallback);

/** An iosim_policy_t is the registry's policy descriptor itself. */
static inline const ios_policy_t *ios_lib_policy(const iosim_policy_t *p) {
  return (const ios_policy_t *)p;
}

struct iosim_params {
  const ios_policy_t *policy;
  ios_params_t v;
};

struct iosim_rng {
  ios_rng_t r;
};

struct iosim_share_view {
  ios_share_view_t v;
  ios_transfer_view_t *own; /**< [v.ntransfers] for a view made by iosim_share_view_new, else NULL (borrowed) */
  char *fail;               /**< the message a registered function gave iosim_share_fail, or NULL */
};

/** The policy's values, or its defaults in *tmp when params is NULL; NULL with iosim_error() when params belong to
 * another policy. */
const ios_params_t *ios_lib_params(const ios_policy_t *p, const iosim_params_t *params, ios_params_t *tmp);

/** Checks (check = 1) or runs (0) loaded scenario `s` in this process, as `iosim check` / `iosim run` do after
 * loading: SimGrid started with iosim's logging defaults and the nsg settings sg ("--cfg=..." validated by the caller,
 * "--log=..."), the outputs prepared, the platform of a family generated, then scheduled or simulated and the outputs
 * written (src/lib/scenario_exec.c). Once per process. @return IOS_OK or an IOS_E* code with ios_diag_message(). */
int ios_lib_exec_here(ios_scenario_t *s, int check, int nsg, const char *const *sg);

/** Reads the results of a run from its output directory `dir` (results.json, apps.csv when there is one) into a new
 * handle (src/lib/results.c). @return IOSIM_OK, or IOSIM_EIO / IOSIM_ENOMEM with iosim_error(). */
int ios_lib_results_read(const char *dir, iosim_results_t **out);

/** Whether p belongs to family f (else an iosim_error() naming the function and the family wanted). */
int ios_lib_check_family(const ios_policy_t *p, int f, const char *function);

#ifdef __cplusplus
}
#endif
#endif
