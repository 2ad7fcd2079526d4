/* iosim — the host properties of a platform (platform_roles.c), shared by the platform loader's files; not for other
 * modules, which use ios_platform.h. The bottom of the platform files' layering (docs/architecture.md):
 * platform_roles.c uses none of them; platform_disks.c none either; platform.c uses both; platform_storage.c uses this
 * one only. */
#ifndef IOS_PLATFORM_ROLES_H
#define IOS_PLATFORM_ROLES_H

#include "ios_platform.h"

#include <cjson/cJSON.h>

#ifdef __cplusplus
extern "C" {
#endif

/** iosim's host roles, NULL-terminated: compute, ionode, oss, ost, pfs, controller, storage, disk, none. */
extern const char *const ios_platform_roles[];

/** The bandwidth (bytes/s) of the link named `link` that `host`'s property `prop` names, into *bw. @return IOS_OK,
 * or IOS_EINVAL with ios_diag_message() naming the file, the host, the link, its value and the fix (no such link, a
 * bandwidth below IOS_MIN_BANDWIDTH or infinite). */
int ios_platform_link_capacity(const char *file, const char *host, const char *prop, const char *link, double *bw);

/** Gives each host of the loaded platform the role, link and nic_bw properties of the first rule of `rules` (a
 * scenario's platform_roles, checked by ios_platform_roles_check; NULL: none) that matches it. */
void ios_platform_roles_apply(const cJSON *rules);

#ifdef __cplusplus
}
#endif
#endif
