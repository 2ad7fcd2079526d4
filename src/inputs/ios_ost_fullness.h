/* OST fullness applied to a loaded platform: each OST's rate times a curve of its fullness (scenario key
 * `ost_fullness`; docs/validation.md, "What-ifs on measured what-ifs, job by job"). */
#ifndef IOS_OST_FULLNESS_H
#define IOS_OST_FULLNESS_H

#include "ios_platform.h"
#include "ios_scenario.h"

/** g(phi) = max(floor, 1 - slope x max(0, phi - knee)): an OST's rate at fullness phi (fraction of its capacity
 * used, 0..1) over its rate when empty; knee in [0, 1], slope >= 0 (rate lost per unit of fullness above the knee),
 * floor in (0, 1]. */
double ios_ost_fullness_curve(double phi, double knee, double slope, double floor_);

/** Applies the scenario's `"ost_fullness": {"fullness": PHI or [PHI_0, ..., PHI_{N-1}], "curve": {"knee": K,
 * "slope": S, "floor": F}}` (resolved; nothing when null) to the loaded platform `p` (after its calibration): the
 * bandwidth of OST i (p->res[i], pool role "ost", natural name order) becomes its bandwidth times
 * ios_ost_fullness_curve(PHI_i, K, S, F), on its SimGrid link and in p->res[i].capacity; one number gives every OST
 * that fullness; floor defaults to 0.05. Prints what it did on standard error. @return IOS_OK, or IOS_EINVAL with
 * ios_diag_message() naming the scenario, the field, the value and the fix (a platform without OSTs; a fullness
 * outside [0, 1] or an array whose length is not the OST count; a curve parameter missing or out of range); `p` is
 * then unchanged. */
int ios_ost_fullness_apply(const ios_scenario_t *s, ios_platform_t *p);

#endif
