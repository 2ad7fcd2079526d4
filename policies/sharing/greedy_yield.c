/* iosim — sharing `greedy-yield` and `periodic-greedy-yield` (RR-9502 §4.1 GreedyYield and PeriodicGreedyYield(δ)).
 *
 * GreedyYield: transfers by non-decreasing current yield y_i(now) = progress_i / (now − τ_i) (RR-9502 §3.3, Eq. 6),
 * ties (yields within 1e-12: YIELD_TIE) by posting time R_i then posting order; each is granted min(cap, what is left
 * of B) until nothing is left (the greedy allocation of FCFS, §4.1, with the yield as the criterion). An application
 * with no elapsed time (now <= τ_i: it posts an I/O operation at its release) has made no progress and is given the
 * yield 0, so it comes first (as in §5.1, Example 1, where serving the fresh application first is the best choice).
 *
 * Parameter `ties` = 1 breaks exact ties by application index instead (the order of the workload, which is what the
 * authors' reference simulator does: the only reason greedy-yield results differ from its output, see
 * test/crosscheck_rr9502.cpp).
 *
 * PeriodicGreedyYield(δ): the same decision at every event; the policy is marked periodic, so the engine adds
 * external events every δ seconds from T_begin (RR-9502 §4.1, §3.2.2): δ = delta_s when > 0, else
 * (T_end − T_begin)/E with E = Σ_i 2·N_op(i) (Eq. 5, E^(+) = E), which the engine computes. */
#include "greedy.h"

#include <stdlib.h>

/* Yields within YIELD_TIE of each other are ties: the engine's progress carries rounding errors (an application
 * never slowed down may read 0.99999999999999978 instead of 1), which must not decide between equal yields. With
 * `ties` = 1 the posting time field of the entries holds the application index (and seq 0). */
#define YIELD_TIE 1e-12

/* ties_param: index of the `ties` parameter in p. */
static int greedy_share(const ios_share_view_t *in, const ios_params_t *p, int ties_param, double *rate_out) {
  int by_index = p != NULL && p->v[ties_param] == 1.0;
  int k = in->ntransfers;
  ios_greedy_entry_t *e = malloc(sizeof *e * (size_t)(k > 0 ? k : 1));
  if (e == NULL) return IOS_ENOMEM;
  for (int i = 0; i < k; i++) {
    const ios_transfer_view_t *t = &in->t[i];
    double age = in->now - t->release;
    e[i] = (ios_greedy_entry_t){.key = age > 0.0 ? t->progress / age : 0.0,
                                .posted = by_index ? (double)t->app : t->posted,
                                .seq = by_index ? 0 : t->seq,
                                .idx = i};
  }
  int rc = ios_greedy_sort(e, k, YIELD_TIE);
  if (rc == IOS_OK) ios_greedy_fill(in, e, k, rate_out);
  free(e);
  return rc;
}

static int greedy_yield_share(void *ctx, const ios_share_view_t *in, const ios_params_t *p, double *rate_out) {
  (void)ctx; /* built-in: no context (policies/ios_policy.h) */
  return greedy_share(in, p, 0, rate_out);
}

static int periodic_share(void *ctx, const ios_share_view_t *in, const ios_params_t *p, double *rate_out) {
  (void)ctx; /* built-in: no context (policies/ios_policy.h) */
  return greedy_share(in, p, 1, rate_out);
}

static const ios_param_spec_t greedy_params[] = {
    {.name = "ties",
     .def = 0.0,
     .unit = "",
     .description = "exact ties of yields: 0 = by posting time, then order; 1 = by application index (reference)",
     .lo = 0,
     .hi = 1,
     .integer = 1},
};

const ios_sharing_policy_t ios_sharing_greedy_yield = {
    .name = "greedy-yield",
    .alias = NULL,
    .description = "serve pending transfers by increasing current yield, each at its cap while bandwidth is left",
    .source = "RR-9502 §4.1 (GreedyYield)",
    .nparams = 1,
    .params = greedy_params,
    .share = greedy_yield_share,
    .uncapped = 0,
    .periodic = 0,
};

static const ios_param_spec_t periodic_params[] = {
    {.name = "delta_s",
     .def = 0.0,
     .unit = "s",
     .description = "period of the extra decisions; 0 = (T_end - T_begin)/E, E = sum of 2*N_op(i) (RR-9502 Eq. 5)",
     .lo = 0,
     .hi = 1e12},
    {.name = "ties",
     .def = 0.0,
     .unit = "",
     .description = "exact ties of yields: 0 = by posting time, then order; 1 = by application index (reference)",
     .lo = 0,
     .hi = 1,
     .integer = 1},
};

const ios_sharing_policy_t ios_sharing_periodic_greedy_yield = {
    .name = "periodic-greedy-yield",
    .alias = NULL,
    .description = "greedy-yield, re-decided also every delta_s seconds from the window start",
    .source = "RR-9502 §4.1 (PeriodicGreedyYield), §3.2.2",
    .nparams = 2,
    .params = periodic_params,
    .share = periodic_share,
    .uncapped = 0,
    .periodic = 1,
};
