/* iosim — what allocation and placement policies know of the applications, when it differs from the truth the
 * simulation uses (RR-9549 §6.2, robustness to the quality of the input; scenario field `knowledge`).
 *
 * profiles "group-fit": every application's profile is classified by its shape over n >= 1 (RR-9549 Fig. 1):
 * neutral when (max − min)/max < `flat`, else ascent when the best count is its largest, descent when it is its
 * smallest, peak otherwise; each group's points (n, b(n)) over a population of profiles are fitted by one
 * least-squares polynomial of degree min(`degree`, distinct counts − 1) (RR-9549 Fig. 10), and every application of
 * the group is seen with that polynomial at its own counts. The population is the whole dataset the applications
 * were drawn from (knowledge.fit_over "dataset": RR-9549 §6.2 fits every curve of a shape group, Fig. 10), or the
 * workload's own applications ("workload") (a direct-access point n = 0 is kept as measured; fitted values are
 * floored at 1e-6 of the group's largest bandwidth). "noise" σ > 0: each application's volume and compute time are
 * seen multiplied by independent exp(σ·Z), Z ~ N(0, 1) (random stream 77 of the seed). The simulation always uses
 * the true values. */
#ifndef IOS_KNOWLEDGE_H
#define IOS_KNOWLEDGE_H

#include "ios_policy.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Fits `fit` over the npop profiles pop[] (the dataset the applications were drawn from, or the applications
 * themselves): each profile is classified by ios_profile_shape(flat), and each group's points (n >= 1) are fitted
 * by least squares with degree min(degree, distinct counts − 1, IOS_FIT_MAX_DEGREE).
 * @return IOS_OK, IOS_EINVAL when degree < 0, or IOS_ENOMEM. */
int ios_knowledge_fit(int npop, const ios_profile_t *pop, int degree, double flat, ios_knowledge_fit_t *fit);

/** b_g(n) in bytes/s, floored at 1e-6 of the group's largest bandwidth; `shape` must have degree >= 0. */
double ios_knowledge_fit_eval(const ios_knowledge_fit_t *fit, int shape, int n);

/** Replaces each seen[j] (initially the true profiles, [napps]) by its shape group's polynomial at its own counts
 * n >= 1 (a point n = 0 is kept as measured). @return how many applications kept their true profile because
 * their group had no profile in the population fitted over. */
int ios_knowledge_apply(const ios_knowledge_fit_t *fit, int napps, ios_profile_t *seen);

/** Multiplies views[j].volume and views[j].work by exp(σ·Z_j) drawn from stream 77 of `seed` (σ = 0: unchanged). */
void ios_knowledge_noise(int napps, ios_app_view_t *views, double sigma, uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif
