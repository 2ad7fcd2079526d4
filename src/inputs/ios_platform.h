/* iosim — the platform as iosim sees it: compute nodes, the pool of I/O resources (I/O nodes, else OSTs, else disks,
 * else the PFS) with their capacities, the PFS for direct access, and the controller host (optional). Roles come from
 * host properties (<prop id="role" value="compute|ionode|oss|ost|pfs|controller|storage|disk|none"/>); a resource's
 * capacity is the bandwidth of the link named by its "link" property (bounded by its SimGrid disks); a compute node's
 * NIC bandwidth b by its "nic_bw" property (platforms/README.md lists every check). */
#ifndef IOS_PLATFORM_H
#define IOS_PLATFORM_H

#include "ios_storage.h"

#include <cjson/cJSON.h>
#include <simgrid/forward.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One I/O resource. */
typedef struct {
  char *name;      /**< host name (owned) */
  char *link;      /**< link standing for its bandwidth (owned) */
  double capacity; /**< bytes/s */
  sg_host_t host;
  /** Where the resource's reads go (a role=disk host's `read_host` property: a StorAlloc disk whose read bandwidth
   * differs from its write bandwidth, §4.3), or NULL: reads take the same route as writes. */
  sg_host_t read_host;
  char *read_link;   /**< the link standing for its read bandwidth (owned; NULL without read_host) */
  long lustre_index; /**< an OST named FSNAME-OSTxxxx: its Lustre index (xxxx, hexadecimal), else -1; the pool's
                          OSTs are in Lustre order (platforms/README.md, "The order of the OSTs") */
} ios_resource_t;

/** The smallest bandwidth (bytes/s) a platform or `iosim platform` accepts: below it, simulated times of real
 * volumes overflow to infinity (a 1e-300 B/s link gave NaN metrics and exit 0). */
#define IOS_MIN_BANDWIDTH 1e-3

/** The loaded platform. */
typedef struct {
  int ncompute;          /**< Q^cpu: compute nodes */
  sg_host_t *compute;    /**< [ncompute], natural name order (c2 before c10) (owned array) */
  double nic_bw;         /**< b: bytes/s per compute node (RR-9502 Eq. 1) */
  int nres;              /**< N: resources in the pool */
  ios_resource_t *res;   /**< [nres], natural name order; OSTs in Lustre order (by index for FSNAME-OSTxxxx names,
                              platforms/README.md) (owned) */
  const char *pool_role; /**< "ionode", "ost" or "pfs" */
  int has_pfs;           /**< whether a separate PFS host exists for direct access (n = 0) */
  ios_resource_t pfs;    /**< that PFS (valid when has_pfs) */
  sg_host_t controller;  /**< where the controller's actors run: the role=controller host (at most one), else the
                              first compute host */
  int noss;              /**< hosts with role oss (object storage servers in front of the OSTs) */
  int nrouters; /**< LNET-like routers between compute and storage: links rtr0..rtr{R-1} (platforms/README.md) */
  /** Router choices (TAPP-IO §II, `iosim platform oss-ost --set routers_per_client=K`), or NULL when no compute host
   * has a `routers` property (compute node k then uses rtr(k mod R) only). Compute host k may use the routers
   * router_list[router_start[k] .. router_start[k+1]) (distinct indices into rtr0..rtr{R-1}, preference order, the
   * first being the one on its own route); bytes through router_list[i] leave from router_host[i]: the compute host
   * itself for its first, host "<name>.rtrJ" (routed through rtrJ) for the others. Arrays owned. */
  int *router_start;      /**< [ncompute + 1] */
  int *router_list;       /**< [router_start[ncompute]] */
  sg_host_t *router_host; /**< [router_start[ncompute]] */
} ios_platform_t;

/** Loads and validates a platform file (simgrid_init must have been called; sets CM02 with no cross-traffic
 * first). Nothing in the file can abort SimGrid in this process: the file is first loaded and checked in a forked
 * child (roles; every compute host's nic_bw, all equal and >= IOS_MIN_BANDWIDTH; every link's latency in [0, 1e6] s and
 * bandwidth of a resource >= IOS_MIN_BANDWIDTH; host speeds >= 0; the route from every compute host to every resource
 * and the PFS crossing the resource's link: from evenly spaced compute hosts only when compute hosts x hosts exceeds
 * 2e6, SimGrid's route queries then costing seconds), and a SimGrid abort there becomes an error naming what it was
 * checking. The file must be a regular file (not a directory or a FIFO). `roles` (a scenario's platform_roles,
 * checked by ios_platform_roles_check; NULL: none) sets the role, link and nic_bw properties of the hosts its rules
 * match before anything is read from them. The SimGrid <disk> elements of an I/O resource then bound its transfers
 * (its link's bandwidth lowered to their total write bandwidth; the link checked to stand for that host alone). The
 * complete list of checks: platforms/README.md.
 * @return IOS_OK, or IOS_EINVAL/IOS_EIO with ios_diag_message() naming the file, the host or link, the value and the
 * fix; IOS_EINTERNAL when the check cannot fork. */
int ios_platform_load(const char *file, const cJSON *roles, ios_platform_t *out);

/** The platform SimGrid has already loaded in this process (a SimGrid program using iosim's plugin), read as
 * ios_platform_load reads a file once loaded: `roles` applied first, the same checks of roles, NIC bandwidths, links
 * and speeds, named `label` in messages. Unlike ios_platform_load nothing is probed in a child process: a route that
 * SimGrid cannot compute aborts SimGrid when the first transfer takes it. @return as ios_platform_load. */
int ios_platform_from_engine(const char *label, const cJSON *roles, ios_platform_t *out);

/** Checks a scenario's `platform_roles` (named in messages as field platform_roles of `file`): an array of rules,
 * each an object {"hosts": "GLOB", "property": "NAME", "value": "VALUE", "role": "ROLE", "link": "LINK",
 * "nic_bw": "BANDWIDTH"}. A rule matches a host whose name matches the glob `hosts` (fnmatch; default "*") and whose
 * SimGrid property `property` equals `value` (absent: any; `property` without `value`: the host has it). The first
 * matching rule of each host gives it the iosim role `role` (compute, ionode, oss, ost, pfs, controller, storage,
 * disk, or none: not used by iosim), and when given its capacity link `link` ("{host}" or "{0}" stands for the host's
 * name, "{1}".."{9}" for what the glob's wildcards matched, each '*' as few characters as possible) and its NIC
 * bandwidth `nic_bw`: the properties role, link and nic_bw an iosim platform carries (platforms/README.md), so that a
 * Batsim or WRENCH platform runs unmodified. Hosts no rule matches keep their own properties.
 * @return IOS_OK, or IOS_EINVAL with ios_diag_message() naming the rule's field, its value and the fix. */
int ios_platform_roles_check(const cJSON *roles, const char *file);

/** The storage tier of a platform whose I/O resources are disks (role "disk"; StorAlloc §4.3): one storage node per
 * role=storage host named by the disks' "node" property (its network bandwidth = the bandwidth of the link named by
 * its "link" property, unlimited without one), one disk per role=disk host (capacity = its "capacity" property in
 * bytes, write bandwidth = its resource link, read bandwidth = its "read_bw" property, default the write one).
 * Nodes are numbered in order of their first disk, disks node by node.
 * @param out an empty storage platform, filled (owned by the caller: ios_storage_free)
 * @param res_of_disk [p->nres] out: the platform resource index (p->res) of each storage disk
 * @return IOS_OK, IOS_EINVAL with ios_diag_message() naming the file, the host and the fix (no disk pool, a disk
 * without a storage node, a missing or bad capacity), or IOS_ENOMEM. */
int ios_platform_storage(const char *file, const ios_platform_t *p, ios_storage_t *out, int *res_of_disk);

/** Frees what the platform description owns (not the SimGrid engine). */
void ios_platform_free(ios_platform_t *p);

/** The SimGrid configuration iosim sets, as "name:value" strings (NULL-terminated), recorded in results.json. */
extern const char *const ios_simgrid_config[];

#ifdef __cplusplus
}
#endif
#endif
