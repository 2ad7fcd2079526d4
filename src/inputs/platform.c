/* iosim — platform loading and validation (see ios_platform.h). */
#define _GNU_SOURCE /* MAP_ANONYMOUS */
#include "ios_platform.h"
#include "platform_disks.h"
#include "platform_osts.h"
#include "platform_roles.h"
#include "ios_platgen.h"
#include "ios_csv.h"
#include "ios_diag.h"
#include "ios_value.h"
#include "ios_sg_platform.h"
#include "ios_units.h"
#include "ios_policy.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char *const ios_simgrid_config[] = {"network/model:CM02", "network/crosstraffic:0", NULL};

/* Natural order: "c2" < "c10" (platform_osts.c). */
static int natural_cmp(const void *pa, const void *pb) {
  return ios_name_natural_cmp(sg_host_get_name(*(const sg_host_t *)pa), sg_host_get_name(*(const sg_host_t *)pb));
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
  if (strchr(name, ';') != NULL) { /* apps.csv and allocations.csv list resources separated by ';' */
    ios_diag_set(file, name, "I/O resource name with a ';' (outputs list resources separated by ';'): rename the host");
    return IOS_EINVAL;
  }
  double bw;
  int rc = ios_platform_link_capacity(file, name, "link", link, &bw);
  if (rc != IOS_OK) return rc;
  r->name = strdup(name);
  r->link = strdup(link);
  r->capacity = bw;
  r->host = h;
  r->lustre_index = -1;
  if (r->name == NULL || r->link == NULL) return IOS_ENOMEM;
  const char *role = sg_host_get_property_value(h, "role"), *rh = sg_host_get_property_value(h, "read_host");
  if (rh == NULL || strcmp(role, "disk") != 0) return IOS_OK;
  /* a disk with its own read route (docs/storalloc.md "Storage platforms in XML") */
  sg_host_t read = sg_host_by_name(rh);
  const char *rlink = read != NULL && read != h ? sg_host_get_property_value(read, "link") : NULL;
  if (rlink == NULL) {
    ios_diag_set(file, name,
                 read == NULL || read == h
                     ? "its \"read_host\" property names '%s', which is not another host of the platform: name the "
                       "host (role none) that its reads are routed to, or drop the property (reads then share its link)"
                     : "its \"read_host\" '%s' has no \"link\" property: add <prop id=\"link\" value=\"LINK\"/> "
                       "naming the link that carries the disk's read bandwidth",
                 rh);
    return IOS_EINVAL;
  }
  rc = ios_platform_link_capacity(file, rh, "link", rlink, &bw);
  if (rc != IOS_OK) return rc;
  r->read_host = read;
  r->read_link = strdup(rlink);
  return r->read_link ? IOS_OK : IOS_ENOMEM;
}

/* Every compute host's NIC bandwidth: present, a positive finite bandwidth, the same on all (iosim models one b). */
static int check_nics(const char *file, ios_platform_t *p) {
  for (int i = 0; i < p->ncompute; i++) {
    const char *name = sg_host_get_name(p->compute[i]);
    const char *nic = sg_host_get_property_value(p->compute[i], "nic_bw");
    double bw = NAN;
    if (nic == NULL || ios_parse_bandwidth(nic, &bw) != IOS_OK || !(bw >= IOS_MIN_BANDWIDTH) || !isfinite(bw)) {
      ios_diag_set(file, name,
                   "compute host with %s%s%s NIC bandwidth: give it <prop id=\"nic_bw\" value=\"1.2GiBps\"/> (a "
                   "finite bandwidth of at least 0.001 B/s, in bytes/s or with a unit)",
                   nic ? "the invalid \"nic_bw\" value '" : "no", nic ? nic : "", nic ? "' as" : "");
      return IOS_EINVAL;
    }
    if (i == 0) {
      p->nic_bw = bw;
    } else if (bw != p->nic_bw) {
      ios_diag_set(file, name,
                   "nic_bw '%s' (%.17g B/s) differs from %s's (%.17g B/s): iosim models one NIC bandwidth b for every "
                   "compute node; give all compute hosts the same nic_bw",
                   nic, bw, sg_host_get_name(p->compute[0]), p->nic_bw);
      return IOS_EINVAL;
    }
  }
  return IOS_OK;
}

/* Every link's latency in [0, 1e6] s (above 11 days is a unit mistake: results came out at 1e302 s) and every host's
 * speed >= 0 (SimGrid accepts negative values). */
static int check_links_and_speeds(const char *file) {
  size_t n = sg_link_count();
  sg_link_t *links = sg_link_list();
  int rc = IOS_OK;
  for (size_t i = 0; links != NULL && i < n && rc == IOS_OK; i++) {
    double lat = sg_link_get_latency(links[i]);
    if (!(lat >= 0 && lat <= 1e6)) {
      ios_diag_set(file, sg_link_get_name(links[i]),
                   "link latency %g s: give <link id=\"%s\" latency=...> a latency from 0 to 1e6 s (e.g. \"0\" or "
                   "\"1us\")",
                   lat, sg_link_get_name(links[i]));
      rc = IOS_EINVAL;
    }
  }
  free(links);
  size_t nh = sg_host_count();
  sg_host_t *hosts = sg_host_list();
  for (size_t i = 0; hosts != NULL && i < nh && rc == IOS_OK; i++) {
    double speed = sg_host_get_speed(hosts[i]);
    if (!(speed >= 0) || !isfinite(speed)) {
      ios_diag_set(file, sg_host_get_name(hosts[i]),
                   "host speed %g flop/s: give <host id=\"%s\" speed=...> a finite speed >= 0 (e.g. \"1Gf\")", speed,
                   sg_host_get_name(hosts[i]));
      rc = IOS_EINVAL;
    }
  }
  free(hosts);
  return rc;
}

/* The hosts of each I/O role of a platform, in natural order: 0 ionode, 1 ost, 2 disk, 3 pfs (arrays owned). */
typedef struct {
  sg_host_t *host[4];
  int n[4];
} pools_t;

/* Sorts the hosts by role into p (compute, controller, OSS count) and pools; checks each role is known. */
static int sort_hosts(const char *file, sg_host_t *hosts, size_t nhosts, ios_platform_t *p, pools_t *pools) {
  int rc = IOS_OK;
  for (size_t i = 0; rc == IOS_OK && i < nhosts; i++) {
    const char *name = sg_host_get_name(hosts[i]);
    const char *role = sg_host_get_property_value(hosts[i], "role");
    int known = 0;
    for (int r = 0; role != NULL && ios_platform_roles[r] != NULL; r++)
      known |= strcmp(role, ios_platform_roles[r]) == 0;
    if (!known) {
      ios_diag_set(file, name,
                   role ? "unknown role '%s': use one of compute, ionode, oss, ost, pfs, controller, storage, disk, "
                          "none, or map the platform's roles with the scenario's platform_roles (docs/scenario.md)"
                        : "host without a role%s: add <prop id=\"role\" "
                          "value=\"compute|ionode|oss|ost|pfs|controller|storage|disk|none\"/>, or give it one with "
                          "the scenario's platform_roles (docs/scenario.md)",
                   role ? role : "");
      rc = IOS_EINVAL;
    } else if (strcmp(role, "compute") == 0) {
      p->compute[p->ncompute++] = hosts[i];
    } else if (strcmp(role, "controller") == 0) {
      if (p->controller != NULL) {
        ios_diag_set(file, name, "a second controller host (the first is %s): keep exactly one role=controller host",
                     sg_host_get_name(p->controller));
        rc = IOS_EINVAL;
      }
      p->controller = hosts[i];
    } else if (strcmp(role, "ionode") == 0) {
      pools->host[0][pools->n[0]++] = hosts[i];
    } else if (strcmp(role, "ost") == 0) {
      pools->host[1][pools->n[1]++] = hosts[i];
    } else if (strcmp(role, "disk") == 0) {
      pools->host[2][pools->n[2]++] = hosts[i];
    } else if (strcmp(role, "pfs") == 0) {
      pools->host[3][pools->n[3]++] = hosts[i];
    } else if (strcmp(role, "oss") == 0) {
      p->noss++;
    }
  }
  return rc;
}

/* Checks that the platform has compute hosts, an I/O resource and at most one PFS host (and at most one controller:
 * sort_hosts). */
static int check_roles(const char *file, const ios_platform_t *p, const pools_t *pools) {
  const int *npool = pools->n;
  if (p->ncompute == 0) {
    ios_diag_set(file, "roles", "no compute host: give compute nodes <prop id=\"role\" value=\"compute\"/>");
    return IOS_EINVAL;
  }
  if (npool[0] + npool[1] + npool[2] + npool[3] == 0) {
    ios_diag_set(file, "roles",
                 "no I/O resource: give I/O nodes, OSTs, disks or the PFS the role ionode, ost, disk or pfs");
    return IOS_EINVAL;
  }
  if (npool[3] > 1) {
    ios_diag_set(file, sg_host_get_name(pools->host[3][1]), "a second PFS host: keep exactly one role=pfs host");
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* The controller's host: the role=controller host, else the first compute host (its actors only wait: they take
 * nothing from an application's work, which is timed, not executed). */
static void choose_controller(ios_platform_t *p) {
  if (p->controller == NULL) p->controller = p->compute[0];
}

/* Puts the OSTs of `pools` in their Lustre order (platform_osts.h: by index for FSNAME-OSTxxxx names, else natural
 * name order, with a warning when the names give no order); lustre [n] receives each one's index (-1: none). */
static int order_osts(const char *file, pools_t *pools, long *lustre) {
  int n = pools->n[1];
  const char **names = malloc(sizeof *names * (size_t)(n > 0 ? n : 1));
  int *order = malloc(sizeof *order * (size_t)(n > 0 ? n : 1));
  sg_host_t *hosts = malloc(sizeof *hosts * (size_t)(n > 0 ? n : 1));
  int rc = names && order && hosts ? IOS_OK : IOS_ENOMEM;
  char warning[512];
  int a = 0, b = 0;
  for (int i = 0; rc == IOS_OK && i < n; i++)
    names[i] = sg_host_get_name(pools->host[1][i]);
  int got = rc == IOS_OK ? ios_ost_order(names, n, order, lustre, warning, sizeof warning, &a, &b) : 0;
  if (got == -2) rc = IOS_ENOMEM;
  if (got == -1) {
    ios_diag_set(file, names[b],
                 "has the Lustre index of %s (FSNAME-OSTxxxx: a hexadecimal index, unique in its file system): "
                 "rename one of them",
                 names[a]);
    rc = IOS_EINVAL;
  }
  if (rc == IOS_OK && warning[0] != '\0') ios_diag_warn(file, "OSTs", "%s (platforms/README.md)", warning);
  for (int i = 0; rc == IOS_OK && i < n; i++)
    hosts[i] = pools->host[1][order[i]];
  if (rc == IOS_OK) memcpy(pools->host[1], hosts, sizeof *hosts * (size_t)n);
  free(names);
  free(order);
  free(hosts);
  return rc;
}

/* Makes p's pool from the first I/O role present (ionode, ost, disk, then pfs) and, beside another pool, its PFS. */
static int make_resources(const char *file, ios_platform_t *p, pools_t *pools) {
  static const char *const names[] = {"ionode", "ost", "disk", "pfs"};
  const int *npool = pools->n;
  int which = npool[0] > 0 ? 0 : (npool[1] > 0 ? 1 : (npool[2] > 0 ? 2 : 3));
  p->pool_role = names[which];
  p->nres = npool[which];
  p->res = calloc((size_t)p->nres, sizeof *p->res);
  int rc = p->res ? IOS_OK : IOS_ENOMEM;
  long *lustre = which == 1 ? malloc(sizeof *lustre * (size_t)(p->nres > 0 ? p->nres : 1)) : NULL;
  if (which == 1 && rc == IOS_OK) rc = lustre != NULL ? order_osts(file, pools, lustre) : IOS_ENOMEM;
  for (int i = 0; rc == IOS_OK && i < p->nres; i++) {
    rc = resource_init(file, pools->host[which][i], &p->res[i]);
    if (rc == IOS_OK && lustre != NULL) p->res[i].lustre_index = lustre[i];
  }
  free(lustre);
  if (rc == IOS_OK && which != 3 && npool[3] == 1) {
    p->has_pfs = 1;
    rc = resource_init(file, pools->host[3][0], &p->pfs);
  }
  return rc;
}

/* One compute host's router choices (its `routers` property `v`, "0,3": distinct indices 0..R-1) appended to
 * p->router_list / router_host from index *total. */
static int host_router_choices(const char *file, ios_platform_t *p, int k, const char *v, int *total) {
  const char *name = sg_host_get_name(p->compute[k]);
  char buf[1024], *fields[256];
  snprintf(buf, sizeof buf, "%s", v);
  int nf = ios_csv_split(buf, fields, 256);
  for (int i = 0; i < nf; i++) {
    char *end;
    long r = strtol(fields[i], &end, 10);
    int bad = end == fields[i] || *end != '\0' || r < 0 || r >= p->nrouters || i >= p->nrouters;
    for (int j = p->router_start[k]; !bad && j < *total; j++)
      bad = p->router_list[j] == r;
    if (bad) {
      ios_diag_set(file, name,
                   "property routers=\"%s\" is not a list of distinct router indices 0..%d separated by commas: give "
                   "every compute host the routers it may use, e.g. <prop id=\"routers\" value=\"0,1\"/> (its own "
                   "route's first), or none of them",
                   v, p->nrouters - 1);
      return IOS_EINVAL;
    }
    char via[300];
    snprintf(via, sizeof via, "%s.rtr%ld", name, r);
    sg_host_t h = i == 0 ? p->compute[k] : sg_host_by_name(via);
    if (h == NULL) {
      ios_diag_set(file, name,
                   "lists router %ld in its routers property but host %s does not exist: declare it with a route "
                   "[compute_fabric, rtr%ld] to the fabric (iosim platform oss-ost --set routers_per_client=K)",
                   r, via, r);
      return IOS_EINVAL;
    }
    p->router_list[*total] = (int)r;
    p->router_host[(*total)++] = h;
  }
  return IOS_OK;
}

/* The compute hosts' router choices (ios_platform_t.router_start), when any has a `routers` property. */
static int read_router_choices(const char *file, ios_platform_t *p) {
  int any = 0, total = 0;
  for (int k = 0; k < p->ncompute; k++)
    any |= sg_host_get_property_value(p->compute[k], "routers") != NULL;
  if (!any || p->nrouters < 1) return IOS_OK;
  size_t most = (size_t)p->ncompute * (size_t)p->nrouters;
  p->router_start = malloc(sizeof *p->router_start * (size_t)(p->ncompute + 1));
  p->router_list = malloc(sizeof *p->router_list * most);
  p->router_host = malloc(sizeof *p->router_host * most);
  if (p->router_start == NULL || p->router_list == NULL || p->router_host == NULL) return IOS_ENOMEM;
  for (int k = 0; k < p->ncompute; k++) {
    const char *v = sg_host_get_property_value(p->compute[k], "routers");
    p->router_start[k] = total;
    int rc = host_router_choices(file, p, k, v != NULL ? v : "", &total);
    if (rc != IOS_OK) return rc;
  }
  p->router_start[p->ncompute] = total;
  return IOS_OK;
}

/* Roles, NIC bandwidths and resources of the loaded platform (no route checked). */
static int build(const char *file, ios_platform_t *out) {
  int rc0 = check_links_and_speeds(file);
  if (rc0 != IOS_OK) return rc0;
  size_t nhosts = sg_host_count();
  sg_host_t *hosts = sg_host_list();
  qsort(hosts, nhosts, sizeof *hosts, natural_cmp);
  ios_platform_t p;
  memset(&p, 0, sizeof p);
  p.compute = malloc(sizeof *p.compute * (nhosts + 1));
  pools_t pools = {{malloc(sizeof(sg_host_t) * (nhosts + 1)), malloc(sizeof(sg_host_t) * (nhosts + 1)),
                    malloc(sizeof(sg_host_t) * (nhosts + 1)), malloc(sizeof(sg_host_t) * (nhosts + 1))},
                   {0, 0, 0, 0}};
  int rc = (p.compute && pools.host[0] && pools.host[1] && pools.host[2] && pools.host[3]) ? IOS_OK : IOS_ENOMEM;
  if (rc == IOS_OK) rc = sort_hosts(file, hosts, nhosts, &p, &pools);
  free(hosts);
  if (rc == IOS_OK) rc = check_roles(file, &p, &pools);
  if (rc == IOS_OK) choose_controller(&p);
  if (rc == IOS_OK) rc = check_nics(file, &p);
  if (rc == IOS_OK) rc = make_resources(file, &p, &pools);
  for (int k = 0; k < 4; k++)
    free(pools.host[k]);
  /* routers (platforms/README.md): links rtr0..rtr{R-1}, as `iosim platform` writes them */
  char name[32];
  for (p.nrouters = 0;; p.nrouters++) {
    snprintf(name, sizeof name, "rtr%d", p.nrouters);
    if (ios_sg_link_bandwidth(name) < 0) break;
  }
  if (rc == IOS_OK) rc = read_router_choices(file, &p);
  if (rc != IOS_OK) {
    ios_platform_free(&p);
    return rc;
  }
  *out = p;
  return IOS_OK;
}

/* ---------------------------------------------------------------- validation in a child process
 * SimGrid aborts (xbt_die) on some bad platforms: a duplicate id, an unknown routing= model, a route that a Full or
 * Floyd zone does not declare. So the whole platform is first loaded and checked in a forked child (the same
 * loading, every compute host's properties, and the route from every compute host to every resource and the PFS,
 * which is what the engine's transfers use); the child reports through shared memory, including how far it got
 * when SimGrid killed it, and its standard error (SimGrid's message) goes to an unlinked temporary file. */

#define ROUTE_BUDGET 2e6

typedef struct {
  int stage; /* 0 loading, 1 checking hosts, 2 routes, 3 done */
  int from;  /* compute host index of the route being checked */
  int to;    /* resource index (nres: the PFS) */
  int rc;
  char from_name[256], to_name[256], msg[3072];
} probe_t;

static void probe_set(probe_t *pr, int rc, const char *msg) {
  pr->rc = rc;
  snprintf(pr->msg, sizeof pr->msg, "%s", msg);
}

static void copy_name(char *dst, size_t n, const char *src) {
  snprintf(dst, n, "%s", src);
}

/* The route from compute host c to resource r crosses r's link. */
static int probe_route(const char *file, probe_t *pr, sg_host_t c, const ios_resource_t *r) {
  copy_name(pr->from_name, sizeof pr->from_name, sg_host_get_name(c));
  copy_name(pr->to_name, sizeof pr->to_name, r->name);
  int has = ios_sg_route_has_link(c, r->host, r->link);
  if (has == 1 && r->read_host != NULL) { /* a disk's reads: their route crosses its read link */
    has = ios_sg_route_has_link(c, r->read_host, r->read_link);
    if (has == 0)
      ios_diag_set(file, r->name,
                   "the route from compute host %s to its read_host %s does not cross the read link '%s': fix the "
                   "<route> or the read host's \"link\" property",
                   sg_host_get_name(c), sg_host_get_name(r->read_host), r->read_link);
    if (has == 0) return IOS_EINVAL;
  }
  if (has == 1) return IOS_OK;
  if (has == 0)
    ios_diag_set(file, r->name,
                 "the route from compute host %s does not cross its link '%s': fix the <route> or the \"link\" "
                 "property",
                 sg_host_get_name(c), r->link);
  else
    ios_diag_set(file, r->name,
                 "unreachable from compute host %s: add a <route> (or link_ctn chain) from %s to it (every compute "
                 "host must reach every I/O resource and the PFS)",
                 sg_host_get_name(c), sg_host_get_name(c));
  return IOS_EINVAL;
}

static void probe_child(const char *file, const cJSON *rules, probe_t *pr) {
  for (int i = 0; ios_simgrid_config[i] != NULL; i++)
    ios_sg_set_config(ios_simgrid_config[i]);
  char err[1024];
  if (ios_sg_load_platform(file, err, sizeof err) != 0) {
    ios_diag_set(file, NULL, "SimGrid cannot load this platform: %s", err);
    probe_set(pr, IOS_EINVAL, ios_diag_message());
    return;
  }
  ios_platform_roles_apply(rules);
  pr->stage = 1;
  ios_platform_t p;
  ios_disk_bound_t *bound = NULL;
  int nbound = 0;
  int rc = ios_platform_disks_apply(file, &bound, &nbound);
  if (rc == IOS_OK) rc = build(file, &p);
  if (rc != IOS_OK) {
    free(bound);
    probe_set(pr, rc, ios_diag_message());
    return;
  }
  pr->stage = 2;
  /* From every compute host to every resource and the PFS. SimGrid's first route query from a host of a Dijkstra zone
   * costs about 1.5 us per host of the zone (8,894 compute hosts, 9,000 hosts: 50 s), so beyond ROUTE_BUDGET
   * (compute hosts x hosts) the routes are checked from evenly spaced compute hosts (the first and the last
   * included) only. */
  double hosts = (double)sg_host_count(), budget = ROUTE_BUDGET / (hosts > 1 ? hosts : 1);
  /* and every route query walks the edges of the star's centre (about one per host) once per resource: beyond
   * ROUTE_BUDGET x 50 (probed hosts x resources x hosts, about 1.5 s) fewer compute hosts are probed (Titan-like
   * 4,096 nodes x 1,008 OSTs: 30 s of probing before, measured with perf in docs/striping.md) */
  double walks = ROUTE_BUDGET * 50 / ((hosts > 1 ? hosts : 1) * (p.nres + 1.0));
  if (walks < budget) budget = walks;
  int step = (double)p.ncompute <= budget ? 1 : (int)ceil(p.ncompute / (budget > 2 ? budget - 1 : 1));
  for (int c = 0; rc == IOS_OK && c < p.ncompute;
       c = c + step < p.ncompute || c == p.ncompute - 1 ? c + step : p.ncompute - 1) {
    pr->from = c;
    for (int r = 0; rc == IOS_OK && r <= p.nres; r++) {
      if (r == p.nres && !p.has_pfs) break;
      pr->to = r;
      const ios_resource_t *res = r < p.nres ? &p.res[r] : &p.pfs;
      rc = probe_route(file, pr, p.compute[c], res);
      if (rc == IOS_OK && nbound > 0) rc = ios_platform_disks_exclusive(file, bound, nbound, p.compute[c], res);
    }
  }
  if (rc != IOS_OK) probe_set(pr, rc, ios_diag_message());
  free(bound);
  ios_platform_free(&p);
  pr->rc = rc;
  pr->stage = 3;
}

/* SimGrid's own message in the child's standard error: its first CRITICAL line, else its first line. */
static void sg_message(FILE *f, char *out, size_t n) {
  char line[1024], first[1024] = "";
  out[0] = '\0';
  rewind(f);
  while (fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, "\r\n")] = '\0';
    if (first[0] == '\0') snprintf(first, sizeof first, "%s", line);
    const char *crit = strstr(line, "CRITICAL] ");
    if (crit != NULL) {
      snprintf(out, n, "%s", crit + strlen("CRITICAL] "));
      return;
    }
  }
  snprintf(out, n, "%s", first[0] ? first : "no message");
}

static int validate_in_child(const char *file, const cJSON *rules) {
  probe_t *pr = mmap(NULL, sizeof *pr, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (pr == MAP_FAILED) {
    ios_diag_set(file, NULL, "cannot check the platform (mmap: %s)", strerror(errno));
    return IOS_EINTERNAL;
  }
  memset(pr, 0, sizeof *pr);
  pr->rc = IOS_EINTERNAL;
  FILE *log = tmpfile(); /* unlinked at creation: nothing to clean up */
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    ios_diag_set(file, NULL, "cannot check the platform (fork: %s)", strerror(errno));
    munmap(pr, sizeof *pr);
    if (log) fclose(log);
    return IOS_EINTERNAL;
  }
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* no orphan if iosim is killed meanwhile */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    int nul = log != NULL ? fileno(log) : open("/dev/null", O_WRONLY);
    if (nul >= 0) {
      dup2(nul, 1);
      dup2(nul, 2);
    }
    probe_child(file, rules, pr);
    fflush(NULL);
    _exit(0);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  int rc = IOS_OK;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && pr->stage == 3) {
    rc = pr->rc;
    if (rc != IOS_OK) ios_diag_set(NULL, NULL, "%s", pr->msg);
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && pr->rc != IOS_EINTERNAL) {
    rc = pr->rc; /* an error found before the routes */
    ios_diag_set(NULL, NULL, "%s", pr->msg);
  } else {
    char why[1024] = "no message";
    if (log != NULL) sg_message(log, why, sizeof why);
    char sig[64];
    if (WIFSIGNALED(status))
      snprintf(sig, sizeof sig, "signal %d, %s", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
      snprintf(sig, sizeof sig, "exit code %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    rc = IOS_EINVAL;
    if (pr->stage == 2)
      ios_diag_set(file, pr->to_name,
                   "unreachable from compute host %s (SimGrid died computing that route: %s, \"%s\"): declare a "
                   "<route> (or a link_ctn chain) from %s to %s (every compute host must reach every I/O resource and "
                   "the PFS)",
                   pr->from_name, sig, why, pr->from_name, pr->to_name);
    else if (strstr(why, "Not a valid model") != NULL)
      ios_diag_set(file, "routing",
                   "SimGrid aborted (%s) loading it: \"%s\": give each <zone> a valid routing= (Full, Floyd, Dijkstra, "
                   "DijkstraCache, Cluster, Vivaldi, Wifi or None)",
                   sig, why);
    else
      ios_diag_set(file, NULL,
                   "SimGrid aborted (%s) loading it: \"%s\": fix what this message names (ids must be unique among "
                   "hosts, links, routers and zones; routes declared once; see platforms/README.md)",
                   sig, why);
  }
  if (log != NULL) fclose(log);
  munmap(pr, sizeof *pr);
  return rc;
}

int ios_platform_load(const char *file, const cJSON *roles, ios_platform_t *out) {
  struct stat st;
  if (file == NULL || file[0] == '\0') {
    ios_diag_set(NULL, "platform",
                 "the platform is empty: give the path of a SimGrid platform XML file (or a platform object such as "
                 "{\"kind\": \"forwarding\"}; see platforms/README.md)");
    return IOS_EINVAL;
  }
  if (stat(file, &st) != 0 || access(file, R_OK) != 0) {
    ios_diag_set(file, "platform", "cannot read the platform file (%s): check the path (or --set platform=PATH)",
                 strerror(errno));
    return IOS_EIO;
  }
  if (S_ISDIR(st.st_mode)) {
    ios_diag_set(file, "platform",
                 "is a directory, not a platform file: give the path of a SimGrid platform XML file (e.g. "
                 "platforms/pfs-single.xml)");
    return IOS_EINVAL;
  }
  if (!S_ISREG(st.st_mode)) { /* a FIFO or a device would block or never end */
    ios_diag_set(file, "platform",
                 "is not a regular file: give the path of a SimGrid platform XML file (e.g. platforms/pfs-single.xml)");
    return IOS_EINVAL;
  }
  /* a platform iosim generated, unedited, is loaded without a fault: probed in a child only when it is another */
  int rc = roles == NULL && ios_platgen_is_generated(file) ? IOS_OK : validate_in_child(file, roles);
  if (rc != IOS_OK) return rc;
  for (int i = 0; ios_simgrid_config[i] != NULL; i++)
    ios_sg_set_config(ios_simgrid_config[i]);
  char err[1024];
  if (ios_sg_load_platform(file, err, sizeof err) != 0) {
    ios_diag_set(file, NULL, "SimGrid cannot load this platform: %s", err);
    return IOS_EINVAL;
  }
  ios_platform_roles_apply(roles);
  ios_disk_bound_t *bound = NULL;
  int nbound = 0;
  rc = ios_platform_disks_apply(file, &bound, &nbound); /* checked in the child: the same result */
  free(bound);
  return rc == IOS_OK ? build(file, out) : rc;
}

int ios_platform_from_engine(const char *label, const cJSON *roles, ios_platform_t *out) {
  if (sg_host_count() == 0) {
    ios_diag_set(label, "platform", "SimGrid has no platform loaded: load it before initialising iosim's plugin");
    return IOS_EINVAL;
  }
  ios_platform_roles_apply(roles);
  ios_disk_bound_t *bound = NULL;
  int nbound = 0;
  int rc = ios_platform_disks_apply(label, &bound, &nbound);
  free(bound);
  return rc == IOS_OK ? build(label, out) : rc;
}

void ios_platform_free(ios_platform_t *p) {
  for (int i = 0; p->res != NULL && i < p->nres; i++) {
    free(p->res[i].name);
    free(p->res[i].link);
    free(p->res[i].read_link);
  }
  free(p->res);
  free(p->pfs.name);
  free(p->pfs.link);
  free(p->compute);
  free(p->router_start);
  free(p->router_list);
  free(p->router_host);
  memset(p, 0, sizeof *p);
}
