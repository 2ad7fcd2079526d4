/* iosim — scenario loading and validation (see ios_scenario.h). */
#include "ios_scenario.h"
#include "ios_scenario_parts.h"
#include "ios_datadir.h"
#include "ios_fs.h"
#include "ios_diag.h"
#include "ios_platform.h"
#include "ios_platgen.h"
#include "ios_sg_platform.h"
#include "ios_units.h"
#include "ios_value.h"
#include "ios_workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Every field and its default. null = "no value" (any type accepted). */
const char ios_scenario_defaults_json[] =
    "{"
    "\"platform\": \"platforms/mn4-forwarding.xml\","
    "\"platform_roles\": null,"
    /* workload: each source with its options first (ios_scenario_defaults), then these */
    "\"workload\": {\"skip_bad\": false, \"only\": null},"
    "\"allocation\": {\"policy\": \"static\"},"
    "\"placement\": {\"policy\": \"greedy-non-clairvoyant\"},"
    "\"sharing\": {\"policy\": \"fairshare\"},"
    "\"window\": {\"length_fraction\": 1, \"begin_s\": null, \"end_s\": null,"
    "  \"stop_at_end\": false, \"mode\": \"v1\"},"
    "\"controller\": {\"tick_s\": 0},"
    "\"engine\": {\"flows\": \"auto\"},"
    "\"queue\": {\"enabled\": false, \"backfill\": false, \"rearbitrate\": \"auto\"},"
    "\"knowledge\": {\"profiles\": \"exact\", \"fit_over\": \"dataset\", \"degree\": 3, \"flat\": 0.2, \"noise\": 0},"
    "\"storage\": null,"
    "\"striping\": null,"
    "\"calibration\": null,"
    "\"ost_fullness\": null,"
    "\"seed\": 1,"
    "\"output\": {\"dir\": \"results\", \"events\": false, \"progress\": true, \"trace\": false}"
    "}";

/* Fields whose default is null ("no value"), with the types a user may give instead (besides null). */
const ios_scenario_null_field_t ios_scenario_null_fields[] = {
    {"workload.only", 1, "the name of one application to keep (string)"},
    {"window.begin_s", 3, "the window's start in s (a number or a duration string such as \"10min\")"},
    {"window.end_s", 3, "the window's end in s (a number or a duration string such as \"2h\")"},
    {"platform_roles", 8,
     "an array of rules such as [{\"property\": \"role\", \"value\": \"master\", \"role\": \"controller\"}] "
     "(docs/scenario.md)"},
    {"storage", 4, "a storage-allocation object (docs/storalloc.md)"},
    {"striping", 4, "a striping object, e.g. {\"policy\": \"bpio\", \"layout\": \"fpp\"}"},
    {"calibration", 5,
     "a calibration file path (string) written by iosim calibrate, or {\"file\": PATH, \"apply_capacity\": "
     "true|false|\"auto\"} (docs/validation.md)"},
    {"ost_fullness", 4, "an object {\"fullness\": 0.9, \"curve\": {\"knee\": 0.7, \"slope\": 1}} (docs/validation.md)"},
    {NULL, 0, NULL},
};

int ios_scenario_null_field(const char *path, int *types, const char **need) {
  for (int i = 0; ios_scenario_null_fields[i].path != NULL; i++)
    if (strcmp(path, ios_scenario_null_fields[i].path) == 0) {
      *types = ios_scenario_null_fields[i].types;
      *need = ios_scenario_null_fields[i].need;
      return 1;
    }
  for (int k = 0; ios_workload_sources[k].key != NULL; k++)
    if (strncmp(path, "workload.", 9) == 0 && strcmp(path + 9, ios_workload_sources[k].key) == 0 &&
        strcmp(ios_workload_sources[k].def, "null") == 0) {
      *types = ios_workload_sources[k].types;
      *need = ios_workload_sources[k].need;
      return 1;
    }
  return 0;
}

cJSON *ios_scenario_defaults(void) {
  cJSON *root = cJSON_Parse(ios_scenario_defaults_json);
  cJSON *rest = cJSON_GetObjectItemCaseSensitive(root, "workload"), *wl = cJSON_CreateObject();
  int ok = root != NULL && rest != NULL && wl != NULL;
  for (int k = 0; ok && ios_workload_sources[k].key != NULL; k++) { /* each source, then its options */
    cJSON *def = cJSON_Parse(ios_workload_sources[k].def);
    ok = def != NULL && cJSON_AddItemToObject(wl, ios_workload_sources[k].key, def);
    if (!ok) cJSON_Delete(def);
    cJSON *opts = ios_workload_sources[k].options ? cJSON_Parse(ios_workload_sources[k].options) : NULL, *o;
    while (ok && opts != NULL && (o = opts->child) != NULL)
      ok = cJSON_AddItemToObject(wl, o->string, cJSON_DetachItemViaPointer(opts, o));
    cJSON_Delete(opts);
  }
  for (cJSON *o; ok && (o = rest->child) != NULL;) /* then the workload's own fields (workload.only) */
    ok = cJSON_AddItemToObject(wl, o->string, cJSON_DetachItemViaPointer(rest, o));
  if (ok) ok = cJSON_ReplaceItemInObjectCaseSensitive(root, "workload", wl); /* in its place; frees `rest` */
  if (!ok) {
    cJSON_Delete(wl);
    cJSON_Delete(root);
    return NULL;
  }
  return root;
}

/* Returns the child of `obj` at dotted `path`, or NULL. */
cJSON *ios_scenario_get_path(const cJSON *obj, const char *path) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", path);
  cJSON *cur = (cJSON *)obj;
  for (char *save = NULL, *tok = strtok_r(buf, ".", &save); tok != NULL && cur != NULL;
       tok = strtok_r(NULL, ".", &save))
    cur = cJSON_IsObject(cur) ? cJSON_GetObjectItemCaseSensitive(cur, tok) : NULL;
  return cur;
}

/* Makes relative path strings absolute with respect to `dir` (a directory with a trailing '/'). */
static int rebase_paths(cJSON *root, const char *dir) {
  char path[256];
  for (int i = 0; ios_scenario_path_field(i, path, sizeof path); i++)
    if (ios_scenario_rebase_value(ios_scenario_get_path(root, path), dir) != IOS_OK) return IOS_ENOMEM;
  return IOS_OK;
}

/* 1-based line of byte offset `pos` in `text`. */
static int line_of(const char *text, size_t pos) {
  int line = 1;
  for (size_t i = 0; i < pos && text[i] != '\0'; i++)
    line += text[i] == '\n';
  return line;
}

static int is_policy_object(const char *path) {
  return strcmp(path, "allocation") == 0 || strcmp(path, "placement") == 0 || strcmp(path, "sharing") == 0;
}

const char *ios_scenario_type_name(const cJSON *v) {
  if (cJSON_IsNumber(v)) return "a number";
  if (cJSON_IsString(v)) return "a string";
  if (cJSON_IsBool(v)) return "true or false";
  if (cJSON_IsArray(v)) return "an array";
  if (cJSON_IsObject(v)) return "an object";
  return "null";
}

/* Merges `user` into `def` (both objects), checking names and types. `path` is the dotted path of def. */
static int merge(cJSON *def, const cJSON *user, const char *path, const char *file) {
  const cJSON *u;
  cJSON_ArrayForEach(u, user) {
    char child[256];
    snprintf(child, sizeof child, "%s%s%s", path, path[0] ? "." : "", u->string);
    cJSON *d = cJSON_GetObjectItemCaseSensitive(def, u->string);
    if (d == NULL && !is_policy_object(path)) {
      char keys[512] = "";
      const cJSON *k;
      cJSON_ArrayForEach(k, def) {
        size_t len = strlen(keys);
        snprintf(keys + len, sizeof keys - len, "%s%s", len ? ", " : "", k->string);
      }
      ios_diag_set(file, child, "unknown field; valid fields%s%s are: %s", path[0] ? " of " : "", path, keys);
      return IOS_EINVAL;
    }
    if (d != NULL && cJSON_IsObject(d) && cJSON_IsObject(u)) {
      int rc = merge(d, u, child, file);
      if (rc != IOS_OK) return rc;
      continue;
    }
    int platform_spec = strcmp(child, "platform") == 0 && cJSON_IsObject(u); /* a parametric platform family */
    if (d != NULL && !cJSON_IsNull(d) && cJSON_IsNull(u)) {
      char def[64];
      ios_value_text(d, def, sizeof def);
      ios_diag_set(file, child, "is null but must be %s: remove the field to get its default (%s; docs/scenario.md)",
                   ios_scenario_type_name(d), def);
      return IOS_EINVAL;
    }
    int types = 0;
    const char *need = NULL;
    if (d != NULL && cJSON_IsNull(d) && !cJSON_IsNull(u) && ios_scenario_null_field(child, &types, &need) &&
        !((types & 1 && cJSON_IsString(u)) || (types & 2 && cJSON_IsNumber(u)) || (types & 4 && cJSON_IsObject(u)) ||
          (types & 8 && cJSON_IsArray(u)))) {
      char text[64];
      ios_value_text(u, text, sizeof text);
      ios_diag_set(file, child, "is %s (%s): give %s, or null", text, ios_value_type(u), need);
      return IOS_EINVAL;
    }
    if (d != NULL && !platform_spec && !cJSON_IsNull(d) && !cJSON_IsNull(u) &&
        ((cJSON_IsBool(d) != cJSON_IsBool(u)) ||
         (cJSON_IsNumber(d) && !cJSON_IsNumber(u) && !cJSON_IsString(u)) || /* "2min": the field's reader decides */
         (cJSON_IsString(d) && !cJSON_IsString(u)) || (cJSON_IsArray(d) && !cJSON_IsArray(u)) ||
         (cJSON_IsObject(d) && !cJSON_IsObject(u)))) {
      ios_diag_set(file, child, "is %s but must be %s (default: see docs/scenario.md)", ios_scenario_type_name(u),
                   ios_scenario_type_name(d));
      return IOS_EINVAL;
    }
    cJSON *copy = cJSON_Duplicate(u, 1);
    if (copy == NULL) return IOS_ENOMEM;
    if (d != NULL)
      cJSON_ReplaceItemInObjectCaseSensitive(def, u->string, copy);
    else
      cJSON_AddItemToObject(def, u->string, copy);
  }
  return IOS_OK;
}

/* Reads the parameters of a policy object (all keys but "policy") into p, and writes the defaults of the others
 * into the object, so the resolved scenario (results.json) shows every parameter the run used. */
static int read_params(cJSON *obj, const char *family, const char *policy, int nparams, const ios_param_spec_t *specs,
                       ios_params_t *p, const char *file, unsigned *given) {
  ios_params_defaults(nparams, specs, p);
  if (ios_value_object(obj, "{\"policy\": \"fairshare\"}", file, family) != IOS_OK) return IOS_EINVAL;
  const cJSON *item;
  cJSON_ArrayForEach(item, obj) {
    if (strcmp(item->string, "policy") == 0 ||
        (strcmp(family, "striping") == 0 &&
         (strcmp(item->string, "layout") == 0 || strcmp(item->string, "scope") == 0)))
      continue;
    char where[128];
    snprintf(where, sizeof where, "%s.%s", family, item->string);
    int found = -1;
    for (int i = 0; i < nparams; i++)
      if (strcmp(specs[i].name, item->string) == 0) found = i;
    if (found < 0) {
      char names[256] = "";
      for (int i = 0; i < nparams; i++) {
        size_t l = strlen(names);
        snprintf(names + l, sizeof names - l, "%s%s", i ? ", " : "", specs[i].name);
      }
      ios_diag_set(file, where, "is not a parameter of %s policy '%s'; its parameters are: %s", family, policy,
                   nparams ? names : "(none)");
      return IOS_EINVAL;
    }
    ios_num_spec_t spec = ios_scenario_param_spec(&specs[found]);
    if (ios_value_number(item, &spec, file, where, &p->v[found]) != IOS_OK) return IOS_EINVAL;
    if (given != NULL) *given |= 1u << found; /* the scenario's own value, not the default */
  }
  for (int i = 0; i < nparams; i++)
    if (cJSON_GetObjectItemCaseSensitive(obj, specs[i].name) == NULL &&
        cJSON_AddNumberToObject(obj, specs[i].name, specs[i].def) == NULL)
      return IOS_ENOMEM;
  return IOS_OK;
}

static const char *policy_name(const cJSON *root, const char *family, const char *file) {
  const cJSON *name = ios_scenario_get_path(root, family);
  name = cJSON_GetObjectItemCaseSensitive(name, "policy");
  if (!cJSON_IsString(name)) {
    ios_diag_set(file, family, "needs a \"policy\" name (see `iosim policies`)");
    return NULL;
  }
  return name->valuestring;
}

/* Checks the platform path before SimGrid's parser sees it: not empty, not a directory. */
static int check_platform_path(const char *path, const char *file) {
  struct stat st;
  const char *base = strrchr(path, '/');
  if (path[0] == '\0' || (base != NULL && base[1] == '\0')) {
    ios_diag_set(file, "platform",
                 "is empty or a directory name: give the path of a SimGrid platform XML file, e.g. "
                 "\"platforms/pfs-single.xml\"");
    return IOS_EINVAL;
  }
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    ios_diag_set(file, "platform", "'%s' is a directory: give the path of a SimGrid platform XML file in it", path);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Number rules of the scenario's own fields. */
static const ios_num_spec_t spec_fraction = {0,
                                             1e6,
                                             1,
                                             0,
                                             IOS_UNIT_NONE,
                                             "window.length_fraction (1 = up to the shortest dedicated application "
                                             "length)"};
static const ios_num_spec_t spec_window = {0, IOS_VALUE_MAX_DURATION, 0,
                                           0, IOS_UNIT_DURATION,      "a time of the simulation in s"};
static const ios_num_spec_t spec_tick = {
    0, IOS_VALUE_MAX_DURATION, 0,
    0, IOS_UNIT_DURATION,      "the period of the controller's periodic decisions in s, 0 = none"};
static const ios_num_spec_t spec_degree = {0, 6, 0, 1, IOS_UNIT_NONE, "the degree of the fitted polynomial"};
static const ios_num_spec_t spec_flat = {
    0, 0.999999, 0, 0, IOS_UNIT_NONE, "the relative bandwidth variation in [0, 1) below which a profile is neutral"};
static const ios_num_spec_t spec_noise = {
    0, 10, 0, 0, IOS_UNIT_NONE, "σ (seen volume and work are multiplied by exp(σ·N(0,1)))"};
static const ios_num_spec_t spec_seed = {0, 9007199254740992.0, 0, 1, IOS_UNIT_NONE, "the seed of every random stream"};

/* A policy of family f named by root's "FIELD.policy" (FIELD = the family's name), with its parameters read into
 * *params. @return the policy, or NULL after a message naming the valid names. */
static const ios_policy_t *extract_policy(cJSON *root, ios_family_t f, const char *file, ios_params_t *params,
                                          unsigned *given) {
  const char *field = ios_family_name(f), *n = policy_name(root, field, file);
  if (n == NULL) return NULL;
  const ios_policy_t *pol = ios_policy_find(f, n);
  if (pol == NULL) {
    char where[64], names[512];
    snprintf(where, sizeof where, "%s.policy", field);
    ios_diag_set(file, where, "unknown policy '%s'; valid names: %s (or their aliases: iosim policies)", n,
                 ios_policy_names(f, names, sizeof names));
    return NULL;
  }
  return read_params(ios_scenario_get_path(root, field), field, pol->name, pol->nparams, pol->params, params, file,
                     given) == IOS_OK
             ? pol
             : NULL;
}

/* The platform (a file, or a family to generate) and the workload's form. */
static int extract_inputs(cJSON *root, const char *file, ios_scenario_t *s) {
  const cJSON *v = ios_scenario_get_path(root, "platform");
  const cJSON *first = cJSON_IsObject(v) ? v->child : NULL;
  if (first != NULL && cJSON_GetObjectItemCaseSensitive(v, "kind") == NULL) { /* e.g. --set platform.ionodes=24 */
    ios_diag_set(file, "platform",
                 "has the generator parameter '%s' but no \"kind\": a generated platform needs one (e.g. --set "
                 "platform.kind=forwarding; kinds: iosim platform --help), while a scenario without \"platform\" runs "
                 "on the XML file platforms/mn4-forwarding.xml, which has no generator parameters; to change that "
                 "file, generate one with `iosim platform forwarding --set %s=VALUE -o my.xml` and give it with --set "
                 "platform=my.xml (docs/scenario.md, \"Generated platforms\")",
                 first->string, first->string);
    return IOS_EINVAL;
  }
  if (cJSON_IsObject(v)) {
    char where[300];
    snprintf(where, sizeof where, "%s: platform", file);
    if (ios_platgen_check(v, where) != IOS_OK) return IOS_EINVAL;
    s->platform_spec = v;
  } else if (!cJSON_IsString(v) || v->valuestring[0] == '\0') {
    ios_diag_set(file, "platform",
                 "must be the path of a SimGrid platform XML file, e.g. \"platforms/pfs-single.xml\", or a "
                 "platform family {\"kind\": \"forwarding\", \"ionodes\": 8} (see `iosim platform --help`)");
    return IOS_EINVAL;
  } else
    s->platform = v->valuestring;
  s->platform_roles = ios_scenario_get_path(root, "platform_roles");
  if (cJSON_IsNull(s->platform_roles)) s->platform_roles = NULL;
  if (s->platform_roles != NULL && ios_platform_roles_check(s->platform_roles, file) != IOS_OK) return IOS_EINVAL;
  s->workload = ios_scenario_get_path(root, "workload");
  if (ios_value_object(s->workload, "{\"applications\": [...]}", file, "workload") != IOS_OK) return IOS_EINVAL;
  const char *str;
  const char *formats[16] = {"auto"}; /* "auto" and workload.file's formats (ios_workload_formats) */
  for (int i = 0; ios_workload_formats[i].name != NULL && i + 2 < 16; i++)
    formats[i + 1] = ios_workload_formats[i].name;
  int idx;
  if (ios_value_choice(ios_scenario_get_path(root, "workload.format"), formats, "the format of workload.file", file,
                       "workload.format", &idx) != IOS_OK ||
      ios_value_string(ios_scenario_get_path(root, "workload.bandwidth_unit"), 1,
                       "\"pool\" or a bandwidth such as \"1GiB/s\" (the unit of sample-file bandwidths)", file,
                       "workload.bandwidth_unit", &str) != IOS_OK)
    return IOS_EINVAL;
  v = ios_scenario_get_path(root, "workload.applications");
  if (!cJSON_IsArray(v)) {
    ios_diag_set(file, "workload.applications", "is %s: give an array of application objects",
                 ios_scenario_type_name(v));
    return IOS_EINVAL;
  }

  return IOS_OK;
}

/* The window of the objectives, the controller's period and the transfer path. */
static int extract_window(cJSON *root, const char *file, ios_scenario_t *s) {
  const cJSON *v;
  if (ios_value_number(ios_scenario_get_path(root, "window.length_fraction"), &spec_fraction, file,
                       "window.length_fraction", &s->window_fraction) != IOS_OK)
    return IOS_EINVAL;
  s->window_begin = s->window_end = NAN;
  v = ios_scenario_get_path(root, "window.begin_s");
  if (!cJSON_IsNull(v) && ios_value_number(v, &spec_window, file, "window.begin_s", &s->window_begin) != IOS_OK)
    return IOS_EINVAL;
  v = ios_scenario_get_path(root, "window.end_s");
  if (!cJSON_IsNull(v) && ios_value_number(v, &spec_window, file, "window.end_s", &s->window_end) != IOS_OK)
    return IOS_EINVAL;
  if (isnan(s->window_begin) != isnan(s->window_end) ||
      (!isnan(s->window_begin) && !(s->window_end > s->window_begin && s->window_begin >= 0))) {
    ios_diag_set(file, "window",
                 "give both begin_s and end_s with 0 <= begin_s < end_s, or neither (automatic "
                 "steady-state window)");
    return IOS_EINVAL;
  }
  if (ios_value_bool(ios_scenario_get_path(root, "window.stop_at_end"), file, "window.stop_at_end", &s->stop_at_end) !=
      IOS_OK)
    return IOS_EINVAL;
  static const char *const modes_window[] = {"v1", "v2", NULL};
  if (ios_value_choice(ios_scenario_get_path(root, "window.mode"), modes_window,
                       "\"v1\": the strategy over the whole window; \"v2\": FairShare over the first half, the "
                       "strategy and the objectives over the second (RR-9502 reference simulator)",
                       file, "window.mode", &s->window_v2) != IOS_OK)
    return IOS_EINVAL;
  if (ios_value_number(ios_scenario_get_path(root, "controller.tick_s"), &spec_tick, file, "controller.tick_s",
                       &s->tick_s) != IOS_OK)
    return IOS_EINVAL;
  v = ios_scenario_get_path(root, "engine.flows");
  if (!cJSON_IsString(v) || (strcmp(v->valuestring, "auto") != 0 && strcmp(v->valuestring, "simgrid") != 0)) {
    ios_diag_set(file, "engine.flows",
                 "must be \"auto\" (transfers whose rates the sharing policy sets are computed directly where no "
                 "link can bind them, SimGrid flows elsewhere) or \"simgrid\" (every transfer a SimGrid flow)");
    return IOS_EINVAL;
  }
  s->flows_simgrid = strcmp(v->valuestring, "simgrid") == 0;
  return IOS_OK;
}

/* The striping policy of every application's files (TAPP-IO), or none. */
static int extract_striping(cJSON *root, const char *file, ios_scenario_t *s) {
  const cJSON *v;
  v = ios_scenario_get_path(root, "striping");
  if (cJSON_IsObject(v)) {
    const cJSON *pn = cJSON_GetObjectItemCaseSensitive(v, "policy"),
                *lay = cJSON_GetObjectItemCaseSensitive(v, "layout");
    if (!cJSON_IsString(pn) || (s->striping = ios_striping_find(pn->valuestring)) == NULL) {
      char names[128];
      ios_diag_set(file, "striping.policy", "must name a striping policy: %s",
                   ios_policy_names(IOS_FAMILY_STRIPING, names, sizeof names));
      return IOS_EINVAL;
    }
    static const char *const layouts[] = {"fpp", "ssf", NULL};
    s->striping_layout = 0;
    if (lay != NULL && ios_value_choice(lay, layouts, "file per process or single shared file", file, "striping.layout",
                                        &s->striping_layout) != IOS_OK)
      return IOS_EINVAL;
    static const char *const scopes[] = {"global", "application", NULL};
    const cJSON *scope = cJSON_GetObjectItemCaseSensitive(v, "scope");
    s->striping_scope = 0;
    if (scope != NULL &&
        ios_value_choice(scope, scopes,
                         "whose placements the usage counts see: every job's (global) or the job's own (application)",
                         file, "striping.scope", &s->striping_scope) != IOS_OK)
      return IOS_EINVAL;
    if (read_params((cJSON *)v, "striping", s->striping->name, s->striping->nparams, s->striping->params,
                    &s->striping_params, file, NULL) != IOS_OK)
      return IOS_EINVAL;
  } else if (!cJSON_IsNull(v)) {
    ios_diag_set(file, "striping", "must be null or {\"policy\": \"bpio\", \"layout\": \"fpp\", ...}");
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Storage, job queue, knowledge, seed and outputs. */
static int extract_rest(cJSON *root, const char *file, ios_scenario_t *s) {
  const cJSON *v;
  v = ios_scenario_get_path(root, "storage");
  s->storage = cJSON_IsObject(v) ? v : NULL;
  if (v != NULL && !cJSON_IsNull(v) && s->storage == NULL) {
    ios_diag_set(file, "storage", "must be an object (a storage-allocation scenario, docs/storalloc.md) or null");
    return IOS_EINVAL;
  }
  if (ios_value_bool(ios_scenario_get_path(root, "queue.enabled"), file, "queue.enabled", &s->queue) != IOS_OK ||
      ios_value_bool(ios_scenario_get_path(root, "queue.backfill"), file, "queue.backfill", &s->backfill) != IOS_OK)
    return IOS_EINVAL;
  static const char *const modes[] = {"auto", "all", "new", NULL};
  if (ios_value_choice(ios_scenario_get_path(root, "queue.rearbitrate"), modes,
                       "auto: the allocation policy decides (static mappings keep running jobs' resources); all: "
                       "every running job is re-arbitrated when the running set changes; new: only newly started "
                       "jobs get a decision",
                       file, "queue.rearbitrate", &s->rearbitrate) != IOS_OK)
    return IOS_EINVAL;
  static const char *const profiles[] = {"exact", "group-fit", NULL};
  if (ios_value_choice(ios_scenario_get_path(root, "knowledge.profiles"), profiles,
                       "\"exact\": policies see each application's profile; \"group-fit\": one fitted profile per "
                       "shape group, RR-9549 §6.2",
                       file, "knowledge.profiles", &s->group_fit) != IOS_OK)
    return IOS_EINVAL;
  static const char *const over[] = {"dataset", "workload", NULL};
  if (ios_value_choice(ios_scenario_get_path(root, "knowledge.fit_over"), over,
                       "\"dataset\": the group fits use every profile of the dataset the workload generator drew "
                       "from (RR-9549 §6.2); \"workload\": only the workload's own applications",
                       file, "knowledge.fit_over", &s->fit_over_workload) != IOS_OK)
    return IOS_EINVAL;
  if (ios_value_number(ios_scenario_get_path(root, "knowledge.degree"), &spec_degree, file, "knowledge.degree",
                       &s->fit_degree) != IOS_OK ||
      ios_value_number(ios_scenario_get_path(root, "knowledge.flat"), &spec_flat, file, "knowledge.flat",
                       &s->fit_flat) != IOS_OK ||
      ios_value_number(ios_scenario_get_path(root, "knowledge.noise"), &spec_noise, file, "knowledge.noise",
                       &s->knowledge_noise) != IOS_OK)
    return IOS_EINVAL;
  double seed;
  if (ios_value_number(ios_scenario_get_path(root, "seed"), &spec_seed, file, "seed", &seed) != IOS_OK)
    return IOS_EINVAL;
  s->seed = (uint64_t)seed;
  if (ios_value_string(ios_scenario_get_path(root, "output.dir"), 1, "a directory path, e.g. \"results/run1\"", file,
                       "output.dir", &s->out_dir) != IOS_OK ||
      ios_value_bool(ios_scenario_get_path(root, "output.events"), file, "output.events", &s->events) != IOS_OK ||
      ios_value_bool(ios_scenario_get_path(root, "output.progress"), file, "output.progress", &s->progress) != IOS_OK ||
      ios_value_bool(ios_scenario_get_path(root, "output.trace"), file, "output.trace", &s->trace) != IOS_OK)
    return IOS_EINVAL;
  return IOS_OK;
}

static int extract(cJSON *root, const char *file, ios_scenario_t *s) {
  if ((s->allocation = (const ios_allocation_policy_t *)extract_policy(root, IOS_FAMILY_ALLOCATION, file,
                                                                       &s->allocation_params, NULL)) == NULL ||
      (s->placement = (const ios_placement_policy_t *)extract_policy(root, IOS_FAMILY_PLACEMENT, file,
                                                                     &s->placement_params, NULL)) == NULL ||
      (s->sharing = (const ios_sharing_policy_t *)extract_policy(root, IOS_FAMILY_SHARING, file, &s->sharing_params,
                                                                 &s->sharing_given)) == NULL)
    return IOS_EINVAL;
  if (extract_inputs(root, file, s) != IOS_OK || extract_window(root, file, s) != IOS_OK ||
      extract_striping(root, file, s) != IOS_OK || extract_rest(root, file, s) != IOS_OK)
    return IOS_EINVAL;
  return IOS_OK;
}

int ios_scenario_load(const char *path, int nsets, char *const *sets, ios_scenario_t *out) {
  char *text = ios_read_file(path, NULL);
  if (text == NULL) {
    ios_diag_set(path, NULL, "cannot read the scenario (%s): give the path of a scenario JSON file", strerror(errno));
    return IOS_EIO;
  }
  const char *end = NULL;
  cJSON *user = cJSON_ParseWithOpts(text, &end, 1);
  if (user == NULL || !cJSON_IsObject(user)) {
    size_t pos = end != NULL ? (size_t)(end - text) : 0;
    if (user == NULL && cJSON_GetErrorPtr() != NULL)
      pos = (size_t)(cJSON_GetErrorPtr() - text);
    else if (user != NULL) /* valid JSON that is not an object: point at its first character */
      pos = strspn(text, " \t\r\n");
    char where[32];
    snprintf(where, sizeof where, "line %d", line_of(text, pos));
    ios_diag_set(path, where, "malformed JSON%s: fix the syntax near this line (a missing comma, quote or brace?)",
                 user != NULL ? " (the top level must be an object)" : "");
    cJSON_Delete(user);
    free(text);
    return IOS_EINVAL;
  }
  free(text);

  char dir[4096] = "";
  const char *slash = strrchr(path, '/');
  if (slash != NULL) snprintf(dir, sizeof dir, "%.*s/", (int)(slash - path), path);
  int rc = rebase_paths(user, dir);
  for (int i = 0; rc == IOS_OK && i < nsets; i++)
    rc = ios_scenario_apply_set(user, sets[i]);
  if (rc == IOS_OK) rc = ios_scenario_from_json(user, path, out);
  cJSON_Delete(user);
  if (rc == IOS_OK) ios_sg_trace_to(out->trace ? out->out_dir : NULL); /* SimGrid's tracer starts with the platform */
  return rc;
}

int ios_scenario_from_json(const cJSON *user, const char *label, ios_scenario_t *out) {
  cJSON *root = ios_scenario_defaults();
  int rc = root != NULL ? merge(root, user, "", label) : IOS_ENOMEM;
  ios_scenario_t s;
  memset(&s, 0, sizeof s);
  if (rc == IOS_OK) rc = extract(root, label, &s);
  if (rc == IOS_OK && s.platform_spec == NULL) {
    cJSON *pf = ios_scenario_get_path(root, "platform");
    char *expanded = ios_expand_path(pf->valuestring, label, "platform");
    if (expanded == NULL)
      rc = IOS_EINVAL;
    else {
      cJSON_SetValuestring(pf, expanded);
      free(expanded);
      s.platform = pf->valuestring;
      rc = check_platform_path(s.platform, label);
    }
  }
  if (rc != IOS_OK) {
    cJSON_Delete(root);
    return rc;
  }
  s.resolved = root;
  s.file = strdup(label);
  *out = s;
  return IOS_OK;
}

int ios_scenario_rebase(cJSON *user, const char *dir) {
  return rebase_paths(user, dir);
}

typedef struct {
  const cJSON *spec;
  const char *where;
} platform_ctx_t;

static int write_platform(FILE *f, void *ctx) {
  const platform_ctx_t *c = ctx;
  return ios_platgen_write(c->spec, c->where, "the scenario's platform object", f);
}

int ios_scenario_materialize_platform(ios_scenario_t *s, const char *xml_path) {
  if (s->platform_spec == NULL) return IOS_OK;
  char where[300];
  snprintf(where, sizeof where, "%s: platform", s->file);
  platform_ctx_t ctx = {s->platform_spec, where};
  int rc = ios_fs_write_atomic(xml_path, write_platform, &ctx);
  if (rc != IOS_OK) return rc;
  free(s->generated_platform);
  s->generated_platform = strdup(xml_path);
  s->platform = s->generated_platform;
  return s->platform != NULL ? IOS_OK : IOS_ENOMEM;
}

ios_num_spec_t ios_scenario_param_spec(const ios_param_spec_t *ps) {
  ios_num_spec_t spec = {-1e300, 1e300, 0, ps->integer, IOS_UNIT_NONE, ps->description};
  if (ps->lo < ps->hi) {
    spec.lo = ps->lo;
    spec.hi = ps->hi;
  }
  if (strcmp(ps->unit, "s") == 0) spec.unit = IOS_UNIT_DURATION;
  if (strcmp(ps->unit, "bytes") == 0) spec.unit = IOS_UNIT_BYTES;
  if (strcmp(ps->unit, "bytes/s") == 0) spec.unit = IOS_UNIT_BANDWIDTH;
  return spec;
}

void ios_scenario_free(ios_scenario_t *s) {
  free(s->generated_platform);
  cJSON_Delete(s->calibration_applied);
  cJSON_Delete(s->resolved);
  free(s->file);
  memset(s, 0, sizeof *s);
}
