/* iosim — parametric platform families (what-if studies): writes SimGrid platform XML following the conventions
 * of platforms/README.md. A family is described by a JSON object {"kind": KIND, PARAM: value, ...}; counts are
 * integers, bandwidths are bytes/s numbers or unit strings ("1.25GBps", "10Gb/s", "1.2GiB/s"), sizes bytes numbers or
 * unit strings ("32TB"), names strings. Kinds: pfs-single, forwarding, oss-ost, storage (StorAlloc's storage tier:
 * storage nodes holding disks, and a PFS; see `iosim platform --help` and platforms/README.md for parameters and
 * defaults). */
#ifndef IOS_PLATGEN_H
#define IOS_PLATGEN_H

#include <cjson/cJSON.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Checks the kind and the parameter names and JSON types of `spec` (not their values, which only
 * ios_platgen_write range-checks). `where` labels messages (e.g. "scenario.json: platform").
 * @return IOS_OK or IOS_EINVAL with ios_diag_message() naming the parameter and listing the valid ones. */
int ios_platgen_check(const cJSON *spec, const char *where);

/** Writes the platform XML of `spec` to `out`; `origin` (may be NULL) is quoted in the header comment (it must not
 * contain "--"). Validates everything before writing anything. @return IOS_OK, IOS_EINVAL with ios_diag_message()
 * naming `where`, the parameter, the value and the fix, or IOS_EIO when writing fails. */
int ios_platgen_write(const cJSON *spec, const char *where, const char *origin, FILE *out);

/** Prints the usage of `iosim platform`: every kind with its parameters, defaults, units and meaning. */
void ios_platgen_help(FILE *f);

#ifdef __cplusplus
}
#endif
#endif
