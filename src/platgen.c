/* iosim — parametric platform families (see ios_platgen.h): validates a JSON spec {"kind": KIND, param: value, ...}
 * and writes the SimGrid 3.32 platform XML of one of the three kinds of platforms/README.md (pfs-single, forwarding,
 * oss-ost), following its conventions (one DijkstraCache zone, star around router "fabric", latency 0, role props).
 * Units: counts are integers, bandwidths bytes/s (XML: plain numbers followed by "Bps"). */
#include "ios_platgen.h"
#include "ios_cli.h"
#include "ios_diag.h"
#include "ios_units.h"
#include "ios_policy.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_COUNT 1000000 /* cap of every count, and of the number of OSTs (servers × osts_per_server) */

/* Every parameter of every kind. */
enum {
  P_COMPUTE,
  P_IONODES,
  P_SERVERS,
  P_OSTS,
  P_NIC,
  P_IONODE_BW,
  P_PFS_BW,
  P_SERVER_BW,
  P_OST_BW,
  P_ROUTERS,
  P_ROUTER_BW,
  NPARAMS
};

typedef struct {
  const char *name; /* JSON key (underscores) */
  int min;          /* counts: smallest valid value; -1: a bandwidth (bytes/s, > 0) */
} param_t;

static const param_t params[NPARAMS] = {
    [P_COMPUTE] = {"compute", 1},      [P_IONODES] = {"ionodes", 1},      [P_SERVERS] = {"servers", 1},
    [P_OSTS] = {"osts_per_server", 1}, [P_NIC] = {"nic_bw", -1},          [P_IONODE_BW] = {"ionode_bw", -1},
    [P_PFS_BW] = {"pfs_bw", -1},       [P_SERVER_BW] = {"server_bw", -1}, [P_OST_BW] = {"ost_bw", -1},
    [P_ROUTERS] = {"routers", 0},      [P_ROUTER_BW] = {"router_bw", -1},
};

/* One parameter of a kind: its default (a count or a bandwidth string ios_parse_bandwidth reads; NULL = computed)
 * and what it means for this kind. */
typedef struct {
  int id;
  const char *def, *help;
} kparam_t;

enum { K_PFS_SINGLE, K_FORWARDING, K_OSS_OST, NKINDS };

typedef struct {
  const char *name, *zone, *help;
  int nparams;
  kparam_t p[8];
} kind_t;

#define ROUTER_PARAMS                                                                                                  \
  {P_ROUTERS, "0", "LNET-like routers rtr0..rtr{R-1} between compute and storage (0: none)"}, {                        \
    P_ROUTER_BW, "12.5GBps", "bandwidth of each router link"                                                           \
  }

static const kind_t kinds[NKINDS] = {
    [K_PFS_SINGLE] = {"pfs-single",
                      "iosim-pfs-single",
                      "compute nodes writing directly to one shared PFS (APEX Cielo defaults)",
                      5,
                      {{P_COMPUTE, "128", "compute nodes C (hosts c0..c{C-1})"},
                       {P_NIC, "1.2GiBps", "per-node NIC bandwidth (nic_bw property, an application-side cap)"},
                       {P_PFS_BW, NULL, "aggregate PFS bandwidth (link pfs); default Cielo's 200 GiB/s x C / 8894"},
                       ROUTER_PARAMS}},
    [K_FORWARDING] = {"forwarding",
                      "iosim-forwarding",
                      "compute nodes, I/O forwarding nodes and a PFS behind them (MareNostrum 4-like defaults)",
                      7,
                      {{P_COMPUTE, "512", "compute nodes C (hosts c0..c{C-1})"},
                       {P_IONODES, "12", "I/O forwarding nodes F (hosts and links ion0..ion{F-1})"},
                       {P_NIC, "12.5GBps", "per-node NIC bandwidth (100 Gb/s Omni-Path)"},
                       {P_IONODE_BW, "1.25GBps", "bandwidth of each I/O node (link ionK)"},
                       {P_PFS_BW, "20GBps", "bandwidth of the PFS behind the I/O nodes (link gpfs)"},
                       ROUTER_PARAMS}},
    [K_OSS_OST] = {"oss-ost",
                   "iosim-oss-ost",
                   "compute nodes and storage servers with OSTs (PlaFRIM BeeGFS defaults)",
                   8,
                   {{P_COMPUTE, "64", "compute nodes C (hosts c0..c{C-1})"},
                    {P_SERVERS, "2", "object storage servers S (hosts and links oss0..oss{S-1})"},
                    {P_OSTS, "4", "OSTs per server T (hosts and links ost0..ost{S*T-1})"},
                    {P_NIC, "12.5GBps", "per-node NIC bandwidth (100 Gb/s Omni-Path)"},
                    {P_SERVER_BW, "12.5GBps", "network bandwidth of each server (link ossI)"},
                    {P_OST_BW, "1.2GBps", "bandwidth of each OST device (link ostK, \"OST as a link\")"},
                    ROUTER_PARAMS}},
};

/* APEX workflows report (LANL/NERSC/SNL, 2016), Cielo: 8,894 compute nodes, 200 GiB/s aggregate PFS bandwidth. */
#define CIELO_NODES 8894.0
#define CIELO_PFS_BPS (200.0 * 1073741824.0)

/* A validated spec: its kind and the effective value of each of its parameters (counts are exact integers). */
typedef struct {
  const kind_t *k;
  double v[NPARAMS];
  int pfs_scaled; /* pfs-single with the default (Cielo-scaled) pfs_bw */
} plat_t;

static const kind_t *find_kind(const char *name) {
  for (int i = 0; i < NKINDS; i++)
    if (strcmp(kinds[i].name, name) == 0) return &kinds[i];
  return NULL;
}

static const kparam_t *find_param(const kind_t *k, const char *name) {
  for (int i = 0; i < k->nparams; i++)
    if (strcmp(params[k->p[i].id].name, name) == 0) return &k->p[i];
  return NULL;
}

/* "a, b, c": the kinds, or the parameters of kind k. */
static const char *name_list(const kind_t *k, char *buf, size_t size) {
  size_t len = 0;
  buf[0] = '\0';
  int n = k ? k->nparams : NKINDS;
  for (int i = 0; i < n && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", k ? params[k->p[i].id].name : kinds[i].name);
  return buf;
}

/* The shortest of %.15g, %.16g, %.17g that strtod reads back as the same double. */
static const char *fmt_num(double v, char buf[40]) {
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(buf, 40, "%.*g", prec, v);
    if (strtod(buf, NULL) == v) break;
  }
  return buf;
}

/* A bandwidth in bytes/s as SimGrid reads it: "1250000000Bps". */
static const char *fmt_bw(double v, char buf[48]) {
  char num[40];
  snprintf(buf, 48, "%sBps", fmt_num(v, num));
  return buf;
}

/* A bandwidth for the human summary: "12.5 GB/s", "1.2 GiB/s" (the shorter exact form), else "~3.091 GB/s". */
static const char *human_bw(double v, char buf[48]) {
  for (int prec = 1; prec <= 6; prec++)
    for (int bin = 0; bin < 2; bin++) {
      double unit = bin ? 1073741824.0 : 1e9;
      snprintf(buf, 48, "%.*g", prec, v / unit);
      if (strchr(buf, 'e') == NULL && fabs(strtod(buf, NULL) * unit - v) <= 1e-12 * v) {
        strcat(buf, bin ? " GiB/s" : " GB/s");
        return buf;
      }
    }
  snprintf(buf, 48, "~%.4g GB/s", v / 1e9);
  return buf;
}

/* Records "WHERE: PARAM: VALUE is not valid: FIX". */
static int bad_value(const char *where, const char *param, const cJSON *v, const char *what) {
  char *text = cJSON_IsNumber(v) && !isfinite(v->valuedouble) ? NULL : cJSON_PrintUnformatted(v);
  ios_diag_set(where, param, "%s is not valid: %s", text ? text : "a non-finite number", what);
  cJSON_free(text);
  return IOS_EINVAL;
}

int ios_platgen_check(const cJSON *spec, const char *where) {
  char list[256];
  if (!cJSON_IsObject(spec)) {
    ios_diag_set(where, NULL,
                 "a platform family must be a JSON object such as {\"kind\": \"forwarding\", \"ionodes\": 24}: give "
                 "\"kind\" (one of %s) and its parameters",
                 name_list(NULL, list, sizeof list));
    return IOS_EINVAL;
  }
  const cJSON *kv = cJSON_GetObjectItemCaseSensitive(spec, "kind");
  if (!cJSON_IsString(kv)) {
    if (kv == NULL)
      ios_diag_set(where, "kind", "missing: add \"kind\": one of %s", name_list(NULL, list, sizeof list));
    else
      bad_value(where, "kind", kv, "give a string, one of pfs-single, forwarding, oss-ost");
    return IOS_EINVAL;
  }
  const kind_t *k = find_kind(kv->valuestring);
  if (k == NULL) {
    ios_diag_set(where, "kind", "unknown kind \"%s\": use one of %s", kv->valuestring,
                 name_list(NULL, list, sizeof list));
    return IOS_EINVAL;
  }
  for (const cJSON *it = spec->child; it != NULL; it = it->next) {
    const char *name = it->string ? it->string : "";
    for (const cJSON *o = spec->child; o != it; o = o->next)
      if (o->string && strcmp(o->string, name) == 0) {
        ios_diag_set(where, name, "given twice: keep one value");
        return IOS_EINVAL;
      }
    if (strcmp(name, "kind") == 0) continue;
    const kparam_t *kp = find_param(k, name);
    if (kp == NULL) {
      char alt[64];
      snprintf(alt, sizeof alt, "%s", name);
      for (char *c = alt; *c; c++)
        if (*c == '-') *c = '_';
      const kparam_t *like = find_param(k, alt);
      ios_diag_set(where, name, "not a parameter of kind %s%s%s%s: use one of %s", k->name,
                   like ? " (parameter names use underscores: " : "", like ? alt : "", like ? ")" : "",
                   name_list(k, list, sizeof list));
      return IOS_EINVAL;
    }
    if (params[kp->id].min >= 0 && !cJSON_IsNumber(it))
      return bad_value(where, name, it, "give an integer count such as 24");
    if (params[kp->id].min < 0 && !cJSON_IsNumber(it) && !cJSON_IsString(it))
      return bad_value(where, name, it,
                       "give a bandwidth: a number of bytes/s or a string such as \"1.25GBps\", \"10Gb/s\", "
                       "\"1.2GiB/s\"");
  }
  return IOS_OK;
}

/* Range-checks one parameter value (already type-checked) into *out. */
static int read_value(const cJSON *v, int id, const char *where, double *out) {
  const char *name = params[id].name;
  if (params[id].min >= 0) {
    double d = v->valuedouble;
    char what[160];
    snprintf(what, sizeof what, "give an integer from %d to %d", params[id].min, MAX_COUNT);
    if (!(d == floor(d)) || d < params[id].min || d > MAX_COUNT) return bad_value(where, name, v, what);
    *out = d;
    return IOS_OK;
  }
  double bw = v->valuedouble;
  if (cJSON_IsString(v) && ios_parse_bandwidth(v->valuestring, &bw) != IOS_OK) bw = NAN;
  if (!(bw > 0) || !isfinite(bw))
    return bad_value(where, name, v,
                     "give a positive finite bandwidth: a number of bytes/s or a string such as \"1.25GBps\" "
                     "(decimal k M G T P E), \"1.2GiB/s\" (binary Ki Mi Gi ...) or \"10Gb/s\" (bits)");
  *out = bw;
  return IOS_OK;
}

/* Validates everything and fills p (defaults included). */
static int resolve(const cJSON *spec, const char *where, plat_t *p) {
  if (ios_platgen_check(spec, where) != IOS_OK) return IOS_EINVAL;
  memset(p, 0, sizeof *p);
  p->k = find_kind(cJSON_GetObjectItemCaseSensitive(spec, "kind")->valuestring);
  for (int i = 0; i < p->k->nparams; i++) {
    const kparam_t *kp = &p->k->p[i];
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(spec, params[kp->id].name);
    if (v != NULL) {
      if (read_value(v, kp->id, where, &p->v[kp->id]) != IOS_OK) return IOS_EINVAL;
    } else if (kp->def == NULL) {
      p->pfs_scaled = 1; /* below, once compute is known */
    } else if (ios_parse_bandwidth(kp->def, &p->v[kp->id]) != IOS_OK) {
      ios_diag_set(where, params[kp->id].name, "bad built-in default \"%s\" (a bug): give the value", kp->def);
      return IOS_EINTERNAL;
    }
  }
  /* 200·2^30·C = 25·C·2^33 is exact in a double, so the quotient is correctly rounded (the same double as Python) */
  if (p->pfs_scaled) p->v[P_PFS_BW] = CIELO_PFS_BPS * p->v[P_COMPUTE] / CIELO_NODES;
  if (p->k == &kinds[K_OSS_OST] && p->v[P_SERVERS] * p->v[P_OSTS] > MAX_COUNT) {
    ios_diag_set(where, "osts_per_server",
                 "servers x osts_per_server = %.0f x %.0f OSTs is more than %d: use fewer servers or OSTs per server",
                 p->v[P_SERVERS], p->v[P_OSTS], MAX_COUNT);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* ------------------------------------------------------------------------------------------------- XML writer */

static void xml_host(FILE *f, const char *id, const char *role, const char *prop, const char *value) {
  fprintf(f, "    <host id=\"%s\" speed=\"1Gf\"><prop id=\"role\" value=\"%s\"/>", id, role);
  if (prop) fprintf(f, "<prop id=\"%s\" value=\"%s\"/>", prop, value);
  fputs("</host>\n", f);
}

static void xml_link(FILE *f, const char *id, const char *bw, int fatpipe) {
  fprintf(f, "    <link id=\"%s\" bandwidth=\"%s\" latency=\"0\"%s/>\n", id, bw,
          fatpipe ? " sharing_policy=\"FATPIPE\"" : "");
}

/* A symmetrical route src → dst over one or two links (l2 may be NULL). */
static void xml_route(FILE *f, const char *src, const char *dst, const char *l1, const char *l2) {
  fprintf(f, "    <route src=\"%s\" dst=\"%s\"><link_ctn id=\"%s\"/>", src, dst, l1);
  if (l2) fprintf(f, "<link_ctn id=\"%s\"/>", l2);
  fputs("</route>\n", f);
}

/* The header comment: the effective parameters (a valid iosim platform spec), `origin`, and a human summary. */
static void header(FILE *f, const plat_t *p, const char *origin) {
  const kind_t *k = p->k;
  char a[48], b[48], c[48];
  int C = (int)p->v[P_COMPUTE], R = (int)p->v[P_ROUTERS];
  fprintf(f, "<?xml version='1.0'?>\n<!--\n  Generated by iosim platform: kind=%s", k->name);
  for (int i = 0; i < k->nparams; i++) {
    int id = k->p[i].id;
    if (params[id].min >= 0)
      fprintf(f, " %s=%.0f", params[id].name, p->v[id]);
    else
      fprintf(f, " %s=%s", params[id].name, fmt_bw(p->v[id], a));
  }
  fputs("\n", f);
  if (origin) fprintf(f, "  Source: %s\n", origin);
  fputs("\n", f);
  human_bw(p->v[P_NIC], a);
  if (k == &kinds[K_PFS_SINGLE]) {
    fprintf(f,
            "  Single shared parallel file system: %d compute nodes\n"
            "  (per-node NIC cap nic_bw=%s) all reach one PFS host whose\n"
            "  link 'pfs' has the aggregate bandwidth %s",
            C, a, human_bw(p->v[P_PFS_BW], b));
    if (p->pfs_scaled) fprintf(f, " (200 GiB/s x %d / 8894)", C);
    fputs(".\n  Defaults: APEX Cielo (1.2 GiB/s per node; 200 GiB/s for 8,894 nodes),\n"
          "  the PFS bandwidth being scaled to the number of compute nodes:\n  200 GiB/s x C / 8894.\n",
          f);
  } else if (k == &kinds[K_FORWARDING]) {
    int F = (int)p->v[P_IONODES];
    fprintf(f,
            "  I/O forwarding layer: %d compute nodes (nic_bw=%s),\n"
            "  %d I/O nodes ion0..ion%d of %s each,\n"
            "  all forwarding to one shared PFS (link 'gpfs', %s).\n"
            "  Route to ionK = [ionK, gpfs]; route to host 'pfs' = [gpfs] (direct access).\n"
            "  Defaults: MareNostrum 4-like, 12 I/O nodes with GPFS behind,\n  100 Gb/s Omni-Path compute NICs.\n",
            C, a, F, F - 1, human_bw(p->v[P_IONODE_BW], b), human_bw(p->v[P_PFS_BW], c));
  } else {
    int S = (int)p->v[P_SERVERS], T = (int)p->v[P_OSTS];
    fprintf(f,
            "  Object storage: %d compute nodes (nic_bw=%s),\n"
            "  %d servers oss0..oss%d (network %s each),\n"
            "  each with %d OSTs (%d in all, %s each).\n"
            "  Route to ostK = [oss(K div %d), ostK].\n"
            "  Defaults: PlaFRIM BeeGFS, 2 servers x 4 OSTs, 100 Gb/s Omni-Path.\n",
            C, a, S, S - 1, human_bw(p->v[P_SERVER_BW], b), T, S * T, human_bw(p->v[P_OST_BW], c), T);
  }
  if (R > 0)
    fprintf(f,
            "  %d LNET-like routers rtr0..rtr%d (links of %s each) between compute and storage:\n"
            "  route of cK to fabric = [compute_fabric, rtr(K mod %d)].\n",
            R, R - 1, human_bw(p->v[P_ROUTER_BW], a), R);
  fputs("-->\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n", f);
  fprintf(f, "  <zone id=\"%s\" routing=\"DijkstraCache\">\n", k->zone);
}

static void emit(FILE *f, const plat_t *p, const char *origin) {
  const kind_t *k = p->k;
  char id[32], id2[32], bw[48];
  int C = (int)p->v[P_COMPUTE], R = (int)p->v[P_ROUTERS], F = (int)p->v[P_IONODES];
  int S = (int)p->v[P_SERVERS], T = (int)p->v[P_OSTS];
  header(f, p, origin);
  fmt_bw(p->v[P_NIC], bw);
  for (int i = 0; i < C; i++) {
    snprintf(id, sizeof id, "c%d", i);
    xml_host(f, id, "compute", "nic_bw", bw);
  }
  xml_host(f, "controller", "controller", NULL, NULL);
  if (k == &kinds[K_PFS_SINGLE]) xml_host(f, "pfs", "pfs", "link", "pfs");
  for (int i = 0; k == &kinds[K_FORWARDING] && i < F; i++) {
    snprintf(id, sizeof id, "ion%d", i);
    xml_host(f, id, "ionode", "link", id);
  }
  if (k == &kinds[K_FORWARDING]) xml_host(f, "pfs", "pfs", "link", "gpfs");
  for (int i = 0; k == &kinds[K_OSS_OST] && i < S + S * T; i++) {
    snprintf(id, sizeof id, i < S ? "oss%d" : "ost%d", i < S ? i : i - S);
    xml_host(f, id, i < S ? "oss" : "ost", "link", id);
  }
  fputs("    <router id=\"fabric\"/>\n", f);
  /* the compute side is never a bottleneck: one FATPIPE link (flows do not share it) of 1000 TB/s */
  xml_link(f, "compute_fabric", "1000TBps", 1);
  xml_link(f, "controller_link", "100GBps", 0); /* small control messages only */
  fmt_bw(p->v[P_ROUTER_BW], bw);
  for (int i = 0; i < R; i++) {
    snprintf(id, sizeof id, "rtr%d", i);
    xml_link(f, id, bw, 0);
  }
  if (k == &kinds[K_PFS_SINGLE]) xml_link(f, "pfs", fmt_bw(p->v[P_PFS_BW], bw), 0);
  fmt_bw(p->v[P_IONODE_BW], bw);
  for (int i = 0; k == &kinds[K_FORWARDING] && i < F; i++) {
    snprintf(id, sizeof id, "ion%d", i);
    xml_link(f, id, bw, 0);
  }
  if (k == &kinds[K_FORWARDING]) xml_link(f, "gpfs", fmt_bw(p->v[P_PFS_BW], bw), 0);
  for (int i = 0; k == &kinds[K_OSS_OST] && i < S + S * T; i++) {
    snprintf(id, sizeof id, i < S ? "oss%d" : "ost%d", i < S ? i : i - S);
    xml_link(f, id, fmt_bw(p->v[i < S ? P_SERVER_BW : P_OST_BW], bw), 0);
  }
  for (int i = 0; i < C; i++) {
    snprintf(id, sizeof id, "c%d", i);
    snprintf(id2, sizeof id2, "rtr%d", R > 0 ? i % R : 0);
    xml_route(f, id, "fabric", "compute_fabric", R > 0 ? id2 : NULL);
  }
  xml_route(f, "fabric", "controller", "controller_link", NULL);
  if (k == &kinds[K_PFS_SINGLE]) xml_route(f, "fabric", "pfs", "pfs", NULL);
  for (int i = 0; k == &kinds[K_FORWARDING] && i < F; i++) {
    snprintf(id, sizeof id, "ion%d", i);
    xml_route(f, "fabric", id, id, "gpfs"); /* a forwarded write is one flow over the I/O node and the PFS behind it */
  }
  if (k == &kinds[K_FORWARDING]) xml_route(f, "fabric", "pfs", "gpfs", NULL); /* direct access (0 I/O nodes) */
  for (int i = 0; k == &kinds[K_OSS_OST] && i < S + S * T; i++) {
    snprintf(id, sizeof id, i < S ? "oss%d" : "ost%d", i < S ? i : i - S);
    snprintf(id2, sizeof id2, "oss%d", i < S ? i : (i - S) / T);
    xml_route(f, "fabric", id, i < S ? id : id2, i < S ? NULL : id);
  }
  fputs("  </zone>\n</platform>\n", f);
}

int ios_platgen_write(const cJSON *spec, const char *where, const char *origin, FILE *out) {
  plat_t p;
  int rc = resolve(spec, where, &p);
  if (rc != IOS_OK) return rc;
  if (origin != NULL && strstr(origin, "--") != NULL) {
    ios_diag_set(where, NULL, "the origin \"%s\" contains \"--\", which XML comments cannot hold: reword it", origin);
    return IOS_EINVAL;
  }
  if (out == NULL) {
    ios_diag_set(where, NULL, "no output stream (a bug): pass an open FILE");
    return IOS_EINTERNAL;
  }
  emit(out, &p, origin);
  if (fflush(out) != 0 || ferror(out)) {
    ios_diag_set(where, NULL, "cannot write the platform XML (%s): check the disk space and permissions",
                 strerror(errno));
    return IOS_EIO;
  }
  return IOS_OK;
}

/* ------------------------------------------------------------------------------------------------- command line */

static void help(FILE *f) {
  fputs(
      "usage: iosim platform KIND [--set param=value]... [-o FILE]\n"
      "Writes the SimGrid platform XML of a parametric family (conventions: platforms/README.md) to FILE\n"
      "(atomically: a temporary file in the same directory, then renamed) or to standard output.\n"
      "Counts are integers from their minimum to 1000000. Bandwidths are in bytes/s: a plain number or a unit\n"
      "string (\"1.25GBps\", \"1.2GiB/s\", \"10Gb/s\"; decimal k M G T P E, binary Ki Mi Gi Ti Pi Ei, b = bits).\n"
      "A value after '=' is read as JSON when it is valid JSON, else as a string.\n"
      "Scenarios accept the same family inline: \"platform\": {\"kind\": \"forwarding\", \"ionodes\": 24}.\n\nkinds:\n",
      f);
  for (int i = 0; i < NKINDS; i++) {
    fprintf(f, "  %s: %s\n", kinds[i].name, kinds[i].help);
    for (int j = 0; j < kinds[i].nparams; j++) {
      const kparam_t *kp = &kinds[i].p[j];
      int count = params[kp->id].min >= 0;
      fprintf(f, "      %-16s %-9s %-10s %s\n", params[kp->id].name, kp->def ? kp->def : "computed",
              count ? "(count)" : "(bytes/s)", kp->help);
    }
  }
  fputs("\nexample: iosim platform forwarding --set ionodes=24 --set pfs_bw=40GBps -o my.xml\n", f);
}

/* Writes the platform of spec to f (ios_cli_write's writer). */
typedef struct {
  const cJSON *spec;
  const char *where;
} write_ctx_t;

static int write_platform(FILE *f, void *ctx) {
  const write_ctx_t *w = ctx;
  return ios_platgen_write(w->spec, w->where, NULL, f);
}

int ios_platgen_main(int argc, char **argv) {
  if (argc < 2 || ios_cli_is_help(argv[1])) {
    help(stdout);
    return 0;
  }
  for (int i = 2; i < argc; i++)
    if (ios_cli_is_help(argv[i])) {
      help(stdout);
      return 0;
    }
  const char *where = "command line", *path = NULL;
  cJSON *spec = cJSON_CreateObject();
  int rc = spec != NULL && cJSON_AddStringToObject(spec, "kind", argv[1]) != NULL ? IOS_OK : IOS_ENOMEM;
  if (rc == IOS_OK && argv[1][0] == '-') {
    ios_diag_set(where, "KIND",
                 "expected a kind first, got \"%s\": write iosim platform KIND [--set param=value]... "
                 "[-o FILE] (see iosim platform --help)",
                 argv[1]);
    rc = IOS_EINVAL;
  }
  for (int i = 2; rc == IOS_OK && i < argc; i++) {
    if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
      rc = ios_cli_add_set(spec, argv[++i], "iosim platform KIND", "ionodes=24");
    } else if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--out") == 0) && i + 1 < argc) {
      path = argv[++i];
    } else {
      int opt = strcmp(argv[i], "--set") == 0 || strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--out") == 0;
      ios_diag_set(where, argv[i], "%s: write iosim platform KIND [--set param=value]... [-o FILE]",
                   opt ? "needs a value" : "unexpected argument");
      rc = IOS_EINVAL;
    }
  }
  if (rc == IOS_OK) rc = ios_platgen_check(spec, where);
  write_ctx_t ctx = {spec, where};
  if (rc == IOS_OK) rc = ios_cli_write(path, write_platform, &ctx);
  cJSON_Delete(spec);
  if (rc == IOS_OK) return 0;
  fprintf(stderr, "iosim: error: %s\n", ios_diag_message()[0] ? ios_diag_message() : ios_strerror(rc));
  return rc == IOS_EINVAL || rc == IOS_EIO ? 2 : 1;
}
