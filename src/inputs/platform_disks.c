/* iosim — SimGrid <disk> elements of the I/O resources (a WRENCH-style storage host): a disk behind a resource
 * bounds its transfers (see platform_disks.h ios_platform_disks_apply). iosim moves every byte as a network flow
 * (docs/engine.md), so the bound is put on the resource's capacity link: its bandwidth becomes the disks' total write
 * bandwidth when that is lower. */
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_platform.h"
#include "platform_disks.h"
#include "ios_sg_platform.h"

#include <simgrid/disk.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether `role` is one of an I/O resource (the pool's kinds and the PFS). */
static int resource_role(const char *role) {
  return role != NULL && (strcmp(role, "ionode") == 0 || strcmp(role, "ost") == 0 || strcmp(role, "disk") == 0 ||
                          strcmp(role, "pfs") == 0);
}

int ios_platform_disks_apply(const char *file, ios_disk_bound_t **out, int *nout) {
  *out = NULL;
  *nout = 0;
  size_t nh = sg_host_count();
  sg_host_t *hosts = sg_host_list();
  ios_disk_bound_t *b = calloc(nh + 1, sizeof *b);
  int n = 0, rc = hosts != NULL && b != NULL ? IOS_OK : IOS_ENOMEM;
  for (size_t i = 0; rc == IOS_OK && i < nh; i++) {
    const char *link = sg_host_get_property_value(hosts[i], "link");
    if (!resource_role(sg_host_get_property_value(hosts[i], "role")) || link == NULL) continue;
    unsigned int ndisks = 0;
    sg_disk_t *disks = NULL;
    sg_host_get_disks(hosts[i], &ndisks, &disks);
    double total = 0;
    for (unsigned int d = 0; d < ndisks; d++)
      total += sg_disk_write_bandwidth(disks[d]); /* the disks of one host write independently */
    free(disks);
    double link_bw = ios_sg_link_bandwidth(link);
    if (ndisks == 0 || !(link_bw > 0)) continue; /* no such link: resource_init says so */
    for (int k = 0; k < n; k++)
      if (strcmp(b[k].link, link) == 0) {
        ios_diag_set(file, sg_host_get_name(hosts[i]),
                     "has <disk> elements and its \"link\" property names '%s', the link of %s too, which has disks "
                     "of its own: the disks of a host bound the link that stands for it alone; give each of the two "
                     "hosts a link of its own on its route and name it in its \"link\" property (or platform_roles' "
                     "link, e.g. \"{host}_link\")",
                     link, sg_host_get_name(b[k].host));
        rc = IOS_EINVAL;
      }
    if (rc != IOS_OK || total >= link_bw) continue; /* the network is the bottleneck: nothing to bound */
    b[n].host = hosts[i];
    snprintf(b[n].link, sizeof b[n].link, "%s", link);
    b[n].link_bw = link_bw;
    b[n].disks_bw = total;
    n++;
    ios_sg_link_set_bandwidth(link, total);
  }
  free(hosts);
  if (rc != IOS_OK) {
    free(b);
    return rc;
  }
  *out = b;
  *nout = n;
  return IOS_OK;
}

int ios_platform_disks_exclusive(const char *file, const ios_disk_bound_t *b, int n, sg_host_t c,
                                 const ios_resource_t *r) {
  for (int k = 0; k < n; k++) {
    if (b[k].host == r->host || ios_sg_route_has_link(c, r->host, b[k].link) != 1) continue;
    ios_diag_set(file, sg_host_get_name(b[k].host),
                 "its <disk> elements write at %.17g B/s in all, less than its link '%s' (%.17g B/s), so iosim bounds "
                 "that link to %.17g B/s; but the route from compute host %s to %s crosses '%s' too, and would be "
                 "bounded by disks it does not use: give %s a link of its own, on its route only, and name it in its "
                 "\"link\" property (or platform_roles' link, e.g. \"{host}_link\"; platforms/README.md)",
                 b[k].disks_bw, b[k].link, b[k].link_bw, b[k].disks_bw, sg_host_get_name(c), r->name, b[k].link,
                 sg_host_get_name(b[k].host));
    return IOS_EINVAL;
  }
  return IOS_OK;
}
