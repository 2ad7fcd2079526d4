/* iosim — the storage tier of a platform whose I/O resources are disks (StorAlloc §4.3; see ios_platform.h
 * ios_platform_storage). */
#include "ios_diag.h"
#include "ios_platform.h"
#include "platform_roles.h"
#include "ios_units.h"

#include <math.h>
#include <simgrid/host.h>
#include <stdlib.h>
#include <string.h>

/* A host property read as a positive finite quantity by `parse` (bytes or bytes/s); *out untouched when absent. */
static int disk_prop(const char *file, sg_host_t h, const char *prop, int (*parse)(const char *, double *),
                     const char *example, int required, double *out) {
  const char *v = sg_host_get_property_value(h, prop);
  if (v == NULL && !required) return IOS_OK;
  double x = NAN;
  if (v == NULL || parse(v, &x) != IOS_OK || !(parse == ios_parse_bandwidth ? x >= IOS_MIN_BANDWIDTH : x > 0) ||
      !isfinite(x)) {
    ios_diag_set(
        file, sg_host_get_name(h),
        "disk %s \"%s\": give <prop id=\"%s\" value=\"%s\"/> (a positive finite value; bandwidths at least 0.001 B/s)",
        prop, v ? v : "missing", prop, example);
    return IOS_EINVAL;
  }
  *out = x;
  return IOS_OK;
}

int ios_platform_storage(const char *file, const ios_platform_t *p, ios_storage_t *out, int *res_of_disk) {
  if (strcmp(p->pool_role, "disk") != 0) {
    ios_diag_set(file, "storage",
                 "the platform has no storage tier (its I/O resources are %d %s hosts, no role=disk host): use `iosim "
                 "platform storage` (or a platform object {\"kind\": \"storage\", \"layout\": \"nNnD\"}), or give "
                 "storage.platform to schedule the requests without simulating their I/O",
                 p->nres, p->pool_role);
    return IOS_EINVAL;
  }
  int *node_of = malloc(sizeof *node_of * (size_t)p->nres); /* first disk index of each disk's node */
  int *done = calloc((size_t)p->nres, sizeof *done);
  ios_storage_t st = {0, 0, NULL, NULL};
  int rc = node_of && done ? IOS_OK : IOS_ENOMEM;
  for (int i = 0; rc == IOS_OK && i < p->nres; i++) { /* group the disks by node, in order of first appearance */
    const char *node = sg_host_get_property_value(p->res[i].host, "node");
    sg_host_t nh = node ? sg_host_by_name(node) : NULL;
    const char *role = nh ? sg_host_get_property_value(nh, "role") : NULL;
    if (role == NULL || strcmp(role, "storage") != 0) {
      ios_diag_set(file, p->res[i].name,
                   node == NULL ? "disk without a storage node: add <prop id=\"node\" value=\"HOST\"/> naming its "
                                  "role=storage host"
                                : "its \"node\" property names '%s', which is not a role=storage host: name the "
                                  "storage node that holds this disk",
                   node);
      rc = IOS_EINVAL;
      break;
    }
    node_of[i] = i;
    for (int k = 0; k < i; k++)
      if (strcmp(sg_host_get_property_value(p->res[k].host, "node"), node) == 0) {
        node_of[i] = node_of[k];
        break;
      }
  }
  for (int i = 0; rc == IOS_OK && i < p->nres; i++) {
    if (done[i]) continue;
    sg_host_t nh = sg_host_by_name(sg_host_get_property_value(p->res[i].host, "node"));
    const char *link = sg_host_get_property_value(nh, "link");
    double node_bw = INFINITY; /* no "link": an unlimited node */
    if (link != NULL && (rc = ios_platform_link_capacity(file, sg_host_get_name(nh), "link", link, &node_bw)) != IOS_OK)
      break;
    for (int k = i; rc == IOS_OK && k < p->nres; k++) {
      if (node_of[k] != i) continue;
      double cap = 0, wbw = p->res[k].capacity, rbw = wbw, rlink = NAN;
      if (p->res[k].read_host != NULL) /* its reads' own route: the read bandwidth is that route's read link */
        rc = ios_platform_link_capacity(file, sg_host_get_name(p->res[k].read_host), "link", p->res[k].read_link,
                                        &rlink);
      if (rc == IOS_OK && !isnan(rlink)) rbw = rlink;
      if (rc == IOS_OK) rc = disk_prop(file, p->res[k].host, "capacity", ios_parse_bytes, "4TB", 1, &cap);
      if (rc == IOS_OK) rc = disk_prop(file, p->res[k].host, "read_bw", ios_parse_bandwidth, "3.13GBps", 0, &rbw);
      if (rc == IOS_OK && !isnan(rlink) && rbw != rlink) {
        ios_diag_set(file, p->res[k].name,
                     "its read_bw (%.17g B/s) differs from the bandwidth of its read link '%s' (%.17g B/s): drop "
                     "read_bw (the read link gives it) or make them equal",
                     rbw, p->res[k].read_link, rlink);
        rc = IOS_EINVAL;
      }
      if (rc == IOS_OK)
        rc = k == i ? ios_storage_add_node(&st, sg_host_get_name(nh), node_bw, 1, cap, rbw, wbw)
                    : ios_storage_add_disk(&st, cap, rbw, wbw);
      if (rc == IOS_OK) {
        res_of_disk[st.ndisks - 1] = k;
        done[k] = 1;
      }
    }
  }
  free(node_of);
  free(done);
  if (rc != IOS_OK) {
    ios_storage_free(&st);
    return rc;
  }
  *out = st;
  return IOS_OK;
}
