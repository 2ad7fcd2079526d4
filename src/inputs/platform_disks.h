/* iosim — SimGrid <disk> elements of a platform's I/O resources (platform_disks.c), for the platform loader
 * (platform.c); not for other modules, which use ios_platform.h. It uses none of the other platform files
 * (docs/architecture.md). */
#ifndef IOS_PLATFORM_DISKS_H
#define IOS_PLATFORM_DISKS_H

#include "ios_platform.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A resource host whose SimGrid <disk> elements bound its capacity link. */
typedef struct {
  sg_host_t host;
  char link[256];  /**< the name of its capacity link (its "link" property) */
  double link_bw;  /**< bytes/s: the link's bandwidth in the file */
  double disks_bw; /**< bytes/s: the sum of its disks' write bandwidths (< link_bw), the link's bandwidth now */
} ios_disk_bound_t;

/** SimGrid <disk> elements of the I/O resources: for each host with an I/O role (ionode, ost, disk, pfs), a "link"
 * property and disks, the sum of its disks' write bandwidths (the disks of a host are independent devices) bounds its
 * transfers: when it is below the link's bandwidth, the link's bandwidth is set to it (every transfer to the host
 * crosses that link: ios_platform_load checks it). Disks of other hosts are not used. Call after
 * ios_platform_roles_apply. @param out the bounded hosts (malloc'ed, the caller frees; may be empty)
 * @return IOS_OK, IOS_EINVAL (two hosts with disks naming one link) or IOS_ENOMEM, with ios_diag_message(). */
int ios_platform_disks_apply(const char *file, ios_disk_bound_t **out, int *n);

/** Checks that the route from compute host `c` to resource `r` crosses none of the links bounded for another host's
 * disks (b[n] from ios_platform_disks_apply): a link a disk bounds must stand for its host alone. @return IOS_OK, or
 * IOS_EINVAL with ios_diag_message() naming the host, the link, the route and the fix. */
int ios_platform_disks_exclusive(const char *file, const ios_disk_bound_t *b, int n, sg_host_t c,
                                 const ios_resource_t *r);

#ifdef __cplusplus
}
#endif
#endif
