/* iosim — what allocation and placement policies know of the applications, when it differs from the truth the
 * simulation uses (RR-9549 §6.2, robustness to the quality of the input; scenario field `knowledge`).
 *
 * profiles "group-fit": every application's profile is classified by its shape over n >= 1 (RR-9549 Fig. 1):
 * neutral when (max − min)/max < `flat`, else ascent when the best count is its largest, descent when it is its
 * smallest, peak otherwise; each group's points (n, b(n)) of all its applications are fitted by one least-squares
 * polynomial of degree min(`degree`, distinct counts − 1) (RR-9549 Fig. 10), and every application of the group is
 * seen with that polynomial at its own counts (a direct-access point n = 0 is kept as measured; fitted values are
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

/** The profile shapes of RR-9549 Fig. 1. */
enum { IOS_SHAPE_ASCENT, IOS_SHAPE_DESCENT, IOS_SHAPE_PEAK, IOS_SHAPE_NEUTRAL };

/** Names "ascent", "descent", "peak", "neutral". */
const char *ios_shape_name(int shape);

/** The shape of profile `p` over its points n >= 1 (`flat`: the relative variation below which it is neutral). */
int ios_profile_shape(const ios_profile_t *p, double flat);

/** Replaces, for the napps applications, seen[j] (initially the true profiles) by their group's fitted polynomial.
 * @return IOS_OK, IOS_EINVAL when degree < 0, or IOS_ENOMEM (nothing changed). */
int ios_knowledge_group_fit(int napps, ios_profile_t *seen, int degree, double flat);

/** Multiplies views[j].volume and views[j].work by exp(σ·Z_j) drawn from stream 77 of `seed` (σ = 0: unchanged). */
void ios_knowledge_noise(int napps, ios_app_view_t *views, double sigma, uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif
