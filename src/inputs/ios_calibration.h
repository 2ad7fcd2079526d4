/* A calibration file of `iosim calibrate` ("iosim-calibration/1", docs/validation.md) applied to a loaded platform. */
#ifndef IOS_CALIBRATION_H
#define IOS_CALIBRATION_H

#include "ios_platform.h"
#include "ios_scenario.h"

#include <cjson/cJSON.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Whether a run changes the platform's OST capacities to the calibration's (scenario "calibration.apply_capacity"). */
typedef enum {
  IOS_CAL_APPLY_AUTO, /**< "auto" (the default, and the string form "calibration": "FILE"): only on the platform the
                           calibration records (its `platform.fingerprint` equal to this platform's) */
  IOS_CAL_APPLY_YES,  /**< true: on any platform (a what-if on a changed platform, or a transfer asked for) */
  IOS_CAL_APPLY_NO    /**< false: never (the calibration gives its band and its sharing model only) */
} ios_cal_apply_t;

/** Reads a scenario's "calibration" value `v` (resolved: a path string, or {"file": PATH, "apply_capacity":
 * true|false|"auto"}; NULL or null: none) of scenario `file` into *path (borrowed from `v`; NULL when none) and
 * *apply. @return IOS_OK, or IOS_EINVAL with ios_diag_message() naming the file, the field (calibration,
 * calibration.file, calibration.apply_capacity or an unknown key), the value and the fix. */
int ios_calibration_spec(const cJSON *v, const char *file, const char **path, ios_cal_apply_t *apply);

/** The fingerprint of the bytes of file `path`, which a calibration records for the platform it applies to (iosim
 * calibrate --platform) and a run compares with its own platform's: "fnv1a64:" and the 16 hexadecimal digits of
 * the 64-bit FNV-1a hash of the whole file (Fowler, Noll and Vo; offset basis 0xcbf29ce484222325, prime
 * 0x100000001b3), written to out (n >= 25 bytes). An identity of the file's content, not a security hash.
 * @return IOS_OK, or IOS_EIO with ios_diag_message() naming the path when it cannot be read, IOS_EINVAL when n < 25. */
int ios_calibration_fingerprint(const char *path, char *out, size_t n);

/** "YYYY-MM-DDTHH:MM:SSZ" (UTC; window.newest_measurement) -> s since the epoch; -1 when `text` is not that. */
double ios_calibration_parse_utc(const char *text);

/** Applies the calibration the scenario names (ios_calibration_spec; nothing when it names none) to the loaded
 * platform `p`, and records what it applied in s->calibration_applied (results.json's "calibration", docs/outputs.md).
 *
 * The file must be "iosim-calibration/1" with exactly one file system with a per-OST capacity
 * (`file_systems[k].ost_capacity_Bps`, B/s: C / N fitted by python/iosim/calibrate.py, RR-9502 Eq. 1's per-OST
 * bandwidth): that file system's parameters are the ones a run uses.
 * - Capacities: when s's apply_capacity is true, or "auto" and this platform's fingerprint (ios_calibration_fingerprint
 *   of s->platform) equals the file's `platform.fingerprint` (the platform it was made for), the bandwidth of every
 *   OST (p->res[i], p->pool_role "ost") becomes c, on its SimGrid link and in p->res[i].capacity; the rest of the
 *   platform is unchanged. Otherwise no capacity changes, and the run says the band is transferred, not validated.
 * - Sharing: the file system's `sharing.policy` is looked up in the registry (any registered sharing policy); every
 *   parameter that policy declares calibrated (ios_sharing_policy_t.calibrated) is read from the sharing object's key
 * of that name, and given to the run when the scenario's sharing policy is that policy and the scenario set no value of
 *   its own (s->sharing_given; s->sharing_params and sharing.<param> of s->resolved); a scenario's own value, or
 *   another sharing policy, is kept, with a line naming the fix. No policy or parameter is named here.
 * - Staleness: the age (days) of `window.newest_measurement` at the run against `stale_after_days`.
 * Prints what it did on standard error. Call before the simulation starts.
 * @return IOS_OK, or IOS_EIO (the file cannot be read) / IOS_EINVAL (a bad "calibration" value; not
 * iosim-calibration/1; no or several file systems with a per-OST capacity; capacities to apply on a platform
 * without OSTs; a sharing.policy that is no registered sharing policy; a calibrated parameter's value missing, not a
 * number or out of the parameter's range) with ios_diag_message() naming the file, the field, the value and the fix;
 * `s` and `p` are then unchanged. IOS_ENOMEM. */
int ios_calibration_apply(ios_scenario_t *s, ios_platform_t *p);

#ifdef __cplusplus
}
#endif
#endif
