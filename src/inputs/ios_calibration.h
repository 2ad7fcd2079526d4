/* A calibration file of `iosim calibrate` ("iosim-calibration/1", docs/validation.md) applied to a loaded platform. */
#ifndef IOS_CALIBRATION_H
#define IOS_CALIBRATION_H

#include "ios_platform.h"
#include "ios_scenario.h"

/** Applies the calibration the scenario names (`"calibration": "FILE"`, resolved; nothing when it names none) to
 * the loaded platform `p`: the bandwidth of every OST (p->res[i], p->pool_role "ost") becomes the calibration's
 * per-OST capacity c (`file_systems[k].ost_capacity_Bps`, B/s: C / N fitted by python/iosim/calibrate.py, RR-9502
 * Eq. 1's per-OST bandwidth), on its SimGrid link and in p->res[i].capacity; the rest of the platform is unchanged.
 * When that file system's `sharing` is {"policy": "interference", "kappa_per_ost_Bps": κ} (the sharing model its
 * past chose over max-min; docs/validation.md, "Interference sharing, calibrated on the window", its amendment) and
 * the scenario's sharing policy is `interference` without a `kappa` of its own (s->sharing_given), the run uses
 * kappa = κ (B/s per OST; s->sharing_params and sharing.kappa of s->resolved); a scenario's own kappa is kept, and
 * another sharing policy is kept, with a note naming the fix. Prints the mapping (file, file system, c, the OSTs'
 * previous bandwidths, κ when used) on standard error. Call before the simulation starts. @return IOS_OK, or
 * IOS_EIO (the file cannot be read) / IOS_EINVAL (not iosim-calibration/1; no or several file systems with a
 * per-OST capacity; a platform without OSTs; sharing.policy neither "interference" nor "maxmin"; with
 * "interference", a kappa_per_ost_Bps that is not a positive finite number) with ios_diag_message() naming the file,
 * the field, the value and the fix; `s` and `p` are then unchanged. */
int ios_calibration_apply(ios_scenario_t *s, ios_platform_t *p);

#endif
