/* iosim — campaign files (see ios_campaign.h and docs/campaigns.md). */
#include "ios_campaign.h"
#include "ios_diag.h"
#include "ios_fs.h"
#include "ios_point_inputs.h"
#include "ios_scenario.h"
#include "ios_value.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_POINTS 10000000

static const char *const top_keys[] = {"name", "description", "base",   "set",   "grid",
                                       "zip",  "seeds",       "report", "slurm", NULL};

/* Fields a sweep sets itself. */
static const char *const reserved_keys[] = {"output.dir", "output.progress", NULL};

static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  size_t n = slash != NULL ? (size_t)(slash - path) + 1 : 0;
  char *d = malloc(n + 1);
  if (d != NULL) {
    memcpy(d, path, n);
    d[n] = '\0';
  }
  return d;
}

/* Absolute directory of `path` with a trailing '/'. */
static char *abs_dir_of(const char *path) {
  char *d = dir_of(path);
  if (d == NULL || d[0] == '/') return d;
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd) == NULL) return d;
  size_t n = strlen(cwd) + strlen(d) + 2;
  char *a = malloc(n);
  if (a != NULL) snprintf(a, n, "%s/%s", cwd, d);
  free(d);
  return a;
}

static int is_count(const cJSON *v, double lo, double hi) {
  return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) && v->valuedouble >= lo && v->valuedouble <= hi;
}

static uint64_t fnv1a(uint64_t h, const char *s) {
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ULL;
  }
  return h;
}

static int cmp_keys(const void *a, const void *b) {
  return strcmp((*(const ios_campaign_key_t *const *)a)->key, (*(const ios_campaign_key_t *const *)b)->key);
}

/* Index of the value of axis `axis` at point `index`. */
static int axis_value(const ios_campaign_t *c, int index, int axis) {
  for (int a = c->naxes - 1; a > axis; a--)
    index /= c->axis_len[a];
  return index % c->axis_len[axis];
}

const cJSON *ios_campaign_point_value(const ios_campaign_t *c, int index, int k) {
  return cJSON_GetArrayItem(c->keys[k].values, axis_value(c, index, c->keys[k].axis));
}

static uint64_t point_seed_value(const ios_campaign_t *c, int index) {
  return c->seed_from + (uint64_t)axis_value(c, index, c->naxes - 1);
}

cJSON *ios_campaign_point_scenario(const ios_campaign_t *c, int index) {
  ios_diag_set(NULL, NULL, "%s", "");
  cJSON *user = cJSON_Duplicate(c->base, 1);
  if (user == NULL || ios_scenario_rebase(user, c->base_dir) != 0) {
    cJSON_Delete(user);
    return NULL;
  }
  const cJSON *fixed;
  cJSON_ArrayForEach(fixed, cJSON_GetObjectItemCaseSensitive(c->campaign, "set")) {
    if (ios_scenario_set_value(user, fixed->string, fixed, c->campaign_dir) != 0) {
      cJSON_Delete(user);
      return NULL;
    }
  }
  for (int k = 0; k < c->nkeys; k++)
    if (ios_scenario_set_value(user, c->keys[k].key, ios_campaign_point_value(c, index, k), c->campaign_dir) != 0) {
      cJSON_Delete(user);
      return NULL;
    }
  if (c->has_seeds) {
    cJSON *seed = cJSON_CreateNumber((double)point_seed_value(c, index));
    int rc = seed != NULL ? ios_scenario_set_value(user, "seed", seed, "") : -1;
    cJSON_Delete(seed);
    if (rc != 0) {
      cJSON_Delete(user);
      return NULL;
    }
  }
  return user;
}

/* "k1=v1, k2=v2" of a point, for messages. */
static void describe_point(const ios_campaign_t *c, int index, char *buf, size_t n) {
  buf[0] = '\0';
  for (int k = 0; k <= c->nkeys; k++) {
    char *v = NULL;
    const char *key = k < c->nkeys ? c->keys[k].key : "seed";
    if (k < c->nkeys)
      v = cJSON_PrintUnformatted(ios_campaign_point_value(c, index, k));
    else if (c->has_seeds) {
      v = malloc(24);
      if (v != NULL) snprintf(v, 24, "%llu", (unsigned long long)point_seed_value(c, index));
    }
    if (v == NULL) continue;
    size_t l = strlen(buf);
    snprintf(buf + l, n - l, "%s%s=%s", l ? ", " : "", key, v);
    free(v);
  }
}

static int check_key(const char *file, const char *where, const char *key) {
  for (int i = 0; reserved_keys[i] != NULL; i++)
    if (strcmp(key, reserved_keys[i]) == 0) {
      ios_diag_set(file, where, "'%s' is set by iosim sweep for every run: remove it from the campaign", key);
      return IOS_EINVAL;
    }
  if (key[0] == '\0' || strlen(key) >= 200 || key[0] == '.' || key[strlen(key) - 1] == '.' || strstr(key, "..")) {
    ios_diag_set(file, where, "'%s' is not a dotted scenario field (e.g. \"sharing.policy\")", key);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

static int add_key(ios_campaign_t *c, const char *file, const char *where, cJSON *arr, int axis) {
  if (check_key(file, where, arr->string) != IOS_OK) return IOS_EINVAL;
  if (strcmp(arr->string, "seed") == 0 && c->has_seeds) {
    ios_diag_set(file, where, "the seed is swept by \"seeds\": remove \"seed\" from the grid (or drop \"seeds\")");
    return IOS_EINVAL;
  }
  for (int k = 0; k < c->nkeys; k++)
    if (strcmp(c->keys[k].key, arr->string) == 0) {
      ios_diag_set(file, where, "'%s' is swept twice (in the grid and in a zip group): keep one", arr->string);
      return IOS_EINVAL;
    }
  if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0) {
    ios_diag_set(file, where, "must be a non-empty array of values, e.g. [\"fairshare\", \"fcfs\"]");
    return IOS_EINVAL;
  }
  ios_campaign_key_t *keys = realloc(c->keys, sizeof *keys * (size_t)(c->nkeys + 1));
  if (keys == NULL) return IOS_ENOMEM;
  c->keys = keys;
  keys[c->nkeys].key = strdup(arr->string);
  keys[c->nkeys].axis = axis;
  keys[c->nkeys].values = arr;
  c->nkeys++;
  return keys[c->nkeys - 1].key != NULL ? IOS_OK : IOS_ENOMEM;
}

static int add_axis(ios_campaign_t *c, int len) {
  int *a = realloc(c->axis_len, sizeof *a * (size_t)(c->naxes + 1));
  if (a == NULL) return IOS_ENOMEM;
  c->axis_len = a;
  a[c->naxes++] = len;
  return IOS_OK;
}

/* Reads "seeds" ({"from": F, "count": N}, when given) into c->has_seeds and c->seed_from; its axis comes last. */
static int parse_seeds(ios_campaign_t *c, const cJSON *seeds) {
  const char *file = c->file;
  if (ios_value_object(seeds, "{\"from\": 1, \"count\": 20}", file, "seeds") != IOS_OK) return IOS_EINVAL;
  static const char *const seed_keys[] = {"from", "count", NULL};
  if (ios_value_check_keys(seeds, seed_keys, -1, file, "seeds") != IOS_OK) return IOS_EINVAL;
  const cJSON *from = cJSON_GetObjectItemCaseSensitive(seeds, "from");
  const cJSON *count = cJSON_GetObjectItemCaseSensitive(seeds, "count");
  if (!cJSON_IsObject(seeds) || !is_count(count, 1, 1e6)) {
    ios_diag_set(file, "seeds.count",
                 "must be an integer between 1 and 1000000, e.g. \"seeds\": {\"from\": 1, "
                 "\"count\": 20}");
    return IOS_EINVAL;
  }
  if (from != NULL && !is_count(from, 0, 9007199254740991.0 - 1e6)) {
    ios_diag_set(file, "seeds.from", "must be a non-negative integer (the first seed; default 1)");
    return IOS_EINVAL;
  }
  c->has_seeds = 1;
  c->seed_from = from != NULL ? (uint64_t)from->valuedouble : 1;
  return IOS_OK;
}

/* Reads "grid": each of its fields is a key of its own axis. */
static int parse_grid(ios_campaign_t *c) {
  const char *file = c->file;
  const cJSON *grid = cJSON_GetObjectItemCaseSensitive(c->campaign, "grid");
  if (grid != NULL && !cJSON_IsObject(grid)) {
    ios_diag_set(file, "grid",
                 "must be an object mapping dotted scenario fields to arrays of values, e.g. "
                 "{\"sharing.policy\": [\"fairshare\", \"fcfs\"]}");
    return IOS_EINVAL;
  }
  cJSON *arr;
  cJSON_ArrayForEach(arr, grid) {
    char where[256];
    snprintf(where, sizeof where, "grid.%s", arr->string);
    int rc = add_key(c, file, where, arr, c->naxes);
    if (rc == IOS_OK) rc = add_axis(c, cJSON_GetArraySize(arr));
    if (rc != IOS_OK) return rc;
  }
  return IOS_OK;
}

/* Reads zip group g: its fields, equally long arrays, are the keys of one axis. */
static int parse_zip_group(ios_campaign_t *c, const cJSON *group, int g) {
  const char *file = c->file;
  int len = -1;
  char where[256];
  snprintf(where, sizeof where, "zip[%d]", g);
  if (!cJSON_IsObject(group) || cJSON_GetArraySize(group) == 0) {
    ios_diag_set(file, where, "must be a non-empty object of equally long arrays");
    return IOS_EINVAL;
  }
  cJSON *arr;
  cJSON_ArrayForEach(arr, group) {
    snprintf(where, sizeof where, "zip[%d].%s", g, arr->string);
    int rc = add_key(c, file, where, arr, c->naxes);
    if (rc != IOS_OK) return rc;
    if (len >= 0 && cJSON_GetArraySize(arr) != len) {
      ios_diag_set(file, where,
                   "has %d values but the other fields of this zip group have %d: zipped arrays vary "
                   "together and must have the same length",
                   cJSON_GetArraySize(arr), len);
      return IOS_EINVAL;
    }
    len = cJSON_GetArraySize(arr);
  }
  return add_axis(c, len) != IOS_OK ? IOS_ENOMEM : IOS_OK;
}

/* Reads "zip": an array of groups (parse_zip_group). */
static int parse_zip(ios_campaign_t *c) {
  const cJSON *zip = cJSON_GetObjectItemCaseSensitive(c->campaign, "zip");
  if (zip != NULL && !cJSON_IsArray(zip)) {
    ios_diag_set(c->file, "zip",
                 "must be an array of groups, each an object of equally long arrays, e.g. "
                 "[{\"platform.ionodes\": [4, 8], \"platform.compute\": [128, 256]}]");
    return IOS_EINVAL;
  }
  int g = 0;
  const cJSON *group;
  cJSON_ArrayForEach(group, zip) {
    int rc = parse_zip_group(c, group, g);
    if (rc != IOS_OK) return rc;
    g++;
  }
  return IOS_OK;
}

/* Reads the axes of c->campaign. */
static int parse_axes(ios_campaign_t *c) {
  const char *file = c->file;
  const cJSON *seeds = cJSON_GetObjectItemCaseSensitive(c->campaign, "seeds");
  int rc = seeds != NULL ? parse_seeds(c, seeds) : IOS_OK;
  if (rc == IOS_OK) rc = parse_grid(c);
  if (rc == IOS_OK) rc = parse_zip(c);
  if (rc != IOS_OK) return rc;
  if (c->has_seeds && add_axis(c, (int)cJSON_GetObjectItemCaseSensitive(seeds, "count")->valuedouble) != IOS_OK)
    return IOS_ENOMEM;
  if (c->naxes == 0) {
    ios_diag_set(file, "grid",
                 "the campaign sweeps nothing: give a non-empty \"grid\", a \"zip\" group or "
                 "\"seeds\": {\"from\": 1, \"count\": N}");
    return IOS_EINVAL;
  }
  double n = 1;
  for (int a = 0; a < c->naxes; a++)
    n *= c->axis_len[a];
  if (n > MAX_POINTS) {
    ios_diag_set(file, "grid", "expands to %.0f points, more than %d: split the campaign", n, MAX_POINTS);
    return IOS_EINVAL;
  }
  c->npoints = (int)n;
  return IOS_OK;
}

static int file_readable(const char *path) {
  return path == NULL || access(path, R_OK) == 0;
}

static int cmp_point_ids(const void *a, const void *b) {
  return strcmp(((const ios_campaign_point_t *)a)->id, ((const ios_campaign_point_t *)b)->id);
}

/* Two points with one id would share one result: a value repeated in an axis (or, improbably, a hash collision). */
static int check_distinct(const ios_campaign_t *c) {
  ios_campaign_point_t *copy = malloc(sizeof *copy * (size_t)c->npoints);
  if (copy == NULL) return IOS_ENOMEM;
  memcpy(copy, c->points, sizeof *copy * (size_t)c->npoints);
  qsort(copy, (size_t)c->npoints, sizeof *copy, cmp_point_ids);
  int rc = IOS_OK;
  for (int i = 1; i < c->npoints && rc == IOS_OK; i++)
    if (strcmp(copy[i - 1].id, copy[i].id) == 0) {
      char d1[512], d2[512];
      describe_point(c, copy[i - 1].index, d1, sizeof d1);
      describe_point(c, copy[i].index, d2, sizeof d2);
      ios_diag_set(c->file, "grid", "points %d (%s) and %d (%s) are the same run: remove the repeated value",
                   copy[i - 1].index, d1, copy[i].index, d2);
      rc = IOS_EINVAL;
    }
  free(copy);
  return rc;
}

/* Writes point i's id (FNV-1a over its sorted values and seed, splitmix64-finalised) into pt->id. */
static int point_id(const ios_campaign_t *c, const ios_campaign_key_t **sorted, uint64_t h0, int i,
                    ios_campaign_point_t *pt) {
  int rc = IOS_OK;
  uint64_t h = h0;
  for (int k = 0; k < c->nkeys; k++) {
    char *v = cJSON_PrintUnformatted(ios_campaign_point_value(c, i, (int)(sorted[k] - c->keys)));
    if (v == NULL) {
      rc = IOS_ENOMEM;
      break;
    }
    h = fnv1a(fnv1a(fnv1a(fnv1a(h, "\n"), sorted[k]->key), "="), v);
    free(v);
  }
  if (c->has_seeds) {
    char s[40];
    snprintf(s, sizeof s, "\nseed=%llu", (unsigned long long)point_seed_value(c, i));
    h = fnv1a(h, s);
  }
  h ^= h >> 30; /* splitmix64 finaliser: neighbouring points get unrelated-looking ids */
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  snprintf(pt->id, sizeof pt->id, "%016llx", (unsigned long long)h);
  return rc;
}

/* Validates the scenario of point i (its platform, workload file and datasets readable) and keeps its seed in
 * pt->seed. */
static int check_point(const ios_campaign_t *c, int i, ios_campaign_point_t *pt) {
  cJSON *user = ios_campaign_point_scenario(c, i);
  char desc[512], label[1024];
  describe_point(c, i, desc, sizeof desc);
  snprintf(label, sizeof label, "%s: point %d (%s)", c->file, i, desc);
  if (user == NULL && ios_diag_message()[0] == '\0') return IOS_ENOMEM;
  if (user == NULL) { /* a field the point's values cannot set (a generator parameter of a file platform) */
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", ios_diag_message());
    ios_diag_set(label, NULL, "%s", strncmp(msg, "--set: ", 7) == 0 ? msg + 7 : msg);
    return IOS_EINVAL;
  }
  ios_scenario_t s;
  int rc = ios_scenario_from_json(user, label, &s);
  cJSON_Delete(user);
  if (rc != IOS_OK) return rc;
  pt->seed = s.seed;
  if (!file_readable(s.platform)) {
    ios_diag_set(label, "platform",
                 "cannot read '%s' (%s): fix the path (relative paths in the base are "
                 "relative to the base scenario file)",
                 s.platform, strerror(errno));
    rc = IOS_EINVAL;
  }
  if (rc == IOS_OK && c->check_inputs) rc = ios_point_inputs_check(&s, label); /* the workload file and datasets */
  ios_scenario_free(&s);
  return rc;
}

/* Expands and validates every point, computing ids and seeds. */
static int expand(ios_campaign_t *c) {
  c->points = calloc((size_t)c->npoints, sizeof *c->points);
  const ios_campaign_key_t **sorted = malloc(sizeof *sorted * (size_t)(c->nkeys + 1));
  char *base_text = cJSON_PrintUnformatted(c->base);
  const cJSON *set = cJSON_GetObjectItemCaseSensitive(c->campaign, "set");
  char *set_text = set != NULL ? cJSON_PrintUnformatted(set) : strdup("");
  if (c->points == NULL || sorted == NULL || base_text == NULL || set_text == NULL) {
    free(sorted);
    free(base_text);
    free(set_text);
    return IOS_ENOMEM;
  }
  for (int k = 0; k < c->nkeys; k++)
    sorted[k] = &c->keys[k];
  qsort(sorted, (size_t)c->nkeys, sizeof *sorted, cmp_keys);
  uint64_t h0 = fnv1a(fnv1a(14695981039346656037ULL, "iosim-campaign-v1\nbase="), base_text);
  if (set_text[0] != '\0') h0 = fnv1a(fnv1a(h0, "\nset="), set_text);
  free(base_text);
  free(set_text);
  int rc = IOS_OK;
  for (int i = 0; i < c->npoints && rc == IOS_OK; i++) {
    ios_campaign_point_t *pt = &c->points[i];
    pt->index = i;
    rc = point_id(c, sorted, h0, i, pt);
    if (rc == IOS_OK) rc = check_point(c, i, pt);
  }
  free(sorted);
  if (rc == IOS_OK) rc = check_distinct(c);
  return rc;
}

/* A campaign name that is safe as a directory name and in a shell script: [A-Za-z0-9._-]{1,100}, not "." or "..". */
static int safe_name(const cJSON *name) {
  if (!cJSON_IsString(name)) return 0;
  const char *n = name->valuestring;
  size_t len = strlen(n);
  if (len == 0 || len > 100 || strcmp(n, ".") == 0 || strcmp(n, "..") == 0) return 0;
  for (size_t i = 0; i < len; i++) {
    char ch = n[i];
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
          ch == '-'))
      return 0;
  }
  return 1;
}

static int finish_load(ios_campaign_t *c) {
  const cJSON *item;
  cJSON_ArrayForEach(item, c->campaign) {
    int ok = 0;
    for (int i = 0; top_keys[i] != NULL; i++)
      ok |= strcmp(item->string, top_keys[i]) == 0;
    if (!ok) {
      ios_diag_set(c->file, item->string,
                   "unknown field; valid fields are: name, description, base, set, grid, zip, "
                   "seeds, report, slurm (see docs/campaigns.md)");
      return IOS_EINVAL;
    }
  }
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(c->campaign, "name");
  if (name != NULL && !safe_name(name)) {
    char text[64];
    ios_value_text(name, text, sizeof text);
    ios_diag_set(c->file, "name",
                 "is %s: give a string of 1 to 100 letters, digits, '.', '_' or '-', not \".\" or \"..\" (it names "
                 "the output directory and the Slurm jobs), e.g. \"sharing-ioload\"",
                 text);
    return IOS_EINVAL;
  }
  const cJSON *set = cJSON_GetObjectItemCaseSensitive(c->campaign, "set"), *fixed;
  if (set != NULL && !cJSON_IsObject(set)) {
    ios_diag_set(c->file, "set",
                 "must be an object of dotted scenario fields and the value each takes in every run, "
                 "e.g. {\"platform\": {\"kind\": \"forwarding\"}, \"output.events\": true}");
    return IOS_EINVAL;
  }
  cJSON_ArrayForEach(fixed, set) {
    char where[256];
    snprintf(where, sizeof where, "set.%s", fixed->string);
    if (check_key(c->file, where, fixed->string) != IOS_OK) return IOS_EINVAL;
  }
  const cJSON *report = cJSON_GetObjectItemCaseSensitive(c->campaign, "report");
  if (report != NULL && !cJSON_IsObject(report)) {
    ios_diag_set(c->file, "report",
                 "must be an object (x, policy, metrics, baseline, gantt_run; see "
                 "docs/campaigns.md)");
    return IOS_EINVAL;
  }
  if (ios_campaign_slurm_validate(c) != IOS_OK) return IOS_EINVAL;
  int rc = parse_axes(c);
  return rc == IOS_OK ? expand(c) : rc;
}

static cJSON *parse_json_file(const char *path, const char *what, const char *field) {
  char *text = ios_read_file(path, NULL);
  if (text == NULL) {
    ios_diag_set(path, field, "cannot read the %s (%s): check the path", what, strerror(errno));
    return NULL;
  }
  cJSON *j = cJSON_ParseWithOpts(text, NULL, 1);
  free(text);
  if (!cJSON_IsObject(j)) {
    ios_diag_set(path, field, "is not a JSON object: fix the %s's syntax (a missing comma, quote or brace?)", what);
    cJSON_Delete(j);
    return NULL;
  }
  return j;
}

/* The value `assignment` ("key=value", value read as on `iosim run --set`) gives to `key` once resolved like a
 * run's --set (a relative path made absolute from the current directory). NULL with ios_diag_message() when bad. */
static cJSON *cli_value(const char *assignment, char *key, size_t nkey) {
  const char *eq = strchr(assignment, '=');
  if (eq == NULL || eq == assignment || (size_t)(eq - assignment) >= nkey) {
    ios_diag_set("command line", "--set",
                 "\"%s\" must be KEY=VALUE with a dotted scenario key, e.g. --set "
                 "sharing.policy=fcfs",
                 assignment);
    return NULL;
  }
  snprintf(key, nkey, "%.*s", (int)(eq - assignment), assignment);
  if (check_key("command line", "--set", key) != IOS_OK) return NULL;
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd - 1) == NULL) cwd[0] = '\0';
  strcat(cwd, "/");
  cJSON *scratch = cJSON_CreateObject(), *v = ios_value_from_cli(eq + 1), *out = NULL;
  if (scratch != NULL && v != NULL && ios_scenario_set_value(scratch, key, v, cwd) == IOS_OK) {
    const cJSON *at = scratch;
    char part[256];
    for (const char *k = key; at != NULL && *k != '\0';) {
      size_t n = strcspn(k, ".");
      snprintf(part, sizeof part, "%.*s", (int)n, k);
      at = cJSON_GetObjectItemCaseSensitive(at, part);
      k += n + (k[n] == '.');
    }
    out = at != NULL ? cJSON_Duplicate(at, 1) : NULL;
  }
  if (out == NULL && ios_diag_message()[0] == '\0') ios_diag_set("command line", "--set", "%s: out of memory", key);
  cJSON_Delete(scratch);
  cJSON_Delete(v);
  return out;
}

/* Applies `iosim sweep --set` and `--seeds` to the campaign as written: each --set pins its key to one value in
 * every run (a one-value grid axis, so it is a column of runs.csv and part of the run ids; a key the grid sweeps is
 * pinned), --seeds replaces seeds.count. */
static int apply_overrides(ios_campaign_t *c, int nsets, char *const *sets, int seeds) {
  ios_diag_set(NULL, NULL, "%s", "");
  for (int i = 0; i < nsets; i++) {
    char key[256];
    cJSON *v = cli_value(sets[i], key, sizeof key);
    if (v == NULL) return IOS_EINVAL;
    const cJSON *group;
    cJSON_ArrayForEach(group, cJSON_GetObjectItemCaseSensitive(c->campaign, "zip")) {
      if (cJSON_GetObjectItemCaseSensitive(group, key) != NULL) {
        ios_diag_set(c->file, "zip",
                     "--set %s: the campaign sweeps '%s' in a zip group together with other fields: "
                     "edit the campaign instead",
                     sets[i], key);
        cJSON_Delete(v);
        return IOS_EINVAL;
      }
    }
    cJSON *grid = cJSON_GetObjectItemCaseSensitive(c->campaign, "grid"), *one = cJSON_CreateArray();
    if (grid == NULL) grid = cJSON_AddObjectToObject(c->campaign, "grid");
    if (one == NULL || grid == NULL || !cJSON_IsObject(grid) || !cJSON_AddItemToArray(one, v)) {
      cJSON_Delete(one);
      cJSON_Delete(v);
      if (grid != NULL && !cJSON_IsObject(grid)) return IOS_OK; /* finish_load reports the bad grid */
      return IOS_ENOMEM;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(grid, key);
    cJSON_AddItemToObject(grid, key, one);
  }
  if (seeds > 0) {
    cJSON *sd = cJSON_GetObjectItemCaseSensitive(c->campaign, "seeds");
    if (sd == NULL) sd = cJSON_AddObjectToObject(c->campaign, "seeds");
    if (sd == NULL) return IOS_ENOMEM;
    if (cJSON_IsObject(sd)) {
      cJSON_DeleteItemFromObjectCaseSensitive(sd, "count");
      if (cJSON_AddNumberToObject(sd, "count", seeds) == NULL) return IOS_ENOMEM;
    }
  }
  return IOS_OK;
}

int ios_campaign_load(const char *path, ios_campaign_t *c) {
  return ios_campaign_load_with(path, 0, NULL, 0, c);
}

int ios_campaign_load_with(const char *path, int nsets, char *const *sets, int seeds, ios_campaign_t *c) {
  memset(c, 0, sizeof *c);
  c->file = strdup(path);
  c->campaign = parse_json_file(path, "campaign", NULL);
  c->campaign_dir = abs_dir_of(path);
  if (c->campaign == NULL) {
    ios_campaign_free(c);
    return IOS_EINVAL;
  }
  const cJSON *base = cJSON_GetObjectItemCaseSensitive(c->campaign, "base");
  int rc = IOS_OK;
  if (cJSON_IsString(base)) {
    char *expanded = ios_expand_path(base->valuestring, path, "base");
    char *bpath = NULL;
    if (expanded != NULL) {
      size_t n = strlen(c->campaign_dir) + strlen(expanded) + 1;
      bpath = malloc(n);
      if (bpath != NULL) snprintf(bpath, n, "%s%s", expanded[0] == '/' ? "" : c->campaign_dir, expanded);
    }
    free(expanded);
    if (bpath != NULL && access(bpath, R_OK) != 0)
      ios_diag_set(path, "base",
                   "cannot read the base scenario '%s' (%s): fix the path (relative to the campaign "
                   "file)",
                   bpath, strerror(errno));
    else if (bpath != NULL)
      c->base = parse_json_file(bpath, "base scenario", NULL);
    c->base_dir = bpath != NULL ? abs_dir_of(bpath) : NULL;
    free(bpath);
    if (c->base == NULL) rc = IOS_EINVAL;
  } else if (cJSON_IsObject(base)) {
    c->base = cJSON_Duplicate(base, 1);
    c->base_dir = strdup(c->campaign_dir);
  } else {
    ios_diag_set(path, "base",
                 "must be the path of a scenario file (relative to the campaign) or a scenario "
                 "object, e.g. \"base\": \"../mn4-random16.json\"");
    rc = IOS_EINVAL;
  }
  if (rc == IOS_OK) rc = apply_overrides(c, nsets, sets, seeds);
  c->check_inputs = 1;
  if (rc == IOS_OK) rc = finish_load(c);
  if (rc != IOS_OK) ios_campaign_free(c);
  return rc;
}

cJSON *ios_campaign_record(const ios_campaign_t *c) {
  cJSON *r = cJSON_CreateObject();
  if (r == NULL) return NULL;
  cJSON_AddStringToObject(r, "format", "iosim-sweep-record-1");
  cJSON_AddStringToObject(r, "campaign_file", c->file);
  cJSON_AddStringToObject(r, "campaign_dir", c->campaign_dir);
  cJSON_AddStringToObject(r, "base_dir", c->base_dir);
  cJSON_AddItemToObject(r, "campaign", cJSON_Duplicate(c->campaign, 1));
  cJSON_AddItemToObject(r, "base", cJSON_Duplicate(c->base, 1));
  return r;
}

int ios_campaign_load_record(const cJSON *record, const char *label, ios_campaign_t *c) {
  memset(c, 0, sizeof *c);
  const cJSON *f = cJSON_GetObjectItemCaseSensitive(record, "campaign_file");
  const cJSON *cd = cJSON_GetObjectItemCaseSensitive(record, "campaign_dir");
  const cJSON *bd = cJSON_GetObjectItemCaseSensitive(record, "base_dir");
  const cJSON *camp = cJSON_GetObjectItemCaseSensitive(record, "campaign");
  const cJSON *base = cJSON_GetObjectItemCaseSensitive(record, "base");
  if (!cJSON_IsString(f) || !cJSON_IsString(cd) || !cJSON_IsString(bd) || !cJSON_IsObject(camp) ||
      !cJSON_IsObject(base)) {
    ios_diag_set(label, NULL, "is not a sweep record written by iosim sweep: point at a sweep's output directory");
    return IOS_EINVAL;
  }
  c->file = strdup(f->valuestring);
  c->campaign_dir = strdup(cd->valuestring);
  c->base_dir = strdup(bd->valuestring);
  c->campaign = cJSON_Duplicate(camp, 1);
  c->base = cJSON_Duplicate(base, 1);
  int rc = c->file && c->campaign_dir && c->base_dir && c->campaign && c->base ? finish_load(c) : IOS_ENOMEM;
  if (rc != IOS_OK) ios_campaign_free(c);
  return rc;
}

void ios_campaign_free(ios_campaign_t *c) {
  for (int k = 0; k < c->nkeys; k++)
    free(c->keys[k].key);
  free(c->keys);
  free(c->axis_len);
  free(c->points);
  cJSON_Delete(c->campaign);
  cJSON_Delete(c->base);
  free(c->file);
  free(c->base_dir);
  free(c->campaign_dir);
  memset(c, 0, sizeof *c);
}
