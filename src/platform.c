/* iosim — platform loading and validation (see ios_platform.h). */
#include "ios_platform.h"
#include "ios_diag.h"
#include "ios_sg.h"
#include "ios_units.h"
#include "ios_policy.h"

#include <math.h>
#include <simgrid/host.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *const ios_simgrid_config[] = {"network/model:CM02", "network/crosstraffic:0", NULL};

static const char *const roles[] = {"compute", "ionode", "oss", "ost", "pfs", "controller", "storage", "disk", NULL};

/* Natural order: "c2" < "c10". */
static int natural_cmp(const void *pa, const void *pb) {
  const char *a = sg_host_get_name(*(const sg_host_t *)pa), *b = sg_host_get_name(*(const sg_host_t *)pb);
  while (*a && *b) {
    if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
      char *ea, *eb;
      unsigned long na = strtoul(a, &ea, 10), nb = strtoul(b, &eb, 10);
      if (na != nb) return na < nb ? -1 : 1;
      a = ea;
      b = eb;
    } else {
      if (*a != *b) return (unsigned char)*a - (unsigned char)*b;
      a++;
      b++;
    }
  }
  return (unsigned char)*a - (unsigned char)*b;
}

static int resource_init(const char *file, sg_host_t h, ios_resource_t *r) {
  const char *name = sg_host_get_name(h);
  const char *link = sg_host_get_property_value(h, "link");
  if (link == NULL) {
    ios_diag_set(file, name,
                 "I/O resource without a capacity: add <prop id=\"link\" value=\"LINK\"/> naming the link that "
                 "carries its bandwidth");
    return IOS_EINVAL;
  }
  double bw = ios_sg_link_bandwidth(link);
  if (!(bw > 0)) {
    ios_diag_set(file, name, "its \"link\" property names '%s', %s: name an existing link with a bandwidth > 0", link,
                 bw < 0 ? "which is not a link of the platform" : "whose bandwidth is 0");
    return IOS_EINVAL;
  }
  r->name = strdup(name);
  r->link = strdup(link);
  r->capacity = bw;
  r->host = h;
  return r->name && r->link ? IOS_OK : IOS_ENOMEM;
}

/* Checks in a child process (an unroutable Dijkstra zone can crash SimGrid) that compute node `from` reaches each
 * resource through the resource's link. */
static int check_routes(const char *file, sg_host_t from, int nres, const ios_resource_t *res) {
  int fds[2];
  if (pipe(fds) != 0) return IOS_EINTERNAL;
  pid_t pid = fork();
  if (pid < 0) return IOS_EINTERNAL;
  if (pid == 0) {
    close(fds[0]);
    for (int i = 0; i < nres; i++) {
      int rc = ios_sg_route_has_link(from, res[i].host, res[i].link);
      char msg[2] = {rc == 1 ? 'y' : (rc == 0 ? 'n' : 'u'), 0};
      if (write(fds[1], msg, 1) != 1) _exit(3);
    }
    _exit(0);
  }
  close(fds[1]);
  char buf[1];
  int i = 0, rc = IOS_OK;
  for (; i < nres; i++) {
    ssize_t got = read(fds[0], buf, 1);
    if (got != 1 || buf[0] != 'y') {
      if (got == 1 && buf[0] == 'n')
        ios_diag_set(file, res[i].name,
                     "the route from compute host %s does not cross its link '%s': fix the <route> or the \"link\" "
                     "property",
                     sg_host_get_name(from), res[i].link);
      else
        ios_diag_set(file, res[i].name,
                     "unreachable from compute host %s: add a <route> (or link_ctn chain) from the compute side to it",
                     sg_host_get_name(from));
      rc = IOS_EINVAL;
      break;
    }
  }
  close(fds[0]);
  int status;
  waitpid(pid, &status, 0);
  return rc;
}

int ios_platform_load(const char *file, ios_platform_t *out) {
  if (access(file, R_OK) != 0) {
    ios_diag_set(file, "platform", "cannot read the platform file: check the path (or --set platform=PATH)");
    return IOS_EIO;
  }
  for (int i = 0; ios_simgrid_config[i] != NULL; i++)
    ios_sg_set_config(ios_simgrid_config[i]);
  char err[512];
  if (ios_sg_load_platform(file, err, sizeof err) != 0) {
    ios_diag_set(file, NULL, "SimGrid cannot load this platform: %s", err);
    return IOS_EINVAL;
  }
  size_t nhosts = sg_host_count();
  sg_host_t *hosts = sg_host_list();
  qsort(hosts, nhosts, sizeof *hosts, natural_cmp);
  ios_platform_t p;
  memset(&p, 0, sizeof p);
  p.compute = malloc(sizeof *p.compute * (nhosts + 1));
  sg_host_t *pool[4] = {malloc(sizeof(sg_host_t) * (nhosts + 1)), malloc(sizeof(sg_host_t) * (nhosts + 1)),
                        malloc(sizeof(sg_host_t) * (nhosts + 1)), malloc(sizeof(sg_host_t) * (nhosts + 1))};
  int npool[4] = {0, 0, 0, 0}; /* ionode, ost, disk, pfs */
  int rc = (p.compute && pool[0] && pool[1] && pool[2] && pool[3]) ? IOS_OK : IOS_ENOMEM;
  for (size_t i = 0; rc == IOS_OK && i < nhosts; i++) {
    const char *name = sg_host_get_name(hosts[i]);
    const char *role = sg_host_get_property_value(hosts[i], "role");
    int known = 0;
    for (int r = 0; role != NULL && roles[r] != NULL; r++)
      known |= strcmp(role, roles[r]) == 0;
    if (!known) {
      ios_diag_set(file, name,
                   role ? "unknown role '%s': use one of compute, ionode, oss, ost, pfs, controller, storage, disk"
                        : "host without a role%s: add <prop id=\"role\" "
                          "value=\"compute|ionode|oss|ost|pfs|controller|storage|disk\"/>",
                   role ? role : "");
      rc = IOS_EINVAL;
    } else if (strcmp(role, "compute") == 0) {
      p.compute[p.ncompute++] = hosts[i];
    } else if (strcmp(role, "controller") == 0) {
      if (p.controller != NULL) {
        ios_diag_set(file, name, "a second controller host (the first is %s): keep exactly one role=controller host",
                     sg_host_get_name(p.controller));
        rc = IOS_EINVAL;
      }
      p.controller = hosts[i];
    } else if (strcmp(role, "ionode") == 0) {
      pool[0][npool[0]++] = hosts[i];
    } else if (strcmp(role, "ost") == 0) {
      pool[1][npool[1]++] = hosts[i];
    } else if (strcmp(role, "disk") == 0) {
      pool[2][npool[2]++] = hosts[i];
    } else if (strcmp(role, "pfs") == 0) {
      pool[3][npool[3]++] = hosts[i];
    } else if (strcmp(role, "oss") == 0) {
      p.noss++;
    }
  }
  free(hosts);
  if (rc == IOS_OK && p.ncompute == 0) {
    ios_diag_set(file, "roles", "no compute host: give compute nodes <prop id=\"role\" value=\"compute\"/>");
    rc = IOS_EINVAL;
  }
  if (rc == IOS_OK && p.controller == NULL) {
    ios_diag_set(file, "roles", "no controller host: add a host with <prop id=\"role\" value=\"controller\"/>");
    rc = IOS_EINVAL;
  }
  if (rc == IOS_OK && npool[0] + npool[1] + npool[2] + npool[3] == 0) {
    ios_diag_set(file, "roles",
                 "no I/O resource: give I/O nodes, OSTs, disks or the PFS the role ionode, ost, disk or pfs");
    rc = IOS_EINVAL;
  }
  if (rc == IOS_OK && npool[3] > 1) {
    ios_diag_set(file, sg_host_get_name(pool[3][1]), "a second PFS host: keep exactly one role=pfs host");
    rc = IOS_EINVAL;
  }
  if (rc == IOS_OK) {
    const char *nic = sg_host_get_property_value(p.compute[0], "nic_bw");
    if (nic == NULL || ios_parse_bandwidth(nic, &p.nic_bw) != IOS_OK || !(p.nic_bw > 0)) {
      ios_diag_set(file, sg_host_get_name(p.compute[0]),
                   "compute host without a valid NIC bandwidth%s%s: add <prop id=\"nic_bw\" value=\"1.2GiBps\"/>",
                   nic ? " " : "", nic ? nic : "");
      rc = IOS_EINVAL;
    }
  }
  int which = npool[0] > 0 ? 0 : (npool[1] > 0 ? 1 : (npool[2] > 0 ? 2 : 3));
  if (rc == IOS_OK) {
    static const char *const names[] = {"ionode", "ost", "disk", "pfs"};
    p.pool_role = names[which];
    p.nres = npool[which];
    p.res = calloc((size_t)p.nres, sizeof *p.res);
    rc = p.res ? IOS_OK : IOS_ENOMEM;
    for (int i = 0; rc == IOS_OK && i < p.nres; i++)
      rc = resource_init(file, pool[which][i], &p.res[i]);
  }
  if (rc == IOS_OK && which != 3 && npool[3] == 1) {
    p.has_pfs = 1;
    rc = resource_init(file, pool[3][0], &p.pfs);
  }
  if (rc == IOS_OK) rc = check_routes(file, p.compute[0], p.nres, p.res);
  if (rc == IOS_OK && p.has_pfs) rc = check_routes(file, p.compute[0], 1, &p.pfs);
  for (int k = 0; k < 4; k++)
    free(pool[k]);
  if (rc != IOS_OK) {
    ios_platform_free(&p);
    return rc;
  }
  *out = p;
  return IOS_OK;
}

void ios_platform_free(ios_platform_t *p) {
  for (int i = 0; p->res != NULL && i < p->nres; i++) {
    free(p->res[i].name);
    free(p->res[i].link);
  }
  free(p->res);
  free(p->pfs.name);
  free(p->pfs.link);
  free(p->compute);
  memset(p, 0, sizeof *p);
}

/* A host property read as a positive finite quantity by `parse` (bytes or bytes/s); *out untouched when absent. */
static int disk_prop(const char *file, sg_host_t h, const char *prop, int (*parse)(const char *, double *),
                     const char *example, int required, double *out) {
  const char *v = sg_host_get_property_value(h, prop);
  if (v == NULL && !required) return IOS_OK;
  double x = NAN;
  if (v == NULL || parse(v, &x) != IOS_OK || !(x > 0) || !isfinite(x)) {
    ios_diag_set(file, sg_host_get_name(h), "disk %s \"%s\": give <prop id=\"%s\" value=\"%s\"/> (a positive value)",
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
    double node_bw = link ? ios_sg_link_bandwidth(link) : INFINITY;
    if (!(node_bw > 0)) {
      ios_diag_set(file, sg_host_get_name(nh),
                   "storage node link '%s' is %s: name an existing link with a bandwidth > 0 (or drop the property "
                   "for an unlimited node)",
                   link, node_bw < 0 ? "not a link of the platform" : "of bandwidth 0");
      rc = IOS_EINVAL;
      break;
    }
    for (int k = i; rc == IOS_OK && k < p->nres; k++) {
      if (node_of[k] != i) continue;
      double cap = 0, wbw = p->res[k].capacity, rbw = wbw;
      rc = disk_prop(file, p->res[k].host, "capacity", ios_parse_bytes, "4TB", 1, &cap);
      if (rc == IOS_OK) rc = disk_prop(file, p->res[k].host, "read_bw", ios_parse_bandwidth, "3.13GBps", 0, &rbw);
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
