/* iosim — parametric platform families (see ios_platgen.h): validates a JSON spec {"kind": KIND, param: value, ...}
 * and writes the SimGrid 3.32 platform XML of one of the four kinds of platforms/README.md (pfs-single, forwarding,
 * oss-ost, storage), following its conventions (one DijkstraCache zone, star around router "fabric", latency 0, role
 * props). Units: counts are integers, bandwidths bytes/s (XML: plain numbers followed by "Bps"), sizes bytes. */
#include "ios_platgen.h"
#include "ios_args.h"
#include "ios_platform.h"
#include "ios_fs.h"
#include "ios_diag.h"
#include "ios_units.h"
#include "ios_policy.h"
#include "ios_storage.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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
  P_LAYOUT,
  P_CAPACITY,
  P_RPC,
  P_RMAP,
  NPARAMS
};

/* What a parameter's value is. */
enum {
  T_COUNT, /* an integer from param_t.min to MAX_COUNT */
  T_BW,    /* a bandwidth: bytes/s, > 0, finite (a number or a string ios_parse_bandwidth reads) */
  T_BYTES, /* a size: bytes, > 0, finite (a number or a string ios_parse_bytes reads) */
  T_NAME,  /* a string: one of ios_storage_preset_names (case-insensitive) */
  T_MAP    /* a string: one of router_maps (exact); p->v[id] holds its index */
};

/* How a compute node's first (nearest) router is chosen, router_map: cyclic, client k → rtr(k mod R) (the historical
 * routes); block, client k → rtr(⌊k·R/C⌋), so that neighbouring nodes share their nearest router, as Fine-Grained
 * Routing pairs each Titan node with its closest LNET router (TAPP-IO §II, its reference [10]). */
static const char *const router_maps[] = {"cyclic", "block", NULL};

typedef struct {
  const char *name; /* JSON key (underscores) */
  int type;         /* T_* */
  int min;          /* counts: smallest valid value */
} param_t;

static const param_t params[NPARAMS] = {
    [P_COMPUTE] = {"compute", T_COUNT, 1},   [P_IONODES] = {"ionodes", T_COUNT, 1},
    [P_SERVERS] = {"servers", T_COUNT, 1},   [P_OSTS] = {"osts_per_server", T_COUNT, 1},
    [P_NIC] = {"nic_bw", T_BW, 0},           [P_IONODE_BW] = {"ionode_bw", T_BW, 0},
    [P_PFS_BW] = {"pfs_bw", T_BW, 0},        [P_SERVER_BW] = {"server_bw", T_BW, 0},
    [P_OST_BW] = {"ost_bw", T_BW, 0},        [P_ROUTERS] = {"routers", T_COUNT, 0},
    [P_ROUTER_BW] = {"router_bw", T_BW, 0},  [P_LAYOUT] = {"layout", T_NAME, 0},
    [P_CAPACITY] = {"capacity", T_BYTES, 0}, [P_RPC] = {"routers_per_client", T_COUNT, 1},
    [P_RMAP] = {"router_map", T_MAP, 0},
};

/* One parameter of a kind: its default (a count, a bandwidth string ios_parse_bandwidth reads, a size string
 * ios_parse_bytes reads or a layout name; NULL = computed) and what it means for this kind. */
typedef struct {
  int id;
  const char *def, *help;
} kparam_t;

enum { K_PFS_SINGLE, K_FORWARDING, K_OSS_OST, K_STORAGE, NKINDS };

typedef struct {
  const char *name, *zone, *help;
  int nparams;
  kparam_t p[10];
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
                   10,
                   {{P_COMPUTE, "64", "compute nodes C (hosts c0..c{C-1})"},
                    {P_SERVERS, "2", "object storage servers S (hosts and links oss0..oss{S-1})"},
                    {P_OSTS, "4", "OSTs per server T (hosts and links ost0..ost{S*T-1})"},
                    {P_NIC, "12.5GBps", "per-node NIC bandwidth (100 Gb/s Omni-Path)"},
                    {P_SERVER_BW, "12.5GBps", "network bandwidth of each server (link ossI)"},
                    {P_OST_BW, "1.2GBps", "bandwidth of each OST device (link ostK, \"OST as a link\")"},
                    ROUTER_PARAMS,
                    {P_RPC, "1",
                     "routers K each compute node may use: its first and the next K-1 (mod R), each with a route "
                     "(K > 1: hosts cN.rtrR, docs/striping.md)"},
                    {P_RMAP, "cyclic", "first router of node k: cyclic = rtr(k mod R); block = rtr(floor(k*R/C))"}}},
    [K_STORAGE] = {"storage",
                   "iosim-storage",
                   "compute nodes, a storage tier of nodes holding disks and a PFS for refused requests (StorAlloc)",
                   7,
                   {{P_COMPUTE, "64", "compute nodes C (hosts c0..c{C-1})"},
                    {P_LAYOUT, "nNnD", "StorAlloc layout: 1N1D, 1NnD, nN1D, nNnD (Table 4) or table5 (Table 5)"},
                    {P_CAPACITY, "32TB", "total disk capacity, shared equally by the disks (table5: 32TB only)"},
                    {P_NIC, "12.5GBps", "per-node NIC bandwidth (100 Gb/s)"},
                    {P_PFS_BW, "20GBps", "bandwidth of the PFS used by refused and failed requests (link gpfs)"},
                    ROUTER_PARAMS}},
};

/* APEX workflows report (LANL/NERSC/SNL, 2016), Cielo: 8,894 compute nodes, 200 GiB/s aggregate PFS bandwidth. */
#define CIELO_NODES 8894.0
#define CIELO_PFS_BPS (200.0 * 1073741824.0)

/* A validated spec: its kind and the effective value of each of its parameters (counts are exact integers). */
typedef struct {
  const kind_t *k;
  double v[NPARAMS];
  int pfs_scaled;     /* pfs-single with the default (Cielo-scaled) pfs_bw */
  const char *layout; /* storage: the layout's canonical name (an entry of ios_storage_preset_names) */
  ios_storage_t st;   /* storage: the layout's nodes and disks (owned; ios_storage_free) */
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

/* "1N1D, 1NnD, ...": the storage layouts. */
static const char *layout_list(char *buf, size_t size) {
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; ios_storage_preset_names[i] != NULL && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", ios_storage_preset_names[i]);
  return buf;
}

/* The entry of ios_storage_preset_names that `name` spells (case-insensitive), or NULL. */
static const char *find_layout(const char *name) {
  for (int i = 0; ios_storage_preset_names[i] != NULL; i++)
    if (strcasecmp(ios_storage_preset_names[i], name) == 0) return ios_storage_preset_names[i];
  return NULL;
}

/* A bandwidth in bytes/s as SimGrid reads it: "1250000000Bps". */
static const char *fmt_bw(double v, char buf[48]) {
  char num[40];
  snprintf(buf, 48, "%sBps", ios_fmt_double(num, sizeof num, v));
  return buf;
}

/* v in the first of the n units (value, name) that writes it exactly with the fewest digits (up to 6), else
 * "~" and 4 digits in the first unit: the human summary's numbers. */
static const char *human(double v, int n, const double *unit, const char *const *name, char buf[48]) {
  for (int prec = 1; prec <= 6; prec++)
    for (int u = 0; u < n; u++) {
      snprintf(buf, 48, "%.*g", prec, v / unit[u]);
      if (strchr(buf, 'e') == NULL && fabs(strtod(buf, NULL) * unit[u] - v) <= 1e-12 * v) {
        size_t len = strlen(buf);
        snprintf(buf + len, 48 - len, " %s", name[u]);
        return buf;
      }
    }
  snprintf(buf, 48, "~%.4g %s", v / unit[0], name[0]);
  return buf;
}

/* A bandwidth for the human summary: "12.5 GB/s", "1.2 GiB/s" (the shorter exact form), else "~3.091 GB/s". */
static const char *human_bw(double v, char buf[48]) {
  static const double unit[] = {1e9, 1073741824.0};
  static const char *const name[] = {"GB/s", "GiB/s"};
  return human(v, 2, unit, name, buf);
}

/* A bandwidth in bits/s for the human summary: "100 Gb/s". */
static const char *human_bits(double v, char buf[48]) {
  static const double unit[] = {1e9};
  static const char *const name[] = {"Gb/s"};
  return human(8 * v, 1, unit, name, buf);
}

/* A size for the human summary: "4 TB", "1.6 TB", "500 GB", "1 TiB". */
static const char *human_bytes(double v, char buf[48]) {
  static const double unit[] = {1e12, 1e9, 1099511627776.0, 1073741824.0};
  static const char *const name[] = {"TB", "GB", "TiB", "GiB"};
  return human(v, 4, unit, name, buf);
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
      bad_value(where, "kind", kv, name_list(NULL, list, sizeof list));
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
    int type = params[kp->id].type;
    if (type == T_COUNT && !cJSON_IsNumber(it)) return bad_value(where, name, it, "give an integer count such as 24");
    if (type == T_BW && !cJSON_IsNumber(it) && !cJSON_IsString(it))
      return bad_value(where, name, it,
                       "give a bandwidth: a number of bytes/s or a string such as \"1.25GBps\", \"10Gb/s\", "
                       "\"1.2GiB/s\"");
    if (type == T_BYTES && !cJSON_IsNumber(it) && !cJSON_IsString(it))
      return bad_value(where, name, it, "give a size: a number of bytes or a string such as \"32TB\", \"4TiB\"");
    if (type == T_MAP && !cJSON_IsString(it)) return bad_value(where, name, it, "give \"cyclic\" or \"block\"");
    if (type == T_NAME && !cJSON_IsString(it)) {
      char what[200];
      snprintf(what, sizeof what, "give a string, one of %s", layout_list(list, sizeof list));
      return bad_value(where, name, it, what);
    }
  }
  return IOS_OK;
}

/* Range-checks one parameter value (already type-checked) into p (p->v[id], or p->layout). */
static int read_value(const cJSON *v, int id, const char *where, plat_t *p) {
  const char *name = params[id].name;
  char what[200], list[128];
  if (params[id].type == T_COUNT) {
    double d = v->valuedouble;
    snprintf(what, sizeof what, "give an integer from %d to %d", params[id].min, MAX_COUNT);
    if (!(d == floor(d)) || d < params[id].min || d > MAX_COUNT) return bad_value(where, name, v, what);
    p->v[id] = d;
    return IOS_OK;
  }
  if (params[id].type == T_MAP) {
    for (int i = 0; router_maps[i] != NULL; i++)
      if (strcmp(v->valuestring, router_maps[i]) == 0) {
        p->v[id] = i;
        return IOS_OK;
      }
    return bad_value(where, name, v, "give \"cyclic\" (node k on rtr(k mod R)) or \"block\" (node k on rtr(k*R/C))");
  }
  if (params[id].type == T_NAME) {
    p->layout = find_layout(v->valuestring);
    snprintf(what, sizeof what, "unknown layout: use one of %s (case does not matter)", layout_list(list, sizeof list));
    return p->layout ? IOS_OK : bad_value(where, name, v, what);
  }
  int bytes = params[id].type == T_BYTES;
  double x = v->valuedouble;
  if (cJSON_IsString(v) && (bytes ? ios_parse_bytes : ios_parse_bandwidth)(v->valuestring, &x) != IOS_OK) x = NAN;
  if (!(bytes ? x > 0 : x >= IOS_MIN_BANDWIDTH) || !isfinite(x)) /* below, simulated times overflow */
    return bad_value(where, name, v,
                     bytes ? "give a positive finite size: a number of bytes or a string such as \"32TB\" (decimal "
                             "k M G T P E) or \"4TiB\" (binary Ki Mi Gi ...)"
                           : "give a positive finite bandwidth of at least 0.001 B/s: a number of bytes/s or a string "
                             "such as \"1.25GBps\" (decimal k M G T P E), \"1.2GiB/s\" (binary Ki Mi Gi ...) or "
                             "\"10Gb/s\" (bits)");
  p->v[id] = x;
  return IOS_OK;
}

/* The built-in default of kp into p. */
static int read_default(const kparam_t *kp, const char *where, plat_t *p) {
  int type = params[kp->id].type, rc = IOS_OK;
  if (type == T_NAME)
    rc = (p->layout = find_layout(kp->def)) ? IOS_OK : IOS_EINVAL;
  else if (type == T_MAP)
    p->v[kp->id] = 0; /* cyclic */
  else
    rc = (type == T_BYTES ? ios_parse_bytes : ios_parse_bandwidth)(kp->def, &p->v[kp->id]);
  if (rc == IOS_OK) return IOS_OK;
  ios_diag_set(where, params[kp->id].name, "bad built-in default \"%s\" (a bug): give the value", kp->def);
  return IOS_EINTERNAL;
}

/* storage: builds p->st from the layout and the capacity (StorAlloc's presets, policies/ios_storage.h). */
static int build_storage(const cJSON *spec, const char *where, plat_t *p) {
  int rc = ios_storage_preset(p->layout, p->v[P_CAPACITY], &p->st);
  if (rc == IOS_OK) return IOS_OK;
  if (rc == IOS_ENOMEM) {
    ios_diag_set(where, NULL, "out of memory building the storage layout %s", p->layout);
    return rc;
  }
  char num[40];
  const cJSON *cap = cJSON_GetObjectItemCaseSensitive(spec, "capacity");
  const char *fix = strcmp(p->layout, "table5") == 0
                        ? "table5 is 32 TB by definition (StorAlloc Table 5): drop capacity or give 32TB"
                        : "the storage layout does not accept it: give a positive size such as \"32TB\"";
  if (cap != NULL) return bad_value(where, "capacity", cap, fix);
  ios_diag_set(where, "capacity", "%s bytes is not valid: %s", ios_fmt_double(num, sizeof num, p->v[P_CAPACITY]), fix);
  return IOS_EINVAL;
}

/* Validates everything and fills p (defaults included; release p->st with ios_storage_free). */
static int resolve(const cJSON *spec, const char *where, plat_t *p) {
  memset(p, 0, sizeof *p);
  if (ios_platgen_check(spec, where) != IOS_OK) return IOS_EINVAL;
  p->k = find_kind(cJSON_GetObjectItemCaseSensitive(spec, "kind")->valuestring);
  for (int i = 0; i < p->k->nparams; i++) {
    const kparam_t *kp = &p->k->p[i];
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(spec, params[kp->id].name);
    int rc = IOS_OK;
    if (v != NULL)
      rc = read_value(v, kp->id, where, p);
    else if (kp->def == NULL)
      p->pfs_scaled = 1; /* below, once compute is known */
    else
      rc = read_default(kp, where, p);
    if (rc != IOS_OK) return rc;
  }
  /* 200·2^30·C = 25·C·2^33 is exact in a double, so the quotient is correctly rounded (the same double as Python) */
  if (p->pfs_scaled) p->v[P_PFS_BW] = CIELO_PFS_BPS * p->v[P_COMPUTE] / CIELO_NODES;
  if (p->k == &kinds[K_OSS_OST] && p->v[P_SERVERS] * p->v[P_OSTS] > MAX_COUNT) {
    ios_diag_set(where, "osts_per_server",
                 "servers x osts_per_server = %.0f x %.0f OSTs is more than %d: use fewer servers or OSTs per server",
                 p->v[P_SERVERS], p->v[P_OSTS], MAX_COUNT);
    return IOS_EINVAL;
  }
  if (p->k == &kinds[K_OSS_OST] && p->v[P_RPC] > (p->v[P_ROUTERS] > 0 ? p->v[P_ROUTERS] : 1)) {
    ios_diag_set(where, "routers_per_client",
                 "%.0f is more than the %.0f router(s) a compute node could use: give at most %.0f, or more routers",
                 p->v[P_RPC], p->v[P_ROUTERS], p->v[P_ROUTERS] > 0 ? p->v[P_ROUTERS] : 1);
    return IOS_EINVAL;
  }
  if (p->k == &kinds[K_OSS_OST] && p->v[P_RPC] * p->v[P_COMPUTE] > MAX_COUNT) {
    ios_diag_set(where, "routers_per_client",
                 "compute x routers_per_client = %.0f x %.0f routes is more than %d: use fewer of either",
                 p->v[P_COMPUTE], p->v[P_RPC], MAX_COUNT);
    return IOS_EINVAL;
  }
  return p->k == &kinds[K_STORAGE] ? build_storage(spec, where, p) : IOS_OK;
}

/* oss-ost: the i-th router (0 = its first, nearest) compute node k may use: (first + i) mod R (R > 0). */
static int client_router(const plat_t *p, int k, int i) {
  int C = (int)p->v[P_COMPUTE], R = (int)p->v[P_ROUTERS];
  int first = p->k == &kinds[K_OSS_OST] && p->v[P_RMAP] == 1 ? (int)((long long)k * R / C) : k % R;
  return (first + i) % R;
}

/* oss-ost with router choices (routers_per_client > 1 or router_map block): compute hosts list their routers. */
static int router_choices(const plat_t *p) {
  return p->k == &kinds[K_OSS_OST] && p->v[P_ROUTERS] > 0 && (p->v[P_RPC] > 1 || p->v[P_RMAP] != 0);
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

/* The name of storage node v ("node0", "ssd1"; "storageV" when the preset gives none). */
static const char *node_name(const ios_storage_t *st, int v, char buf[32]) {
  snprintf(buf, 32, "%s", st->nodes[v].name);
  if (buf[0] == '\0') snprintf(buf, 32, "storage%d", v);
  return buf;
}

/* The storage tier in the header: runs of consecutive alike nodes (one run for the four layouts, two for table5). */
static void storage_summary(FILE *f, const plat_t *p) {
  const ios_storage_t *st = &p->st;
  char a[48], b[48], c[48], n0[32], n1[32];
  fprintf(f, "  Storage tier (StorAlloc %s, %s in all): %d compute nodes (nic_bw=%s),\n", p->layout,
          human_bytes(p->v[P_CAPACITY], a), (int)p->v[P_COMPUTE], human_bw(p->v[P_NIC], b));
  for (int v = 0, w; v < st->nnodes; v = w) {
    const ios_storage_node_t *nv = &st->nodes[v];
    const ios_storage_disk_t *dv = &st->disks[nv->first];
    for (w = v + 1; w < st->nnodes; w++) {
      const ios_storage_node_t *nw = &st->nodes[w];
      const ios_storage_disk_t *dw = &st->disks[nw->first];
      if (nw->bw != nv->bw || nw->ndisks != nv->ndisks || dw->capacity != dv->capacity || dw->read_bw != dv->read_bw ||
          dw->write_bw != dv->write_bw)
        break;
    }
    int n = w - v, d = n * nv->ndisks;
    node_name(st, v, n0);
    node_name(st, w - 1, n1);
    fprintf(f, "  %d storage node%s %s%s%s (link%s of %s = %s) with %d disk%s each:\n", n, n > 1 ? "s" : "", n0,
            n > 1 ? ".." : "", n > 1 ? n1 : "", n > 1 ? "s" : "", human_bw(nv->bw, a), human_bits(nv->bw, b),
            nv->ndisks, nv->ndisks > 1 ? "s" : "");
    fprintf(f, "    %d disk%s of %s, write %s, read %s.\n", d, d > 1 ? "s" : "", human_bytes(dv->capacity, a),
            human_bw(dv->write_bw, b), human_bw(dv->read_bw, c));
  }
  fprintf(f,
          "  Route to disk NODEdK = [NODE, NODEdK]: its node's link, then the disk's link\n"
          "  (the disk's write bandwidth; its read bandwidth is the read_bw property).\n"
          "  Refused and failed requests use the PFS (host pfs, link gpfs, %s).\n"
          "  Nodes and disks: StorAlloc (Monniot et al. 2022), section 4.3, Table 4 (layouts)\n"
          "  and Table 5 (table5), as policies/ios_storage.h's presets.\n",
          human_bw(p->v[P_PFS_BW], a));
}

/* The header comment: the effective parameters (a valid iosim platform spec), `origin`, and a human summary. */
static void header(FILE *f, const plat_t *p, const char *origin) {
  const kind_t *k = p->k;
  char a[48], b[48], c[48];
  int C = (int)p->v[P_COMPUTE], R = (int)p->v[P_ROUTERS];
  fprintf(f, "<?xml version='1.0'?>\n<!--\n  Generated by iosim platform: kind=%s", k->name);
  for (int i = 0; i < k->nparams; i++) {
    int id = k->p[i].id, type = params[id].type;
    /* the router options at their defaults (1, cyclic) are left out, so that platforms written before they existed
     * are written again byte for byte */
    if ((id == P_RPC && p->v[id] == 1) || (id == P_RMAP && p->v[id] == 0)) continue;
    if (type == T_MAP)
      fprintf(f, " %s=%s", params[id].name, router_maps[(int)p->v[id]]);
    else if (type == T_COUNT)
      fprintf(f, " %s=%.0f", params[id].name, p->v[id]);
    else if (type == T_NAME)
      fprintf(f, " %s=%s", params[id].name, p->layout);
    else
      fprintf(f, " %s=%s", params[id].name, type == T_BW ? fmt_bw(p->v[id], a) : ios_fmt_double(a, sizeof a, p->v[id]));
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
  } else if (k == &kinds[K_STORAGE]) {
    storage_summary(f, p);
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
  if (R > 0 && !router_choices(p))
    fprintf(f,
            "  %d LNET-like routers rtr0..rtr%d (links of %s each) between compute and storage:\n"
            "  route of cK to fabric = [compute_fabric, rtr(K mod %d)].\n",
            R, R - 1, human_bw(p->v[P_ROUTER_BW], a), R);
  else if (R > 0)
    fprintf(f,
            "  %d LNET-like routers rtr0..rtr%d (links of %s each) between compute and storage;\n"
            "  node cK may use %d of them, listed in its 'routers' property in preference order:\n"
            "  its first, rtr(%s), then the next ones (mod %d).\n"
            "  Route of cK to fabric = [compute_fabric, its first router]; through its i-th\n"
            "  router rtrJ (i >= 1) bytes leave from host cK.rtrJ (role none), routed\n"
            "  [compute_fabric, rtrJ] (docs/striping.md).\n",
            R, R - 1, human_bw(p->v[P_ROUTER_BW], a), (int)p->v[P_RPC], p->v[P_RMAP] == 1 ? "floor(K*R/C)" : "K mod R",
            R);
  fputs("-->\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n", f);
  fprintf(f, "  <zone id=\"%s\" routing=\"DijkstraCache\">\n", k->zone);
}

/* storage: the hosts (part 0), links (1) or routes (2) of the storage nodes, their disks and the PFS. A disk's link
 * carries its write bandwidth; its capacity is a property. A disk whose read bandwidth differs has its reads routed to
 * a host of its own ("<disk>_read", its `read_host`) over a read link of that bandwidth, and both routes cross a
 * device link "<disk>_io" of max(read, write) that concurrent reads and writes share, as SimGrid's own disk model does
 * (docs/storalloc.md "Simulated I/O"); otherwise one link carries both (platforms/README.md). */
static void emit_storage(FILE *f, const plat_t *p, int part) {
  const ios_storage_t *st = &p->st;
  char node[32], disk[48], rd[56], io[56], bw[48], num[40];
  for (int v = 0; v < st->nnodes; v++) {
    node_name(st, v, node);
    if (part == 0) xml_host(f, node, "storage", "link", node);
    if (part == 1) xml_link(f, node, fmt_bw(st->nodes[v].bw, bw), 0);
    for (int j = 0; j < st->nodes[v].ndisks; j++) {
      const ios_storage_disk_t *d = &st->disks[st->nodes[v].first + j];
      int two = d->read_bw != d->write_bw;
      snprintf(disk, sizeof disk, "%sd%d", node, j);
      snprintf(rd, sizeof rd, "%s_read", disk);
      snprintf(io, sizeof io, "%s_io", disk);
      if (part == 0) {
        fprintf(f,
                "    <host id=\"%s\" speed=\"1Gf\"><prop id=\"role\" value=\"disk\"/><prop id=\"link\" value=\"%s\"/>"
                "<prop id=\"node\" value=\"%s\"/><prop id=\"capacity\" value=\"%s\"/>",
                disk, disk, node, ios_fmt_double(num, sizeof num, d->capacity));
        if (two)
          fprintf(f, "<prop id=\"read_host\" value=\"%s\"/></host>\n", rd);
        else
          fprintf(f, "<prop id=\"read_bw\" value=\"%s\"/></host>\n", fmt_bw(d->read_bw, bw));
        if (two) xml_host(f, rd, "none", "link", rd);
      }
      if (part == 1) xml_link(f, disk, fmt_bw(d->write_bw, bw), 0);
      if (part == 1 && two) xml_link(f, rd, fmt_bw(d->read_bw, bw), 0);
      if (part == 1 && two) xml_link(f, io, fmt_bw(d->read_bw > d->write_bw ? d->read_bw : d->write_bw, bw), 0);
      if (part == 2 && !two) xml_route(f, "fabric", disk, node, disk); /* one flow: the node's link, the disk's */
      if (part == 2 && two) { /* writes: node, write link, device; reads: node, read link, device */
        fprintf(f,
                "    <route src=\"fabric\" dst=\"%s\"><link_ctn id=\"%s\"/><link_ctn id=\"%s\"/><link_ctn "
                "id=\"%s\"/></route>\n",
                disk, node, disk, io);
        fprintf(f,
                "    <route src=\"fabric\" dst=\"%s\"><link_ctn id=\"%s\"/><link_ctn id=\"%s\"/><link_ctn "
                "id=\"%s\"/></route>\n",
                rd, node, rd, io);
      }
    }
  }
  if (part == 0) xml_host(f, "pfs", "pfs", "link", "gpfs");
  if (part == 1) xml_link(f, "gpfs", fmt_bw(p->v[P_PFS_BW], bw), 0);
  if (part == 2) xml_route(f, "fabric", "pfs", "gpfs", NULL); /* refused and failed requests */
}

/* The compute hosts cK; with router choices, each lists its routers and has a host cK.rtrJ per extra router J. */
static void emit_compute_hosts(FILE *f, const plat_t *p) {
  char id[32], id2[32], bw[48];
  int C = (int)p->v[P_COMPUTE], K = (int)p->v[P_RPC], choices = router_choices(p);
  fmt_bw(p->v[P_NIC], bw);
  for (int i = 0; i < C; i++) {
    snprintf(id, sizeof id, "c%d", i);
    if (!choices) {
      xml_host(f, id, "compute", "nic_bw", bw);
      continue;
    }
    fprintf(f,
            "    <host id=\"%s\" speed=\"1Gf\"><prop id=\"role\" value=\"compute\"/><prop id=\"nic_bw\" "
            "value=\"%s\"/><prop id=\"routers\" value=\"",
            id, bw);
    for (int j = 0; j < K; j++)
      fprintf(f, "%s%d", j ? "," : "", client_router(p, i, j));
    fputs("\"/></host>\n", f);
    for (int j = 1; j < K; j++) { /* where bytes through the j-th router leave from */
      snprintf(id2, sizeof id2, "c%d.rtr%d", i, client_router(p, i, j));
      xml_host(f, id2, "none", "client", id);
    }
  }
}

static void emit(FILE *f, const plat_t *p, const char *origin) {
  const kind_t *k = p->k;
  char id[32], id2[32], bw[48];
  int C = (int)p->v[P_COMPUTE], R = (int)p->v[P_ROUTERS], F = (int)p->v[P_IONODES];
  int S = (int)p->v[P_SERVERS], T = (int)p->v[P_OSTS];
  header(f, p, origin);
  emit_compute_hosts(f, p);
  int choices = router_choices(p), K = (int)p->v[P_RPC];
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
  if (k == &kinds[K_STORAGE]) emit_storage(f, p, 0);
  fputs("    <router id=\"fabric\"/>\n", f);
  /* the compute side is never a bottleneck: one FATPIPE link (flows do not share it) of 1000 TB/s. A storage tier
   * replays thousands of concurrent flows, and so does a striped job on an oss-ost platform (4 flows per writer with
   * Lustre's default striping); SimGrid 3.32's max-min rescans a FATPIPE's every flow whenever one of them is fixed
   * (quadratic: 55 ms per step with 9,000 flows; 4,096 striped flows: 20.3 s of CPU instead of 2.0 s), so on those two
   * kinds it is a shared link of the same bandwidth, which no I/O load reaches either (docs/striping.md) */
  xml_link(f, "compute_fabric", "1000TBps", k != &kinds[K_STORAGE] && k != &kinds[K_OSS_OST]);
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
  if (k == &kinds[K_STORAGE]) emit_storage(f, p, 1);
  for (int i = 0; i < C; i++) {
    snprintf(id, sizeof id, "c%d", i);
    snprintf(id2, sizeof id2, "rtr%d", R > 0 ? client_router(p, i, 0) : 0);
    xml_route(f, id, "fabric", "compute_fabric", R > 0 ? id2 : NULL);
    for (int j = 1; choices && j < K; j++) {
      char via[48];
      snprintf(id2, sizeof id2, "rtr%d", client_router(p, i, j));
      snprintf(via, sizeof via, "c%d.%s", i, id2);
      xml_route(f, via, "fabric", "compute_fabric", id2);
    }
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
  if (k == &kinds[K_STORAGE]) emit_storage(f, p, 2);
  fputs("  </zone>\n</platform>\n", f);
}

int ios_platgen_write(const cJSON *spec, const char *where, const char *origin, FILE *out) {
  plat_t p;
  int rc = resolve(spec, where, &p);
  if (rc != IOS_OK) {
    ios_storage_free(&p.st);
    return rc;
  }
  if (origin != NULL && strstr(origin, "--") != NULL) {
    ios_diag_set(where, NULL, "the origin \"%s\" contains \"--\", which XML comments cannot hold: reword it", origin);
    rc = IOS_EINVAL;
  } else if (out == NULL) {
    ios_diag_set(where, NULL, "no output stream (a bug): pass an open FILE");
    rc = IOS_EINTERNAL;
  } else {
    emit(out, &p, origin);
    if (fflush(out) != 0 || ferror(out)) {
      ios_diag_set(where, NULL, "cannot write the platform XML (%s): check the disk space and permissions",
                   strerror(errno));
      rc = IOS_EIO;
    }
  }
  ios_storage_free(&p.st);
  return rc;
}

void ios_platgen_help(FILE *f) {
  fputs(
      "usage: iosim platform KIND [--set param=value]... [-o FILE]\n"
      "Writes the SimGrid platform XML of a parametric family (conventions: platforms/README.md) to FILE\n"
      "(atomically: a temporary file in the same directory, then renamed) or to standard output.\n"
      "Counts are integers from their minimum to 1000000. Bandwidths are in bytes/s: a plain number or a unit\n"
      "string (\"1.25GBps\", \"1.2GiB/s\", \"10Gb/s\"; decimal k M G T P E, binary Ki Mi Gi Ti Pi Ei, b = bits).\n"
      "Sizes are in bytes: a plain number or a unit string (\"32TB\", \"4TiB\"). Strings are names "
      "(case-insensitive).\n"
      "A value after '=' is read as JSON when it is valid JSON, else as a string.\n"
      "Scenarios accept the same family inline: \"platform\": {\"kind\": \"forwarding\", \"ionodes\": 24}.\n\nkinds:\n",
      f);
  for (int i = 0; i < NKINDS; i++) {
    fprintf(f, "  %s: %s\n", kinds[i].name, kinds[i].help);
    for (int j = 0; j < kinds[i].nparams; j++) {
      const kparam_t *kp = &kinds[i].p[j];
      static const char *const type[] = {[T_COUNT] = "(count)",
                                         [T_BW] = "(bytes/s)",
                                         [T_BYTES] = "(bytes)",
                                         [T_NAME] = "(string)",
                                         [T_MAP] = "(string)"};
      fprintf(f, "      %-16s %-9s %-10s %s\n", params[kp->id].name, kp->def ? kp->def : "computed",
              type[params[kp->id].type], kp->help);
    }
  }
  fputs("\nexamples: iosim platform forwarding --set ionodes=24 --set pfs_bw=40GBps -o my.xml\n"
        "          iosim platform storage --set layout=table5 -o storalloc-table5.xml\n",
        f);
}
