/* iosim — parametric platform families (see ios_platgen.h): validates a JSON spec {"kind": KIND, param: value, ...}
 * and writes the SimGrid 3.32 platform XML of one of the four kinds of platforms/README.md (pfs-single, forwarding,
 * oss-ost, storage), following its conventions (compute nodes in <cluster> zones, the storage side in a zone around
 * router "fabric", latency 0, role props; platgen_xml.c writes it). Units: counts are integers, bandwidths bytes/s
 * (XML: plain numbers followed by "Bps"), sizes bytes. */
#include "ios_platgen.h"
#include "platgen_kinds.h"
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

/* Short names for the tables (platgen_kinds.h). */
#define params ios_platgen_params
#define kinds ios_platgen_kinds
#define router_maps ios_platgen_router_maps
#define fmt_bw ios_platgen_fmt_bw

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
  /* a pfs_bw given as exactly that value is the scaled default too (a header's spec regenerates its platform) */
  else if (p->k == &kinds[K_PFS_SINGLE] && p->v[P_PFS_BW] == CIELO_PFS_BPS * p->v[P_COMPUTE] / CIELO_NODES)
    p->pfs_scaled = 1;
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
  if (p->k == &kinds[K_OSS_OST] && 2 * p->v[P_FAILED] > p->v[P_SERVERS]) {
    ios_diag_set(where, "failed_over",
                 "%.0f failed servers need %.0f servers (each fails over to its partner), not %.0f: give at most %.0f",
                 p->v[P_FAILED], 2 * p->v[P_FAILED], p->v[P_SERVERS], floor(p->v[P_SERVERS] / 2));
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
  } else if (ios_platgen_emit(out, &p, origin) != 0) {
    ios_diag_set(where, NULL, "out of memory while writing the platform XML");
    rc = IOS_ENOMEM;
  } else {
    if (fflush(out) != 0 || ferror(out)) {
      ios_diag_set(where, NULL, "cannot write the platform XML (%s): check the disk space and permissions",
                   strerror(errno));
      rc = IOS_EIO;
    }
  }
  ios_storage_free(&p.st);
  return rc;
}

/* The spec of a header's first line "Generated by iosim platform: kind=K p=v ..." (values that read fully as JSON
 * numbers are numbers, the others strings), or NULL. */
static cJSON *header_spec(const char *line) {
  static const char tag[] = "  Generated by iosim platform: ";
  if (strncmp(line, tag, sizeof tag - 1) != 0) return NULL;
  cJSON *spec = cJSON_CreateObject();
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", line + sizeof tag - 1);
  buf[strcspn(buf, "\n")] = '\0';
  char *save = NULL;
  for (char *tok = strtok_r(buf, " ", &save); spec != NULL && tok != NULL; tok = strtok_r(NULL, " ", &save)) {
    char *eq = strchr(tok, '=');
    if (eq == NULL) break;
    *eq = '\0';
    cJSON *num = cJSON_Parse(eq + 1);
    if (num != NULL && !cJSON_IsNumber(num)) {
      cJSON_Delete(num);
      num = NULL;
    }
    cJSON_AddItemToObject(spec, tok, num != NULL ? num : cJSON_CreateString(eq + 1));
  }
  return spec;
}

int ios_platgen_is_generated(const char *path) {
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  char buf[65536];
  size_t n;
  while (mem != NULL && (n = fread(buf, 1, sizeof buf, f)) > 0)
    fwrite(buf, 1, n, mem);
  fclose(f);
  if (mem == NULL || fclose(mem) != 0) {
    free(text);
    return 0;
  }
  /* line 3 holds the spec; line 4, when it starts with "  Source: ", the origin */
  const char *l3 = strchr(text, '\n'), *l4 = NULL;
  l3 = l3 != NULL ? strchr(l3 + 1, '\n') : NULL;
  l4 = l3 != NULL ? strchr(l3 + 1, '\n') : NULL;
  cJSON *spec = l3 != NULL ? header_spec(l3 + 1) : NULL;
  char origin[1024] = "";
  if (l4 != NULL && strncmp(l4 + 1, "  Source: ", 10) == 0) {
    snprintf(origin, sizeof origin, "%s", l4 + 11);
    origin[strcspn(origin, "\n")] = '\0';
  }
  char *again = NULL;
  size_t alen = 0;
  FILE *out = spec != NULL ? open_memstream(&again, &alen) : NULL;
  int same = out != NULL && ios_platgen_write(spec, path, origin[0] ? origin : NULL, out) == IOS_OK;
  if (out != NULL) same &= fclose(out) == 0;
  same = same && alen == len && memcmp(again, text, len) == 0;
  ios_diag_set(NULL, NULL, "%s", ""); /* a failed regeneration reports nothing */
  cJSON_Delete(spec);
  free(again);
  free(text);
  return same;
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
